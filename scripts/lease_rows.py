"""Count the rows a ``gloom serve`` process on PostgreSQL writes to keep its tables'
leases and its pages' presence alive (issue 35; docs/reliability.md): one process,
``--tables`` tables of two people, one page open at seat 0 of each, nobody moving;
``pg_stat_user_tables`` (rows inserted, updated and deleted) of ``leases``,
``presence``, ``heartbeats`` and ``members`` read before and after ``--seconds``.

    PYTHONPATH=src .venv/bin/python scripts/lease_rows.py --tables 100
    PYTHONPATH=/path/to/old/src .venv/bin/python scripts/lease_rows.py --tables 100   # before

The server runs from the same ``PYTHONPATH``, so two checkouts compare side by side.
Needs PostgreSQL at 127.0.0.1:5432 (db ``test``); a schema of its own is made and dropped.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import secrets
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psycopg
from websockets.sync.client import connect

from gloomtable.server.testing import ServerProcess

BASE = "postgresql://postgres@127.0.0.1:5432/test"
ROWS = ("leases", "presence", "heartbeats", "members")


def written(conn: psycopg.Connection[tuple[object, ...]], schema: str) -> dict[str, int]:
    """Rows inserted + updated + deleted so far, per table of ``ROWS`` that exists."""
    conn.execute("SELECT pg_stat_clear_snapshot()")
    return {name: int(n) for name, n in conn.execute(
        "SELECT relname, n_tup_ins + n_tup_upd + n_tup_del FROM pg_stat_user_tables"
        " WHERE schemaname = %s AND relname = ANY(%s)", (schema, list(ROWS)))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=20.0)
    args = ap.parse_args()
    schema = "bench_" + secrets.token_hex(5)
    url = f"{BASE}?schema={schema}"
    seats = [{"kind": "person", "name": "Ada"}, {"kind": "person", "name": "Bo"}]
    try:
        with tempfile.TemporaryDirectory() as tmp, ServerProcess(url, log=Path(tmp) / "s.log") as srv, \
                contextlib.ExitStack() as pages, psycopg.connect(BASE, autocommit=True) as conn:
            for _ in range(args.tables):
                r = httpx.post(srv.url + "/api/tables", timeout=30,
                               json={"game": "gloom", "seats": seats, "listed": False})
                r.raise_for_status()
                t = r.json()
                ws = pages.enter_context(connect(f"{srv.ws_url}/ws/{t['id']}", open_timeout=30))
                ws.send(srv.hello(t["invites"][0]["token"]))
                ws.recv(timeout=30)
            time.sleep(3.0)  # every page in, every lease taken
            before, started = written(conn, schema), time.monotonic()
            time.sleep(args.seconds)
            after, took = written(conn, schema), time.monotonic() - started
    finally:
        with psycopg.connect(BASE, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    rates = {name: round((after[name] - before.get(name, 0)) / took, 2) for name in sorted(after)}
    print(json.dumps({"tables": args.tables, "pages": args.tables, "seconds": round(took, 1),
                      "rows_written_per_second": rates, "total": round(sum(rates.values()), 2)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
