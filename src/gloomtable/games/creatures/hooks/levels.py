"""Crazy Creatures' bots by level (the registry's ``bots``; docs/bots.md has the
table): ``easy`` the heuristic playing at random in 30% of its decisions, ``medium``
the heuristic, ``hard`` ISMCTS once the hands run short."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gloomtable.bots.base import Bot, CarelessBot
from gloomtable.bots.levels import SearchSettings
from gloomtable.engine import DecisionKind
from gloomtable.games.creatures.view import creatures_view

CREATURES_HARD: SearchSettings = {"iterations": 100, "rollout_steps": 80, "root_width": 0, "exploration": 0.7,
                  "max_depth": 1}
CREATURES_ENDGAME = 6
"""The Creatures search runs once a hand holds this many cards or fewer, where
rollouts to the end of the round are short and sharp."""


def creatures_endgame(view: Mapping[str, Any], legal: list[int]) -> bool:
    v = creatures_view(view)
    return v["decision"] == DecisionKind.SAME_NUMBER or min(v["hand_counts"]) <= CREATURES_ENDGAME


def creatures_bot(level: str, seed: int) -> Bot | None:
    """Crazy Creatures' bot of ``level`` (the registry's ``bots``)."""
    from gloomtable.games.creatures.hooks.heuristic import CreaturesHeuristicBot

    if level in ("easy", "sensible"):
        return CarelessBot(CreaturesHeuristicBot(seed), seed)
    if level in ("medium", "heuristic"):
        return CreaturesHeuristicBot(seed)
    if level == "hard":
        from gloomtable.bots.ismcts import ISMCTSBot
        from gloomtable.games.creatures.hooks.evaluate import creatures, creatures_rollout

        return ISMCTSBot(seed, creatures, CreaturesHeuristicBot(seed), name="hard",
                         rollout=creatures_rollout, gate=creatures_endgame,
                         **CREATURES_HARD)
    return None
