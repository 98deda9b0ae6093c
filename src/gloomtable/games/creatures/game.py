"""CreaturesGame: the rules of Crazy Creatures plus one table's options, as a value.

Options (all validated, unknown keys refused):

- ``players``: 2..4, default 3 (R-C2).
- ``rounds``: default = ``players`` (R-C2); another positive number is a house rule.
- ``first_player``: the first round's start player (0-based seat), or ``None``
  to draw it from the seed (R-C4).
- ``sets``: the card set, a list of one name: ``["creatures"]`` (the shipped set,
  the default), the id of a variant the server registered, or (locally: ``gloom
  play``, ``simulate``, the RL envs) a variant deck file's path (docs/decks.md).
  A variant keeps the shape (4 colours, numbers 1 to 6, 48 cards) and changes
  names, flavour and penalty points.
- ``turn_cap``: a safety cap on turns (plays and passes) per game, default 2000.
  The rules always end a game well below it (each round has at most about
  (cards + Reserve) x (players + 1) turns); reaching it ends the game with
  ``Result.capped=True``, never silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from gloomtable.engine import ConfigError, GameInfo
from gloomtable.engine.protocol import win_share_info
from gloomtable.games import registry
from gloomtable.games.creatures.actions import NUM_ACTIONS

if TYPE_CHECKING:
    from gloomtable.games.creatures.cards import CreatureSet
    from gloomtable.games.creatures.state import CreaturesState


MAX_ROUNDS = 100
OPTIONS = ("players", "rounds", "first_player", "turn_cap", "sets")


def _int_option(d: dict[str, Any], key: str, default: int | None) -> int | None:
    value = d.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"creatures option {key!r} must be an integer, got {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class CreaturesGame:
    """The game's declared facts and its config; immutable, shared by every state."""

    players: int = 3
    rounds: int | None = None
    first_player: int | None = None
    turn_cap: int = 2000
    sets: tuple[str, ...] | None = None
    """``None``: the shipped set; else one set name or variant file (see above)."""
    card_set: CreatureSet = field(init=False, repr=False, compare=False)
    """The Creatures this table plays with (R-C1), resolved once from ``sets``."""
    penalty: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """R-C10 penalty points by card id, of this table's set (scoring reads it)."""
    creature_names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """Each colour's Creature, and (below) the Machine's two sides, of this set: read
    by every view, so worked out once here rather than per view."""
    side_names: tuple[str, str] = field(init=False, repr=False, compare=False)
    """The Machine's names by side: (Minimalizer's, Growing Machine's)."""

    name: ClassVar[str] = "creatures"
    num_distinct_actions: ClassVar[int] = NUM_ACTIONS

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int) \
                or not 2 <= self.players <= 4:
            raise ConfigError(f"Crazy Creatures is for 2 to 4 players (R-C2), got {self.players!r}")
        if self.rounds is None:
            object.__setattr__(self, "rounds", self.players)  # R-C2
        elif not 1 <= self.rounds <= MAX_ROUNDS:
            raise ConfigError(f"rounds must be 1..{MAX_ROUNDS}, got {self.rounds}")
        if self.first_player is not None and not 0 <= self.first_player < self.players:
            raise ConfigError(f"first_player must be a seat 0..{self.players - 1} "
                              f"or null (random from the seed), got {self.first_player}")
        if not 1 <= self.turn_cap <= 1_000_000:
            raise ConfigError(f"turn_cap must be 1..1000000, got {self.turn_cap}")
        from gloomtable.games.creatures.cards import CREATURE_SET, CreatureSetError, set_named

        card_set = CREATURE_SET
        if self.sets is not None:
            if len(self.sets) != 1 or not all(isinstance(x, str) and x for x in self.sets):
                raise ConfigError("creatures option 'sets' names exactly one set (a shipped "
                                  f"name, a registered variant, or a variant file), got {self.sets!r}")
            try:
                card_set = set_named(self.sets[0])
            except CreatureSetError as exc:
                raise ConfigError(str(exc)) from None
        object.__setattr__(self, "card_set", card_set)
        object.__setattr__(self, "penalty", card_set.penalty)
        object.__setattr__(self, "creature_names", card_set.creature_names)
        object.__setattr__(self, "side_names", (card_set.minus.name, card_set.plus.name))

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def info(self) -> GameInfo:
        """The game's facts, OpenSpiel style: 2 to 4 seats (R-C2); a game is at most
        ``turn_cap`` turns, each one play or pass and at most one same-number
        decision after it (R-C8)."""
        return win_share_info(
            short_name=self.name, long_name=registry.title_of(self.name), min_num_players=2,
            max_num_players=4, num_players=self.players,
            num_distinct_actions=NUM_ACTIONS, max_game_length=2 * self.turn_cap)

    @property
    def num_rounds(self) -> int:
        assert self.rounds is not None  # resolved in __post_init__
        return self.rounds

    @property
    def hand_size(self) -> int:
        """R-C3: 12 cards each with 2 or 3 players, 10 with 4."""
        return 10 if self.players == 4 else 12

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> CreaturesGame:
        """Build from a plain config dict (as stored in records); :class:`ConfigError`
        with a clear message on an unknown key or a bad value."""
        d = dict(d or {})
        unknown = sorted(set(d) - set(OPTIONS))
        if unknown:
            raise ConfigError(f"unknown creatures option(s) {', '.join(map(repr, unknown))}; "
                              f"known: {', '.join(OPTIONS)}")
        players = _int_option(d, "players", 3)
        if players is None:
            raise ConfigError("creatures option 'players' must be an integer, got None")
        turn_cap = _int_option(d, "turn_cap", 2000)
        if turn_cap is None:
            raise ConfigError("creatures option 'turn_cap' must be an integer, got None")
        sets = d.get("sets")
        if sets is not None and (not isinstance(sets, list | tuple)
                                 or not all(isinstance(x, str) for x in sets)):
            raise ConfigError(f"creatures option 'sets' must be a list of one set name, got {sets!r}")
        from gloomtable.games.creatures.cards import SHIPPED_SET

        if sets is not None and list(sets) == [SHIPPED_SET]:
            sets = None  # the shipped set, as when not named
        return cls(players=players, rounds=_int_option(d, "rounds", None),
                   first_player=_int_option(d, "first_player", None), turn_cap=turn_cap,
                   sets=None if sets is None else tuple(sets))

    def config_dict(self) -> dict[str, Any]:
        """The config as a plain dict; ``from_dict(config_dict())`` is this game."""
        out: dict[str, Any] = {"players": self.players, "rounds": self.rounds,
                               "first_player": self.first_player, "turn_cap": self.turn_cap}
        if self.sets is not None:
            out["sets"] = list(self.sets)
        return out

    def new_initial_state(self, seed: int) -> CreaturesState:
        """Round 1 set up and dealt from ``seed`` (R-C3, R-C4)."""
        from gloomtable.games.creatures.state import CreaturesState

        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ConfigError(f"seed must be an integer, got {seed!r}")
        return CreaturesState.new(self, seed)


def make(name: str, config: dict[str, Any], decks: object = None) -> CreaturesGame:
    """The registry's factory (``games/registry.py``); a set travels by name or path."""
    return CreaturesGame.from_dict(config)
