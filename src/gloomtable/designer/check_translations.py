"""``gloom deck check`` on a deck's translation files (``mine.es.toml`` beside
``mine.toml``): what a translation names that its deck has not would never show,
so each is a warning naming the file, the table and the key, with the nearest
name the deck has when one is close (``[cards.nmae]``, a misspelt ``nmae =``, a
table such as ``[deaths]`` no reader looks at)."""

from __future__ import annotations

import difflib
import re
from typing import Any

from gloomtable.designer.check import Finding
from gloomtable.games.gloom.cards import Deck
from gloomtable.games.gloom.deck import KNOWN_ICONS, SETS_PACKAGE

TABLES = ("set", "families", "cards", "icons")
"""The tables a Gloom translation file may have (``[icons.<id>]``: the name of an icon
the deck adds)."""
KEYS: dict[str, tuple[str, ...]] = {
    "set": ("name", "description", "flavour"),
    "families": ("name", "flavour", "gender", "cases"),
    "cards": ("name", "text", "flavour", "gender", "cases"),
    "icons": ("name",),
}
"""The keys each entry of a table may have (a card's name may also come in a
grammatical form, ``name_feminine``, ``name_plural``...)."""
FORM = re.compile(r"name_[a-z]+")


def _near(word: str, known: list[str] | tuple[str, ...]) -> str:
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def translation_findings(deck: Deck, lang: str, data: dict[str, Any], source: str) -> list[Finding]:
    """Warnings for one translation file ``source`` (``lang``) of ``deck``, parsed as ``data``."""
    found: list[Finding] = []

    def warn(code: str, where: str, fld: str, message: str) -> None:
        found.append(Finding("warning", code, source, where, fld, message))

    known = {
        "cards": sorted(c.key for c in deck.cards),
        "families": sorted(f.id for f in deck.families),
        "icons": sorted(set(deck.icons) - set(KNOWN_ICONS)),
    }
    for table, value in data.items():
        if table not in TABLES:
            warn("translation-table", f"[{table}]", table,
                 f"no such table in a Gloom translation; its tables are {', '.join(TABLES)}"
                 f"{_near(table, TABLES)}")
            continue
        entries = {"": value} if table == "set" else value
        if not isinstance(entries, dict):
            continue
        for key, entry in entries.items():
            where = f"[{table}]" if table == "set" else f"[{table}.{key}]"
            if table != "set" and key not in known[table]:
                what = {"cards": "card", "families": "family", "icons": "icon of its own"}[table]
                warn(f"translation-{what}", where, "id",
                     f"the deck has no {what} {key!r}, so this {lang} text never shows"
                     f"{_near(key, known[table])}")
                continue
            if not isinstance(entry, dict):
                continue
            for name in entry:
                if name in KEYS[table] or (table == "cards" and FORM.fullmatch(name)):
                    continue
                warn("translation-key", where, name,
                     f"no reader looks at {name!r} here; the keys are {', '.join(KEYS[table])}"
                     f"{_near(name, KEYS[table])}")
    return found


def check_translation_files(decks: list[Deck]) -> list[Finding]:
    """The translation files beside each deck file (and a shipped set's own), checked."""
    from gloomtable.i18n import LANGUAGES
    from gloomtable.i18n.cards import TranslationFileError, deck_sources, read_translation, translation_source

    found: list[Finding] = []
    for deck in decks:
        for src in deck_sources(deck.source):
            for lang in LANGUAGES:
                if lang == "en":
                    continue
                name, _where = translation_source(src, lang, SETS_PACKAGE)
                try:
                    data = read_translation(src, lang, SETS_PACKAGE)
                except TranslationFileError as exc:
                    found.append(Finding("error", "translation-file", name, "(file)", "toml", str(exc)))
                    continue
                if data:
                    found += translation_findings(deck, lang, data, name)
    return found
