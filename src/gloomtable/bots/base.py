"""The bot interface: a view, the legal actions and the bot's own seeded RNG in;
an action out. A bot never touches the state, so it cannot cheat."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gloomtable.engine import Rng, State
from gloomtable.engine.hooks import Bot as Bot  # re-exported: what a bot is


class RandomBot:
    """Uniform over the legal actions."""

    name = "random"
    uses_view = False
    quick = True

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
        self.quick = is_quick(inner)

    def choose(self, view: Mapping[str, Any], legal: list[int]) -> int:
        if self.rng.below(1000) < self.slip * 1000:
            return legal[self.rng.below(len(legal))]
        return self.inner.choose(view, legal)


def is_quick(bot: Bot) -> bool:
    """Whether ``bot`` declares itself quick (``quick = True``): each of its decisions,
    the slowest included, takes well under a millisecond, so a server asks it on the
    event loop, where a hand-off to a worker thread would cost more than the choice.
    A bot that does not say so is taken for slow (it may search)."""
    return getattr(bot, "quick", False) is True


def bot_action(bot: Bot, state: State, legal: list[int], view: Mapping[str, Any] | None = None) -> int:
    """Ask ``bot`` for ``state``'s current player. A lone legal action is taken
    without asking, and the view is built only for bots that read it (``view``: that
    seat's view of ``state``, when the caller has built it already)."""
    if len(legal) == 1:
        return legal[0]
    if view is None:
        view = state.view(state.current_player()) if getattr(bot, "uses_view", True) else {}
    return bot.choose(view, legal)


LEVELS = ("random", "easy", "medium", "hard")
"""The level names a player picks from, in every game and client."""

ALIASES = {"sensible": "easy", "heuristic": "medium"}
"""Older names kept working. ``sensible`` and ``heuristic`` still build the very
bots they always did (golden playthroughs depend on them)."""
