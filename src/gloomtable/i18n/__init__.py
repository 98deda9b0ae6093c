"""Translations for every client: gettext catalogs (Babel), language negotiation,
card texts kept beside the deck files, and client-side formatters for the engine's
English event and action texts. The engine and the games never import this package's
language state: they speak English; clients translate (see ``docs/i18n.md``)."""

from __future__ import annotations

from gloomtable.i18n.catalog import LANGUAGES, Translator, translator
from gloomtable.i18n.negotiate import (
    LanguageError,
    from_accept_language,
    from_environ,
    resolve_language,
)

__all__ = [
    "LANGUAGES",
    "LanguageError",
    "Translator",
    "from_accept_language",
    "from_environ",
    "resolve_language",
    "translator",
]
