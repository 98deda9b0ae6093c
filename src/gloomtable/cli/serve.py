"""``gloom serve``: play in the browser (issue 6). The server itself lives in
:mod:`gloomtable.server`; this is only its command-line face."""

from __future__ import annotations

from typing import Annotated

import typer

from gloomtable.server.run import DEFAULT_DB


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    db: Annotated[str, typer.Option(
        help="SQLite file where tables are kept, or postgresql://USER@HOST/DB to share tables "
             "between several server processes (docs/deploy.md).")] = DEFAULT_DB,
) -> None:
    """Serve the lobby and live tables in the browser; prints the address to open."""
    from gloomtable.server.run import serve as run

    run(host=host, port=port, db=db, announce=typer.echo)
