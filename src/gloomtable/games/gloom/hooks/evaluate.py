"""Gloom's evaluation that ends a search rollout, and the rollout itself: a projected
Family Value per player made into win shares (``bots/evaluate.py``'s :func:`shares`).
They read only what the protocol gives (``view``) of a *sampled* state."""

from __future__ import annotations

from gloomtable.bots.evaluate import shares
from gloomtable.engine import State
from gloomtable.games.gloom.view import GloomView, gloom_view

LIVING_WEIGHT = 0.6
"""Share of a living Character's negative Self-Worth a Gloom family can expect to
bank (it still needs an Untimely Death, and the game may end first)."""
GLOOM_SCALE = 12.0


def gloom_projection(view: GloomView) -> list[float]:
    """Family Value banked so far, plus a share of what is still to bank."""
    out = []
    for fam in view["families"]:
        living = sum(min(0, ch["self_worth"]) for ch in fam["characters"] if not ch["dead"])
        out.append(fam["family_value"] + LIVING_WEIGHT * living)
    return out


def gloom(state: State) -> list[float]:
    return shares(gloom_projection(gloom_view(state.view(None))), GLOOM_SCALE)


class GloomRollout:
    """Rollouts in which every seat plays the Gloom heuristic (``medium``) on its
    own view of the sampled state, until the turn after the searching player's
    next turn has begun, so a candidate play is judged by the replies it meets."""

    def __init__(self, seed: int) -> None:
        from gloomtable.games.gloom.hooks.heuristic import GloomHeuristicBot

        self.bot = GloomHeuristicBot(seed)
        self.until = 0

    def begin(self, view: GloomView) -> None:
        self.until = view["turn"] + view["players"]

    def __call__(self, state: State, legal: list[int], rng: object) -> int | None:
        view = gloom_view(state.view(state.current_player()))
        if view["turn"] > self.until:
            return None
        if len(legal) == 1:
            return legal[0]
        return self.bot.choose(view, legal)
