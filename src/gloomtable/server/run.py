"""Starting the server: one function shared by ``gloom serve`` and ``python -m``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gloomtable.server.limits import ServerLimits, add_arguments, check_rate_storage, from_namespace
from gloomtable.server.store import default_db

if TYPE_CHECKING:
    from gloomtable.server.lobby import LobbySettings

DEFAULT_DB = str(default_db())
MAX_REQUEST_LINE = 65536
SWITCH_INTERVAL = 0.0002
"""Seconds a thread holds the GIL before another may run (Python's default: 0.005)."""


def header_deadline_protocol(seconds: float) -> type:
    """uvicorn's h11 protocol with a deadline for a request's headers.

    uvicorn arms no timer until a first response is sent (its keep-alive timer is
    cancelled by every byte that arrives), so a client sending its headers a byte
    at a time holds the connection for ever. This one closes a connection whose
    request line and headers are not all in within ``seconds`` of the connection (or
    of the previous response on a kept-alive one)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class HeaderDeadlineH11(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(seconds, self._expire)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expire(self) -> None:
            self._deadline = None
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                return  # closed, or upgraded to a websocket
            if self.cycle is None or self.cycle.response_complete:
                self.logger.info("closing a connection that did not send its headers in %g s", seconds)
                self.transport.close()

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def handle_events(self) -> None:
            super().handle_events()
            if self.cycle is not None and not self.cycle.response_complete:
                self._disarm()  # the headers are in; the app's own timeouts take over

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return HeaderDeadlineH11


def register_sets(paths: Iterable[str], announce: Callable[[str], None] = print) -> None:
    """``--sets``: each file is a deck file of the game whose shape it has (a Gloom deck,
    a Crazy Creatures variant: the registry's ``decks`` tell), registered by its id so
    tables may name it; a broken one stops the start with the game's checker's messages."""
    from gloomtable.engine import GloomtableError
    from gloomtable.engine.textdata import TextDataError, load_toml
    from gloomtable.games import registry

    games = registry.decks()
    for path in paths:
        try:
            data = load_toml(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, TextDataError):
            data = {}  # the first game's reader says what is wrong with it
        decks = next((d for d in games if d.claims(data)), games[0] if games else None)
        try:
            if decks is None:
                raise GloomtableError(f"{path}: no game here takes deck files")
            announce(decks.register_file(path))
        except GloomtableError as exc:
            print(f"error: --sets: {exc}", file=sys.stderr)
            raise SystemExit(2) from None


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | Path = DEFAULT_DB,
          announce: Callable[[str], None] | None = None, log_level: str = "info",
          lobby: LobbySettings | None = None, limits: ServerLimits | None = None,
          log_format: str = "text", access_log: bool = False) -> None:
    """Run the server until interrupted, after printing the address to open. Logs go to
    standard error as :mod:`gloomtable.server.logs` says (``log_level``, ``log_format``,
    ``access_log``: uvicorn's line per request)."""
    from gloomtable.server.logs import configure

    try:
        log_config = configure(log_level, log_format)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    if announce is None:  # the address and the choices are log lines too, stamped like the rest
        announce = logging.getLogger("gloomtable.server").warning
    limits = limits or ServerLimits()
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
    try:
        check_rate_storage(limits)  # likewise a Redis that does not answer
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    register_sets(lobby.sets if lobby is not None else (), announce)

    # uvicorn's "websockets" protocol answers an over-long or malformed upgrade with 400,
    # where the newer sans-I/O one leaves it hanging; we choose it on purpose.
    warnings.filterwarnings("ignore", message="The `websockets` implementation is deprecated")
    # Bot searches run in threads; by default a thread keeps the GIL for 5 ms before the
    # event loop may take it, and a person's move passes the loop several times.
    sys.setswitchinterval(SWITCH_INTERVAL)
    app = create_app(db, lobby, limits, limits.hosts(host))
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    announce(f"gloomtable is serving at http://{shown}:{port}/  "
             f"(tables stored in {shown_db(db)}; Ctrl+C stops)")
    if not limits.allowed_hosts and host in ("0.0.0.0", "::"):
        announce("only requests naming this machine by a loopback name are served; give the names "
                 "people use with --allowed-hosts (docs/security.md)")
    server = uvicorn.Server(server_config(app, host, port, limits, log_config, access_log))
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C: uvicorn has shut down cleanly
        server.run()
    if not server.started:  # as uvicorn.run: a start-up that failed (say, the port taken) exits 3
        raise SystemExit(3)


def server_config(app: Any, host: str, port: int, limits: ServerLimits,
                  log_config: dict[str, Any] | None = None, access_log: bool = False) -> Any:
    """uvicorn's settings for ``app`` as :func:`serve` runs it (and the tests' in-process
    server, :class:`gloomtable.server.testing.ServerThread`): a ``uvicorn.Config``."""
    import uvicorn

    proxies = limits.forwarded_allow_ips
    return uvicorn.Config(app, host=host, port=port, log_config=log_config, access_log=access_log,
                          ws="websockets", http=header_deadline_protocol(limits.header_timeout),
                          ws_max_size=limits.ws_max_size, ws_ping_interval=20, ws_ping_timeout=20,
                          ws_per_message_deflate=False,  # zlib per socket: CPU on every frame, ~300 KB each
                          timeout_graceful_shutdown=3, limit_concurrency=limits.limit_concurrency,
                          timeout_keep_alive=limits.timeout_keep_alive, backlog=limits.backlog,
                          h11_max_incomplete_event_size=limits.max_header_bytes,
                          proxy_headers=bool(proxies), forwarded_allow_ips=proxies or None)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m gloomtable.server",
                                     description="Serve gloomtable in the browser.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default=DEFAULT_DB,
                        help="SQLite file for the tables, or a postgresql://USER@HOST/DB URL")
    from gloomtable.server.lobby import add_lobby_args, lobby_settings

    add_lobby_args(parser)
    add_arguments(parser)
    add_log_arguments(parser)
    parser.add_argument("--config", metavar="FILE", help="a TOML file of settings (docs/deploy.md)")
    parser.add_argument("--print-config", action="store_true",
                        help="print the settings as they resolve (secrets masked) and exit")
    from gloomtable.server.settings import SettingsError, as_toml, layered

    flags = argparse_flags(parser)
    first, _rest = parser.parse_known_args(argv)
    try:
        parser.set_defaults(**{dest: value for flag, value in layered(
            {f: kind for f, (_d, kind) in flags.items()}, first.config).items()
            for dest in [flags[flag][0]]})
    except SettingsError as exc:
        parser.error(str(exc))
    args = parser.parse_args(argv)
    if args.print_config:
        print(as_toml({flag: getattr(args, dest) for flag, (dest, _k) in flags.items()}))
        return
    if not 0 < args.port < 65536:
        parser.error(f"--port must be 1..65535, got {args.port}")
    try:
        limits = from_namespace(args)
    except ValueError as exc:
        parser.error(str(exc))
    serve(args.host, args.port, args.db, lobby=lobby_settings(args), limits=limits,
          log_level=args.log_level, log_format=args.log_format, access_log=args.access_log)


def argparse_flags(parser: argparse.ArgumentParser) -> dict[str, tuple[str, type]]:
    """Every setting flag of ``parser``: its name (no dashes) to its dest and type."""
    out: dict[str, tuple[str, type]] = {}
    for action in parser._actions:
        longs = [o for o in action.option_strings if o.startswith("--") and not o.startswith("--no-")]
        if not longs or action.dest in ("help", "config", "print_config"):
            continue
        if isinstance(action, argparse._StoreTrueAction | argparse.BooleanOptionalAction):
            kind: type = bool
        elif isinstance(action.type, type):
            kind = action.type
        else:
            kind = type(action.default) if action.default is not None else str
        out[longs[0][2:]] = (action.dest, kind)
    return out


def add_log_arguments(parser: argparse.ArgumentParser) -> None:
    """``--log-level``, ``--log-format``, ``--access-log`` (:mod:`gloomtable.server.logs`)."""
    from gloomtable.server.logs import FORMATS, LEVELS

    parser.add_argument("--log-level", choices=LEVELS, default="info",
                        help="least level of the lines logged; debug adds tracebacks (default: info)")
    parser.add_argument("--log-format", choices=FORMATS, default="text",
                        help="text lines, or one JSON object a line (default: text)")
    parser.add_argument("--access-log", action=argparse.BooleanOptionalAction, default=False,
                        help="one line per HTTP request and websocket (default: off)")
