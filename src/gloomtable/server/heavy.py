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

A job past that deadline does not go on: its worker is killed (``SIGKILL``) and the
next request starts a new one, so a refused request uses no more CPU or memory. Each
worker's address space is capped (``RLIMIT_AS``, ``--heavy-memory``): a job that asks
for more gets ``MemoryError`` there, the client a 503, and the worker is replaced. The
worker also holds outside TOML to the server's :class:`TextLimits` (``--text-max-*``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from gloomtable.engine.tomlshape import TextLimits
from gloomtable.server.errors import ServerError

log = logging.getLogger("gloomtable.server")

T = TypeVar("T")
NICENESS = 19
"""How much lower than the server's the worker's CPU priority is (``os.nice``): the lowest."""
NICENESS_ENV = "GLOOM_HEAVY_NICENESS"
"""An environment variable that sets another niceness (0: the server's own). The test
suite sets 0: on a two-core machine whose every core runs a test, a worker at 19 gets a
few per cent of a core, and a chronicle asked for there took longer than any deadline."""
MB = 1 << 20


class WorkFailed(Exception):
    """What the worker raised, as its type's name and message (an exception with its own
    constructor, such as ``DeckError``, may not come back across processes whole)."""


def _lower_priority() -> None:
    """In the worker, at its start: the tables' work comes first."""
    with contextlib.suppress(OSError, AttributeError, ValueError):  # a platform without nice
        os.nice(int(os.environ.get(NICENESS_ENV, NICENESS)))


def _cap_memory(limit: int) -> None:
    """In the worker, at its start: no job may take it past ``limit`` bytes of address space."""
    try:
        import resource
    except ImportError:  # a platform without it: the deadline still holds
        return
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _serve(conn: Connection, memory: int, text_limits: TextLimits) -> None:
    """The worker's loop: run each ``(fn, args)`` it is sent and send back
    ``("ok", result)``, ``("memory", "")`` or ``("error", text)``; a memory error ends
    the worker (its heap may be left in pieces; a new one starts). Past ``RLIMIT_AS``
    some C code fails with a ``SystemError`` ("error return without exception set")
    rather than ``MemoryError``: it counts as one, and ends the worker too."""
    from gloomtable.engine.textdata import set_text_limits

    _lower_priority()
    set_text_limits(text_limits)
    _cap_memory(memory)
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):  # the server went away
            return
        try:
            reply: tuple[str, Any] = ("ok", fn(*args))
        except (MemoryError, SystemError):  # past RLIMIT_AS some C code fails with a bare SystemError
            reply = ("memory", "")
        except Exception as exc:  # sent back as text; the caller decides what it means
            reply = ("error", f"{type(exc).__name__}: {exc}")
        try:
            conn.send(reply)
        except MemoryError:
            conn.send(("memory", ""))
        if reply[0] == "memory":
            return


def _exchange(conn: Connection, fn: Callable[..., Any], args: tuple[Any, ...]) -> tuple[str, Any]:
    """In a thread of the server: send one job, wait for its answer (an ``EOFError``
    once the worker is killed or died)."""
    try:
        conn.send((fn, args))
        reply: tuple[str, Any] = conn.recv()
    except (EOFError, OSError):
        conn.close()  # here, not in the loop's thread: closed under a read, its number could be reused
        raise
    return reply


class _Worker:
    """One worker process and the server's end of its pipe."""

    def __init__(self, memory: int, text_limits: TextLimits) -> None:
        # "spawn": a fork of a process with running threads (the loop's, the bots')
        # may copy a lock held by one of them.
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.process: BaseProcess = ctx.Process(target=_serve, args=(child, memory, text_limits),
                                                name="gloomtable-heavy", daemon=True)
        self.process.start()
        child.close()

    def kill(self, close: bool = True) -> None:
        """End it now, whatever it is doing (and reap it, so no zombie is left); its pipe
        is closed unless a thread still reads it (that thread closes it on the EOF)."""
        with contextlib.suppress(OSError, ValueError):
            self.process.kill()
        self.process.join(1)
        if close:
            self.conn.close()


class HeavyWork:
    """The worker process(es), the bound on waiting for them and on their memory (see
    the module doc)."""

    def __init__(self, workers: int = 1, timeout: float = 5.0, memory: int = 1024 * MB,
                 text_limits: TextLimits | None = None) -> None:
        self.workers = workers
        self.timeout = timeout
        self.memory = memory
        self.text_limits = text_limits or TextLimits()
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._slots: asyncio.Semaphore | None = None
        self.killed = 0
        """Workers killed for passing the deadline or running out of memory (for the log and tests)."""
        self.jobs = 0
        """Jobs asked for (``/metrics``)."""
        self.waiting = 0
        """Jobs waiting for a worker now (``/metrics``)."""

    @property
    def busy(self) -> int:
        """Workers working now."""
        return len(self._busy)

    async def run(self, what: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker (``fn`` a module-level function, its arguments and
        result picklable; what it raises comes back as :class:`WorkFailed`); ``what``
        names the work in the 503 a client gets past ``timeout``, when the worker is
        killed. A worker that died is replaced for the next request."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        self.jobs += 1
        self.waiting += 1
        try:
            await asyncio.wait_for(self._slots.acquire(), self.timeout)
        except TimeoutError:
            raise self._late(what) from None
        finally:
            self.waiting -= 1
        try:
            worker = self._take()
            try:
                kind, value = await asyncio.wait_for(asyncio.to_thread(_exchange, worker.conn, fn, args),
                                                     max(0.0, deadline - loop.time()))
            except TimeoutError:
                self._drop(worker, f"{what} passed its deadline of {self.timeout:g} s", reading=True)
                raise self._late(what) from None
            except (EOFError, OSError, BrokenPipeError):
                self._drop(worker, f"the worker process for {what} died")
                raise ServerError("server_busy", f"{what} failed; try again", 503) from None
            if kind == "memory":
                self._drop(worker, f"{what} needed more than {self.memory // MB} MB")
                raise ServerError("server_busy", f"{what} needed more memory than the server gives it "
                                  f"({self.memory // MB} MB)", 503)
            self._busy.discard(worker)
            self._idle.append(worker)
            if kind == "error":
                raise WorkFailed(value)
            result: T = value
            return result
        finally:
            self._slots.release()

    def _late(self, what: str) -> ServerError:
        return ServerError("server_busy", f"{what} took over {self.timeout:g} s; try again later", 503)

    def _take(self) -> _Worker:
        while self._idle:
            worker = self._idle.pop()
            if worker.process.is_alive():
                self._busy.add(worker)
                return worker
            worker.kill()
        worker = _Worker(self.memory, self.text_limits)
        self._busy.add(worker)
        return worker

    def _drop(self, worker: _Worker, why: str, reading: bool = False) -> None:
        """Kill ``worker`` (a new one starts on the next request)."""
        log.warning("%s: killed its worker process %s; the next request starts another", why,
                    worker.process.pid)
        self._busy.discard(worker)
        worker.kill(close=not reading)
        self.killed += 1

    def close(self) -> None:
        """Stop every worker (a request still waiting gets its 503)."""
        for worker in self._idle:
            worker.kill()
        for worker in self._busy:
            worker.kill(close=False)
        self._idle.clear()
        self._busy.clear()
