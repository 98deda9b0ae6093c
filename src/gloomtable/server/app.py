"""The ASGI app: the page, the lobby API and the table websockets.

Start it with ``gloom serve`` or ``python -m gloomtable.server``. Every
refusal, over HTTP or websocket, is ``{"type": "error", "code", "message"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware

from gloomtable.engine import ConfigError
from gloomtable.engine.textdata import TextDataError, load_json, set_text_limits
from gloomtable.engine.tomlshape import TextLimits
from gloomtable.i18n.web import languages_info, localize_catalogue, request_language, web_catalog
from gloomtable.server import accounts, metrics, uploads
from gloomtable.server.addresses import client_ip
from gloomtable.server.cluster import Cluster
from gloomtable.server.designer_pages import add_designer_routes
from gloomtable.server.errors import ServerError, error_message
from gloomtable.server.games import games_info
from gloomtable.server.headers import PathCheck, SecurityHeaders, read_json
from gloomtable.server.health import router as health_router
from gloomtable.server.heavy import MB, HeavyWork
from gloomtable.server.limits import HttpRateLimits, RateLimits, ServerLimits
from gloomtable.server.lobby import LESSON_BOT_DELAY_MS, Lobby, LobbySettings, invite_path
from gloomtable.server.options import clean_name, parse_table_spec
from gloomtable.server.sessions import Passwords
from gloomtable.server.sockets import Sockets
from gloomtable.server.store import is_postgres, open_store, shown
from gloomtable.server.store_guard import guarded
from gloomtable.server.table import Conn, LiveTable
from gloomtable.server.talk import TableTalk

log = logging.getLogger("gloomtable.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
MAX_MESSAGE = 8192
"""Bytes a client message may have (a play with narration needs far fewer)."""
NARRATION_MAX = 200
TOKEN_MAX = 128
"""Characters a seat token may have in a hello (ours have 24)."""
SYNC_LOG = 100
"""Log entries a ``sync`` answer carries (the newest): a sync is a repair, not a replay."""


def create_app(db_path: str | Path = "gloomtable.db", lobby_settings: LobbySettings | None = None,
               limits: ServerLimits | None = None, hosts: list[str] | None = None) -> FastAPI:
    """The app; ``hosts`` are the Host header values served (default: loopback names)."""
    config = limits or ServerLimits()
    rates = RateLimits(config)
    text_limits = TextLimits(config.text_max_key_parts, config.text_max_keys, config.text_max_nesting)
    set_text_limits(text_limits)
    heavy = HeavyWork(timeout=config.heavy_timeout, memory=config.heavy_memory * MB, text_limits=text_limits)
    sockets = Sockets(config.socket_count_timeout)
    talk = TableTalk(rates)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        raw = store = open_store(db_path)
        if is_postgres(db_path):  # a stalled link to the database must not freeze the event loop
            store = guarded(raw, config.store_timeout)
        lobby = Lobby(store, lobby_settings)
        if is_postgres(db_path):  # several processes may share it: lead only what nobody leads
            from gloomtable.server.store_postgres import PostgresStore

            lobby.cluster = Cluster(lobby, beat_store=raw)  # its heartbeat thread waits on its own
            lobby.cluster.after_catch_up = talk.after_catch_up  # another process's talk reaches pages here
            lobby.cluster.join()
            lobby.cluster.renew_and_take()
            resumed = len(lobby.cluster.held)
            if isinstance(raw, PostgresStore):  # open sockets are counted for the site there (their own
                await sockets.share(raw, lobby.cluster.holder)  # threads and time bounds)
        else:
            resumed = lobby.resume_all()
        log.info("resumed %d unfinished table(s) from %s", resumed, shown(db_path))
        app.state.lobby = lobby
        metrics.watch(lobby, heavy)
        uploads.expire(lobby.store, config.upload_expiry_days)
        for table in lobby.tables.values():
            table.schedule()
        lobby.start()
        if lobby.cluster is not None:
            lobby.cluster.start()
        rates.open_shared()
        sweeper = asyncio.create_task(rates.sweep_forever())
        try:
            yield
        finally:
            sweeper.cancel()
            metrics.watch(None, None)
            heavy.close()
            rates.close()
            await sockets.close()
            if lobby.cluster is not None:
                await lobby.cluster.stop()
            lobby.close()
            store.close()

    app = FastAPI(title="gloomtable", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.limits = config
    app.state.heavy = heavy
    app.state.rates = rates
    app.state.passwords = Passwords(config.password_hashes)
    served_hosts = hosts or config.hosts("127.0.0.1")
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=served_hosts)
    app.add_middleware(HttpRateLimits, rates=rates)  # creations and joins per IP, before any routing
    app.add_middleware(PathCheck)  # a %00 in an id or a name never reaches a route (issue 29, row 5)
    app.add_middleware(SecurityHeaders)  # a refused Host gets the headers too
    app.add_middleware(metrics.RequestTimes)  # outermost: every answer is timed, refusals too

    @app.exception_handler(ServerError)
    async def _server_error(request: Request, exc: ServerError) -> JSONResponse:
        metrics.refused(exc.code, "http")
        return JSONResponse(exc.to_dict(), status_code=exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = "not_found" if exc.status_code == 404 else "bad_message"
        return JSONResponse(error_message(code, str(exc.detail)), status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.error("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
        metrics.refused("server_error", "http")
        return JSONResponse(error_message("server_error", "the server could not handle that request"),
                            status_code=500)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(error_message("bad_message", "the request is not well formed"), status_code=400)

    def lobby_of(request: Request | WebSocket) -> Lobby:
        lobby: Lobby = request.app.state.lobby
        return lobby

    async def body_of(request: Request) -> dict[str, Any]:
        return await read_json(request, config.max_body, config.body_timeout)

    # --- pages -----------------------------------------------------------------------

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def index() -> FileResponse:
        """The lobby (HEAD too: uptime checks and proxies ask with it)."""
        return FileResponse(WEB_DIR / "index.html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        """Pages without an icon link (the printable chronicle) make browsers ask here."""
        return FileResponse(WEB_DIR / "favicon.svg", media_type="image/svg+xml")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    app.include_router(health_router)  # /healthz, /readyz (docs/deploy.md)
    app.include_router(metrics.router)  # /metrics, only to --metrics-allow (docs/deploy.md)
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    # --- lobby API ---------------------------------------------------------------------

    @app.get("/api/games")
    async def api_games(request: Request) -> dict[str, Any]:
        return {**games_info(), "fixed_deals": lobby_of(request).settings.allow_fixed_deals}

    @app.get("/api/tables")
    async def api_tables(request: Request) -> dict[str, Any]:
        lobby = lobby_of(request)
        s = lobby.settings
        # checked before anything is asked of the store: PostgreSQL answers an offset past
        # its bigint with an error, and no page of the listing lies past the open tables
        offset = bounded_query(request, "offset", 0, 0, s.max_open_tables)
        limit = bounded_query(request, "limit", 20, 1, s.listing_max)
        return await lobby.listing(offset, limit)

    @app.post("/api/tables")
    async def api_create(request: Request) -> JSONResponse:
        lobby = lobby_of(request)
        session = accounts.acting(request, lobby.store)
        try:
            spec = parse_table_spec(await body_of(request))
        except ConfigError as exc:
            raise ServerError("bad_table", str(exc)) from None
        table, host = await lobby.create(spec, owner=client_ip(request, config.ipv6_prefix),
                                         owner_most=config.open_tables_per_ip)
        if session is not None:  # the creator sits at the first seat given by link
            first = next((s.index for s in table.seats if s.row.kind == "person"
                          and not table.is_open_seat(s.index)), None)
            if first is not None:
                accounts.record_seat(request, table.id, first, session)
        return JSONResponse(lobby.created_answer(table, host), status_code=201)

    @app.post("/api/lessons")
    async def api_lesson(request: Request) -> JSONResponse:
        """A guided first game (docs/learn.md): an unlisted table on the lesson's deal."""
        body = await body_of(request)
        name = body.get("lesson")
        if not isinstance(name, str) or len(name) > 40:
            raise ServerError("bad_table", '"lesson" must name a shipped lesson')
        delay = body.get("bot_delay_ms", LESSON_BOT_DELAY_MS)
        # Tests ask for quicker bots; a lesson's bots are never slower than a newcomer's.
        if not isinstance(delay, int) or isinstance(delay, bool) or not 0 <= delay <= LESSON_BOT_DELAY_MS:
            raise ServerError("bad_table",
                              f'"bot_delay_ms" must be a whole number from 0 to {LESSON_BOT_DELAY_MS}')
        lobby = lobby_of(request)
        table, _host = await lobby.create_lesson(name, bot_delay_ms=delay,
                                                 owner=client_ip(request, config.ipv6_prefix),
                                                 owner_most=config.open_tables_per_ip)
        token = table.seats[0].row.token
        return JSONResponse({"table": table.id, "link": invite_path(table.id, token)}, status_code=201)

    async def not_in_memory(request: Request | WebSocket, table_id: str) -> None:
        """A table this process does not hold is read back from the store, which replays
        its game: that counts against ``--heavy-rate`` for the client (an id nobody has,
        too), so no client can keep the event loop replaying old games."""
        if table_id in lobby_of(request).tables:
            return
        if not await rates.hit("heavy_rate", client_ip(request, config.ipv6_prefix)):
            raise ServerError("rate_limited", "too many tables opened from the record by you (at most "
                              f"{config.heavy_rate}); wait a little", 429)

    @app.get("/api/tables/{table_id}")
    async def api_table(table_id: str, request: Request) -> dict[str, Any]:
        await not_in_memory(request, table_id)
        return lobby_of(request).get(table_id).summary()

    @app.get("/api/tables/{table_id}/cards")
    async def api_cards(table_id: str, request: Request) -> dict[str, Any]:
        """Every card's printed face (public, like the rulebook), by card id."""
        await not_in_memory(request, table_id)
        table = lobby_of(request).get(table_id)
        lang = request_language(request.query_params, request.cookies, request.headers)
        return localize_catalogue(table.game, table.catalogue(), lang)

    @app.post("/api/tables/{table_id}/join")
    async def api_join(table_id: str, request: Request) -> dict[str, Any]:
        body = await body_of(request)
        name = body.get("name", "")
        if not isinstance(name, str):
            raise ServerError("bad_message", "name must be text")
        session = accounts.acting(request, lobby_of(request).store)
        await not_in_memory(request, table_id)
        joined = lobby_of(request).join(table_id, name)
        if session is not None:
            accounts.record_seat(request, table_id, joined["seat"], session)
        return joined

    @app.post("/api/tables/{table_id}/again")
    async def api_again(table_id: str, request: Request) -> dict[str, Any]:
        body = await body_of(request)
        token = body.get("token")
        if not isinstance(token, str):
            raise ServerError("bad_token", "a seat token is needed", 403)
        await not_in_memory(request, table_id)
        table = await lobby_of(request).again(table_id, token, owner=client_ip(request, config.ipv6_prefix),
                                              owner_most=config.open_tables_per_ip)
        return {"id": table.id, "link": f"/table/{table.id}"}

    @app.get("/api/rules/{game}")
    async def api_rules(game: str, request: Request) -> Response:
        """The short rules reference of ``game`` in the request's language: Markdown,
        or with ``?format=html`` the same drawn as HTML for the page's rules panel."""
        from gloomtable.i18n.rules import rules_html, rules_text

        lang = request_language(request.query_params, request.cookies, request.headers)
        try:
            text = rules_text(game, lang)
        except ConfigError:
            raise ServerError("not_found", f"no rules reference for {game!r}", 404) from None
        if request.query_params.get("format") == "html":
            return Response(rules_html(text), media_type="text/html; charset=utf-8")
        return Response(text, media_type="text/markdown; charset=utf-8")

    @app.get("/api/i18n")
    async def api_languages(request: Request) -> dict[str, Any]:
        """The shipped languages and the one the browser asks for."""
        return languages_info(request.headers.get("accept-language"))

    @app.get("/api/i18n/{lang}")
    async def api_i18n(lang: str) -> dict[str, Any]:
        """The page's message catalogue for ``lang`` ({} = English, or a language we lack)."""
        if len(lang) > 16 or not lang.replace("-", "").replace("_", "").isalnum():
            raise ServerError("not_found", "no such language", 404)
        return web_catalog(lang)

    add_designer_routes(app, config)
    app.include_router(accounts.router)
    app.include_router(uploads.router)  # POST /api/decks: decks uploaded in the lobby

    # --- websockets --------------------------------------------------------------------

    @app.websocket("/ws/{table_id}")
    async def ws_table(websocket: WebSocket, table_id: str) -> None:
        ip = client_ip(websocket, config.ipv6_prefix)
        held: list[str] = []
        # An address over its limits is refused before the handshake completes (HTTP 429,
        # the cheapest no there is); the page's socket retries later, as for any failure.
        refusal = None
        origin = websocket.headers.get("origin")
        scheme = "https" if websocket.url.scheme == "wss" else "http"
        if origin is not None and not same_origin(origin, websocket.headers.get("host", ""), served_hosts,
                                                  scheme):
            # A browser always says which page opened the socket: another site's page may
            # not watch or play here through a visitor's browser (cross-site websockets).
            refusal = ServerError("bad_origin", f"a page of {origin[:80]!r} may not open this server's "
                                  "websockets", 403)
        elif not await rates.hit("ws_connect_rate", ip):
            refusal = ServerError("rate_limited", f"too many connections from you (at most "
                                  f"{config.ws_connect_rate}); wait a little", 429)
        elif not await sockets.take("ip:" + ip, config.sockets_per_ip):
            refusal = ServerError("too_many_sockets", f"your address already has {config.sockets_per_ip} "
                                  "connections open", 429)
        if refusal is not None:
            metrics.refused(refusal.code, "ws")
            with contextlib.suppress(Exception):
                await websocket.send_denial_response(JSONResponse(refusal.to_dict(),
                                                                  status_code=refusal.status))
            return
        held.append("ip:" + ip)
        try:
            await websocket.accept()
            if "token" in websocket.query_params:
                raise ServerError("bad_message", "a seat token goes in the first message "
                                  '({"type": "hello", "token": ...}), never in the address')
            lobby = lobby_of(websocket)
            await not_in_memory(websocket, table_id)
            table = lobby.get(table_id)
            token, deltas = await _hello(websocket, config.hello_timeout)
            # while the hello came, the table may have left memory or been deleted (expired)
            table = lobby.get(table_id)
            seat = table.seat_for_token(token)
            if token and seat is None:
                raise ServerError("bad_token", "that token is not a seat of this table", 403)
            if token:  # seat connections count, per token, whatever the address
                if not await rates.hit("ws_token_connect_rate", "token:" + token):
                    raise ServerError("rate_limited", "too many connections with this seat's token (at most "
                                      f"{config.ws_token_connect_rate}); wait a little", 429)
                if not await sockets.take("token:" + token, config.sockets_per_token):
                    raise ServerError("too_many_sockets", f"this seat already has {config.sockets_per_token} "
                                      "pages open; close one", 429)
                held.append("token:" + token)
            if seat is not None:  # a signed-in person opening a seat's link is recorded there
                accounts.record_seat(websocket, table.id, seat)
            if seat is None and not table.settings.spectators:
                raise ServerError("no_spectators", "this table does not allow spectators", 403)
            if seat is None and sum(1 for c in table.conns if c.seat is None) >= config.max_spectators:
                raise ServerError("server_busy", f"this table already has {config.max_spectators} "
                                  "spectators", 503)
            # A seat's messages count against its token, so a new socket starts where the old
            # one stopped; a spectator's against its socket and, all together, its address.
            key = "token:" + token if seat is not None and token else f"conn:{id(websocket)}"
            lang = request_language(websocket.query_params, websocket.cookies, websocket.headers)
            conn = Conn(seat, lang=lang, max_bytes=config.queue_bytes, deltas=deltas)
            sender = asyncio.create_task(_sender(websocket, conn, config.send_timeout))
            table.attach(conn)
            receiver = asyncio.create_task(_receive_loop(websocket, table, conn, rates, talk, key, ip))
            try:
                await talk.welcome(table, conn)  # inside: the page is detached however this ends
                await asyncio.wait([sender, receiver], return_when=asyncio.FIRST_COMPLETED)
            finally:
                receiver.cancel()
                table.detach(conn)
                conn.push(None)
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(sender, 2)
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await receiver
        except ServerError as exc:
            metrics.refused(exc.code, "ws")
            with contextlib.suppress(Exception):
                await websocket.send_json(exc.to_dict())
                await websocket.close(code=4000 + exc.status % 1000)
        except WebSocketDisconnect:
            pass
        finally:
            for key in held:
                sockets.give_back(key)

    return app


def bounded_query(request: Request, name: str, default: int, low: int, high: int) -> int:
    """The query parameter ``name`` as a whole number from ``low`` to ``high``, else a
    400 ``bad_request`` that says which and what is allowed (never a number the store
    cannot hold)."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 12) or not low <= int(raw) <= high:
        raise ServerError("bad_request", f"{name} must be a whole number from {low} to {high}, "
                          f"not {raw[:24]!r}")
    return int(raw)


DEFAULT_PORTS = {"http": 80, "https": 443}


def _host_port(netloc: str, scheme: str) -> tuple[str, int] | None:
    """(host, port) of ``netloc`` (``host``, ``host:port``, ``[v6]:port``), the
    scheme's port when none is written; None when it is not well formed."""
    try:
        parts = urlsplit(f"{scheme}://{netloc}")
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname or parts.username is not None or parts.path or parts.query:
        return None
    return parts.hostname.lower(), port if port is not None else DEFAULT_PORTS[scheme]


def same_origin(origin: str, host: str, served: list[str], scheme: str = "http") -> bool:
    """Whether a websocket's ``Origin`` is a page of this server, exactly: the scheme the
    socket came in on (``ws`` for ``http``, ``wss`` for ``https``, a proxy's
    ``X-Forwarded-Proto`` where it is trusted), the host and port of the request's own
    ``Host``, and a host this server serves (``--allowed-hosts``)."""
    parts = urlsplit(origin)
    if parts.scheme != scheme or parts.path not in ("", "/") or parts.query or parts.fragment:
        return False
    mine, theirs = _host_port(host, scheme), _host_port(parts.netloc, scheme)
    if mine is None or theirs is None or mine != theirs:
        return False
    name = f"[{theirs[0]}]" if ":" in theirs[0] else theirs[0]
    return "*" in served or name in (h.lower() for h in served)


async def _hello(websocket: WebSocket, timeout: float) -> tuple[str | None, bool]:
    """The first message names the seat: ``{"type": "hello", "token": "..."}`` (no token
    or null: a spectator). It travels inside the socket, so no log of addresses holds it.
    ``"deltas": true`` asks for patches after the first full state (docs/server.md)."""
    try:
        message = await asyncio.wait_for(websocket.receive(), timeout)
    except TimeoutError:
        raise ServerError("hello_needed", f"no hello within {timeout:g} s") from None
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        text = (message.get("bytes") or b"").decode("utf-8", "replace")
    if len(text) > MAX_MESSAGE:
        raise ServerError("too_large", f"the hello has {len(text)} characters; at most {MAX_MESSAGE}")
    try:
        msg = load_json(text)
    except TextDataError as exc:
        raise ServerError("bad_json", f"the hello is {exc}") from None
    if not isinstance(msg, dict) or msg.get("type") != "hello":
        raise ServerError("hello_needed", 'the first message must be {"type": "hello", "token": ...}')
    deltas = msg.get("deltas", False)
    if not isinstance(deltas, bool):
        raise ServerError("bad_message", '"deltas" must be true or false')
    token = msg.get("token")
    if token is None or token == "":
        return None, deltas
    if not isinstance(token, str):
        raise ServerError("bad_token", "a seat token is text", 403)
    if len(token) > TOKEN_MAX or not token.isascii() or not token.isprintable():
        raise ServerError("bad_token", "that token is not a seat of this table", 403)
    return token, deltas


async def _sender(websocket: WebSocket, conn: Conn, timeout: float) -> None:
    """Drain one connection's mailbox; ``None``, a dropped slow reader or a send that
    blocks ``timeout`` seconds (a client that does not read) ends it."""
    while True:
        text = await conn.queue.get()
        if text is None or conn.dropped:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(websocket.close(code=1008 if conn.dropped else 1000), 1)
            return
        try:
            await asyncio.wait_for(websocket.send_text(text), timeout)
        except TimeoutError:
            conn.drop()
            return
        except Exception:
            return
        conn.sent(text)


async def _receive_loop(websocket: WebSocket, table: LiveTable, conn: Conn, rates: RateLimits,
                        talk: TableTalk, key: str, ip: str) -> None:
    """Every message counts against the seat's token (a spectator's: its IP) and the IP,
    so a new connection starts where the old one stopped."""
    strikes, refusing = 0, False
    config = rates.config
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is None:
            raw = message.get("bytes") or b""
            text = raw.decode("utf-8", "replace")
        checks = [("message_rate", key), ("message_ip_rate", "ip:" + ip)]
        if conn.seat is None:
            checks.append(("spectator_message_rate", "ip:" + ip))
        if not await rates.hit_all(checks):
            strikes += 1
            metrics.refused("rate_limited", "ws")
            if not refusing:  # one answer per run of refused messages: a flood costs no more answers
                conn.push(error_message("rate_limited", f"at most {config.message_rate} messages; slow down"))
                refusing = True
            if strikes >= config.max_strikes:
                return
            continue
        refusing = False
        try:
            await _handle(table, conn, text, rates, talk, key, ip)
        except ServerError as exc:  # the error alone: states follow real changes, and sync
            metrics.refused(exc.code, "ws")
            conn.push(exc.to_dict())
        except Exception:
            log.exception("table %s: error handling a message", table.id)
            metrics.refused("server_error", "ws")
            conn.push(error_message("server_error", "the server could not handle that message"))


def _integer(msg: dict[str, Any], name: str) -> int:
    """``msg[name]`` if it is an integer (not a bool), else the error that says which field."""
    value = msg.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ServerError("bad_message", f'"{name}" must be an integer')
    return value


async def _handle(table: LiveTable, conn: Conn, text: str, rates: RateLimits, talk: TableTalk,
                  key: str, ip: str) -> None:
    if len(text) > MAX_MESSAGE:
        raise ServerError("too_large", f"the message has {len(text)} characters; at most {MAX_MESSAGE}")
    try:
        msg = load_json(text)
    except TextDataError as exc:  # also nested too deep, or a number too long to convert
        raise ServerError("bad_json", f"the message is {exc}") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ServerError("bad_message", 'a message is a JSON object with a "type"')
    kind = msg["type"]
    if kind == "ping":
        conn.push({"type": "pong"})
    elif kind == "sync":
        checks = [("sync_rate", key)] if conn.seat is not None else [
            ("spectator_sync_rate", "ip:" + ip), ("sync_rate", key)]
        if not await rates.hit_all(checks):
            conn.shown = None  # a page out of step gets the next state whole, asked or not
            raise ServerError("rate_limited", f"at most {rates.config.sync_rate} syncs; the last one stands")
        conn.log_sent = max(0, len(table.entries) - SYNC_LOG)
        conn.push_state({**table.state_message(conn), "resync": True})
    elif kind == "act":
        action, state_id = _integer(msg, "action"), _integer(msg, "state_id")
        narration = msg.get("narration")
        if narration is not None and not isinstance(narration, str):
            raise ServerError("bad_message", '"narration" must be text')
        line = clean_name(narration, NARRATION_MAX) if narration else None
        started = time.perf_counter()
        await table.submit(conn, action, state_id, line or None)
        metrics.MOVE_SECONDS.labels(table.row.game).observe(time.perf_counter() - started)
    elif kind == "lesson_next":
        table.lesson_next(conn)
    elif kind == "say":
        await talk.say(table, conn, msg, key, ip)
    elif kind == "name":
        name = msg.get("name")
        if not isinstance(name, str):
            raise ServerError("bad_message", '"name" must be text')
        table.rename(conn, clean_name(name))
    else:
        raise ServerError("bad_message", f"unknown message type {kind[:40]!r}; "
                          "known: act, sync, ping, name, say, lesson_next (hello comes first, once)")
