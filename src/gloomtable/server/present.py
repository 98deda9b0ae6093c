"""What a page needs besides the view: the printed faces of the cards and the
legal actions spelled out, so the page can draw cards and highlight targets.

Card faces are public (a card's printing is no secret; only where a card is
can be), so the catalogue goes to every connection. Choices go only to the
seat that is deciding. Each game spells its choices out through its registry
entry's ``presenter``; every choice carries its plain text, so a new game still
plays (as buttons) before anyone draws it.
"""

from __future__ import annotations

from typing import Any

from gloomtable.engine import State
from gloomtable.games import registry
from gloomtable.games.catalogue import catalogue as catalogue  # re-exported: the page's card faces


def choices(game_name: str, state: State, legal: list[int]) -> list[dict[str, Any]]:
    """The legal actions of the deciding seat, each with its readable text and,
    where the game has them, the card played and the Character it targets (its
    registry entry's ``presenter``; a game without an entry plays as buttons)."""
    entry = registry.find(game_name)
    out: list[dict[str, Any]] = []
    for a in legal:
        item: dict[str, Any] = {"action": a, "text": state.action_to_string(a)}
        if entry is not None:
            item.update(entry.present(state, a))
        out.append(item)
    return out
