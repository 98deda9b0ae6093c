"""Table talk in the tables' store: the lines people wrote at a table, kept with it.

Written once with ``?`` placeholders and run by both backends (they mix
:class:`TalkRows` in, as they do :class:`~gloomtable.server.store_accounts.AccountRows`).
A line is numbered per table (``n`` from 0, gap-free); the table's row is locked
while the next number is taken, so two processes writing at once never take the
same one. Each table keeps at most ``keep`` lines (the oldest go) and loses them
all when it is deleted. On PostgreSQL a written line sends ``NOTIFY`` with the
table's id and ``talk``, so every other process hears of it (server/cluster.py)
and reads the new lines (not the moves) for its own pages.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from gloomtable.server.store_accounts import AccountRows


@dataclass(frozen=True)
class TalkLine:
    """One line of table talk, as stored."""

    n: int
    """Its number at its table (0, 1, ...): pages and processes ask for the lines after one."""
    channel: str
    """``seats`` (the players' talk) or ``spectators`` (the watchers' own)."""
    who: str
    """Whom it is from, stably (``seat:N``, or ``watcher:XXXXXX`` for a spectator): what a mute keys on."""
    name: str
    """The name shown with it (the seat's name when written)."""
    text: str
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "channel": self.channel, "who": self.who, "name": self.name,
                "text": self.text, "at": self.at}


class TalkStore(Protocol):
    """The table-talk half of the store contract (both backends)."""

    def add_talk(self, table_id: str, channel: str, who: str, name: str, text: str,
                 keep: int) -> TalkLine | None:
        """Store one line (the next number of the table) and forget all but the newest
        ``keep``; None (nothing written) if the table is not stored (any more)."""

    def talk_lines(self, table_id: str, channel: str | None = None, after: int = -1,
                   limit: int = 1000) -> list[TalkLine]:
        """The table's lines numbered after ``after`` (of ``channel``, or every channel),
        oldest first, at most ``limit`` (the newest of them)."""

    def import_talk(self, table_id: str, lines: Sequence[TalkLine]) -> int:
        """Write lines as ``db copy`` carries them (those already stored are left); how many."""


class TalkRows(AccountRows):
    """:class:`TalkStore` for a backend with ``_tx()``, placeholder ``_ph`` and ``_for_update``
    (PostgreSQL locks the table's row while the next number is taken; SQLite's
    ``BEGIN IMMEDIATE`` already lets one writer in at a time)."""

    def add_talk(self, table_id: str, channel: str, who: str, name: str, text: str,
                 keep: int) -> TalkLine | None:
        at = time.time()
        with self._run() as db:
            lock = f"SELECT 1 FROM tables WHERE id=?{self._for_update}"
            if db.execute(lock, (table_id,)).fetchone() is None:
                return None
            got = db.execute("SELECT COALESCE(MAX(n) + 1, 0) FROM talk WHERE table_id=?",
                             (table_id,)).fetchone()
            n = int(got[0]) if got else 0
            db.execute("INSERT INTO talk (table_id, n, channel, who, name, text, at) VALUES (?,?,?,?,?,?,?)",
                       (table_id, n, channel, who, name, text, at))
            db.execute("DELETE FROM talk WHERE table_id=? AND n<=?", (table_id, n - keep))
            self._notify(db.conn, table_id + " talk")  # other processes read the talk, not the moves
        return TalkLine(n, channel, who, name, text, at)

    def talk_lines(self, table_id: str, channel: str | None = None, after: int = -1,
                   limit: int = 1000) -> list[TalkLine]:
        where, args = "table_id=? AND n>?", [table_id, after]
        if channel is not None:
            where += " AND channel=?"
            args.append(channel)
        with self._run() as db:
            rows = db.execute(f"SELECT n, channel, who, name, text, at FROM talk WHERE {where}"
                              " ORDER BY n DESC LIMIT ?", (*args, limit)).fetchall()
        return [TalkLine(int(r[0]), r[1], r[2], r[3], r[4], float(r[5])) for r in reversed(rows)]

    def import_talk(self, table_id: str, lines: Sequence[TalkLine]) -> int:
        written = 0
        with self._run() as db:
            for x in lines:
                if db.execute("SELECT 1 FROM talk WHERE table_id=? AND n=?", (table_id, x.n)).fetchone():
                    continue
                db.execute("INSERT INTO talk (table_id, n, channel, who, name, text, at)"
                           " VALUES (?,?,?,?,?,?,?)", (table_id, x.n, x.channel, x.who, x.name, x.text, x.at))
                written += 1
        return written


def talk_migration(version: int) -> tuple[int, str, list[str]]:
    """The migration that adds the talk table (its number is the next free one)."""
    return (version, "table talk: the lines written at each table (issue 30)", [
        """CREATE TABLE IF NOT EXISTS talk (
            table_id TEXT NOT NULL,
            n INTEGER NOT NULL,
            channel TEXT NOT NULL,
            who TEXT NOT NULL,
            name TEXT NOT NULL,
            text TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (table_id, n)
        )""",
    ])
