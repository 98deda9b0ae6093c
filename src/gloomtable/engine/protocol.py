"""The engine protocol every game implements.

A game is a value (its rules + its config). A :class:`State` is advanced only
by integer actions that :meth:`State.legal_actions` offers to exactly one
player at a time. Clients, bots, RL adapters and the record/replay code use
nothing else, so every game works everywhere without special cases.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple, NotRequired, Protocol, TypedDict, runtime_checkable

from gloomtable.engine.decisions import DecisionKind
from gloomtable.engine.messages import Msg

TERMINAL = -1
"""``current_player()`` once the game is over."""


class Event(NamedTuple):
    """Something that happened, for logs and clients: a message and its arguments.

    ``msg`` is a catalogue :class:`~gloomtable.engine.messages.Msg` and ``args`` the
    values of its placeholders (seats, card indices, counts), never a finished sentence:
    the engine makes no text. Readers render it, in English too, with
    ``gloomtable.i18n.events.render(event, lang)``. ``game`` is the game whose deck
    names the cards (``None`` when the arguments need no deck). ``private_to`` marks an
    event whose ``card`` only that player may see (a card drawn from the pile, say);
    :meth:`for_player` gives the others ``public_msg`` with ``public_args`` instead. An immutable named tuple:
    engines make a couple per action, so it must be cheap.
    """

    kind: str
    msg: Msg
    args: tuple[Any, ...] = ()
    player: int | None = None
    card: int | None = None
    target: int | None = None
    amount: int | None = None
    private_to: int | None = None
    public_msg: Msg | None = None
    public_args: tuple[Any, ...] = ()
    game: Any = None

    def for_player(self, viewer: int | None) -> Event:
        """This event as ``viewer`` may see it (``None``: a spectator)."""
        if self.private_to is None or viewer == self.private_to:
            return self
        return self._replace(card=None, msg=self.public_msg or self.msg,
                             args=self.public_args if self.public_msg else self.args,
                             public_msg=None, public_args=())

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the message id and its arguments (tuples as lists)."""
        return {k: v for k, v in (
            ("kind", self.kind), ("msg", self.msg.msgid),
            ("args", [list(a) if isinstance(a, tuple) else a for a in self.args]),
            ("player", self.player), ("card", self.card), ("target", self.target),
            ("amount", self.amount),
        ) if v is not None}

    def __str__(self) -> str:
        """For debugging only: the message id and its arguments (readers render)."""
        return f"{self.kind}: {self.msg.msgid} {self.args!r}"


class ResultView(TypedDict):
    """A :class:`Result` as JSON-ready data (in every game's view once it is over)."""

    scores: list[int]
    winners: list[int]
    capped: bool
    details: NotRequired[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome: per-player scores (lower is better in every Gloom game),
    the winners (ties share the win), and whether the safety cap ended it."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    capped: bool = False
    details: dict[str, Any] = field(default_factory=dict)

    def returns(self) -> list[float]:
        """Win share per player: 1/k for each of k tied winners, else 0."""
        share = 1.0 / len(self.winners) if self.winners else 0.0
        return [share if p in self.winners else 0.0 for p in range(len(self.scores))]

    def to_dict(self) -> ResultView:
        out: ResultView = {"scores": list(self.scores), "winners": list(self.winners),
                           "capped": self.capped}
        if self.details:
            out["details"] = self.details
        return out


class Dynamics(StrEnum):
    SEQUENTIAL = "sequential"
    SIMULTANEOUS = "simultaneous"


class ChanceMode(StrEnum):
    DETERMINISTIC = "deterministic"
    EXPLICIT_STOCHASTIC = "explicit_stochastic"
    """Chance moves are nodes of the game tree, with listed outcomes."""
    SAMPLED_STOCHASTIC = "sampled_stochastic"
    """Chance is drawn inside ``apply`` from the state's own seeded RNG."""


class Information(StrEnum):
    PERFECT = "perfect"
    IMPERFECT = "imperfect"


class Utility(StrEnum):
    ZERO_SUM = "zero_sum"
    CONSTANT_SUM = "constant_sum"
    GENERAL_SUM = "general_sum"
    IDENTICAL = "identical"


class RewardModel(StrEnum):
    REWARDS = "rewards"
    TERMINAL = "terminal"
    """Only a finished game pays: :meth:`Result.returns`."""


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game's facts, said up front the way OpenSpiel's ``GameType`` (the kind of
    game) and ``GameInfo`` (this configuration's numbers) say them, so adapters and
    tests read them instead of restating them. ``utility`` and the bounds are of
    :meth:`Result.returns`; ``max_game_length`` bounds the actions of one game,
    setup included, under this configuration's safety cap."""

    short_name: str
    long_name: str
    dynamics: Dynamics
    chance_mode: ChanceMode
    information: Information
    utility: Utility
    reward_model: RewardModel
    min_num_players: int
    max_num_players: int
    num_players: int
    num_distinct_actions: int
    max_chance_outcomes: int
    """Outcomes of one explicit chance node; 0 when chance is sampled inside ``apply``."""
    min_utility: float
    max_utility: float
    utility_sum: float | None
    """What every game's returns add up to (``None`` unless constant-sum)."""
    max_game_length: int


def win_share_info(*, short_name: str, long_name: str, min_num_players: int,
                   max_num_players: int, num_players: int, num_distinct_actions: int,
                   max_game_length: int) -> GameInfo:
    """The facts both games share: sequential, chance drawn from the seed inside
    ``apply``, hidden hands, and returns that are each player's share of the win
    (1/k to each of k tied winners), paid only at the end."""
    return GameInfo(
        short_name=short_name, long_name=long_name, dynamics=Dynamics.SEQUENTIAL,
        chance_mode=ChanceMode.SAMPLED_STOCHASTIC, information=Information.IMPERFECT,
        utility=Utility.CONSTANT_SUM, reward_model=RewardModel.TERMINAL,
        min_num_players=min_num_players, max_num_players=max_num_players,
        num_players=num_players, num_distinct_actions=num_distinct_actions,
        max_chance_outcomes=0, min_utility=0.0, max_utility=1.0, utility_sum=1.0,
        max_game_length=max_game_length)


class OpenDecision(Protocol):
    """The question a state has open: who answers it, and what kind it is. Once the
    game is over it is ``(TERMINAL, DecisionKind.OVER)``. A game may say more (Gloom's
    decision carries its options and the effect waiting for the answer)."""

    @property
    def player(self) -> int: ...
    @property
    def kind(self) -> DecisionKind: ...


class Pending(NamedTuple):
    """An :class:`OpenDecision` with nothing more to say."""

    player: int
    kind: DecisionKind


@runtime_checkable
class State(Protocol):
    """One position of one game. Mutable; :meth:`clone` for search."""

    @property
    def decision(self) -> OpenDecision: ...
    def current_player(self) -> int: ...
    def legal_actions(self) -> list[int]: ...
    def apply(self, action: int) -> list[Event]:
        """Take ``action``: a malformed one raises
        :class:`~gloomtable.engine.errors.MalformedActionError`, one not legal now
        :class:`~gloomtable.engine.errors.IllegalActionError`, and the state is unchanged."""
        ...

    def apply_legal(self, action: int) -> list[Event]:
        """:meth:`apply` for a caller that took ``action`` from :meth:`legal_actions` of
        this very position (a rollout, a bot's search, an environment after its mask
        check): the same move and events, without checking the action again. Anything
        else is a bug of the caller and may corrupt the state; use :meth:`apply`."""
        ...

    def view(self, player: int | None) -> Mapping[str, Any]: ...
    def is_over(self) -> bool: ...
    def result(self) -> Result:
        """The outcome; :class:`~gloomtable.engine.errors.GameNotOverError` before the end."""
        ...

    def action_to_string(self, action: int) -> str: ...
    def clone(self) -> State: ...
    def snapshot(self) -> dict[str, Any]: ...
    def render(self, player: int | None) -> str: ...


@runtime_checkable
class Game(Protocol):
    """Declared facts of a game, OpenSpiel style, and a way to start it. The facts are
    read-only (a game may hold them as attributes, class variables or properties)."""

    @property
    def name(self) -> str: ...
    @property
    def num_players(self) -> int: ...
    @property
    def num_distinct_actions(self) -> int: ...
    @property
    def info(self) -> GameInfo: ...

    def config_dict(self) -> dict[str, Any]: ...
    def new_initial_state(self, seed: int) -> State: ...


class CardDeck(Protocol):
    """The printed cards a game is dealt from, by card index, and their families
    (empty when a deck has none). What each card says is the game's own business."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def cards(self) -> Sequence[Any]: ...
    @property
    def families(self) -> Sequence[Any]: ...


@runtime_checkable
class DeckGame(Protocol):
    """A game played from a deck of printed cards (every Gloom game), as against one
    with a fixed set of its own (Crazy Creatures). The card catalogue, the chronicle,
    the balance report and the records ask ``isinstance(game, DeckGame)``; a new game
    joins them by having these two attributes."""

    @property
    def deck(self) -> CardDeck: ...
    @property
    def deck_copies(self) -> Mapping[str, Mapping[str, str]]:
        """Set name or deck file -> ``{"sha256": ..., "text": ...}``: the copies a record
        carries so it replays without the files (see :meth:`GameRecord.of`)."""
