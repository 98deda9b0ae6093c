"""A move on SQLite (issue 35): stored only at the next index of its table, by a probe
of the primary key rather than a count of the table's actions."""

from __future__ import annotations

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
    statements = traced(store)
    store.append_action("t0", 3, 13, 1, "bot", None, False)
    assert store.load("t0", since=3).actions == [13]  # type: ignore[union-attr]
    assert not any("COUNT(" in q for q in statements)  # a probe of the key, not a count of the actions
    store.close()
