"""A Gloom deck's card texts in one language: its translation files (beside the deck
file, or the shipped set's in ``games/gloom/sets``) over the deck's own English, with
the grammatical forms the templates ask for. Read by Gloom's texts, narration and (through
the registry's ``card_texts``) the chronicle."""

from __future__ import annotations

from typing import Any

from gloomtable.engine import Game
from gloomtable.games.gloom.cards import Deck
from gloomtable.games.gloom.deck import SETS_PACKAGE
from gloomtable.games.gloom.game import GloomGame
from gloomtable.i18n.cards import deck_sources, read_translation


def deck_texts(game: Game, lang: str) -> GloomTexts:
    """The registry's ``card_texts``: the texts of ``game``'s deck in ``lang``."""
    if not isinstance(game, GloomGame):
        raise TypeError(f"{game.name} is not played with a Gloom deck")
    return GloomTexts(game.deck, lang)


class GloomTexts:
    """Names, effect texts and flavour of one Gloom deck in one language."""

    def __init__(self, deck: Deck, lang: str) -> None:
        self.deck = deck
        self.lang = lang
        self.cards: dict[str, dict[str, Any]] = {}
        self.families: dict[str, dict[str, str]] = {}
        self.icons: dict[str, dict[str, str]] = {}
        """The names of the icons a deck adds, in this language (``[icons.<id>] name``)."""
        self.sets: list[dict[str, str]] = []
        self._cases: dict[str, dict[str, str]] = {}
        if lang != "en":
            for src in deck_sources(deck.source):
                data = read_translation(src, lang, SETS_PACKAGE)
                self.cards.update(data.get("cards", {}))
                self.families.update(data.get("families", {}))
                self.icons.update(data.get("icons", {}))
                self.sets.append(data.get("set", {}))

    def _card(self, index: int, field: str) -> str:
        card = self.deck.cards[index]
        return str(self.cards.get(card.key, {}).get(field) or getattr(card, field))

    def name(self, index: int, gender: str | None = None) -> str:
        """The card's name; for ``gender`` (of the Character it lands on) the form that
        agrees with it: ``name_feminine`` / ``name_plural`` / ``name_masculine`` of the
        translation file, else ``name``."""
        if gender and self.lang != "en":
            form = self.cards.get(self.deck.cards[index].key, {}).get(f"name_{gender}")
            if form:
                return str(form)
        return self._card(index, "name")

    def forms(self, index: int) -> dict[str, str]:
        """The card's name by the gender of the Character it lies on (only the forms the
        translation file gives)."""
        entry = self.cards.get(self.deck.cards[index].key, {}) if self.lang != "en" else {}
        return {g: str(entry[f"name_{g}"]) for g in ("feminine", "masculine", "plural")
                if entry.get(f"name_{g}")}

    def person(self, index: int) -> str:
        """A Character's or Guest's name with the grammatical forms templates ask for
        (``{char:gen}``): the translation file's ``cases``, else the ones ``pymorphy3``
        proposes for Russian, else none (the plain name in every slot)."""
        from gloomtable.i18n.grammar import Forms

        return Forms(self.name(index), self.cases(index), person=True)

    def cases(self, index: int) -> dict[str, str]:
        key = self.deck.cards[index].key
        if key not in self._cases:
            given = self.cards.get(key, {}).get("cases")
            if isinstance(given, dict) and given:
                self._cases[key] = {str(k): str(v) for k, v in given.items()}
            elif self.lang == "ru" and self.is_person(index):
                from gloomtable.i18n.grammar import propose_ru

                self._cases[key] = propose_ru(self.name(index), self.gender(index))
            elif self.lang == "es" and self.is_person(index):  # the article a title takes
                from gloomtable.i18n.grammar import spanish_person

                self._cases[key] = spanish_person(self.name(index))
            else:
                self._cases[key] = {}
        return self._cases[key]

    def gender(self, index: int) -> str:
        """A Character's grammatical gender in this language: the translation file's
        ``gender``, else the deck's, else masculine (the generic form of es and ru)."""
        card = self.deck.cards[index]
        return str(self.cards.get(card.key, {}).get("gender") or getattr(card, "gender", None)
                   or "masculine")

    def is_person(self, index: int) -> bool:
        """Characters and Guests are named bare; every other card is a quoted title."""
        return str(getattr(self.deck.cards[index].type, "value", "")) in ("character", "guest")

    def text(self, index: int) -> str:
        return self._card(index, "text")

    def flavour(self, index: int) -> str:
        return self._card(index, "flavour")

    def family_name(self, family_id: str) -> str:
        for fam in self.deck.families:
            if fam.id == family_id:
                return self.families.get(family_id, {}).get("name") or fam.name
        return family_id
