"""A bot's told line about a play, so a game log reads like a tale: each game tells its
own (its registry entry's ``narrator``: ``games/<game>/hooks/narration.py`` for the
shipped games), from the view the player saw *before* the play and the action, seeded
so a record replays with the very same lines. A told line is data, which
``i18n/narration_text.py`` says in the reader's language."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gloomtable.engine import GloomtableError, Rng
from gloomtable.games import registry


def narrate(game: str, view: Mapping[str, Any], action: int, seed: int) -> str | None:
    """One story line for ``action`` taken from the position ``view`` shows, or
    None for a non-play (a pass, a setup choice, a discard) or an unknown game.
    Never raises on odd input: narration must not break a game."""
    rng = Rng(seed * 7919 + action)
    try:
        entry = registry.find(game)
        return None if entry is None else entry.narrate(view, action, rng)
    except (GloomtableError, KeyError, IndexError, TypeError, ValueError):
        return None
