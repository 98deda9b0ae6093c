"""The designer's pages and APIs in the web app: the card gallery and the
chronicle of a finished table, as one ``APIRouter`` (``router``) that ``create_app``
includes; refusals use the server's one error shape (``ServerError``).
The pages live in the server, which imports the designer below it, never the reverse.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from gloomtable.engine import ConfigError
from gloomtable.server.errors import ServerError
from gloomtable.server.headers import csp_with_styles, read_body

if TYPE_CHECKING:
    from gloomtable.designer.chronicle import Chronicle

MAX_DECK_BYTES = 512 * 1024
"""The largest deck file the gallery accepts over HTTP (the classic set is ~40 KB;
``gloom serve --max-deck-body``)."""


def _page(html: str) -> HTMLResponse:
    """A page with inline ``<style>``: the policy names each block by hash (no inline script)."""
    return HTMLResponse(html, headers={"Content-Security-Policy": csp_with_styles(html)})


def _table_record(request: Request, table_id: str) -> tuple[Any, Any, frozenset[int]]:
    from gloomtable.engine import DeckGame
    from gloomtable.engine.record import GameRecord
    from gloomtable.server.ratings import bot_played_for_person
    from gloomtable.server.window import pass_action

    table = request.app.state.lobby.get(table_id)  # ServerError 404 if unknown
    row = table.row
    if not isinstance(table.game, DeckGame):
        raise ServerError("not_found", "only Gloom games have a chronicle", 404)
    if not table.state.is_over():
        raise ServerError("not_over", "the chronicle is told once the game is over", 409)
    names = [seat.row.name for seat in table.seats]
    passing = pass_action(table.state)
    # A lapsed response window stores the pass as a timeout: the person's own lapse,
    # not a stand-in's play (as the ratings count it).
    plays = enumerate(zip(row.actors, row.actions, strict=True))
    stand_ins = frozenset(i for i, ((_, actor), action) in plays
                          if actor != "bot" and bot_played_for_person(actor, action, passing))
    record = GameRecord(row.game, row.config, row.seed, list(row.actions), dict(row.narration))
    return record, names, stand_ins


CHRONICLES_KEPT = 32
"""Chronicles kept told (a finished game's never changes; telling one replays it)."""


def _shipped_faces(name: str) -> dict[str, Any]:
    """The gallery's faces of a shipped set (read once: they change only with a release)."""
    from gloomtable.designer.gallery import gallery_data

    return gallery_data([name])


@lru_cache(maxsize=CHRONICLES_KEPT)
def _told(record_json: str, names: tuple[str, ...], stand_ins: frozenset[int], lang: str) -> Chronicle:
    """The chronicle of a finished game, told once per record, names and language (in
    the worker): telling replays the game, which a reload should not pay again."""
    from gloomtable.designer.chronicle import build_chronicle
    from gloomtable.engine.record import GameRecord

    return build_chronicle(GameRecord.from_json(record_json), seat_names=list(names),
                           stand_ins=stand_ins, lang=lang)


_SHIPPED: dict[str, dict[str, Any]] = {}
"""The gallery's faces of each shipped set, once the worker has read them."""


async def _chronicle(request: Request, table_id: str) -> Chronicle:
    """The chronicle of table ``table_id`` in the request's language, told by the
    worker process (:mod:`gloomtable.server.heavy`: a replay holds no table up)."""
    import dataclasses

    from gloomtable.server.talk import record_lines

    record, names, stand_ins = _table_record(request, table_id)
    told: Chronicle = await request.app.state.heavy.run(
        "telling the chronicle", _told, record.to_json(), tuple(names), stand_ins, _language(request))
    talk = await record_lines(request.app.state.lobby.get(table_id))  # the table's option decides
    return dataclasses.replace(told, talk=talk) if talk else told


def _language(request: Request) -> str:
    """The page's language (``?lang=``, the switch's cookie, Accept-Language): the
    chronicle is told in it."""
    from gloomtable.i18n.web import request_language

    return request_language(request.query_params, request.cookies, request.headers)


router = APIRouter()
"""``/gallery``, ``/api/gallery/{set}``, ``POST /api/gallery`` and
``/api/tables/{id}/chronicle[.md|.html]``."""


@router.get("/gallery", include_in_schema=False)
async def gallery_page() -> HTMLResponse:
    from gloomtable.designer.gallery import served_page

    return _page(served_page())


@router.get("/api/gallery/{name}")
async def gallery_set(name: str, request: Request) -> dict[str, Any]:
    """The faces of a shipped set or a deck of ``gloom serve --sets``, by set id (the
    server reads no path a client names)."""
    from gloomtable.designer.gallery import gallery_sets, is_packaged, set_text, text_faces
    from gloomtable.server.uploads import KEY, resolve_deck

    if KEY.fullmatch(name):  # a deck uploaded in the lobby: by its key, from the store
        lobby = request.app.state.lobby
        try:
            await lobby._in_store(resolve_deck, lobby.store, name)
        except ConfigError as exc:
            raise ServerError("not_found", str(exc), 404) from None
    elif name not in gallery_sets():
        raise ServerError("not_found", f"no set {name!r}; sets: {', '.join(gallery_sets())}", 404)
    faces = _SHIPPED.get(name)
    if faces is None:
        if is_packaged(name):
            faces = await request.app.state.heavy.run("reading the set", _shipped_faces, name)
        else:  # the worker process has no registry: it is sent the deck's text
            faces, message, _problems = await request.app.state.heavy.run(
                "reading the set", text_faces, set_text(name))
            if faces is None:
                raise ServerError("server_error", message, 500)
        _SHIPPED[name] = faces
    return faces


@router.post("/api/gallery")
async def gallery_upload(request: Request) -> Response:
    """The faces of a deck file sent as the request body, or every problem with it."""
    from fastapi.responses import JSONResponse

    limits = getattr(request.app.state, "limits", None)  # --max-deck-body, --body-timeout
    max_deck = limits.max_deck_body if limits else MAX_DECK_BYTES
    body_timeout = limits.body_timeout if limits else 10.0
    body = await read_body(request, max_deck, body_timeout)  # refused by Content-Length first
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise ServerError("bad_message", "a deck file is UTF-8 text") from None
    # A deck of up to --max-deck-body is read by the worker process.
    from gloomtable.designer.gallery import text_faces

    faces, message, problems = await request.app.state.heavy.run("reading the deck", text_faces, text)
    if faces is None:
        return JSONResponse({"type": "error", "code": "bad_message", "message": message,
                             "problems": problems}, status_code=400)
    return JSONResponse(faces)


@router.get("/api/tables/{table_id}/chronicle")
async def chronicle_json(table_id: str, request: Request) -> dict[str, Any]:
    return (await _chronicle(request, table_id)).to_dict()


@router.get("/api/tables/{table_id}/chronicle.md")
async def chronicle_md(table_id: str, request: Request) -> Response:
    from gloomtable.designer.chronicle import chronicle_markdown

    text = chronicle_markdown(await _chronicle(request, table_id))
    return Response(text, media_type="text/markdown; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="chronicle-{table_id}.md"'})


@router.get("/api/tables/{table_id}/chronicle.html")
async def chronicle_page(table_id: str, request: Request) -> HTMLResponse:
    from gloomtable.designer.chronicle import chronicle_html

    return _page(chronicle_html(await _chronicle(request, table_id)))
