"""Server CPU time per committed move on SQLite: this tree's server against another tree's, alternated.

    PYTHONPATH=src python scripts/cpu_per_move_vs_tree.py --against /work/wt-old/src
        [--tables 60] [--seconds 10] [--rounds 3] [--think-ms 250] [--level random]

Each run starts one ``python -m gloomtable.server`` on a new SQLite file (the
server of this tree, or of the tree whose ``src`` is ``--against``, each with
its own tree's test flags, as ``gloom bench --server --against`` does), opens
``--tables`` bot tables of ``gloom bench --server`` (one websocket person seat,
server bots of ``--level`` in the others, every seat thinking ``--think-ms``) and
moves them for ``--seconds``, with the same client code for both trees. It reads the server
process's CPU time (user + system, ``/proc``) before and after and divides by the
moves committed (scripts/pg_cpu_per_move.py's measure): CPU time, unlike a round
trip, is little bent by other work on a shared machine. Runs go in the order
other, this, this, other per round, so a drift of the load hits both alike.

Also printed, and bent by the machine's load: the round trip's p99 and the
event loop's stalls as a probe sees them: ``GET /healthz`` every 100 ms on one
kept-alive connection, counted when its answer takes more than 20 ms (``stalls``)
or 50 ms (``>50``). The medians per tree and their ratio close the output.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from gloomtable.bench.capacity import tree_flags
from gloomtable.bench.server import CONFIG, GAME, SEATS, Tally, _post, _run_clients, cpu_seconds, percentile
from gloomtable.server.testing import ServerProcess

PROBE_EVERY = 0.1
"""Seconds between the stall probe's requests. Each costs the server about 1 ms of CPU
(the HTTP stack and its middleware), alike in both trees: at 0.02 s apart they were a
fifth of the CPU per move at 60 tables; at 0.1 s some 0.04 ms a move."""



async def probe(port: int, until: float, out: list[float]) -> None:
    """``GET /healthz`` on one kept-alive connection every ``PROBE_EVERY`` s until ``until``:
    the answer's delay is how long the server's event loop was busy with other work."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    try:
        while time.perf_counter() < until:
            t0 = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            size = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                        if line.lower().startswith(b"content-length:"))
            await reader.readexactly(size)
            out.append(time.perf_counter() - t0)
            await asyncio.sleep(PROBE_EVERY)
    finally:
        writer.close()


async def load(url: str, port: int, opened: list[tuple[str, str]], seconds: float,
               think_s: float) -> tuple[Tally, list[float]]:
    delays: list[float] = []
    clients = asyncio.create_task(_run_clients(url, opened, seconds, 1, think_s))
    await asyncio.sleep(min(5.0, 0.5 + len(opened) / 100))  # as _run_clients waits before its start
    await probe(port, time.perf_counter() + seconds, delays)
    return await clients, delays


def create_table(base: str, seed: int, bot_delay_ms: int, level: str) -> tuple[str, str]:
    """``gloom bench --server``'s table (bench/server.py), its server bots of ``level``."""
    seats = [{"kind": "person", "name": "bench"}] + [{"kind": "bot", "level": level}] * (SEATS - 1)
    answer = _post(base + "/api/tables", {"game": GAME, "config": CONFIG, "seats": seats,
                                          "listed": False, "bot_delay_ms": bot_delay_ms, "seed": seed})
    return answer["id"], answer["invites"][0]["token"]


def run(src: Path, flags: list[str], tables: int, seconds: float, think_ms: int,
        work: Path, n: int, level: str = "random") -> dict[str, Any]:
    server = ServerProcess(str(work / f"cpu{n}.db"), log=work / f"server{n}.log", src=src,
                           flags=flags).start()
    try:
        assert server.proc is not None
        opened = [create_table(server.url, 1000 + i, think_ms, level) for i in range(tables)]
        c0 = cpu_seconds(server.proc.pid)
        tally, delays = asyncio.run(load(server.url, server.port, opened, seconds, think_ms / 1000))
        c1 = cpu_seconds(server.proc.pid)
    finally:
        server.stop()
    moves = sum(tally.last_state[k] - tally.first_state.get(k, 0) for k in tally.last_state)
    lat = sorted(tally.latencies)
    return {"moves": moves, "server_ms": (c1 - c0) / max(moves, 1) * 1000,
            "p99_ms": percentile(lat, 99) * 1000 if lat else float("nan"),
            "stalls": sum(d > 0.02 for d in delays), "over50": sum(d > 0.05 for d in delays),
            "probes": len(delays), "errors": len(tally.errors)}


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--against", type=Path, required=True, help="the other tree's src directory")
    ap.add_argument("--tables", type=int, default=60)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--think-ms", type=int, default=250)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--level", default="random", help="the server bots' level (bench: random)")
    a = ap.parse_args()
    here = Path(__file__).resolve().parent.parent / "src"
    there = a.against.resolve()
    trees = {"this": (here, tree_flags(here)), "other": (there, tree_flags(there))}
    per: dict[str, list[float]] = {"this": [], "other": []}
    with tempfile.TemporaryDirectory(prefix="gloom-cpu-vs-tree-") as tmp:
        n = 0
        for _ in range(a.rounds):
            for which in ("other", "this", "this", "other"):
                n += 1
                src, flags = trees[which]
                r = run(src, flags, a.tables, a.seconds, a.think_ms, Path(tmp), n, a.level)
                per[which].append(r["server_ms"])
                print(f"{which:5} moves={r['moves']:5d}  server {r['server_ms']:.3f} ms/move  "
                      f"p99 {r['p99_ms']:.1f} ms  stalls {r['stalls']}/{r['probes']} (>50 ms: {r['over50']})"
                      f"  errors {r['errors']}", flush=True)
    this, other = statistics.median(per["this"]), statistics.median(per["other"])
    print(f"median server CPU per move: this {this:.3f} ms, other {other:.3f} ms, ratio {this / other:.2f}")


if __name__ == "__main__":
    main()
