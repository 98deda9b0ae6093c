"""Ratings per game (Gloom, Gloomier, Crazy Creatures), moved by ``openskill``'s
Plackett-Luce model after each finished game between rated accounts.

A finished table is rated when it asks to be (``rated``, the default), every seat is
a person recorded to an account (distinct accounts), no bot or stand-in ever played
for a person (``stand_in`` actors, and ``timeout`` ones but a pass:
:func:`bot_played_for_person`) and the deal was not fixed; bot seats
make it unrated unless the table says ``rated_bots``: then each bot is a player of
fixed strength (:data:`BOT_MU` by level, never moved). Placings come from the
game's result: every winner shares first place (a shared win is a tie), the others
follow by score, lower is better, equal scores tied. The table works out a
:class:`RatingPlan` before it stores the last move, and the store applies it in
that move's transaction: the move and its ratings are stored together or not at
all, once per table whichever process ends it (``rated_tables``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from openskill.models import PlackettLuce, PlackettLuceRating

from gloomtable.engine import Result
from gloomtable.server.options import TableOptions
from gloomtable.server.window import pass_action

if TYPE_CHECKING:
    from gloomtable.engine import State
    from gloomtable.server.store_rows import SeatRow, TableRow


class RatedSeat(Protocol):
    """A seat as rating reads it."""

    @property
    def index(self) -> int: ...
    @property
    def row(self) -> SeatRow: ...


class FinishingTable(Protocol):
    """What rating reads of a live table about to end: a Protocol, since the table
    imports this module (no cycle between them)."""

    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def seats(self) -> Sequence[RatedSeat]: ...
    @property
    def row(self) -> TableRow: ...


@dataclass(frozen=True)
class RatingPlan:
    """How a table's last move rates it, worked out before that move is stored and
    applied by the store in the move's own transaction (so a finished rated game is
    never left unrated, nor rated twice: the move and its ratings commit together).
    What only the store knows, which account sits where, is read in that transaction:
    every seat in ``people`` must be a distinct account, or nothing is rated."""

    game: str
    people: tuple[int, ...]
    """The person seats, each to be recorded to an account."""
    places: tuple[int, ...]
    """Each seat's place, 1 first (:func:`ranks`)."""
    fixed: dict[int, Rating]
    """The bots' fixed ratings by seat (``rated_bots``), never moved."""

    @property
    def won(self) -> tuple[bool, ...]:
        return tuple(p == 1 for p in self.places)

    def rate(self, before: Sequence[Rating]) -> list[Rating]:
        return rate(before, self.places)


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


def bot_played_for_person(actor: str, action: int, passing: int) -> bool:
    """Whether a person's stored decision was a bot's: a stand-in's, or a bot's choice
    when the turn timer ran out. A ``timeout`` that stored the pass (``passing``: a
    response window left to lapse, which lets the card stand, or a timer that passes
    for them) is the person's own lapse, and keeps the game rated."""
    if actor in PERSON_ACTORS:
        return False
    return not (actor == "timeout" and action == passing)


def plan(table: FinishingTable, state: State, seat: int, actor: str, action: int) -> RatingPlan | None:
    """The rating of a table whose move ``action`` by ``seat`` (played by ``actor``)
    ends it in ``state``, if the table counts (see the module doc) as far as the table
    itself tells; the store checks the accounts (:class:`RatingPlan`). None: unrated."""
    options = table.options
    settings = TableOptions.stored(options)
    if not settings.rated or options.get("fixed_deal") or options.get("lesson"):
        return None
    people = tuple(s.index for s in table.seats if s.row.kind == "person")
    bots = len(table.seats) - len(people)
    if bots and not settings.rated_bots:
        return None
    if len(people) < (1 if bots else 2):
        return None
    actors = [*table.row.actors, (seat, actor)]
    actions = [*table.row.actions, action]
    passing = pass_action(state)
    if any(who in people and bot_played_for_person(how, act, passing)
           for (who, how), act in zip(actors, actions, strict=True)):
        return None  # a bot played for a person (stand-in or timer) at least once
    fixed = {s.index: Rating(BOT_MU.get(s.row.level, 25.0), BOT_SIGMA)
             for s in table.seats if s.row.kind == "bot"}
    return RatingPlan(table.row.game, people, tuple(ranks(state.result())), fixed)


def accounts_fit(plan: RatingPlan, accounts: dict[int, str]) -> bool:
    """Whether the seats' accounts (seat -> account) let the plan rate: every person
    seat recorded, no account at two seats (it would play against itself)."""
    if any(p not in accounts for p in plan.people):
        return False
    return len({accounts[p] for p in plan.people}) == len(plan.people)
