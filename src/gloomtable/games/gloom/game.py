"""The Gloom game value: table options + deck (see :mod:`facts`), and its initial states.

A game keeps a copy of every set it was made from (``deck_copies``: each set's SHA-256,
and a deck file's whole text), so a record of it is self-contained: replaying it plays
the recorded deck file, and a shipped set that changed since stops the replay with an
error saying so (docs/architecture.md, "Records").
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from pydantic import ValidationError

from gloomtable.engine import ConfigError
from gloomtable.games.gloom.cards import Deck
from gloomtable.games.gloom.deck import SHIPPED_SETS, combine, parse_deck, read_set
from gloomtable.games.gloom.facts import GloomConfig, GloomFacts
from gloomtable.games.gloom.state import GloomState

__all__ = ["DeckChangedError", "GloomConfig", "GloomGame"]


class DeckChangedError(ConfigError):
    """A record's deck is not the one it was played with (a shipped set changed, or the
    record's own copy of a deck file is damaged)."""


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@lru_cache(maxsize=32)
def _deck_of(texts: tuple[tuple[str, str], ...]) -> Deck:
    """The deck of these sets, as (source, TOML text): kept by content (bounded and
    thread-safe), so a deck file that changed is read as the new deck it is."""
    return combine([parse_deck(text, source) for source, text in texts])


def _set_text(name: str, recorded: Mapping[str, str] | None) -> tuple[str, str, dict[str, str]]:
    """(source, text, copy for records) of the set ``name``, from the record's copy if
    it carries one (a deck file), else read now and checked against the record's hash."""
    if recorded is not None and "text" in recorded:
        text = recorded["text"]
        if sha256(text) != recorded.get("sha256"):
            raise DeckChangedError(f"the record's copy of the deck {name!r} does not match its "
                                   "SHA-256: the record was changed after it was saved")
        return name, text, {"sha256": recorded["sha256"], "text": text}
    source, text = read_set(name)
    digest = sha256(text)
    if recorded is not None and recorded.get("sha256") != digest:
        raise DeckChangedError(
            f"the deck {name!r} changed since this game was recorded (SHA-256 "
            f"{str(recorded.get('sha256'))[:12]}... then, {digest[:12]}... now): replaying it "
            "would play a different game")
    copy = {"sha256": digest} if name in SHIPPED_SETS else {"sha256": digest, "text": text}
    return source, text, copy


class GloomGame(GloomFacts):
    """The Gloom game: its facts (see :class:`GloomFacts`) and the factory of initial states."""

    def __init__(self, config: GloomConfig | None = None, deck: Deck | None = None,
                 name: str = "gloom", decks: Mapping[str, Mapping[str, str]] | None = None) -> None:
        """``decks``: the copies a record carries (see :attr:`deck_copies`)."""
        config = config or GloomConfig()
        self.deck_copies: dict[str, dict[str, str]] = {}
        """Set name or deck file -> {"sha256": ..., "text": ...} (the text for deck files
        only: a shipped set is part of the package). Empty for a deck passed in."""
        if deck is None:
            texts = []
            for s in config.sets:
                source, text, copy = _set_text(s, (decks or {}).get(s))
                texts.append((source, text))
                self.deck_copies[s] = copy
            deck = _deck_of(tuple(texts))
        super().__init__(config, deck, name)

    @classmethod
    def from_dict(cls, data: dict[str, Any], name: str = "gloom",
                  decks: Mapping[str, Mapping[str, str]] | None = None) -> GloomGame:
        try:
            config = GloomConfig.model_validate(data)
        except ValidationError as exc:
            msgs = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'config'}: {e['msg']}"
                             for e in exc.errors())
            raise ConfigError(f"bad Gloom table options: {msgs}") from None
        return cls(config, name=name, decks=decks)

    def new_initial_state(self, seed: int) -> GloomState:
        return GloomState(self, seed)


def make(name: str, config: dict[str, Any], decks: Mapping[str, Mapping[str, str]] | None) -> GloomGame:
    """The registry's factory (``games/registry.py``): Gloom and the games on its rules."""
    return GloomGame.from_dict(config, name=name, decks=decks)
