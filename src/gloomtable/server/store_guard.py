"""The shared store as the event loop calls it: no call may wait on the database
for long.

The store's calls are synchronous (psycopg), and some are made on the event loop
(claiming a seat, presence, the listing; the lease round every 0.5 s and a
follower's catch-up read in a worker thread, ``store.in_store``). When the
link to PostgreSQL stalls (a frozen server, a network that drops packets, a proxy
that stops passing bytes) such a call waits until TCP gives up, minutes later, and
every table of the process freezes with it: no move, no ping, no page. So a
process on PostgreSQL reaches its store through :class:`GuardedStore`: each call
runs in a thread of its own pool and is waited for at most ``--store-timeout``
seconds; past that the call fails with ``503 server_busy`` ("the database is not
answering"), and from then on every call fails the same way at once while a
thread of the guard asks the database again (:data:`PAUSE` seconds later, then
for as long as that question waits); its answer opens the way again. A table's
move (``commit_action``) is bounded the same way without holding the loop at all:
with whatever other tables' moves arrived meanwhile (group commit,
server/store_group.py) it is sent on the loop itself, by a connection of the moves'
own (server/store_link.py: no thread, no pool), and its answer awaited (a rated
game's last move, which takes a transaction of its own, goes through the pool).
A call that fails because the link is cut (``psycopg.OperationalError``: connection
refused or lost, the pool waiting for one) is ``503 server_busy`` too, with one log
line, never a ``500``. So an outage holds the loop at most once, for one timeout
(only if a call made on the loop meets it before the lease round's does); pages
stay connected, moves are refused with a clear error, and the
process's table leases lapse so another process (whose database answers) leads
its tables (docs/deploy.md). An answer the database gives (an error included)
comes back unchanged.

SQLite needs none of this: it is a local file, and its calls take microseconds.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import inspect
import logging
import threading
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, cast

import psycopg

from gloomtable.server.errors import ServerError, Unconfirmed
from gloomtable.server.metrics import STORE_ERRORS, STORE_SECONDS
from gloomtable.server.store import Store
from gloomtable.server.store_group import GroupCommit, Move, Outcomes

if TYPE_CHECKING:
    from gloomtable.server.ratings import RatingPlan

log = logging.getLogger("gloomtable.server")

PAUSE = 2.0
"""Seconds the guard waits before asking a database that did not answer again."""
THREADS = 8
"""Threads that wait on the database (a call that never returns keeps one)."""
UNGUARDED = frozenset({"listen"})
"""Calls that go straight to the store: the listener (a coroutine
that waits on its own connection without holding the loop)."""


class GuardedStore:
    """A store whose every call is bounded in time (see the module doc)."""

    def __init__(self, store: Store, timeout: float, pause: float = PAUSE, threads: int = THREADS) -> None:
        self._store = store
        self._timeout = timeout
        self._pause = pause
        self._threads = concurrent.futures.ThreadPoolExecutor(threads, thread_name_prefix="gloom-store")
        self._failing = False
        self._lock = threading.Lock()
        self._group: GroupCommit | None = None  # made on the event loop, at the first move

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._store, name)
        if name in UNGUARDED or not callable(value) or inspect.iscoroutinefunction(value):
            return value

        def guarded(*args: Any, **kwargs: Any) -> Any:
            return self._call(value, args, kwargs)

        return guarded

    def _call(self, fn: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        future = self._submit(fn, args, kwargs)
        started = time.perf_counter()
        try:
            return future.result(timeout=self._timeout)
        except psycopg.OperationalError as exc:  # the link is cut or the server going away: busy, not broken
            raise self._cut(exc, future) from None
        except concurrent.futures.TimeoutError:
            raise self._unanswered_in_time(future) from None
        finally:
            STORE_SECONDS.observe(time.perf_counter() - started)

    async def _call_async(self, fn: Any, *args: Any) -> Any:
        """``_call`` for the event loop: the call runs in the guard's pool (the one
        thread hop) and the loop awaits it, never blocking on it."""
        future = self._submit(fn, args, {})
        started = time.perf_counter()
        try:
            waiting = asyncio.wrap_future(future)
            done, _ = await asyncio.wait({waiting}, timeout=self._timeout)  # a timeout cancels nothing
            if not done:
                raise self._unanswered_in_time(future)
            return waiting.result()
        except psycopg.OperationalError as exc:
            raise self._cut(exc, future) from None
        finally:
            STORE_SECONDS.observe(time.perf_counter() - started)

    async def commit_action(self, table_id: str, idx: int, action: int, seat: int, actor: str,
                            narration: str | None, over: bool, deadline: float | None = None,
                            rating: RatingPlan | None = None) -> None:
        """``append_action`` from the event loop, committed with the other tables' moves
        that arrive together (server/store_group.py); bounded like every call."""
        if self._failing:  # refused at once, as any call: nothing is queued behind a dead link
            STORE_ERRORS.labels("unanswered").inc()
            raise self._unanswered()
        if self._group is None:
            self._group = GroupCommit(self._append_moves)
        await self._group.commit(Move(table_id, idx, action, seat, actor, narration, over, deadline, rating))

    async def _append_moves(self, moves: list[Move]) -> Outcomes:
        """One group (the guard stands before PostgreSQL only, whose store takes groups):
        on the event loop itself (``PostgresStore.append_moves_on_loop``), or in the
        pool when it ends a rated game (its ratings take a transaction of their own)."""
        store = cast(Any, self._store)
        if any(m.alone for m in moves) or not hasattr(store, "append_moves_on_loop"):
            return cast(Outcomes, await self._call_async(store.append_moves, moves))
        return cast(Outcomes, await self._bounded(store.append_moves_on_loop(moves)))

    async def _bounded(self, call: Coroutine[Any, Any, Any]) -> Any:
        """``call`` on the event loop, waited for as ``_call_async`` waits: at most the
        timeout (the call goes on, and may yet commit), a cut link ``503``."""
        if self._failing:
            call.close()
            STORE_ERRORS.labels("unanswered").inc()
            raise self._unanswered()
        task = asyncio.get_running_loop().create_task(call)
        started = time.perf_counter()
        try:
            done, _ = await asyncio.wait({task}, timeout=self._timeout)  # a timeout cancels nothing
            if not done:
                raise self._unanswered_in_time(task)
            return task.result()
        except psycopg.OperationalError as exc:
            raise self._cut(exc, task) from None
        finally:
            STORE_SECONDS.observe(time.perf_counter() - started)

    def _submit(self, fn: Any, args: tuple[Any, ...],
                kwargs: dict[str, Any]) -> concurrent.futures.Future[Any]:
        if self._failing:
            STORE_ERRORS.labels("unanswered").inc()
            raise self._unanswered()
        return self._threads.submit(fn, *args, **kwargs)

    def _cut(self, exc: psycopg.OperationalError, future: Any) -> Unconfirmed:
        """The link went while the call ran: it may have committed."""
        STORE_ERRORS.labels("cut").inc()
        log.warning("the database %s: %s: %s", getattr(self._store, "url", "?"), type(exc).__name__,
                    " ".join(str(exc).split()))
        return Unconfirmed(future)

    def _unanswered_in_time(self, future: Any) -> Unconfirmed:
        """No answer within the timeout: from now on calls fail at once, until the
        guard's own question is answered."""
        STORE_ERRORS.labels("timeout").inc()
        with self._lock:
            if not self._failing:  # once per outage, however many calls meet it
                self._failing = True
                log.warning("the database %s did not answer within %g s; store calls fail at once "
                            "until it does (asked again in %g s)", getattr(self._store, "url", "?"),
                            self._timeout, self._pause)
                threading.Thread(target=self._until_it_answers, name="gloom-store-probe",
                                 daemon=True).start()
        # the call still runs and may commit once the link is back: the caller says "not
        # confirmed yet", never "nothing was changed" (issue 29, row 6)
        return Unconfirmed(future)

    def _until_it_answers(self) -> None:
        """The guard's own questions during an outage (in its thread): the first answer
        lets calls through again."""
        time.sleep(self._pause)
        with contextlib.suppress(Exception):  # an error is an answer too: calls no longer hang
            self._store.schema_version()  # here, not in the pool: one question, however long it waits
        with self._lock:
            self._failing = False
        log.warning("the database %s answers again", getattr(self._store, "url", "?"))

    def _unanswered(self) -> ServerError:
        return ServerError("server_busy", "the tables' database is not answering; nothing was changed. "
                           "Try again in a few seconds", 503)

    def close(self) -> None:
        """Close the store; a thread still waiting on the database is left to finish."""
        self._threads.shutdown(wait=False, cancel_futures=True)
        self._store.close()


def guarded(store: Store, timeout: float) -> Store:
    """``store`` with every call bounded by ``timeout`` seconds (:class:`GuardedStore`)."""
    return cast(Store, GuardedStore(store, timeout))
