"""Decks uploaded in the lobby: a designer's Gloom deck or Crazy Creatures variant,
with its translation files, played at online tables (docs/decks.md, "Online tables").
Each game reads, checks and registers its own deck files (the registry's ``decks``,
:class:`~gloomtable.engine.hooks.Decks`); this module names no game.

The upload is hostile until checked: its body is bounded (``--upload-max-bytes``)
and read within ``--body-timeout``, then parsed and checked in the heavy worker
(:mod:`gloomtable.server.heavy`: its own process, ``RLIMIT_AS``, killed past its
deadline, TOML held to ``--text-max-*``), never on the event loop. A deck that
passes is stored in the table store by its key, ``up-`` and the first 20 hex
digits of the SHA-256 of the upload (so the same deck uploaded twice is one row),
and registered in this process by that key; a table names the key in its
``sets``, never a path. The lobby offers a deck to its uploader (the client's
account when signed in, else its address, stored only as a hash); anyone who
knows the key (everyone with a link to a table that uses it) may make a table
with it. One client keeps at most ``--uploads-per-client`` decks; a deck nobody
made a table with for ``--upload-expiry-days`` is deleted, unless a stored table
still names it (checked when the server starts and on each upload).
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from gloomtable.engine import ConfigError
from gloomtable.engine.hooks import DeckProblems
from gloomtable.games import registry
from gloomtable.server.errors import ServerError
from gloomtable.server.store_decks import DeckRow

if TYPE_CHECKING:
    from gloomtable.server.store import Store

log = logging.getLogger("gloomtable.server")
KEY = re.compile(r"up-[0-9a-f]{20}")
"""The shape of an uploaded deck's key (what a table's ``sets`` names)."""
FILE_NAME = re.compile(r"[\w .()-]{1,80}")
"""A deck file's name as the uploader's page sends it (only shown in messages)."""
MAX_LANGS = 16
"""Translation files one upload may carry at most (we ship fewer languages)."""

router = APIRouter()


def upload_key(kind: str, deck: str, translations: Mapping[str, str]) -> str:
    """The content key: the same deck and translations always give the same key."""
    canon = json.dumps({"kind": kind, "deck": deck, "translations": dict(sorted(translations.items()))},
                       sort_keys=True, ensure_ascii=False)
    return "up-" + hashlib.sha256(canon.encode("utf-8")).hexdigest()[:20]


def owner_of(client: str) -> str:
    """How the store names an uploader: a hash, so no address is kept."""
    return hashlib.sha256(f"deck-owner:{client}".encode()).hexdigest()


# --- in the worker -------------------------------------------------------------------


def check_upload(raw: bytes, languages: tuple[str, ...]) -> dict[str, Any]:
    """Read and check an upload (in the heavy worker): ``{"ok": True, "key", "kind",
    "name", "names", "cards", "bundle", "warnings"}`` or ``{"ok": False, "message",
    "problems"}``. Plain values, so they cross processes whole."""
    from gloomtable.engine.textdata import TextDataError, load_json, load_toml

    def refused(message: str, problems: list[str] | None = None) -> dict[str, Any]:
        return {"ok": False, "message": message, "problems": problems or [message]}

    try:
        body = load_json(raw)
    except TextDataError as exc:
        return refused(f"the upload is {exc}")
    if not isinstance(body, dict):
        return refused("the upload must be a JSON object with \"deck\" (the deck file's text)")
    unknown = sorted(set(body) - {"deck", "file", "translations"})
    if unknown:
        return refused(f"the upload has an unknown field {unknown[0][:40]!r}; it takes deck, file "
                       "and translations")
    deck, file, translations = body.get("deck"), body.get("file", "deck.toml"), body.get("translations", {})
    if not isinstance(deck, str) or not deck.strip():
        return refused("\"deck\" must be the deck file's text (TOML)")
    if not isinstance(file, str) or not FILE_NAME.fullmatch(file):
        file = "deck.toml"
    if not isinstance(translations, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in translations.items()):
        return refused("\"translations\" must map a language code to its translation file's text")
    if len(translations) > MAX_LANGS:
        return refused(f"at most {MAX_LANGS} translation files go with a deck")
    stem = file.rsplit(".toml", 1)[0]
    problems = [f"{stem}.{lang[:16]}.toml: no such language here; languages: {', '.join(languages)}"
                for lang in translations if lang not in languages or lang == "en"]
    if problems:
        return refused(problems[0], problems)
    try:
        data = load_toml(deck)
    except TextDataError as exc:
        return refused(f"{file}: {exc}")
    games = registry.decks()
    if not games:
        return refused("no game here takes deck files")
    decks = next((d for d in games if d.claims(data)), games[0])  # the first says what is wrong
    kind = decks.kind
    try:
        checked = decks.check(deck, file)
    except DeckProblems as exc:
        return refused(exc.message, exc.problems)
    from gloomtable.i18n.cards import TranslationFileError, parse_translation

    found = {"ok": True, "name": checked.name, "cards": checked.cards}
    names = {"en": checked.name}
    warnings = list(checked.warnings)
    for lang, text in sorted(translations.items()):
        try:
            parsed = parse_translation(f"{stem}.{lang}.toml", text)
        except TranslationFileError as exc:
            problems.append(str(exc))
            continue
        name = parsed.get("set", {}).get("name")
        if isinstance(name, str) and name.strip():
            names[lang] = name.strip()[:80]
        warnings += decks.translation_warnings(deck, file, lang, parsed)
    if problems:
        return refused(problems[0], problems)
    bundle = json.dumps({"file": file, "deck": deck, "translations": translations}, ensure_ascii=False)
    return {**found, "key": upload_key(kind, deck, translations), "kind": kind, "names": names,
            "bundle": bundle, "warnings": warnings}


# --- in the server -------------------------------------------------------------------


def register_row(row: DeckRow) -> None:
    """Make a stored upload playable in this process by its key (a table built, a
    table read back after a restart, or on another process of the site)."""
    decks = registry.decks_of_kind(row.kind)
    if decks is None:
        raise ConfigError(f"the uploaded deck {row.key!r} is of no game here")
    bundle = json.loads(row.bundle)
    decks.register_upload(row.key, bundle["deck"], bundle.get("translations", {}))


def _known(key: str) -> str | None:
    """The kind of an upload registered here (None: not yet)."""
    return next((d.kind for d in registry.decks() if key in d.uploaded()), None)


def upload_rows(store: Store, game: str, config: Mapping[str, Any]) -> list[DeckRow]:
    """The stored uploads ``config`` names (by key); a key no upload has, or an upload
    of the other game, is a :class:`ConfigError`."""
    sets = config.get("sets") or []
    keys = [s for s in sets if isinstance(s, str) and KEY.fullmatch(s)]
    if not keys:
        return []
    own = registry.entry(game).decks
    want = None if own is None else own.get().kind  # a game without deck files takes none
    rows = []
    for key in keys:
        row = store.get_deck(key)
        if row is None:
            raise ConfigError(f"no uploaded deck {key!r} (it may have expired); upload it again")
        if row.kind != want:
            theirs = registry.decks_of_kind(row.kind)
            what = f"a deck of kind {row.kind!r}" if theirs is None else theirs.what
            raise ConfigError(f"the uploaded deck {key!r} is {what}, not one for {game}")
        rows.append(row)
    return rows


def register_rows(rows: list[DeckRow]) -> dict[str, str]:
    """Register the uploads this process does not know yet (it parses them: in a builder
    thread when a table is made); their names by key."""
    for row in rows:
        if _known(row.key) is None:
            register_row(row)
    return {row.key: row.name for row in rows}


def resolve(store: Store, game: str, config: Mapping[str, Any]) -> dict[str, str]:
    """:func:`upload_rows` and :func:`register_rows` at once (a table read back)."""
    return register_rows(upload_rows(store, game, config))


def resolve_deck(store: Store, key: str) -> None:
    """Register the uploaded Gloom deck ``key`` (the gallery's, which shows the decks of
    a game whose ``decks`` has a gallery); :class:`ConfigError` if none."""
    row = store.get_deck(key)
    if row is None or not _in_gallery(row.kind):
        raise ConfigError(f"no uploaded Gloom deck {key!r} (it may have expired)")
    register_rows([row])


def expire(store: Store, days: float) -> int:
    """Delete the uploads past their retention (at start; each upload does it too)."""
    gone = store.expire_decks(time.time() - days * 86400)
    if gone:
        log.info("deleted %d uploaded deck(s) unused for %g days", gone, days)
    return gone


def _in_gallery(kind: str) -> bool:
    decks = registry.decks_of_kind(kind)
    return decks is not None and decks.gallery


def _answer(row: DeckRow) -> dict[str, Any]:
    names = json.loads(row.bundle).get("names") or {"en": row.name}
    return {"key": row.key, "kind": row.kind, "name": row.name, "names": names,
            "gallery": f"/gallery?deck={row.key}" if _in_gallery(row.kind) else None}


def _client(request: Request) -> str:
    from gloomtable.server.addresses import client_ip
    from gloomtable.server.sessions import current

    session = current(request, request.app.state.lobby.store)
    if session is not None:
        return f"account:{session.account.id}"
    return f"ip:{client_ip(request, request.app.state.limits.ipv6_prefix)}"


@router.post("/api/decks")
async def upload_deck(request: Request) -> JSONResponse:
    """Check a deck (with its translations) in the worker and store it by its key."""
    from gloomtable.i18n import LANGUAGES
    from gloomtable.server.headers import read_body
    from gloomtable.server.sessions import acting

    lobby = request.app.state.lobby
    limits = request.app.state.limits
    acting(request, lobby.store)  # a signed-in upload carries its CSRF token
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ServerError("bad_content_type", "send the upload as application/json", 415)
    raw = await read_body(request, limits.upload_max_bytes, limits.body_timeout)
    found = await request.app.state.heavy.run("checking the deck", check_upload, raw, tuple(LANGUAGES))
    if not found["ok"]:
        return JSONResponse({"type": "error", "code": "bad_deck", "message": found["message"],
                             "problems": found["problems"][:200]}, status_code=400)
    owner = owner_of(_client(request))
    now = time.time()
    await lobby._in_store(lobby.store.expire_decks, now - limits.upload_expiry_days * 86400)
    stored = await lobby._in_store(lobby.store.get_deck, found["key"])
    if stored is None:
        mine = await lobby._in_store(lobby.store.owner_decks, owner)
        if len(mine) >= limits.uploads_per_client:
            raise ServerError("too_many_decks", f"you already have {len(mine)} decks uploaded here (at most "
                              f"{limits.uploads_per_client}); each is deleted "
                              f"{limits.upload_expiry_days:g} days after its last table", 429)
        bundle = json.loads(found["bundle"])
        bundle["names"] = found["names"]
        stored = DeckRow(found["key"], found["kind"], found["name"], json.dumps(bundle, ensure_ascii=False),
                         owner, now, now)
        await lobby._in_store(lobby.store.put_deck, stored)
    else:
        await lobby._in_store(lobby.store.touch_deck, stored.key)
    return JSONResponse({**_answer(stored), "cards": found["cards"], "warnings": found["warnings"][:200],
                         "new": stored.owner == owner and stored.created == now}, status_code=201)


@router.get("/api/decks")
async def my_decks(request: Request) -> dict[str, Any]:
    """The decks this client uploaded (its account's when signed in)."""
    lobby = request.app.state.lobby
    rows = await lobby._in_store(lobby.store.owner_decks, owner_of(_client(request)))
    return {"decks": [_answer(r) for r in rows]}


@router.get("/api/decks/{key}")
async def one_deck(key: str, request: Request) -> dict[str, Any]:
    """An uploaded deck by its key (anyone with a table's link has it)."""
    if not KEY.fullmatch(key):
        raise ServerError("not_found", "an uploaded deck's key is 'up-' and 20 hex digits", 404)
    lobby = request.app.state.lobby
    row = await lobby._in_store(lobby.store.get_deck, key)
    if row is None:
        raise ServerError("not_found", f"no uploaded deck {key!r}", 404)
    return _answer(row)
