"""What the page draws of a Gloom choice (the registry's ``presenter``): the action as
its codec decodes it, so the page can highlight the card played and its target."""

from __future__ import annotations

from typing import Any

from gloomtable.engine import State
from gloomtable.games.gloom.state import GloomState


def codec_choice(state: State, action: int) -> dict[str, Any]:
    """Gloom's choice as its action codec decodes it: kind, card, target, index."""
    if not isinstance(state, GloomState):
        raise TypeError(f"not a Gloom state: {type(state).__name__}")
    dec = state.codec.decode(action)
    item: dict[str, Any] = {"kind": dec.kind.name.lower()}
    if dec.card >= 0:
        item["card"] = dec.card
    if dec.target >= 0:
        item["target"] = dec.target
    if dec.index >= 0:
        item["index"] = dec.index
    return item
