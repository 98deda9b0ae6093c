"""One package per game; this module maps game names to their factories."""

from __future__ import annotations

from typing import Any

from gloomtable.engine import ConfigError, Game, State
from gloomtable.engine.record import GameRecord, replay

GAMES = ("gloom", "gloomier", "creatures")


def make_game(name: str, config: dict[str, Any] | None = None,
              decks: dict[str, dict[str, str]] | None = None) -> Game:
    """Build a game by name from a plain config dict (as stored in records); ``decks``:
    the copies of its decks a record carries (:attr:`GameRecord.decks`)."""
    config = dict(config or {})
    if name in ("gloom", "gloomier"):
        from gloomtable.games.gloom.game import GloomGame

        # "gloomier" is Gloom with the Gloomier set by default (R-H1..R-H10).
        return GloomGame.from_dict(config, name=name, decks=decks)
    if name == "creatures":
        from gloomtable.games.creatures.game import CreaturesGame

        return CreaturesGame.from_dict(config)
    raise ConfigError(f"unknown game {name!r}; known games: {', '.join(GAMES)}")


def replay_record(record: GameRecord) -> State:
    """Replay a record by building its game from the record's own name, config and
    decks (a deck that changed since stops it with an error that says so)."""
    return replay(make_game(record.game, record.config, record.decks), record)
