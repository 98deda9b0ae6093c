"""Stories and Guests (Gloomier).

Rules: R-H4 (claiming a Story is a play), R-H5 (claim a Story whose requirement
your family shows, with more of its icons than the current holder; one Story at a
time; its immediate effects happen on claiming), R-H6 (Guests and Stories in the
middle belong to nobody), R-H7 (a Guest follows the cards it names to a family),
R-H8 and R-H9 (see :mod:`lasting` and :mod:`scoring`).
"""

from __future__ import annotations

import gloomtable.games.gloom.messages as M
from gloomtable.games.gloom.cards import Card, Step
from gloomtable.games.gloom.effects import FOLLOWS
from gloomtable.games.gloom.rules.board import Board
from gloomtable.games.gloom.tasks import UNCONTROLLED, Ctx, Task


def can_claim(s: Board, p: int, story: int) -> bool:
    """R-H5: ``p`` meets the requirement, and shows more of its icons than the
    current holder when another player holds it."""
    owner = s.stories[story]
    if owner == p:
        return False
    req = s.cards[story].requires
    for icon, n in req:
        if s.shown_icons(p, (icon,)) < n:
            return False
    if owner >= 0:
        icons = tuple(i for i, _ in req)
        return s.shown_icons(p, icons) > s.shown_icons(owner, icons)
    return True


def claim_problem(s: Board, p: int, story: int) -> str:
    """Why ``p`` may not claim ``story`` (R-H5), when :func:`can_claim` says no."""
    if story not in s.stories:
        return f"{s.name(story)} is not a Story in play"
    if s.stories[story] == p:
        return f"player {p + 1} already holds {s.name(story)}"
    need = ", ".join(f"{n} {i}" for i, n in s.cards[story].requires)
    owner = s.stories[story]
    more = f", and more of those icons than player {owner + 1} shows" if owner >= 0 else ""
    return f"{s.name(story)} needs your family to show {need}{more} (R-H5)"


def claim(s: Board, p: int, story: int) -> None:
    """R-H5: ``p`` takes ``story`` (returning the one they held to the middle), and its
    immediate effects happen."""
    owner = s.stories[story]
    old = s.story_of(p)
    if old >= 0:
        s.stories[old] = UNCONTROLLED
        s.emit("story_returned", M.STORY_RETURNED, (old,), player=p, card=old)
    s.stories[story] = p
    if owner >= 0:
        s.emit("claim", M.CLAIM_FROM, (p, story, owner), player=p, card=story)
    else:
        s.emit("claim", M.CLAIM, (p, story), player=p, card=story)
    if not s.facts.beginner:
        for effect in s.cards[story].effects_when("immediate"):
            s.push_steps(Ctx(p, story, -1, ()), effect.steps)


def _follows_card(steps: tuple[Step, ...], card: Card) -> bool:
    """Whether a Guest's persistent steps follow ``card`` (the registry's hook, R-H7)."""
    for st in steps:
        hook = FOLLOWS.get(st.name)
        if hook is not None and hook(st.param, card):
            return True
    return False


def follow(s: Board, task: Task) -> None:
    """R-H7: after a card resolves on a Character, each Guest whose live persistent
    'follows' matches it joins that Character's family with its whole stack.
    **Decision:** nothing moves when the Character is itself in the middle, and a dead
    Guest never moves, even under a Death that leaves its persistent icon showing
    (R-H7 refined, for mixed sets)."""
    if s.over or s.facts.beginner:
        return
    ctx = task.ctx
    card = s.cards[ctx.card]
    dest = s.controller.get(ctx.target, UNCONTROLLED)
    if dest < 0:
        return
    for g in s.guests:
        if g == ctx.target or s.controller[g] == dest or s.is_dead(g):
            continue
        for effect in s.visible_of(g).live_effects("persistent"):
            if _follows_card(effect.steps, card):
                old = s.controller[g]
                s.controller[g] = dest
                if old < 0:
                    s.emit("follow", M.FOLLOW_FROM_MIDDLE, (g, ctx.card, dest), player=dest,
                           card=g, target=ctx.target)
                else:
                    s.emit("follow", M.FOLLOW, (g, ctx.card, old, dest), player=dest, card=g,
                           target=ctx.target)
                break
