"""Every card's printed face, as JSON-ready data: the one catalogue the server's page,
the designer's gallery and chronicle all draw from (``server/present.py`` sends it).

Card faces are public (a card's printing is no secret; only where a card is can be).
A game shows its cards here by being a :class:`~gloomtable.engine.DeckGame`, so a new
game's deck shows without code here; each card's fields are read as they come.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

from gloomtable.engine import CardDeck, DeckGame, Game

_SKIP = {"effects", "persistent_requires"}


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def catalogue(game: Game) -> dict[str, Any]:
    """Every card's printed face by card id, plus the families, for games played from
    a deck (``{}`` for any other game)."""
    return deck_catalogue(game.deck) if isinstance(game, DeckGame) else {}


_BUILT_IN_ICONS = frozenset({"beast", "death", "duck", "goblet", "lucre", "romance", "murder",
                             "investigation", "blank"})
"""Icons the page draws itself (web/cards.js): a deck's own are sent with its cards."""


def deck_catalogue(deck: CardDeck) -> dict[str, Any]:
    """Every card's printed face of ``deck`` by card id, plus its families."""
    out = []
    for card in deck.cards:
        face: dict[str, Any] = {}
        if dataclasses.is_dataclass(card):
            for f in dataclasses.fields(card):
                if f.name not in _SKIP:
                    face[f.name] = _plain(getattr(card, f.name))
        face["persistent_requires"] = [getattr(r, "name", str(r)).lower()
                                       for r in getattr(card, "persistent_requires", ())]
        face["effect_kinds"] = sorted({e.when for e in getattr(card, "effects", ())})
        out.append(face)
    families = [{"id": getattr(f, "id", ""), "name": getattr(f, "name", ""),
                 "flavour": getattr(f, "flavour", "")} for f in deck.families]
    # the icons a deck adds: the character drawn for each (its first letter if none) and its name
    glyphs = dict(getattr(deck, "glyphs", ()))
    added = [i for i in getattr(deck, "icons", ()) if i not in _BUILT_IN_ICONS]
    icons = {i: {"glyph": glyphs.get(i) or i[:1].upper(), "name": i} for i in added}
    return {"cards": out, "families": families, **({"icons": icons} if icons else {})}
