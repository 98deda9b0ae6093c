"""CPU per committed move of one ``gloom serve`` on SQLite and on PostgreSQL, side by side.

    PYTHONPATH=src python scripts/pg_cpu_per_move.py [--tables 40] [--seconds 8] [--rounds 2]
        [--pg postgresql://postgres@127.0.0.1:5432/test] [--pg-args "--pg-commit process-safe"]

Each run starts one server process on a throwaway store (a new SQLite file, or a
new PostgreSQL schema dropped afterwards), opens ``--tables`` bot tables of
``gloom bench --server`` (one websocket person seat, server bots in the others,
every seat thinking ``--think-ms``) and moves them for ``--seconds``. It reads
the CPU time (user + system, ``/proc``) of the server process and of every
``postgres`` process on this machine before and after, and divides by the moves
committed: what a move costs the server, and what it costs the database. CPU
time, unlike the round trip, is little bent by other work on a shared machine
(the round trip's p99 is printed too, and is). Runs alternate SQLite and
PostgreSQL ``--rounds`` times, so a drift of the machine's load hits both alike.
``--pg-args``: more flags for the PostgreSQL servers (one string).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import secrets
import shlex
import subprocess
import tempfile
from pathlib import Path

import psycopg

from gloomtable.bench.server import _run_clients, cpu_seconds, create_table, percentile
from gloomtable.server.testing import ServerProcess


def postgres_cpu_seconds() -> float:
    """Every ``postgres`` process on the machine (the backends come and go; the
    other work's backends count too, so read it on a machine without other
    PostgreSQL traffic, or as an upper bound)."""
    out = subprocess.run(["pgrep", "-x", "postgres"], capture_output=True, text=True).stdout
    total = 0.0
    for pid in out.split():
        with contextlib.suppress(OSError):  # gone meanwhile
            total += cpu_seconds(int(pid))
    return total


def run(db: str, tables: int, seconds: float, think_ms: int, work: Path,
        args: list[str]) -> dict[str, float]:
    server = ServerProcess(db, log=work / f"server-{secrets.token_hex(3)}.log", args=args).start()
    try:
        assert server.proc is not None
        opened = [create_table(server.url, 1000 + i, think_ms) for i in range(tables)]
        c0, p0 = cpu_seconds(server.proc.pid), postgres_cpu_seconds()
        tally = asyncio.run(_run_clients(server.url, opened, seconds, 1, think_ms / 1000))
        c1, p1 = cpu_seconds(server.proc.pid), postgres_cpu_seconds()
    finally:
        server.stop()
    moves = sum(tally.last_state[k] - tally.first_state.get(k, 0) for k in tally.last_state)
    lat = sorted(tally.latencies)
    return {"moves": moves, "server_ms": (c1 - c0) / max(moves, 1) * 1000,
            "postgres_ms": (p1 - p0) / max(moves, 1) * 1000,
            "p99_ms": percentile(lat, 99) * 1000 if lat else float("nan"), "errors": len(tally.errors)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--think-ms", type=int, default=250)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/test")
    ap.add_argument("--pg-args", default="", help="more flags for the PostgreSQL servers, one string")
    ap.add_argument("--only", choices=("sqlite", "pg"), help="run one store only")
    a = ap.parse_args()
    pg_args = shlex.split(a.pg_args)
    labels = [a.only] if a.only else ["sqlite", "pg"]
    with tempfile.TemporaryDirectory(prefix="gloom-cpu-per-move-") as tmp:
        work = Path(tmp)
        for _ in range(a.rounds):
            for label in labels:
                schema = "cpu_" + secrets.token_hex(5)
                sep = "&" if "?" in a.pg else "?"
                db = str(work / f"{schema}.db") if label == "sqlite" else f"{a.pg}{sep}schema={schema}"
                try:
                    r = run(db, a.tables, a.seconds, a.think_ms, work, pg_args if label == "pg" else [])
                finally:
                    if label == "pg":
                        with psycopg.connect(a.pg, autocommit=True) as conn:
                            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
                print(f"{label:6} moves={r['moves']:5d}  server {r['server_ms']:.3f} ms/move  "
                      f"postgres {r['postgres_ms']:.3f} ms/move  p99 {r['p99_ms']:.1f} ms  "
                      f"errors {r['errors']}", flush=True)


if __name__ == "__main__":
    main()
