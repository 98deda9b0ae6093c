"""What a lobby request may ask for, validated before any table exists.

Table options (seats, timers, bots, listing) belong to the server; game
options (``config``) belong to the game and are checked by ``make_game``
itself, so a new game option needs no change here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from gloomtable.bots.base import LEVELS
from gloomtable.engine import ConfigError

NAME_MAX = 40
CONFIG_KEYS_MAX = 16
"""Game options one table may name (every game has fewer)."""
CONFIG_KEY_MAX = 32
"""Characters in one option's name."""
CONFIG_TEXT_MAX = 64
"""Characters in one text option (an edition, a set name, ...)."""
CONFIG_LIST_MAX = 16
"""Items in one list option (``sets``: each shipped set at most once)."""
CONFIG_NUMBER_MAX = 1_000_000
"""The largest number an option may hold (the games bound their own options tighter)."""


def clean_name(text: str, limit: int = NAME_MAX) -> str:
    """A display name or narration line: control characters dropped, spaces
    collapsed, cut to ``limit``. (Escaping is the page's job: it uses textContent.)"""
    kept = "".join(ch if ch.isprintable() else " " for ch in text)
    return " ".join(kept.split())[:limit]


class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["person", "open", "bot"] = "person"
    """``person``: a seat given out by its invite link, reserved from creation;
    ``open``: a seat anyone may take with the lobby's Join (listed tables only);
    ``bot``: the server plays it."""
    level: str = "random"
    """The bot's level; for a person, the level of the bot that stands in for them."""
    name: str = Field("", max_length=200)

    @field_validator("level")
    @classmethod
    def _known_level(cls, v: str) -> str:
        if v not in LEVELS:
            raise ValueError(f"unknown bot level {v!r}; levels: {', '.join(LEVELS)}")
        return v


class TableOptions(BaseModel):
    """The server's options of a table, stored with it (``tables.options``, beside the
    keys the lobby adds: open seats, uploaded decks, lesson, fixed deal). Their
    defaults live here only: a stored table that lacks a key reads it from here."""

    model_config = ConfigDict(extra="forbid")

    spectators: bool = True
    turn_timer: int = Field(0, ge=0, le=3600)
    """Seconds a person has for a decision; 0 = no timer."""
    on_timeout: Literal["pass", "bot"] = "bot"
    """When the timer runs out: pass if passing is legal (else a random bot plays), or a bot plays."""
    bot_delay_ms: int = Field(700, ge=0, le=10_000)
    """How long a bot waits before its play, so people can follow."""
    response_pause_ms: int = Field(2500, ge=500, le=30_000)
    """The one pause in which every other seat may answer a card being played (R-G20):
    the window closes when it ends, or sooner once every person present has answered."""
    replace_absent: bool = False
    """A bot plays for a person whose page has been gone for ``absent_after`` seconds."""
    absent_after: float = Field(20.0, ge=0.0, le=3600.0)
    rated: bool = True
    """Ratings move when it ends between accounts (docs/server.md, server/ratings.py)."""
    rated_bots: bool = False
    """Bots count as rated players of fixed strength (else a bot seat makes it unrated)."""
    talk: bool = True
    """The seats may talk (the table talk panel: docs/server.md, "Table talk")."""
    spectator_talk: bool = False
    """Spectators have a talk panel of their own (never the seats')."""
    talk_in_record: bool = False
    """The seats' talk is part of the finished table's chronicle (its downloads too)."""

    @classmethod
    def stored(cls, options: Mapping[str, Any]) -> TableOptions:
        """The options of a stored table: a missing key at its default, the lobby's
        own keys left out. Not validated again: the row was checked when the table
        was made, and a table stored under other bounds still loads as it was."""
        return cls.model_construct(**{k: v for k, v in options.items() if k in cls.model_fields})


class TableSpec(TableOptions):
    """The body of ``POST /api/tables``: the table's options and what makes the game."""

    model_config = ConfigDict(extra="forbid")

    game: str = "gloom"
    config: dict[str, Any] = Field(default_factory=dict)
    """Game options (sets, edition, beginner, ...); ``players`` comes from the seats."""
    seats: list[SeatSpec] = Field(min_length=2, max_length=8)
    listed: bool = True
    seed: int | None = Field(None, ge=0, le=2**62)
    """Fixes the shuffle (tests, replays of a known deal); random when omitted.
    Accepted only by a server started with ``--allow-fixed-deals``; such a table
    says "fixed deal" to everyone and is never listed."""

    @field_validator("config")
    @classmethod
    def _bounded_config(cls, v: dict[str, Any]) -> dict[str, Any]:
        check_config_shape(v)
        return v


def _bounded_value(key: str, value: Any) -> None:
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, int):
        if abs(value) > CONFIG_NUMBER_MAX:
            raise ValueError(f"option {key!r} must be within ±{CONFIG_NUMBER_MAX}")
        return
    if isinstance(value, float):
        if not math.isfinite(value) or abs(value) > CONFIG_NUMBER_MAX:
            raise ValueError(f"option {key!r} must be a finite number within ±{CONFIG_NUMBER_MAX}")
        return
    if isinstance(value, str):
        if len(value) > CONFIG_TEXT_MAX:
            raise ValueError(f"option {key!r} has more than {CONFIG_TEXT_MAX} characters")
        return
    if isinstance(value, list):
        if len(value) > CONFIG_LIST_MAX:
            raise ValueError(f"option {key!r} lists more than {CONFIG_LIST_MAX} items")
        for item in value:
            if not isinstance(item, str) or len(item) > CONFIG_TEXT_MAX:
                raise ValueError(f"option {key!r} must list texts of at most {CONFIG_TEXT_MAX} characters")
        if len(set(value)) != len(value):
            raise ValueError(f"option {key!r} names an item twice")
        return
    raise ValueError(f"option {key!r} must be a number, a text, a yes/no or a list of texts")


def check_config_shape(config: dict[str, Any]) -> None:
    """Game options are small and flat, whatever the game: a bounded number of
    keys, each a bounded scalar or a short list of distinct short texts. The
    game then checks their meaning (``make_game``); this keeps an attacker's
    body from making that check, or the game it builds, expensive."""
    if len(config) > CONFIG_KEYS_MAX:
        raise ValueError(f"at most {CONFIG_KEYS_MAX} game options")
    for key, value in config.items():
        if len(key) > CONFIG_KEY_MAX:
            raise ValueError(f"an option name has more than {CONFIG_KEY_MAX} characters")
        _bounded_value(key, value)


def parse_table_spec(data: Any) -> TableSpec:
    try:
        return TableSpec.model_validate(data)
    except ValidationError as exc:
        msgs = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'body'}: {e['msg']}" for e in exc.errors())
        raise ConfigError(f"bad table: {msgs}") from None


def table_options(spec: TableSpec) -> dict[str, Any]:
    """The server-side options stored with a table (every field of :class:`TableOptions`)."""
    return {k: getattr(spec, k) for k in TableOptions.model_fields}
