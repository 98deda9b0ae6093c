"""The web page's side of translation, used by the server.

* :func:`web_catalog` turns a gettext catalog into the JSON ``web/i18n.js`` reads:
  ``{"English": "translation", "{n} card": {"one": ..., "few": ..., "many": ...,
  "other": ...}, "feminine\\x04English": "translation"}`` (a message in a context
  under gettext's own key), plural forms keyed by the ``Intl.PluralRules`` categories of the
  language (worked out from Babel's CLDR data, so JS and gettext agree).
* :func:`request_language` picks a request's language: ``?lang=``, then the
  ``gloomtable_lang`` cookie the page's language switch sets, then Accept-Language.
* :func:`localize_catalogue` and :func:`localize_state` put a table's card faces and
  live messages (views and choices) into that language with the same card
  translation files and formatters as the terminal. The log's events arrive rendered in
  the connection's language from their messages (``server/table.py``).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any

from babel import Locale

from gloomtable.i18n.catalog import LANGUAGE_NAMES, LANGUAGES, load_catalog, translator
from gloomtable.i18n.negotiate import from_accept_language, normalise

COOKIE = "gloomtable_lang"
_SAMPLES = (0, 1, 2, 3, 4, 5, 6, 7, 11, 12, 14, 21, 22, 25, 100, 101, 102, 105, 111, 1000000)


@cache
def web_catalog(lang: str) -> dict[str, Any]:
    """Every message of ``lang`` as the page's JSON catalogue (``{}`` for English)."""
    if lang not in LANGUAGES or lang == "en":
        return {}
    cat = load_catalog(lang)
    tr = translator(lang).translations
    locale = Locale.parse(lang)
    categories: dict[str, int] = {}
    for n in _SAMPLES:
        categories.setdefault(locale.plural_form(n), n)
    out: dict[str, Any] = {}
    for msg in cat:
        if not msg.id or msg.fuzzy:
            continue
        english = msg.id if isinstance(msg.id, str) else str(msg.id[0])
        if msg.context:  # gettext's own key for a message in a context: "context\x04English"
            if isinstance(msg.string, str) and msg.string:
                out[f"{msg.context}\x04{english}"] = msg.string
            continue
        if isinstance(msg.id, tuple):
            forms = [str(f or "") for f in (msg.string if isinstance(msg.string, tuple) else (msg.string,))]
            plural: dict[str, str] = {}
            for category, n in categories.items():
                idx = tr.plural(n) if hasattr(tr, "plural") else (0 if n == 1 else 1)
                if idx < len(forms) and forms[idx]:
                    plural[category] = forms[idx]
            if "other" not in plural and forms and forms[-1]:
                plural["other"] = forms[-1]  # e.g. Russian "other" is for fractions only
            out[english] = plural
        elif isinstance(msg.string, str) and msg.string:
            out[english] = msg.string
    return out


def languages_info(accept_language: str | None) -> dict[str, Any]:
    """The shipped languages and the one Accept-Language asks for."""
    return {"lang": from_accept_language(accept_language) or "en",
            "languages": [{"code": c, "name": LANGUAGE_NAMES[c]} for c in LANGUAGES]}


def request_language(query: Mapping[str, str], cookies: Mapping[str, str],
                     headers: Mapping[str, str]) -> str:
    """``?lang=``, else the switch's cookie, else Accept-Language, else English."""
    for value in (query.get("lang"), cookies.get(COOKIE)):
        lang = normalise(value) if value else None
        if lang:
            return lang
    return from_accept_language(headers.get("accept-language")) or "en"


@lru_cache(maxsize=64)
def _localizer(game: Any, lang: str) -> Any:
    from gloomtable.i18n.client import localizer_for

    return localizer_for(game, lang)


def localize_catalogue(game: Any, catalogue: dict[str, Any], lang: str) -> dict[str, Any]:
    """A table's printed card faces with names, effect texts and flavour in ``lang``."""
    loc = _localizer(game, lang)
    if loc.impl is None:
        return catalogue
    out: dict[str, Any] = loc.impl.localize_catalogue(catalogue)
    return out


def localize_state(game: Any, lang: str, message: dict[str, Any], state: Any = None) -> dict[str, Any]:
    """A ``state`` message for one connection, in ``lang``: names in the view and the
    choices' texts, made from each choice's action on ``state`` (the board the choices
    are legal on). The cached view is copied, never changed. The log arrives rendered
    in the connection's language (``LogEntry.for_viewer``)."""
    if lang == "en" or lang not in LANGUAGES:
        return message
    loc = _localizer(game, lang)
    if loc.impl is None:
        return message
    msg = dict(message)
    msg["view"] = view = copy.deepcopy(message.get("view") or {})
    loc.impl.localize_view(view)  # each game's texts know its view (the registry's ``texts``)
    if state is not None:
        msg["choices"] = [{**c, "text": loc.action(state, c["action"])} if isinstance(c.get("action"), int)
                          else c for c in message.get("choices", [])]
    return msg
