"""Gloom actions and cards in words, and where every card is (for people and checks)."""

from __future__ import annotations

from gloomtable.engine import DecisionKind
from gloomtable.games.gloom.actions import Kind
from gloomtable.games.gloom.cards import CardType
from gloomtable.games.gloom.rules.board import Board
from gloomtable.games.gloom.tasks import RESPOND, SETUP_ASIDE


def action_to_string(s: Board, action: int) -> str:
    codec = s.codec
    if not 0 <= action < codec.size:
        return f"<invalid action {action}>"
    dec = codec.decode(action)
    d = s.decision
    if dec.kind is Kind.PASS:
        if d.kind == RESPOND:
            return "let it stand (no response)"
        return "pass" if s.counted_used < 2 else "end the turn (forgo free plays)"
    if dec.kind is Kind.DISCARD_HAND:
        return "discard your whole hand"
    if dec.kind is Kind.CHOOSE_FAMILY:
        fams = s.game.deck.families
        return f"take the family {fams[dec.index].name}" if dec.index < len(fams) else "?"
    if dec.kind is Kind.CHOOSE_PLAYER:
        return f"choose player {dec.index + 1}"
    if dec.kind is Kind.CHOOSE_CARD:
        verb = {DecisionKind.DISCARD: "discard", SETUP_ASIDE: "set aside"}.get(d.kind, "choose")
        return f"{verb} {describe_card(s, dec.card)}"
    if dec.kind is Kind.RESPOND:
        return f"respond with {s.name(dec.card)}"
    if dec.kind is Kind.DISCARD_ONE:
        return f"discard {s.name(dec.card)}"
    if dec.kind is Kind.PLAY_EVENT:
        return f"play the Event {s.name(dec.card)}"
    if dec.kind is Kind.CLAIM_STORY:
        return f"claim the Story {s.name(dec.card)}"
    return f"play {describe_card(s, dec.card)} on {describe_card(s, dec.target)}"


def action_parts(s: Board, action: int) -> tuple[str, str, int] | None:
    """A play on a Character as (what, on whom, whose seat), so clients can ask
    in two steps and list the targets family by family."""
    dec = s.codec.decode(action)
    if dec.kind is not Kind.PLAY:
        return None
    return (f"play {describe_card(s, dec.card)}", describe_card(s, dec.target),
            s.controller[dec.target])


def describe_card(s: Board, c: int) -> str:
    card = s.cards[c]
    if card.type in (CardType.CHARACTER, CardType.GUEST):
        if c in s.stacks:
            owner = s.controller[c]
            whose = "in the middle" if owner < 0 else f"player {owner + 1}"
            return f"{card.name} ({s.self_worth(c):+d}, {whose})"
        return card.name
    pts = [p for p in card.points if p is not None]
    return f"{card.name} ({', '.join(f'{p:+d}' for p in pts)})" if pts else card.name


def locations(s: Board) -> dict[int, str]:
    """Where every card is (for conservation checks): card index -> place."""
    where: dict[int, str] = {}

    def put(c: int, place: str) -> None:
        if c in where:
            raise AssertionError(f"card {c} is both in {where[c]} and {place}")
        where[c] = place

    for p, hand in enumerate(s.hands):
        for c in hand:
            put(c, f"hand{p}")
    for c in s.draw_pile:
        put(c, "draw_pile")
    for c in s.discard:
        put(c, "discard")
    for c in s.limbo:
        put(c, "limbo")
    for c in s.out_of_game:
        put(c, "out")
    for char, stack in s.stacks.items():
        for c in stack:
            put(c, f"stack{char}")
    for story, owner in s.stories.items():
        put(story, "middle" if owner < 0 else f"story{owner}")
    for card in s.cards:
        if card.index not in where:
            if card.type is CardType.CHARACTER:
                put(card.index, "unchosen")
            elif card.type in (CardType.GUEST, CardType.STORY):
                put(card.index, "unused")  # the other side of a chosen or boxed card
    return where
