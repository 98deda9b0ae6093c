"""What a page needs besides the view: the printed faces of the cards and the
legal actions spelled out, so the page can draw cards and highlight targets.

Card faces are public (a card's printing is no secret; only where a card is
can be), so the catalogue goes to every connection. Choices go only to the
seat that is deciding. Games are read through duck typing with a plain-text
fallback, so a new game still plays (as buttons) before anyone draws it.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

from gloomtable.engine import Game, State
from gloomtable.games.creatures import actions as ca

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
    """Every card's printed face by card id, plus the families, for decks that have them."""
    deck = getattr(game, "deck", None)
    cards = getattr(deck, "cards", None)
    if cards is None:
        return {}
    out = []
    for card in cards:
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
                 "flavour": getattr(f, "flavour", "")} for f in getattr(deck, "families", ())]
    return {"cards": out, "families": families}


def choices(game_name: str, state: State, legal: list[int]) -> list[dict[str, Any]]:
    """The legal actions of the deciding seat, each with its readable text and,
    where the game has them, the card played and the Character it targets."""
    out: list[dict[str, Any]] = []
    codec = getattr(getattr(state, "game", None), "codec", None)
    for a in legal:
        item: dict[str, Any] = {"action": a, "text": state.action_to_string(a)}
        if codec is not None and hasattr(codec, "decode"):
            dec = codec.decode(a)
            item["kind"] = dec.kind.name.lower()
            if dec.card >= 0:
                item["card"] = dec.card
            if dec.target >= 0:
                item["target"] = dec.target
            if dec.index >= 0:
                item["index"] = dec.index
        elif game_name == "creatures":
            if ca.PLAY_BASE <= a < ca.FLIP_BASE:
                item.update(kind="play", card=a - ca.PLAY_BASE)
            elif ca.FLIP_BASE <= a < ca.DRAW_BASE:
                item.update(kind="flip", index=a - ca.FLIP_BASE)
            elif ca.DRAW_BASE <= a < ca.NUM_ACTIONS:
                item.update(kind="make_draw", index=a - ca.DRAW_BASE)
            else:
                item["kind"] = "pass"
        out.append(item)
    return out
