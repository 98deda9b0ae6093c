"""``gloom db backup`` and ``gloom db restore`` for a SQLite store (docs/deploy.md,
"Backups").

A backup is taken with SQLite's online backup API while servers keep playing: it
reads a consistent snapshot (a move committed during the copy is in the next
backup, never half in this one) and holds no lock a server waits on, in WAL mode.
The copy is written to a temporary file beside the destination, checked
(``PRAGMA integrity_check`` and the schema's version table) and only then renamed
into place, so an interrupted backup never leaves a file that looks whole.

A restore copies a checked backup to the store's path the same way; it refuses
to replace an existing store unless told to (``replace``), and is meant for a
stopped server: a server holding the old file open would keep playing on it.
A PostgreSQL store is backed up with ``pg_dump`` (the guide gives the commands)."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from gloomtable.server.store import StoreError, is_postgres


@dataclass(frozen=True)
class BackupReport:
    """What was copied: the file written, its tables and how many are unfinished."""

    path: Path
    tables: int
    unfinished: int


def _no_postgres(db: str | Path, what: str) -> None:
    if is_postgres(db):
        raise StoreError(f"{what} works on a SQLite file; for PostgreSQL use pg_dump and pg_restore "
                         "(docs/deploy.md, \"Backups\")")


def _check(db: sqlite3.Connection, where: Path) -> BackupReport:
    try:
        ok = db.execute("PRAGMA integrity_check").fetchone()[0]
        if ok != "ok":
            raise StoreError(f"{where} is damaged: {ok}")
        tables = int(db.execute("SELECT COUNT(*) FROM tables").fetchone()[0])
        unfinished = int(db.execute("SELECT COUNT(*) FROM tables WHERE over = 0").fetchone()[0])
        db.execute("SELECT MAX(version) FROM schema_version").fetchone()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{where} is not a gloomtable database: {exc}") from None
    return BackupReport(where, tables, unfinished)


def _copy(source: Path, dest: Path, replace: bool) -> BackupReport:
    if not source.is_file():
        raise StoreError(f"{source}: no such file")
    if dest.exists() and not replace:
        raise StoreError(f"{dest} exists; give another path (or --replace)")
    if dest.resolve() == source.resolve():
        raise StoreError(f"{source} and {dest} are the same file")
    dest.parent.mkdir(parents=True, exist_ok=True)
    part = dest.with_name(f".{dest.name}.part")
    with contextlib.suppress(FileNotFoundError):
        part.unlink()
    try:
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30)
        try:
            out = sqlite3.connect(part)
            try:
                src.backup(out)  # a consistent snapshot, however the servers write meanwhile
                out.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
                report = _check(out, source)
            finally:
                out.close()
        finally:
            src.close()
    except sqlite3.Error as exc:
        with contextlib.suppress(FileNotFoundError):
            part.unlink()
        raise StoreError(f"cannot copy {source} to {dest}: {exc}") from None
    except StoreError:
        part.unlink()
        raise
    for extra in ("-wal", "-shm"):  # a replaced store's journal must not be replayed onto the copy
        with contextlib.suppress(FileNotFoundError):
            Path(f"{dest}{extra}").unlink()
    os.replace(part, dest)
    return BackupReport(dest, report.tables, report.unfinished)


def backup(db: str | Path, dest: str | Path) -> BackupReport:
    """Copy the SQLite store ``db`` (live or not) to a new file ``dest``."""
    _no_postgres(db, "gloom db backup")
    return _copy(Path(db), Path(dest), replace=False)


def restore(backup_file: str | Path, db: str | Path, replace: bool = False) -> BackupReport:
    """Put a backup in place as the SQLite store ``db`` (its server stopped)."""
    _no_postgres(db, "gloom db restore")
    return _copy(Path(backup_file), Path(db), replace=replace)
