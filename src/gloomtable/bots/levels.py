"""Which bot each level name builds, per game (docs/bots.md has the table).

- ``random``: uniform over the legal actions.
- ``easy``: the plain rule-of-thumb player (Gloom: ``sensible``; Creatures: the
  heuristic bot playing at random in 30% of its decisions).
- ``medium``: the best heuristic of the game.
- ``hard``: ISMCTS over sampled hidden cards, searching among the heuristic's
  best few choices, falling back on the heuristic where a position cannot be
  sampled. Its budget is a number of iterations (deterministic), well under 1 s
  per decision on the project's machine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

from gloomtable.bots.base import ALIASES, LEVELS, Bot, CarelessBot, RandomBot
from gloomtable.engine import ConfigError, DecisionKind
from gloomtable.games import registry
from gloomtable.games.creatures.view import creatures_view


class SearchSettings(TypedDict):
    """The search bot's settings for a level (keywords of :class:`ISMCTSBot`)."""

    iterations: int
    rollout_steps: int
    root_width: int
    exploration: float
    max_depth: int


GLOOM_HARD: SearchSettings = {"iterations": 40, "rollout_steps": 40, "root_width": 4,
                              "exploration": 0.5, "max_depth": 1}
GLOOM_GAP = 2.0
"""The Gloom search runs when the heuristic's two best scores are this close."""
CREATURES_HARD: SearchSettings = {"iterations": 100, "rollout_steps": 80, "root_width": 0, "exploration": 0.7,
                  "max_depth": 1}
CREATURES_ENDGAME = 6
"""The Creatures search runs once a hand holds this many cards or fewer, where
rollouts to the end of the round are short and sharp."""


def creatures_endgame(view: Mapping[str, Any], legal: list[int]) -> bool:
    v = creatures_view(view)
    return v["decision"] == DecisionKind.SAME_NUMBER or min(v["hand_counts"]) <= CREATURES_ENDGAME


def gloom_bot(level: str, seed: int) -> Bot | None:
    """Gloom and Gloomier's bot of ``level`` (the registry's ``bots``)."""
    from gloomtable.bots.gloom_heuristic import GloomHeuristicBot
    from gloomtable.bots.gloom_sensible import GloomSensibleBot

    if level in ("easy", "sensible"):
        return GloomSensibleBot(seed)
    if level in ("medium", "heuristic"):
        return GloomHeuristicBot(seed)
    if level == "hard":
        from gloomtable.bots.evaluate import GloomRollout, gloom
        from gloomtable.bots.ismcts import ISMCTSBot

        heuristic = GloomHeuristicBot(seed)

        def close_call(view: Mapping[str, Any], legal: list[int]) -> bool:
            top = sorted(heuristic.scores(view, legal), reverse=True)
            return top[0] - top[1] < GLOOM_GAP

        return ISMCTSBot(seed, gloom, heuristic, prior=heuristic.rank, name="hard", gate=close_call,
                         rollout=GloomRollout(seed + 1),
                         **GLOOM_HARD)
    return None


def creatures_bot(level: str, seed: int) -> Bot | None:
    """Crazy Creatures' bot of ``level`` (the registry's ``bots``)."""
    from gloomtable.bots.creatures_heuristic import CreaturesHeuristicBot

    if level in ("easy", "sensible"):
        return CarelessBot(CreaturesHeuristicBot(seed), seed)
    if level in ("medium", "heuristic"):
        return CreaturesHeuristicBot(seed)
    if level == "hard":
        from gloomtable.bots.evaluate import creatures, creatures_rollout
        from gloomtable.bots.ismcts import ISMCTSBot

        return ISMCTSBot(seed, creatures, CreaturesHeuristicBot(seed), name="hard",
                         rollout=creatures_rollout, gate=creatures_endgame,
                         **CREATURES_HARD)
    return None


def build(level: str, game: str, seed: int) -> Bot | None:
    """The bot for ``level`` in ``game``, or None if the name is unknown."""
    if level == "random":
        return RandomBot(seed)
    entry = registry.find(game)
    return None if entry is None else entry.bot(level, seed)


def make_bot(level: str, game: str, seed: int) -> Bot:
    """A bot by level name (see :data:`LEVELS`, docs/bots.md) for a game.

    ``random`` is uniform; ``easy`` the plain rule-of-thumb player; ``medium``
    the stronger heuristic; ``hard`` an ISMCTS search over sampled hidden cards."""
    bot = build(level, game, seed)
    if bot is None:
        names = ", ".join([*LEVELS, *ALIASES])
        raise ConfigError(f"unknown bot level {level!r} for {game}; known levels: {names}")
    return bot


def seat_bots(levels: str, game: str, seed: int, seats: list[int]) -> dict[int, Bot]:
    """Bots for ``seats`` from ``"medium"`` or ``"medium,hard,..."`` (one level per
    seat in order, the list repeating if short). Bot seeds are ``seed * 31 + seat``,
    as every driver uses."""
    names = [x.strip() for x in levels.split(",") if x.strip()] or ["random"]
    return {p: make_bot(names[i % len(names)], game, seed * 31 + p) for i, p in enumerate(seats)}
