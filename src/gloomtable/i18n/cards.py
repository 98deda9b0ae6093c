"""Card texts in other languages, kept beside the deck files: the reading of those
files, which every game with deck files shares.

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
reads these files. What a game's texts make of them is the game's own
(``games/<game>/hooks/card_texts.py``); a shipped deck's files are in its game's
package, which the game names (``shipped``)."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from gloomtable.engine import GloomtableError
from gloomtable.engine.textdata import TextDataError, load_toml


class TranslationFileError(GloomtableError, ValueError):
    """A card translation file is not valid TOML or has the wrong shape."""


def translation_source(deck_source: str, lang: str, shipped: str | None = None) -> tuple[str, Any]:
    """Where the ``lang`` texts of one deck file live: (readable name, Traversable/Path).
    ``shipped``: the package holding the game's shipped deck files; a bare file name it
    holds (``classic.toml``) is that shipped deck, its translations beside it there."""
    path = Path(deck_source)
    name = f"{path.stem}.{lang}.toml"
    if (shipped is not None and path.parent == Path(".") and path.suffix == ".toml"
            and resources.files(shipped).joinpath(path.name).is_file()):
        return name, resources.files(shipped).joinpath(name)
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
def read_translation(deck_source: str, lang: str, shipped: str | None = None) -> dict[str, Any]:
    """The parsed translation file of one deck file, ``{}`` when there is none
    (``shipped``: as :func:`translation_source` takes it)."""
    if deck_source in _UPLOADED:
        return _UPLOADED[deck_source].get(lang, {})
    name, where = translation_source(deck_source, lang, shipped)
    return _read(name, where)


def deck_sources(combined_source: str) -> list[str]:
    """The files of a (possibly mixed, ``a.toml+b.toml``) deck."""
    return [s for s in combined_source.split("+") if s]
