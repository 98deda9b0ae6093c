"""Ratings per game (Gloom, Gloomier, Crazy Creatures), moved by ``openskill``'s
Plackett-Luce model after each finished game between rated accounts.

A finished table is rated when it asks to be (``rated``, the default), every seat is
a person recorded to an account (distinct accounts), no bot or stand-in ever played
for a person (``stand_in``, ``timeout`` actors) and the deal was not fixed; bot seats
make it unrated unless the table says ``rated_bots``: then each bot is a player of
fixed strength (:data:`BOT_MU` by level, never moved). Placings come from the
game's result: every winner shares first place (a shared win is a tie), the others
follow by score, lower is better, equal scores tied. The store rates a table once,
whichever process ends it (``rated_tables``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from openskill.models import PlackettLuce, PlackettLuceRating

from gloomtable.engine import Result

if TYPE_CHECKING:
    from gloomtable.engine import State
    from gloomtable.server.store_rows import SeatRow, TableRow


class RatedSeat(Protocol):
    """A seat as rating reads it."""

    @property
    def index(self) -> int: ...
    @property
    def row(self) -> SeatRow: ...


class RatingStore(Protocol):
    """The two store calls rating makes (server/store_accounts.py has them)."""

    def seat_accounts(self, table_id: str) -> dict[int, str]: ...
    def rate_table(self, table_id: str, game: str, accounts: Sequence[str | None],
                   places: Sequence[int], won: Sequence[bool], fixed: dict[int, Any],
                   rate: Callable[..., Any]) -> bool: ...


class FinishedTable(Protocol):
    """What rating reads of a finished live table: a Protocol, since the table imports
    this module (no cycle between them)."""

    @property
    def id(self) -> str: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def seats(self) -> Sequence[RatedSeat]: ...
    @property
    def row(self) -> TableRow: ...
    @property
    def store(self) -> RatingStore: ...
    @property
    def state(self) -> State: ...

log = logging.getLogger("gloomtable.server")

MODEL = PlackettLuce()
"""openskill's defaults: mu 25, sigma 25/3, beta 25/6."""
BOT_MU = {"random": 10.0, "easy": 18.0, "medium": 25.0, "hard": 32.0}
"""A bot's fixed strength on a ``rated_bots`` table (sigma :data:`BOT_SIGMA`)."""
BOT_SIGMA = 1.0
PERSON_ACTORS = frozenset({"person"})


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        """The number shown beside a name: the conservative estimate mu - 3 sigma, scaled
        so a new account starts at 0 and a strong one reaches a few thousand."""
        return round((self.mu - 3 * self.sigma) * 60)


NEW = Rating(MODEL.mu, MODEL.sigma)


def ranks(result: Result) -> list[int]:
    """Each seat's place, 1 first: winners share 1; the others by score (lower better)."""
    others = sorted({s for p, s in enumerate(result.scores) if p not in result.winners})
    return [1 if p in result.winners else 2 + others.index(s) for p, s in enumerate(result.scores)]


def rate(before: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """New ratings of one game's players, one team each, as openskill gives them."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after: list[list[PlackettLuceRating]] = MODEL.rate(teams, ranks=list(places))
    return [Rating(t[0].mu, t[0].sigma) for t in after]


def eligible(table: FinishedTable, accounts: dict[int, str]) -> bool:
    """Whether the finished table counts (see the module doc); ``accounts``: seat -> account."""
    options = table.options
    if not options.get("rated", True) or options.get("fixed_deal") or options.get("lesson"):
        return False
    people = [s.index for s in table.seats if s.row.kind == "person"]
    bots = len(table.seats) - len(people)
    if bots and not options.get("rated_bots", False):
        return False
    if len(people) < (1 if bots else 2) or any(p not in accounts for p in people):
        return False
    if len({accounts[p] for p in people}) != len(people):
        return False  # one account at two seats plays against itself
    return all(actor in PERSON_ACTORS for seat, actor in table.row.actors if seat in people)


def rate_finished(table: FinishedTable) -> bool:
    """Rate a table that just ended, if it counts; True when ratings moved."""
    store = table.store
    accounts = store.seat_accounts(table.id)
    if not eligible(table, accounts):
        return False
    places = ranks(table.state.result())
    bots = {s.index: Rating(BOT_MU.get(s.row.level, 25.0), BOT_SIGMA)
            for s in table.seats if s.row.kind == "bot"}
    won = [p == 1 for p in places]
    return store.rate_table(table.id, table.row.game, [accounts.get(i) for i in range(len(table.seats))],
                            places, won, bots, rate)
