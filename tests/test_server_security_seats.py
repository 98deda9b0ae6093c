"""Issue 16, the seats, the deals and the lobby's work: each test reproduces an
attack of the issue's table against a real ``gloom serve`` on 127.0.0.1 and
shows it closed (rows 1, 2, 3 + 13, 5 + 6, 8, 9, 14; docs/security.md)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from gloomtable.engine.record import GameRecord
from gloomtable.games import replay_record
from gloomtable.server.testing import ServerProcess
from reliability_support import stored

PEOPLE = [{"kind": "person", "name": "Ada"}, {"kind": "person", "name": "Bo"}]


@pytest.fixture(scope="module")
def public(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """The server as a public one runs: no fixed deals, bot-only tables paced."""
    with ServerProcess(tmp_path_factory.mktemp("public") / "tables.db",
                       allow_fixed_deals=False, fast_bots=False) as srv:
        yield srv


@pytest.fixture(scope="module")
def fixed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server started with --allow-fixed-deals (tests, friends replaying a deal)."""
    with ServerProcess(tmp_path_factory.mktemp("fixed") / "tables.db") as srv:
        yield srv


def create(server: ServerProcess, **body: Any) -> dict[str, Any]:
    body.setdefault("seats", PEOPLE)
    r = httpx.post(server.url + "/api/tables", json=body, timeout=20)
    assert r.status_code == 201, r.text
    return r.json()


def refused(resp: httpx.Response, status: int, code: str) -> str:
    assert resp.status_code == status, resp.text
    data = resp.json()
    assert data["type"] == "error" and data["code"] == code and data["message"], data
    return str(data["message"])


def ws(server: ServerProcess, tid: str, token: str | None = None) -> ClientConnection:
    q = "" if token is None else f"?token={quote(token, safe='')}"
    return connect(f"{server.ws_url}/ws/{tid}{q}", open_timeout=20, max_size=2**22)


def first(sock: ClientConnection, kind: str, limit: int = 100) -> dict[str, Any]:
    for _ in range(limit):
        msg = json.loads(sock.recv(timeout=20))
        if msg["type"] == kind:
            return dict(msg)
    raise AssertionError(f"no {kind!r} message in {limit}")


def listed_ids(server: ServerProcess) -> set[str]:
    ids: set[str] = set()
    offset = 0
    while True:
        page = httpx.get(f"{server.url}/api/tables?offset={offset}&limit=50", timeout=20).json()
        ids |= {t["id"] for t in page["tables"]}
        offset += page["limit"]
        if offset >= page["total"]:
            return ids


# --- row 1: bounded config, games built off the event loop -------------------------------


def ping_times(server: ServerProcess, tid: str, stop: threading.Event, out: list[float]) -> None:
    """A bystander's ping round trips, until ``stop``."""
    with ws(server, tid) as sock:
        first(sock, "state")
        while not stop.is_set():
            t0 = time.monotonic()
            sock.send('{"type": "ping"}')
            first(sock, "pong")
            out.append(time.monotonic() - t0)
            time.sleep(0.05)


def test_row1_a_huge_config_is_refused_at_once_and_nobody_stalls(public: ServerProcess) -> None:
    bystander = create(public)
    stop, pings = threading.Event(), []  # type: ignore[var-annotated]
    watcher = threading.Thread(target=ping_times, args=(public, bystander["id"], stop, pings))
    watcher.start()
    try:
        time.sleep(0.3)
        attacks = [
            {"sets": ["classic"] * 700},  # the 7.7 KB body: 17 s of a frozen loop before
            {"sets": ["classic", "classic"]},
            {"sets": [f"set{i}" for i in range(40)]},
            {f"k{i}": i for i in range(40)},
            {"edition": "x" * 5000},
            {"turn_cap": 10**12},
            {"deep": {"a": {"b": [1, 2]}}},
            {"sets": [["classic"]]},
        ]
        for config in attacks:
            t0 = time.monotonic()
            r = httpx.post(public.url + "/api/tables", json={"seats": PEOPLE, "config": config}, timeout=20)
            assert time.monotonic() - t0 < 2.0
            refused(r, 400, "bad_table")
        # players out of the game's range are refused before any game is built
        refused(httpx.post(public.url + "/api/tables", json={"game": "creatures", "seats": PEOPLE * 3},
                           timeout=20), 400, "bad_table")
        # ordinary tables are still built, off the event loop, several at once
        done: list[int] = []
        makers = [threading.Thread(target=lambda: done.append(httpx.post(
            public.url + "/api/tables", json={"seats": PEOPLE, "config": {"sets": ["classic", "gloomier"]}},
            timeout=30).status_code)) for _ in range(6)]
        for m in makers:
            m.start()
        for m in makers:
            m.join()
        assert done == [201] * 6
    finally:
        stop.set()
        watcher.join(30)
    assert pings and max(pings) < 1.0, f"a bystander waited {max(pings):.2f} s"


# --- row 2: seats belong to whom they were given -------------------------------------------


def test_row2_join_takes_only_open_seats_of_listed_tables_with_a_fresh_token(public: ServerProcess) -> None:
    # an unlisted table, known only by its spectator link: Join gets nothing (before: the host's seat 0)
    hidden = create(public, listed=False)
    r = httpx.post(f"{public.url}/api/tables/{hidden['id']}/join", json={"name": "Mallory"}, timeout=20)
    msg = refused(r, 403, "no_open_seat")
    assert hidden["invites"][0]["token"] not in r.text and "invite" in msg
    assert hidden["id"] not in listed_ids(public)
    # an unlisted table may not have open seats at all
    refused(httpx.post(public.url + "/api/tables", json={"seats": [{"kind": "open"}] * 2, "listed": False},
                       timeout=20), 400, "bad_table")

    # a listed table with an invited seat and an open one
    t = create(public, seats=[{"kind": "person", "name": "Ada"}, {"kind": "open"}])
    assert [i["seat"] for i in t["invites"]] == [0] and t["open_seats"] == 1
    invite = t["invites"][0]["token"]
    j = httpx.post(f"{public.url}/api/tables/{t['id']}/join", json={"name": "Eve"}, timeout=20).json()
    assert j["seat"] == 1 and j["token"] != invite and len(j["token"]) >= 24  # minted by the Join
    # the invited seat is reserved from creation: the next Join finds nothing
    refused(httpx.post(f"{public.url}/api/tables/{t['id']}/join", json={}, timeout=20), 409, "no_open_seat")
    # each token opens its own seat, and only that seat
    with ws(public, t["id"], invite) as ada, ws(public, t["id"], j["token"]) as eve:
        assert first(ada, "welcome")["seat"] == 0
        assert first(eve, "welcome")["seat"] == 1
    names = [s["name"] for s in httpx.get(f"{public.url}/api/tables/{t['id']}", timeout=20).json()["seats"]]
    assert names == ["Ada", "Eve"]
    stored = {s["token"] for s in stored_seats(public, t["id"])}
    assert stored == {invite, j["token"]}  # one token per seat, nothing else opens it

    # a listed table of invited seats only: nothing to Join
    invited = create(public)
    refused(httpx.post(f"{public.url}/api/tables/{invited['id']}/join", json={}, timeout=20),
            409, "no_open_seat")


def stored_seats(server: ServerProcess, tid: str) -> list[dict[str, Any]]:
    import sqlite3

    with sqlite3.connect(server.db) as db:
        return [{"seat": s, "token": tok} for s, tok in
                db.execute("SELECT seat, token FROM seats WHERE table_id=? ORDER BY seat", (tid,))]


# --- rows 3 and 13: fair deals -------------------------------------------------------------


def test_row3_no_client_chooses_the_shuffle_on_a_public_server(public: ServerProcess) -> None:
    msg = refused(httpx.post(public.url + "/api/tables", json={"seats": PEOPLE, "seed": 5}, timeout=20),
                  400, "bad_table")
    assert "--allow-fixed-deals" in msg
    assert httpx.get(public.url + "/api/games", timeout=20).json()["fixed_deals"] is False
    t = create(public)
    assert t["fixed_deal"] is False and t["seed"] is None  # the seed is nobody's while the game runs


def test_row3_13_a_fixed_deal_is_told_unlisted_and_bots_have_their_own_dice(fixed: ServerProcess) -> None:
    assert httpx.get(fixed.url + "/api/games", timeout=20).json()["fixed_deals"] is True
    bots = [{"kind": "bot", "level": "random"}] * 3
    a = create(fixed, seats=bots, seed=77, bot_delay_ms=0, listed=True)
    b = create(fixed, seats=bots, seed=77, bot_delay_ms=0, listed=True)
    for t in (a, b):
        assert t["fixed_deal"] is True and t["listed"] is False  # never listed, whatever was asked
        assert t["id"] not in listed_ids(fixed)
    # everyone at the table is told, on the table itself
    with ws(fixed, a["id"]) as sock:
        assert first(sock, "welcome")["table"]["fixed_deal"] is True
    # the seed shows only once the game is over; then the record replays
    finals = {}
    for t in (a, b):
        deadline = time.monotonic() + 60
        while True:
            summary = httpx.get(f"{fixed.url}/api/tables/{t['id']}", timeout=20).json()
            if summary["over"]:
                break
            assert summary["seed"] is None
            assert time.monotonic() < deadline, "the bot game did not end"
            time.sleep(0.2)
        assert summary["seed"] == 77
        finals[t["id"]] = summary
    rows = stored(fixed.db)
    acts = {tid: rows[tid][3] for tid in (a["id"], b["id"])}
    for tid in acts:
        game, config, seed, actions = rows[tid]
        assert seed == 77 and replay_record(GameRecord(game, config, seed, actions)).is_over()
    # the same deal, but bots drawing from `secrets`, not from the deal: the games differ
    assert acts[a["id"]] != acts[b["id"]]


# --- row 9: a bad token of any text -----------------------------------------------------


@pytest.mark.parametrize("token", ["é", "\u4e2d\u6587", "\U0001f0cf" * 3, "x" * 3000, "tok en", "%00"])
def test_row9_a_bad_token_of_any_text_gets_bad_token(public: ServerProcess, token: str) -> None:
    t = create(public)
    with ws(public, t["id"], token) as sock:
        assert first(sock, "error")["code"] == "bad_token"
    r = httpx.post(f"{public.url}/api/tables/{t['id']}/again", json={"token": token}, timeout=20)
    refused(r, 403, "bad_token")


def test_row9_a_lone_surrogate_token_gets_bad_token(public: ServerProcess) -> None:
    t = create(public)
    body = '{"token": "\\ud800abc"}'  # valid JSON; not encodable as UTF-8
    r = httpx.post(f"{public.url}/api/tables/{t['id']}/again", content=body,
                   headers={"content-type": "application/json"}, timeout=20)
    refused(r, 403, "bad_token")
    assert httpx.get(f"{public.url}/api/tables/{t['id']}", timeout=20).status_code == 200
