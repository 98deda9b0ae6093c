"""What every route asks of the app, as FastAPI dependencies: the lobby, the limits,
the rate counters, the websockets' counts and the table talk, all kept on
``app.state`` by ``create_app`` (and the lobby by its lifespan). HTTP routes take
them as parameters (``lobby: LobbyDep``), the websocket calls the getters once, instead
of closing over ``create_app``'s locals, so each router module stands on its own."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from gloomtable.server.addresses import client_ip
from gloomtable.server.errors import ServerError
from gloomtable.server.headers import read_json
from gloomtable.server.limits import RateLimits, ServerLimits
from gloomtable.server.lobby import Lobby
from gloomtable.server.sockets import Sockets
from gloomtable.server.talk import TableTalk


def lobby_of(conn: HTTPConnection) -> Lobby:
    lobby: Lobby = conn.app.state.lobby
    return lobby


def limits_of(conn: HTTPConnection) -> ServerLimits:
    limits: ServerLimits = conn.app.state.limits
    return limits


def rates_of(conn: HTTPConnection) -> RateLimits:
    rates: RateLimits = conn.app.state.rates
    return rates


def sockets_of(conn: HTTPConnection) -> Sockets:
    sockets: Sockets = conn.app.state.sockets
    return sockets


def talk_of(conn: HTTPConnection) -> TableTalk:
    talk: TableTalk = conn.app.state.talk
    return talk


def hosts_of(conn: HTTPConnection) -> list[str]:
    """The Host header values served (``--allowed-hosts``)."""
    hosts: list[str] = conn.app.state.hosts
    return hosts


LobbyDep = Annotated[Lobby, Depends(lobby_of)]
LimitsDep = Annotated[ServerLimits, Depends(limits_of)]


async def body_of(request: Request) -> dict[str, Any]:
    """The request's JSON object, within ``--max-body`` and ``--body-timeout``."""
    config = limits_of(request)
    return await read_json(request, config.max_body, config.body_timeout)


async def not_in_memory(conn: HTTPConnection, table_id: str) -> None:
    """A table this process does not hold is read back from the store, which replays
    its game: that counts against ``--heavy-rate`` for the client (an id nobody has,
    too), so no client can keep the event loop replaying old games."""
    if table_id in lobby_of(conn).tables:
        return
    config = limits_of(conn)
    if not await rates_of(conn).hit("heavy_rate", client_ip(conn, config.ipv6_prefix)):
        raise ServerError("rate_limited", "too many tables opened from the record by you (at most "
                          f"{config.heavy_rate}); wait a little", 429)
