"""Texts for the page in its reader's language: the rules reference of a game, the
shipped languages, and the page's message catalogue of one."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from gloomtable.engine import ConfigError
from gloomtable.i18n.web import languages_info, request_language, web_catalog
from gloomtable.server.errors import ServerError

router = APIRouter()


@router.get("/api/rules/{game}")
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


@router.get("/api/i18n")
async def api_languages(request: Request) -> dict[str, Any]:
    """The shipped languages and the one the browser asks for."""
    return languages_info(request.headers.get("accept-language"))


@router.get("/api/i18n/{lang}")
async def api_i18n(lang: str) -> dict[str, Any]:
    """The page's message catalogue for ``lang`` ({} = English, or a language we lack)."""
    if len(lang) > 16 or not lang.replace("-", "").replace("_", "").isalnum():
        raise ServerError("not_found", "no such language", 404)
    return web_catalog(lang)
