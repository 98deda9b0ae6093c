"""The contracts between the Crazy Creatures modules, typed once below them all:
what a state reads of its game (:class:`CreaturesTable`) and what the observer reads
of a state (:class:`CreaturesPosition`). ``game`` builds states, ``state`` calls the
observer (``view``), and none of them imports a module above it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from gloomtable.engine import Pending, Result

if TYPE_CHECKING:
    from gloomtable.games.creatures.cards import CreatureSet


class CreaturesTable(Protocol):
    """What a state reads of its game: :class:`~gloomtable.games.creatures.game.CreaturesGame`
    meets it, and the rules need not import the module that builds their states."""

    name: ClassVar[str]
    num_distinct_actions: ClassVar[int]

    @property
    def players(self) -> int: ...
    @property
    def first_player(self) -> int | None: ...
    @property
    def turn_cap(self) -> int: ...
    @property
    def card_set(self) -> CreatureSet: ...
    @property
    def penalty(self) -> tuple[int, ...]: ...
    @property
    def creature_names(self) -> tuple[str, ...]: ...
    @property
    def side_names(self) -> tuple[str, str]: ...
    @property
    def num_players(self) -> int: ...
    @property
    def num_rounds(self) -> int: ...
    @property
    def hand_size(self) -> int: ...
    def config_dict(self) -> dict[str, Any]: ...


class CreaturesPosition(Protocol):
    """What :mod:`~gloomtable.games.creatures.view` reads of a
    :class:`~gloomtable.games.creatures.state.CreaturesState`."""

    game: CreaturesTable
    hands: list[list[int]]
    piles: list[list[int]]
    plus: list[int]
    reserve: list[int]
    aside: list[int]
    round: int
    start_player: int
    current: int
    passes: int
    closer: int
    final_left: int
    totals: list[int]
    round_scores: list[list[int]]
    turns: int
    over: bool

    def current_player(self) -> int: ...
    def legal_actions(self) -> list[int]: ...
    @property
    def decision(self) -> Pending: ...
    def result(self) -> Result: ...
    def action_to_string(self, action: int) -> str: ...
