"""The embedded store: one SQLite file (stdlib), the default of ``gloom serve``.

One process owns the file (a second server on the same file would not see the
first one's actions until it reloads: use PostgreSQL for several processes).
Writes are ``BEGIN IMMEDIATE .. COMMIT`` in WAL mode with ``synchronous=NORMAL``,
which survives a killed process.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gloomtable.server.migrations import MIGRATIONS, VERSION_TABLE
from gloomtable.server.store_decks import DeckRows
from gloomtable.server.store_rows import LEASE_TERM, SeatRow, StaleActionError, StoreError, TableRow
from gloomtable.server.store_talk import TalkRows

if TYPE_CHECKING:
    from gloomtable.server.ratings import RatingPlan

BUSY_TIMEOUT_MS = 5000
"""How long a write waits for another process's lock before it fails."""

_STORE_MOVE = ("INSERT OR IGNORE INTO actions (table_id, idx, action, seat, actor, narration, at)"
               " SELECT ?,?,?,?,?,?,? WHERE ?=0 OR EXISTS"
               " (SELECT 1 FROM actions WHERE table_id=? AND idx=?)")
"""One action, stored only at the next index of its table: index 0 or the one after a
stored action (a probe of the primary key, where a count of the table's actions grew
with every move), and never twice (the primary key; ``OR IGNORE`` makes a duplicate no
row). Not stored: no row, and ``append_action`` raises before writing anything else."""

_TABLE_COLUMNS = "id, game, config, seed, options, listed, host_token, over, next_table, created," \
                 " deadline, deadline_idx, finished"


def listing_sql(mark: str) -> str:
    """One query for a page of the listing: the count of listed unfinished tables, and each
    table of the page with its seats (one row per seat; one row of NULLs for an empty page).
    ``mark`` is the backend's placeholder. (Before, 2 + N queries: issue 29, row 4.)"""
    return (f"WITH page AS (SELECT {_TABLE_COLUMNS} FROM tables WHERE over=0 AND listed=1"
            f" ORDER BY created, id LIMIT {mark} OFFSET {mark})"
            " SELECT (SELECT COUNT(*) FROM tables WHERE over=0 AND listed=1), p.*,"
            " s.seat, s.kind, s.level, s.name, s.token, s.claimed"
            " FROM (SELECT 1 AS one) o LEFT JOIN page p ON 1=1 LEFT JOIN seats s ON s.table_id = p.id"
            " ORDER BY p.created, p.id, s.seat")


def listing_rows(found: Any) -> tuple[list[TableRow], int]:
    """The tables (in order) and the count from the rows of :func:`listing_sql`."""
    width = len(_TABLE_COLUMNS.split(","))
    total = int(found[0][0]) if found else 0
    tables: dict[str, tuple[Any, list[Any]]] = {}
    for r in found:
        row, seat = r[1:1 + width], r[1 + width:]
        if row[0] is None:
            continue
        entry = tables.setdefault(row[0], (row, []))
        if seat[0] is not None:
            entry[1].append(seat)
    return [table_row(row, seats, [], 0) for row, seats in tables.values()], total


class SqliteStore(TalkRows, DeckRows):
    """:class:`~gloomtable.server.store.Store` on a SQLite file."""

    remote = False

    def __init__(self, path: str | Path, *, open_timeout: float = 1.0) -> None:
        """Open (or create) the database, bring its schema up to date and prove it can
        be written now: a read-only, locked or foreign file is a :class:`StoreError`
        naming the file, at start, rather than a server that listens and then fails
        every write."""
        self.path = str(path)
        self.url = self.path
        self.lease_term = LEASE_TERM
        db: sqlite3.Connection | None = None
        try:
            if self.path != ":memory:":
                file = Path(self.path)
                file.parent.mkdir(parents=True, exist_ok=True)
                # SQLite opens a read-only file happily and fails only at the first commit
                if file.exists() and not os.access(file, os.W_OK):
                    raise OSError("the file is read-only")
                if not os.access(file.parent, os.W_OK | os.X_OK):
                    raise OSError(f"its folder {file.parent} is read-only")
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                 timeout=open_timeout)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL survives a killed process
            db.execute("PRAGMA foreign_keys=ON")
            self.db = db
            self._migrate()
            db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        except (sqlite3.Error, OSError) as exc:
            if db is not None:
                db.close()
            why = str(exc) or type(exc).__name__
            if "readonly" in why:
                why += " (the file or its folder is read-only)"
            raise StoreError(f"cannot use the database {self.path}: {why}") from None

    def _migrate(self) -> None:
        with self._tx() as db:  # BEGIN IMMEDIATE also proves the file is writable now
            db.execute(VERSION_TABLE)
            have = db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0]
            for version, _what, statements in MIGRATIONS:
                if version > have:
                    for stmt in statements:
                        db.execute(stmt)
                    db.execute("INSERT INTO schema_version (version, applied) VALUES (?, ?)",
                               (version, time.time()))

    def schema_version(self) -> int:
        return int(self.db.execute("SELECT MAX(version) FROM schema_version").fetchone()[0])

    def close(self) -> None:
        self.db.close()

    # --- writing -----------------------------------------------------------------

    def create_table(self, row: TableRow) -> None:
        with self._tx() as db:
            self._insert(db, row)

    def import_table(self, row: TableRow) -> bool:
        with self._tx() as db:
            if db.execute("SELECT 1 FROM tables WHERE id=?", (row.id,)).fetchone():
                return False
            self._insert(db, row)
            db.executemany(
                "INSERT INTO actions (table_id, idx, action, seat, actor, narration, at)"
                " VALUES (?,?,?,?,?,?,?)",
                [(row.id, i, a, row.actors[i][0], row.actors[i][1], row.narration.get(i),
                  row.times[i] if i < len(row.times) else time.time())
                 for i, a in enumerate(row.actions)])
            return True

    def _insert(self, db: sqlite3.Connection, row: TableRow) -> None:
        db.execute(
            "INSERT INTO tables (id, game, config, seed, options, listed, host_token, created, over,"
            " next_table, deadline, deadline_idx, finished) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (row.id, row.game, json.dumps(row.config), row.seed, json.dumps(row.options),
             int(row.listed), row.host_token, row.created or time.time(), int(row.over),
             row.next_table, row.deadline, row.deadline_idx, row.finished_at()))
        db.executemany(
            "INSERT INTO seats (table_id, seat, kind, level, name, token, claimed)"
            " VALUES (?,?,?,?,?,?,?)",
            [(row.id, s.seat, s.kind, s.level, s.name, s.token, int(s.claimed)) for s in row.seats])

    def append_action(self, table_id: str, idx: int, action: int, seat: int, actor: str,
                      narration: str | None, over: bool, deadline: float | None = None,
                      rating: RatingPlan | None = None) -> None:
        at = time.time()
        with self._tx() as db:
            if db.execute(_STORE_MOVE, (table_id, idx, action, seat, actor, narration, at,
                                        idx, table_id, idx - 1)).rowcount != 1:
                raise StaleActionError(f"table {table_id}: action #{idx} is not the next to store "
                                       "(another writer stored one first)")
            db.execute("UPDATE tables SET over=?, deadline=?, deadline_idx=?,"
                       " finished=COALESCE(finished, ?) WHERE id=?",
                       (int(over), deadline, idx + 1, at if over else None, table_id))
            if over and rating is not None:
                self._rate_finished(db, table_id, rating)

    async def commit_action(self, table_id: str, idx: int, action: int, seat: int, actor: str,
                            narration: str | None, over: bool, deadline: float | None = None,
                            rating: RatingPlan | None = None) -> None:
        self.append_action(table_id, idx, action, seat, actor, narration, over, deadline, rating)

    def set_deadline(self, table_id: str, idx: int, deadline: float | None) -> None:
        with self._tx() as db:
            db.execute("UPDATE tables SET deadline=?, deadline_idx=? WHERE id=?", (deadline, idx, table_id))

    def update_seat(self, table_id: str, seat: int, *, name: str | None = None,
                    claimed: bool | None = None, token: str | None = None) -> None:
        with self._tx() as db:
            if token is not None:
                db.execute("UPDATE seats SET token=? WHERE table_id=? AND seat=?", (token, table_id, seat))
            if name is not None:
                db.execute("UPDATE seats SET name=? WHERE table_id=? AND seat=?", (name, table_id, seat))
            if claimed is not None:
                db.execute("UPDATE seats SET claimed=? WHERE table_id=? AND seat=?",
                           (int(claimed), table_id, seat))

    def delete_table(self, table_id: str) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM actions WHERE table_id=?", (table_id,))
            db.execute("DELETE FROM seats WHERE table_id=?", (table_id,))
            db.execute("DELETE FROM leases WHERE table_id=?", (table_id,))
            db.execute("DELETE FROM presence WHERE table_id=?", (table_id,))
            db.execute("DELETE FROM seat_accounts WHERE table_id=?", (table_id,))
            db.execute("DELETE FROM talk WHERE table_id=?", (table_id,))
            db.execute("DELETE FROM tables WHERE id=?", (table_id,))

    def claim_seat(self, table_id: str, seat: int, name: str, token: str) -> bool:
        with self._tx() as db:
            return db.execute("UPDATE seats SET claimed=1, name=?, token=? WHERE table_id=? AND seat=?"
                              " AND claimed=0", (name, token, table_id, seat)).rowcount == 1

    def set_next_table(self, table_id: str, next_id: str) -> bool:
        with self._tx() as db:
            return db.execute("UPDATE tables SET next_table=? WHERE id=? AND next_table IS NULL",
                              (next_id, table_id)).rowcount == 1

    # --- reading -----------------------------------------------------------------

    def load(self, table_id: str, since: int = 0) -> TableRow | None:
        with self._tx("BEGIN") as db:  # one snapshot: row, seats and actions agree
            row = db.execute(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id=?", (table_id,)).fetchone()
            if row is None:
                return None
            seats = db.execute("SELECT seat, kind, level, name, token, claimed FROM seats"
                               " WHERE table_id=? ORDER BY seat", (table_id,)).fetchall()
            actions = db.execute("SELECT idx, action, seat, actor, narration, at FROM actions"
                                 " WHERE table_id=? AND idx>=? ORDER BY idx", (table_id, since)).fetchall()
        return table_row(row, seats, actions, since)

    def unfinished_ids(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT id FROM tables WHERE over=0 ORDER BY created, id")]

    def all_ids(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT id FROM tables ORDER BY created, id")]

    def finished_before(self, cutoff: float, limit: int) -> list[str]:
        return [r[0] for r in self.db.execute(
            "SELECT t.id FROM tables t WHERE t.finished < ? AND NOT EXISTS (SELECT 1 FROM presence p"
            f" WHERE p.table_id=t.id AND p.conns>0 AND {self._alive('p.holder')})"
            " ORDER BY t.finished, t.id LIMIT ?", (cutoff, self._since(), limit))]

    # --- leases and heartbeats (one process per file: kept for the same contract) --------

    def _alive(self, holder: str) -> str:
        """SQL true while ``holder`` (an SQL expression) beat within the lease term; its
        one parameter is the earliest beat that counts."""
        return f"EXISTS (SELECT 1 FROM heartbeats h WHERE h.holder = {holder} AND h.beat > ?)"

    def _since(self) -> float:
        return time.time() - self.lease_term

    def beat(self, holder: str) -> None:
        with self._tx() as db:
            db.execute("INSERT INTO heartbeats (holder, beat) VALUES (?, ?)"
                       " ON CONFLICT (holder) DO UPDATE SET beat = excluded.beat", (holder, time.time()))

    def forget_members(self, forget: float) -> None:
        with self._tx() as db:
            if db.execute("DELETE FROM heartbeats WHERE beat < ?", (time.time() - forget,)).rowcount:
                db.execute("DELETE FROM presence WHERE NOT EXISTS"
                           " (SELECT 1 FROM heartbeats h WHERE h.holder = presence.holder)")

    def leave_members(self, holder: str) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM presence WHERE holder=?", (holder,))
            db.execute("DELETE FROM heartbeats WHERE holder=?", (holder,))

    def acquire_lease(self, table_id: str, holder: str) -> bool:
        since = self._since()
        with self._tx() as db:
            cur = db.execute(
                f"INSERT INTO leases (table_id, holder) SELECT ?, ? WHERE {self._alive('?')}"
                " ON CONFLICT (table_id) DO UPDATE SET holder=excluded.holder"
                f" WHERE leases.holder=excluded.holder OR NOT {self._alive('leases.holder')}",
                (table_id, holder, holder, since, since))
            return cur.rowcount == 1

    def held_leases(self, holder: str) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT table_id FROM leases WHERE holder=? ORDER BY table_id",
                                              (holder,))]

    def free_tables(self, limit: int) -> list[str]:
        return [r[0] for r in self.db.execute(
            "SELECT t.id FROM tables t LEFT JOIN leases l ON l.table_id=t.id"
            f" WHERE t.over=0 AND (l.holder IS NULL OR NOT {self._alive('l.holder')})"
            " ORDER BY t.created, t.id LIMIT ?", (self._since(), limit))]

    def release_lease(self, table_id: str, holder: str) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM leases WHERE table_id=? AND holder=?", (table_id, holder))

    def set_presence(self, table_id: str, seat: int, holder: str, conns: int) -> None:
        with self._tx() as db:
            if conns > 0:
                db.execute("INSERT INTO presence (table_id, seat, holder, conns) VALUES (?,?,?,?)"
                           " ON CONFLICT (table_id, seat, holder) DO UPDATE SET conns=excluded.conns",
                           (table_id, seat, holder, conns))
            else:
                db.execute("DELETE FROM presence WHERE table_id=? AND seat=? AND holder=?",
                           (table_id, seat, holder))

    def present_seats(self, table_id: str, but: str) -> set[int]:
        return {r[0] for r in self.db.execute(
            "SELECT p.seat FROM presence p WHERE p.table_id=? AND p.holder<>? AND p.conns>0"
            f" AND {self._alive('p.holder')}", (table_id, but, self._since()))}

    def listed_tables(self, offset: int, limit: int) -> tuple[list[TableRow], int]:
        return listing_rows(self.db.execute(listing_sql("?"), (limit, offset)).fetchall())

    async def listen(self, on_change: Callable[[str], None]) -> None:
        return  # one process per file: nobody else writes

    def _tx(self, begin: str = "BEGIN IMMEDIATE") -> _Transaction:
        return _Transaction(self.db, begin)


def table_row(row: Any, seats: Any, actions: Any, since: int) -> TableRow:
    """A :class:`TableRow` from the rows both backends select in the same column order."""
    tid = row[0]
    out = TableRow(tid, row[1], json.loads(row[2]), int(row[3]), json.loads(row[4]), bool(row[5]),
                   row[6], [SeatRow(s[0], s[1], s[2], s[3], s[4], bool(s[5])) for s in seats],
                   bool(row[7]), row[8], created=float(row[9]), first=since,
                   deadline=row[10], deadline_idx=row[11],
                   finished=None if row[12] is None else float(row[12]))
    for idx, action, seat, actor, narration, at in actions:
        if idx != since + len(out.actions):
            raise StoreError(f"table {tid}: action #{idx} stored after #{since + len(out.actions) - 1}")
        if narration:
            out.narration[idx] = narration
        out.actions.append(action)
        out.actors.append((seat, actor))
        out.times.append(float(at))
    return out


class _Transaction:
    """BEGIN .. COMMIT, or ROLLBACK on any error."""

    def __init__(self, db: sqlite3.Connection, begin: str) -> None:
        self.db = db
        self.begin = begin

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute(self.begin)
        return self.db

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.db.execute("COMMIT" if exc_type is None else "ROLLBACK")
