"""The store contract (server/store.py), one suite run on both backends: SQLite
(a file in tmp_path) and PostgreSQL (a fresh schema per test)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable

import pytest

from gloomtable.games import make_game
from gloomtable.server.migrations import LATEST, MIGRATIONS, VERSION_TABLE
from gloomtable.server.store import SeatRow, StaleActionError, Store, StoreError, TableRow, open_store
from pg_support import fresh_schema

Opener = Callable[[], Store]


# ``where`` and ``store`` (each test on SQLite and on PostgreSQL) come from conftest.py.


def row(tid: str = "t1", created: float = 0.0) -> TableRow:
    seats = [SeatRow(0, "person", "random", "Ada", "tok0"), SeatRow(1, "bot", "easy", "Bo", "")]
    return TableRow(tid, "gloom", {"players": 2}, 2**62 - 5, {"turn_timer": 30}, True, "host", seats,
                    created=created)


def play(store: Store, tid: str, n: int, start: int = 0) -> list[int]:
    state = make_game("gloom", {"players": 2}).new_initial_state(7)
    actions = []
    for i in range(start + n):
        a = state.legal_actions()[-1]
        state.apply(a)
        if i >= start:
            store.append_action(tid, i, a, i % 2, "person", "said" if i == 1 else None, state.is_over())
        actions.append(a)
    return actions


def test_round_trip_survives_reopening(where: str, store: Store) -> None:
    store.create_table(row())
    actions = play(store, "t1", 5)
    store.update_seat("t1", 0, name="Bea", claimed=True)
    store.close()
    again = open_store(where)
    try:
        got = again.load("t1")
        assert got is not None
        assert got.actions == actions and got.actors[1] == (1, "person") and got.narration == {1: "said"}
        assert got.seed == 2**62 - 5 and got.options == {"turn_timer": 30} and got.listed
        assert got.seats[0].name == "Bea" and got.seats[0].claimed and got.seats[1].kind == "bot"
        assert got.created > 0 and len(got.times) == 5 and got.times == sorted(got.times)
        assert again.load("nope") is None
    finally:
        again.close()


def test_an_index_is_stored_once_and_in_order(store: Store) -> None:
    store.create_table(row())
    play(store, "t1", 3)
    for idx in (2, 4, 0):  # taken, a gap, long taken
        with pytest.raises(StaleActionError):
            store.append_action("t1", idx, 0, 0, "person", None, True)
    got = store.load("t1")
    assert got is not None and len(got.actions) == 3 and not got.over  # nothing of a refusal stayed


def test_two_writers_at_the_same_index_one_wins(where: str, store: Store) -> None:
    """Two connections (as two processes would have) race for each index: exactly one commits."""
    store.create_table(row())
    other = open_store(where)
    wins: list[str] = []
    losses: list[str] = []
    try:
        for idx in range(12):
            gate = threading.Barrier(2)

            def offer(s: Store, who: str, idx: int = idx, gate: threading.Barrier = gate) -> None:
                gate.wait()
                try:
                    s.append_action("t1", idx, idx, 0, who, None, False)
                    wins.append(who)
                except StaleActionError:
                    losses.append(who)

            threads = [threading.Thread(target=offer, args=(s, w)) for s, w in ((store, "a"), (other, "b"))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
    finally:
        other.close()
    assert len(wins) == 12 and len(losses) == 12
    got = store.load("t1")
    assert got is not None and got.actions == list(range(12))
    assert [a for _, a in got.actors] == wins


def test_load_since_reads_only_the_newer_actions(store: Store) -> None:
    store.create_table(row())
    actions = play(store, "t1", 6)
    got = store.load("t1", since=4)
    assert got is not None and got.first == 4 and got.actions == actions[4:] and got.narration == {}
    assert store.load("t1", since=1) is not None and store.load("t1", since=1).narration == {1: "said"}


def test_listing_orders_by_creation_and_knows_what_is_over(store: Store) -> None:
    store.create_table(row("b", created=2.0))
    store.create_table(row("a", created=3.0))
    store.create_table(row("c", created=1.0))
    store.append_action("b", 0, 5, 0, "person", None, True)
    assert store.unfinished_ids() == ["c", "a"]
    assert store.all_ids() == ["c", "b", "a"]
    b = store.load("b")
    assert b is not None and b.over
    store.set_next_table("b", "a")
    assert store.load("b").next_table == "a"  # type: ignore[union-attr]


def test_import_copies_a_whole_table_once(store: Store) -> None:
    src = row("x", created=5.0)
    src.actions, src.narration, src.times = [3, 1, 4], {1: "hm"}, [10.0, 11.0, 12.0]
    src.actors = [(0, "person"), (1, "bot"), (0, "timeout")]
    src.seats[0].claimed = True
    assert store.import_table(src)
    assert not store.import_table(src)
    got = store.load("x")
    assert got is not None
    assert (got.actions, got.actors, got.narration, got.times, got.created) == \
        (src.actions, src.actors, src.narration, src.times, 5.0)
    assert got.seats == src.seats
    store.append_action("x", 3, 9, 1, "bot", None, False)  # and it goes on where it stopped


def test_turn_timer_deadlines_are_stored(store: Store) -> None:
    store.create_table(row())
    store.set_deadline("t1", 0, 1234.5)
    got = store.load("t1")
    assert got is not None and (got.deadline_idx, got.deadline) == (0, 1234.5)
    store.append_action("t1", 0, 1, 0, "person", None, False, deadline=2000.25)
    got = store.load("t1")
    assert got is not None and (got.deadline_idx, got.deadline) == (1, 2000.25)
    store.append_action("t1", 1, 1, 1, "bot", None, False)
    got = store.load("t1")
    assert got is not None and (got.deadline_idx, got.deadline) == (2, None)


def test_a_lease_has_one_holder_while_it_beats(store: Store) -> None:
    """A lease names a process and holds while that process beats: nothing renews the
    lease itself, and a process that stopped beating loses its leases to one that beats."""
    store.lease_term = 0.4
    store.create_table(row("a", created=1.0))
    store.create_table(row("b", created=2.0))
    assert store.free_tables(10) == ["a", "b"]
    assert not store.acquire_lease("a", "p1")  # a process that does not beat takes nothing
    store.beat("p1")
    store.beat("p2")
    assert store.acquire_lease("a", "p1")
    assert not store.acquire_lease("a", "p2")
    assert store.acquire_lease("a", "p1")  # its holder may ask again
    assert store.acquire_lease("b", "p2")
    assert store.free_tables(10) == []
    assert store.held_leases("p1") == ["a"]
    for _ in range(4):  # p2 beats; p1 stopped beating: as if it died
        time.sleep(0.15)
        store.beat("p2")
    assert store.free_tables(10) == ["a"]
    assert store.held_leases("p1") == ["a"]  # the row still names p1 until someone takes it
    assert not store.acquire_lease("a", "p1")  # and p1 takes nothing back while it does not beat
    assert store.acquire_lease("a", "p2")
    assert store.held_leases("p1") == [] and store.held_leases("p2") == ["a", "b"]
    store.release_lease("b", "p2")
    assert store.free_tables(10) == ["b"]
    store.append_action("b", 0, 1, 0, "person", None, True)
    assert store.free_tables(10) == []  # a finished table needs nobody


def test_schema_is_at_the_newest_migration(store: Store) -> None:
    assert store.schema_version() == LATEST == len(MIGRATIONS)


OLD_TABLE = "INSERT INTO tables VALUES ('old', 'gloom', '{\"players\": 2}', 7, '{}', 1, 'h', 1, 0, NULL)"


def test_an_older_schema_is_upgraded_keeping_its_tables(where: str) -> None:
    """A database made by migration 1 only (and, for SQLite, one made before there were
    migrations at all) opens with the newest schema and its tables intact."""
    first = MIGRATIONS[0][2]
    if where.startswith("postgresql"):
        import psycopg

        from gloomtable.server.store_postgres import split_url

        conninfo, schema = split_url(where)
        with psycopg.connect(conninfo, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
            conn.execute(f'SET search_path TO "{schema}"')
            for stmt in first:
                conn.execute(stmt.encode())
            conn.execute(VERSION_TABLE)
            conn.execute("INSERT INTO schema_version VALUES (1, 0)")
            conn.execute(OLD_TABLE)
    else:
        db = sqlite3.connect(where)
        for stmt in first:  # exactly the schema of the first releases, without schema_version
            db.execute(stmt)
        db.execute(OLD_TABLE)
        db.commit()
        db.close()
    store = open_store(where)
    try:
        assert store.schema_version() == LATEST
        assert store.unfinished_ids() == ["old"]
        store.append_action("old", 0, 1, 0, "person", None, False, deadline=5.0)
        got = store.load("old")
        assert got is not None and got.actions == [1] and got.deadline == 5.0
    finally:
        store.close()


def test_two_stores_opening_at_once_migrate_once(where: str) -> None:
    out: list[object] = []

    def opener() -> None:
        try:
            s = open_store(where, open_timeout=10)
            out.append(s.schema_version())
            s.close()
        except Exception as exc:
            out.append(exc)

    threads = [threading.Thread(target=opener) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == [LATEST] * 3


def test_listeners_hear_of_other_writers_changes(where: str, store: Store) -> None:
    """PostgreSQL: a commit by one store reaches another's listener (NOTIFY), not its own.
    SQLite: one process per file, so ``listen`` returns at once."""
    heard: list[tuple[str, float]] = []

    async def scenario() -> None:
        listener = asyncio.create_task(store.listen(lambda tid: heard.append((tid, time.monotonic()))))
        await asyncio.sleep(0.3)
        if where.startswith("postgresql"):
            assert not listener.done()
        writer = open_store(where)
        try:
            writer.create_table(row("w"))
            store.create_table(row("mine"))  # its own change: not reported back to it
            sent = time.monotonic()
            writer.append_action("w", 0, 1, 0, "person", None, False)
            for _ in range(100):
                if len(heard) >= 2:
                    break
                await asyncio.sleep(0.01)
            if where.startswith("postgresql"):
                assert [t for t, _ in heard] == ["w", "w"]
                assert heard[1][1] - sent < 1.0
            else:
                assert listener.done() and heard == []
        finally:
            writer.close()
            listener.cancel()

    asyncio.run(scenario())


def test_an_unreachable_database_is_a_clear_error_without_its_password() -> None:
    with pytest.raises(StoreError) as err:
        open_store("postgresql://ada:s3cret@127.0.0.1:1/test", open_timeout=2)
    assert "postgresql://ada:***@127.0.0.1:1/test" in str(err.value) and "s3cret" not in str(err.value)
    with pytest.raises(StoreError, match="schema"):
        open_store("postgresql://postgres@127.0.0.1/test?schema=Robert');DROP")


def test_a_fresh_token_replaces_the_old_and_a_deleted_table_is_gone(store: Store) -> None:
    """A Join mints a seat's token (the seat has one at a time); an expired table is
    deleted whole, on every backend (issue 16)."""
    store.create_table(row("t1"))
    store.create_table(row("t2"))
    play(store, "t1", 3)
    store.update_seat("t1", 0, token="fresh", claimed=True)
    got = store.load("t1")
    assert got is not None and got.seats[0].token == "fresh" and got.seats[0].claimed
    store.delete_table("t1")
    assert store.load("t1") is None and "t1" not in store.all_ids()
    assert store.load("t2") is not None  # only that table


def test_presence_counts_live_processes_but_not_the_asker(store: Store) -> None:
    """A presence row is written when it changes and counts while its process beats."""
    store.lease_term = 0.4
    store.create_table(row())
    store.beat("p1")
    store.beat("p2")
    store.set_presence("t1", 0, "p1", 2)
    store.set_presence("t1", 1, "p2", 1)
    store.set_presence("t1", 2, "p9", 1)  # a process that never beat counts nowhere
    assert store.present_seats("t1", but="p3") == {0, 1}
    assert store.present_seats("t1", but="p2") == {0}  # a process asks about the others
    store.set_presence("t1", 1, "p2", 0)  # its last page of seat 1 closed
    assert store.present_seats("t1", but="p3") == {0}
    time.sleep(0.6)  # p1 stopped beating: as if it died
    assert store.present_seats("t1", but="p3") == set()
    store.beat("p1")  # it beats again (it had stalled): its pages count again
    assert store.present_seats("t1", but="p3") == {0}
    store.leave_members("p1")  # a clean stop: gone at once
    assert store.present_seats("t1", but="p3") == set()
    store.beat("p1")
    assert store.present_seats("t1", but="p3") == set()


def test_dead_processes_are_forgotten(store: Store) -> None:
    """The rows of a process dead for ``forget`` seconds go: its heartbeat and presence."""
    store.lease_term = 0.2
    store.create_table(row())
    store.beat("gone")
    store.beat("here")
    store.set_presence("t1", 0, "gone", 1)
    store.set_presence("t1", 1, "here", 1)
    time.sleep(0.4)
    store.beat("here")
    store.forget_members(0.3)
    store.beat("gone")  # were its presence kept, it would count again now
    assert store.present_seats("t1", but="x") == {1}

def test_the_listing_reads_listed_unfinished_tables_a_page_at_a_time(store: Store) -> None:
    for i in range(5):
        r = row(f"t{i}", created=float(i + 1))
        r.listed = i != 3
        store.create_table(r)
    store.append_action("t0", 0, 1, 0, "person", None, True)
    page, total = store.listed_tables(1, 2)
    assert total == 3 and [r.id for r in page] == ["t2", "t4"]
    assert page[0].seats[0].name == "Ada" and page[0].actions == []


def test_libpq_parameters_in_the_url_reach_the_database() -> None:
    """``schema`` is ours; every other parameter goes to libpq exactly as written."""
    from gloomtable.server.store_postgres import PostgresStore

    with fresh_schema() as url:
        store = PostgresStore(url + "&options=-c%20synchronous_commit%3Doff")
        try:
            with store.pool.connection() as conn:
                got = conn.execute("SELECT current_setting('synchronous_commit'), current_schema()"
                                   ).fetchone()
            assert got == ("off", url.rsplit("=", 1)[1])
        finally:
            store.close()


def test_a_seat_is_claimed_once_and_the_next_table_named_once(store: Store) -> None:
    store.create_table(row())
    assert store.claim_seat("t1", 0, "Ada", "tok-a")
    assert not store.claim_seat("t1", 0, "Eve", "tok-e")  # taken: nothing written
    got = store.load("t1")
    assert got is not None and (got.seats[0].name, got.seats[0].token, got.seats[0].claimed) == \
        ("Ada", "tok-a", True)
    assert store.set_next_table("t1", "n1")
    assert not store.set_next_table("t1", "n2")
    assert store.load("t1").next_table == "n1"  # type: ignore[union-attr]


def test_finished_tables_are_found_by_when_they_ended(store: Store) -> None:
    """``finished`` is stamped with the last action's time; ``finished_before`` gives the
    longest finished first, at most ``limit``, and leaves out a table whose seat has a
    page open on a live process. Deleting a table twice is harmless (two processes may)."""
    for tid, created in (("a", 1.0), ("b", 2.0), ("c", 3.0)):
        store.create_table(row(tid, created=created))
    store.append_action("b", 0, 1, 0, "person", None, True)
    store.append_action("a", 0, 1, 0, "person", None, True)  # a ends after b, though created first
    store.append_action("c", 0, 1, 0, "person", None, False)  # c goes on
    a, b, c = store.load("a"), store.load("b"), store.load("c")
    assert a is not None and b is not None and c is not None
    assert b.finished == b.times[-1] and a.finished == a.times[-1] and b.finished <= a.finished
    assert c.finished is None
    later = a.finished + 1
    assert store.finished_before(later, 10) == ["b", "a"]
    assert store.finished_before(later, 1) == ["b"]
    assert store.finished_before(b.finished, 10) == []  # strictly before
    store.beat("p1")
    store.set_presence("a", 0, "p1", 1)
    assert store.finished_before(later, 10) == ["b"]
    store.set_presence("a", 0, "p1", 0)  # its page closed
    assert store.finished_before(later, 10) == ["b", "a"]
    store.delete_table("b")
    store.delete_table("b")
    assert store.finished_before(later, 10) == ["a"] and store.load("b") is None


def test_an_imported_table_keeps_when_it_finished(store: Store) -> None:
    """``db copy`` writes ``finished`` as the source had it; a finished row that does not
    know it (built before the column) takes its last action's time."""
    known = row("known", created=5.0)
    known.actions, known.actors, known.times = [3], [(0, "person")], [10.0]
    known.over, known.finished = True, 11.0
    unknown = row("unknown", created=5.0)
    unknown.actions, unknown.actors, unknown.times = [3, 1], [(0, "person"), (1, "bot")], [10.0, 12.0]
    unknown.over = True
    going = row("going", created=5.0)
    for r in (known, unknown, going):
        assert store.import_table(r)
    got = [store.load(t) for t in ("known", "unknown", "going")]
    assert [g.finished if g else "missing" for g in got] == [11.0, 12.0, None]
    assert store.finished_before(100.0, 10) == ["known", "unknown"]


def test_finished_tables_are_read_from_an_index(where: str, store: Store) -> None:
    """"Finished before T, oldest first, at most N" walks the index in order: no scan of
    every table, no sort of them."""
    for i in range(40):
        r = row(f"t{i}", created=float(i))
        r.actions, r.actors, r.times, r.over = [1], [(0, "person")], [100.0 + i], i % 2 == 0
        store.import_table(r)
    query = ("SELECT t.id FROM tables t WHERE t.finished < 120 AND NOT EXISTS (SELECT 1 FROM presence p"
             " WHERE p.table_id=t.id AND p.conns>0 AND EXISTS (SELECT 1 FROM heartbeats h"
             " WHERE h.holder = p.holder AND h.beat > 0)) ORDER BY t.finished, t.id LIMIT 5")
    # (the query of both backends' finished_before, its parameters written in)
    if where.startswith("postgresql"):
        import psycopg

        from gloomtable.server.store_postgres import split_url

        conninfo, schema = split_url(where)
        with psycopg.connect(conninfo, autocommit=True) as conn:
            conn.execute(f'SET search_path TO "{schema}"')
            conn.execute("ANALYZE tables")
            conn.execute("SET enable_seqscan = off")  # 40 rows: the planner would rather scan
            plan = "\n".join(r[0] for r in conn.execute(f"EXPLAIN {query}"))
        assert "tables_finished" in plan and "Sort" not in plan, plan
    else:
        db = sqlite3.connect(where)
        try:
            plan = "\n".join(r[3] for r in db.execute(f"EXPLAIN QUERY PLAN {query}"))
        finally:
            db.close()
        assert "tables_finished" in plan and "TEMP B-TREE" not in plan, plan
    assert store.finished_before(120.0, 5) == ["t0", "t2", "t4", "t6", "t8"]


def test_the_migration_stamps_tables_finished_before_it(where: str) -> None:
    """A database at migration 4 opens with ``finished`` filled for its finished tables
    (their last action's time) and empty for the others."""
    columns = "(id, game, config, seed, options, listed, host_token, created, over)"
    rows = [f"INSERT INTO tables {columns} VALUES ('{tid}', 'gloom', '{{\"players\": 2}}', 7, '{{}}', 1,"
            f" 'h', 1, {over})" for tid, over in (("done", 1), ("going", 0))]
    rows += [f"INSERT INTO actions (table_id, idx, action, seat, actor, narration, at) VALUES"
             f" ('{tid}', {i}, 1, 0, 'person', NULL, {at})"
             for tid, i, at in (("done", 0, 50.5), ("done", 1, 60.25), ("going", 0, 70.0))]
    statements = [s for _, _, group in MIGRATIONS[:4] for s in group]
    if where.startswith("postgresql"):
        import psycopg

        from gloomtable.server.store_postgres import split_url

        conninfo, schema = split_url(where)
        with psycopg.connect(conninfo, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
            conn.execute(f'SET search_path TO "{schema}"')
            for stmt in [*statements, VERSION_TABLE]:
                conn.execute(stmt.encode())
            conn.execute("INSERT INTO schema_version VALUES (4, 0)")
            for stmt in rows:
                conn.execute(stmt.encode())
    else:
        db = sqlite3.connect(where)
        for stmt in [*statements, VERSION_TABLE, "INSERT INTO schema_version VALUES (4, 0)", *rows]:
            db.execute(stmt)
        db.commit()
        db.close()
    store = open_store(where)
    try:
        assert store.schema_version() == LATEST
        done, going = store.load("done"), store.load("going")
        assert done is not None and going is not None
        assert done.finished == 60.25 and going.finished is None
        assert store.finished_before(61.0, 10) == ["done"] and store.finished_before(60.25, 10) == []
    finally:
        store.close()
