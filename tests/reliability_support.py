"""Helpers shared by the reliability tests (issue 9): profile sizes and which
games exist right now, so the fuzzers pick up new games as they land."""

from __future__ import annotations

import json
import sqlite3
from functools import cache
from typing import Any

from gloomtable.engine import ConfigError, GloomtableError
from gloomtable.games import make_game
from scale import scaled as scaled  # the suite's size or the soak's (tests/scale.py)


@cache
def playable(name: str, config_items: tuple[tuple[str, Any], ...]) -> bool:
    """Whether ``make_game`` accepts this game and config (a refusal must be a ConfigError)."""
    try:
        make_game(name, dict(config_items))
    except ConfigError:
        return False
    except (GloomtableError, OSError):  # a set that is not (fully) shipped yet
        return False
    return True


def can_play(name: str, config: dict[str, Any]) -> bool:
    return playable(name, tuple(sorted((k, tuple(v) if isinstance(v, list) else v)
                                       for k, v in config.items())))


def valid_players(name: str, config: dict[str, Any], candidates: range = range(2, 9)) -> list[int]:
    """Seat counts ``make_game`` accepts for this game and config."""
    return [n for n in candidates if can_play(name, {**config, "players": n})]


def gloom_set_choices() -> list[tuple[str, ...]]:
    """The Gloom set combinations that can be played now: classic always; Gloomier
    alone and mixed with classic once the set ships (R-H10)."""
    out = [("classic",)]
    for sets in (("gloomier",), ("classic", "gloomier")):
        if can_play("gloom", {"sets": list(sets), "players": 2}):
            out.append(sets)
    return out


def stored(db: str) -> dict[str, tuple[str, dict[str, Any], int, list[int]]]:
    """Every table in the SQLite file: game, config, seed and the stored actions."""
    conn = sqlite3.connect(db, timeout=30)
    try:
        out = {}
        for tid, game, config, seed in conn.execute("SELECT id, game, config, seed FROM tables"):
            acts = [a for (a,) in conn.execute(
                "SELECT action FROM actions WHERE table_id=? ORDER BY idx", (tid,))]
            out[tid] = (game, json.loads(config), seed, acts)
        return out
    finally:
        conn.close()
