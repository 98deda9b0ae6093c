"""The game a view is from, built once (a bounded cache): what every determinizer
starts from, and what a bot reads the table's cards from."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from gloomtable.engine import Game, GloomtableError, State
from gloomtable.engine.hooks import Sampler
from gloomtable.games import make_game, registry


def _game(name: str, config: dict[str, Any]) -> Any:
    return _made(name, json.dumps(config, sort_keys=True))


@lru_cache(maxsize=64)
def _made(name: str, config: str) -> Game:
    """The games views come from, made once each: bounded and thread-safe (the server's
    bot threads share it), keyed by the options as canonical JSON."""
    return make_game(name, json.loads(config))


class ViewDeterminizer(NamedTuple):
    """A game's :class:`~gloomtable.engine.hooks.Determinizer` as two functions."""

    config: Callable[[Mapping[str, Any]], dict[str, Any]]
    """The game's config, as far as a view of it shows."""
    sampler: Callable[[Mapping[str, Any]], Sampler | None]
    """A sampler for a view at its seat's decision, or None."""
    resample: Callable[[State, int, int], State]
    """(state, player, seed) -> a state the player cannot tell from it, hidden cards dealt anew."""


def game_for_view(view: Mapping[str, Any]) -> Any:
    """The game a view is from, built from what the view shows (cached). A view that
    names no known game is read as Gloom's; a config its own game refuses, as the
    config of the game whose rules it plays (``GameEntry.package``)."""
    entry = registry.find(view.get("game")) or registry.entry("gloom")
    config = entry.view_config(view)
    try:
        return _game(entry.name, config)
    except GloomtableError:
        if entry.package == entry.name:
            raise
        return _game(entry.package, config)
