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
    aside, so its effects no longer hold."""
    if s.game.beginner:
        return []
    steps: list[Step] = []
    stacks, deaths = s.stacks, s.game.deaths
    lasting_cards = s.game.lasting_cards
    members = s.members(p) if s.guests else s.families[p]
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
