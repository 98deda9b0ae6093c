"""Lasting effects: what continuous and persistent effects hold for a player now.

Rules: R-G18 (a continuous effect holds while its card's text shows), R-G19 (a
persistent effect holds while a region its card names shows, see
:meth:`cards.Visible.lasting_steps`), R-G22 (the beginner game ignores every
effect), R-H5 (a Story's continuous effects hold for whoever holds it), R-H8 (a
Guest's effects hold for the family it joined).
"""

from __future__ import annotations

from gloomtable.games.gloom.cards import Step
from gloomtable.games.gloom.rules.board import Board


def held_steps(s: Board, p: int) -> list[Step]:
    """Lasting effect steps that apply to ``p`` now: live continuous and persistent
    effects on their living Characters and Guests (R-G18, R-G19, R-H8) and the
    continuous effects of their Story (R-H5). A dead Character's stack is set
    aside, so its effects no longer hold. (Without Guests or Stories on the table,
    kept in ``s.seen`` while no stack holding a lasting card changes: the draw limit
    asks this at the end of every turn.)"""
    if s.facts.beginner:
        return []
    if s.guests or s.stories:
        return _held_by(s, p, s.members(p) if s.guests else s.families[p])
    family = s.families[p]
    seen = s.seen
    if seen.stacks is not s.stacks:
        return _held_by(s, p, family)
    kept = seen.held.get(p)
    if kept is not None and kept[0] is family:
        return kept[1]
    steps = _held_by(s, p, family)
    seen.keep_held(p, family, steps, s.facts.lasting_cards)
    return steps


def _held_by(s: Board, p: int, members: list[int]) -> list[Step]:
    """:func:`held_steps` worked out afresh for ``p``'s ``members``."""
    steps: list[Step] = []
    stacks, deaths = s.stacks, s.facts.deaths
    lasting_cards = s.facts.lasting_cards
    for c in members:  # the living ones (inlined: this runs every turn)
        stack = stacks[c]
        if stack[-1] in deaths or lasting_cards.isdisjoint(stack):
            continue  # dead, or no card in the stack has a lasting effect to show
        lasting = s.visible_of(c).lasting_steps
        if lasting:
            steps.extend(lasting)
    story = s.story_of(p) if s.stories else -1
    if story >= 0:
        for effect in s.cards[story].effects_when("continuous"):
            steps.extend(effect.steps)
    return steps
