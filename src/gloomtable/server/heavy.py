"""A worker process for the requests that read a deck or replay a game: a deck sent
to the gallery, a shipped set's cards, a chronicle.

Such work is pure Python and takes from tens of milliseconds (a chronicle) to a
second (a deck of several megabytes). On the event loop it would stall every table
for that long. In a thread of this process it still took turns with the loop for
the one GIL: under every attack of ``scripts/attack.py`` at once, with 500 KB decks
sent back to back among them, a person's move waited 171 and 275 ms at the 99th
percentile (two runs). So it runs in another process, started on the first such
request (a server nobody asks for a chronicle never starts one), at the lowest
CPU priority (the tables come first; two runs: 54 and 57 ms). At most ``workers`` requests
are worked on at once, and a request waits at most ``timeout`` seconds (queued or
running), then gets 503 ``server_busy``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from gloomtable.server.errors import ServerError

log = logging.getLogger("gloomtable.server")

T = TypeVar("T")
NICENESS = 19
"""How much lower than the server's the worker's CPU priority is (``os.nice``): the lowest."""


class WorkFailed(Exception):
    """What the worker raised, as its type's name and message (an exception with its own
    constructor, such as ``DeckError``, may not come back across processes whole)."""


def _call(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)``, in the worker; any exception comes back as :class:`WorkFailed`."""
    try:
        return fn(*args)
    except Exception as exc:  # sent back as text; the caller decides what it means
        raise WorkFailed(f"{type(exc).__name__}: {exc}") from None


def _lower_priority() -> None:
    """In the worker, at its start: the tables' work comes first."""
    with contextlib.suppress(OSError, AttributeError):  # a platform without nice
        os.nice(NICENESS)


class HeavyWork:
    """The worker process(es) and the bound on waiting for them (see the module doc)."""

    def __init__(self, workers: int = 1, timeout: float = 5.0) -> None:
        self.workers = workers
        self.timeout = timeout
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # "spawn": a fork of a process with running threads (the loop's, the bots')
            # may copy a lock held by one of them.
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_lower_priority)
        return self._pool

    async def run(self, what: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the worker (``fn`` a module-level function, its arguments and
        result picklable; what it raises comes back as :class:`WorkFailed`); ``what``
        names the work in the 503 a client gets past ``timeout``. A worker that died
        is replaced for the next request."""
        loop = asyncio.get_running_loop()
        try:
            return await asyncio.wait_for(loop.run_in_executor(self._executor(), _call, fn, *args),
                                          self.timeout)
        except TimeoutError:
            raise ServerError("server_busy", f"{what} took over {self.timeout:g} s; try again later",
                              503) from None
        except BrokenProcessPool:
            log.error("the worker process for %s died; starting another", what)
            self.close()
            raise ServerError("server_busy", f"{what} failed; try again", 503) from None

    def close(self) -> None:
        """Stop the worker (a request still waiting gets its 503)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
