"""Card texts in other languages, kept beside the deck files.

A deck ``sets/classic.toml`` (or a user's ``my_deck.toml``) may carry
``classic.es.toml``, ``classic.ru.toml`` ... next to it::

    [set]
    name = "Gloom: el juego clásico"
    [families.castle-slogar]
    name = "Castillo Slogar"
    flavour = "..."
    [cards.lord-slogar]
    name = "Lord Slogar"
    text = "..."
    flavour = "..."

Crazy Creatures uses the same idea with ``[colours.<key>]`` (``name``,
``machine`` (the colour agreeing with the Machine), ``creature``,
``flavour``) and ``[machine.plus]`` / ``[machine.minus]``.
Anything missing falls back to the deck's own (English) text; the engine never
reads these files."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from gloomtable.engine import GloomtableError
from gloomtable.engine.textdata import TextDataError, load_toml

GLOOM_SETS_PACKAGE = "gloomtable.games.gloom.sets"
CREATURES_PACKAGE = "gloomtable.games.creatures"


class TranslationFileError(GloomtableError, ValueError):
    """A card translation file is not valid TOML or has the wrong shape."""


def translation_source(deck_source: str, lang: str) -> tuple[str, Any]:
    """Where the ``lang`` texts of one deck file live: (readable name, Traversable/Path).
    A bare ``classic.toml`` is a shipped set inside the package."""
    path = Path(deck_source)
    name = f"{path.stem}.{lang}.toml"
    from gloomtable.games.gloom.deck import SHIPPED_SETS

    if path.parent == Path(".") and path.suffix == ".toml" and path.stem in SHIPPED_SETS:
        return name, resources.files(GLOOM_SETS_PACKAGE).joinpath(name)
    return str(path.with_name(name)), path.with_name(name)


_UPLOADED: dict[str, dict[str, dict[str, Any]]] = {}
"""Translations uploaded with a deck at the lobby, by the deck's source and language
(they live in the store, never on disk): such a source has no files beside it."""


def register_translations(deck_source: str, texts: dict[str, str]) -> None:
    """The translation files uploaded with the deck ``deck_source`` (checked in the
    server's worker), by language: read from here, and no file is looked for."""
    _UPLOADED[deck_source] = {lang: parse_translation(f"{Path(deck_source).stem}.{lang}.toml", text)
                              for lang, text in texts.items()}
    read_translation.cache_clear()


def parse_translation(name: str, text: str) -> dict[str, Any]:
    """A translation file's TOML ``text``, its shape checked. Raises
    :class:`TranslationFileError` naming ``name``."""
    try:
        data = load_toml(text)
    except TextDataError as exc:
        raise TranslationFileError(f"{name}: {exc}") from None
    return _shaped(name, data)


def _read(name: str, where: Any) -> dict[str, Any]:
    try:
        if not where.is_file():
            return {}
        text = where.read_text(encoding="utf-8")
    except OSError:
        return {}
    return parse_translation(name, text)


def _shaped(name: str, data: dict[str, Any]) -> dict[str, Any]:
    for table in ("families", "cards", "colours", "machine", "set", "icons"):
        value = data.get(table, {})
        if not isinstance(value, dict) or not all(isinstance(v, dict) for k, v in value.items()
                                                  if table != "set"):
            raise TranslationFileError(f"{name}: [{table}] must hold tables of texts")
    return data


@lru_cache(maxsize=64)
def read_translation(deck_source: str, lang: str) -> dict[str, Any]:
    """The parsed translation file of one deck file, ``{}`` when there is none."""
    if deck_source in _UPLOADED:
        return _UPLOADED[deck_source].get(lang, {})
    name, where = translation_source(deck_source, lang)
    return _read(name, where)


def deck_sources(combined_source: str) -> list[str]:
    """The files of a (possibly mixed, ``a.toml+b.toml``) deck."""
    return [s for s in combined_source.split("+") if s]


class GloomTexts:
    """Names, effect texts and flavour of one Gloom deck in one language."""

    def __init__(self, deck: Any, lang: str) -> None:
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
                data = read_translation(src, lang)
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


class CreatureTexts:
    """Colour, Creature and Machine names of Crazy Creatures in one language."""

    def __init__(self, creature_set: Any, lang: str) -> None:
        self.set = creature_set
        data: dict[str, Any] = {}
        if lang != "en":
            name = f"creatures.{lang}.toml"
            data = _read(name, resources.files(CREATURES_PACKAGE).joinpath(name))
        self.data = data

    def colour(self, key: str) -> str:
        return self.data.get("colours", {}).get(key, {}).get("name") or key

    def machine_colour(self, key: str) -> str:
        """The colour as it agrees with the Machine in the catalogue's Machine lines
        (Spanish: feminine, «la Máquina roja»; Russian: feminine accusative, «красную
        Машину»), the ``machine`` field of ``[colours.<key>]``; else the plain colour."""
        return self.data.get("colours", {}).get(key, {}).get("machine") or self.colour(key)

    @property
    def variant(self) -> bool:
        """A variant set from a deck file names its own Creatures and Machines, in
        its own words: the shipped catalogue's translations are not for it."""
        from gloomtable.games.creatures.cards import SHIPPED_SET

        return getattr(self.set, "id", SHIPPED_SET) != SHIPPED_SET

    def creature(self, key: str) -> str:
        for spec in self.set.colours:
            if spec.key == key:
                if self.variant:
                    return str(spec.creature)
                return str(self.data.get("colours", {}).get(key, {}).get("creature") or spec.creature)
        return key

    def machine(self, side: str) -> str:
        """``side`` is ``plus`` or ``minus``."""
        english = (self.set.plus if side == "plus" else self.set.minus).name
        if self.variant:
            return str(english)
        return str(self.data.get("machine", {}).get(side, {}).get("name") or english)
