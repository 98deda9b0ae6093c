"""What a lesson step asks for at a Crazy Creatures table (the registry's
``lesson_matcher``; ``learn/guide.py`` asks it through the registry)."""

from __future__ import annotations

from collections.abc import Callable

from gloomtable.engine import State
from gloomtable.engine.hooks import LessonExpect
from gloomtable.games.creatures.view import creatures_view
from gloomtable.learn.guide import LEARNER


def creatures_matcher(state: State, expect: LessonExpect) -> Callable[[int], bool]:
    """What ``expect`` means at a Crazy Creatures table (the registry's ``lesson_matcher``)."""
    from gloomtable.games.creatures import actions as ca

    hand = {c["id"]: c for c in creatures_view(state.view(LEARNER)).get("hand", [])}

    def fits(action: int) -> bool:
        if expect.kind == "pass":
            return action == ca.PASS
        if expect.kind in ("play_creature", "play_dna"):
            card = hand.get(action - ca.PLAY_BASE)
            return card is not None and bool(card.get("dna")) == (expect.kind == "play_dna")
        if expect.kind == "flip":
            return ca.FLIP_BASE <= action < ca.DRAW_BASE
        if expect.kind == "make_draw":
            return ca.DRAW_BASE <= action < ca.NUM_ACTIONS
        if expect.kind == "same_number":  # R-C8: flip a Machine or make another player draw
            return ca.FLIP_BASE <= action < ca.NUM_ACTIONS
        return False

    return fits
