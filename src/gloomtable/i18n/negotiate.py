"""Which language to speak: ``--lang``, then the POSIX locale variables, then
English for the terminal; the Accept-Language header for the web."""

from __future__ import annotations

import os
from collections.abc import Mapping

from gloomtable.engine import GloomtableError
from gloomtable.i18n.catalog import LANGUAGES


class LanguageError(GloomtableError, ValueError):
    """A language was asked for by name and we do not ship it."""


def normalise(tag: str) -> str | None:
    """``es_ES.UTF-8`` / ``ru-RU`` / ``ES`` -> ``es``; ``None`` if not shipped."""
    base = tag.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return base if base in LANGUAGES else None


def from_environ(environ: Mapping[str, str] | None = None) -> str | None:
    """The language of the POSIX locale, in gettext's order: LANGUAGE (a colon list),
    LC_ALL, LC_MESSAGES, LANG. The first variable that is set decides (``C`` means English)."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "").strip()
        if not value:
            continue
        if value in ("C", "POSIX") or value.startswith("C."):
            return "en"
        for tag in value.split(":"):
            lang = normalise(tag)
            if lang:
                return lang
        if var != "LANGUAGE":
            return None
    return None


def from_accept_language(header: str | None) -> str | None:
    """The best shipped language of an HTTP Accept-Language header (q-values respected,
    ties kept in the header's order); ``None`` when none is shipped."""
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        bits = part.strip().split(";")
        tag = bits[0].strip()
        q = 1.0
        for b in bits[1:]:
            b = b.strip()
            if b.startswith("q="):
                try:
                    q = float(b[2:])
                except ValueError:
                    q = 0.0
        lang = normalise(tag) if tag != "*" else None
        if lang and q > 0:
            ranked.append((-q, i, lang))
    return min(ranked)[2] if ranked else None


def resolve_language(option: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """``--lang`` when given (must be shipped), else the locale, else English."""
    if option:
        lang = normalise(option)
        if lang is None:
            raise LanguageError(f"--lang {option!r}: not a shipped language; "
                                f"choose one of {', '.join(LANGUAGES)}")
        return lang
    return from_environ(environ) or "en"
