"""``gloom db backup`` of a live server's SQLite store, and ``gloom db restore``
(issue 36; docs/deploy.md, "Backups"): the restored store resumes every unfinished
table where the backup found it."""

from __future__ import annotations

import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest

import server_support
from cli_support import gloom
from gloomtable.server.store import open_store
from gloomtable.server.testing import ServerProcess
from server_support import create_table, invite_token, open_ws, play_first_choice

GLOOM = [sys.executable, "-m", "gloomtable.cli.main"]
next_state = partial(server_support.next_state, fail_on_error=True)


def _gloom(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GLOOM, *args], capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_a_live_backup_restores_into_a_server_that_resumes_every_unfinished_table(tmp_path: Path) -> None:
    live = tmp_path / "live.db"
    copy = tmp_path / "backups" / "b1.db"
    restored = tmp_path / "restored.db"
    with ServerProcess(live, log=tmp_path / "live.log") as srv:
        tables, states = [], {}
        for seed in (5, 6, 7):
            t = create_table(srv, seats=[{"kind": "person", "name": "Ada"},
                                         {"kind": "bot", "level": "random"}],
                             bot_delay_ms=0, seed=seed, turn_timer=600)
            with open_ws(srv, t, invite_token(t, 0)) as ada:
                msg = next_state(ada, lambda m: m["choices"])
                for _ in range(seed - 4):
                    play_first_choice(ada, msg)
                    msg = next_state(ada, lambda m, sid=msg["state_id"]: m["state_id"] > sid and m["choices"])
            tables.append(t)
            states[t["id"]] = msg
        busy = create_table(srv, seats=[{"kind": "bot"}] * 2, bot_delay_ms=0, seed=3)  # writes on meanwhile
        with open_ws(srv, busy) as ws:
            next_state(ws)
            out = _gloom("db", "backup", str(copy), "--db", str(live))
            assert out.returncode == 0, out.stderr
            assert "unfinished" in out.stdout and str(copy) in out.stdout, out.stdout
            again = _gloom("db", "backup", str(copy), "--db", str(live))
            assert again.returncode == 2 and "exists" in again.stderr  # a backup never overwrites one
    backed = open_store(copy)
    try:
        unfinished = set(backed.unfinished_ids())
    finally:
        backed.close()
    assert {t["id"] for t in tables} <= unfinished

    out = _gloom("db", "restore", str(copy), "--db", str(restored))
    assert out.returncode == 0 and f"({len(unfinished)} unfinished)" in out.stdout, (out.stdout, out.stderr)
    log = tmp_path / "restored.log"
    with ServerProcess(restored, log=log) as srv:
        for t in tables:
            with open_ws(srv, t, invite_token(t, 0)) as ada:
                msg = next_state(ada, lambda m: m["choices"])
                before = states[t["id"]]
                assert msg["state_id"] == before["state_id"] and msg["view"] == before["view"]
                play_first_choice(ada, msg)  # and it plays on
                next_state(ada, lambda m, sid=msg["state_id"]: m["state_id"] > sid)
    assert f"resumed {len(unfinished)} unfinished table(s)" in log.read_text(), log.read_text()[-2000:]


def test_backup_and_restore_refuse_what_they_cannot_do(tmp_path: Path) -> None:
    pg = gloom("db", "backup", str(tmp_path / "b.db"), "--db", "postgresql://ada:pw@127.0.0.1:1/x")
    assert pg.returncode == 2 and "pg_dump" in pg.stderr, pg.stderr
    missing = gloom("db", "backup", str(tmp_path / "b.db"), "--db", str(tmp_path / "none.db"))
    assert missing.returncode == 2 and "no such file" in missing.stderr
    junk = tmp_path / "junk.db"
    junk.write_text("not a database at all" * 100)
    bad = gloom("db", "restore", str(junk), "--db", str(tmp_path / "new.db"))
    assert bad.returncode == 2 and "junk.db" in bad.stderr, bad.stderr
    assert not (tmp_path / "new.db").exists() and not (tmp_path / ".new.db.part").exists()
    store = open_store(tmp_path / "a.db")
    store.close()
    assert gloom("db", "backup", str(tmp_path / "b.db"), "--db", str(tmp_path / "a.db")).returncode == 0
    kept = gloom("db", "restore", str(tmp_path / "b.db"), "--db", str(tmp_path / "a.db"))
    assert kept.returncode == 2 and "--replace" in kept.stderr
    assert gloom("db", "restore", str(tmp_path / "b.db"), "--db", str(tmp_path / "a.db"), "--replace"
                 ).returncode == 0
