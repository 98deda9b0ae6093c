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
    """The lobby form: each playable game, its seat range, options, bot levels and sets."""
    from gloomtable.games.creatures.cards import registered_sets

    games = [{"name": e.name, **_form(e)} for e in registry.entries()
             if _available(e.name, e.lobby_players)]
    sets = []
    try:
        from gloomtable.games.gloom.deck import SHIPPED_SETS, shipped_sets
        for s in shipped_sets():
            # a deck of gloom serve --sets was checked when registered; it may be meant
            # only for mixing, so it need not seat a table alone
            if _available("gloom", 3) and (s not in SHIPPED_SETS or _set_loads(s)):
                sets.append(s)
    except ImportError:
        sets = ["classic"]
    return {"games": games, "levels": list(LEVELS), "gloom_sets": sets,
            "creature_sets": list(registered_sets()), "set_names": _set_names(sets, registered_sets())}


def _set_names(gloom_sets: list[str], creature_sets: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """Each offered set's name per language, for the lobby's labels (a set's id is a
    file name, not a title): a Gloom set's from its deck file and translation files, a
    Crazy Creatures set's from its set file (a variant names itself in its own words)."""
    from gloomtable.games.creatures.cards import set_named
    from gloomtable.games.gloom.deck import SETS_PACKAGE, load_deck
    from gloomtable.i18n import LANGUAGES
    from gloomtable.i18n.cards import read_translation

    names: dict[str, dict[str, str]] = {}
    for set_id in gloom_sets:
        deck = load_deck(set_id)
        names[set_id] = {"en": deck.name}
        for lang in LANGUAGES:
            name = read_translation(deck.source, lang, SETS_PACKAGE).get("set", {}).get("name")
            if lang != "en" and isinstance(name, str) and name:
                names[set_id][lang] = name
    for set_id in creature_sets:
        names.setdefault(set_id, {"en": set_named(set_id).name})
    return names


def _set_loads(set_id: str) -> bool:
    try:
        make_game("gloom", {"players": 3, "sets": [set_id]})
    except (GloomtableError, ValueError):
        return False
    return True
