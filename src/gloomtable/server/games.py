"""Which games the lobby offers and which options its form shows for each.

A game appears only if ``make_game`` can build it here, so a game that is
still being written (or a set that is missing) simply is not offered.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from gloomtable.bots.base import LEVELS
from gloomtable.engine import GloomtableError
from gloomtable.games import make_game, registry
from gloomtable.games.registry import GameEntry


def _form(entry: GameEntry) -> dict[str, Any]:
    """The lobby form of one game, from its registry entry."""
    options = [dict(o) for o in entry.lobby_options]
    if not entry.mixes_sets and len(entry.sets()) > 1:  # variants: gloom serve --sets
        options.append({"key": "sets", "kind": "creature_set"})
    from gloomtable.learn.script import shipped_lessons

    return {"title": entry.title, "players": list(entry.players),
            "default_players": entry.lobby_players, "options": options,
            # what the page asks the registry through the server, instead of knowing names:
            "rules": entry.package, "drawn_rules": entry.rules_pictures is not None,
            "lesson": entry.name in shipped_lessons()}


def seat_range(name: str) -> tuple[int, int] | None:
    """The fewest and most seats the lobby offers for ``name`` (None: a game it does not know)."""
    entry = registry.find(name)
    return None if entry is None else entry.players


def _available(name: str, players: int) -> bool:
    try:
        make_game(name, {"players": players})
    except (GloomtableError, ValueError, ImportError):
        return False
    return True


@lru_cache(maxsize=1)
def games_info() -> dict[str, Any]:
    """The lobby form: each playable game, its seat range, options, bot levels, and the
    sets of each game's deck files (under the field its ``decks`` names) with their
    names per language (a set's id is a file name, not a title)."""
    games = [{"name": e.name, **_form(e)} for e in registry.entries()
             if _available(e.name, e.lobby_players)]
    info: dict[str, Any] = {"games": games, "levels": list(LEVELS)}
    names: dict[str, dict[str, str]] = {}
    for decks in registry.decks():
        offered = decks.offered()
        info[decks.listing] = list(offered)
        for set_id, named in decks.set_names(offered).items():
            names.setdefault(set_id, named)  # the first game's, should two share an id
    info["set_names"] = names
    return info
