"""A move on SQLite (issue 35): stored only at the next index of its table (a probe of
the primary key, not a count of the table's actions), and the moves of several tables
handed in during one turn of the event loop committed in one transaction, each with its
own outcome. SQLite's own trace of the store's connection counts the transactions."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from gloomtable.server.store import SeatRow, StaleActionError, TableRow, open_store
from gloomtable.server.store_sqlite import SqliteStore


def row(tid: str) -> TableRow:
    return TableRow(tid, "creatures", {"players": 2}, 7, {}, False, "host",
                    [SeatRow(0, "person", "random", "Ada", "tok0"), SeatRow(1, "bot", "random", "Bo", "")])


def sqlite_store(path: Path, tables: int) -> SqliteStore:
    store = open_store(path)
    assert isinstance(store, SqliteStore)
    for k in range(tables):
        store.create_table(row(f"t{k}"))
    return store


def traced(store: SqliteStore) -> list[str]:
    """Every statement the store's connection runs from now on."""
    statements: list[str] = []
    store.db.set_trace_callback(statements.append)
    return statements


def test_an_index_is_stored_once_and_only_after_the_one_before(tmp_path: Path) -> None:
    """A duplicate index and a skipped one are both stale; neither writes anything."""
    store = sqlite_store(tmp_path / "s.db", 1)
    for i in range(3):
        store.append_action("t0", i, 10 + i, i % 2, "person", None, False, deadline=100.0 + i)
    for idx in (2, 4, 0):
        with pytest.raises(StaleActionError):
            store.append_action("t0", idx, 99, 0, "person", "never", False, deadline=1.0)
    loaded = store.load("t0")
    assert loaded is not None and loaded.actions == [10, 11, 12] and loaded.narration == {}
    assert (loaded.deadline, loaded.deadline_idx) == (102.0, 3)  # the table's row as the last move left it
    store.append_action("t0", 3, 13, 1, "bot", None, False)
    assert store.load("t0", since=3).actions == [13]  # type: ignore[union-attr]
    store.close()


def test_moves_handed_in_together_share_one_transaction(tmp_path: Path) -> None:
    """Five tables' moves in one turn of the loop: one BEGIN, one COMMIT; a stale move
    among them fails alone, the others are stored; the next turn's move goes alone."""
    store = sqlite_store(tmp_path / "s.db", 5)
    store.append_action("t4", 0, 1, 0, "person", None, False)

    async def go() -> list[BaseException | None]:
        statements = traced(store)
        moves = [store.commit_action(f"t{k}", 0, 5 + k, 0, "person", None, False) for k in range(5)]
        outcomes = await asyncio.gather(*moves, return_exceptions=True)
        assert statements.count("BEGIN IMMEDIATE") == 1 and statements.count("COMMIT") == 1
        await store.commit_action("t0", 1, 7, 1, "bot", "told", False)
        assert statements.count("BEGIN IMMEDIATE") == 2
        return outcomes

    outcomes = asyncio.run(go())
    assert outcomes[:4] == [None] * 4 and isinstance(outcomes[4], StaleActionError)
    assert [store.load(f"t{k}").actions for k in range(5)] == [  # type: ignore[union-attr]
        [5, 7], [6], [7], [8], [1]]
    store.close()


def test_a_group_the_database_refuses_is_tried_move_by_move(tmp_path: Path) -> None:
    """A move of a table that is not stored (deleted meanwhile) fails the group's
    transaction; each move is then tried alone, so only that one fails."""
    store = sqlite_store(tmp_path / "s.db", 2)

    async def go() -> list[BaseException | None]:
        moves = [store.commit_action(t, 0, 3, 0, "person", None, False) for t in ("t0", "gone", "t1")]
        return await asyncio.gather(*moves, return_exceptions=True)

    first, gone, last = asyncio.run(go())
    assert first is None and last is None and isinstance(gone, sqlite3.IntegrityError)
    assert store.load("gone") is None
    assert [store.load(t).actions for t in ("t0", "t1")] == [[3], [3]]  # type: ignore[union-attr]
    store.close()


def test_a_cancelled_mover_never_leaves_its_move_half_known(tmp_path: Path) -> None:
    """Cancelled before its group leaves: not stored. Cancelled after its group was
    committed but before it woke: it hears that the move was stored (so a table makes
    it current, as the store holds it), and the cancel comes at its next await."""
    store = sqlite_store(tmp_path / "s.db", 2)
    heard: dict[str, str] = {}

    async def mover(tid: str) -> None:
        try:
            await store.commit_action(tid, 0, 4, 0, "person", None, False)
        except asyncio.CancelledError:
            heard[tid] = "cancelled"
            raise
        heard[tid] = "stored"
        await asyncio.sleep(0)
        heard[tid] = "went on"  # never: the cancel comes here

    async def go() -> None:
        early = asyncio.create_task(mover("t0"))
        await asyncio.sleep(0)  # it hands its move in; the group leaves at the end of this turn
        early.cancel()  # ... after this: the move is not stored
        late = asyncio.create_task(mover("t1"))
        await asyncio.sleep(0)
        asyncio.get_running_loop().call_soon(late.cancel)  # after its group, before it wakes
        for task in (early, late):
            with pytest.raises(asyncio.CancelledError):
                await task

    asyncio.run(go())
    assert heard == {"t0": "cancelled", "t1": "stored"}
    assert [store.load(t).actions for t in ("t0", "t1")] == [[], [4]]  # type: ignore[union-attr]
    store.close()
