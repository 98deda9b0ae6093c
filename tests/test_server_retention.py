"""Finished tables do not stay in the store for good (docs/security.md, "Nothing grows
for good"): ``--finished-table-expiry`` after its end a finished table is deleted, unless
a page of it is open. On SQLite and PostgreSQL, through the lobby and through a real server."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from cli_support import gloom
from gloomtable.games import make_game
from gloomtable.server.errors import ServerError
from gloomtable.server.lobby import FINISHED_EXPIRY, Lobby, LobbySettings
from gloomtable.server.store import SeatRow, Store, TableRow, open_store
from gloomtable.server.table import Conn
from gloomtable.server.testing import ServerProcess
from pg_support import fresh_schema
from server_support import create_table, next_state, open_ws

DAY = 86400.0
BOTS = [{"kind": "bot", "level": "random"}] * 2


# ``where`` and ``store`` (each test on SQLite and on PostgreSQL) come from conftest.py.


def stored(store: Store, tid: str, *, ended: float | None, created: float = 1.0) -> None:
    """A table as ``db copy`` writes it: finished at ``ended`` (None: not over)."""
    seats = [SeatRow(0, "person", "random", "Ada", "tok0"), SeatRow(1, "bot", "easy", "Bo", "")]
    row = TableRow(tid, "gloom", {"players": 2}, 7, {}, False, "host", seats, created=created,
                   over=ended is not None, finished=ended)
    assert store.import_table(row)


def played(store: Store, tid: str, seed: int = 5, ended: float | None = None) -> None:
    """A real game of two, played to its end through the store: finished now, or at
    ``ended`` (the table copied as ``db copy`` would, with that time)."""
    seats = [SeatRow(0, "person", "random", "Ada", "tok-ada"), SeatRow(1, "person", "random", "Bo", "tok-bo")]
    store.create_table(TableRow(tid, "gloom", {"players": 2}, seed, {}, False, "host", seats))
    state, rng = make_game("gloom", {"players": 2}).new_initial_state(seed), random.Random(seed)
    i = 0
    while not state.is_over():
        a = rng.choice(state.legal_actions())
        state.apply(a)
        store.append_action(tid, i, a, 0, "person", None, state.is_over())
        i += 1
    if ended is not None:
        row = store.load(tid)
        assert row is not None
        row.finished = ended
        store.delete_table(tid)
        assert store.import_table(row)


def gone(lobby: Lobby, tid: str) -> bool:
    """Deleted for good: not in the store, and the lobby answers 404 as for an unknown id."""
    try:
        lobby.get(tid)
    except ServerError as exc:
        assert (exc.code, exc.status) == ("not_found", 404)
        return lobby.store.load(tid) is None and tid not in lobby.tables
    return False


def test_the_default_keeps_a_finished_table_thirty_days() -> None:
    assert LobbySettings().finished_expiry == FINISHED_EXPIRY == 30 * DAY


def test_old_finished_tables_go_and_young_and_unfinished_ones_stay(store: Store) -> None:
    now = time.time()
    stored(store, "old", ended=now - 31 * DAY)
    stored(store, "young", ended=now - 29 * DAY)
    stored(store, "going", ended=None, created=now - 90 * DAY)  # unfinished: other expiries see to it

    async def scenario() -> None:
        lobby = Lobby(store)
        try:
            assert await lobby.expire_finished() == 1
            assert gone(lobby, "old")
            assert store.load("young") is not None and store.load("going") is not None
            assert await lobby.expire_finished() == 0
            assert await lobby.expire_finished(now=now + 2 * DAY) == 1  # young's turn
            assert gone(lobby, "young") and store.all_ids() == ["going"]
        finally:
            lobby.close()

    asyncio.run(scenario())


def test_a_table_with_a_page_open_stays_and_goes_once_it_closes(store: Store) -> None:
    played(store, "watched")
    played(store, "idle", seed=6)
    later = time.time() + FINISHED_EXPIRY + 60

    async def scenario() -> None:
        lobby = Lobby(store)
        try:
            watched, idle = lobby.get("watched"), lobby.get("idle")  # both in memory
            assert watched.over and idle.over
            page = Conn(None)  # a spectator's page
            watched.attach(page)
            assert await lobby.expire_finished(now=later) == 1
            assert gone(lobby, "idle")  # left memory with the store
            assert lobby.tables["watched"] is watched and store.load("watched") is not None
            watched.detach(page)
            assert await lobby.expire_finished(now=later) == 1
            assert gone(lobby, "watched")
        finally:
            lobby.close()

    asyncio.run(scenario())


def test_a_backlog_goes_a_bounded_slice_per_round_oldest_first(store: Store) -> None:
    now = time.time()
    for i in range(7):
        stored(store, f"t{i}", ended=now - 40 * DAY + i)

    async def scenario() -> None:
        lobby = Lobby(store)
        try:
            assert await lobby.expire_finished(at_once=3) == 3
            assert store.all_ids() == ["t3", "t4", "t5", "t6"]
            # a page open on the oldest one does not hold up the others
            played(store, "seen", ended=now - 50 * DAY)
            lobby.get("seen").attach(Conn(None))
            assert await lobby.expire_finished(at_once=3) == 3
            assert sorted(store.all_ids()) == ["seen", "t6"]
            assert await lobby.expire_finished(at_once=3) == 1
            assert await lobby.expire_finished(at_once=3) == 0
            assert store.all_ids() == ["seen"]
        finally:
            lobby.close()

    asyncio.run(scenario())


def test_two_processes_expiring_at_once_is_harmless(where: str) -> None:
    """Any process may delete; two deleting the same tables at once both finish cleanly."""
    first, second = open_store(where), open_store(where)
    now = time.time()
    for i in range(30):
        stored(first, f"t{i}", ended=now - 40 * DAY + i)

    async def scenario() -> None:
        a, b = Lobby(first), Lobby(second)
        try:
            done = await asyncio.gather(a.expire_finished(), b.expire_finished())
            assert sum(done) >= 30
            assert first.all_ids() == [] and second.all_ids() == []
        finally:
            a.close()
            b.close()

    try:
        asyncio.run(scenario())
    finally:
        first.close()
        second.close()


def test_the_flag_is_checked_on_both_commands() -> None:
    """``python -m gloomtable.server`` and ``gloom serve`` both take it, and refuse a negative one."""
    from gloomtable.server.run import main

    with pytest.raises(SystemExit, match="--finished-table-expiry must not be negative"):
        main(["--finished-table-expiry", "-1", "--db", ":memory:"])
    refused = gloom("serve", "--finished-table-expiry", "-1", "--db", ":memory:")
    assert refused.returncode == 2 and "finished-table-expiry" in refused.stderr


EXPIRY = 3.0
"""The end-to-end test's --finished-table-expiry."""


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_server_deletes_finished_tables_after_the_expiry(tmp_path: Path, backend: str) -> None:
    """End to end: a finished bot game answers 404 once ``--finished-table-expiry`` has
    passed and is gone from the store; one a spectator watches stays until the page
    closes; an unfinished table stays."""
    flags = ["--finished-table-expiry", str(EXPIRY), "--finished-table-keep", "0"]
    with database(backend, tmp_path) as db:
        with ServerProcess(db, log=tmp_path / "server.log", args=flags) as srv:
            waiting = create_table(srv)  # two invited people, nobody came yet
            watched = create_table(srv, seats=BOTS, bot_delay_ms=0)
            with open_ws(srv, watched) as page:
                done = create_table(srv, seats=BOTS, bot_delay_ms=0)
                with open_ws(srv, done) as sock:
                    next_state(sock, lambda m: m["over"], timeout=60)
                assert status(srv, done) == 200  # just finished: kept
                assert wait_for_404(srv, done, within=EXPIRY + 20) == 404
                next_state(page, lambda m: m["over"], timeout=60)
                time.sleep(EXPIRY + 1)  # past its expiry, but watched
                assert status(srv, watched) == 200
            assert wait_for_404(srv, watched, within=20) == 404
            assert status(srv, waiting) == 200
        store = open_store(db)
        try:
            assert store.load(done["id"]) is None and store.load(watched["id"]) is None
            assert store.all_ids() == [waiting["id"]]
        finally:
            store.close()


def status(srv: ServerProcess, table: dict[str, Any]) -> int:
    return httpx.get(f"{srv.url}/api/tables/{table['id']}", timeout=20).status_code


def wait_for_404(srv: ServerProcess, table: dict[str, Any], within: float) -> int:
    deadline = time.monotonic() + within
    while True:
        got = status(srv, table)
        if got == 404 or time.monotonic() > deadline:
            return got
        time.sleep(0.2)


def database(backend: str, tmp_path: Path) -> contextlib.AbstractContextManager[str]:
    """A SQLite file, or a fresh PostgreSQL schema (dropped afterwards)."""
    if backend == "postgres":
        return fresh_schema()
    return contextlib.nullcontext(str(tmp_path / "tables.db"))
