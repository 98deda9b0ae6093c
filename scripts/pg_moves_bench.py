"""What a move costs the server on PostgreSQL: ``--tables`` tables each storing
``--moves`` moves one after another, all at once, through the store exactly as
a live table reaches it (the guarded store of ``gloom serve --db postgresql://``).

Runs on any checkout (``PYTHONPATH=<checkout>/src``): where the store has
``commit_action`` (group commit, issue 35) it uses that, else what the table did
before, ``asyncio.to_thread(store.append_action, ...)``. Prints one JSON object:
moves per second (wall clock), this process's CPU time per move, the move's wait
(p50, p99) and how many transactions committed the moves (the distinct ``xmin``
of the stored actions, over the moves).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import time
from typing import Any

import psycopg

from gloomtable.server.store import SeatRow, TableRow, open_store
from gloomtable.server.store_guard import guarded


def commits(url: str, schema: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(f'SELECT count(DISTINCT xmin::text) FROM "{schema}".actions').fetchone()
        return int(row[0]) if row else 0


async def drive(store: Any, tables: list[str], moves: int) -> list[float]:
    waits: list[float] = []
    grouped = hasattr(store, "commit_action")

    async def one(tid: str) -> None:
        for idx in range(moves):
            args = (tid, idx, 1, idx % 2, "bot", None, False, None)
            started = time.perf_counter()
            if grouped:
                await store.commit_action(*args)
            else:
                await asyncio.to_thread(store.append_action, *args)
            waits.append(time.perf_counter() - started)

    await asyncio.gather(*(one(t) for t in tables))
    return waits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--moves", type=int, default=40)
    args = parser.parse_args()
    schema = "bench_" + secrets.token_hex(5)
    raw = open_store(f"{args.db}{'&' if '?' in args.db else '?'}schema={schema}")
    store = guarded(raw, 30.0)
    try:
        ids = [f"t{i}" for i in range(args.tables)]
        seats = [SeatRow(0, "bot", "easy", "A", ""), SeatRow(1, "bot", "easy", "B", "")]
        for tid in ids:
            raw.create_table(TableRow(tid, "gloom", {"players": 2}, 7, {}, True, "host", seats))
        cpu, wall = time.process_time(), time.perf_counter()
        waits = sorted(asyncio.run(drive(store, ids, args.moves)))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        xacts = commits(args.db, schema)
        n = len(waits)
        print(json.dumps({
            "grouped": hasattr(store, "commit_action"), "tables": args.tables, "moves": n,
            "moves_per_s": round(n / wall, 1), "cpu_ms_per_move": round(cpu / n * 1000, 3),
            "wait_ms": {"p50": round(waits[n // 2] * 1000, 2), "p99": round(waits[int(n * 0.99)] * 1000, 2)},
            "commits_per_move": round(xacts / n, 3), "load": os.getloadavg()[0]}))
    finally:
        store.close()
        with psycopg.connect(args.db, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


if __name__ == "__main__":
    main()
