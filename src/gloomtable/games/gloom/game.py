"""The Gloom game value: table options + deck (see :mod:`facts`), and its initial states."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pydantic import ValidationError

from gloomtable.engine import ConfigError
from gloomtable.games.gloom.deck import Deck, combine, load_deck
from gloomtable.games.gloom.facts import GloomConfig, GloomFacts
from gloomtable.games.gloom.state import GloomState

__all__ = ["GloomConfig", "GloomGame"]

@lru_cache(maxsize=32)
def _deck_for(sets: tuple[str, ...]) -> Deck:
    """The shipped sets ``sets`` as one deck (loaded once: bounded and thread-safe)."""
    return combine([load_deck(s) for s in sets])


class GloomGame(GloomFacts):
    """The Gloom game: its facts (see :class:`GloomFacts`) and the factory of initial states."""

    def __init__(self, config: GloomConfig | None = None, deck: Deck | None = None,
                 name: str = "gloom") -> None:
        config = config or GloomConfig()
        super().__init__(config, deck if deck is not None else _deck_for(config.sets), name)

    @classmethod
    def from_dict(cls, data: dict[str, Any], name: str = "gloom") -> GloomGame:
        if name == "gloomier" and "sets" not in data:
            data = {**data, "sets": ["gloomier"]}
        try:
            return cls(GloomConfig.model_validate(data), name=name)
        except ValidationError as exc:
            msgs = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'config'}: {e['msg']}"
                             for e in exc.errors())
            raise ConfigError(f"bad Gloom table options: {msgs}") from None

    def new_initial_state(self, seed: int) -> GloomState:
        return GloomState(self, seed)
