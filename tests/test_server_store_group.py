"""A move on PostgreSQL is one round trip and one commit, and the moves of several
tables that arrive together share one (server/store_group.py, issue 35).

The round trips are read from libpq's own trace of the store's real connections
(every ``ReadyForQuery`` the server sends ends one exchange the client waited
for); the commits from the rows' ``xmin`` (the transaction that wrote them)."""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from psycopg.pq import Trace

from gloomtable.server.errors import ServerError, Unconfirmed
from gloomtable.server.store import SeatRow, StaleActionError, TableRow
from gloomtable.server.store_group import GroupCommit, Move, Outcomes
from gloomtable.server.store_guard import GuardedStore
from gloomtable.server.store_link import MovesLink
from gloomtable.server.store_postgres import PostgresStore
from pg_support import fresh_schema


def row(tid: str) -> TableRow:
    return TableRow(tid, "gloom", {"players": 2}, 7, {}, True, "host",
                    [SeatRow(0, "person", "random", "Ada", "tok0"), SeatRow(1, "bot", "easy", "Bo", "")])


class Traced:
    """What the store's connections (pooled, and the moves' links) send and receive,
    as libpq traces it (a link from when it is ready: its connecting is not counted)."""

    def __init__(self, store: PostgresStore) -> None:
        self.file = tempfile.TemporaryFile()  # noqa: SIM115 - open as long as the tracer; close() ends it
        self._connection = store.pool.connection
        self._links: list[MovesLink] = []
        new_link = store.links._new

        def traced_link() -> MovesLink:
            link = new_link()
            link.pgconn.trace(self.file.fileno())
            link.pgconn.set_trace_flags(Trace.SUPPRESS_TIMESTAMPS | Trace.REGRESS_MODE)
            self._links.append(link)
            return link

        store.links._new = traced_link  # type: ignore[method-assign]

        @contextlib.contextmanager
        def connection(*args: Any, **kwargs: Any) -> Iterator[psycopg.Connection[Any]]:
            with self._connection(*args, **kwargs) as conn:
                conn.pgconn.trace(self.file.fileno())
                conn.pgconn.set_trace_flags(Trace.SUPPRESS_TIMESTAMPS | Trace.REGRESS_MODE)
                try:
                    yield conn
                finally:
                    conn.pgconn.untrace()

        store.pool.connection = connection  # type: ignore[method-assign]

    def close(self) -> None:
        for link in self._links:
            if not link.conn.closed:
                link.pgconn.untrace()
        self.file.close()

    def lines(self) -> list[str]:
        for link in self._links:  # libpq buffers a trace until it is ended: end it, then trace on
            if not link.conn.closed:
                link.pgconn.untrace()
                link.pgconn.trace(self.file.fileno())
                link.pgconn.set_trace_flags(Trace.SUPPRESS_TIMESTAMPS | Trace.REGRESS_MODE)
        self.file.seek(0)
        text = self.file.read().decode()
        self.file.seek(0)
        self.file.truncate()
        return text.splitlines()


def round_trips(lines: list[str]) -> int:
    return sum(1 for x in lines if "\tReadyForQuery" in x)


def writers(conn: psycopg.Connection[Any], table: str, key: str, ids: list[str]) -> set[str]:
    """The transactions that wrote ``ids``' rows of ``table``."""
    return {r[0] for r in conn.execute(f"SELECT xmin::text FROM {table} WHERE {key} = ANY(%s)", (ids,))}


def test_a_move_is_one_round_trip_and_one_commit() -> None:
    with fresh_schema() as url:
        store = PostgresStore(url)
        trace = Traced(store)
        try:
            store.create_table(row("t1"))
            trace.lines()
            for idx in range(8):  # past psycopg's threshold for preparing a statement, too
                store.append_action("t1", idx, 3, idx % 2, "person", None, False, 100.0 + idx)
                lines = trace.lines()
                assert round_trips(lines) == 1, lines
                assert not any("BEGIN" in x or "COMMIT" in x for x in lines), lines
            stored = store.load("t1")
            assert stored is not None and len(stored.actions) == 8
            assert stored.deadline == 107.0 and stored.deadline_idx == 8
            with psycopg.connect(store.conninfo, autocommit=True) as conn:
                conn.execute(f"SET search_path TO {store.schema}")
                moves = [f"t1:{i}" for i in range(8)]
                assert len(writers(conn, "actions", "table_id || ':' || idx", moves)) == 8  # one commit each
                # the last move's action and its table's row: one transaction
                assert writers(conn, "tables", "id", ["t1"]) == writers(
                    conn, "actions", "table_id || ':' || idx", ["t1:7"])
        finally:
            trace.close()
            store.close()


def test_a_stale_or_out_of_order_move_is_refused_and_stores_nothing() -> None:
    with fresh_schema() as url:
        store = PostgresStore(url)
        try:
            store.create_table(row("t1"))
            store.append_action("t1", 0, 3, 0, "person", None, False)
            for idx in (0, 2):  # stored already; a gap
                with pytest.raises(StaleActionError):
                    store.append_action("t1", idx, 3, 0, "person", None, False, 5.0)
            with pytest.raises(StaleActionError):  # no such table
                store.append_action("nope", 0, 3, 0, "person", None, False)
            got = store.load("t1")
            assert got is not None and got.actions == [3] and got.deadline_idx == 1 and got.deadline is None
        finally:
            store.close()


def test_tables_moving_together_share_one_round_trip_and_one_commit() -> None:
    with fresh_schema() as url:
        raw = PostgresStore(url)
        guard = GuardedStore(raw, timeout=30)
        ids = [f"t{i}" for i in range(10)]
        trace = Traced(raw)
        try:
            for tid in ids:
                raw.create_table(row(tid))
            raw.append_action("t3", 0, 1, 0, "person", None, False)  # so t3's move at 0 is stale
            trace.lines()

            async def together() -> list[BaseException | None]:
                got = await asyncio.gather(*(guard.commit_action(t, 0, 2, 1, "bot", None, t == "t9", 9.0)
                                             for t in ids), return_exceptions=True)
                return list(got)

            outcomes = asyncio.run(together())
            assert isinstance(outcomes[3], StaleActionError)
            assert [o for k, o in enumerate(outcomes) if k != 3] == [None] * 9
            assert round_trips(trace.lines()) == 1  # one group: the first move found no group out
            with psycopg.connect(raw.conninfo, autocommit=True) as conn:
                conn.execute(f"SET search_path TO {raw.schema}")
                moved = [t for t in ids if t != "t3"]
                xids = writers(conn, "actions", "table_id", moved) | writers(conn, "tables", "id", moved)
                assert len(xids) == 1, xids
            nine = raw.load("t9")
            assert nine is not None and nine.over and nine.finished_at() is not None
            three = raw.load("t3")
            assert three is not None and three.actions == [1]
        finally:
            trace.close()
            guard.close()


def test_moves_arriving_while_a_group_is_out_leave_together_next() -> None:
    sent: list[list[str]] = []

    async def main() -> None:
        out = asyncio.Event()
        back = asyncio.Event()

        async def send(moves: list[Move]) -> Outcomes:
            sent.append([m.table_id for m in moves])
            out.set()
            await back.wait()
            return [StaleActionError("late") if m.table_id == "c" else None for m in moves]

        group = GroupCommit(send, most=2)
        first = asyncio.create_task(group.commit(Move("a", 0, 1, 0, "bot", None, False)))
        await out.wait()  # "a" is at the database alone
        rest = [asyncio.create_task(group.commit(Move(t, i, 1, 0, "bot", None, False)))
                for t, i in (("b", 0), ("c", 0), ("b", 1), ("d", 0))]
        await asyncio.sleep(0)
        back.set()
        await first
        results = await asyncio.gather(*rest, return_exceptions=True)
        assert [type(r).__name__ for r in results] == ["NoneType", "StaleActionError", "NoneType", "NoneType"]

    asyncio.run(main())
    # at most two a group, one move a table: b's second move waits for the next
    assert sent == [["a"], ["b", "c"], ["b", "d"]]


def test_the_move_that_ends_a_rated_game_goes_alone() -> None:
    from gloomtable.server.ratings import RatingPlan

    sent: list[list[str]] = []

    async def main() -> None:
        async def send(moves: list[Move]) -> Outcomes:
            sent.append([m.table_id for m in moves])
            await asyncio.sleep(0)
            return [None] * len(moves)

        group = GroupCommit(send)
        plan = RatingPlan("gloom", (0, 1), (1, 2), {})
        await asyncio.gather(group.commit(Move("a", 0, 1, 0, "bot", None, False)),
                             group.commit(Move("b", 0, 1, 0, "bot", None, False)),
                             group.commit(Move("r", 9, 1, 0, "person", None, True, None, plan)),
                             group.commit(Move("c", 0, 1, 0, "bot", None, False)))

    asyncio.run(main())
    assert sent == [["a", "b", "c"], ["r"]]  # all four were waiting when the first group left


def test_a_group_that_fails_fails_each_of_its_moves_and_the_next_goes_on() -> None:
    calls = 0

    async def main() -> list[BaseException | None]:
        async def send(moves: list[Move]) -> Outcomes:
            nonlocal calls
            calls += 1
            await asyncio.sleep(0)
            if calls == 1:
                raise Unconfirmed(None)
            return [None] * len(moves)

        group = GroupCommit(send)
        first = await asyncio.gather(*(group.commit(Move(t, 0, 1, 0, "bot", None, False)) for t in "xy"),
                                     return_exceptions=True)
        await group.commit(Move("x", 0, 1, 0, "bot", None, False))  # raises unless stored
        return [*first, None]

    got = asyncio.run(main())
    assert all(isinstance(g, ServerError) and g.code == "server_busy" for g in got[:2]) and got[2] is None
    assert calls == 2


@pytest.mark.slow
def test_a_move_to_a_stalled_database_never_holds_the_event_loop() -> None:
    """The loop awaits the move (sent on the loop by a link of its own); it goes on ticking while the
    database does not answer, the move is "not confirmed yet" after the timeout, the
    next is refused at once, and once the link passes bytes again the first is stored."""
    from redis_support import StallingProxy

    timeout = 0.5
    with fresh_schema() as url, StallingProxy(("127.0.0.1", 5432)) as proxy:
        raw = PostgresStore(url.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}"))
        guard = GuardedStore(raw, timeout=timeout, pause=0.2)
        try:
            raw.create_table(row("t1"))

            async def stalled() -> tuple[int, BaseException | None]:
                ticks = 0
                proxy.stall()
                move = asyncio.create_task(guard.commit_action("t1", 0, 3, 0, "person", None, False))
                while not move.done():
                    await asyncio.sleep(0.01)
                    ticks += 1
                first = move.exception()
                started = asyncio.get_running_loop().time()
                try:
                    await guard.commit_action("t1", 1, 3, 1, "person", None, False)
                    second: BaseException | None = None
                except ServerError as exc:
                    second = exc
                assert asyncio.get_running_loop().time() - started < 0.1  # refused at once
                proxy.resume()
                assert isinstance(first, Unconfirmed)
                await asyncio.wait_for(asyncio.wrap_future(first.future), 30)
                return ticks, second

            ticks, second = asyncio.run(stalled())
            assert ticks >= 20, ticks  # half a second of 10 ms ticks: the loop was never held
            assert isinstance(second, ServerError) and not isinstance(second, Unconfirmed)
            assert second.code == "server_busy" and "not answering" in second.message
            got = raw.load("t1")
            assert got is not None and got.actions == [3]  # the unconfirmed move was stored after all
        finally:
            guard.close()


def test_a_move_whose_link_was_cut_is_unconfirmed_and_the_next_goes_on_a_new_link() -> None:
    """The moves' link (server/store_link.py) is a connection like any: cut (its backend
    ended, as a database restart ends it), the move on it is "not confirmed yet",
    never a 500, the link is dropped, and the next move opens another and is stored."""
    with fresh_schema() as url:
        raw = PostgresStore(url)
        guard = GuardedStore(raw, timeout=30)
        try:
            raw.create_table(row("t1"))

            async def main() -> BaseException | None:
                await guard.commit_action("t1", 0, 3, 0, "person", None, False)
                [first] = raw.links._idle
                with psycopg.connect(raw.conninfo, autocommit=True) as conn:
                    conn.execute("SELECT pg_terminate_backend(%s)", (first.pgconn.backend_pid,))
                try:
                    await guard.commit_action("t1", 1, 4, 1, "person", None, False)
                    cut: BaseException | None = None
                except ServerError as exc:
                    cut = exc
                assert first not in raw.links._open and first.conn.closed
                got = raw.load("t1")
                assert got is not None
                await guard.commit_action("t1", len(got.actions), 5, 1, "person", None, False)
                [second] = raw.links._idle
                assert second is not first
                return cut

            cut = asyncio.run(main())
            assert isinstance(cut, Unconfirmed) and cut.code == "server_busy"
            got = raw.load("t1")
            assert got is not None and got.actions[0] == 3 and got.actions[-1] == 5
        finally:
            guard.close()


def test_a_move_reads_its_checks_by_primary_key_even_in_a_schema_never_analyzed() -> None:
    """The moves' statement checks its table and the previous action by a probe of
    each primary key, however many actions are stored: its generic plan (the one a
    prepared statement keeps) has no scan of ``actions`` and no hashed subplan, even
    before the tables were ever analyzed (a new site; a new schema per bench probe)."""
    from gloomtable.server.store_postgres import _STORE_MOVES_LINK, _moves_json

    with fresh_schema() as url:
        store = PostgresStore(url)
        try:
            for tid in ("t1", "t2"):
                store.create_table(row(tid))
            with psycopg.connect(store.conninfo, autocommit=True) as conn:
                conn.execute(f"SET search_path TO {store.schema}")
                conn.execute("INSERT INTO actions SELECT 't2', g, 1, 0, 'bot', NULL, 0"
                             " FROM generate_series(0, 4999) g")
                conn.execute("SET plan_cache_mode TO force_generic_plan")
                conn.execute(f"PREPARE moves(json, text, text) AS {_STORE_MOVES_LINK}")
                moves = _moves_json([Move("t2", 5000, 1, 0, "bot", None, False)]).decode()
                plan = "\n".join(r[0] for r in psycopg.ClientCursor(conn).execute(
                    "EXPLAIN (ANALYZE, COSTS OFF) EXECUTE moves(%s::json, 'c', 'o ')", (moves,)))
                assert "Index Only Scan using actions_pkey" in plan, plan
                assert "Seq Scan on actions" not in plan and "Index Scan using actions_pkey" not in plan, plan
                assert "hashed" not in plan, plan
            got = store.load("t2", since=4999)
            assert got is not None and got.actions == [1, 1]  # and the move was stored
        finally:
            store.close()


def test_a_group_larger_than_the_socket_takes_at_once_is_written_whole() -> None:
    """The link writes a group on the loop without blocking: what the socket does not
    take at once is written when it can take more (here a narration of 8 MB, far past
    any socket buffer, while other moves share the group)."""
    with fresh_schema() as url:
        raw = PostgresStore(url)
        guard = GuardedStore(raw, timeout=60)
        try:
            for tid in ("t1", "t2"):
                raw.create_table(row(tid))
            long = "x" * (8 << 20)

            async def main() -> list[BaseException | None]:
                got = await asyncio.gather(guard.commit_action("t1", 0, 3, 0, "person", long, False),
                                           guard.commit_action("t2", 0, 4, 0, "person", "short", False),
                                           return_exceptions=True)
                return list(got)

            assert asyncio.run(main()) == [None, None]
            one, two = raw.load("t1"), raw.load("t2")
            assert one is not None and one.narration == {0: long}
            assert two is not None and two.actions == [4] and two.narration == {0: "short"}
        finally:
            guard.close()
