"""Crazy Creatures' deck files at the server (the registry's ``decks``, a
:class:`~gloomtable.engine.hooks.Decks`): a variant set uploaded in the lobby or given
to ``gloom serve --sets``. It needs nothing above the rules, so it lives beside them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gloomtable.engine.hooks import CheckedDeck, DeckProblems
from gloomtable.games.creatures.cards import (
    CreatureSetError,
    parse_set_text,
    register_set,
    register_uploaded,
    registered_sets,
    set_named,
    uploaded_sets,
)


class CreatureDecks:
    """Variant sets: one is played alone (a table names exactly one set)."""

    kind = "variant"
    what = "a Crazy Creatures set"
    listing = "creature_sets"
    gallery = False

    def claims(self, data: Mapping[str, Any]) -> bool:
        """A set file has top-level ``colours`` and ``numbers`` and no ``[set]`` table."""
        return "set" not in data and "colours" in data and "numbers" in data

    def check(self, text: str, file: str) -> CheckedDeck:
        try:
            found = parse_set_text(text, file)
        except CreatureSetError as exc:
            lines = [f"{exc.source}: {p}" for p in exc.problems] or [str(exc)]
            raise DeckProblems(f"{file}: {len(lines)} problem(s)", lines) from None
        return CheckedDeck(found.name, len(found.creatures))

    def translation_warnings(self, text: str, file: str, lang: str, data: Mapping[str, Any]) -> list[str]:
        return []  # a variant names its Creatures and Machines in its own words

    def register_upload(self, key: str, text: str, translations: Mapping[str, str]) -> None:
        register_uploaded(key, text)

    def uploaded(self) -> tuple[str, ...]:
        return uploaded_sets()

    def offered(self) -> tuple[str, ...]:
        return registered_sets()

    def set_names(self, set_ids: Iterable[str]) -> dict[str, dict[str, str]]:
        return {set_id: {"en": set_named(set_id).name} for set_id in set_ids}

    def register_file(self, path: str) -> str:
        found = register_set(path)
        return f"Crazy Creatures variant {found.id!r} ({found.name}) from {path}"


DECKS = CreatureDecks()
