"""Open websockets per client address and per seat token (``--sockets-per-ip``,
``--sockets-per-token``), counted for the whole site.

On SQLite (one process) the counts live in this process's memory. With a
PostgreSQL store, several processes serve one site, so each take goes through
the database (``PostgresStore.take_socket``): a row per (key, process) with the
number of sockets that process holds, and a take counts the rows of the live
processes under the key's advisory lock. A process is live while its row in
``members`` is renewed (every ``RENEW_EVERY`` s, for ``LEASE_TTL`` s, by the
database's clock): one that dies stops counting within ``LEASE_TTL`` seconds,
and its rows are deleted ``FORGET`` seconds later. Keys are stored as SHA-256
digests: a seat token is a secret, and the database need not know it.

This process's memory keeps its own counts in any case: they are the truth the
database mirrors. When the database fails or takes longer than
``--socket-count-timeout``, the process counts in its memory alone (each process
then holds the limits by itself, as on one process; logged once) until a renewal
round succeeds and rewrites its rows from memory (docs/deploy.md).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypeVar

from gloomtable.server.cluster import RENEW_EVERY
from gloomtable.server.stopping import cancel_and_wait
from gloomtable.server.table import LEASE_TTL

log = logging.getLogger("gloomtable.server")

FORGET = 60.0
"""Seconds after its member row expired that a process's counts are deleted. Until
then they only stop counting, so a process that stalled a while counts again when
it wakes; after that it writes them again from memory."""

WORKERS = 4
"""Threads one process's socket counting uses (its own, so a stalled database does not
take the threads the tables commit from): takes at once, past which they queue."""

T = TypeVar("T")


class SocketCounts(Protocol):
    """What the shared count needs of the store (``PostgresStore`` has it)."""

    def take_socket(self, key: str, holder: str, most: int) -> bool: ...

    def give_back_socket(self, key: str, holder: str) -> None: ...

    def renew_member(self, holder: str, ttl: float, forget: float) -> bool: ...

    def reset_sockets(self, holder: str, counts: dict[str, int]) -> None: ...

    def leave(self, holder: str) -> None: ...


def digest(key: str) -> str:
    """How a key (``ip:...``, ``token:...``) is stored: never the token itself."""
    return hashlib.sha256(key.encode()).hexdigest()


class Sockets:
    """Open websockets per key; with :meth:`share`, for every process on the store."""

    def __init__(self, wait: float = 1.0) -> None:
        self.open: dict[str, int] = {}
        """This process's open sockets per key (the truth the database mirrors)."""
        self.wait = wait
        self.store: SocketCounts | None = None
        self.holder = ""
        self.shared = False
        """The database's rows of this process match ``open``: takes are decided there."""
        self.failing = False
        self._busy = 0
        """Database calls under way in worker threads (they may outlive a timeout)."""
        self._busy_lock = threading.Lock()
        self._taking = 0
        """Takes between asking the database and counting its answer here."""
        self._renewing: asyncio.Future[bool] | None = None
        self._threads: ThreadPoolExecutor | None = None
        self._resyncing: asyncio.Event | None = None
        self._pending: list[str] = []
        """Sockets closed while the rows are being rewritten: given back once they are."""
        self._tasks: set[asyncio.Task[None]] = set()

    # --- taking and giving back ---------------------------------------------------

    async def take(self, key: str, most: int) -> bool:
        """One more socket of ``key``, if fewer than ``most`` are open (site-wide when shared)."""
        if self.store is not None:
            while self._resyncing is not None:
                await self._resyncing.wait()
            if self.shared:
                self._taking += 1
                try:
                    taken = await self._call(self.store.take_socket, digest(key), self.holder, most)
                except asyncio.CancelledError:  # the database may have counted it: rewrite the rows
                    self.shared = False
                    raise
                except Exception as exc:  # whatever happened there, this socket is counted here
                    self._failed(exc)
                else:
                    if taken:
                        self._count(key, 1)
                    return taken
                finally:
                    self._taking -= 1
        if self.open.get(key, 0) >= most:
            return False
        self._count(key, 1)
        return True

    def give_back(self, key: str) -> None:
        """A socket of ``key`` closed (the database hears of it in the background)."""
        self._count(key, -1)
        if self.store is None:
            return
        if self._resyncing is not None:
            self._pending.append(key)
        elif self.shared:
            self._give_back_shared(key)

    def _count(self, key: str, step: int) -> None:
        left = self.open.get(key, 0) + step
        if left > 0:
            self.open[key] = left
        else:
            self.open.pop(key, None)

    def _give_back_shared(self, key: str) -> None:
        assert self.store is not None
        call = self._start(self.store.give_back_socket, digest(key), self.holder)

        async def finish() -> None:
            try:
                await asyncio.wait_for(call, self.wait)
            except Exception as exc:
                self._failed(exc)

        task = asyncio.get_running_loop().create_task(finish())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- the database ---------------------------------------------------------------

    def _start(self, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """``fn(*args)`` in a worker thread, counted in ``_busy`` from now until it returns."""
        with self._busy_lock:
            self._busy += 1

        def run() -> T:
            try:
                return fn(*args)
            finally:
                with self._busy_lock:
                    self._busy -= 1

        if self._threads is None:
            self._threads = ThreadPoolExecutor(WORKERS, thread_name_prefix="socket-counts")
        call = asyncio.get_running_loop().run_in_executor(self._threads, run)
        call.add_done_callback(_seen)  # one given up on may fail later: that is no news
        return call

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.wait_for(self._start(fn, *args), self.wait)

    def _failed(self, exc: BaseException) -> None:
        """Count here from now; the next renewal round that reaches the database
        rewrites this process's rows (any call whose outcome is unknown is then moot)."""
        self.shared = False
        if not self.failing:  # once per outage, however many sockets meet it
            self.failing = True
            why = f"no answer within {self.wait:g} s" if isinstance(exc, TimeoutError) \
                else f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"
            log.warning("open-socket counts: the database failed (%s); counting in this process's "
                        "memory until it answers (tried every %g s)", why, RENEW_EVERY)

    async def share(self, store: SocketCounts, holder: str) -> None:
        """Count in ``store`` from now on, as ``holder``, and keep this process alive there."""
        self.store, self.holder = store, holder
        await self.renew()
        task = asyncio.get_running_loop().create_task(self._renew_forever())
        self._tasks.add(task)

    async def _renew_forever(self) -> None:
        while True:
            await asyncio.sleep(RENEW_EVERY)
            await self.renew()

    async def renew(self) -> None:
        """One round: renew this process's member row; rewrite its counts if the
        database lost track of them (it failed, or forgot this process)."""
        assert self.store is not None
        if self._renewing is not None and not self._renewing.done():
            return  # the last round still waits on the database: one thread is enough
        self._renewing = self._start(self.store.renew_member, self.holder, LEASE_TTL, FORGET)
        try:
            alive = await asyncio.wait_for(asyncio.shield(self._renewing), self.wait)
        except Exception as exc:
            self._failed(exc)
            return
        if not alive:  # new, or forgotten while it stalled: the database has none of its counts
            if self.shared and self.open:
                log.warning("open-socket counts: this process was forgotten (it stalled over %g s); "
                            "writing its counts again", FORGET)
            self.shared = False
        if not self.shared and self._busy == 0 and self._taking == 0:
            await self._resync()

    async def _resync(self) -> None:
        """Replace this process's rows with its memory. No call is under way (one that
        timed out would still write), and takes wait meanwhile, so none is lost."""
        assert self.store is not None
        gate = self._resyncing = asyncio.Event()
        counts = {digest(key): n for key, n in self.open.items()}
        try:
            await self._call(self.store.reset_sockets, self.holder, counts)
        except Exception as exc:
            self._pending.clear()  # counted in memory; the next rewrite has them
            self._failed(exc)
        else:
            self.shared = True
            if self.failing:
                self.failing = False
                log.warning("open-socket counts: the database answers again; counting there")
            pending, self._pending = self._pending, []
            for key in pending:
                self._give_back_shared(key)
        finally:
            self._resyncing = None
            gate.set()

    async def close(self) -> None:
        """A clean stop: this process's counts leave the database now, not at expiry."""
        await cancel_and_wait(self._tasks)  # a renewal's wait_for may swallow one cancel
        if self.store is None:
            return
        for _ in range(int(self.wait / 0.05)):  # let calls under way finish, briefly
            if self._busy == 0:
                break
            await asyncio.sleep(0.05)
        try:
            await self._call(self.store.leave, self.holder)
        except Exception as exc:  # it expires on its own
            log.warning("open-socket counts: could not leave the database (%s); they expire in %g s",
                        type(exc).__name__, LEASE_TTL)
        self.store, self.shared = None, False
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)


def _seen(call: asyncio.Future[Any]) -> None:
    if not call.cancelled():
        call.exception()
