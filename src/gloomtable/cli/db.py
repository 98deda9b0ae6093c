"""``gloom db``: tools for the tables' database (docs/deploy.md)."""

from __future__ import annotations

from typing import Annotated

import typer

from gloomtable.i18n.cli_language import _

db_app = typer.Typer(help=_("Tools for the server's database of tables (docs/deploy.md)."),
                     no_args_is_help=True)


@db_app.command("copy", help=_("Copy every table (finished and unfinished) from one database to another: "
                               "a SQLite file or a postgresql://USER@HOST/DB URL on either side."))
def copy(
    source: Annotated[str, typer.Option("--from", help=_("The database to read: a file or a URL."))],
    dest: Annotated[str, typer.Option("--to", help=_("The database to write: a file or a URL."))],
) -> None:
    from gloomtable.server.copy import copy_tables
    from gloomtable.server.store import StoreError, shown

    try:
        report = copy_tables(source, dest)
    except StoreError as exc:
        typer.echo(_("error: {why}").format(why=exc), err=True)
        raise typer.Exit(2) from None
    typer.echo(_("copied {n} table(s) from {src} to {dst}").format(
        n=len(report.copied), src=shown(source), dst=shown(dest)))
    if report.skipped:
        typer.echo(_("{n} table(s) were already there and were left as they are: {ids}").format(
            n=len(report.skipped), ids=", ".join(report.skipped[:20]) + (" ..." if len(report.skipped) > 20
                                                                          else "")))


@db_app.command("backup", help=_("Copy a SQLite database of tables to a new file, while servers play on it "
                                 "(SQLite's online backup). For PostgreSQL use pg_dump (docs/deploy.md)."))
def backup(
    path: Annotated[str, typer.Argument(help=_("The new file to write (it must not exist)."))],
    db: Annotated[str, typer.Option(help=_("The database to back up (default: as gloom serve's --db)."),
                                    show_default=False)] = "",
) -> None:
    from gloomtable.server.backup import backup as run
    from gloomtable.server.store import StoreError, default_db

    try:
        report = run(db or str(default_db()), path)
    except StoreError as exc:
        typer.echo(_("error: {why}").format(why=exc), err=True)
        raise typer.Exit(2) from None
    typer.echo(_("backed up {n} table(s) ({u} unfinished) to {path}").format(
        n=report.tables, u=report.unfinished, path=report.path))


@db_app.command("restore", help=_("Put a backup in place as a SQLite database of tables; stop the server "
                                  "that uses it first. For PostgreSQL use pg_restore (docs/deploy.md)."))
def restore(
    path: Annotated[str, typer.Argument(help=_("The backup file (from gloom db backup)."))],
    db: Annotated[str, typer.Option(help=_("The database to write (default: as gloom serve's --db)."),
                                    show_default=False)] = "",
    replace: Annotated[bool, typer.Option(help=_("Replace the database if it exists."))] = False,
) -> None:
    from gloomtable.server.backup import restore as run
    from gloomtable.server.store import StoreError, default_db

    try:
        report = run(path, db or str(default_db()), replace=replace)
    except StoreError as exc:
        typer.echo(_("error: {why}").format(why=exc), err=True)
        raise typer.Exit(2) from None
    typer.echo(_("restored {n} table(s) ({u} unfinished) to {path}").format(
        n=report.tables, u=report.unfinished, path=report.path))
