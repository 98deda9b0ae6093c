"""Evaluations that end a search rollout: a projected win share per player.

Both games are won by the lowest score, so each evaluation projects a score per
player and turns the gaps into shares with a logistic curve: against each other
player, ``1 / (1 + exp((mine - theirs) / scale))``, averaged. They read only
what the protocol gives (``view`` and ``snapshot``) of a *sampled* state.
"""

from __future__ import annotations

import math

from gloomtable.engine import State
from gloomtable.games.creatures.view import creatures_view
from gloomtable.games.gloom.view import GloomView, gloom_view

LIVING_WEIGHT = 0.6
"""Share of a living Character's negative Self-Worth a Gloom family can expect to
bank (it still needs an Untimely Death, and the game may end first)."""
GLOOM_SCALE = 12.0
CREATURES_HAND_WEIGHT = 0.8
CREATURES_SCALE = 4.0


def shares(projected: list[float], scale: float) -> list[float]:
    """Lower projected score, higher share; every share in (0, 1)."""
    n = len(projected)
    if n < 2:
        return [1.0] * n
    out = []
    for p in range(n):
        total = 0.0
        for q in range(n):
            if q != p:
                x = max(-50.0, min(50.0, (projected[p] - projected[q]) / scale))
                total += 1.0 / (1.0 + math.exp(x))
        out.append(total / (n - 1))
    return out


def gloom_projection(view: GloomView) -> list[float]:
    """Family Value banked so far, plus a share of what is still to bank."""
    out = []
    for fam in view["families"]:
        living = sum(min(0, ch["self_worth"]) for ch in fam["characters"] if not ch["dead"])
        out.append(fam["family_value"] + LIVING_WEIGHT * living)
    return out


def gloom(state: State) -> list[float]:
    return shares(gloom_projection(gloom_view(state.view(None))), GLOOM_SCALE)


def creatures(state: State) -> list[float]:
    """Totals so far plus most of the penalty still in hand (or -3 for an empty hand)."""
    from gloomtable.games.creatures.cards import PENALTY

    snap = state.snapshot()
    if not any(snap["piles"]):  # a fresh deal: the hands say nothing yet
        return shares([float(t) for t in snap["totals"]], CREATURES_SCALE)
    projected = []
    for total, hand in zip(snap["totals"], snap["hands"], strict=True):
        pen = sum(PENALTY[c] for c in hand)
        projected.append(total + (CREATURES_HAND_WEIGHT * pen if hand else -3))
    return shares(projected, CREATURES_SCALE)


def creatures_rollout(state: State, legal: list[int], rng: object) -> int | None:
    """Rollouts play the quick heuristic and stop when a round is over (a new
    deal leaves every pile empty), so the evaluation reads a finished round."""
    from gloomtable.bots.creatures_heuristic import quick_choice

    view = creatures_view(state.view(state.current_player()))
    if all(not m["pile"] for m in view["machines"]):
        return None
    return quick_choice(view, legal)


class GloomRollout:
    """Rollouts in which every seat plays the Gloom heuristic (``medium``) on its
    own view of the sampled state, until the turn after the searching player's
    next turn has begun, so a candidate play is judged by the replies it meets."""

    def __init__(self, seed: int) -> None:
        from gloomtable.bots.gloom_heuristic import GloomHeuristicBot

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
