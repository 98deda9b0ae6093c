"""Table talk (issue 30) against a real ``gloom serve`` on loopback: the seats' channel
and the spectators' own, kept with the table on SQLite (across a restart) and on
PostgreSQL (across two processes), and what an attacker may send: markup, control
and format characters, huge lines, floods, a spectator posting into the seats' talk,
a stranger without a token. Plus the rematch: the finished table keeps its links.
Servers run in a thread of this process (a restart is a stop and a start), except
where two processes share PostgreSQL."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection

from gloomtable.server.testing import ServerProcess, ServerThread
from pg_support import fresh_schema
from server_support import create_table, invite_token, next_of, next_state, open_ws, read_until

ONE_PERSON_ONE_BOT = [{"kind": "person", "name": "Ada"}, {"kind": "bot", "level": "random"}]


def say(ws: ClientConnection, text: Any) -> None:
    ws.send(json.dumps({"type": "say", "text": text}))


def talk_of(ws: ClientConnection, timeout: float = 15) -> dict[str, Any]:
    """The next talk message with lines (the backlog on opening has ``backlog``)."""
    return read_until(ws, lambda m: m["type"] == "talk" and bool(m["lines"]), timeout)


def refusal(ws: ClientConnection, timeout: float = 15) -> dict[str, Any]:
    return read_until(ws, lambda m: m["type"] == "error", timeout)


def test_seats_talk_reaches_the_other_seat_as_sent_and_no_spectator(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "t.db") as server:
        t = create_table(server)
        ada, bo = invite_token(t, 0), invite_token(t, 1)
        with open_ws(server, t, ada) as a, open_ws(server, t, bo) as b, open_ws(server, t) as watcher:
            for ws in (a, b):
                hello = next_of(ws, "talk")
                assert hello["backlog"] and hello["channel"] == "seats" and hello["lines"] == []
            assert next_of(watcher, "talk")["channel"] is None  # spectator_talk is off by default
            markup = '<img src=x onerror="alert(1)"><b>hi</b> & "quotes"'
            sent = time.monotonic()
            say(a, markup)
            got = talk_of(b)["lines"]
            took = time.monotonic() - sent
            assert [x["text"] for x in got] == [markup]  # markup is text: the page draws it as text
            assert got[0]["who"] == "seat:0" and got[0]["name"] == "Ada" and got[0]["channel"] == "seats"
            assert took < 2.0, took  # the browser test holds it to 500 ms
            assert talk_of(a)["lines"][0]["n"] == got[0]["n"]  # the writer sees its own line too
            # control and format characters (a bidi override, a NUL, a bell) become spaces
            say(b, "left\u202eright\x00\x07 \n\n  end")
            assert talk_of(a)["lines"][0]["text"] == "left right end"
            assert talk_of(b)["lines"][0]["text"] == "left right end"
            # a spectator cannot post: not into the seats' talk, and this table gives it none
            say(watcher, "psst, Ada holds a Death")
            err = refusal(watcher)
            assert err["code"] == "read_only" and err["about"] == "say"
            say(a, "after the watcher")
            # nothing of the watcher's came between
            assert talk_of(b)["lines"][0]["text"] == "after the watcher"
            # nothing of the talk reaches a spectator (or the state every bot decides on)
            watcher.send(json.dumps({"type": "ping"}))
            seen = read_until(watcher, lambda m: m["type"] in ("pong", "talk"))
            assert seen["type"] == "pong"


def test_bad_lines_are_refused_with_their_reason(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "t.db", args=["--talk-max", "50"]) as server:
        t = create_table(server)
        with open_ws(server, t, invite_token(t, 0)) as a:
            assert next_of(a, "talk")["max"] == 50
            for text, code in (("x" * 51, "too_large"), ("y" * 5000, "too_large"),
                               ("\x00\u200b  \t", "bad_message"), (42, "bad_message"), (None, "bad_message"),
                               (["a"], "bad_message")):
                say(a, text)
                err = refusal(a)
                assert err["code"] == code and err["about"] == "say", (text, err)
            say(a, "z" * 50)
            assert talk_of(a)["lines"][0]["text"] == "z" * 50
            # a whole websocket message beyond the server's bound is refused before it is read
            a.send(json.dumps({"type": "say", "text": "w" * 9000}))
            assert refusal(a)["code"] == "too_large"


def test_a_flood_is_answered_rate_limited_per_token_across_sockets(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "t.db", args=["--talk-rate", "3/hour"]) as server:
        t = create_table(server)
        ada = invite_token(t, 0)
        with open_ws(server, t, ada) as a, open_ws(server, t, invite_token(t, 1)) as b:
            for i in range(3):
                say(a, f"line {i}")
            got: list[str] = []
            while len(got) < 3:
                got += [x["text"] for x in talk_of(b)["lines"]]
            assert got == ["line 0", "line 1", "line 2"]
            say(a, "one too many")
            err = refusal(a)
            assert err["code"] == "rate_limited" and err["about"] == "say"
            with open_ws(server, t, ada) as again:  # a new socket of the same seat starts where it stopped
                next_of(again, "talk")
                say(again, "from a new socket")
                assert refusal(again)["code"] == "rate_limited"
            # the game goes on meanwhile: talk's rate is its own
            a.send(json.dumps({"type": "ping"}))
            assert next_of(a, "pong")


def test_spectators_talk_among_themselves_only_where_the_table_allows(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "t.db") as server:
        t = create_table(server, spectator_talk=True)
        with open_ws(server, t, invite_token(t, 0)) as a, open_ws(server, t) as w1, open_ws(server, t) as w2:
            assert next_of(a, "talk")["channel"] == "seats"
            assert next_of(w1, "talk")["channel"] == "spectators"
            assert next_of(w2, "talk")["channel"] == "spectators"
            say(w1, "who will win?")
            line = talk_of(w2)["lines"][0]
            assert line["text"] == "who will win?" and line["channel"] == "spectators"
            assert line["who"].startswith("watcher:") and line["name"].startswith("Spectator ")
            assert talk_of(w1)["lines"][0] == line
            say(a, "seats only")
            assert talk_of(a)["lines"][0]["text"] == "seats only"
            # neither hears the other's channel
            for ws in (w1, w2):
                ws.send(json.dumps({"type": "ping"}))
                assert read_until(ws, lambda m: m["type"] in ("pong", "talk"))["type"] == "pong"
            a.send(json.dumps({"type": "ping"}))
            assert read_until(a, lambda m: m["type"] in ("pong", "talk"))["type"] == "pong"
        # a stranger with a made-up token is no spectator, and gets nothing
        with open_ws(server, t, "not-a-token") as stranger:
            assert next_of(stranger, "error")["code"] == "bad_token"


def test_talk_survives_a_restart_and_a_reconnect_in_order(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with ServerThread(db) as server:
        t = create_table(server)
        with open_ws(server, t, invite_token(t, 0)) as a:
            next_of(a, "talk")
            for i in range(5):
                say(a, f"before {i}")
                talk_of(a)
    with ServerThread(db) as server, open_ws(server, t, invite_token(t, 1)) as b:
        back = next_of(b, "talk")
        assert [x["text"] for x in back["lines"]] == [f"before {i}" for i in range(5)]
        assert [x["n"] for x in back["lines"]] == list(range(5))


def test_a_table_keeps_only_its_newest_lines_and_a_page_gets_the_backlog(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "t.db", args=["--talk-keep", "4", "--talk-backlog", "3",
                                                "--talk-rate", "100/minute"]) as server:
        t = create_table(server)
        with open_ws(server, t, invite_token(t, 0)) as a:
            next_of(a, "talk")
            for i in range(7):
                say(a, f"l{i}")
                talk_of(a)
        with open_ws(server, t, invite_token(t, 1)) as b:
            assert [x["text"] for x in next_of(b, "talk")["lines"]] == ["l4", "l5", "l6"]


def test_talk_is_in_the_chronicle_only_when_the_table_says_so(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "t.db") as server:
        tables = {kept: create_table(server, seats=ONE_PERSON_ONE_BOT, bot_delay_ms=0, seed=5,
                                     replace_absent=True, absent_after=0, talk_in_record=kept)
                  for kept in (False, True)}
        for kept, t in tables.items():
            with open_ws(server, t, invite_token(t, 0)) as a:
                next_of(a, "talk")
                say(a, "*Ada* <whispers> of doom")
                talk_of(a)
            with open_ws(server, t) as watcher:  # Ada went: her stand-in plays the game to its end
                next_state(watcher, lambda m: m["over"], timeout=90)
            base = f"{server.url}/api/tables/{t['id']}/chronicle"
            told = httpx.get(base, timeout=30).json()
            md = httpx.get(base + ".md", timeout=30).text
            html = httpx.get(base + ".html", timeout=30).text
            if kept:
                assert told["talk"] == [[0, "*Ada* <whispers> of doom"]]
                assert "## Table talk" in md and r"\*Ada\* \<whispers\> of doom" in md
                assert "&lt;whispers&gt;" in html and "<whispers>" not in html
            else:
                assert told["talk"] == [] and "Table talk" not in md and "whispers" not in html


def test_rematch_leaves_the_finished_table_and_its_links_as_they_were(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "t.db") as server:
        t = create_table(server, seats=[{"kind": "person", "name": "Ada"}, {"kind": "person", "name": "Bo"},
                                        {"kind": "bot"}],
                         bot_delay_ms=0, replace_absent=True, absent_after=0, seed=11)
        with open_ws(server, t) as watcher:
            next_state(watcher, lambda m: m["over"], timeout=90)
        ada, bo = invite_token(t, 0), invite_token(t, 1)
        with open_ws(server, t, ada) as a, open_ws(server, t, bo) as b:
            next_state(a, lambda m: m["over"])
            next_state(b, lambda m: m["over"])
            new = httpx.post(f"{server.url}/api/tables/{t['id']}/again", json={"token": bo}).json()
            offer = next_state(a, lambda m: m["next_table"] is not None)
            assert offer["next_table"] == new["id"] and offer["over"]  # offered: Ada's page is still there
            summary = httpx.get(f"{server.url}/api/tables/{new['id']}").json()
            assert summary["options"]["rematch_of"] == t["id"] and summary["options"]["rematch_by"] == 1
        # the old table still answers as itself: its summary, its chronicle
        old = httpx.get(f"{server.url}/api/tables/{t['id']}").json()
        assert old["id"] == t["id"] and old["over"] and old["next_table"] == new["id"]
        assert httpx.get(f"{server.url}/api/tables/{t['id']}/chronicle", timeout=30).status_code == 200


@pytest.mark.slow
def test_talk_crosses_postgresql_processes_and_outlives_them(tmp_path: Path) -> None:
    with fresh_schema() as url:
        fast = ["--talk-rate", "100/minute"]
        one = ServerProcess(url, log=tmp_path / "one.log", args=fast)
        two = ServerProcess(url, log=tmp_path / "two.log", args=fast)
        with one, two:
            t = create_table(one)
            with open_ws(one, t, invite_token(t, 0)) as a, open_ws(two, t, invite_token(t, 1)) as b:
                next_of(a, "talk")
                next_of(b, "talk")
                for i in range(3):  # each way, through the other process
                    sent = time.monotonic()
                    say(a, f"a{i}")
                    assert talk_of(b)["lines"][0]["text"] == f"a{i}"
                    assert time.monotonic() - sent < 15  # pushed (a poll would take its round); generous
                    assert talk_of(a)["lines"][0]["text"] == f"a{i}"
                    say(b, f"b{i}")
                    assert talk_of(a)["lines"][0]["text"] == f"b{i}"
                    assert talk_of(b)["lines"][0]["text"] == f"b{i}"
                # lines from both at once: unique numbers, every line once, on either process
                for i in range(3):
                    say(a, f"x{i}")
                    say(b, f"y{i}")
                for ws in (a, b):
                    got: list[tuple[int, str]] = []
                    while len(got) < 6:
                        got += [(x["n"], x["text"]) for x in talk_of(ws)["lines"]]
                    assert [n for n, _ in got] == list(range(6, 12)), got
                    assert sorted(text for _, text in got) == ["x0", "x1", "x2", "y0", "y1", "y2"]
        with ServerProcess(url, log=tmp_path / "three.log") as three, \
                open_ws(three, t, invite_token(t, 0)) as c:
            assert len(next_of(c, "talk")["lines"]) == 12


def test_db_copy_carries_each_table_talk(tmp_path: Path) -> None:
    from gloomtable.server.copy import copy_tables
    from gloomtable.server.store import open_store

    db = tmp_path / "from.db"
    with ServerThread(db) as server:
        t = create_table(server)
        with open_ws(server, t, invite_token(t, 0)) as a:
            next_of(a, "talk")
            for text in ("first", "second"):
                say(a, text)
                talk_of(a)
    report = copy_tables(db, tmp_path / "to.db")
    assert t["id"] in report.copied
    dest = open_store(tmp_path / "to.db")
    try:
        assert [(x.n, x.who, x.text) for x in dest.talk_lines(t["id"])] == [(0, "seat:0", "first"),
                                                                          (1, "seat:0", "second")]
    finally:
        dest.close()


def test_a_lesson_and_a_table_without_talk_give_no_channel(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "t.db") as server:
        lesson = httpx.post(f"{server.url}/api/lessons", json={"lesson": "gloom"}).json()
        token = lesson["link"].split("#token=")[1]
        quiet = create_table(server, talk=False)
        for tid, tok in ((lesson["table"], token), (quiet["id"], invite_token(quiet, 0))):
            with open_ws(server, tid, tok) as ws:
                assert next_of(ws, "talk")["channel"] is None
                say(ws, "anyone?")
                err = refusal(ws)
                assert err["code"] == "read_only" and err["about"] == "say"


def test_an_address_has_one_talk_rate_for_all_its_sockets(tmp_path: Path) -> None:
    """Spectators have no token: opening more sockets must not buy more lines."""
    with ServerThread(tmp_path / "t.db", args=["--talk-ip-rate", "3/hour"]) as server:
        t = create_table(server, spectator_talk=True)
        with open_ws(server, t) as w1, open_ws(server, t) as w2, open_ws(server, t, invite_token(t, 0)) as a:
            for ws in (w1, w2, a):
                next_of(ws, "talk")
            for ws, text in ((w1, "one"), (w2, "two"), (a, "three")):
                say(ws, text)
                talk_of(ws)
            for ws in (w1, w2, a):
                say(ws, "four")
                err = refusal(ws)
                assert err["code"] == "rate_limited" and err["about"] == "say"
