"""What the moves' statement costs PostgreSQL itself: the CPU time of the backend
that runs it, per single-move statement, in a new schema holding ``--tables``
other tables with ``--actions`` stored actions between them (never analyzed, as
a new site's or a bench probe's schema is).

    PYTHONPATH=src python scripts/pg_move_statement_cpu.py [--tables 200] [--actions 6000] [--moves 1500]

The statement is sent as the server sends it (prepared, so after five runs on its
generic plan), with ``synchronous_commit`` off so the disk's sync does not blur the
figure (on, it adds the sync's own CPU: about 0.12 ms a commit on the team's
machine). The backend's CPU is read from ``/proc/<pid>/schedstat`` (nanoseconds),
so run it on the database's machine. ``--plan`` prints the generic plan too. It runs
on any checkout (``PYTHONPATH=<checkout>/src``), so two statements can be compared.
"""

from __future__ import annotations

import argparse
import json
import secrets
import time
from pathlib import Path

import psycopg

from gloomtable.server.store import SeatRow, TableRow
from gloomtable.server.store_postgres import _STORE_MOVES, PostgresStore


def one_move(table_id: str, idx: int) -> str:
    """The statement's rows for one move (written here, so the script runs on older checkouts too)."""
    return json.dumps([{"t": table_id, "i": idx, "a": 1, "s": 0, "r": "bot", "n": None, "at": time.time(),
                        "o": 0, "d": 5.0}])


def backend_cpu(pid: int) -> float:
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", default="postgresql://postgres@127.0.0.1:5432/test")
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--actions", type=int, default=6000)
    ap.add_argument("--moves", type=int, default=1500)
    ap.add_argument("--plan", action="store_true")
    a = ap.parse_args()
    schema = "stmt_" + secrets.token_hex(5)
    store = PostgresStore(f"{a.db}{'&' if '?' in a.db else '?'}schema={schema}")
    try:
        seats = [SeatRow(0, "bot", "easy", "A", ""), SeatRow(1, "bot", "easy", "B", "")]
        for t in range(20):
            store.create_table(TableRow(f"t{t}", "gloom", {"players": 2}, 7, {}, True, "host", seats))
        with psycopg.connect(store.conninfo, autocommit=True) as conn:
            conn.execute(f"SET search_path TO {schema}")
            conn.execute("INSERT INTO tables SELECT 'x' || g, game, config, seed, options, listed,"
                         " host_token, created, over FROM tables, generate_series(1, %s) g WHERE id = 't0'",
                         (a.tables,))
            if a.tables and a.actions:
                conn.execute("INSERT INTO actions SELECT 'x' || (g %% %s + 1), g / %s, 1, 0, 'bot', NULL, 0"
                             " FROM generate_series(0, %s) g", (a.tables, a.tables, a.actions - 1))
            conn.execute("SET synchronous_commit TO off")
            if a.plan:
                conn.execute("SET plan_cache_mode TO force_generic_plan")
                numbered = _STORE_MOVES.replace("%s", "$1", 1).replace("%s", "$2", 1).replace("%s", "$3", 1)
                conn.execute(f"PREPARE moves(json, text, text) AS {numbered}")
                rows = one_move("t0", 0)
                for line in psycopg.ClientCursor(conn).execute(
                        "EXPLAIN (ANALYZE, COSTS OFF) EXECUTE moves(%s::json, 'c', 'o ')", (rows,)):
                    print(line[0])
                conn.execute("DEALLOCATE moves")
                conn.execute("RESET plan_cache_mode")
            row = conn.execute("SELECT pg_backend_pid()").fetchone()
            assert row is not None
            pid, n = int(row[0]), a.moves
            cpu, wall = backend_cpu(pid), time.perf_counter()
            for k in range(n):
                moves = one_move(f"t{k % 20}", k // 20 + (1 if a.plan and k % 20 == 0 else 0))
                conn.execute(_STORE_MOVES, (moves, store.channel, f"{store.origin} "),
                             prepare=True).fetchall()
            cpu, wall = backend_cpu(pid) - cpu, time.perf_counter() - wall
        print(f"tables {a.tables + 20}, actions stored before {a.actions if a.tables else 0}: "
              f"backend CPU {cpu / n * 1000:.3f} ms a move, round trip {wall / n * 1000:.3f} ms")
    finally:
        store.close()
        with psycopg.connect(a.db, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


if __name__ == "__main__":
    main()
