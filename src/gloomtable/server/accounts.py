"""Optional accounts: sign up, sign in and out, change the password, delete the
account, and "My games" (the tables an account sits at, on every device).

Nobody needs an account to play: seats are still given by links. A signed-in
person who creates a table, takes an open seat or opens a seat's link is recorded
at that seat (:func:`record_seat`), and can take it again from any device through
``POST /api/account/games/{id}/seat``. The routes are in docs/server.md, the
sessions, CSRF, hashing and limits in docs/security.md.
"""

from __future__ import annotations

import functools
import secrets
import unicodedata
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse

from gloomtable.server.addresses import client_key
from gloomtable.server.errors import ServerError
from gloomtable.server.headers import read_json
from gloomtable.server.limits import RateLimits, ServerLimits
from gloomtable.server.lobby import Lobby, check_table_id, invite_path
from gloomtable.server.sessions import (
    Passwords,
    acting,
    cookie_digest,
    current,
    end,
    require,
    set_cookie,
    start,
)
from gloomtable.server.store import Store
from gloomtable.server.store_accounts import FORMER_PLAYER, SessionRow

NAME_MIN, NAME_MAX = 3, 24
NAME_MARKS = "_-."
PASSWORD_MIN, PASSWORD_MAX = 8, 256
MY_GAMES = 100
"""Tables "My games" lists at most (unfinished first, then the newest)."""
BAD_SIGNIN = "that name and password do not match an account"

router = APIRouter()
WEB_DIR = Path(__file__).resolve().parent.parent / "web"


def name_key(name: str) -> str:
    """The form two names are compared in: "Ann" and "ANN" are one account."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_name(value: Any) -> str:
    if not isinstance(value, str):
        raise ServerError("bad_account", '"name" must be text')
    name = unicodedata.normalize("NFKC", value).strip()
    if not NAME_MIN <= len(name) <= NAME_MAX or not all(c.isalnum() or c in NAME_MARKS for c in name):
        raise ServerError("bad_account", f"a user name has {NAME_MIN} to {NAME_MAX} letters, digits "
                          f"and {' '.join(NAME_MARKS)}")
    return name


def check_password(value: Any, field: str = "password") -> str:
    if not isinstance(value, str) or not PASSWORD_MIN <= len(value) <= PASSWORD_MAX:
        raise ServerError("bad_account", f'"{field}" must be {PASSWORD_MIN} to {PASSWORD_MAX} characters')
    return value


def _parts(request: Request | WebSocket) -> tuple[Lobby, ServerLimits, RateLimits, Passwords]:
    state = request.app.state
    return state.lobby, state.limits, state.rates, state.passwords


def _store(request: Request | WebSocket) -> Store:
    lobby: Lobby = request.app.state.lobby
    return lobby.store


def _ip(request: Request, config: ServerLimits) -> str:
    return client_key(request.client.host, config.ipv6_prefix) if request.client else "unknown"


async def _body(request: Request, config: ServerLimits) -> dict[str, Any]:
    return await read_json(request, config.max_body, config.body_timeout)


def _signed_in(request: Request, store: Store, account_id: str, name: str, days: float,
               status: int = 200) -> JSONResponse:
    """A new session (the old one ended) and the answer that sets its cookie."""
    value, csrf = start(request, store, account_id, days)
    response = JSONResponse({"signed_in": True, "name": name, "csrf": csrf}, status_code=status)
    set_cookie(request, response, value, days)
    return response


@router.get("/api/account")
async def api_account(request: Request) -> dict[str, Any]:
    """Who the cookie signs in, with the CSRF token this site's pages send back."""
    session = current(request, _store(request))
    if session is None:
        return {"signed_in": False}
    return {"signed_in": True, "name": session.account.name, "csrf": session.csrf}


@router.post("/api/account/signup")
async def api_signup(request: Request) -> JSONResponse:
    lobby, config, rates, passwords = _parts(request)
    body = await _body(request, config)
    name, password = check_name(body.get("name")), check_password(body.get("password"))
    await rates.check("signup_rate", "ip:" + _ip(request, config), "new accounts")
    account_id = secrets.token_urlsafe(12)
    if not lobby.store.create_account(account_id, name, name_key(name), await passwords.hash(password)):
        raise ServerError("name_taken", "that user name is taken; choose another", 409)
    return _signed_in(request, lobby.store, account_id, name, config.session_days, 201)


@router.post("/api/account/signin")
async def api_signin(request: Request) -> JSONResponse:
    """A wrong name and a wrong password answer alike (and take as long)."""
    lobby, config, rates, passwords = _parts(request)
    body = await _body(request, config)
    name, password = body.get("name"), body.get("password")
    if not isinstance(name, str) or not isinstance(password, str) or len(name) > 4 * NAME_MAX \
            or len(password) > PASSWORD_MAX:
        raise ServerError("bad_signin", BAD_SIGNIN, 401)
    key = name_key(name.strip())
    if not await rates.hit_all([("signin_rate", "ip:" + _ip(request, config)),
                                ("signin_account_rate", "name:" + key)]):
        raise ServerError("rate_limited", f"too many sign-in tries (at most {config.signin_rate} from one "
                          f"address, {config.signin_account_rate} for one name); wait a little", 429)
    account = lobby.store.account_by_key(key)
    if not await passwords.verify(account.password_hash if account else None, password) or account is None:
        raise ServerError("bad_signin", BAD_SIGNIN, 401)
    if passwords.needs_rehash(account.password_hash):  # the parameters were raised since
        lobby.store.set_password(account.id, await passwords.hash(password))
    return _signed_in(request, lobby.store, account.id, account.name, config.session_days)


@router.post("/api/account/signout")
async def api_signout(request: Request) -> JSONResponse:
    """This session ends; with ``{"everywhere": true}`` every session of the account
    does (a phone left signed in somewhere). The body is optional."""
    lobby, config, _rates, _passwords = _parts(request)
    session = require(request, lobby.store)
    body = await _body(request, config) if request.headers.get("content-type") else {}
    everywhere = body.get("everywhere", False)
    if not isinstance(everywhere, bool):
        raise ServerError("bad_account", '"everywhere" must be true or false')
    if everywhere:
        lobby.store.delete_sessions(session.account.id)
    response = JSONResponse({"signed_in": False, "everywhere": everywhere})
    end(request, response, lobby.store)
    return response


async def _confirm(request: Request, session: SessionRow, password: Any) -> None:
    """The account's password, asked again before a change that cannot be undone."""
    _lobby, _config, rates, passwords = _parts(request)
    await rates.check("password_rate", "account:" + session.account.id, "password checks")
    if not isinstance(password, str) or len(password) > PASSWORD_MAX or \
            not await passwords.verify(session.account.password_hash, password):
        raise ServerError("bad_password", "that is not this account's password", 403)


@router.post("/api/account/password")
async def api_password(request: Request) -> dict[str, Any]:
    """A new password; every other session of the account ends (this one stays)."""
    lobby, config, _rates, passwords = _parts(request)
    session = require(request, lobby.store)
    body = await _body(request, config)
    new = check_password(body.get("new_password"), "new_password")
    await _confirm(request, session, body.get("password"))
    lobby.store.set_password(session.account.id, await passwords.hash(new))
    lobby.store.delete_sessions(session.account.id, but=cookie_digest(request))
    return {"changed": True}


@router.post("/api/account/delete")
async def api_delete(request: Request) -> JSONResponse:
    """The account goes; its games stay, its seats named "a former player"."""
    lobby, config, _rates, _passwords = _parts(request)
    session = require(request, lobby.store)
    body = await _body(request, config)
    await _confirm(request, session, body.get("password"))
    for table_id, seat in lobby.store.delete_account(session.account.id):
        table = lobby.tables.get(table_id)
        if table is not None and 0 <= seat < len(table.seats):
            table.seats[seat].row.name = FORMER_PLAYER
            table.broadcast_seats()
    response = JSONResponse({"deleted": True, "signed_in": False})
    end(request, response, lobby.store)
    return response


@router.get("/api/account/games")
async def api_my_games(request: Request) -> dict[str, Any]:
    """ "My games": the tables the account sits at (no seat token: see the next route)."""
    store = _store(request)
    session = current(request, store)
    if session is None:
        raise ServerError("not_signed_in", "sign in first", 401)
    return {"games": [{"table": s.table_id, "seat": s.seat, "game": s.game, "over": s.over,
                       "created": s.created, "name": s.seat_name, "spectate": invite_path(s.table_id)}
                      for s in store.account_seats(session.account.id, MY_GAMES)]}


@router.post("/api/account/games/{table_id}/seat")
async def api_take_seat(table_id: str, request: Request) -> dict[str, Any]:
    """The account's seat at a table it sits at, with its link: taking it on a new
    device without the invite."""
    check_table_id(table_id)
    store = _store(request)
    session = require(request, store)
    found = store.account_seat_token(session.account.id, table_id[:64])
    if found is None or not found[1]:
        raise ServerError("not_found", "you have no seat at that table", 404)
    seat, token = found
    return {"table": table_id, "seat": seat, "token": token, "link": invite_path(table_id, token)}


@router.get("/players/{name}", include_in_schema=False)
async def profile_page(name: str) -> FileResponse:
    return FileResponse(WEB_DIR / "index.html")


@router.get("/leaderboard/{game}", include_in_schema=False)
async def leaderboard_page(game: str) -> FileResponse:
    return FileResponse(WEB_DIR / "index.html")


LEADERBOARD = 50
"""Accounts a leaderboard lists at most."""


@functools.cache
def has_chronicle(game: str) -> bool:
    """Whether the game's finished tables have a chronicle (the Gloom games, told from
    their deck; Crazy Creatures has none)."""
    from gloomtable.engine import DeckGame, GloomtableError
    from gloomtable.games import make_game

    try:
        return isinstance(make_game(game, {}), DeckGame)
    except GloomtableError:  # a game no longer registered: no chronicle to offer
        return False


@router.get("/api/players/{name}")
async def api_profile(name: str, request: Request) -> dict[str, Any]:
    """A profile: per game the rating, games played and won; the rating after each
    rated game (for the chart); finished games with their chronicle and replay links."""
    from gloomtable.server.ratings import Rating

    store = _store(request)
    account = store.account_by_key(name_key(name[:4 * NAME_MAX]))
    if account is None:
        raise ServerError("not_found", "no such player", 404)
    games = [{"game": g, "rating": Rating(mu, sigma).shown, "mu": mu, "sigma": sigma, "played": played,
              "won": won} for g, mu, sigma, played, won in store.ratings_of(account.id)]
    history = [{"game": g, "table": t, "at": at, "rating": Rating(mu, sigma).shown}
               for g, t, at, mu, sigma in store.rating_history(account.id)]
    finished = [{"table": s.table_id, "game": s.game, "seat": s.seat, "created": s.created,
                 "chronicle": f"/api/tables/{s.table_id}/chronicle.html" if has_chronicle(s.game) else None,
                 "replay": invite_path(s.table_id)}
                for s in store.account_seats(account.id, MY_GAMES) if s.over]
    return {"name": account.name, "games": games, "history": history, "finished": finished}


@router.get("/api/leaderboard/{game}")
async def api_leaderboard(game: str, request: Request) -> dict[str, Any]:
    from gloomtable.server.ratings import Rating

    rows = _store(request).leaderboard(game[:40], LEADERBOARD)
    return {"game": game, "players": [{"name": n, "rating": Rating(mu, sigma).shown, "played": p, "won": w}
                                      for n, mu, sigma, p, w in rows]}


@router.get("/api/tables/{table_id}/ratings")
async def api_table_ratings(table_id: str, request: Request) -> dict[str, Any]:
    """The rating beside each seat's name (seats of accounts with one in the table's game)."""
    from gloomtable.server.ratings import Rating

    check_table_id(table_id)
    store = _store(request)
    here = store.seat_ratings([table_id]).get(table_id, {})  # in the table's game, live or not
    out: dict[str, Any] = {}
    for seat, account_id in store.seat_accounts(table_id).items():
        name = store.account_name(account_id)
        rated = {g: Rating(mu, sigma).shown for g, mu, sigma, _p, _w in store.ratings_of(account_id)}
        out[str(seat)] = {"account": name, "rating": Rating(*here[seat]).shown if seat in here else None,
                          "ratings": rated}
    return {"table": table_id, "seats": out}


def record_seat(request: Request | WebSocket, table_id: str, seat: int,
                session: SessionRow | None = None) -> None:
    """The hook where a seat is taken (a table made, an open seat joined, a seat's link
    opened): a signed-in person is recorded there, unless someone already is."""
    store = _store(request)
    session = session or current(request, store)
    if session is not None:
        store.link_seat(table_id, seat, session.account.id)


__all__ = ["acting", "record_seat", "router"]
