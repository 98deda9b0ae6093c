"""Several server processes, one site: what each process does so that any number
of ``gloom serve --db postgresql://...`` share every table (docs/deploy.md).

- **Hearing.** Every committed change of a table sends ``NOTIFY`` (store_postgres.py);
  each process listens and, for each table it has in memory, reads the stored
  actions after the ones it knows and applies them (``LiveTable.catch_up``), then
  pushes each of its pages its own view. Views are built here, from the stored
  record; no process ever sends another a view or a hidden card.
- **One writer per move.** An action's index is unique per table in the store, so of
  two processes offering the same move one commits and the other answers
  ``stale_state`` (its player gets the current state, as on one process).
- **One leader per table.** The bots, turn timers and stand-ins of a table run in the
  one process that holds its lease: a row naming the process, which holds while that
  process beats. Each process has one row in ``heartbeats``, stamped every
  ``RENEW_EVERY`` seconds by the database's clock from a thread of its own on a
  connection of its own (:class:`Heartbeat`), so a busy event loop or a pool busy
  with moves never stops the beat, and keeping every lease costs one row update per
  beat however many tables the process leads. Presence rows (which seats have a page
  open on which process) are written when they change and count while their process
  beats. Every ``RENEW_EVERY`` seconds the event loop reads which leases still name
  this process and takes every lease that is missing or whose holder stopped
  beating, so when a process dies its tables are led by another within
  ``LEASE_TTL + RENEW_EVERY`` seconds. A leader that finds a lease taken (it stopped
  beating for longer than the term: it stalled whole, or lost the database) stops
  at once; even a move it had under way cannot be stored twice, by the unique index.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from gloomtable.engine import GloomtableError
from gloomtable.server import metrics
from gloomtable.server.errors import ServerError
from gloomtable.server.stopping import cancel_and_wait
from gloomtable.server.store import Store, in_store
from gloomtable.server.store_rows import FORGET
from gloomtable.server.table import LEASE_TTL, LiveTable


class Tables(Protocol):
    """What a cluster member reads of its process's lobby (the lobby holds the member,
    so the member names only this, and the two modules import one way)."""

    store: Store
    tables: dict[str, LiveTable]

    def get(self, tid: str) -> LiveTable: ...

log = logging.getLogger("gloomtable.server")

RENEW_EVERY = 0.5
"""Seconds between a process's heartbeats (and its looks for tables nobody leads)."""
TAKE_AT_ONCE = 500
"""Tables one look may take over (a dead process's tables are taken in one go)."""
FORGET_EVERY = 120
"""Beats between two sweeps of dead processes' heartbeat and presence rows (one a minute)."""


class Heartbeat:
    """This process's beat: one row of ``heartbeats`` stamped every ``every`` seconds
    from a daemon thread of its own, never from the event loop."""

    def __init__(self, store: Store, holder: str, every: float = RENEW_EVERY) -> None:
        self.store = store
        self.holder = holder
        self.every = every
        self.beat_at = time.monotonic()
        """When the last beat was stored (``/readyz`` and ``/metrics`` read its age)."""
        self.beats = 0
        self._failing = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def beat(self) -> bool:
        """Stamp the row now; False (logged once per outage) if the database did not take it."""
        try:
            self.store.beat(self.holder)
        except Exception as exc:
            if not self._failing:
                self._failing = True
                log.warning("heartbeat of %s failed (%s: %s); this process's leases lapse %g s "
                            "after its last beat", self.holder, type(exc).__name__,
                            " ".join(str(exc).split())[:200], LEASE_TTL)
            return False
        self.beat_at = time.monotonic()
        self.beats += 1
        if self._failing:
            self._failing = False
            log.warning("heartbeat of %s is stored again", self.holder)
        if self.beats % FORGET_EVERY == 0:
            with contextlib.suppress(Exception):  # a sweep missed is done a minute later
                self.store.forget_members(FORGET)
        return True

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="gloom-heartbeat", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        due = time.monotonic()
        while True:
            due += self.every
            if self._stop.wait(max(0.0, due - time.monotonic())):
                return
            self.beat()
            due = max(due, time.monotonic() - self.every)  # after a long beat, no burst to catch up

    def stop(self) -> None:
        """Beat no more (a beat under way is left to finish on its own)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self.every)


class Cluster:
    """This process's part in a site of several processes sharing one PostgreSQL."""

    def __init__(self, lobby: Tables, beat_store: Store | None = None) -> None:
        """``beat_store``: the store the heartbeat thread calls (the unguarded one: the
        thread waits on the database by itself, and the guard's pool is for the loop)."""
        self.lobby = lobby
        self.store = lobby.store
        self.holder = secrets.token_hex(8)
        self.heartbeat = Heartbeat(beat_store or lobby.store, self.holder)
        self.held: set[str] = set()
        self._dirty: set[str] = set()
        self._talk_dirty: set[str] = set()
        """Tables whose table talk another process wrote to (its NOTIFY says ``<id> talk``)."""
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self.after_catch_up: Callable[[LiveTable], Awaitable[None]] | None = None
        """Called for a table whose talk another process wrote to (server/talk.py reads the new lines)."""

    @property
    def renewed_at(self) -> float:
        """When this process's heartbeat was last stored (``/readyz`` reads it)."""
        return self.heartbeat.beat_at

    def join(self) -> None:
        """Beat once now (a process that does not beat can take no lease), then from the
        heartbeat's thread."""
        log.info("cluster member %s", self.holder)
        self.heartbeat.beat()
        self.heartbeat.start()

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self.store.listen(self._heard)),
                       loop.create_task(self._catch_up_forever()),
                       loop.create_task(self._lease_forever())]

    async def stop(self) -> None:
        await cancel_and_wait(self._tasks)
        self.heartbeat.stop()
        for tid in list(self.held):  # a clean stop hands its tables on at once
            with contextlib.suppress(Exception):
                self.store.release_lease(tid, self.holder)
        self.held.clear()
        with contextlib.suppress(Exception):  # and its pages' presence
            self.store.leave_members(self.holder)

    # --- leading -----------------------------------------------------------------

    def lead(self, table_id: str) -> bool:
        """Take the lease of a table (a new one, or one nobody leads); True if held."""
        if self.store.acquire_lease(table_id, self.holder):
            self.held.add(table_id)
            return True
        return False

    def _set_leader(self, table_id: str, leader: bool) -> None:
        table = self.lobby.tables.get(table_id)
        if table is None or table.leader == leader:
            return
        table.leader = leader
        table.schedule()  # a leader arranges the next automatic move; a follower cancels its own

    async def renew_and_take(self) -> None:
        """One round (nothing renewed: the heartbeat keeps every lease): read which leases
        still name this process, step down where one was taken, and take every table
        whose lease is missing or whose holder stopped beating. Every read waits in a
        worker thread, never on the event loop: under load the database answers slowly,
        and a round on the loop held every table of the process for that long."""
        before = set(self.held)
        still = set(await in_store(self.store, self.store.held_leases, self.holder))
        lost = before - still  # a table led since the read began is not lost
        for tid in lost:
            log.warning("table %s: lease lost; another process leads it now", tid)
            metrics.LEASES_LOST.inc()
            self._set_leader(tid, False)
        self.held = (self.held - lost) | still
        for tid in list(still):
            table = self.lobby.tables.get(tid)
            if table is None or table.over:  # finished (or deleted): nothing left to run
                await in_store(self.store, self.store.release_lease, tid, self.holder)
                self.held.discard(tid)
            elif table.present_elsewhere:  # a dead process tells nobody: its presence lapses with its beat
                await table.refresh_presence_off_loop()
        for tid in await in_store(self.store, self.store.free_tables, TAKE_AT_ONCE):
            if not await in_store(self.store, self.store.acquire_lease, tid, self.holder):
                continue
            self.held.add(tid)
            table = self.lobby.tables.get(tid)
            if table is None:
                try:
                    table = self.lobby.get(tid)
                except (GloomtableError, ServerError, ValueError, KeyError) as exc:  # broken, or just deleted
                    log.error("table %s cannot be taken over: %s", tid, exc)
                    continue
            elif not table.lock.locked():
                await table.catch_up()  # it may have missed notifications while it followed
            else:
                self._heard(tid)
            log.info("table %s: %s leads it now", tid, self.holder)
            metrics.LEASES_TAKEN.inc()
            table.leader = True
            table.schedule()

    async def _lease_forever(self) -> None:
        while True:
            try:
                await self.renew_and_take()
            except ServerError:  # the database did not answer (the store's guard logs it once)
                pass
            except Exception:  # the database may be restarting: try again next round
                log.exception("reading and taking leases failed")
            await asyncio.sleep(RENEW_EVERY)

    # --- hearing -------------------------------------------------------------------

    def _heard(self, table_id: str) -> None:
        table_id, _, what = table_id.partition(" ")
        if table_id == "*":  # the link was broken: anything may have changed
            self._dirty.update(self.lobby.tables)
            self._talk_dirty.update(self.lobby.tables)
        elif table_id in self.lobby.tables:
            (self._talk_dirty if what == "talk" else self._dirty).add(table_id)
        self._wake.set()

    async def _catch_up_forever(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._dirty:
                tid = self._dirty.pop()
                table = self.lobby.tables.get(tid)
                if table is None:
                    continue
                try:
                    await table.catch_up()
                except ServerError:  # the database did not answer (logged once by the store's guard)
                    self._dirty.add(tid)  # read it when the database answers again
                    break
                except Exception:
                    log.exception("table %s: catching up failed", tid)
            while self._talk_dirty:  # only tables whose talk changed: a move reads no talk
                table = self.lobby.tables.get(self._talk_dirty.pop())
                if table is not None and self.after_catch_up is not None:
                    await self.after_catch_up(table)
