"""The lobby's API: the games offered, the listing, creating a table or a lesson,
a table's summary and card faces, joining an open seat, playing again."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from gloomtable.engine import ConfigError
from gloomtable.i18n.web import localize_catalogue, request_language
from gloomtable.server import accounts
from gloomtable.server.addresses import client_ip
from gloomtable.server.deps import LimitsDep, LobbyDep, body_of, not_in_memory
from gloomtable.server.errors import ServerError
from gloomtable.server.games import games_info
from gloomtable.server.lobby import LESSON_BOT_DELAY_MS, invite_path
from gloomtable.server.options import parse_table_spec

router = APIRouter()


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


@router.get("/api/games")
async def api_games(lobby: LobbyDep) -> dict[str, Any]:
    return {**games_info(), "fixed_deals": lobby.settings.allow_fixed_deals}


@router.get("/api/tables")
async def api_tables(request: Request, lobby: LobbyDep) -> dict[str, Any]:
    s = lobby.settings
    # checked before anything is asked of the store: PostgreSQL answers an offset past
    # its bigint with an error, and no page of the listing lies past the open tables
    offset = bounded_query(request, "offset", 0, 0, s.max_open_tables)
    limit = bounded_query(request, "limit", 20, 1, s.listing_max)
    return await lobby.listing(offset, limit)


@router.post("/api/tables")
async def api_create(request: Request, lobby: LobbyDep, config: LimitsDep) -> JSONResponse:
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


@router.post("/api/lessons")
async def api_lesson(request: Request, lobby: LobbyDep, config: LimitsDep) -> JSONResponse:
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
    table, _host = await lobby.create_lesson(name, bot_delay_ms=delay,
                                             owner=client_ip(request, config.ipv6_prefix),
                                             owner_most=config.open_tables_per_ip)
    token = table.seats[0].row.token
    return JSONResponse({"table": table.id, "link": invite_path(table.id, token)}, status_code=201)


@router.get("/api/tables/{table_id}")
async def api_table(table_id: str, request: Request, lobby: LobbyDep) -> dict[str, Any]:
    await not_in_memory(request, table_id)
    return lobby.get(table_id).summary()


@router.get("/api/tables/{table_id}/cards")
async def api_cards(table_id: str, request: Request, lobby: LobbyDep) -> dict[str, Any]:
    """Every card's printed face (public, like the rulebook), by card id."""
    await not_in_memory(request, table_id)
    table = lobby.get(table_id)
    lang = request_language(request.query_params, request.cookies, request.headers)
    return localize_catalogue(table.game, table.catalogue(), lang)


@router.post("/api/tables/{table_id}/join")
async def api_join(table_id: str, request: Request, lobby: LobbyDep) -> dict[str, Any]:
    body = await body_of(request)
    name = body.get("name", "")
    if not isinstance(name, str):
        raise ServerError("bad_message", "name must be text")
    session = accounts.acting(request, lobby.store)
    await not_in_memory(request, table_id)
    joined = lobby.join(table_id, name)
    if session is not None:
        accounts.record_seat(request, table_id, joined["seat"], session)
    return joined


@router.post("/api/tables/{table_id}/again")
async def api_again(table_id: str, request: Request, lobby: LobbyDep, config: LimitsDep) -> dict[str, Any]:
    body = await body_of(request)
    token = body.get("token")
    if not isinstance(token, str):
        raise ServerError("bad_token", "a seat token is needed", 403)
    await not_in_memory(request, table_id)
    table = await lobby.again(table_id, token, owner=client_ip(request, config.ipv6_prefix),
                              owner_most=config.open_tables_per_ip)
    return {"id": table.id, "link": f"/table/{table.id}"}
