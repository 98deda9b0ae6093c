"""Gloom and Gloomier's bots by level (the registry's ``bots``; docs/bots.md has the
table): ``easy`` the sensible player, ``medium`` the heuristic, ``hard`` ISMCTS
searching among the heuristic's best few plays when its two best are close."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gloomtable.bots.base import Bot
from gloomtable.bots.levels import SearchSettings

GLOOM_HARD: SearchSettings = {"iterations": 40, "rollout_steps": 40, "root_width": 4,
                              "exploration": 0.5, "max_depth": 1}
GLOOM_GAP = 2.0
"""The Gloom search runs when the heuristic's two best scores are this close."""


def gloom_bot(level: str, seed: int) -> Bot | None:
    """Gloom and Gloomier's bot of ``level`` (the registry's ``bots``)."""
    from gloomtable.games.gloom.hooks.heuristic import GloomHeuristicBot
    from gloomtable.games.gloom.hooks.sensible import GloomSensibleBot

    if level in ("easy", "sensible"):
        return GloomSensibleBot(seed)
    if level in ("medium", "heuristic"):
        return GloomHeuristicBot(seed)
    if level == "hard":
        from gloomtable.bots.ismcts import ISMCTSBot
        from gloomtable.games.gloom.hooks.evaluate import GloomRollout, gloom

        heuristic = GloomHeuristicBot(seed)

        def close_call(view: Mapping[str, Any], legal: list[int]) -> bool:
            top = sorted(heuristic.scores(view, legal), reverse=True)
            return top[0] - top[1] < GLOOM_GAP

        return ISMCTSBot(seed, gloom, heuristic, prior=heuristic.rank, name="hard", gate=close_call,
                         rollout=GloomRollout(seed + 1),
                         **GLOOM_HARD)
    return None
