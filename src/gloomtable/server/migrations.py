"""The store's schema as numbered migrations, shared by every backend.

Each migration is a list of statements written in the SQL that SQLite and
PostgreSQL both accept (TEXT, INTEGER, BIGINT, DOUBLE PRECISION; booleans as
0/1 integers). A backend applies, in one transaction each, every migration
newer than the version recorded in ``schema_version``, so a database made by
an older gloomtable is upgraded when a newer one opens it and two processes
starting at once apply each migration once. Never edit a released migration:
add the next one.
"""

from __future__ import annotations

from gloomtable.server.store_accounts import MIGRATION as ACCOUNTS
from gloomtable.server.store_accounts import RATINGS_MIGRATION as RATINGS
from gloomtable.server.store_decks import MIGRATION as DECKS
from gloomtable.server.store_talk import talk_migration

VERSION_TABLE = ("CREATE TABLE IF NOT EXISTS schema_version ("
                 " version INTEGER PRIMARY KEY, applied DOUBLE PRECISION NOT NULL)")

MIGRATIONS: list[tuple[int, str, list[str]]] = [
    (1, "tables, seats and the action list", [
        # IF NOT EXISTS: a SQLite file made before migrations existed has exactly these tables
        """CREATE TABLE IF NOT EXISTS tables (
            id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            config TEXT NOT NULL,
            seed BIGINT NOT NULL,
            options TEXT NOT NULL,
            listed INTEGER NOT NULL,
            host_token TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            over INTEGER NOT NULL DEFAULT 0,
            next_table TEXT
        )""",
        """CREATE TABLE IF NOT EXISTS seats (
            table_id TEXT NOT NULL REFERENCES tables(id),
            seat INTEGER NOT NULL,
            kind TEXT NOT NULL,
            level TEXT NOT NULL,
            name TEXT NOT NULL,
            token TEXT NOT NULL,
            claimed INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (table_id, seat)
        )""",
        """CREATE TABLE IF NOT EXISTS actions (
            table_id TEXT NOT NULL REFERENCES tables(id),
            idx INTEGER NOT NULL,
            action INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            actor TEXT NOT NULL,
            narration TEXT,
            at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (table_id, idx)
        )""",
        "CREATE INDEX IF NOT EXISTS tables_open ON tables(over, listed)",
    ]),
    (2, "stored turn-timer deadlines and table leases (several processes)", [
        "ALTER TABLE tables ADD COLUMN deadline DOUBLE PRECISION",
        "ALTER TABLE tables ADD COLUMN deadline_idx INTEGER",
        """CREATE TABLE IF NOT EXISTS leases (
            table_id TEXT PRIMARY KEY REFERENCES tables(id),
            holder TEXT NOT NULL,
            expires DOUBLE PRECISION NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS leases_expiry ON leases(expires)",
    ]),
    (3, "which seats have a page open on which process (several processes)", [
        """CREATE TABLE IF NOT EXISTS presence (
            table_id TEXT NOT NULL,
            seat INTEGER NOT NULL,
            holder TEXT NOT NULL,
            conns INTEGER NOT NULL,
            expires DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (table_id, seat, holder)
        )""",
    ]),
    (4, "open websockets per address and seat token, per live process (several processes)", [
        # one row per server process, renewed with its leases: its counts hold while it lives
        """CREATE TABLE IF NOT EXISTS members (
            holder TEXT PRIMARY KEY,
            expires DOUBLE PRECISION NOT NULL
        )""",
        # key: the SHA-256 of "ip:ADDRESS" or "token:SEAT_TOKEN" (a token is a secret)
        """CREATE TABLE IF NOT EXISTS socket_counts (
            key TEXT NOT NULL,
            holder TEXT NOT NULL,
            conns INTEGER NOT NULL,
            PRIMARY KEY (key, holder)
        )""",
        "CREATE INDEX IF NOT EXISTS socket_counts_holder ON socket_counts(holder)",
    ]),
    (5, "when each table finished (finished tables are deleted after --finished-table-expiry)", [
        # the writer's wall clock, as actions.at: a table finishes with its last action
        "ALTER TABLE tables ADD COLUMN finished DOUBLE PRECISION",
        """UPDATE tables SET finished = COALESCE(
            (SELECT MAX(a.at) FROM actions a WHERE a.table_id = tables.id), created)
           WHERE over = 1""",
        # "finished before T, oldest first, at most N" reads the index in order and stops;
        # unfinished tables (NULL) are left out of it
        "CREATE INDEX IF NOT EXISTS tables_finished ON tables(finished, id) WHERE finished IS NOT NULL",
    ]),
    ACCOUNTS,
    RATINGS,
    talk_migration(8),
    DECKS,
    (10, "table leases and presence live by their process's heartbeat (several processes)", [
        # one row per server process, beaten every 0.5 s from a thread of its own: a lease
        # or a presence row counts while its holder beat within the lease term
        """CREATE TABLE IF NOT EXISTS heartbeats (
            holder TEXT PRIMARY KEY,
            beat DOUBLE PRECISION NOT NULL
        )""",
        "DROP INDEX IF EXISTS leases_expiry",  # (SQLite drops no indexed column)
        "ALTER TABLE leases DROP COLUMN expires",
        "ALTER TABLE presence DROP COLUMN expires",
        "CREATE INDEX IF NOT EXISTS leases_holder ON leases(holder)",
    ]),
]

LATEST = MIGRATIONS[-1][0]
