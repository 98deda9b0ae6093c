"""``gloom db copy``: every table (finished and unfinished) from one store to
another, SQLite to PostgreSQL or back, so a site can move without losing a game.

A table is copied whole (row, seats, every action with its time and narration,
the stored turn-timer deadline, when it finished) in one transaction of the
destination, so an interrupted copy leaves whole tables only, and running it
again copies what is missing; its table talk follows in a second one. A table id
already in the destination is left as it is and reported.
Then the decks uploaded at the lobby and the accounts, their sessions and seat
links are copied (those already in the destination left as they are), so people
stay signed in and keep their games.
Leases are not copied: the first server on the destination takes them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from gloomtable.server.store import StoreError, open_store, shown


@dataclass
class CopyReport:
    copied: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    """Already in the destination (left untouched)."""
    account_rows: int = 0
    """Rows of accounts, sessions and seat links written."""
    deck_rows: int = 0
    """Decks uploaded at the lobby written (by content key: one already there is left)."""


def copy_tables(source: str | Path, dest: str | Path,
                progress: Callable[[int, int], None] | None = None) -> CopyReport:
    """Copy every table of ``source`` into ``dest`` (both a SQLite path or a postgresql:// URL)."""
    if str(source) == str(dest):
        raise StoreError(f"--from and --to are the same database ({shown(source)})")
    src = open_store(source)
    try:
        dst = open_store(dest)
        try:
            report = CopyReport()
            ids = src.all_ids()
            for n, tid in enumerate(ids, 1):
                row = src.load(tid)
                if row is None:  # gone since the listing
                    continue
                if dst.import_table(row):
                    report.copied.append(tid)
                    dst.import_talk(tid, src.talk_lines(tid, limit=1 << 30))  # its table talk goes with it
                else:
                    report.skipped.append(tid)
                if progress:
                    progress(n, len(ids))
            report.deck_rows = dst.import_decks(src.export_decks())
            report.account_rows = dst.import_accounts(src.export_accounts())
            return report
        finally:
            dst.close()
    finally:
        src.close()
