"""Table talk: what the people at a table write to each other, beside the game.

Two channels per table, each read only by its own: ``seats`` (the players, when
the table's ``talk`` option is on, the default) and ``spectators`` (only when
``spectator_talk`` is on). Which channel a line goes to is never asked of the
client: a seat's socket writes to the seats, a spectator's to the spectators, so
no watcher can post into the players' talk, and a socket without a seat's token
is a spectator. Bots read none of it (nothing here reaches a bot or a state).

A line is cleaned as a seat name is (control and format characters become
spaces, runs of spaces one), refused above ``--talk-max`` characters, counted
against ``--talk-rate`` per seat token (a spectator: per socket) and
``--talk-ip-rate`` per address (``rate_limited``), stored with the table
(``--talk-keep`` lines at most) and then pushed to the channel's pages here; other
processes hear the table's NOTIFY and push it to theirs (:meth:`TableTalk.catch_up`).
Pages draw it as text (``textContent``), never as markup.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import weakref
from typing import Any

from gloomtable.server.errors import ServerError
from gloomtable.server.limits import RateLimits
from gloomtable.server.options import clean_name
from gloomtable.server.store_talk import TalkLine
from gloomtable.server.table import Conn, LiveTable

log = logging.getLogger("gloomtable.server")

SEATS = "seats"
SPECTATORS = "spectators"


class TalkRefused(ServerError):
    """A line of talk refused: the error says ``"about": "say"``, so the page shows it
    in the talk panel and not as a refused move."""

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "about": "say"}


def channel_of(table: LiveTable, conn: Conn) -> str | None:
    """The channel this page reads and writes, or None if the table gives it none."""
    if conn.seat is not None:
        return SEATS if table.settings.talk else None
    return SPECTATORS if table.settings.spectator_talk else None


def watcher_id(table: LiveTable, ip: str) -> str:
    """A spectator's stable mark at this table (so a mute outlasts a reload): keyed by
    the table's own secret, so it names no address and differs from table to table."""
    digest = hmac.new(table.row.host_token.encode(), ip.encode(), hashlib.sha256).hexdigest()
    return "watcher:" + digest[:6]


class TableTalk:
    """The server's table talk: checks, stores and delivers lines (one per process)."""

    def __init__(self, rates: RateLimits) -> None:
        self.rates = rates
        self.config = rates.config
        self._seen: weakref.WeakKeyDictionary[LiveTable, int] = weakref.WeakKeyDictionary()
        """The newest line number each table in memory has pushed to its pages."""
        self._locks: weakref.WeakKeyDictionary[LiveTable, asyncio.Lock] = weakref.WeakKeyDictionary()
        """One catch-up at a time per table, so no line is pushed twice or out of order."""

    # --- a page opens -----------------------------------------------------------------

    async def welcome(self, table: LiveTable, conn: Conn) -> None:
        """The channel's newest lines (``--talk-backlog``) to a page that just opened, and
        which channel it has (``channel: null``: the page shows no talk panel)."""
        channel = channel_of(table, conn)
        lines: list[TalkLine] = []
        if channel is not None:
            try:
                lines = await self._in_store(table, table.store.talk_lines, table.id, channel, -1,
                                             self.config.talk_backlog)
            except Exception:  # the talk must never keep a page from its table
                log.exception("table %s: reading its talk failed", table.id)
        conn.push({"type": "talk", "channel": channel, "backlog": True,
                   "max": self.config.talk_max, "lines": [x.to_dict() for x in lines]})
        if lines:
            self._seen[table] = max(self._seen.get(table, -1), lines[-1].n)

    # --- a page writes ----------------------------------------------------------------

    async def say(self, table: LiveTable, conn: Conn, msg: dict[str, Any], key: str, ip: str) -> None:
        """``{"type": "say", "text": ...}``: one line into the page's own channel."""
        channel = channel_of(table, conn)
        if channel is None:
            why = "this table has no table talk" if conn.seat is not None else \
                "this table's spectators have no talk of their own (and the seats' talk is theirs)"
            raise TalkRefused("read_only", why, 403)
        raw = msg.get("text")
        if not isinstance(raw, str):
            raise TalkRefused("bad_message", '"text" must be text')
        most = self.config.talk_max
        if len(raw) > 4 * most:  # not even cleaning a line this long is worth it
            raise TalkRefused("too_large", f"a line of table talk has at most {most} characters")
        text = clean_name(raw, len(raw))
        if not text:
            raise TalkRefused("bad_message", "a line of table talk needs at least one visible character")
        if len(text) > most:
            raise TalkRefused("too_large", f"a line of table talk has at most {most} characters, "
                              f"not {len(text)}")
        if not await self.rates.hit_all([("talk_rate", key), ("talk_ip_rate", "ip:" + ip)]):
            raise TalkRefused("rate_limited", f"at most {self.config.talk_rate} lines of table talk; "
                              "wait a little", 429)
        if conn.seat is not None:
            who, name = f"seat:{conn.seat}", table.seats[conn.seat].row.name
        else:
            who = watcher_id(table, ip)
            name = "Spectator " + who.split(":")[1]
        line = await self._in_store(table, table.store.add_talk, table.id, channel, who, name, text,
                                    self.config.talk_keep)
        if line is None:
            raise TalkRefused("not_found", f"no table {table.id!r}", 404)
        table.touch()
        await self.catch_up(table, upto=line)

    # --- telling the pages ------------------------------------------------------------

    async def catch_up(self, table: LiveTable, upto: TalkLine | None = None) -> None:
        """Push every line this process's pages of ``table`` have not had yet (after a
        line of its own, or another process's NOTIFY). Nothing is read with no page open."""
        lock = self._locks.setdefault(table, asyncio.Lock())
        async with lock:
            await self._catch_up(table, upto)

    async def _catch_up(self, table: LiveTable, upto: TalkLine | None) -> None:
        if not table.conns:
            if upto is not None:
                self._seen[table] = max(self._seen.get(table, -1), upto.n)
            return
        seen = self._seen.get(table, -1)
        if upto is not None and upto.n <= seen:
            return  # already pushed by a catch-up that read it back
        if upto is not None and upto.n == seen + 1:
            lines = [upto]  # the usual case: nothing came between, no need to read it back
        else:
            lines = await self._in_store(table, table.store.talk_lines, table.id, None, seen,
                                         self.config.talk_backlog)
        if not lines:
            return
        self._seen[table] = max(seen, lines[-1].n)
        for channel in (SEATS, SPECTATORS):
            mine = [x.to_dict() for x in lines if x.channel == channel]
            if not mine:
                continue
            for c in list(table.conns):
                if channel_of(table, c) == channel:
                    c.push({"type": "talk", "channel": channel, "lines": mine})

    async def after_catch_up(self, table: LiveTable) -> None:
        """The cluster's hook: another process wrote to the table's talk."""
        try:
            await self.catch_up(table)
        except Exception:
            log.exception("table %s: catching up its talk failed", table.id)

    async def _in_store(self, table: LiveTable, call: Any, *args: Any) -> Any:
        """A store call, in a worker thread where the store waits on a database server."""
        if table.store.remote:
            return await asyncio.to_thread(call, *args)
        return call(*args)


RECORD_MOST = 100_000
"""Lines a chronicle tells at most (a table keeps ``--talk-keep`` anyway)."""


async def record_lines(table: LiveTable) -> list[tuple[int, str]]:
    """The seats' talk as the chronicle tells it, (seat, text) oldest first; nothing
    unless the table says so (``talk_in_record``, off by default)."""
    if not table.settings.talk_in_record:
        return []
    if table.store.remote:
        lines = await asyncio.to_thread(table.store.talk_lines, table.id, SEATS, -1, RECORD_MOST)
    else:
        lines = table.store.talk_lines(table.id, SEATS, -1, RECORD_MOST)
    return [(int(x.who.split(":")[1]), x.text) for x in lines if x.who.startswith("seat:")]
