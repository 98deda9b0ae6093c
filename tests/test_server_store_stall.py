"""A process whose link to PostgreSQL stalls keeps its pages alive (``GuardedStore``,
``--store-timeout``; docs/deploy.md, "What fails over, how fast").

Before, the first store call on the event loop after the stall (the lease round,
every 0.5 s) waited until TCP gave up, minutes later, and every page of the process
froze: no pong, no answer over HTTP. Then the guard bounded that wait by the timeout;
now the lease round waits in a worker thread and the loop is not held at all. Here a
real server reaches a real PostgreSQL through a proxy that stops passing bytes, as a
frozen database or a dropped link would."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import pytest

from cluster_support import stored_row
from gloomtable.server.testing import ServerProcess
from pg_support import fresh_schema, require_postgres
from redis_support import StallingProxy
from server_support import create_table, invite_token, open_ws, post_table, read_until

TIMEOUT = 0.5
TWO = [{"kind": "person"}, {"kind": "person"}]


@pytest.mark.slow
def test_a_stalled_database_refuses_moves_quickly_and_freezes_no_page(tmp_path: Path) -> None:
    require_postgres()
    log = tmp_path / "server.log"
    timeout = 3.0  # long, so that a loop held for it would stand out from any busy machine's pause
    with fresh_schema() as url, StallingProxy(("127.0.0.1", 5432)) as proxy:
        through = url.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}")
        assert through != url
        with ServerProcess(through, log=log, args=["--store-timeout", str(timeout)]) as srv:
            table = create_table(srv)
            with open_ws(srv, table, invite_token(table, 0)) as ada, \
                    open_ws(srv, table, invite_token(table, 1)) as bo:
                states = [read_until(c, lambda m: m["type"] == "state") for c in (ada, bo)]
                mover, state = next((c, st) for c, st in zip((ada, bo), states, strict=True)
                                    if st.get("choices"))
                proxy.stall()
                waits = []
                for _ in range(25):  # five seconds of pings, while the lease round waits out its timeout
                    sent = time.monotonic()
                    ada.send('{"type": "ping"}')
                    read_until(ada, lambda m: m["type"] == "pong", timeout=10)
                    waits.append(time.monotonic() - sent)
                    time.sleep(0.2)
                # the lease round reads in a worker thread: the loop is never held for the timeout
                assert max(waits) < timeout / 2, waits

                started = time.monotonic()
                mover.send(json.dumps({"type": "act", "action": state["choices"][0]["action"],
                                       "state_id": state["state_id"]}))
                refused = read_until(mover, lambda m: m["type"] == "error", timeout=10)
                assert refused["code"] == "server_busy" and "not answering" in refused["message"], refused
                assert time.monotonic() - started < 1.0
                assert httpx.get(srv.url + "/api/games", timeout=30).status_code == 200  # needs no database
                r = post_table(srv, timeout=30, seats=TWO)
                assert r.status_code == 503 and r.json()["code"] == "server_busy", r.text

                proxy.resume()
                deadline = time.monotonic() + 15
                while post_table(srv, timeout=30, seats=TWO).status_code != 201:
                    assert time.monotonic() < deadline, "the server did not use its database again"
                    time.sleep(0.3)
                mover.send(json.dumps({"type": "act", "action": state["choices"][0]["action"],
                                       "state_id": state["state_id"]}))
                first = state["state_id"]
                after = read_until(mover, lambda m: m["type"] == "error" or m.get("state_id", first) > first,
                                   timeout=15)
                assert after["type"] == "state" and after["state_id"] == state["state_id"] + 1, after
    text = log.read_text()
    assert text.count("did not answer within") == 1 and "answers again" in text, text[-2000:]
    assert "Traceback" not in text, text[-3000:]


BOTS = [{"kind": "bot", "level": "random", "name": f"Bot {i}"} for i in range(4)]


def stored_moves(url: str, table_id: str) -> int:
    """Moves of ``table_id`` in the database itself (the store, straight, not through the
    proxy); -1 once the game is over."""
    row = stored_row(url, table_id)
    return -1 if row.over else len(row.actions)


@pytest.mark.slow
def test_a_table_of_bots_moves_on_after_the_database_stalls(tmp_path: Path) -> None:
    """A bot whose move met the stall (refused at once as busy, or not confirmed in
    time) moves again once the database answers. Before, the table waited for ever:
    nothing but a person's move, or another process taking its lease, woke it.

    The stall begins just after a move is stored, so the table has no move under way:
    the lease round meets the stall first (the guard then refuses every call at once),
    and the bot's next move, ``PACE`` later, is refused. The stall is shorter than a
    lease's term, so this process keeps leading the table."""
    require_postgres()
    log = tmp_path / "server.log"
    pace = 1.5
    with fresh_schema() as url, StallingProxy(("127.0.0.1", 5432)) as proxy:
        through = url.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}")
        with ServerProcess(through, log=log, args=["--store-timeout", str(TIMEOUT)]) as srv:
            tid = str(create_table(srv, seats=BOTS, listed=False, bot_delay_ms=int(pace * 1000))["id"])
            deadline = time.monotonic() + 60
            while (before := stored_moves(url, tid)) < 1:
                assert time.monotonic() < deadline, "the bots made no move"
                time.sleep(0.05)
            while stored_moves(url, tid) == before:  # a move was just stored: the next is PACE away
                assert time.monotonic() < deadline, "the bots made no second move"
                time.sleep(0.02)
            proxy.stall()
            time.sleep(pace + 0.5)  # the bot's next move meets the stall; a lease outlives it
            proxy.resume()
            deadline = time.monotonic() + 30
            while not log.read_text().count("answers again"):
                assert time.monotonic() < deadline, "the server did not use its database again"
                time.sleep(0.1)
            after = stored_moves(url, tid)
            assert after >= 0, "the game ended during the stall: nothing left to show"
            deadline = time.monotonic() + 30
            while 0 <= stored_moves(url, tid) < after + 2:  # moves go on (or the game ends)
                assert time.monotonic() < deadline, f"the table stalled at {after} moves"
                time.sleep(0.1)
    text = log.read_text()
    assert text.count("did not answer within") >= 1, text[-2000:]
    assert "leads it now" not in text, "the lease lapsed: the test shows nothing"
    assert "Traceback" not in text, text[-3000:]
