"""Issue 29, rows 5, 7, 8 and 9 (the network and seat findings), each against a real
``gloom serve`` on 127.0.0.1: the attack as the issue found it, and its answer now.
Row 5 runs on both backends (it was a PostgreSQL hole)."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from gloomtable.server.testing import LiveServer, ServerProcess, ServerThread
from server_support import assert_error, create_table, invite_token, next_of, next_state, open_ws, read_until


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with ServerThread(tmp_path_factory.mktemp("net") / "tables.db") as srv:
        yield srv


# --- row 5: offsets, limits and ids ------------------------------------------------------


def test_row5_listing_bounds_and_id_shapes_answer_400_never_500(where: str, tmp_path: Path) -> None:
    """The issue's offset past a bigint and its ``%00`` ids made PostgreSQL raise, the
    server answer 500 and log two tracebacks a request. Now each is a 400 ``bad_request``
    saying what is allowed, on both backends, and the log stays free of tracebacks."""
    log = tmp_path / "server.log"
    with ServerProcess(where, log=log) as srv:
        create_table(srv, listed=True)
        for query in ("offset=9223372036854775808", "offset=-1", "limit=0", "limit=51", "offset=1e3",
                      "limit=abc", "offset=" + "9" * 40, "offset=%00"):
            r = httpx.get(f"{srv.url}/api/tables?{query}", timeout=20)
            message = assert_error(r, 400, "bad_request")
            assert ("offset" in message) == query.startswith("offset"), message
        ok = httpx.get(f"{srv.url}/api/tables?offset=0&limit=50", timeout=20)
        assert ok.status_code == 200 and ok.json()["total"] == 1
        for path in ("/api/tables/a%00b", "/api/tables/a%00b/cards", "/api/tables/a%00b/chronicle",
                     "/api/tables/" + "x" * 65, "/api/tables/a%20b"):
            assert_error(httpx.get(srv.url + path, timeout=20), 400, "bad_request")
        assert_error(httpx.post(srv.url + "/api/tables/a%00b/join", json={"name": "Zed"}, timeout=20),
                     400, "bad_request")
        for path in ("/api/tables/a%00b/ratings", "/api/players/a%00b", "/api/leaderboard/a%00b"):
            assert_error(httpx.get(srv.url + path, timeout=20), 400, "bad_request")
        with pytest.raises(InvalidStatus) as refused, connect(f"{srv.ws_url}/ws/a%00b", open_timeout=20):
            pass
        assert refused.value.response.status_code == 400 and b"bad_request" in refused.value.response.body
        with connect(f"{srv.ws_url}/ws/{'x' * 65}", open_timeout=20) as conn:
            assert json.loads(conn.recv(timeout=20))["code"] == "bad_request"
        assert httpx.get(srv.url + "/api/tables/nosuchtable", timeout=20).status_code == 404
    text = log.read_text(errors="replace")
    assert "Traceback" not in text and "unexpected error" not in text, text[-3000:]


# --- row 7: origins -----------------------------------------------------------------------


def test_row7_an_origin_must_match_scheme_host_and_port(server: LiveServer) -> None:
    """``http://127.0.0.1:9999`` and ``https://localhost:1`` were let in (the check looked at
    the host alone). Now scheme, host and port must be this server's own; the page passes."""
    table = create_table(server, listed=False)
    for origin in ("http://127.0.0.1:9999", "https://localhost:1", f"https://127.0.0.1:{server.port}",
                   "http://localhost:1", "http://127.0.0.1", f"http://evil.example:{server.port}",
                   f"http://127.0.0.1:{server.port}@evil.example", "null"):
        with pytest.raises(InvalidStatus) as refused, connect(
                f"{server.ws_url}/ws/{table['id']}", origin=origin, open_timeout=20):  # type: ignore[arg-type]
            pass
        assert refused.value.response.status_code == 403, origin
        assert b"bad_origin" in refused.value.response.body, origin
    with open_ws(server, table, invite_token(table, 0), origin=server.url) as conn:  # the page's own
        assert next_of(conn, "welcome")["seat"] == 0
    with open_ws(server, table, invite_token(table, 0), origin=server.url + "/") as conn:
        assert next_of(conn, "welcome")["seat"] == 0


# --- row 8: errors carry no state ---------------------------------------------------------


def test_row8_a_refused_act_gets_its_error_and_no_state(server: LiveServer) -> None:
    """Four seats pulled 441 full states in 8 s by acting out of turn (each refusal came
    with a state). Now a refused act is answered with its error alone; a state still
    follows a real move."""
    table = create_table(server, listed=False)
    with open_ws(server, table, invite_token(table, 0)) as a, \
            open_ws(server, table, invite_token(table, 1)) as b:
        sa, sb = next_state(a), next_state(b)
        deciding = sa["deciding"]
        idle, idle_state = (b, sb) if deciding == 0 else (a, sa)
        for _ in range(20):
            idle.send(json.dumps({"type": "act", "action": 0, "state_id": idle_state["state_id"]}))
        for _ in range(10):
            idle.send(json.dumps({"type": "act", "action": 0, "state_id": 999}))
        idle.send(json.dumps({"type": "ping"}))
        kinds = []
        while not kinds or kinds[-1] != "pong":
            kinds.append(json.loads(idle.recv(timeout=20))["type"])
        assert kinds.count("error") == 30 and "state" not in kinds, kinds


# --- row 9: names -------------------------------------------------------------------------


def test_row9_a_name_may_not_pass_for_another_seat_or_a_bot(server: LiveServer) -> None:
    """A person could name themselves "Bea" beside Bea, Cyrillic "Веа", "Bea's stand-in bot"
    or "Bot 3 (hard)". Now each is refused with ``bad_name`` naming the clash; a name of
    one's own still goes through, and the others see it."""
    seats = [{"kind": "person", "name": "Bea"}, {"kind": "person", "name": "Cal"},
             {"kind": "bot", "level": "easy"}]
    table = create_table(server, seats=seats, listed=False, game="gloom")
    with open_ws(server, table, invite_token(table, 1)) as cal:
        next_state(cal)
        for name in ("Bea", "bea", "\u0412\u0435\u0430", "B\u00e9a", "Bea's stand-in bot",
                     "Bot 3 (hard)", "Bot 3 (easy)", "b e a"):
            cal.send(json.dumps({"type": "name", "name": name}))
            err = read_until(cal, lambda m: m["type"] == "error")
            assert err["code"] == "bad_name", (name, err)
        cal.send(json.dumps({"type": "name", "name": "Abbott"}))
        seats_msg = read_until(cal, lambda m: m["type"] == "seats")
        assert [s["name"] for s in seats_msg["seats"]][:2] == ["Bea", "Abbott"]
    r = httpx.post(server.url + "/api/tables", json={"seats": [{"kind": "person", "name": "Bea"},
                                                              {"kind": "person", "name": "\u0412ea"}]},
                   timeout=20)
    assert "looks like" in assert_error(r, 400, "bad_name")
    listed = create_table(server, seats=[{"kind": "person", "name": "Bea"}, {"kind": "open"}], listed=True)
    r = httpx.post(f"{server.url}/api/tables/{listed['id']}/join", json={"name": "BEA"}, timeout=20)
    assert_error(r, 400, "bad_name")
    assert httpx.post(f"{server.url}/api/tables/{listed['id']}/join", json={"name": "Dee"},
                      timeout=20).status_code == 200


# --- row 2: nobody holds the table limit --------------------------------------------------


def _as(ip: str) -> dict[str, str]:
    """Headers of a request a trusted proxy forwards for the client ``ip``."""
    return {"X-Forwarded-For": ip}


@pytest.mark.slow
def test_row2_one_client_cannot_hold_the_table_limit(tmp_path: Path) -> None:
    """The issue made 20 tables, opened a socket on each (a claimed seat spared them from
    the idle expiry; reconnecting reset the abandoned clock) and held ``--max-open-tables``
    for everyone. Now one client has its own cap, and a table with no move for the idle
    expiry goes, sockets open, reconnected or not; another client can create again."""
    args = ["--forwarded-allow-ips", "127.0.0.1", "--max-open-tables", "6", "--open-tables-per-ip", "3",
            "--idle-table-expiry", "4"]
    with ServerThread(tmp_path / "t.db", args=args) as srv:
        post = lambda ip: httpx.post(srv.url + "/api/tables", json={"seats": [{"kind": "person"}] * 2},  # noqa: E731
                                     headers=_as(ip), timeout=20)
        mine = [post("203.0.113.7") for _ in range(3)]
        made = time.monotonic()  # their idle clocks started before this (not after the posts below)
        assert [r.status_code for r in mine] == [201] * 3
        assert "3 unfinished games" in assert_error(post("203.0.113.7"), 429, "server_busy")
        # an IPv6 client is its /64: another address of the same network is the same client
        assert post("2001:db8::1").status_code == 201
        assert post("2001:db8::2:3").status_code == 201
        assert post("2001:db8::ffff").status_code == 201
        assert_error(post("2001:db8::5"), 429, "server_busy")
        tables = [r.json() for r in mine]
        # a page on every seat, reconnecting all the while: no move, so the tables still go
        gone: list[int] = []
        while time.monotonic() - made < 30:
            for t in tables:
                with contextlib.suppress(ConnectionClosed), open_ws(srv, t, invite_token(t, 0)) as conn:
                    first = json.loads(conn.recv(timeout=20))  # (the table may have gone just now)
                    assert first["type"] == "welcome" or first.get("code") == "not_found", first
            gone = [httpx.get(f"{srv.url}/api/tables/{t['id']}", timeout=20).status_code for t in tables]
            if gone == [404] * 3:
                break
            time.sleep(0.3)
        assert gone == [404] * 3
        assert time.monotonic() - made >= 3.5  # not before their time
        assert post("203.0.113.7").status_code == 201  # room again, for everyone
        assert post("198.51.100.1").status_code == 201


@pytest.mark.slow
def test_row2_a_move_keeps_a_table_alive(tmp_path: Path) -> None:
    """What keeps a table is a move: a game whose seats move within the idle expiry stays."""
    with ServerThread(tmp_path / "t.db", args=["--idle-table-expiry", "3"]) as srv:
        t = create_table(srv, seats=[{"kind": "person"}, {"kind": "bot", "level": "random"}], seed=5,
                         listed=False)
        started = time.monotonic()
        with open_ws(srv, t, invite_token(t, 0)) as conn:
            while time.monotonic() - started < 7:
                s = next_state(conn, lambda m: m["deciding"] == 0 or m["over"], timeout=20)
                if s["over"]:
                    break
                time.sleep(1)
                conn.send(json.dumps({"type": "act", "action": s["choices"][0]["action"],
                                      "state_id": s["state_id"]}))
        assert httpx.get(f"{srv.url}/api/tables/{t['id']}", timeout=20).status_code == 200


# --- row 3: every way to make a table is counted ------------------------------------------


@pytest.mark.slow
def test_row3_again_is_counted_and_a_table_nobody_watches_is_not_played_again(tmp_path: Path) -> None:
    """``again`` was not counted by ``--create-rate``, and a one-person table with a stand-in
    from the first second played itself and was played again for ever with the copied
    token. Now ``again`` counts as a creation, and is refused while no person has a page
    of the table open; from a seat's page it still works."""
    args = ["--create-rate", "4/hour"]
    with ServerThread(tmp_path / "t.db", args=args) as srv:
        alone = create_table(srv, seats=[{"kind": "person"}, {"kind": "bot", "level": "random"}],
                             replace_absent=True, absent_after=0, bot_delay_ms=0, listed=False)
        token = invite_token(alone, 0)
        deadline = time.monotonic() + 60
        while not httpx.get(f"{srv.url}/api/tables/{alone['id']}", timeout=20).json()["over"]:
            assert time.monotonic() < deadline
            time.sleep(0.2)
        again = lambda: httpx.post(f"{srv.url}/api/tables/{alone['id']}/again",  # noqa: E731
                                   json={"token": token}, timeout=20)
        assert_error(again(), 409, "nobody_here")  # the chain stops at its first link
        with open_ws(srv, alone, token) as page:  # from the seat's page it is played again
            next_state(page)
            r = again()
            assert r.status_code == 200, r.text
            assert r.json()["id"] != alone["id"]
        # four creations an hour, whichever way (the refused again counted too): one more, then 429
        assert create_table(srv, listed=False)["id"]
        assert_error(again(), 429, "rate_limited")
        r = httpx.post(srv.url + "/api/lessons", json={"lesson": "first-game"}, timeout=20)
        assert_error(r, 429, "rate_limited")


# --- row 6: a move whose store call timed out is not "nothing was changed" -----------------


@pytest.mark.slow
def test_row6_a_move_the_database_did_not_confirm_is_reported_so_and_settled_by_the_next_state(
        tmp_path: Path) -> None:
    """While the link to PostgreSQL stalled, a move was answered "nothing was changed" and
    was committed when the link came back. Now a move whose own store call timed out is
    "not confirmed yet", and once the database answers every page is sent the state the
    table is really in (the move there, if it was stored); only a move refused before it
    reached the database says "nothing was changed"."""
    from pg_support import fresh_schema, require_postgres
    from redis_support import StallingProxy

    require_postgres()
    with fresh_schema() as url, StallingProxy(("127.0.0.1", 5432)) as proxy:
        through = url.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}")
        with ServerProcess(through, log=tmp_path / "server.log", args=["--store-timeout", "2"]) as srv:
            table = create_table(srv, listed=False)
            with open_ws(srv, table, invite_token(table, 0)) as ada, \
                    open_ws(srv, table, invite_token(table, 1)) as bo:
                states = [next_state(c) for c in (ada, bo)]
                for _ in range(TRIES):
                    refused = stalled_move(srv, proxy, table["id"], (ada, bo), states)
                    if "not confirmed yet" in refused["message"]:
                        break  # the case the issue met
                else:
                    pytest.fail(f"in {TRIES} tries no move reached the stalled database before the "
                                "guard knew it was away")


TRIES = 5
"""Stalls a test makes until a move meets the stall first. Another call on the event loop
(the lease round, every 0.5 s) may meet it first and hold the loop for the timeout, by
design (server/store_guard.py); then the move is refused at once, rightly, and the
test stalls the link again."""


def stalled_move(srv: ServerProcess, proxy: Any, table_id: str, conns: tuple[Any, Any],
                 states: list[dict[str, Any]]) -> dict[str, Any]:
    """Stall the link, make a move, resume: the move is either "not confirmed yet" and
    then settled by the state every page is sent, or refused before it reached the
    database ("nothing was changed", the state unchanged). Either way the table's
    stored state is the one the page was last sent. The refusal is returned."""
    mover, state = next((c, s) for c, s in zip(conns, states, strict=True) if s["choices"])
    first = state["state_id"]
    proxy.stall()
    mover.send(json.dumps({"type": "act", "action": state["choices"][0]["action"], "state_id": first}))
    refused = read_until(mover, lambda m: m["type"] == "error", timeout=20)
    assert refused["code"] == "server_busy", refused
    time.sleep(1)
    proxy.resume()
    if "not confirmed yet" in refused["message"]:
        # the held commit goes through when the link is back: the page learns it
        settled = next_state(mover, lambda m: m["state_id"] >= first, timeout=30)
    else:  # the guard knew the database was away before this move reached it
        assert "nothing was changed" in refused["message"], refused
        settled = {"state_id": first}
    deadline = time.monotonic() + 30
    while True:  # the database answers again (the guard asked it)
        r = httpx.get(f"{srv.url}/api/tables/{table_id}", timeout=10)
        if r.status_code == 200:
            break
        assert time.monotonic() < deadline, r.text
        time.sleep(0.3)
    assert r.json()["state_id"] == settled["state_id"], (refused, settled, r.json())
    return refused


# --- row 4: the lobby listing -------------------------------------------------------------


@pytest.mark.slow
def test_row4_listing_is_one_query_off_the_loop_cached_and_rated(tmp_path: Path) -> None:
    """On PostgreSQL four clients listing made a bystander's ping p99 902 ms: 2 + N
    queries a page, waited for on the event loop, with no rate. Now a page is one query
    in a worker thread, answered from memory for a second, and counted per client
    (``--listing-rate``): the bystander's pings stay quick and the 31st page is 429."""
    import threading

    from pg_support import fresh_schema

    with fresh_schema() as url, ServerProcess(url, log=tmp_path / "s.log") as srv:
        for _ in range(30):
            create_table(srv, listed=True, seats=[{"kind": "person"}, {"kind": "open"}])
        page = httpx.get(srv.url + "/api/tables?limit=50", timeout=20).json()
        assert page["total"] == 30 and len(page["tables"]) == 30
        assert all(t["seats"] and t["open_seats"] == 1 for t in page["tables"])
        assert httpx.get(srv.url + "/api/tables?offset=30", timeout=20).json() == {
            "tables": [], "total": 30, "offset": 30, "limit": 20}
        stop = threading.Event()

        def lister() -> None:
            with httpx.Client(timeout=20) as c:
                while not stop.is_set():
                    c.get(srv.url + "/api/tables?limit=50")

        threads = [threading.Thread(target=lister) for _ in range(4)]
        for t in threads:
            t.start()
        try:
            table = create_table(srv, listed=False)
            waits = []
            with open_ws(srv, table, invite_token(table, 0)) as conn:
                next_state(conn)
                for _ in range(100):
                    sent = time.monotonic()
                    conn.send('{"type": "ping"}')
                    read_until(conn, lambda m: m["type"] == "pong")
                    waits.append(time.monotonic() - sent)
                    time.sleep(0.06)  # within the seat's message rate
        finally:
            stop.set()
            for t in threads:
                t.join()
        waits.sort()
        assert waits[98] < 0.3, waits[-5:]  # p99 (the issue: 0.902 s; a quiet machine: ~2 ms)
    with ServerThread(tmp_path / "r.db", args=["--listing-rate", "30/hour"]) as srv:
        answers = [httpx.get(srv.url + "/api/tables", timeout=20).status_code for _ in range(31)]
        assert answers == [200] * 30 + [429]
