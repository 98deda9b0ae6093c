"""Requests that read a deck or replay a game (a deck sent to the gallery, a shipped
set's cards, a chronicle) are worked out in a worker process, never on the event
loop, and each client may send only ``--heavy-rate`` decks and chronicles
(docs/security.md, "Bounded input, bounded work"; ``gloomtable.server.heavy``).

Before, ``POST /api/gallery`` read its deck (up to ``--max-deck-body``) on the event
loop, and every chronicle replayed its game there, with no rate: a client sending
them back to back stalled every table on the server."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from gloomtable.server.testing import ServerProcess

SEATS = [{"kind": "person", "name": "Ada"}, {"kind": "person", "name": "Bo"}]
DECK_BYTES = 4_000_000


def big_deck(size: int) -> str:
    """The classic set's cards again and again under new ids, to ``size`` bytes: a deck
    that takes the server about a second to read (it then finds its counts wrong)."""
    text = (resources.files("gloomtable.games.gloom.sets") / "classic.toml").read_text(encoding="utf-8")
    head, _, body = text.partition("[[")
    parts, total, i = [head], len(head), 0
    while total < size:
        i += 1
        part = re.sub(r'(id|family) = "([^"]+)"', rf'\1 = "\2-{i}"', "[[" + body)
        parts.append(part)
        total += len(part)
    return "".join(parts)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("heavy") / "tables.db",
                       args=["--max-deck-body", str(2 * DECK_BYTES), "--heavy-timeout", "60"]) as srv:
        yield srv


@pytest.mark.slow
def test_decks_are_read_off_the_event_loop(server: ServerProcess) -> None:
    """Two big decks sent one after the other: a spectator's pings keep coming back
    quickly while the server reads them, far sooner than reading one takes."""
    deck = big_deck(DECK_BYTES)
    r = httpx.post(server.url + "/api/tables", json={"seats": SEATS}, timeout=20)
    assert r.status_code == 201, r.text
    answers: list[tuple[int, float]] = []

    def upload() -> None:
        for _ in range(2):
            start = time.monotonic()
            reply = httpx.post(server.url + "/api/gallery", content=deck, timeout=60)
            answers.append((reply.status_code, time.monotonic() - start))

    with connect(f"{server.ws_url}/ws/{r.json()['id']}", open_timeout=20) as conn:
        conn.send(server.hello(None))
        while json.loads(conn.recv(timeout=20))["type"] != "seats":
            pass
        senders = [threading.Thread(target=upload)]
        for t in senders:
            t.start()
        waits = []
        while any(t.is_alive() for t in senders):
            sent = time.monotonic()
            conn.send('{"type": "ping"}')
            while (msg := json.loads(conn.recv(timeout=30)))["type"] != "pong":
                assert msg["type"] != "error", msg
            waits.append(time.monotonic() - sent)
            time.sleep(0.06)  # inside --message-rate (40 in 2 s)
        for t in senders:
            t.join()
    assert [status for status, _ in answers] == [400, 400]  # read whole: its counts are wrong
    slowest = min(took for _, took in answers)
    assert slowest > 0.25, f"a deck was read in {slowest:.2f} s: too little work to show anything"
    assert len(waits) >= 5 and max(waits) < slowest / 3, (max(waits), slowest, len(waits))


@pytest.mark.slow
def test_heavy_requests_have_a_rate_per_client(tmp_path: Path) -> None:
    """``--heavy-rate 3/hour``: a fourth deck or chronicle from the same address is
    429, whichever kind it is; lighter requests go on, and so do a shipped set's
    cards (read once)."""
    with ServerProcess(tmp_path / "rated.db", shared_loopback=False,
                       args=["--heavy-rate", "3/hour"]) as srv:
        assert httpx.post(srv.url + "/api/gallery", content="[set]\n", timeout=20).status_code == 400
        assert httpx.post(srv.url + "/api/gallery", content="[set]\n", timeout=20).status_code == 400
        assert httpx.get(srv.url + "/api/tables/anything/chronicle", timeout=20).status_code == 404
        refused = httpx.get(srv.url + "/api/tables/anything/chronicle", timeout=20)
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited", refused.text
        assert "chronicles" in refused.json()["message"]
        assert httpx.get(srv.url + "/api/games", timeout=20).status_code == 200
        for _ in range(5):  # a shipped set's cards are read once, and cost nothing after
            assert httpx.get(srv.url + "/api/gallery/classic", timeout=20).status_code == 200


@pytest.mark.slow
def test_tables_read_back_from_the_store_count_as_heavy(tmp_path: Path) -> None:
    """A table this process does not hold is read back from the store (its game
    replayed), so such lookups, unknown ids among them, count against
    ``--heavy-rate``; a table in memory is free to ask for, and a websocket to one
    more unknown id is refused too."""
    with ServerProcess(tmp_path / "lookups.db", shared_loopback=False,
                       args=["--heavy-rate", "3/hour"]) as srv:
        r = httpx.post(srv.url + "/api/tables", json={"seats": SEATS}, timeout=20)
        assert r.status_code == 201, r.text
        for _ in range(10):  # in memory: no replay, no count
            assert httpx.get(f"{srv.url}/api/tables/{r.json()['id']}", timeout=20).status_code == 200
        for i in range(3):
            assert httpx.get(f"{srv.url}/api/tables/gone{i}", timeout=20).status_code == 404
        refused = httpx.get(f"{srv.url}/api/tables/gone3/cards", timeout=20)
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited", refused.text
        with connect(f"{srv.ws_url}/ws/gone4", open_timeout=20) as conn:  # refused before its hello
            assert json.loads(conn.recv(timeout=20))["code"] == "rate_limited"
        assert httpx.get(f"{srv.url}/api/tables/{r.json()['id']}", timeout=20).status_code == 200
