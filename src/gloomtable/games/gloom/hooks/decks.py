"""Gloom's deck files at the server (the registry's ``decks``, a
:class:`~gloomtable.engine.hooks.Decks`, Gloom's and Gloomier's both): a designer's deck
uploaded in the lobby with its translation files, or given to ``gloom serve --sets``,
checked as ``gloom deck check`` checks it (docs/decks.md). Above the designer's
checker and the translations it reads, so among the game's hooks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gloomtable.engine import ConfigError, GloomtableError
from gloomtable.engine.hooks import CheckedDeck, DeckProblems
from gloomtable.games.gloom.deck import (
    SETS_PACKAGE,
    SHIPPED_SETS,
    DeckError,
    load_deck,
    parse_deck,
    register_deck,
    register_uploaded,
    shipped_sets,
    uploaded_sets,
)
from gloomtable.games.gloom.game import make


class GloomDecks:
    """Deck files of Gloom's card language: mixed with the shipped sets (R-H10)."""

    kind = "deck"
    what = "a Gloom deck"
    listing = "gloom_sets"
    gallery = True

    def claims(self, data: Mapping[str, Any]) -> bool:
        """A deck file has its ``[set]`` table."""
        return "set" in data

    def check(self, text: str, file: str) -> CheckedDeck:
        from gloomtable.designer.check import check_decks

        try:
            deck = parse_deck(text, file)
        except DeckError as exc:
            raise DeckProblems(f"{file}: {len(exc.problems)} problem(s)",
                               [f"{exc.source}: {p}" for p in exc.problems]) from None
        findings = check_decks([deck])
        errors = [f.line() for f in findings if f.severity == "error"]
        if errors:
            raise DeckProblems(f"{file}: {len(errors)} problem(s)", errors)
        return CheckedDeck(deck.name, len(deck.cards),
                           tuple(f.line() for f in findings if f.severity != "error"))

    def translation_warnings(self, text: str, file: str, lang: str, data: Mapping[str, Any]) -> list[str]:
        from gloomtable.designer.check_translations import translation_findings

        stem = file.rsplit(".toml", 1)[0]
        return [f.line() for f in translation_findings(parse_deck(text, file), lang, dict(data),
                                                        f"{stem}.{lang}.toml")]

    def register_upload(self, key: str, text: str, translations: Mapping[str, str]) -> None:
        """Its translations are found by its source, ``<key>.toml``."""
        from gloomtable.i18n.cards import register_translations

        register_translations(f"{key}.toml", dict(translations))
        register_uploaded(key, text)

    def uploaded(self) -> tuple[str, ...]:
        return uploaded_sets()

    def offered(self) -> tuple[str, ...]:
        """The shipped sets that seat a table alone here, then the decks of ``gloom serve
        --sets``: each was checked when registered, and may be meant only for mixing."""
        if not _loads(None):
            return ()
        return tuple(s for s in shipped_sets() if s not in SHIPPED_SETS or _loads(s))

    def set_names(self, set_ids: Iterable[str]) -> dict[str, dict[str, str]]:
        """A set's name from its deck file and translation files."""
        from gloomtable.i18n import LANGUAGES
        from gloomtable.i18n.cards import read_translation

        names: dict[str, dict[str, str]] = {}
        for set_id in set_ids:
            deck = load_deck(set_id)
            names[set_id] = {"en": deck.name}
            for lang in LANGUAGES:
                name = read_translation(deck.source, lang, SETS_PACKAGE).get("set", {}).get("name")
                if lang != "en" and isinstance(name, str) and name:
                    names[set_id][lang] = name
        return names

    def register_file(self, path: str) -> str:
        try:
            deck = register_deck(path)
        except DeckError as exc:
            lines = "".join(f"\n  {exc.source}: {p}" for p in exc.problems)
            raise ConfigError(f"{path} is not a playable Gloom deck ({len(exc.problems)} problem(s); "
                              f"`gloom deck check` says the same):{lines}") from None
        return (f"Gloom deck {deck.id!r} ({deck.name}) from {path}: tables may mix it as "
                f"sets = [\"classic\", \"{deck.id}\"]")


def _loads(set_id: str | None) -> bool:
    """Whether a table of three seats builds here with ``set_id`` alone (None: the default)."""
    try:
        make("gloom", {"players": 3} if set_id is None else {"players": 3, "sets": [set_id]}, None)
    except (GloomtableError, ValueError):
        return False
    return True


DECKS = GloomDecks()
