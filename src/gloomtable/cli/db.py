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
