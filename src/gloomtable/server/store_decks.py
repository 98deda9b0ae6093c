"""Decks uploaded at the lobby, in the tables' store (both backends mix
:class:`DeckRows` in, as they do the account rows).

A deck is stored once by its key (``up-`` and its content's SHA-256), with the
whole upload (the deck file and its translations, as JSON), who uploaded it (the
SHA-256 of the client's key: no address is stored) and when it was last used. A
table names the key in its config, so the deck is kept while any stored table
names it, whatever its age.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass
class DeckRow:
    key: str
    kind: str
    """``deck`` (a Gloom deck file) or ``variant`` (a Crazy Creatures set)."""
    name: str
    bundle: str
    """The upload as JSON: ``{"file", "deck", "translations": {lang: text}}``."""
    owner: str
    created: float
    used: float


class DeckStore(Protocol):
    """The uploaded decks' half of the store contract (both backends)."""

    def put_deck(self, row: DeckRow) -> bool:
        """Store an upload; False (its ``used`` time renewed, nothing else) if its key
        is stored already (the same content, by anyone)."""

    def get_deck(self, key: str) -> DeckRow | None:
        """The upload stored under ``key``, or None if none is."""

    def owner_decks(self, owner: str) -> list[DeckRow]:
        """The uploads of ``owner``, newest first."""

    def touch_deck(self, key: str) -> None:
        """A table was made with it now (its retention starts again)."""

    def expire_decks(self, cutoff: float) -> int:
        """Delete uploads unused since ``cutoff`` that no stored table names; how many."""

    def export_decks(self) -> list[tuple[Any, ...]]:
        """Every row (for ``gloom db copy``)."""

    def import_decks(self, rows: list[tuple[Any, ...]]) -> int:
        """Write rows of :meth:`export_decks`, leaving stored keys as they are; how many."""


COLUMNS = "key, kind, name, bundle, owner, created, used"


class DeckRows:
    """:class:`DeckStore` for a backend with ``_tx()`` and placeholder ``_ph``."""

    _ph = "?"
    _tx: Callable[[], Any]

    @contextlib.contextmanager
    def _decks(self) -> Iterator[Any]:
        from gloomtable.server.store_accounts import _Runner

        with self._tx() as conn:
            yield _Runner(conn, self._ph)

    def put_deck(self, row: DeckRow) -> bool:
        with self._decks() as db:
            if db.execute("SELECT 1 FROM decks WHERE key=?", (row.key,)).fetchone():
                db.execute("UPDATE decks SET used=? WHERE key=?", (row.used, row.key))
                return False
            db.execute(f"INSERT INTO decks ({COLUMNS}) VALUES (?,?,?,?,?,?,?)",
                       (row.key, row.kind, row.name, row.bundle, row.owner, row.created, row.used))
            return True

    def get_deck(self, key: str) -> DeckRow | None:
        with self._decks() as db:
            r = db.execute(f"SELECT {COLUMNS} FROM decks WHERE key=?", (key,)).fetchone()
        return None if r is None else DeckRow(*r)

    def owner_decks(self, owner: str) -> list[DeckRow]:
        with self._decks() as db:
            found = db.execute(f"SELECT {COLUMNS} FROM decks WHERE owner=? ORDER BY created DESC, key",
                               (owner,)).fetchall()
        return [DeckRow(*r) for r in found]

    def touch_deck(self, key: str) -> None:
        with self._decks() as db:
            db.execute("UPDATE decks SET used=? WHERE key=?", (time.time(), key))

    def expire_decks(self, cutoff: float) -> int:
        pct = "%" if self._ph == "?" else "%%"  # psycopg reads a bare % as a placeholder
        with self._decks() as db:
            # a table's config is JSON text naming the key in quotes: '"up-..."'
            n: int = db.execute(
                "DELETE FROM decks WHERE used < ? AND NOT EXISTS (SELECT 1 FROM tables t"
                f" WHERE t.config LIKE '{pct}\"' || decks.key || '\"{pct}')", (cutoff,)).rowcount
        return n

    def export_decks(self) -> list[tuple[Any, ...]]:
        with self._decks() as db:
            return [tuple(r) for r in db.execute(f"SELECT {COLUMNS} FROM decks ORDER BY key").fetchall()]

    def import_decks(self, rows: list[tuple[Any, ...]]) -> int:
        written = 0
        with self._decks() as db:
            for row in rows:
                written += db.execute(f"INSERT INTO decks ({COLUMNS}) VALUES (?,?,?,?,?,?,?)"
                                      " ON CONFLICT DO NOTHING", row).rowcount
        return written


MIGRATION = (9, "decks uploaded at the lobby, by content hash (issue 34)", [
    """CREATE TABLE IF NOT EXISTS decks (
        key TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        bundle TEXT NOT NULL,
        owner TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        used DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS decks_owner ON decks(owner)",
    "CREATE INDEX IF NOT EXISTS decks_used ON decks(used)",
])
"""The store's migration for uploaded decks (listed in :mod:`gloomtable.server.migrations`)."""
