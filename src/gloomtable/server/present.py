"""What a page needs besides the view: the printed faces of the cards and the
legal actions spelled out, so the page can draw cards and highlight targets.

Card faces are public (a card's printing is no secret; only where a card is
can be), so the catalogue goes to every connection. Choices go only to the
seat that is deciding. Games are read through duck typing with a plain-text
fallback, so a new game still plays (as buttons) before anyone draws it.
"""

from __future__ import annotations

from typing import Any

from gloomtable.engine import State
from gloomtable.games.catalogue import catalogue as catalogue  # re-exported: the page's card faces
from gloomtable.games.creatures import actions as ca


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
