"""What one seat (or a spectator) sees of a Kuhn poker table, as typed data."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict, cast

from gloomtable.engine import ResultView

RANKS = ("Jack", "Queen", "King")
"""The three cards, lowest first: a card is its rank's index."""


class KuhnView(TypedDict):
    game: str
    players: int
    viewer: int | None
    card: int | None
    """The viewer's own card this hand (None: a spectator, or between hands)."""
    current_player: int
    decision: str
    hand_number: int
    """The hand being played, from 1."""
    hands: int
    first_player: int
    """Who acts first this hand."""
    history: list[int]
    """This hand's actions so far (0 pass: check or fold; 1 bet: bet or call)."""
    bets: list[int]
    """Each seat's chips in this hand's pot (the ante included)."""
    chips: list[int]
    """Each seat's chips won (or lost, below zero) over the hands played."""
    last_shown: list[int] | None
    """Both cards of the last hand that went to a showdown, by seat."""
    over: bool
    result: NotRequired[ResultView]


def kuhn_view(view: Mapping[str, Any]) -> KuhnView:
    """``view`` read as a Kuhn poker view (a check of its shape, then a cast)."""
    if "history" not in view or "bets" not in view or "card" not in view:
        raise TypeError("not a Kuhn poker view")
    return cast(KuhnView, view)
