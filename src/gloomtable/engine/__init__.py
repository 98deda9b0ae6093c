"""The game-independent core: protocol, RNG, errors, records. No I/O here
except the record's JSON helpers, which take and return plain text/paths."""

from gloomtable.engine.decisions import DecisionKind
from gloomtable.engine.errors import (
    ConfigError,
    GameNotOverError,
    GloomtableError,
    IllegalActionError,
    MalformedActionError,
    ReplayError,
)
from gloomtable.engine.messages import Msg
from gloomtable.engine.protocol import (
    TERMINAL,
    CardDeck,
    DeckGame,
    Event,
    Game,
    GameInfo,
    OpenDecision,
    Pending,
    Result,
    ResultView,
    State,
)
from gloomtable.engine.rng import Rng

__all__ = [
    "TERMINAL",
    "CardDeck",
    "ConfigError",
    "DecisionKind",
    "DeckGame",
    "Event",
    "Game",
    "GameInfo",
    "GameNotOverError",
    "GloomtableError",
    "IllegalActionError",
    "MalformedActionError",
    "Msg",
    "OpenDecision",
    "Pending",
    "ReplayError",
    "Result",
    "ResultView",
    "Rng",
    "State",
]
