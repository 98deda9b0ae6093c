"""Group commit: the moves of several tables that arrive together are committed together.

A move on PostgreSQL waits for one round trip and one commit (the WAL reaching
the disk); most of that is waiting, not work. So the event loop hands every
move to :class:`GroupCommit`, which sends at most one group at a time: a move
that arrives while no group is at the database leaves at once, alone; the moves
that arrive while a group is at the database wait for it to return and then
leave together, in one statement and one commit
(``PostgresStore.append_moves``). **Decision:** no timer. A group leaves the
moment the previous one returns, so a lone move never waits for company, and
under load the group grows with the database's own latency (the time the last
group took is the time the next one gathered moves). A group holds at most
``most`` moves (:data:`GROUP_MOST`) and one move per table (a table stores one
move at a time anyway; a second would wait for the next group); the move that
ends a rated game goes alone (its ratings take a transaction of their own).

Each move's outcome is its own: a stale move (another process stored that index
first) fails alone, the others of its group are stored. A group that fails as a
whole (the database did not answer, the link was cut) fails each of its moves
the same way, which is true of each: they were one statement. A move whose
caller stopped waiting before its group left is not sent.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from gloomtable.server.ratings import RatingPlan

GROUP_MOST = 64
"""Moves committed together at most (one statement of that many rows)."""


class Move(NamedTuple):
    """One ``append_action`` call, as its arguments."""

    table_id: str
    idx: int
    action: int
    seat: int
    actor: str
    narration: str | None
    over: bool
    deadline: float | None = None
    rating: RatingPlan | None = None

    @property
    def alone(self) -> bool:
        """It ends a rated game: its ratings take a transaction of their own, so it goes in a group alone."""
        return self.over and self.rating is not None


Outcomes = list[BaseException | None]
"""Per move of a group, in its order: None (stored) or why it was not."""


class GroupCommit:
    """Moves handed in on the event loop, sent by ``send`` a group at a time (see the module doc).

    ``send`` stores a group and answers with one outcome per move; if it raises,
    every move of that group fails with that error."""

    def __init__(self, send: Callable[[list[Move]], Awaitable[Outcomes]], most: int = GROUP_MOST) -> None:
        self._send = send
        self._most = max(1, most)
        self._waiting: list[tuple[Move, asyncio.Future[None]]] = []
        self._sender: asyncio.Task[None] | None = None

    async def commit(self, move: Move) -> None:
        """Store ``move`` with whatever else is waiting; returns once it is committed."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((move, done))
        if self._sender is None:
            self._sender = asyncio.get_running_loop().create_task(self._send_all())
        await done

    async def _send_all(self) -> None:
        try:
            while self._waiting:
                group: list[tuple[Move, asyncio.Future[None]]] = []
                later: list[tuple[Move, asyncio.Future[None]]] = []
                tables: set[str] = set()
                for item in self._waiting:
                    if item[1].done():  # its mover stopped waiting before it left: not sent
                        continue
                    fits = not group or not (item[0].alone or group[0][0].alone)
                    if fits and len(group) < self._most and item[0].table_id not in tables:
                        group.append(item)
                        tables.add(item[0].table_id)
                    else:
                        later.append(item)
                self._waiting = later
                try:
                    outcomes = await self._send([move for move, _ in group])
                except BaseException as exc:  # each mover hears it; a cancel ends the sender too
                    for _, done in group:
                        _settle(done, exc)
                    if not isinstance(exc, Exception):
                        raise
                    continue
                for (_, done), outcome in zip(group, outcomes, strict=True):
                    _settle(done, outcome)
        finally:
            self._sender = None
            for _, done in self._waiting:  # only if the sender itself was cancelled
                done.cancel()
            self._waiting = []


def _settle(done: asyncio.Future[None], outcome: BaseException | None) -> None:
    if done.done():  # its mover stopped waiting (cancelled): nobody to tell
        return
    if outcome is None:
        done.set_result(None)
    elif isinstance(outcome, asyncio.CancelledError):
        done.cancel()
    else:
        done.set_exception(outcome)
