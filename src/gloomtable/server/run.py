"""Starting the server: one function shared by ``gloom serve`` and ``python -m``."""

from __future__ import annotations

import argparse
import logging
import os
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from gloomtable.server.store import default_db

if TYPE_CHECKING:
    from gloomtable.server.lobby import LobbySettings

DEFAULT_DB = str(default_db())
MAX_REQUEST_LINE = 65536


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | Path = DEFAULT_DB,
          announce: Callable[[str], None] = print, log_level: str = "warning",
          lobby: LobbySettings | None = None) -> None:
    """Run the server until interrupted, after printing the address to open."""
    # A websocket upgrade whose request line is longer than the websockets library's
    # limit (8 KiB) is dropped without an answer; allow what uvicorn itself accepts.
    os.environ.setdefault("WEBSOCKETS_MAX_LINE_LENGTH", str(MAX_REQUEST_LINE))
    import uvicorn

    from gloomtable.server.app import create_app
    from gloomtable.server.store import StoreError, open_store
    from gloomtable.server.store import shown as shown_db

    try:
        open_store(db).close()  # an unusable database is one clear line now, not a traceback later
    except StoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    from gloomtable.engine import GloomtableError
    from gloomtable.games.creatures.cards import register_set

    for path in (lobby.sets if lobby is not None else ()):
        try:
            found = register_set(path)
        except GloomtableError as exc:
            print(f"error: --sets: {exc}", file=sys.stderr)
            raise SystemExit(2) from None
        announce(f"Crazy Creatures variant {found.id!r} ({found.name}) from {path}")

    # uvicorn's "websockets" protocol answers an over-long or malformed upgrade with 400,
    # where the newer sans-I/O one leaves it hanging; we choose it on purpose.
    warnings.filterwarnings("ignore", message="The `websockets` implementation is deprecated")
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    app = create_app(db, lobby)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    announce(f"gloomtable is serving at http://{shown}:{port}/  "
             f"(tables stored in {shown_db(db)}; Ctrl+C stops)")
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws="websockets", ws_max_size=65536,
                ws_ping_interval=20, ws_ping_timeout=20, timeout_graceful_shutdown=3)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m gloomtable.server",
                                     description="Serve gloomtable in the browser.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default=DEFAULT_DB,
                        help="SQLite file for the tables, or a postgresql://USER@HOST/DB URL")
    from gloomtable.server.lobby import add_lobby_args, lobby_settings

    add_lobby_args(parser)
    args = parser.parse_args(argv)
    if not 0 < args.port < 65536:
        parser.error(f"--port must be 1..65535, got {args.port}")
    serve(args.host, args.port, args.db, lobby=lobby_settings(args))
