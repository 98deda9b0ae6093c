"""The engine protocol every game implements.

A game is a value (its rules + its config). A :class:`State` is advanced only
by integer actions that :meth:`State.legal_actions` offers to exactly one
player at a time. Clients, bots, RL adapters and the record/replay code use
nothing else, so every game works everywhere without special cases.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol, runtime_checkable

TERMINAL = -1
"""``current_player()`` once the game is over."""


class Event(NamedTuple):
    """Something that happened, for logs and clients.

    ``private_to`` marks an event whose ``card`` only that player may see (a
    card drawn from the pile, say); :meth:`for_player` hides it from others.
    ``text`` is the readable line; ``public_text`` replaces it for others.
    An immutable named tuple: engines make a couple per action, so it must be cheap.
    """

    kind: str
    text: str
    player: int | None = None
    card: int | None = None
    target: int | None = None
    amount: int | None = None
    private_to: int | None = None
    public_text: str | None = None

    def for_player(self, viewer: int | None) -> Event:
        """This event as ``viewer`` may see it (``None``: a spectator)."""
        if self.private_to is None or viewer == self.private_to:
            return self
        return self._replace(card=None, text=self.public_text or self.text, public_text=None)

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in (
            ("kind", self.kind), ("text", self.text), ("player", self.player),
            ("card", self.card), ("target", self.target), ("amount", self.amount),
        ) if v is not None}

    def __str__(self) -> str:
        return self.text


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

    def to_dict(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "winners": list(self.winners),
                "capped": self.capped, **({"details": self.details} if self.details else {})}


@runtime_checkable
class State(Protocol):
    """One position of one game. Mutable; :meth:`clone` for search."""

    def current_player(self) -> int: ...
    def legal_actions(self) -> list[int]: ...
    def apply(self, action: int) -> list[Event]: ...
    def view(self, player: int | None) -> dict[str, Any]: ...
    def is_over(self) -> bool: ...
    def result(self) -> Result: ...
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

    def config_dict(self) -> dict[str, Any]: ...
    def new_initial_state(self, seed: int) -> State: ...
