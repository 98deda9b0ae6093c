"""``gloom db copy`` moves every table between SQLite and PostgreSQL, and an
unfinished game goes on where it stopped on the other side."""

from __future__ import annotations

import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import httpx
import pytest

import server_support
from cli_support import gloom
from gloomtable.games import make_game
from gloomtable.server.store import open_store
from gloomtable.server.testing import ServerProcess
from pg_support import fresh_schema
from server_support import create_table, invite_token, open_ws, play_first_choice

GLOOM = [sys.executable, "-m", "gloomtable.cli.main"]


next_state = partial(server_support.next_state, fail_on_error=True)
"""The next state message (that satisfies ``until``); an error message fails the test."""


def gloom_db_copy(src: str, dst: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GLOOM, "db", "copy", "--from", src, "--to", dst], capture_output=True,
                          text=True, timeout=120)


@pytest.mark.slow
def test_a_copied_unfinished_table_resumes_on_the_other_side(tmp_path: Path) -> None:
    sqlite_db = str(tmp_path / "before.db")
    with fresh_schema() as url:
        with ServerProcess(sqlite_db) as srv:
            finished = create_table(srv, seats=[{"kind": "bot"}] * 2, bot_delay_ms=0, seed=3)
            with open_ws(srv, finished) as ws:
                next_state(ws, lambda m: m["over"], timeout=40)
            t = create_table(srv, seats=[{"kind": "person", "name": "Ada"},
                                         {"kind": "bot", "level": "random"}],
                             bot_delay_ms=0, seed=5, turn_timer=600)
            with open_ws(srv, t, invite_token(t, 0)) as ada:
                msg = next_state(ada, lambda m: m["choices"])
                for _ in range(4):
                    play_first_choice(ada, msg)
                    msg = next_state(ada, lambda m, sid=msg["state_id"]: m["state_id"] > sid and m["choices"])
            before = msg
        out = gloom_db_copy(sqlite_db, url)
        assert out.returncode == 0, out.stderr
        assert "copied 2 table(s)" in out.stdout and "?schema=" in out.stdout
        again = gloom_db_copy(sqlite_db, url)  # a second run copies nothing twice
        assert again.returncode == 0 and "copied 0 table(s)" in again.stdout and "2 table(s) were already" \
            in again.stdout

        with ServerProcess(url, log=tmp_path / "pg.log") as srv:
            assert httpx.get(f"{srv.url}/api/tables/{finished['id']}").json()["over"]
            with open_ws(srv, t, invite_token(t, 0)) as ada:
                msg = next_state(ada, lambda m: m["choices"])
                # the same decision, the same view, the same stored deadline (not a fresh one)
                assert msg["state_id"] == before["state_id"] and msg["view"] == before["view"]
                assert msg["deadline"] == before["deadline"]
                for _ in range(800):
                    if msg["over"]:
                        break
                    time.sleep(0.06)  # within the 20 messages a second a connection may send
                    play_first_choice(ada, msg)
                    msg = next_state(ada, lambda m, sid=msg["state_id"]: m["state_id"] > sid
                                     and (m["choices"] or m["over"]), timeout=30)
            assert msg["over"]

        back = str(tmp_path / "after.db")
        out = gloom_db_copy(url, back)
        assert out.returncode == 0 and "copied 2 table(s)" in out.stdout, out.stderr
        pg, lite = open_store(url), open_store(back)
        try:
            for tid in (finished["id"], t["id"]):
                a, b = pg.load(tid), lite.load(tid)
                assert a is not None and a == b and a.over
            state = make_game("gloom", b.config).new_initial_state(b.seed)
            for action in b.actions:
                state.apply(action)
            assert state.is_over()
        finally:
            pg.close()
            lite.close()


def test_copy_names_a_database_it_cannot_use(tmp_path: Path) -> None:
    out = gloom("db", "copy", "--from", str(tmp_path / "a.db"), "--to", "postgresql://ada:pw@127.0.0.1:1/x")
    assert out.returncode == 2 and "127.0.0.1:1" in out.stderr and "pw@" not in out.stderr
    same = gloom("db", "copy", "--from", str(tmp_path / "a.db"), "--to", str(tmp_path / "a.db"))
    assert same.returncode == 2 and "same database" in same.stderr
