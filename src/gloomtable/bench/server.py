"""``gloom bench --server``: N concurrent tables against a real ``gloom serve``.

The server runs as a subprocess on 127.0.0.1 with a fresh SQLite file. Each
table has one person seat, played over a loopback websocket by this process
(a random legal choice as soon as the seat decides), and server-side random
bots in the other seats with no delay. So every move goes through the whole
path a person's move takes: websocket, checks, store append, broadcast.

Every seat pauses ``think_ms`` before its move (server bots through the table's
``bot_delay_ms``), as bot tables do; ``think_ms=0`` moves flat out instead, which
measures capacity, and then a round trip is mostly time in the queue. **Decision:**
each table starts at a random moment within the first ``think_ms`` (seeded), as
tables opened one after another do. Started in the same millisecond, every table
would move in step with the others for the whole run, and every quarter second
two hundred moves would queue behind each other (a p99 of 75 to 135 ms on the
2-core machine, against 20 to 24 ms staggered): that measures one burst, not
two hundred tables.

- ``moves_per_s``: actions committed on all tables per second (ours and the
  server bots'), from the state ids the tables report.
- ``latency_ms``: a move's round trip, from sending ``act`` to receiving the
  first ``state`` message past it; p50, p90, p99 and max.
- ``rss_per_table_kb``: the server's resident memory with every table open and
  connected, minus before any table existed, divided by the tables.
- ``bytes_per_message``: what the clients received, over the messages: with
  deltas (the default, as pages ask), a patch stands in for each state but the first.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gloomtable.engine import Rng
from gloomtable.server.deltas import PatchError, apply_patch, document
from gloomtable.server.testing import ServerProcess

GAME = "creatures"
CONFIG = {"rounds": 100}
"""Long games, so a table keeps moving for the whole measurement."""
SEATS = 3
THINK_MS = 250
"""Default pause of every seat before its move: bot tables at a brisk, steady pace."""


def rss_kb(pid: int) -> int:
    """Resident memory of process ``pid`` in KiB (Linux ``/proc``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) process ``pid`` has used, in seconds (Linux ``/proc``):
    the measure the per-move scripts divide by the moves, little bent by other work."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list (``q`` in 0..100)."""
    if not sorted_values:
        raise ValueError("no values")
    k = max(0, min(len(sorted_values) - 1, round(q / 100 * len(sorted_values) + 0.5) - 1))
    return sorted_values[k]


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        reply: dict[str, Any] = json.loads(r.read())
        return reply


def create_table(base: str, seed: int, bot_delay_ms: int) -> tuple[str, str]:
    """A table with one person seat (ours) and random server bots; (id, token)."""
    seats = [{"kind": "person", "name": "bench"}] + [{"kind": "bot", "level": "random"}] * (SEATS - 1)
    answer = _post(base + "/api/tables", {"game": GAME, "config": CONFIG, "seats": seats,
                                          "listed": False, "bot_delay_ms": bot_delay_ms, "seed": seed})
    return answer["id"], answer["invites"][0]["token"]


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    first_state: dict[str, int] = field(default_factory=dict)
    last_state: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    received: int = 0
    """Messages the clients received, and their bytes (a patch in place of a whole state)."""
    received_bytes: int = 0


async def _play(ws_url: str, table: str, token: str, seed: int, box: dict[str, float],
                started: asyncio.Event, tally: Tally, think_s: float, deltas: bool = True) -> None:
    """One seat's client: connect, wait for the start, then act at once on each own
    decision until the deadline, timing every round trip."""
    from websockets.asyncio.client import connect

    rng = Rng(seed)
    sent_at: float | None = None
    sent_state = -1
    pending: list[dict[str, Any]] = []
    async with connect(f"{ws_url}/ws/{table}", max_size=2**22) as ws:
        # the token never rides in a URL; deltas as the pages ask for them (docs/server.md)
        await ws.send(json.dumps({"type": "hello", "token": token, "deltas": deltas}))
        doc: dict[str, Any] | None = None

        def take(text: str | bytes) -> dict[str, Any]:
            """A message; a patch comes back as the state it makes (a page's web/net.js does the same)."""
            nonlocal doc
            tally.received_bytes += len(text)
            tally.received += 1
            msg: dict[str, Any] = json.loads(text)
            if msg.get("type") == "state":
                doc = document(msg)
            elif msg.get("type") == "patch":
                if doc is None:
                    raise PatchError("a patch before any state")
                doc = apply_patch(doc, msg["ops"])
                msg = {**doc, "type": "state"}
            return msg

        while not started.is_set():  # keep the welcome and first states until the start
            with contextlib.suppress(TimeoutError):
                pending.append(take(await asyncio.wait_for(ws.recv(), timeout=0.05)))
        until = box["until"]
        if think_s > 0:  # tables are opened at different moments, not in the same millisecond
            await asyncio.sleep(think_s * rng.below(1000) / 1000)
        while True:
            if pending:
                msg = pending.pop(0)
            else:
                left = until - time.perf_counter()
                if left <= 0:
                    return
                try:
                    msg = take(await asyncio.wait_for(ws.recv(), timeout=left))
                except TimeoutError:
                    return
            kind = msg.get("type")
            if kind == "error":
                tally.errors.append(str(msg.get("code")))
                continue
            if kind != "state" or any(m.get("type") == "state" for m in pending):
                continue  # only the newest queued state matters
            sid = int(msg["state_id"])
            tally.first_state.setdefault(table, sid)
            tally.last_state[table] = sid
            if sent_at is not None and sid > sent_state:
                tally.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if msg.get("over"):
                return
            choices = msg.get("choices") or []
            if choices and sent_at is None and sid != sent_state:
                if think_s > 0:
                    await asyncio.sleep(think_s)
                    if time.perf_counter() >= until:
                        return
                action = choices[rng.below(len(choices))]["action"]
                sent_state, sent_at = sid, time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": action, "state_id": sid}))


async def _run_clients(base: str, tables: list[tuple[str, str]], seconds: float, seed: int,
                       think_s: float, deltas: bool = True) -> Tally:
    """Connect every seat, then start them all at once for ``seconds``."""
    ws_url = base.replace("http://", "ws://")
    tally = Tally()
    started = asyncio.Event()
    box = {"until": 0.0}
    tasks = [asyncio.create_task(_play(ws_url, t, tok, seed * 7919 + i, box, started, tally, think_s,
                                       deltas))
             for i, (t, tok) in enumerate(tables)]
    await asyncio.sleep(min(5.0, 0.5 + len(tables) / 100))  # connections open, welcomes arrive
    box["until"] = time.perf_counter() + seconds
    started.set()
    for r in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(r, BaseException):
            tally.errors.append(f"{type(r).__name__}: {r}")
    return tally


P99_TARGET_MS = 100.0
"""Issue 8: 200 concurrent bot tables with the p99 round trip under 100 ms."""


def server_target(server: dict[str, Any]) -> dict[str, Any]:
    """The ``targets`` entry for a server report: p99 under 100 ms with 200+ tables."""
    if not server.get("available"):
        return {"target": P99_TARGET_MS, "met": None}
    return {"target": P99_TARGET_MS, "tables": server["tables"],
            "met": server["latency_ms"]["p99"] < P99_TARGET_MS and server["tables"] >= 200
            and server["errors"] == 0}


def bench_server(tables: int = 200, seconds: float = 10.0, seed: int = 1,
                 think_ms: int = THINK_MS, deltas: bool = True) -> dict[str, Any]:
    """Start a server, open ``tables`` tables, move them for ``seconds``; the figures.
    Every seat waits ``think_ms`` before its move (server bots by the table's
    ``bot_delay_ms``); 0 moves flat out, which measures the server's capacity and
    makes the latency mostly queueing. ``deltas``: the clients ask for patches after
    the first state, as pages do (False: whole states, as before)."""
    try:
        import websockets  # noqa: F401
    except ImportError:
        return {"available": False, "reason": "the websockets package is not installed"}
    with tempfile.TemporaryDirectory(prefix="gloom-bench-") as tmp:
        # The same server process the tests use (python -m gloomtable.server, which is
        # what `gloom serve` runs), on a free loopback port with a throwaway database.
        server = ServerProcess(Path(tmp) / "bench.db", log=Path(tmp) / "server.log")
        try:
            server.start()
        except (RuntimeError, OSError) as exc:
            return {"available": False, "reason": f"could not start gloom serve: {exc}"}
        try:
            assert server.proc is not None
            rss_before = rss_kb(server.proc.pid)
            opened = [create_table(server.url, seed * 1_000_003 + i, think_ms) for i in range(tables)]
            tally = asyncio.run(_run_clients(server.url, opened, seconds, seed, think_ms / 1000, deltas))
            rss_after = rss_kb(server.proc.pid)
        except Exception as exc:  # report, do not crash the whole bench
            return {"available": False, "reason": f"{type(exc).__name__}: {exc}",
                    "log": server.log_path.read_text(errors="replace")[-1000:]}
        finally:
            server.stop()
    lat = sorted(tally.latencies)
    moves = sum(tally.last_state[t] - tally.first_state[t] for t in tally.last_state)
    if not lat:
        return {"available": False, "reason": "no move completed a round trip",
                "errors": tally.errors[:10]}
    ms = {q: round(percentile(lat, q) * 1000, 2) for q in (50, 90, 99)}
    return {
        "available": True, "game": GAME, "tables": tables, "seats_per_table": SEATS,
        "think_ms": think_ms,
        "seconds": seconds, "moves": moves, "moves_per_s": round(moves / seconds, 1),
        "round_trips": len(lat),
        "latency_ms": {"p50": ms[50], "p90": ms[90], "p99": ms[99], "max": round(lat[-1] * 1000, 2)},
        "tables_moving": len(tally.last_state),
        "errors": len(tally.errors), "error_kinds": sorted(set(tally.errors))[:10],
        "deltas": deltas, "messages": tally.received,
        "bytes_per_message": round(tally.received_bytes / max(1, tally.received)),
        "rss_before_kb": rss_before, "rss_after_kb": rss_after,
        "rss_per_table_kb": round((rss_after - rss_before) / tables, 1),
    }
