"""What a lesson step asks for at a Gloom or Gloomier table (the registry's
``lesson_matcher``; ``learn/guide.py`` asks it through the registry)."""

from __future__ import annotations

from collections.abc import Callable

from gloomtable.engine import DecisionKind, State
from gloomtable.engine.hooks import LessonExpect
from gloomtable.games.gloom.state import GloomState
from gloomtable.games.gloom.view import gloom_view
from gloomtable.learn.guide import LEARNER


def gloom_matcher(state: State, expect: LessonExpect) -> Callable[[int], bool]:
    """What ``expect`` means at a Gloom or Gloomier table (the registry's ``lesson_matcher``)."""
    from gloomtable.games.gloom.actions import Kind
    from gloomtable.games.gloom.cards import Card, CardType

    if not isinstance(state, GloomState):
        raise TypeError(f"not a Gloom state: {type(state).__name__}")

    codec, cards = state.codec, state.cards
    view = gloom_view(state.view(LEARNER))
    decision = None if view["decision"] is None else view["decision"]["kind"]
    chars = {c["card"]: c for fam in view["families"] for c in fam["characters"]}
    simple = {"choose_family": Kind.CHOOSE_FAMILY, "respond": Kind.RESPOND, "pass": Kind.PASS,
              "discard_hand": Kind.DISCARD_HAND, "claim_story": Kind.CLAIM_STORY,
              "choose_player": Kind.CHOOSE_PLAYER, "play_event": Kind.PLAY_EVENT}

    def fits(action: int) -> bool:
        d = codec.decode(action)
        if expect.kind == "draft":
            return d.kind == Kind.CHOOSE_CARD and decision == DecisionKind.CHOOSE_CHARACTER
        if expect.kind == "choose_card":
            return d.kind == Kind.CHOOSE_CARD and decision != DecisionKind.CHOOSE_CHARACTER
        if expect.kind in simple:
            if d.kind != simple[expect.kind]:
                return False
            return expect.card is None or _card_kind(cards[d.card]) == expect.card
        if expect.kind != "play" or d.kind != Kind.PLAY:
            return False
        card = cards[d.card]
        if expect.card is not None and _card_kind(card) != expect.card:
            return False
        char = chars.get(d.target)
        owner = None if char is None else char["controller"]
        if (expect.target == "own" and owner != LEARNER) or (expect.target == "other" and owner == LEARNER):
            return False
        printed = [p for p in card.points if p is not None]
        if expect.points == "negative" and not (printed and sum(printed) < 0):
            return False
        if expect.points == "positive" and not (printed and sum(printed) > 0):
            return False
        showing = [None, None, None] if char is None else char["points"]
        if expect.covers and not any(p is not None and s is not None
                                     for p, s in zip(card.points, showing, strict=False)):
            return False
        if expect.effect and not card.effects:
            return False
        return not (expect.negative_target and (0 if char is None else char["self_worth"]) >= 0)

    def _card_kind(card: Card) -> str:
        if card.type == CardType.EVENT and card.effects_when("response"):
            return "response"
        return str(card.type.value)

    return fits
