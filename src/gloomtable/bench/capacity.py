"""``gloom bench --server --processes N --db URL``: how many busy bot tables one
site keeps under a p99 round trip of 50 ms, for 1 process on SQLite, 1 process
on PostgreSQL and N processes on one PostgreSQL, side by side in one run.

Each probe starts the server processes afresh on a throwaway store (a new
SQLite file, or a new PostgreSQL schema dropped afterwards), opens ``tables``
tables spread round robin over the processes (each made on, and so led by,
the process its person's client connects to: what a load balancer that keeps a
table's players on one process would do; a person on another process works
too, at the cost of a catch-up read per move), and moves them for ``seconds``
exactly as ``gloom bench --server`` does (bench/server.py): one person seat
played over a websocket, server bots in the others, every seat pausing
``think_ms``. Each process's clients run in their own client process, so the
load generator is not one Python process's ceiling.

The search doubles the tables from ``start`` until the p99 passes the target
(or errors appear), then halves the gap ``refine`` times. **Decision:** a probe
"holds" when p99 < target and no move errors; on this 2-core machine shared with
other work the figures move between runs, so read them side by side, never alone.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from gloomtable.bench.server import Tally, _run_clients, create_table, percentile
from gloomtable.server.testing import ServerProcess

TARGET_P99_MS = 50.0


def _clients(base: str, tables: list[tuple[str, str]], seconds: float, seed: int,
             think_s: float) -> Tally:
    return asyncio.run(_run_clients(base, tables, seconds, seed, think_s))


def probe(db: str, processes: int, tables: int, seconds: float, seed: int, think_ms: int,
          workdir: Path, src: Path | None = None, flags: list[str] | None = None) -> dict[str, Any]:
    """One measurement: ``processes`` servers on ``db`` (a SQLite path or a
    ``postgresql://`` URL), ``tables`` tables moving for ``seconds``; the servers of
    the tree under ``src`` with its ``flags`` when given (see :func:`capacity_against`)."""
    servers = [ServerProcess(db, log=workdir / f"server{i}.log", src=src, flags=flags)
               for i in range(processes)]
    try:
        for s in servers:
            s.start()
        spread: list[list[tuple[str, str]]] = [[] for _ in servers]
        for i in range(tables):
            spread[i % processes].append(create_table(servers[i % processes].url, seed * 1_000_003 + i,
                                                      think_ms))
        with ProcessPoolExecutor(processes) as pool:
            jobs = [pool.submit(_clients, s.url, spread[k], seconds, seed + k, think_ms / 1000)
                    for k, s in enumerate(servers)]
            tallies = [j.result() for j in jobs]
    finally:
        for s in servers:
            s.stop()
    lat = sorted(x for t in tallies for x in t.latencies)
    moves = sum(t.last_state[k] - t.first_state[k] for t in tallies for k in t.last_state)
    errors = sum(len(t.errors) for t in tallies)
    p99 = round(percentile(lat, 99) * 1000, 2) if lat else None
    return {"tables": tables, "p50_ms": round(percentile(lat, 50) * 1000, 2) if lat else None,
            "p99_ms": p99, "moves_per_s": round(moves / seconds, 1), "errors": errors,
            "holds": p99 is not None and p99 < TARGET_P99_MS and errors == 0}


def largest_held(run: Callable[[int], dict[str, Any]], start: int, refine: int,
                 most: int) -> tuple[int, list[dict[str, Any]]]:
    """Double from ``start`` until a probe fails, then bisect ``refine`` times."""
    probes: list[dict[str, Any]] = []
    good, bad = 0, None
    n = start
    while n <= most:
        p = run(n)
        probes.append(p)
        if not p["holds"]:
            bad = n
            break
        good = n
        n *= 2
    if bad is None:  # every size up to ``most`` held: nothing to bisect
        return good, probes
    for _ in range(refine):
        mid = (good + bad) // 2
        if mid <= good or bad - mid < max(5, good // 20):
            break
        p = run(mid)
        probes.append(p)
        if p["holds"]:
            good = mid
        else:
            bad = mid
    return good, probes


def bench_capacity(pg_url: str, processes: int = 2, seconds: float = 8.0, seed: int = 1,
                   think_ms: int = 250, start: int = 50, refine: int = 3, most: int = 2000,
                   progress: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    """The largest number of tables held at p99 < 50 ms for each of: 1 process on
    SQLite, 1 process on PostgreSQL, ``processes`` processes on PostgreSQL."""
    import psycopg

    from gloomtable.server.store import shown

    try:
        psycopg.connect(pg_url, connect_timeout=5).close()
    except psycopg.Error as exc:
        return {"available": False, "reason": f"PostgreSQL at {shown(pg_url)}: {exc}"}
    sep = "&" if "?" in pg_url else "?"
    runs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="gloom-capacity-") as tmp:
        for label, kind, n in (("1 process, SQLite", "sqlite", 1), ("1 process, PostgreSQL", "pg", 1),
                               (f"{processes} processes, PostgreSQL", "pg", processes)):
            def run(tables: int, kind: str = kind, n: int = n, label: str = label) -> dict[str, Any]:
                work = Path(tmp) / secrets.token_hex(4)
                work.mkdir()
                if kind == "sqlite":
                    db = str(work / "bench.db")
                else:
                    schema = "bench_" + secrets.token_hex(5)
                    db = f"{pg_url}{sep}schema={schema}"
                try:
                    p = probe(db, n, tables, seconds, seed, think_ms, work)
                finally:
                    if kind == "pg":
                        with psycopg.connect(pg_url, autocommit=True) as conn:
                            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
                progress(f"  {label}: {tables} tables -> p99 {p['p99_ms']} ms, "
                         f"{p['moves_per_s']} moves/s, {p['errors']} errors")
                return p

            progress(f"capacity: {label}")
            best, probes = largest_held(run, start, refine, most)
            runs.append({"label": label, "db": kind, "processes": n, "tables_held": best, "probes": probes})
    one_pg = runs[1]["tables_held"]
    return {"available": True, "target_p99_ms": TARGET_P99_MS, "think_ms": think_ms, "seconds": seconds,
            "runs": runs, "scaling": round(runs[2]["tables_held"] / one_pg, 2) if one_pg else None}


def tree_flags(src: Path) -> list[str]:
    """The flags that tree's own tests start its server with (the ``args`` of its
    ``ServerProcess``, which every tree has had): an older server may not know a flag
    this tree's tests pass."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    code = ("import json; from gloomtable.server.testing import ServerProcess; "
            "print(json.dumps(list(ServerProcess('bench.db', port=1).args)))")
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"cannot read the server flags of {src.parent}: {proc.stderr.strip()[-300:]}")
    flags: list[str] = json.loads(proc.stdout)
    return flags


def capacity_against(rev: str, pairs: int = 1, seconds: float = 8.0, seed: int = 1, think_ms: int = 250,
                     start: int = 50, refine: int = 3, most: int = 2000,
                     progress: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    """The most tables one process on SQLite holds at p99 < 50 ms, for this tree and
    for ``rev`` checked out beside it, in one run: ``pairs`` rounds of ``rev``, this
    tree, this tree, ``rev`` (a drift of the machine's load hits both alike). The load
    (this tree's bench clients, in their own process) is the same for both; only the
    server's sources differ. ``ratio`` is the median of this tree's figures over the
    median of ``rev``'s."""
    from gloomtable.bench.trees import checked_out, this_checkout

    here = this_checkout() / "src"
    held: dict[str, list[int]] = {"this": [], "rev": []}
    searches: list[dict[str, Any]] = []
    with checked_out(rev) as there, tempfile.TemporaryDirectory(prefix="gloom-capacity-") as tmp:
        trees = {"this": (here, tree_flags(here)), "rev": (there / "src", tree_flags(there / "src"))}
        for i in range(pairs):
            for which in ("rev", "this", "this", "rev"):
                src, flags = trees[which]
                label = f"pair {i + 1}: {rev if which == 'rev' else 'this tree'}"

                def run(tables: int, src: Path = src, flags: list[str] = flags,
                        label: str = label) -> dict[str, Any]:
                    work = Path(tmp) / secrets.token_hex(4)
                    work.mkdir()
                    p = probe(str(work / "bench.db"), 1, tables, seconds, seed, think_ms, work, src, flags)
                    progress(f"  {label}: {tables} tables -> p99 {p['p99_ms']} ms, "
                             f"{p['moves_per_s']} moves/s, {p['errors']} errors")
                    return p

                progress(f"capacity on SQLite, {label}")
                best, probes = largest_held(run, start, refine, most)
                held[which].append(best)
                searches.append({"tree": which, "pair": i + 1, "tables_held": best, "probes": probes})
    this_med, rev_med = statistics.median(held["this"]), statistics.median(held["rev"])
    return {"available": True, "against": rev, "db": "sqlite", "processes": 1, "pairs": pairs,
            "target_p99_ms": TARGET_P99_MS, "think_ms": think_ms, "seconds": seconds,
            "tables_held": {"this": held["this"], "rev": held["rev"]},
            "median": {"this": this_med, "rev": rev_med},
            "ratio": round(this_med / rev_med, 2) if rev_med else None, "searches": searches}
