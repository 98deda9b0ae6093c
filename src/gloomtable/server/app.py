"""The ASGI app, assembled: its lifespan (the store, the lobby, the cluster), its
middleware, its error handlers and its routers, in the order their paths are matched.

The routes live in modules by what they serve (``routes_pages``, ``routes_tables``,
``routes_i18n``, ``routes_ws``, ``accounts``, ``uploads``, ``health``, ``metrics``,
``designer_pages``) and take what they need from ``app.state`` through the
dependencies of ``server/deps.py``. Start it with ``gloom serve`` or ``python -m
gloomtable.server``. Every refusal, over HTTP or websocket, is ``{"type": "error",
"code", "message"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware

from gloomtable.engine.textdata import set_text_limits
from gloomtable.engine.tomlshape import TextLimits
from gloomtable.server import (
    accounts,
    designer_pages,
    metrics,
    routes_i18n,
    routes_pages,
    routes_tables,
    routes_ws,
    uploads,
)
from gloomtable.server.cluster import Cluster
from gloomtable.server.errors import ServerError, error_message
from gloomtable.server.headers import PathCheck, SecurityHeaders
from gloomtable.server.health import router as health_router
from gloomtable.server.heavy import MB, HeavyWork
from gloomtable.server.limits import HttpRateLimits, RateLimits, ServerLimits
from gloomtable.server.lobby import Lobby, LobbySettings
from gloomtable.server.routes_pages import WEB_DIR
from gloomtable.server.sessions import Passwords
from gloomtable.server.sockets import Sockets
from gloomtable.server.store import is_postgres, open_store, shown
from gloomtable.server.store_guard import guarded
from gloomtable.server.talk import TableTalk

log = logging.getLogger("gloomtable.server")


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
            await lobby.cluster.renew_and_take()
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
    app.state.sockets = sockets
    app.state.talk = talk
    served_hosts = hosts or config.hosts("127.0.0.1")
    app.state.hosts = served_hosts
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

    # Routers in the order their paths are matched (the first that matches answers).
    app.include_router(routes_pages.router)  # /, /favicon.ico, /table/{id}
    app.include_router(health_router)  # /healthz, /readyz (docs/deploy.md)
    app.include_router(metrics.router)  # /metrics, only to --metrics-allow (docs/deploy.md)
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    app.include_router(routes_tables.router)  # the lobby's API
    app.include_router(routes_i18n.router)  # rules references and the page's catalogues
    app.include_router(designer_pages.router)  # the gallery and the chronicles
    app.include_router(accounts.router)
    app.include_router(uploads.router)  # POST /api/decks: decks uploaded in the lobby
    app.add_api_websocket_route(routes_ws.PATH, routes_ws.ws_table)  # not a router: see routes_ws

    return app

