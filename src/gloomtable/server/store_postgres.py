"""The shared store: PostgreSQL through psycopg 3 and psycopg_pool.

Any number of server processes (on one machine or several) use one database.
Each committed change of a table also sends ``NOTIFY`` with the table's id, so
every other process hears of it within milliseconds (``listen``); the lease
table decides which process runs a table's bots and timers, and a lease holds
while its holder's row in ``heartbeats`` is fresh (``beat``).

``postgresql://USER@HOST/DB?schema=NAME`` keeps the tables in schema ``NAME``
(created if missing; default ``public``): tests give each run its own schema.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

import orjson
import psycopg
from psycopg import sql
from psycopg_pool import ConnectionPool

from gloomtable.server.migrations import MIGRATIONS, VERSION_TABLE
from gloomtable.server.store_decks import DeckRows
from gloomtable.server.store_group import Move, Outcomes
from gloomtable.server.store_link import MoveLinks
from gloomtable.server.store_rows import LEASE_TERM, StaleActionError, StoreError, TableRow, shown
from gloomtable.server.store_sqlite import _TABLE_COLUMNS, listing_rows, listing_sql, table_row
from gloomtable.server.store_talk import TalkRows

if TYPE_CHECKING:
    from gloomtable.server.ratings import RatingPlan

log = logging.getLogger("gloomtable.server")

CONNECT_TIMEOUT = 5
"""Seconds to wait for the database at start before refusing to start."""
POOL_SIZE = 8
"""Connections one process keeps at most: commits run in worker threads, one connection each."""
_NOW = "EXTRACT(EPOCH FROM clock_timestamp())::float8"
"""Heartbeats are stamped and read by the database's clock, so machines' clocks need not agree."""
_MIGRATION_LOCK = 0x676C6F6D
_SOCKETS_LOCK = 0x676C6F73
"""First half of the advisory lock of one open-socket key (the second: the key's hash)."""
_SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")


_STORE_MOVES = """
WITH m AS (
  SELECT * FROM json_to_recordset(%s::json)
    AS m(t text, i int, a int, s int, r text, n text, at float8, o int, d float8)
), ins AS (
  INSERT INTO actions (table_id, idx, action, seat, actor, narration, at)
  SELECT m.t, m.i, m.a, m.s, m.r, m.n, m.at FROM m
  WHERE (SELECT true FROM tables WHERE id = m.t)
    AND (m.i = 0 OR (SELECT true FROM actions p WHERE p.table_id = m.t AND p.idx = m.i - 1))
  ORDER BY m.t
  ON CONFLICT (table_id, idx) DO NOTHING
  RETURNING table_id
), upd AS (
  UPDATE tables SET over = m.o, deadline = m.d, deadline_idx = m.i + 1,
    finished = COALESCE(tables.finished, CASE WHEN m.o = 1 THEN m.at END)
  FROM m
  WHERE tables.id = ANY(ARRAY(SELECT table_id FROM ins)) AND m.t = tables.id
  RETURNING tables.id
)
SELECT id, pg_notify(%s, %s || id)::text FROM upd
"""
"""Moves of several tables (a JSON list, at most one per table) in one statement: one
round trip, one commit. A move is stored only at the next index of its table
(index 0, or the one after a stored action; the unique key turns away a second
writer at the same index, which waits for the first to commit or not), then its
table's row is updated and its notification sent, all or nothing. **Decision:** the
two checks are scalar subqueries, so each is a probe of a primary key per move,
whatever the planner believes of the tables' sizes. Written as ``EXISTS``, the
generic plan made before the tables were ever analyzed (a new schema) hashed the
whole ``actions`` table on every move instead: 1.1 ms of the database's CPU a move
at 6,000 stored actions, and growing with them. The update takes the stored ids as
one array (an index scan once ``tables`` is analyzed and large). Rows go in
the order of their tables, so two processes' groups never wait on each other in
a circle. The answer: the ids of the tables whose move was stored."""
_STORE_MOVES_LINK = _STORE_MOVES.replace("%s", "$1", 1).replace("%s", "$2", 1).replace("%s", "$3", 1)
"""The same statement with libpq's own parameters, as the moves' links prepare it (server/store_link.py)."""


def _stale(m: Move) -> StaleActionError:
    return StaleActionError(f"table {m.table_id}: action #{m.idx} is not the next to store "
                            "(another writer stored one first)")


def _moves_json(moves: Sequence[Move]) -> bytes:
    """The rows of :data:`_STORE_MOVES`, in the order of their tables."""
    at = time.time()  # the writer's clock, as created: finished is this action's at
    rows = [{"t": m.table_id, "i": m.idx, "a": m.action, "s": m.seat, "r": m.actor,
             "n": m.narration, "at": at, "o": int(m.over), "d": m.deadline}
            for m in sorted(moves, key=lambda m: m.table_id)]
    try:
        return orjson.dumps(rows)
    except orjson.JSONEncodeError:  # (a lone surrogate in a narration) as json writes it
        return json.dumps(rows).encode()


def split_url(url: str) -> tuple[str, str]:
    """The libpq URL without our ``schema`` parameter, and the schema."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    schema = next((v for k, v in query if k == "schema"), "public")
    if not _SCHEMA_NAME.fullmatch(schema):
        raise StoreError(f"cannot use the database {shown(url)}: schema must be lower-case letters, "
                         f"digits and _ (at most 63), got {schema[:70]!r}")
    # the other parameters go to libpq exactly as written (re-encoding could turn %20 into +)
    rest = "&".join(x for x in parts.query.split("&") if x and not x.startswith("schema="))
    return urlunsplit(parts._replace(query=rest)), schema


class PostgresStore(TalkRows, DeckRows):
    """:class:`~gloomtable.server.store.Store` on PostgreSQL."""

    remote = True
    _ph = "%s"
    _for_update = " FOR UPDATE"
    _for_share = " FOR SHARE"

    def __init__(self, url: str, *, open_timeout: float = CONNECT_TIMEOUT) -> None:
        self.url = shown(url)
        self.conninfo, self.schema = split_url(url)
        self.channel = f"gloomtable.{self.schema}"
        self.origin = secrets.token_hex(6)
        """This store's mark on its notifications, so it does not hear itself."""
        self.lease_term = LEASE_TERM
        self._beats = threading.local()
        """The heartbeat's connection, per thread that beats (in a server: one)."""
        self._beat_conns: list[psycopg.Connection[Any]] = []
        try:
            with psycopg.connect(self.conninfo, autocommit=True,
                                 connect_timeout=max(1, round(open_timeout))) as conn:
                self._migrate(conn)
        except psycopg.Error as exc:
            why = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise StoreError(f"cannot use the database {self.url}: {why}") from None
        self.pool = ConnectionPool(self.conninfo, min_size=1, max_size=POOL_SIZE, open=True,
                                   kwargs={"autocommit": True}, configure=self._open,
                                   name="gloomtable")
        self.links = MoveLinks(self._connect_link, _STORE_MOVES_LINK)
        """The moves' own connections, driven on the event loop (``append_moves_on_loop``)."""

    def _connect_link(self) -> psycopg.Connection[Any]:
        conn = psycopg.connect(self.conninfo, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
        try:
            self._configure(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _configure(self, conn: psycopg.Connection[Any]) -> None:
        conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(self.schema)))

    def _open(self, conn: psycopg.Connection[Any]) -> None:
        """A pooled connection: its schema, and the moves' statement prepared (so even
        its first move is one round trip)."""
        self._configure(conn)
        conn.execute(_STORE_MOVES, ("[]", self.channel, ""), prepare=True)

    def _migrate(self, conn: psycopg.Connection[Any]) -> None:
        with conn.transaction():  # one at a time across processes, each migration once
            conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (_MIGRATION_LOCK, self.schema))
            conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(self.schema)))
            self._configure(conn)
            conn.execute(VERSION_TABLE)
            row = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
            have = row[0] if row else 0
            for version, _what, statements in MIGRATIONS:
                if version > have:
                    for stmt in statements:
                        conn.execute(stmt.encode())
                    conn.execute("INSERT INTO schema_version (version, applied) VALUES (%s, %s)",
                                 (version, time.time()))

    def schema_version(self) -> int:
        with self.pool.connection() as conn:
            row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
            return int(row[0]) if row else 0

    def close(self) -> None:
        for conn in self._beat_conns:
            with contextlib.suppress(Exception):
                conn.close()
        self._beat_conns.clear()
        self.links.close()
        self.pool.close()

    @contextlib.contextmanager
    def _tx(self) -> Iterator[psycopg.Connection[Any]]:
        with self.pool.connection() as conn, conn.transaction():
            yield conn

    def _notify(self, conn: psycopg.Connection[Any], table_id: str) -> None:
        """Delivered to every listener when (and only if) the transaction commits."""
        conn.execute("SELECT pg_notify(%s, %s)", (self.channel, f"{self.origin} {table_id}"))

    # --- writing -----------------------------------------------------------------

    def create_table(self, row: TableRow) -> None:
        with self._tx() as conn:
            self._insert(conn, row)
            self._notify(conn, row.id)

    def import_table(self, row: TableRow) -> bool:
        with self._tx() as conn:
            if conn.execute("SELECT 1 FROM tables WHERE id=%s", (row.id,)).fetchone():
                return False
            self._insert(conn, row)
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO actions (table_id, idx, action, seat, actor, narration, at)"
                    " VALUES (%s,%s,%s,%s,%s,%s,%s)",
                    [(row.id, i, a, row.actors[i][0], row.actors[i][1], row.narration.get(i),
                      row.times[i] if i < len(row.times) else time.time())
                     for i, a in enumerate(row.actions)])
            self._notify(conn, row.id)
            return True

    def _insert(self, conn: psycopg.Connection[Any], row: TableRow) -> None:
        conn.execute(
            "INSERT INTO tables (id, game, config, seed, options, listed, host_token, created, over,"
            " next_table, deadline, deadline_idx, finished)"
            " VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
            (row.id, row.game, json.dumps(row.config), row.seed, json.dumps(row.options),
             int(row.listed), row.host_token, row.created or time.time(), int(row.over),
             row.next_table, row.deadline, row.deadline_idx, row.finished_at()))
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO seats (table_id, seat, kind, level, name, token, claimed)"
                " VALUES (%s,%s,%s,%s,%s,%s,%s)",
                [(row.id, s.seat, s.kind, s.level, s.name, s.token, int(s.claimed)) for s in row.seats])

    def append_action(self, table_id: str, idx: int, action: int, seat: int, actor: str,
                      narration: str | None, over: bool, deadline: float | None = None,
                      rating: RatingPlan | None = None) -> None:
        outcome = self.append_moves([Move(table_id, idx, action, seat, actor, narration, over, deadline,
                                          rating)])[0]
        if outcome is not None:
            raise outcome

    async def commit_action(self, table_id: str, idx: int, action: int, seat: int, actor: str,
                            narration: str | None, over: bool, deadline: float | None = None,
                            rating: RatingPlan | None = None) -> None:
        """Unguarded (a server reaches this store through GuardedStore, which groups the
        moves): one worker thread per move."""
        await asyncio.to_thread(self.append_action, table_id, idx, action, seat, actor, narration, over,
                                deadline, rating)

    def append_moves(self, moves: Sequence[Move]) -> Outcomes:
        """Several tables' moves (one each), each stored as ``append_action`` would:
        the ones that end a rated game each in a transaction of their own (their
        ratings move with them), every other in one statement, so in one round trip
        and one commit (server/store_group.py). Each move's outcome: None (stored)
        or :class:`StaleActionError`; an error of the database itself raises (so
        :class:`GroupCommit` sends a rated move alone: an error of its own must not
        be taken for the others')."""
        outcomes: Outcomes = [None] * len(moves)
        plain = [k for k, m in enumerate(moves) if not m.alone]
        if plain:
            try:
                with self.pool.connection() as conn:
                    stored = self._store_moves(conn, [moves[k] for k in plain])
            except psycopg.IntegrityError:  # a table deleted meanwhile: the others are stored alone
                stored = set()
                for k in plain:
                    with contextlib.suppress(psycopg.IntegrityError), self.pool.connection() as conn:
                        stored |= self._store_moves(conn, [moves[k]])
            for k in plain:
                if moves[k].table_id not in stored:
                    outcomes[k] = _stale(moves[k])
        for k, m in enumerate(moves):
            if m.alone and m.rating is not None:  # (alone says so; the type does not)
                try:
                    with self._tx() as conn:
                        if not self._store_moves(conn, [m]):
                            raise _stale(m)
                        self._rate_finished(conn, m.table_id, m.rating)
                except (StaleActionError, psycopg.errors.UniqueViolation):  # as before; all else raises
                    outcomes[k] = _stale(m)
        return outcomes

    async def append_moves_on_loop(self, moves: Sequence[Move]) -> Outcomes:
        """``append_moves`` for moves that need no transaction of their own (none
        ``alone``), sent on the event loop by a link of the moves (server/store_link.py):
        one round trip, one commit, no thread. Cancelling it closes the link it used."""
        assert not any(m.alone for m in moves), "a rated game's last move goes through append_moves"
        try:
            stored = await self._store_moves_on_loop(moves)
        except psycopg.IntegrityError:  # a table deleted meanwhile: the others are stored alone
            stored = set()
            for m in moves:
                with contextlib.suppress(psycopg.IntegrityError):
                    stored |= await self._store_moves_on_loop([m])
        return [None if m.table_id in stored else _stale(m) for m in moves]

    async def _store_moves_on_loop(self, moves: Sequence[Move]) -> set[str]:
        ids = await self.links.run([_moves_json(moves), self.channel.encode(), f"{self.origin} ".encode()])
        return {i.decode() for i in ids if i is not None}

    def _store_moves(self, conn: psycopg.Connection[Any], moves: Sequence[Move]) -> set[str]:
        """:data:`_STORE_MOVES` for ``moves`` (at most one per table): the tables whose move was stored."""
        cur = conn.execute(_STORE_MOVES, (_moves_json(moves).decode(), self.channel, f"{self.origin} "),
                           prepare=True)
        return {r[0] for r in cur.fetchall()}

    def set_deadline(self, table_id: str, idx: int, deadline: float | None) -> None:
        with self._tx() as conn:
            conn.execute("UPDATE tables SET deadline=%s, deadline_idx=%s WHERE id=%s",
                         (deadline, idx, table_id))

    def update_seat(self, table_id: str, seat: int, *, name: str | None = None,
                    claimed: bool | None = None, token: str | None = None) -> None:
        with self._tx() as conn:
            if token is not None:
                conn.execute("UPDATE seats SET token=%s WHERE table_id=%s AND seat=%s",
                             (token, table_id, seat))
            if name is not None:
                conn.execute("UPDATE seats SET name=%s WHERE table_id=%s AND seat=%s", (name, table_id, seat))
            if claimed is not None:
                conn.execute("UPDATE seats SET claimed=%s WHERE table_id=%s AND seat=%s",
                             (int(claimed), table_id, seat))
            self._notify(conn, table_id)

    def delete_table(self, table_id: str) -> None:
        with self._tx() as conn:
            conn.execute("DELETE FROM actions WHERE table_id=%s", (table_id,))
            conn.execute("DELETE FROM seats WHERE table_id=%s", (table_id,))
            conn.execute("DELETE FROM leases WHERE table_id=%s", (table_id,))
            conn.execute("DELETE FROM presence WHERE table_id=%s", (table_id,))
            conn.execute("DELETE FROM seat_accounts WHERE table_id=%s", (table_id,))
            conn.execute("DELETE FROM talk WHERE table_id=%s", (table_id,))
            conn.execute("DELETE FROM tables WHERE id=%s", (table_id,))
            self._notify(conn, table_id)

    def claim_seat(self, table_id: str, seat: int, name: str, token: str) -> bool:
        with self._tx() as conn:
            done = conn.execute("UPDATE seats SET claimed=1, name=%s, token=%s WHERE table_id=%s"
                                " AND seat=%s AND claimed=0", (name, token, table_id, seat)).rowcount == 1
            if done:
                self._notify(conn, table_id)
            return done

    def set_next_table(self, table_id: str, next_id: str) -> bool:
        with self._tx() as conn:
            done = conn.execute("UPDATE tables SET next_table=%s WHERE id=%s AND next_table IS NULL",
                                (next_id, table_id)).rowcount == 1
            if done:
                self._notify(conn, table_id)
            return done

    # --- reading -----------------------------------------------------------------

    def load(self, table_id: str, since: int = 0) -> TableRow | None:
        with self._tx() as conn:
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            row = conn.execute(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id=%s", (table_id,)).fetchone()
            if row is None:
                return None
            seats = conn.execute("SELECT seat, kind, level, name, token, claimed FROM seats"
                                 " WHERE table_id=%s ORDER BY seat", (table_id,)).fetchall()
            actions = conn.execute("SELECT idx, action, seat, actor, narration, at FROM actions"
                                   " WHERE table_id=%s AND idx>=%s ORDER BY idx",
                                   (table_id, since)).fetchall()
        return table_row(row, seats, actions, since)

    def unfinished_ids(self) -> list[str]:
        with self.pool.connection() as conn:
            return [r[0] for r in conn.execute("SELECT id FROM tables WHERE over=0 ORDER BY created, id")]

    def all_ids(self) -> list[str]:
        with self.pool.connection() as conn:
            return [r[0] for r in conn.execute("SELECT id FROM tables ORDER BY created, id")]

    def finished_before(self, cutoff: float, limit: int) -> list[str]:
        """``finished`` is the writer's clock (as ``actions.at``), so ``cutoff`` is too;
        presence lives by its holder's heartbeat, by the database's clock, as everywhere."""
        with self.pool.connection() as conn:
            return [r[0] for r in conn.execute(
                "SELECT t.id FROM tables t WHERE t.finished < %s AND NOT EXISTS (SELECT 1 FROM presence p"
                f" WHERE p.table_id=t.id AND p.conns>0 AND {self._alive('p.holder')})"
                " ORDER BY t.finished, t.id LIMIT %s", (cutoff, limit))]

    # --- leases and heartbeats -------------------------------------------------------

    def _alive(self, holder: str) -> str:
        """SQL true while ``holder`` (an SQL expression) beat within the lease term."""
        return (f"EXISTS (SELECT 1 FROM heartbeats h WHERE h.holder = {holder}"
                f" AND h.beat > {_NOW} - {float(self.lease_term)!r})")

    def _beat_conn(self) -> psycopg.Connection[Any]:
        """This thread's own connection for heartbeats (not the pool's: a pool busy with
        moves must not delay a beat)."""
        conn: psycopg.Connection[Any] | None = getattr(self._beats, "conn", None)
        if conn is None or conn.closed or conn.broken:
            conn = psycopg.connect(self.conninfo, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
            self._configure(conn)
            conn.execute("SET synchronous_commit TO off")  # a beat lost in a crash only shortens a lease
            self._beats.conn = conn
            self._beat_conns.append(conn)
        return conn

    def _drop_beat_conn(self, conn: psycopg.Connection[Any]) -> None:
        self._beats.conn = None
        with contextlib.suppress(ValueError):
            self._beat_conns.remove(conn)
        conn.close()

    def beat(self, holder: str) -> None:
        """One statement, one round trip, on the heartbeat's own connection."""
        conn = self._beat_conn()
        try:
            conn.execute(f"INSERT INTO heartbeats (holder, beat) VALUES (%s, {_NOW})"
                         " ON CONFLICT (holder) DO UPDATE SET beat = excluded.beat", (holder,))
        except psycopg.OperationalError:
            self._drop_beat_conn(conn)
            raise

    def forget_members(self, forget: float) -> None:
        """On the heartbeat's connection too (the heartbeat's thread sweeps)."""
        conn = self._beat_conn()
        try:
            with conn.transaction():
                if conn.execute(f"DELETE FROM heartbeats WHERE beat < {_NOW} - %s", (forget,)).rowcount:
                    conn.execute("DELETE FROM presence p WHERE NOT EXISTS"
                                 " (SELECT 1 FROM heartbeats h WHERE h.holder = p.holder)")
        except psycopg.OperationalError:
            self._drop_beat_conn(conn)
            raise

    def leave_members(self, holder: str) -> None:
        with self._tx() as conn:
            conn.execute("DELETE FROM presence WHERE holder=%s", (holder,))
            conn.execute("DELETE FROM heartbeats WHERE holder=%s", (holder,))

    def acquire_lease(self, table_id: str, holder: str) -> bool:
        with self._tx() as conn:
            cur = conn.execute(
                f"INSERT INTO leases (table_id, holder) SELECT %s, %s WHERE {self._alive('%s')}"
                " ON CONFLICT (table_id) DO UPDATE SET holder=excluded.holder"
                f" WHERE leases.holder=excluded.holder OR NOT {self._alive('leases.holder')}",
                (table_id, holder, holder))
            return cur.rowcount == 1

    def held_leases(self, holder: str) -> list[str]:
        with self.pool.connection() as conn:
            return [r[0] for r in conn.execute(
                "SELECT table_id FROM leases WHERE holder=%s ORDER BY table_id", (holder,))]

    def free_tables(self, limit: int) -> list[str]:
        with self.pool.connection() as conn:
            return [r[0] for r in conn.execute(
                "SELECT t.id FROM tables t LEFT JOIN leases l ON l.table_id=t.id"
                f" WHERE t.over=0 AND (l.holder IS NULL OR NOT {self._alive('l.holder')})"
                " ORDER BY t.created, t.id LIMIT %s", (limit,))]

    def release_lease(self, table_id: str, holder: str) -> None:
        with self._tx() as conn:
            conn.execute("DELETE FROM leases WHERE table_id=%s AND holder=%s", (table_id, holder))

    # --- presence and the listing ----------------------------------------------------

    def set_presence(self, table_id: str, seat: int, holder: str, conns: int) -> None:
        with self._tx() as conn:
            if conns > 0:
                conn.execute("INSERT INTO presence (table_id, seat, holder, conns) VALUES (%s, %s, %s, %s)"
                             " ON CONFLICT (table_id, seat, holder) DO UPDATE SET conns=excluded.conns",
                             (table_id, seat, holder, conns))
            else:
                conn.execute("DELETE FROM presence WHERE table_id=%s AND seat=%s AND holder=%s",
                             (table_id, seat, holder))
            self._notify(conn, table_id)

    def present_seats(self, table_id: str, but: str) -> set[int]:
        with self.pool.connection() as conn:
            return {r[0] for r in conn.execute(
                "SELECT p.seat FROM presence p WHERE p.table_id=%s AND p.holder<>%s AND p.conns>0"
                f" AND {self._alive('p.holder')}", (table_id, but))}

    def listed_tables(self, offset: int, limit: int) -> tuple[list[TableRow], int]:
        with self._tx() as conn:  # one statement: one snapshot, one round trip
            return listing_rows(conn.execute(listing_sql("%s"), (limit, offset)).fetchall())

    # --- open websockets, counted for the site (server/sockets.py) ----------------

    @contextlib.contextmanager
    def _counts_tx(self) -> Iterator[psycopg.Connection[Any]]:
        """A transaction of the socket counts: its commit does not wait for the disk
        (after a database crash every process writes its counts again from memory)."""
        with self._tx() as conn:
            conn.execute("SELECT set_config('synchronous_commit', 'off', true)")
            yield conn

    def take_socket(self, key: str, holder: str, most: int) -> bool:
        """One more open socket of ``key`` on ``holder``, if the live processes hold
        fewer than ``most``. The key's advisory lock makes concurrent takes (from any
        process) count one after another; a process whose member row expired no longer
        counts (``holder`` itself always does). The rows are rebuilt from memory after
        a database crash, so the commit need not wait for the disk."""
        with self._tx() as conn:
            conn.execute("SELECT set_config('synchronous_commit', 'off', true),"
                         " pg_advisory_xact_lock(%s, hashtext(%s))", (_SOCKETS_LOCK, key))
            return conn.execute(
                "INSERT INTO socket_counts (key, holder, conns) SELECT %s, %s, 1"
                " WHERE (SELECT COALESCE(SUM(s.conns), 0) FROM socket_counts s"
                "        LEFT JOIN members m ON m.holder = s.holder"
                f"       WHERE s.key = %s AND (s.holder = %s OR m.expires > {_NOW})) < %s"
                " ON CONFLICT (key, holder) DO UPDATE SET conns = socket_counts.conns + 1",
                (key, holder, key, holder, most)).rowcount == 1

    def give_back_socket(self, key: str, holder: str) -> None:
        """One socket of ``key`` on ``holder`` closed; the row goes when none is left."""
        with self._counts_tx() as conn:
            got = conn.execute("UPDATE socket_counts SET conns = conns - 1 WHERE key=%s AND holder=%s"
                               " RETURNING conns", (key, holder)).fetchone()
            if got is not None and got[0] <= 0:
                conn.execute("DELETE FROM socket_counts WHERE key=%s AND holder=%s AND conns <= 0",
                             (key, holder))

    def renew_member(self, holder: str, ttl: float, forget: float) -> bool:
        """Keep ``holder`` alive for ``ttl`` seconds; forget members dead for ``forget``
        seconds and every count without a member. False if ``holder``'s row was missing
        (new, or forgotten while it stalled): its counts must be written again."""
        with self._counts_tx() as conn:
            had = conn.execute(f"UPDATE members SET expires={_NOW} + %s WHERE holder=%s",
                               (ttl, holder)).rowcount == 1
            if not had:
                conn.execute(f"INSERT INTO members (holder, expires) VALUES (%s, {_NOW} + %s)",
                             (holder, ttl))
            if conn.execute(f"DELETE FROM members WHERE expires < {_NOW} - %s", (forget,)).rowcount:
                conn.execute("DELETE FROM socket_counts s WHERE NOT EXISTS"
                             " (SELECT 1 FROM members m WHERE m.holder = s.holder)")
            return had

    def reset_sockets(self, holder: str, counts: dict[str, int]) -> None:
        """Replace every count of ``holder`` with ``counts`` (after the database failed)."""
        with self._counts_tx() as conn:
            conn.execute("DELETE FROM socket_counts WHERE holder=%s", (holder,))
            with conn.cursor() as cur:
                cur.executemany("INSERT INTO socket_counts (key, holder, conns) VALUES (%s, %s, %s)",
                                [(key, holder, n) for key, n in counts.items() if n > 0])

    def leave(self, holder: str) -> None:
        """A clean stop: ``holder``'s counts go now, and it is dead from now on (its row
        stays until forgotten, so a count written after this one is swept with it)."""
        with self._counts_tx() as conn:
            conn.execute("DELETE FROM socket_counts WHERE holder=%s", (holder,))
            conn.execute(f"UPDATE members SET expires={_NOW} WHERE holder=%s", (holder,))

    # --- hearing other processes -------------------------------------------------

    async def listen(self, on_change: Callable[[str], None]) -> None:
        """LISTEN on the schema's channel; reconnects (and reports every table as
        changed, since notifications sent meanwhile are lost) if the link breaks."""
        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True) as conn:
                    await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                    if not first:
                        on_change("*")
                    first = False
                    async for note in conn.notifies():
                        origin, _, table_id = note.payload.partition(" ")
                        if origin != self.origin:
                            on_change(table_id)
            except psycopg.Error as exc:
                log.warning("listening on %s failed (%s); again in 1 s", self.url, exc)
                await asyncio.sleep(1.0)
