"""Where tables live between restarts: config + seed + seats + the action list.

The server talks only to :class:`Store`. Two backends implement it and pass one
test suite (tests/test_server_store_backends.py):

- :class:`~gloomtable.server.store_sqlite.SqliteStore`, the embedded default
  (a file path, ``gloom serve`` with no flags);
- :class:`~gloomtable.server.store_postgres.PostgresStore`, for a site served
  by several processes or machines (``--db postgresql://USER@HOST/DB``).

Both create and upgrade the same schema with the versioned migrations of
:mod:`gloomtable.server.migrations`.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, Protocol, TypeVar

from gloomtable.server.store_accounts import AccountStore
from gloomtable.server.store_decks import DeckStore
from gloomtable.server.store_rows import SeatRow, StaleActionError, StoreError, TableRow, shown
from gloomtable.server.store_talk import TalkStore

if TYPE_CHECKING:
    from gloomtable.server.ratings import RatingPlan

__all__ = ["SeatRow", "StaleActionError", "Store", "StoreError", "TableRow", "default_db",
           "is_postgres", "open_store", "shown"]


class Store(AccountStore, TalkStore, DeckStore, Protocol):
    """The storage contract of the server, the same on every backend.

    - **One transaction per call.** Every writing method is one transaction: it
      is committed (durably, as the backend defines it: WAL + fsync on commit
      for PostgreSQL, WAL with ``synchronous=NORMAL`` for SQLite, both surviving
      a killed server process) before it returns, or it raises and wrote nothing.
    - **Actions are ordered per table by their index.** ``append_action`` stores
      index ``idx`` only if exactly ``idx`` actions are stored for that table; the
      index is unique per table, so of two writers (threads, processes, machines)
      offering the same index exactly one succeeds and the other gets
      :class:`StaleActionError`. A table's actions therefore always read back as
      the gap-free list 0..n-1 in the order they were committed.
    - **Reads see every committed write**, from any process: ``load`` reads one
      consistent snapshot of a table (its row, seats and actions together).
    - There is no order between different tables.
    """

    url: str
    """Where the store lives, fit to show (no password)."""
    remote: bool
    """Calls wait on a database server (PostgreSQL): a call takes its own pooled
    connection, so the calls made from worker threads run side by side. False for
    SQLite, whose commit is quicker than a thread hop."""

    def close(self) -> None: ...

    def create_table(self, row: TableRow) -> None:
        """A new table with its seats (and no actions)."""

    def import_table(self, row: TableRow) -> bool:
        """A whole table with its actions, as ``db copy`` writes it; False (and
        nothing written) when the id is already stored."""

    def append_action(self, table_id: str, idx: int, action: int, seat: int, actor: str,
                      narration: str | None, over: bool, deadline: float | None = None,
                      rating: RatingPlan | None = None) -> None:
        """One accepted action, committed before the caller tells anyone about it,
        with the turn-timer deadline of the decision it leads to (None: no timer).
        The action that ends a game carries its ``rating`` (if the table counts): the
        ratings move in the same transaction, so they are stored with the move or
        not at all, and a table is rated once (server/ratings.py)."""

    async def commit_action(self, table_id: str, idx: int, action: int, seat: int, actor: str,
                            narration: str | None, over: bool, deadline: float | None = None,
                            rating: RatingPlan | None = None) -> None:
        """``append_action`` as a live table calls it, from the event loop: SQLite at
        once (quicker than any thread hop); PostgreSQL with the other tables' moves that
        arrive together (server/store_group.py), sent on the event loop by a connection
        of the moves' own (server/store_link.py)."""

    def set_deadline(self, table_id: str, idx: int, deadline: float | None) -> None:
        """The turn-timer deadline of the decision at state ``idx``."""

    def update_seat(self, table_id: str, seat: int, *, name: str | None = None,
                    claimed: bool | None = None, token: str | None = None) -> None:
        """Rename, mark taken, or give the seat a fresh token (a Join mints one:
        a seat has one token at a time)."""

    def delete_table(self, table_id: str) -> None:
        """Forget a table whole: its seats, actions, lease and presence (an unfinished
        table that expired with nobody at it, a finished one past its retention).
        Deleting a table that is not there (any more) does nothing."""

    def claim_seat(self, table_id: str, seat: int, name: str, token: str) -> bool:
        """Take a seat nobody has taken (a Join): False, and nothing written, if
        someone (through any process) took it first."""

    def set_next_table(self, table_id: str, next_id: str) -> bool:
        """Name the table played next, once: False if another was named first."""

    def load(self, table_id: str, since: int = 0) -> TableRow | None:
        """The table, its seats, and its actions from index ``since`` on, in one snapshot."""

    def unfinished_ids(self) -> list[str]:
        """Tables not over, oldest first."""

    def all_ids(self) -> list[str]:
        """Every table, finished or not, oldest first."""

    def finished_before(self, cutoff: float, limit: int) -> list[str]:
        """At most ``limit`` tables that finished before ``cutoff`` (epoch seconds, the
        clock ``actions.at`` is written by), the longest finished first, read from an
        index rather than a scan. A table with a seat's page open on any live process
        (its presence) is left out."""

    def schema_version(self) -> int:
        """The newest migration applied."""

    # --- leases: which process runs a table's bots, timers and stand-ins ----------
    # A lease names its holder, a process; it holds while that process beats (one row
    # per process, ``beat``) within ``lease_term`` seconds by the database's clock, so
    # keeping every lease of a process costs one row update, however many it holds.

    lease_term: float
    """Seconds a holder's leases and presence outlive its last beat (``LEASE_TERM``)."""

    def beat(self, holder: str) -> None:
        """``holder`` is alive now (server/cluster.py calls it from a thread of its own;
        on PostgreSQL it runs on a connection of its own, outside the pool)."""

    def forget_members(self, forget: float) -> None:
        """Delete the heartbeat and presence rows of processes dead for ``forget`` seconds."""

    def leave_members(self, holder: str) -> None:
        """A clean stop: ``holder`` is dead from now on, and its presence gone."""

    def acquire_lease(self, table_id: str, holder: str) -> bool:
        """Take the table's lease if nobody holds it, its holder stopped beating, or it
        is ``holder``'s already; False if a live process other than ``holder`` has it,
        or if ``holder`` itself is not beating."""

    def held_leases(self, holder: str) -> list[str]:
        """The tables whose lease names ``holder`` (read only: nothing is renewed)."""

    def free_tables(self, limit: int) -> list[str]:
        """Unfinished tables with no lease or a lease whose holder stopped beating (oldest first)."""

    def release_lease(self, table_id: str, holder: str) -> None: ...

    # --- presence: which seats have a page open somewhere --------------------------

    def set_presence(self, table_id: str, seat: int, holder: str, conns: int) -> None:
        """``holder`` has ``conns`` pages of the seat open (0 forgets it); written when
        that changes, and counted while ``holder`` beats."""

    def present_seats(self, table_id: str, but: str) -> set[int]:
        """Seats with a page open on a live process other than ``but``."""

    def listed_tables(self, offset: int, limit: int) -> tuple[list[TableRow], int]:
        """One page of the listed, unfinished tables (without their actions), oldest
        first, and how many there are in all."""

    async def listen(self, on_change: Callable[[str], None]) -> None:
        """Call ``on_change(table_id)`` for each table another process changes,
        until cancelled (returns at once where no other process can write)."""


def is_postgres(db: str | Path) -> bool:
    return isinstance(db, str) and db.startswith(("postgresql://", "postgres://"))


def default_db() -> Path:
    """Where ``gloom serve`` keeps its tables unless told: ``$GLOOMTABLE_DB`` if set, else
    ``$XDG_DATA_HOME/gloomtable/tables.db`` (``~/.local/share/gloomtable/tables.db``
    when XDG_DATA_HOME is unset or relative), never a file dropped into the current folder."""
    if os.environ.get("GLOOMTABLE_DB"):
        return Path(os.environ["GLOOMTABLE_DB"]).expanduser()
    xdg = Path(os.environ.get("XDG_DATA_HOME") or "").expanduser()
    root = xdg if xdg.is_absolute() else Path.home() / ".local" / "share"
    return root / "gloomtable" / "tables.db"


def open_store(db: str | Path, **kwargs: Any) -> Store:
    """A SQLite file path (or ``:memory:``) or a ``postgresql://`` URL."""
    if is_postgres(db):
        from gloomtable.server.store_postgres import PostgresStore

        return PostgresStore(str(db), **kwargs)
    from gloomtable.server.store_sqlite import SqliteStore

    return SqliteStore(db, **kwargs)


P = ParamSpec("P")
R = TypeVar("R")


async def in_store(store: Store, call: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``call`` (a method of ``store``) from the event loop: in a worker thread when the
    store waits on a database server, so a slow answer holds no page and no table; at once
    on SQLite, whose calls take microseconds (less than the hop to a thread)."""
    if store.remote:
        return await asyncio.to_thread(call, *args, **kwargs)
    return call(*args, **kwargs)
