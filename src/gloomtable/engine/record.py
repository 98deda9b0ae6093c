"""Game records: config + seed + actions (+ optional narration), as JSON.

A record is all a game is: replaying its actions from its seed reproduces
every state exactly, which is what saves, crash recovery and replays rely on.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gloomtable.engine.errors import GloomtableError, ReplayError
from gloomtable.engine.protocol import DeckGame, Game, State
from gloomtable.engine.textdata import TextDataError, load_json

FORMAT = "gloomtable-record/1"


@dataclass
class GameRecord:
    game: str
    config: dict[str, Any]
    seed: int
    actions: list[int] = field(default_factory=list)
    narration: dict[int, str] = field(default_factory=dict)
    """Optional narration line per action index (R-G27)."""
    decks: dict[str, dict[str, str]] = field(default_factory=dict)
    """The decks the game was played with, by set name or deck file: ``sha256`` of each,
    and a deck file's whole ``text``, so the record replays without the file (see
    :meth:`of`). Empty in records made before decks were recorded."""

    @classmethod
    def of(cls, game: Game, seed: int, actions: list[int] | None = None) -> GameRecord:
        """A record of a game of ``game``, carrying the decks it was made from when it
        is a :class:`DeckGame`."""
        copies = game.deck_copies if isinstance(game, DeckGame) else {}
        return cls(game.name, game.config_dict(), seed, list(actions or []),
                   decks={k: dict(v) for k, v in copies.items()})

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "config": self.config,
            "seed": self.seed,
            "actions": list(self.actions),
            "narration": {str(k): v for k, v in sorted(self.narration.items())},
            **({"decks": self.decks} if self.decks else {}),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise RecordFormatError("a record must be a JSON object")
        if data.get("format") != FORMAT:
            raise RecordFormatError(f"unknown record format {data.get('format')!r}, expected {FORMAT!r}")
        for key, kind in (("game", str), ("config", dict), ("seed", int), ("actions", list)):
            if not isinstance(data.get(key), kind):
                raise RecordFormatError(f"field {key!r} must be a {kind.__name__}")
        actions = data["actions"]
        for i, a in enumerate(actions):
            if not isinstance(a, int) or isinstance(a, bool):
                raise RecordFormatError(f"actions[{i}] must be an integer, got {a!r}")
        narration_raw = data.get("narration", {})
        if not isinstance(narration_raw, dict):
            raise RecordFormatError("field 'narration' must be an object")
        narration: dict[int, str] = {}
        for k, v in narration_raw.items():
            if not (isinstance(k, str) and k.isdigit() and isinstance(v, str)):
                raise RecordFormatError(f"narration entry {k!r} must map an action index to text")
            narration[int(k)] = v
        decks = data.get("decks", {})
        if not isinstance(decks, dict):
            raise RecordFormatError("field 'decks' must be an object")
        for k, v in decks.items():
            if not (isinstance(v, dict) and isinstance(v.get("sha256"), str)
                    and all(isinstance(x, str) for x in v.values())
                    and set(v) <= {"sha256", "text"}):
                raise RecordFormatError(f"decks entry {k!r} must be an object with a 'sha256' "
                                        "string and, for a deck file, its 'text'")
        return cls(data["game"], data["config"], data["seed"], list(actions), narration, decks)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = load_json(text)
        except TextDataError as exc:
            raise RecordFormatError(str(exc)) from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordFormatError(f"cannot read {path}: {exc.strerror}") from exc
        return cls.from_json(text)


class RecordFormatError(GloomtableError, ValueError):
    """The record file itself is not a record."""


def iter_replay(game: Game, record: GameRecord) -> Iterator[State]:
    """Yield the initial state and the state after each action (the same object,
    mutated: clone it to keep it). Raises :class:`ReplayError` naming the index."""
    state = game.new_initial_state(record.seed)
    yield state
    for i, action in enumerate(record.actions):
        if state.is_over():
            raise ReplayError(i, "the game was already over")
        try:
            state.apply(action)
        except GloomtableError as exc:
            raise ReplayError(i, str(exc)) from exc
        yield state


def replay(game: Game, record: GameRecord, on_state: Callable[[int, State], None] | None = None) -> State:
    """Replay the whole record and return the final state."""
    state: State | None = None
    for i, state in enumerate(iter_replay(game, record)):
        if on_state is not None:
            on_state(i, state)
    assert state is not None
    return state
