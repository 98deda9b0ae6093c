"""The ASGI app: the page, the lobby API and the table websockets.

Start it with ``gloom serve`` or ``python -m gloomtable.server``. Every
refusal, over HTTP or websocket, is ``{"type": "error", "code", "message"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from gloomtable.designer.web import add_designer_routes
from gloomtable.engine import ConfigError
from gloomtable.i18n.web import languages_info, localize_catalogue, request_language, web_catalog
from gloomtable.server.cluster import Cluster
from gloomtable.server.errors import ServerError, error_message
from gloomtable.server.games import games_info
from gloomtable.server.lobby import Lobby, LobbySettings
from gloomtable.server.options import clean_name, parse_table_spec
from gloomtable.server.store import is_postgres, open_store, shown
from gloomtable.server.table import Conn, LiveTable

log = logging.getLogger("gloomtable.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
MAX_MESSAGE = 8192
"""Bytes a client message may have (a play with narration needs far fewer)."""
RATE = 20.0
"""Messages per second a connection may send, on average ..."""
BURST = 40.0
"""... with bursts up to this many."""
MAX_STRIKES = 50
"""Refused-for-rate messages before the server closes the connection."""
NARRATION_MAX = 200
MAX_CONNECTIONS = 256
"""Pages one table serves at once; seats always get in, spectators beyond this do not."""


def create_app(db_path: str | Path = "gloomtable.db", lobby_settings: LobbySettings | None = None) -> FastAPI:
    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = open_store(db_path)
        lobby = Lobby(store, lobby_settings)
        if is_postgres(db_path):  # several processes may share it: lead only what nobody leads
            lobby.cluster = Cluster(lobby)
            lobby.cluster.renew_and_take()
            resumed = len(lobby.cluster.held)
        else:
            resumed = lobby.resume_all()
        log.info("resumed %d unfinished table(s) from %s", resumed, shown(db_path))
        app.state.lobby = lobby
        for table in lobby.tables.values():
            table.schedule()
        lobby.start()
        if lobby.cluster is not None:
            lobby.cluster.start()
        try:
            yield
        finally:
            if lobby.cluster is not None:
                await lobby.cluster.stop()
            lobby.close()
            store.close()

    app = FastAPI(title="gloomtable", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)

    @app.exception_handler(ServerError)
    async def _server_error(request: Request, exc: ServerError) -> JSONResponse:
        return JSONResponse(exc.to_dict(), status_code=exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = "not_found" if exc.status_code == 404 else "bad_message"
        return JSONResponse(error_message(code, str(exc.detail)), status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.error("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
        return JSONResponse(error_message("server_error", "the server could not handle that request"),
                            status_code=500)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(error_message("bad_message", "the request is not well formed"), status_code=400)

    def lobby_of(request: Request | WebSocket) -> Lobby:
        return request.app.state.lobby  # type: ignore[no-any-return]

    async def body_of(request: Request) -> dict[str, Any]:
        raw = await request.body()
        if len(raw) > MAX_MESSAGE:
            raise ServerError("too_large", f"the request has {len(raw)} bytes; at most {MAX_MESSAGE}", 413)
        try:
            data = json.loads(raw or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            raise ServerError("bad_json", "the request body is not JSON") from None
        if not isinstance(data, dict):
            raise ServerError("bad_message", "the request body must be a JSON object")
        return data

    # --- pages -----------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    # --- lobby API ---------------------------------------------------------------------

    @app.get("/api/games")
    async def api_games(request: Request) -> dict[str, Any]:
        return {**games_info(), "fixed_deals": lobby_of(request).settings.allow_fixed_deals}

    @app.get("/api/tables")
    async def api_tables(request: Request, offset: int = 0, limit: int = 20) -> dict[str, Any]:
        return lobby_of(request).listing(offset, limit)

    @app.post("/api/tables")
    async def api_create(request: Request) -> JSONResponse:
        lobby = lobby_of(request)
        try:
            spec = parse_table_spec(await body_of(request))
        except ConfigError as exc:
            raise ServerError("bad_table", str(exc)) from None
        table, host = await lobby.create(spec)
        return JSONResponse(lobby.created_answer(table, host), status_code=201)

    @app.get("/api/tables/{table_id}")
    async def api_table(table_id: str, request: Request) -> dict[str, Any]:
        return lobby_of(request).get(table_id).summary()

    @app.get("/api/tables/{table_id}/cards")
    async def api_cards(table_id: str, request: Request) -> dict[str, Any]:
        """Every card's printed face (public, like the rulebook), by card id."""
        table = lobby_of(request).get(table_id)
        lang = request_language(request.query_params, request.cookies, request.headers)
        return localize_catalogue(table.game, table.catalogue(), lang)

    @app.post("/api/tables/{table_id}/join")
    async def api_join(table_id: str, request: Request) -> dict[str, Any]:
        body = await body_of(request)
        name = body.get("name", "")
        if not isinstance(name, str):
            raise ServerError("bad_message", "name must be text")
        return lobby_of(request).join(table_id, name)

    @app.post("/api/tables/{table_id}/again")
    async def api_again(table_id: str, request: Request) -> dict[str, Any]:
        body = await body_of(request)
        token = body.get("token")
        if not isinstance(token, str):
            raise ServerError("bad_token", "a seat token is needed", 403)
        table = await lobby_of(request).again(table_id, token)
        return {"id": table.id, "link": f"/table/{table.id}"}

    @app.get("/api/rules/{game}")
    async def api_rules(game: str, request: Request) -> Response:
        """The short rules reference of ``game`` in the request's language (Markdown)."""
        from gloomtable.i18n.rules import rules_text

        lang = request_language(request.query_params, request.cookies, request.headers)
        try:
            text = rules_text(game, lang)
        except ConfigError:
            raise ServerError("not_found", f"no rules reference for {game!r}", 404) from None
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

    add_designer_routes(app)

    # --- websockets --------------------------------------------------------------------

    @app.websocket("/ws/{table_id}")
    async def ws_table(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        lobby = lobby_of(websocket)
        token = websocket.query_params.get("token")
        try:
            table = lobby.get(table_id)
            seat = table.seat_for_token(token)
            if token and seat is None:
                raise ServerError("bad_token", "that token is not a seat of this table", 403)
            if seat is None and not table.options.get("spectators", True):
                raise ServerError("no_spectators", "this table does not allow spectators", 403)
            if len(table.conns) >= MAX_CONNECTIONS and seat is None:
                raise ServerError("server_busy", f"this table already has {MAX_CONNECTIONS} pages open", 503)
        except ServerError as exc:
            await websocket.send_json(exc.to_dict())
            await websocket.close(code=4000 + exc.status % 1000)
            return
        conn = Conn(seat, lang=request_language(websocket.query_params, websocket.cookies, websocket.headers))
        sender = asyncio.create_task(_sender(websocket, conn))
        table.attach(conn)
        try:
            await _receive_loop(websocket, table, conn)
        except WebSocketDisconnect:
            pass
        finally:
            table.detach(conn)
            conn.push(None)
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(sender, 2)

    return app


async def _sender(websocket: WebSocket, conn: Conn) -> None:
    """Drain one connection's mailbox; ``None`` (or a dropped slow reader) ends it."""
    while True:
        msg = await conn.queue.get()
        if msg is None or conn.dropped:
            with contextlib.suppress(Exception):
                await websocket.close(code=1008 if conn.dropped else 1000)
            return
        try:
            await websocket.send_text(json.dumps(msg, separators=(",", ":")))
        except Exception:
            return


async def _receive_loop(websocket: WebSocket, table: LiveTable, conn: Conn) -> None:
    tokens, last, strikes = BURST, time.monotonic(), 0
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is None:
            raw = message.get("bytes") or b""
            text = raw.decode("utf-8", "replace")
        now = time.monotonic()
        tokens = min(BURST, tokens + (now - last) * RATE)
        last = now
        if tokens < 1:
            strikes += 1
            conn.push(error_message("rate_limited", f"at most {RATE:g} messages a second; slow down"))
            if strikes >= MAX_STRIKES:
                conn.push(None)
                return
            continue
        tokens -= 1
        try:
            await _handle(table, conn, text)
        except ServerError as exc:
            conn.push(exc.to_dict())
            if exc.code in ("stale_state", "not_your_turn"):
                conn.push(table.state_message(conn))
        except Exception:
            log.exception("table %s: error handling a message", table.id)
            conn.push(error_message("server_error", "the server could not handle that message"))


async def _handle(table: LiveTable, conn: Conn, text: str) -> None:
    if len(text) > MAX_MESSAGE:
        raise ServerError("too_large", f"the message has {len(text)} characters; at most {MAX_MESSAGE}")
    try:
        msg = json.loads(text)
    except (json.JSONDecodeError, RecursionError):  # nesting deeper than Python's stack is not JSON to us
        raise ServerError("bad_json", "the message is not JSON") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ServerError("bad_message", 'a message is a JSON object with a "type"')
    kind = msg["type"]
    if kind == "ping":
        conn.push({"type": "pong"})
    elif kind == "sync":
        conn.log_sent = 0
        conn.push(table.welcome(conn))
        conn.push(table.state_message(conn))
    elif kind == "act":
        action, state_id, narration = msg.get("action"), msg.get("state_id"), msg.get("narration")
        for name, value in (("action", action), ("state_id", state_id)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise ServerError("bad_message", f'"{name}" must be an integer')
        if narration is not None and not isinstance(narration, str):
            raise ServerError("bad_message", '"narration" must be text')
        line = clean_name(narration, NARRATION_MAX) if narration else None
        await table.submit(conn, action, state_id, line or None)
    elif kind == "name":
        name = msg.get("name")
        if not isinstance(name, str):
            raise ServerError("bad_message", '"name" must be text')
        table.rename(conn, clean_name(name))
    else:
        raise ServerError("bad_message", f"unknown message type {kind[:40]!r}; "
                          "known: act, sync, ping, name")
