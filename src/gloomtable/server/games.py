"""Which games the lobby offers and which options its form shows for each.

A game appears only if ``make_game`` can build it here, so a game that is
still being written (or a set that is missing) simply is not offered.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from gloomtable.bots.base import LEVELS
from gloomtable.engine import GloomtableError
from gloomtable.games import make_game

_FORMS: dict[str, dict[str, Any]] = {
    "gloom": {"title": "Gloom", "players": [2, 5], "default_players": 3,
              "options": [
                  {"key": "sets", "kind": "sets"},
                  {"key": "edition", "kind": "choice", "label": "Edition", "values": [2, 1], "default": 2},
                  {"key": "beginner", "kind": "bool", "label": "Beginner (no card effects)",
                   "default": False}]},
    "gloomier": {"title": "Gloomier: A Night at Hemlock Hall", "players": [2, 5], "default_players": 3,
                 "options": [
                     {"key": "stories_guests", "kind": "choice", "label": "Stories and Guests in the middle",
                      "values": [2, 1, 0], "default": 2},
                     {"key": "edition", "kind": "choice", "label": "Edition", "values": [2, 1],
                      "default": 2},
                     {"key": "beginner", "kind": "bool", "label": "Beginner (no card effects)",
                      "default": False}]},
    "creatures": {"title": "Crazy Creatures of Dr. Gloom", "players": [2, 4], "default_players": 3,
                  "options": []},
}


def seat_range(name: str) -> tuple[int, int] | None:
    """The fewest and most seats the lobby offers for ``name`` (None: a game it does not know)."""
    form = _FORMS.get(name)
    return None if form is None else (form["players"][0], form["players"][1])


def _available(name: str, players: int) -> bool:
    try:
        make_game(name, {"players": players})
    except (GloomtableError, ValueError, ImportError):
        return False
    return True


@lru_cache(maxsize=1)
def games_info() -> dict[str, Any]:
    """The lobby form: each playable game, its seat range, options, bot levels and sets."""
    from gloomtable.games.creatures.cards import registered_sets

    games = []
    for name, form in _FORMS.items():
        if _available(name, form["default_players"]):
            if name == "creatures" and len(registered_sets()) > 1:  # variants: gloom serve --sets
                form = {**form, "options": [*form["options"], {"key": "sets", "kind": "creature_set"}]}
            games.append({"name": name, **form})
    sets = []
    try:
        from gloomtable.games.gloom.deck import SHIPPED_SETS
        for s in SHIPPED_SETS:
            if _available("gloom", 3) and _set_loads(s):
                sets.append(s)
    except ImportError:
        sets = ["classic"]
    return {"games": games, "levels": list(LEVELS), "gloom_sets": sets,
            "creature_sets": list(registered_sets())}


def _set_loads(set_id: str) -> bool:
    try:
        make_game("gloom", {"players": 3, "sets": [set_id]})
    except (GloomtableError, ValueError):
        return False
    return True
