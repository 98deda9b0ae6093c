"""The moves' own connections to PostgreSQL, driven on the event loop.

A group of moves is one prepared statement (``store_postgres._STORE_MOVES``).
Sent from a worker thread, it cost the server twice what its statement costs:
the hop to the thread and back, the pool's checkout, psycopg's cursor, and two
hand-overs of the GIL, each of which can wait for a busy event loop to let go
(up to the interpreter's switch interval, 5 ms). So a group is sent by libpq's
non-blocking calls on the loop itself: write the statement, wait until the
socket is readable, read the answer; the loop goes on with other work between.
A link serves one group at a time; :class:`MoveLinks` keeps the idle ones and
opens another (in a thread: connecting blocks) when none is idle, so a group
that waits on a stalled link never holds up the next once the database answers
again (the guard bounds every wait, server/store_guard.py).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from typing import Any

import psycopg
from psycopg import pq
from psycopg.errors import error_from_result

STATEMENT = b"gloom_moves"
"""The moves' statement, prepared on each link when it opens."""


class MovesLink:
    """One connection of the moves' statement (one group at a time)."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn
        self.pgconn = conn.pgconn
        self.pgconn.nonblocking = 1

    async def _ready(self, write: bool) -> None:
        """Until the socket can be written (or read)."""
        loop = asyncio.get_running_loop()
        fd = self.pgconn.socket
        ready = loop.create_future()

        def wake() -> None:
            if not ready.done():
                ready.set_result(None)

        if write:
            loop.add_writer(fd, wake)
        else:
            loop.add_reader(fd, wake)
        try:
            await ready
        finally:
            (loop.remove_writer if write else loop.remove_reader)(fd)

    async def run(self, params: Sequence[bytes | None]) -> list[bytes | None]:
        """The prepared statement with ``params`` (text): the first column of its rows.
        A database error raises as psycopg raises it; a cut link raises
        ``psycopg.OperationalError``."""
        pg = self.pgconn
        pg.send_query_prepared(STATEMENT, params)
        while pg.flush():
            await self._ready(write=True)
        results: list[pq.abc.PGresult] = []
        while True:
            pg.consume_input()
            while not pg.is_busy():
                res = pg.get_result()
                if res is None:
                    return _first_column(results)
                results.append(res)
            await self._ready(write=False)

    @property
    def broken(self) -> bool:
        return self.conn.closed or self.pgconn.status != pq.ConnStatus.OK

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.close()


def _first_column(results: list[pq.abc.PGresult]) -> list[bytes | None]:
    for res in results:
        if res.status == pq.ExecStatus.FATAL_ERROR:
            raise error_from_result(res)
    rows: list[bytes | None] = []
    for res in results:
        if res.status == pq.ExecStatus.TUPLES_OK:
            rows.extend(res.get_value(k, 0) for k in range(res.ntuples))
    return rows


class MoveLinks:
    """The idle links, and a new one when none is (see the module doc)."""

    def __init__(self, connect: Callable[[], psycopg.Connection[Any]], statement: str) -> None:
        """``connect``: a new connection, configured (its schema); ``statement``: the
        moves' SQL with ``$1``.. parameters, prepared on each link."""
        self._connect = connect
        self._statement = statement.encode()
        self._idle: list[MovesLink] = []
        self._open: set[MovesLink] = set()

    def _new(self) -> MovesLink:
        """A link (in a worker thread: connecting and preparing wait on the database)."""
        conn = self._connect()
        try:
            res = conn.pgconn.prepare(STATEMENT, self._statement)
            if res.status != pq.ExecStatus.COMMAND_OK:
                raise error_from_result(res)
        except BaseException:
            conn.close()
            raise
        return MovesLink(conn)

    async def run(self, params: Sequence[bytes | None]) -> list[bytes | None]:
        """The moves' statement on an idle link (a new one if none is idle). A link
        whose group did not end with an answer (cut, cancelled) is closed, not reused."""
        link = None
        while self._idle:
            link = self._idle.pop()
            if not link.broken:
                break
            self._drop(link)
            link = None
        if link is None:
            link = await asyncio.to_thread(self._new)
            self._open.add(link)
        answered = False
        try:
            rows = await link.run(params)
            answered = True
            return rows
        except psycopg.DatabaseError as exc:
            answered = not isinstance(exc, psycopg.OperationalError)  # it answered: the link is sound
            raise
        finally:
            if answered and not link.broken:
                self._idle.append(link)
            else:
                self._drop(link)

    def _drop(self, link: MovesLink) -> None:
        self._open.discard(link)
        link.close()

    def close(self) -> None:
        for link in list(self._open):
            self._drop(link)
        self._idle.clear()
