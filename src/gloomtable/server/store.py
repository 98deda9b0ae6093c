"""Where tables live between restarts: config + seed + seats + the action list.

SQLite (stdlib) is the embedded default. The server talks only to
:class:`Store`, so another backend (PostgreSQL for a deployment that outgrows
one process) can replace it without touching the tables or the websockets.
Every accepted action is appended in its own transaction, and only after the
commit does anyone hear of it: a killed server loses nothing any player saw.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gloomtable.engine import GloomtableError

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,
    listed INTEGER NOT NULL,
    host_token TEXT NOT NULL,
    created REAL NOT NULL,
    over INTEGER NOT NULL DEFAULT 0,
    next_table TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    level TEXT NOT NULL,
    name TEXT NOT NULL,
    token TEXT NOT NULL,
    claimed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    idx INTEGER NOT NULL,
    action INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    actor TEXT NOT NULL,
    narration TEXT,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, idx)
);
CREATE INDEX IF NOT EXISTS tables_open ON tables(over, listed);
"""


BUSY_TIMEOUT_MS = 5000
"""How long a write waits for another process's lock before it fails."""


class StoreError(GloomtableError):
    """The database file cannot be used: names the file and why."""


@dataclass
class SeatRow:
    seat: int
    kind: str  # "person" or "bot"
    level: str  # the bot level (for a person: the stand-in's level)
    name: str
    token: str
    claimed: bool = False


@dataclass
class TableRow:
    id: str
    game: str
    config: dict[str, Any]
    seed: int
    options: dict[str, Any]
    listed: bool
    host_token: str
    seats: list[SeatRow]
    over: bool = False
    next_table: str | None = None
    actions: list[int] = field(default_factory=list)
    actors: list[tuple[int, str]] = field(default_factory=list)
    narration: dict[int, str] = field(default_factory=dict)


class Store:
    """The storage interface of the server, on SQLite."""

    def __init__(self, path: str | Path, *, open_timeout: float = 1.0) -> None:
        """Open (or create) the database and prove it can be written now: a read-only,
        locked or foreign file is a :class:`StoreError` naming the file, at start,
        rather than a server that listens and then fails every write."""
        self.path = str(path)
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
            db.executescript(SCHEMA)
            db.execute("BEGIN IMMEDIATE")
            db.execute("ROLLBACK")
            db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        except (sqlite3.Error, OSError) as exc:
            if db is not None:
                db.close()
            why = str(exc) or type(exc).__name__
            if "readonly" in why:
                why += " (the file or its folder is read-only)"
            raise StoreError(f"cannot use the database {self.path}: {why}") from None
        self.db = db

    def close(self) -> None:
        self.db.close()

    def create_table(self, row: TableRow) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO tables (id, game, config, seed, options, listed, host_token, created)"
                " VALUES (?,?,?,?,?,?,?,?)",
                (row.id, row.game, json.dumps(row.config), row.seed, json.dumps(row.options),
                 int(row.listed), row.host_token, time.time()))
            db.executemany(
                "INSERT INTO seats (table_id, seat, kind, level, name, token, claimed)"
                " VALUES (?,?,?,?,?,?,?)",
                [(row.id, s.seat, s.kind, s.level, s.name, s.token, int(s.claimed))
                 for s in row.seats])

    def append_action(self, table_id: str, idx: int, action: int, seat: int, actor: str,
                      narration: str | None, over: bool) -> None:
        """One accepted action, committed before the caller tells anyone about it."""
        with self._tx() as db:
            db.execute("INSERT INTO actions (table_id, idx, action, seat, actor, narration, at)"
                       " VALUES (?,?,?,?,?,?,?)",
                       (table_id, idx, action, seat, actor, narration, time.time()))
            if over:
                db.execute("UPDATE tables SET over=1 WHERE id=?", (table_id,))

    def update_seat(self, table_id: str, seat: int, *, name: str | None = None,
                    claimed: bool | None = None) -> None:
        with self._tx() as db:
            if name is not None:
                db.execute("UPDATE seats SET name=? WHERE table_id=? AND seat=?", (name, table_id, seat))
            if claimed is not None:
                db.execute("UPDATE seats SET claimed=? WHERE table_id=? AND seat=?",
                           (int(claimed), table_id, seat))

    def set_next_table(self, table_id: str, next_id: str) -> None:
        with self._tx() as db:
            db.execute("UPDATE tables SET next_table=? WHERE id=?", (next_id, table_id))

    def load(self, table_id: str) -> TableRow | None:
        row = self.db.execute("SELECT id, game, config, seed, options, listed, host_token, over,"
                              " next_table FROM tables WHERE id=?", (table_id,)).fetchone()
        return None if row is None else self._full(row)

    def unfinished_ids(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT id FROM tables WHERE over=0 ORDER BY created")]

    def _full(self, row: tuple[Any, ...]) -> TableRow:
        tid = row[0]
        seats = [SeatRow(s[0], s[1], s[2], s[3], s[4], bool(s[5])) for s in self.db.execute(
            "SELECT seat, kind, level, name, token, claimed FROM seats WHERE table_id=? ORDER BY seat",
            (tid,))]
        out = TableRow(tid, row[1], json.loads(row[2]), row[3], json.loads(row[4]), bool(row[5]),
                       row[6], seats, bool(row[7]), row[8])
        for idx, action, seat, actor, narration in self.db.execute(
                "SELECT idx, action, seat, actor, narration FROM actions WHERE table_id=? ORDER BY idx",
                (tid,)):
            if idx != len(out.actions):
                raise RuntimeError(f"table {tid}: action #{idx} stored after #{len(out.actions) - 1}")
            out.actions.append(action)
            out.actors.append((seat, actor))
            if narration:
                out.narration[idx] = narration
        return out

    def _tx(self) -> _Transaction:
        return _Transaction(self.db)


class _Transaction:
    """BEGIN IMMEDIATE .. COMMIT, or ROLLBACK on any error."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.db.execute("COMMIT" if exc_type is None else "ROLLBACK")
