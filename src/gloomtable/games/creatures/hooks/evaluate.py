"""Crazy Creatures' evaluation that ends a search rollout, and the rollout itself: the
totals so far plus most of the penalty still in hand, made into win shares
(``bots/evaluate.py``'s :func:`shares`). They read only what the protocol gives
(``view`` and ``snapshot``) of a *sampled* state."""

from __future__ import annotations

from gloomtable.bots.evaluate import shares
from gloomtable.engine import State
from gloomtable.games.creatures.view import creatures_view

CREATURES_HAND_WEIGHT = 0.8
CREATURES_SCALE = 4.0


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
    from gloomtable.games.creatures.hooks.heuristic import quick_choice

    view = creatures_view(state.view(state.current_player()))
    if all(not m["pile"] for m in view["machines"]):
        return None
    return quick_choice(view, legal)
