"""One package per game; :mod:`gloomtable.games.registry` maps game names to them."""

from __future__ import annotations

from typing import Any

from gloomtable.engine import Game, State
from gloomtable.engine.record import GameRecord, replay
from gloomtable.games import registry

GAMES = registry.names()
"""The games shipped (a game registered later is in :func:`registry.names`)."""


def make_game(name: str, config: dict[str, Any] | None = None,
              decks: dict[str, dict[str, str]] | None = None) -> Game:
    """Build a game by name from a plain config dict (as stored in records); ``decks``:
    the copies of its decks a record carries (:attr:`GameRecord.decks`). An unknown
    name is a :class:`ConfigError` naming the known games."""
    return registry.entry(name).make(dict(config or {}), decks)


def replay_record(record: GameRecord) -> State:
    """Replay a record by building its game from the record's own name, config and
    decks (a deck that changed since stops it with an error that says so)."""
    return replay(make_game(record.game, record.config, record.decks), record)
