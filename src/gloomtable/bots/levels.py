"""Which bot each level name builds (docs/bots.md has the table).

- ``random``: uniform over the legal actions (here, for every game).
- ``easy``: the plain rule-of-thumb player of the game.
- ``medium``: the best heuristic of the game.
- ``hard``: ISMCTS over sampled hidden cards, searching among the heuristic's
  best few choices, falling back on the heuristic where a position cannot be
  sampled. Its budget is a number of iterations (deterministic), well under 1 s
  per decision on the project's machine.

Every level but ``random`` is the game's own (its registry entry's ``bots``, from its
package: ``games/<game>/hooks/levels.py`` for the shipped games).
"""

from __future__ import annotations

from typing import TypedDict

from gloomtable.bots.base import ALIASES, LEVELS, Bot, RandomBot
from gloomtable.engine import ConfigError
from gloomtable.games import registry


class SearchSettings(TypedDict):
    """The search bot's settings for a level (keywords of :class:`ISMCTSBot`)."""

    iterations: int
    rollout_steps: int
    root_width: int
    exploration: float
    max_depth: int


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
