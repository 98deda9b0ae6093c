"""Measure failover as docs/deploy.md's recipe runs it (issue 36): three ``gloom serve``
processes on one PostgreSQL, Redis for the rates, behind Debian's nginx with
``deploy/nginx.conf``; players on websockets through nginx, each reconnecting as the
page does (``web/net.js``: 300 ms, 600 ms, ... up to 4 s between tries); one process
SIGKILLed every ``--every`` seconds and started again ``--restart-after`` seconds
later (systemd's ``RestartSec=1`` in ``deploy/gloomtable@.service``).

    .venv/bin/python scripts/failover.py                       # 20 kills, one each 30 s, 12 players
    .venv/bin/python scripts/failover.py --kills 4 --every 15  # a quick look

It prints, as measured:

- **reconnect**: from a player's socket closing to the first state on its new socket;
- **bot moves across a kill**: from a kill to the next move of each table whose
  decision was a bot's when the kill came (the table's bot delay, 700 ms, included);
- **person moves**: from a player's move sent to the state that shows it (all moves);
- **start-up**: from a killed process's start to its ``/readyz`` answering 200, under
  the load;
- **lost or doubled**: every table's stored record replays, and no player saw a state
  id go back.

Needs PostgreSQL at 127.0.0.1:5432 (db ``test``), Redis at 6379 and nginx; a schema
of its own is made and dropped. Exits non-zero if a player saw a state id go back.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "src")]

from deploy_support import write_nginx_main  # noqa: E402
from gloomtable.server.testing import ServerProcess, free_port  # noqa: E402
from pg_support import fresh_schema  # noqa: E402

UPSTREAM_OPTIONS = next(line.split(None, 2)[2].rstrip(";\n") for line in
                        (ROOT / "deploy" / "gloom-upstreams.conf").read_text().splitlines()
                        if line.startswith("server "))
"""What the shipped upstream list gives each process (``max_fails=1 fail_timeout=5s``)."""
RETRY_BASE, RETRY_MOST = 0.15, 4.0
"""web/net.js: wait min(4000, 150 * 2 ** min(attempt, 5)) ms before the attempt-th retry."""


@dataclass
class Figures:
    reconnects: list[float] = field(default_factory=list)
    bot_moves: list[float] = field(default_factory=list)
    person_moves: list[float] = field(default_factory=list)
    startups: list[float] = field(default_factory=list)
    went_back: int = 0
    why: dict[str, int] = field(default_factory=dict)
    """What ended the tries of a reconnect (close codes, errors), counted."""
    games: int = 0
    tables: list[str] = field(default_factory=list)


@dataclass
class Slot:
    """One table being played (a new one when its game ends), by two players and a bot."""

    index: int
    state_id: int = -1
    latest: dict[str, tuple[int, bool]] = field(default_factory=dict)
    """Each player's newest state id, and whether it had choices (was deciding)."""
    moved: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def bot_deciding(self) -> bool:
        """Both players have seen the newest state and neither decides: the bot does."""
        return len(self.latest) == 2 and all(sid == self.state_id and not choosing
                                             for sid, choosing in self.latest.values())


def spread(xs: list[float]) -> str:
    if not xs:
        return "none"
    xs = sorted(xs)
    p90 = xs[min(len(xs) - 1, int(0.9 * len(xs)))]
    p99 = xs[min(len(xs) - 1, int(0.99 * len(xs)))]
    return (f"n={len(xs)} median {statistics.median(xs):.2f} s, p90 {p90:.2f} s, p99 {p99:.2f} s, "
            f"max {xs[-1]:.2f} s")


async def player(site: str, slot: Slot, tid: str, token: str, figures: Figures, done: asyncio.Event,
                 stop: asyncio.Event, think: float) -> None:
    """A seat's page: connect, say hello, act on each decision after ``think`` seconds,
    reconnect as web/net.js does; ends when the game is over (or the run)."""
    attempts, closed_at, seen = 0, None, -1
    sent: dict[int, float] = {}
    while not (done.is_set() or stop.is_set()):
        try:
            async with websockets.connect(f"ws://{site}/ws/{tid}", open_timeout=10,
                                          max_size=2**22) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                attempts = 0
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg.get("type") == "error":
                        key = f"error {msg.get('code')}"
                        figures.why[key] = figures.why.get(key, 0) + 1
                    if msg.get("type") != "state":
                        continue
                    now = time.monotonic()
                    if closed_at is not None:
                        figures.reconnects.append(now - closed_at)
                        closed_at = None
                    sid = int(msg["state_id"])
                    if sid < seen:
                        figures.went_back += 1
                    seen = max(seen, sid)
                    for at in [s for s in sent if s < sid]:
                        figures.person_moves.append(now - sent.pop(at))
                    if sid > slot.state_id:
                        slot.state_id = sid
                        slot.moved.set()
                    slot.latest[token] = (sid, bool(msg.get("choices")))
                    if msg.get("over"):
                        done.set()
                        return
                    if msg.get("choices") and sid not in sent:
                        await asyncio.sleep(think)
                        sent[sid] = time.monotonic()
                        await ws.send(json.dumps({"type": "act", "state_id": sid,
                                                  "action": msg["choices"][0]["action"]}))
        except (OSError, websockets.exceptions.WebSocketException, TimeoutError) as exc:
            rcvd = getattr(exc, "rcvd", None)
            response = getattr(exc, "response", None)
            key = f"close {rcvd.code}" if rcvd is not None else \
                f"refused {response.status_code}" if response is not None else type(exc).__name__
            figures.why[key] = figures.why.get(key, 0) + 1
        if done.is_set() or stop.is_set():
            return
        if closed_at is None:
            closed_at = time.monotonic()
        sent.clear()  # a move not shown before the socket went is chosen again on the new one
        attempts += 1
        await asyncio.sleep(min(RETRY_MOST, RETRY_BASE * 2 ** min(attempts, 5)))


async def play_slot(site: str, slot: Slot, figures: Figures, stop: asyncio.Event, think: float) -> None:
    """Games one after another at this slot until the run stops."""
    seats = [{"kind": "person", "name": "Ada"}, {"kind": "person", "name": "Bo"}, {"kind": "bot"}]
    async with httpx.AsyncClient(timeout=20) as http:
        while not stop.is_set():
            try:
                r = await http.post(f"http://{site}/api/tables", json={"seats": seats})
            except httpx.HTTPError:
                await asyncio.sleep(0.5)
                continue
            if r.status_code != 201:
                await asyncio.sleep(0.5)
                continue
            table = r.json()
            figures.tables.append(table["id"])
            slot.state_id = -1
            slot.latest.clear()
            done = asyncio.Event()
            tokens = [i["token"] for i in table["invites"]]
            await asyncio.gather(*(player(site, slot, table["id"], t, figures, done, stop, think)
                                   for t in tokens))
            figures.games += int(done.is_set())


def start_timed(srv: ServerProcess, figures: Figures) -> None:
    """Start ``srv`` again and time it to its first ``/readyz`` 200."""
    started = time.monotonic()
    srv.start()
    while True:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(srv.url + "/readyz", timeout=5).status_code == 200:
                break
        time.sleep(0.05)
    figures.startups.append(time.monotonic() - started)


async def watch_bots_across(slots: list[Slot], figures: Figures, killed_at: float) -> None:
    """After a kill: for each table whose bot was deciding, the time to its next move."""

    async def one(slot: Slot, since: int) -> None:
        while slot.state_id == since:
            slot.moved.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(slot.moved.wait(), 1.0)
            if time.monotonic() - killed_at > 60:
                return
        figures.bot_moves.append(time.monotonic() - killed_at)

    await asyncio.gather(*(one(s, s.state_id) for s in slots if s.bot_deciding and s.state_id >= 0))


async def run(args: argparse.Namespace, servers: list[ServerProcess], site: str, figures: Figures) -> None:
    stop = asyncio.Event()
    slots = [Slot(i) for i in range(args.players // 2)]
    players = [asyncio.create_task(play_slot(site, s, figures, stop, args.think)) for s in slots]
    watchers = []
    rng = random.Random(args.seed)
    await asyncio.sleep(args.every)
    for k in range(args.kills):
        victim = rng.choice(servers)
        killed_at = time.monotonic()
        victim.kill()
        watchers.append(asyncio.create_task(watch_bots_across(slots, figures, killed_at)))
        print(f"kill {k + 1}/{args.kills}: port {victim.port}", flush=True)
        await asyncio.sleep(args.restart_after)
        restart = threading.Thread(target=start_timed, args=(victim, figures))
        restart.start()
        await asyncio.sleep(args.every - args.restart_after)
        await asyncio.to_thread(restart.join)
    stop.set()
    await asyncio.gather(*watchers)
    for task in players:
        task.cancel()
    await asyncio.gather(*players, return_exceptions=True)


def check_records(url: str, tables: list[str]) -> int:
    """Tables whose stored record does not replay (none, if nothing was lost or doubled)."""
    from gloomtable.server.store import open_store
    from gloomtable.server.table import LiveTable

    store = open_store(url)
    bad = 0
    try:
        for tid in tables:
            table = LiveTable.open(store.load(tid), store)
            bad += table.broken is not None
    finally:
        store.close()
    return bad


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Measure failover under load (docs/deploy.md).")
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--every", type=float, default=30.0, help="seconds between kills")
    parser.add_argument("--restart-after", type=float, default=1.0, help="seconds a killed process is down")
    parser.add_argument("--players", type=int, default=12, help="websocket players (two a table)")
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--think", type=float, default=0.5, help="seconds a player takes per decision")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--upstream-options", default=UPSTREAM_OPTIONS,
                        help=f"nginx's options for each process (default, as shipped: {UPSTREAM_OPTIONS})")
    parser.add_argument("--logs", type=Path, help="keep the servers' and nginx's logs in this folder")
    args = parser.parse_args(argv)
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    figures = Figures()
    with tempfile.TemporaryDirectory() as tmp, fresh_schema() as url:
        folder = Path(tmp)
        flags = ["--forwarded-allow-ips", "127.0.0.1", "--allowed-hosts", "127.0.0.1,localhost",
                 "--rate-storage", "async+redis://127.0.0.1:6379", "--rate-storage-prefix",
                 f"failover-{time.time_ns()}"]
        servers = [ServerProcess(url, log=folder / f"s{i}.log", args=flags, allow_fixed_deals=False,
                                 fast_bots=False) for i in range(args.processes)]
        for srv in servers:
            srv.start()
        port = free_port()
        main_conf = write_nginx_main(folder / "nginx", [f"127.0.0.1:{s.port} {args.upstream_options}"
                                                        for s in servers], port)
        proxy = subprocess.Popen([nginx, "-p", str(folder / "nginx"), "-c", str(main_conf)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            time.sleep(1)
            started = time.monotonic()
            asyncio.run(run(args, servers, f"127.0.0.1:{port}", figures))
            took = time.monotonic() - started
        finally:
            proxy.terminate()
            proxy.wait(10)
            for srv in servers:
                srv.stop()
        broken = check_records(url, figures.tables)
        if args.logs:
            shutil.copytree(folder, args.logs, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("*_temp", "body", "proxy", "*cgi", "*.pid"))
    print(f"\n{args.kills} SIGKILLs, one each {args.every:g} s (down {args.restart_after:g} s), "
          f"{args.players} websocket players on {args.players // 2} tables (2 people + 1 bot, bot delay "
          f"700 ms, {args.think:g} s a decision), {args.processes} processes behind nginx, {took:.0f} s")
    print(f"reconnect:                {spread(figures.reconnects)}")
    print(f"bot moves across a kill:  {spread(figures.bot_moves)}")
    print(f"person moves (round trip): {spread(figures.person_moves)}")
    print(f"start-up to /readyz 200:  {spread(figures.startups)}")
    print(f"games finished: {figures.games}; tables: {len(figures.tables)}; records that do not replay: "
          f"{broken}; states seen going back: {figures.went_back}")
    print("what ended a socket or a try: " + ", ".join(f"{k} x{n}" for k, n in sorted(figures.why.items())))
    return 1 if figures.went_back or broken else 0


if __name__ == "__main__":
    sys.exit(main())
