"""What the page draws of a Crazy Creatures choice (the registry's ``presenter``)."""

from __future__ import annotations

from typing import Any

from gloomtable.engine import State
from gloomtable.games.creatures import actions as ca


def creatures_choice(state: State, action: int) -> dict[str, Any]:
    """A Crazy Creatures choice by its place in the action layout (``actions.py``)."""
    if ca.PLAY_BASE <= action < ca.FLIP_BASE:
        return {"kind": "play", "card": action - ca.PLAY_BASE}
    if ca.FLIP_BASE <= action < ca.DRAW_BASE:
        return {"kind": "flip", "index": action - ca.FLIP_BASE}
    if ca.DRAW_BASE <= action < ca.NUM_ACTIONS:
        return {"kind": "make_draw", "index": action - ca.DRAW_BASE}
    return {"kind": "pass"}
