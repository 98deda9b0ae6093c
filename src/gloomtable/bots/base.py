"""The bot interface: a view, the legal actions and the bot's own seeded RNG in;
an action out. A bot never touches the state, so it cannot cheat."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from gloomtable.engine import ConfigError, Rng, State


class Bot(Protocol):
    name: str
    uses_view: bool
    """False lets a driver skip building the view (the random bot needs none)."""

    def choose(self, view: Mapping[str, Any], legal: list[int]) -> int:
        """``view``: the deciding seat's view (``State.view``), empty for a bot that
        does not read it; a bot of one game reads it as that game's typed view."""
        ...


class RandomBot:
    """Uniform over the legal actions."""

    name = "random"
    uses_view = False

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, view: Mapping[str, Any], legal: list[int]) -> int:
        return legal[self.rng.below(len(legal))]


class CarelessBot:
    """Another bot that now and then (``slip`` of its decisions) plays at random:
    an easier opponent with the same judgement the rest of the time."""

    uses_view = True

    def __init__(self, inner: Bot, seed: int, slip: float = 0.3, name: str = "easy") -> None:
        self.inner = inner
        self.rng = Rng(seed ^ 0x5EED)
        self.slip = slip
        self.name = name

    def choose(self, view: Mapping[str, Any], legal: list[int]) -> int:
        if self.rng.below(1000) < self.slip * 1000:
            return legal[self.rng.below(len(legal))]
        return self.inner.choose(view, legal)


def bot_action(bot: Bot, state: State, legal: list[int]) -> int:
    """Ask ``bot`` for ``state``'s current player. A lone legal action is taken
    without asking, and the view is built only for bots that read it."""
    if len(legal) == 1:
        return legal[0]
    view = state.view(state.current_player()) if getattr(bot, "uses_view", True) else {}
    return bot.choose(view, legal)


LEVELS = ("random", "easy", "medium", "hard")
"""The level names a player picks from, in every game and client."""

ALIASES = {"sensible": "easy", "heuristic": "medium"}
"""Older names kept working. ``sensible`` and ``heuristic`` still build the very
bots they always did (golden playthroughs depend on them)."""


def make_bot(level: str, game: str, seed: int) -> Bot:
    """A bot by level name (see :data:`LEVELS`, docs/bots.md) for a game.

    ``random`` is uniform; ``easy`` the plain rule-of-thumb player; ``medium``
    the stronger heuristic; ``hard`` an ISMCTS search over sampled hidden cards."""
    from gloomtable.bots.levels import build

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
