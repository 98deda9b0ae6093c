"""One live table: the shell that waits around its ``TableCore``.

The core (``server/table_core.py``) holds the game, the seats, the log and the
order of an accepted action, boardgame.io's master's: the seat is authenticated
(its token, checked on connect), it must be that seat's decision, the client's
state id must be current, the engine must call the action legal; then the action
is applied to a copy. This shell appends it to the store in a transaction, and only
then does the new state replace the old and each connection hear of it, through
its own view. It also holds what waits: the connections' mailboxes, the bots'
pool, timers, response windows' pauses, presence on other processes, catch-up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from gloomtable.bots.base import Bot, RandomBot, bot_action, is_quick
from gloomtable.bots.levels import make_bot
from gloomtable.engine import Game, GloomtableError, State
from gloomtable.learn import StepTracker
from gloomtable.server import metrics
from gloomtable.server.deltas import diff, document, dumps, wire_bytes
from gloomtable.server.errors import ServerError, Unconfirmed
from gloomtable.server.options import TableOptions
from gloomtable.server.ratings import plan as rating_plan
from gloomtable.server.store import SeatRow, StaleActionError, Store, TableRow, in_store
from gloomtable.server.store_rows import LEASE_TERM
from gloomtable.server.table_core import LOG_KEEP, LogEntry, Played, TableCore, answer_results
from gloomtable.server.version import page_version
from gloomtable.server.window import ResponseWindow, is_respond, open_window

LEASE_TTL = LEASE_TERM
"""Seconds a table's lease, and a seat's presence stored by one process, outlive that
process's last heartbeat (server/cluster.py)."""

log = logging.getLogger("gloomtable.server")

QUEUE_LIMIT = 256
"""Messages waiting for one slow connection before the server drops it ..."""
QUEUE_BYTES = 1 << 20
"""... or bytes (``gloom serve --queue-bytes``)."""


def bot_seed() -> int:
    """A bot's own randomness, from the operating system: never derived from the
    deal, so knowing how a bot played tells nothing of the shuffle, and the reverse."""
    return secrets.randbelow(2**62)


CONFIRM_TRIES = 120
"""Times a move with no known outcome is read back before giving up (a page's sync still works)."""
CONFIRM_EVERY = 1.0
"""Seconds between those reads."""


@dataclass
class BotPolicy:
    """Where bots think and how fast they may play: searches run in their own bounded
    pool (a person's move never waits behind one; a quick bot chooses on the loop),
    and a table where nobody sits (only bots, or stand-ins for absent people) waits at
    least ``bot_only_min_delay_ms`` before each move."""

    pool: ThreadPoolExecutor | None = None
    """None: asyncio's default pool (tests that build a table by hand)."""
    bot_only_min_delay_ms: int = 0


@dataclass
class Seat:
    row: SeatRow
    conns: int = 0
    absent_since: float | None = None
    bot: Bot | None = None

    @property
    def index(self) -> int:
        return self.row.seat


Patches = dict[tuple[int | None, str], tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]]
"""One broadcast's patches: (seat, language) to (the state before, after, the operations)."""


@dataclass(eq=False)
class Conn:
    """One websocket's mailbox. The table only ever pushes; a sender task drains.

    A message is turned into JSON text when pushed, so the mailbox knows its size in
    bytes; a connection whose waiting messages pass ``max_bytes`` (or ``QUEUE_LIMIT``
    messages) is dropped: its mailbox is emptied at once and the sender closes it."""

    seat: int | None
    lang: str = "en"
    """The language this page reads; its state messages are translated for it."""
    max_bytes: int = QUEUE_BYTES
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    queued_bytes: int = 0
    log_sent: int = 0
    dropped: bool = False
    deltas: bool = False
    """The page asked for patches after its first full state (``"deltas": true`` in its hello)."""
    rev: int = 0
    """State messages sent to this connection: a patch turns ``rev - 1`` into ``rev``."""
    shown: dict[str, Any] | None = None
    """The document of the last state message sent (a patch's base), when ``deltas``."""

    def push(self, message: dict[str, Any] | None) -> None:
        if self.dropped:
            return
        if message is None:
            self.queue.put_nowait(None)
            return
        text = dumps(message)
        size = wire_bytes(text)
        if self.queued_bytes + size > self.max_bytes or self.queue.qsize() >= QUEUE_LIMIT:
            self.drop()
            return
        self.queued_bytes += size
        self.queue.put_nowait(text)

    def push_state(self, message: dict[str, Any], shared: Patches | None = None) -> None:
        """A state message: whole to a page that did not opt in to deltas, and to one
        that did, the first time and on a resync; after that a patch from the last one.
        ``shared``: one broadcast's patches by seat and language, so pages that were
        sent the same state (spectators, a seat's second page) share one diff."""
        if not self.deltas:
            self.push(message)
            return
        doc = document(message)
        base, self.shown = self.shown, doc
        self.rev += 1
        if base is None or message.get("resync"):
            self.push({**message, "rev": self.rev})
            return
        key = (self.seat, self.lang)
        made = shared.get(key) if shared is not None else None
        if made is not None and (made[0] is base or made[0] == base):
            _, self.shown, ops = made  # the same state as another page's, after the same one
        else:
            ops = diff(base, doc)
            if shared is not None:
                shared[key] = (base, doc, ops)
        self.push({"type": "patch", "table": message["table"], "base": self.rev - 1, "rev": self.rev,
                   "from_state_id": base["state_id"], "state_id": doc["state_id"],
                   "ops": ops, "log_start": message["log_start"], "log": message["log"]})

    def drop(self) -> None:
        """Too slow a reader: free what waits for it now; the sender closes it; a reload resyncs."""
        self.dropped = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queued_bytes = 0
        self.queue.put_nowait(None)

    def sent(self, text: str) -> None:
        self.queued_bytes -= wire_bytes(text)


class LiveTable:
    """A table in memory, rebuilt from its record whenever the server starts."""

    def __init__(self, row: TableRow, store: Store, game: Game, state: State,
                 bots: BotPolicy | None = None, core: TableCore | None = None) -> None:
        self.core = core if core is not None else TableCore(row, game, state)
        """The game, seats and log, and the order of a move's checks (server/table_core.py)."""
        self.row = row
        self.store = store
        self.seats = [Seat(s) for s in row.seats]
        self.conns: set[Conn] = set()
        self.lock = asyncio.Lock()
        self.deadline: float | None = None  # wall clock, for pages
        self._deadline_mono: float | None = None
        self._timer: asyncio.Task[None] | None = None
        self.window: ResponseWindow | None = None
        """The response window open now (server/window.py), on the process that leads the table."""
        self._window_task: asyncio.Task[None] | None = None
        self.bots = bots or BotPolicy()
        self.leader = True
        """This process runs the table's bots, timers and stand-ins (with several
        processes: it holds the table's lease, server/cluster.py)."""
        self.holder: str | None = None
        """With several processes: this process's id, under which it stores its pages' presence."""
        self.present_elsewhere: set[int] = set()
        """Seats with a page open on another process."""
        now = time.monotonic()
        self.last_seen = now
        """When a page last came or went, or a move was made (how long a finished table stays in memory)."""
        self.last_move = now
        """When the table was made, a move was made or a seat was taken: an unfinished table
        goes after ``--idle-table-expiry`` without one, pages open or not (issue 29, row 2)."""
        self.owner: str | None = None
        """The client (IP, or IPv6 network) that made the table: ``--open-tables-per-ip`` counts by it."""
        self._confirming: asyncio.Task[None] | None = None
        """Reading back a move whose store call had no known outcome (``_confirm_later``)."""
        lesson = self.core.lesson
        for seat in self.seats:
            if seat.row.kind == "bot":
                # A lesson's bots play as the lesson was written and tested; others draw afresh.
                seed = lesson.lesson.bot_seed + seat.index if lesson else bot_seed()
                seat.bot = make_bot(seat.row.level, row.game, seed)
            else:
                seat.absent_since = now

    # --- building ----------------------------------------------------------------

    @classmethod
    def open(cls, row: TableRow, store: Store, bots: BotPolicy | None = None) -> LiveTable:
        """Build the game and replay the stored actions; a record that no longer
        replays leaves the table readable but marked broken, never crashes the server."""
        core = TableCore.replay(row)
        if core.broken:
            log.error("table %s: %s", row.id, core.broken)
        table = cls(row, store, core.game, core.state, bots, core)
        table.start_decision()
        return table

    # --- reading -----------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def game(self) -> Game:
        return self.core.game

    @property
    def state(self) -> State:
        """The current state (the core's): replaced on every move, never changed in place."""
        return self.core.state

    @property
    def state_id(self) -> int:
        """The number of actions applied: the client's proof that it saw the current state."""
        return len(self.row.actions)

    @property
    def over(self) -> bool:
        return self.core.state.is_over()

    @property
    def entries(self) -> list[LogEntry]:
        return self.core.entries

    @property
    def broken(self) -> str | None:
        return self.core.broken

    @property
    def lesson(self) -> StepTracker | None:
        return self.core.lesson

    @property
    def options(self) -> dict[str, Any]:
        return self.core.options

    @property
    def settings(self) -> TableOptions:
        """``options`` typed, each missing key at the model's default (read once)."""
        return self.core.settings

    def seat_for_token(self, token: str | None) -> int | None:
        return self.core.seat_for_token(token)

    def is_open_seat(self, index: int) -> bool:
        """Whether the seat was created open: taken with the lobby's Join, not by an invite."""
        return self.core.is_open_seat(index)

    @property
    def fixed_deal(self) -> bool:
        return self.core.fixed_deal

    @property
    def response_pause(self) -> float | None:
        return self.core.response_pause

    def touch(self) -> None:
        self.last_seen = time.monotonic()

    def person_present(self) -> bool:
        """A person has a page of the table open (here or on another process)."""
        return any(self.connected(s) for s in self.seats if s.row.kind == "person")

    def connected(self, seat: Seat) -> bool:
        """A page of the seat is open, here or on another process."""
        return seat.conns > 0 or seat.index in self.present_elsewhere

    def stand_in_active(self, seat: Seat) -> bool:
        """A bot plays for this person: they have been gone long enough and the table allows it."""
        return self.core.stand_in_due(seat.index, self.connected(seat), seat.absent_since, time.monotonic())

    def public_seats(self) -> list[dict[str, Any]]:
        return [{"seat": s.index, "name": s.row.name, "kind": s.row.kind,
                 "level": s.row.level if s.row.kind == "bot" else None,
                 "claimed": s.row.claimed or s.row.kind == "bot", "connected": self.connected(s),
                 "stand_in": self.stand_in_active(s)} for s in self.seats]

    def open_seat_count(self) -> int:
        return self.core.open_seat_count()

    def summary(self) -> dict[str, Any]:
        """What the table page and its API show (``TableCore.summary``), with who is here."""
        return self.core.summary(self.public_seats())

    def listing_entry(self) -> dict[str, Any]:
        """What the lobby's listing shows of a table: a few short fields."""
        return listing_entry(self.row)

    def catalogue(self) -> dict[str, Any]:
        return self.core.catalogue()

    def welcome(self, conn: Conn) -> dict[str, Any]:
        return {"type": "welcome", "table": self.summary(), "seat": conn.seat, "version": page_version(),
                "cards_url": f"/api/tables/{self.id}/cards"}

    def state_message(self, conn: Conn, view_cache: dict[int | None, Mapping[str, Any]] | None = None
                      ) -> dict[str, Any]:
        """The state as ``conn``'s seat sees it, its log from where the connection stopped."""
        start = conn.log_sent or max(0, len(self.core.entries) - LOG_KEEP)
        msg = self.core.state_message(conn.seat, conn.lang, start, seats=self.public_seats(),
                                      deadline=self.deadline, window=self.window, view_cache=view_cache)
        conn.log_sent = len(self.core.entries)
        return msg

    # --- connections -------------------------------------------------------------

    def attach(self, conn: Conn) -> None:
        self.touch()
        self.conns.add(conn)
        if conn.seat is not None:
            seat = self.seats[conn.seat]
            seat.conns += 1
            seat.absent_since = None
            self._tell_presence(seat)
            if not seat.row.claimed:
                seat.row.claimed = True
                self.store.update_seat(self.id, seat.index, claimed=True)
        conn.log_sent = 0
        w = self.window
        if w is not None and not w.present.is_set() and conn.seat in w.states:
            w.restart()  # someone is back to a window that waited for its people: the pause runs now
            self.deadline, self._deadline_mono = w.ends, w.ends_mono
            w.awaited.add(conn.seat)
            w.present.set()
            cache: dict[int | None, Mapping[str, Any]] = {}
            for c in list(self.conns):
                if c is not conn:  # this page hears it in its own welcome, next
                    c.push_state(self.state_message(c, cache))
        conn.push(self.welcome(conn))
        conn.push_state(self.state_message(conn))
        self.broadcast_seats()
        if conn.seat is not None:  # a person is back: no stand-in; spectators change nothing
            self.schedule()

    def detach(self, conn: Conn) -> None:
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        self.touch()
        if conn.seat is not None:
            seat = self.seats[conn.seat]
            seat.conns -= 1
            self._tell_presence(seat)
            if seat.conns == 0:
                seat.absent_since = time.monotonic()
                self.schedule()
        self.broadcast_seats()

    def rename(self, conn: Conn, name: str) -> None:
        self.core.rename(conn.seat, name)
        assert conn.seat is not None  # the core refuses a spectator
        self.store.update_seat(self.id, conn.seat, name=name)
        self.broadcast_seats()

    def broadcast_seats(self) -> None:
        seats = self.public_seats()
        for c in self.conns:
            c.push({"type": "seats", "seats": seats})

    def broadcast(self) -> None:
        cache: dict[int | None, Mapping[str, Any]] = {}
        patches: Patches = {}
        for c in list(self.conns):
            c.push_state(self.state_message(c, cache), patches)

    # --- acting ------------------------------------------------------------------

    async def submit(self, conn: Conn, action: int, state_id: int, narration: str | None) -> None:
        """A person's action, checked in boardgame.io's order."""
        if conn.seat is None:
            raise ServerError("read_only", "spectators watch; they cannot act")
        async with self.lock:
            accepted = self.core.check(conn.seat, action, state_id, self.window)
            if accepted.answer:
                self._answer(conn.seat, action)
                return
            await self._commit(action, conn.seat, "person", narration, accepted.lesson_step)

    def _answer(self, seat: int, action: int) -> None:
        """A seat's answer to the open response window, checked by the core: kept (the last
        one counts) until the pause ends or every person present has answered. Caller holds the lock."""
        w = self.window
        assert w is not None
        w.answer(seat, action, "person")
        cache: dict[int | None, Mapping[str, Any]] = {}
        for c in list(self.conns):
            if c.seat == seat:  # only the seat itself learns that it answered
                c.push_state(self.state_message(c, cache))

    def lesson_next(self, conn: Conn) -> None:
        """The learner read a step that only asks to look: on to the next."""
        self.core.lesson_next(conn.seat)
        self.broadcast()

    async def _commit(self, action: int, seat: int, actor: str, narration: str | None,
                      lesson_step: bool = False) -> None:
        """Apply to a copy, store (with the next decision's timer deadline), then swap
        and tell everyone. Caller holds the lock."""
        await self._store_move(action, seat, actor, narration, lesson_step)
        self._moved()

    def _moved(self) -> None:
        """After one or more moves: the next decision, its window if it asks for
        responses, then every page hears of it."""
        self.touch()
        self.last_move = self.last_seen
        self.start_decision()
        self._ensure_window()
        self.broadcast()
        self.schedule()

    async def _store_move(self, action: int, seat: int, actor: str, narration: str | None,
                          lesson_step: bool = False) -> None:
        """Apply to a copy (the core's ``play``) and store it (with the next decision's
        timer deadline), then swap (``commit``): nobody sees a move before it is stored.
        Caller holds the lock."""
        played: Played = self.core.play(action, seat, actor, narration, lesson_step)
        nxt, idx = played.state, played.index
        over = nxt.is_over()
        deadline = self._deadline_for(nxt)
        rating = rating_plan(self, nxt, seat, actor, action) if over else None  # stored with it
        try:
            args = (self.id, idx, action, seat, actor, narration, over, deadline, rating)
            await self.store.commit_action(*args)  # PostgreSQL: the loop's own link, grouped with others
        except Unconfirmed as exc:  # the database did not answer in time: the move may yet be stored
            self._confirm_later(exc.future)
            raise ServerError("server_busy", "your move is not confirmed yet: the tables' database did not "
                              "answer in time. The table shows it once the database answers (if it was "
                              "stored); otherwise choose again then", 503) from None
        except StaleActionError:  # another process stored a move at this index first
            await self._catch_up()
            raise ServerError("stale_state",
                              "another move was made first; the current state follows") from None
        self.row.deadline, self.row.deadline_idx = deadline, idx + 1
        self.core.commit(played)
        metrics.moved(self.row.game, actor)

    def _confirm_later(self, future: Any) -> None:
        """After a store call with no known outcome: once it ends (and the database
        answers), read the table back and send every page the state it is really in."""

        async def confirm() -> None:
            if future is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wrap_future(future)
            for _ in range(CONFIRM_TRIES):
                try:
                    async with self.lock:
                        before = self.state_id
                        await self._catch_up()  # (fails at once while the database is still away)
                        if self.state_id == before:
                            self.broadcast()  # nothing was stored: the same state, the page may choose again
                            self.schedule()  # and a bot or timer whose move it was moves again
                        return
                except Exception:  # still no answer: ask again shortly
                    await asyncio.sleep(CONFIRM_EVERY)

        self._confirming = asyncio.get_running_loop().create_task(confirm())

    def _tell_presence(self, seat: Seat) -> None:
        """With several processes: store how many pages of the seat this one has open."""
        if self.holder is not None:
            try:
                self.store.set_presence(self.id, seat.index, self.holder, seat.conns)
            except Exception:  # a page must not fail to open because the database hiccups
                log.exception("table %s: storing seat %d's presence failed", self.id, seat.index)

    def refresh_presence(self) -> bool:
        """Read which seats have a page open on other processes; True if that changed.
        A seat whose last page elsewhere went (or whose process died) is absent from now."""
        if self.holder is None:
            return False
        return self._take_presence(self.store.present_seats(self.id, self.holder))

    async def refresh_presence_off_loop(self) -> bool:
        """``refresh_presence`` with the read in a worker thread (the lease round's, every 0.5 s)."""
        if self.holder is None:
            return False
        return self._take_presence(await in_store(self.store, self.store.present_seats, self.id, self.holder))

    def _take_presence(self, present: set[int]) -> bool:
        if present == self.present_elsewhere:
            return False
        now = time.monotonic()
        for seat in self.seats:
            if seat.index in self.present_elsewhere and seat.index not in present and seat.conns == 0:
                seat.absent_since = now
            elif seat.index in present:
                seat.absent_since = None
        self.present_elsewhere = present
        self.broadcast_seats()
        self.schedule()
        return True

    async def catch_up(self) -> None:
        """Take in what other processes stored since this one last looked (their NOTIFY).
        The reads wait in a worker thread, the table's lock held: another process's
        every move brings one, and the event loop serves every table meanwhile."""
        async with self.lock:
            await self._catch_up()

    async def _catch_up(self) -> None:
        """``catch_up`` for a caller that holds the lock."""
        row = await in_store(self.store, self.store.load, self.id, since=self.state_id)
        if row is not None:
            self._take_row(row)
            await self.refresh_presence_off_loop()

    def _take_row(self, row: TableRow) -> None:
        """Apply the stored actions after ``state_id`` and the seats' and next table's
        changes, then tell this process's pages, each through its own view."""
        seats_changed = self.core.take_seats(row.seats)
        moved = bool(row.actions) and not self.broken
        for k, action in enumerate(row.actions if moved else []):
            idx = row.first + k
            if not self.core.take_stored(idx, action, row.actors[k], row.narration.get(idx)):
                log.error("table %s: %s", self.id, self.broken)
                break
            self.last_move = time.monotonic()
        next_changed = row.next_table != self.row.next_table
        self.row.next_table = row.next_table
        self.row.deadline, self.row.deadline_idx = row.deadline, row.deadline_idx
        if moved or next_changed:
            self.touch()
            self.start_decision()
            self._ensure_window()
            self.broadcast()
            self.schedule()
        elif seats_changed:
            self.broadcast_seats()

    def _deadline_for(self, state: State) -> float | None:
        """When the turn timer of ``state``'s decision runs out (epoch seconds), if a person holds it."""
        timer = self.core.timer_for(state)
        return None if timer is None else time.time() + timer

    def start_decision(self) -> None:
        """A new decision: its turn timer runs to the stored deadline (so a restart or
        another process goes on with the same one), or from now if none is stored."""
        if self.row.deadline_idx == self.state_id and not self.broken:
            self.deadline = self.row.deadline
        else:
            self.deadline = self._deadline_for(self.state)
            if self.deadline is not None:
                self.store.set_deadline(self.id, self.state_id, self.deadline)
            self.row.deadline, self.row.deadline_idx = self.deadline, self.state_id
        self._deadline_mono = None if self.deadline is None else \
            time.monotonic() + (self.deadline - time.time())

    # --- response windows (server/window.py) --------------------------------------------

    def _ensure_window(self) -> bool:
        """Open the window of the current decision if it asks for responses and this
        process leads the table; drop a window the table has moved past. True if one opened."""
        w = self.window
        if w is not None and w.start_id == self.state_id and self.leader and not self.broken:
            return False
        self._drop_window()
        pause = self.response_pause
        if pause is None or not self.leader or self.broken or not is_respond(self.state):
            return False
        w = open_window(self.state, self.state_id, pause)
        if w is None:
            return False
        people = [q for q in w.seats if self.seats[q].row.kind == "person"
                  and not self.stand_in_active(self.seats[q])]
        w.awaited.update(q for q in people if self.connected(self.seats[q]))
        if w.awaited or not people:
            w.present.set()
        self.window = w
        self.deadline, self._deadline_mono = w.ends, w.ends_mono
        with contextlib.suppress(RuntimeError):  # no running loop: nothing to run it
            self._window_task = asyncio.get_running_loop().create_task(self._run_window(w))
        return True

    def _drop_window(self) -> None:
        """Forget the open window without closing it (the table moved past it, or closes):
        whoever answered it from a page hears that the answer was not taken."""
        task, w, self._window_task, self.window = self._window_task, self.window, None, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        if w is not None:
            self._tell_answers(w, {})

    async def _run_window(self, w: ResponseWindow) -> None:
        """Bots and stand-ins answer at once (each on the state it is asked in); then
        the pause runs out, or every person present answers, and the window closes."""
        try:
            for q in w.seats:
                seat = self.seats[q]
                if seat.row.kind == "bot" or self.stand_in_active(seat):
                    action = await self._bot_choice(seat, w.states[q], w.options[q])
                    if self.window is not w:
                        return
                    w.answer(q, action, "bot" if seat.row.kind == "bot" else "stand_in")
            await w.present.wait()  # a window whose people are all away waits, as any decision does
            if not w.awaited:
                w.done.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(w.done.wait(), w.left())
            if not any(s.conns for s in self.seats if s.row.kind == "person"):
                # nobody sits here: the window keeps the least pace a move of such a table keeps
                await asyncio.sleep(self.bots.bot_only_min_delay_ms / 1000)
            async with self.lock:
                if self.window is not w or self.state_id != w.start_id:
                    return
                self._window_task = None
                await self._close_window(w)
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug here must not silence the table: log it and stop
            log.exception("table %s: the response window failed", self.id)

    async def _close_window(self, w: ResponseWindow) -> None:
        """Hand the answers to the engine in turn order (R-G20): the first response
        cancels the card, and the engine asks nobody after it. A seat that did not
        answer lets the card stand. Every person who answered from a page is told what
        became of the answer (``_tell_answers``) before the next state. Caller holds the lock."""
        self.window = None
        outcome: dict[int, tuple[str, int | None]] = {}
        try:
            for q in w.seats:
                turn = self.core.window_turn(w, q, self.seats[q].row.kind == "person")
                if turn is None:
                    break  # an earlier seat's response cancelled the card: nobody after it is asked
                action, actor = turn
                outcome[q] = ("unconfirmed", None)
                idx = self.state_id
                await self._store_move(action, q, actor, None)
                outcome[q] = ("stored", idx)
        except ServerError as exc:  # busy, or another process stored a move first (caught up already)
            log.info("table %s: a response window closed early: %s", self.id, exc.message)
        finally:
            self._tell_answers(w, outcome)
            self._moved()

    def _tell_answers(self, w: ResponseWindow, outcome: Mapping[int, tuple[str, int | None]]) -> None:
        """Tell each person who answered the window from a page what became of that answer
        (``answer_results``), so a page never believes an answer was taken that was not."""
        for q, (action, result, index) in answer_results(w, outcome).items():
            msg = {"type": "answer", "table": self.id, "state_id": w.start_id, "action": action,
                   "result": result, "index": index}
            for c in list(self.conns):
                if c.seat == q:
                    c.push(msg)

    # --- bots and timers -------------------------------------------------------------

    def schedule(self) -> None:
        """Arrange the next automatic move, if any: a bot's play after the table's
        delay, a stand-in for an absent person, or the turn timer's expiry."""
        if self._timer is not None and self._timer is not asyncio.current_task():
            self._timer.cancel()
        self._timer = None
        if self._ensure_window():
            self.broadcast()  # a resumed table (or one this process now leads) opened its window
        if self.window is not None:
            return  # the window's own task closes it
        if self.over or self.broken or not self.leader:
            return
        seat = self.seats[self.state.current_player()]
        delay_ms = self.settings.bot_delay_ms
        if not any(s.conns for s in self.seats if s.row.kind == "person"):
            # nobody sits here (only bots, or stand-ins for absent people): keep the least pace
            delay_ms = max(delay_ms, self.bots.bot_only_min_delay_ms)
        delay = delay_ms / 1000
        now = time.monotonic()
        waits: list[tuple[float, str]] = []
        if seat.row.kind == "bot":
            waits.append((delay, "bot"))
        else:
            if self.settings.replace_absent and not self.connected(seat) \
                    and seat.absent_since is not None:
                due = seat.absent_since + self.settings.absent_after - now
                waits.append((max(due, delay), "stand_in"))
            if self._deadline_mono is not None:
                waits.append((max(self._deadline_mono - now, 0.0), "timeout"))
        if not waits:
            return
        wait, reason = min(waits)
        with contextlib.suppress(RuntimeError):  # no running loop: nothing to schedule
            self._timer = asyncio.get_running_loop().create_task(
                self._fire(self.state_id, wait, reason))

    async def _fire(self, state_id: int, wait: float, reason: str) -> None:
        await asyncio.sleep(wait)
        try:
            if self.state_id != state_id or self.over:
                return
            seat = self.seats[self.state.current_player()]
            if reason == "stand_in" and not self.stand_in_active(seat):
                if seat.row.kind == "person" and not self.connected(seat):
                    self.schedule()
                return
            # States are replaced, never changed in place: the bot thinks on this one
            # without the table's lock, so a person's message is never held behind it.
            state = self.state
            legal = state.legal_actions()
            view: Mapping[str, Any] | None = None
            if reason == "timeout" and self.settings.on_timeout == "pass" and 0 in legal:
                action = 0
            else:
                # A quick bot and its move's told line read one view of the seat, built here.
                bot = self._bot_for(seat)
                if is_quick(bot) and (reason != "timeout" or getattr(bot, "uses_view", True)):
                    view = state.view(seat.index)
                action = await self._bot_choice(seat, state, legal, view)
            narration = self._narrate(seat, state, action, view) if reason != "timeout" else None
            async with self.lock:
                if self.state_id != state_id or self.over:
                    return
                if reason == "stand_in" and not self.stand_in_active(seat):
                    return  # they came back while the bot thought: the move is theirs
                await self._commit(action, seat.index, reason, narration)
        except ServerError as exc:
            if exc.code == "server_busy":  # the database did not take it (or not yet): try again
                self._retry_later(state_id, reason)
            return  # stale: another process stored this move first; nothing is played twice
        except Exception:  # a bot's bug must not silence the table: log it and stop
            log.exception("table %s: automatic move failed", self.id)

    def _retry_later(self, state_id: int, reason: str) -> None:
        """An automatic move the database refused as busy, or did not confirm in time, is
        tried again ``CONFIRM_EVERY`` seconds later, until it is stored or the state moves
        on: without this a table of bots met by one database hiccup never moved again. A
        move that was stored after all is not played twice (its index is taken: stale)."""
        if self.state_id != state_id or self.over or not self.leader:
            return
        if self._timer is not None and self._timer is not asyncio.current_task() and not self._timer.done():
            return  # the table arranged its next automatic move meanwhile
        with contextlib.suppress(RuntimeError):  # no running loop: nothing to schedule
            self._timer = asyncio.get_running_loop().create_task(
                self._fire(state_id, CONFIRM_EVERY, reason))

    async def _bot_choice(self, seat: Seat, state: State, legal: list[int],
                          view: Mapping[str, Any] | None = None) -> int:
        """The seat's bot decides: a quick one (``is_quick``: the random bot, a plain
        heuristic) here on the loop, where a thread hand-off would cost more than its
        choice; any other in the bots' own pool (other tables and every person's move
        keep going while it searches). A bot that fails or answers nonsense is replaced,
        for this move, by a random one."""
        bot = self._bot_for(seat)
        try:
            if is_quick(bot):
                action = bot_action(bot, state, legal, view)
            else:
                action = await asyncio.get_running_loop().run_in_executor(
                    self.bots.pool, bot_action, bot, state, legal)
        except Exception:
            log.exception("table %s: the %s bot of seat %d failed", self.id, seat.row.level, seat.index)
            action = None
        if action not in legal:
            action = RandomBot(bot_seed()).choose({}, legal)
        return action

    def _bot_for(self, seat: Seat) -> Bot:
        if seat.bot is None:
            seat.bot = make_bot(seat.row.level, self.row.game, bot_seed())
        return seat.bot

    def _narrate(self, seat: Seat, state: State, action: int,
                 view: Mapping[str, Any] | None = None) -> str | None:
        """The bot's told line for its move, from the seat's view of ``state`` (``view``,
        when the bot's choice built it already)."""
        try:
            from gloomtable.bots.narration import narrate
        except ImportError:
            return None
        try:
            text = narrate(self.row.game, state.view(seat.index) if view is None else view, action,
                           bot_seed())
        except GloomtableError:
            return None
        return text[:300] if text else None

    def close(self) -> None:
        self._drop_window()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for c in list(self.conns):
            c.push(None)


def listing_entry(row: TableRow) -> dict[str, Any]:
    """What the lobby's listing shows of a table (live here, or only in the store)."""
    open_seats = row.options.get("open_seats", ())
    return {"id": row.id, "game": row.game, "seats": [s.name for s in row.seats],
            "open_seats": sum(1 for s in row.seats if s.seat in open_seats and not s.claimed),
            "spectators": TableOptions.stored(row.options).spectators,
            "uploaded": [d.get("name", "") for d in row.options.get("uploaded_decks", ())]}
