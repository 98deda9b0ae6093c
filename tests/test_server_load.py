"""Load (issue 9, part 5): many concurrent bot tables on one ``gloom serve``
process on loopback, for a fixed time, with no error and no lost action.

Every table has a spectator that checks the stream it receives (state ids
never go back, the log arrives without gaps, no error message); one table in
four also has a person seat played by this test's client, which remembers
every action the server confirmed. When the time is up the server is stopped
and the SQLite file is read: every confirmed action is stored at the index it
was confirmed at, every spectator's last state id is stored, and every
table's record replays. New tables replace finished ones, so the number of
live tables stays at the target for the whole run; the run stops by itself.

Default: 20 tables for 5 s. ``HYPOTHESIS_PROFILE=long``: 200 tables for 60 s.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from gloomtable.engine import Rng
from gloomtable.engine.record import GameRecord
from gloomtable.games import replay_record
from gloomtable.server.testing import ServerProcess
from reliability_support import scaled, stored

MAX_MESSAGES = 100_000
"""No client reads more messages than this on one connection."""
BOT_DELAY_MS = 100
PACE = 0.08
"""Seconds the person client waits before each action (people click; 20 a second is the limit)."""
GAMES = [("gloom", 4), ("creatures", 3), ("gloom", 2), ("creatures", 4), ("gloomier", 3), ("gloom", 5)]


@dataclass
class Table:
    id: str
    token: str | None
    errors: list[dict[str, Any]] = field(default_factory=list)
    last_sid: int = -1
    log_next: int = 0
    confirmed: dict[int, int] = field(default_factory=dict)
    """Stored index -> the action the server confirmed there to the person seat."""
    window_answer: bool = False
    """The person's pending action answers a response window (R-G20, issue 30)."""
    unused: int = 0
    """Window answers the server said it did not take (an earlier seat responded, or too late)."""
    latencies: list[float] = field(default_factory=list)
    over: bool = False


async def states(ws, t: Table, stop: asyncio.Event):
    """The ``state`` messages of one connection (errors noted on the table) until
    ``stop`` is set while the line is quiet, or MAX_MESSAGES have come."""
    for _ in range(MAX_MESSAGES):
        try:
            raw = await asyncio.wait_for(ws.recv(), 0.5)
        except TimeoutError:
            if stop.is_set():
                return
            continue
        msg = json.loads(raw)
        if msg["type"] == "error" and not (msg["code"] == "stale_state" and t.window_answer):
            t.errors.append(msg)  # (a window answer that came after its pause ended is told so: no error)
        elif msg["type"] in ("state", "answer", "error"):
            yield msg


async def spectate(url: str, t: Table, stop: asyncio.Event) -> None:
    """Checks the stream: state ids never go back, log entries arrive in order without gaps."""
    async with connect(url, open_timeout=60, max_queue=None, max_size=2**24) as ws:
        await ws.send(ServerProcess.hello(None))
        async for msg in states(ws, t, stop):
            if msg["type"] != "state":
                continue
            assert msg["state_id"] >= t.last_sid, "a state id went back"
            t.last_sid = msg["state_id"]
            assert msg["log_start"] <= t.log_next or t.log_next == 0, "a gap in the log"
            t.log_next = msg["log_start"] + len(msg["log"])
            if msg["over"]:
                t.over = True
                return
            if stop.is_set():
                return


async def play(url: str, t: Table, rng: Rng, stop: asyncio.Event) -> None:
    """A person seat: a random choice whenever asked; remembers what the server confirmed."""
    pending: tuple[int, int, float] | None = None
    async with connect(url, open_timeout=60, max_queue=None, max_size=2**24) as ws:
        await ws.send(ServerProcess.hello(t.token))
        async for msg in states(ws, t, stop):
            if msg["type"] != "state":  # a window answer's fate, in the server's own words
                if pending is not None and msg["type"] == "answer" and msg["result"] == "stored":
                    assert msg["action"] == pending[1] and msg["state_id"] == pending[0], msg
                    t.confirmed[msg["index"]] = pending[1]
                    t.latencies.append(time.monotonic() - pending[2])
                else:
                    t.unused += pending is not None
                pending, t.window_answer = None, False
                continue
            if pending is not None and msg["state_id"] > pending[0]:
                # A move of its own decision is stored at the state id it was chosen in;
                # a window answer is never confirmed by a later state, only by its "answer".
                assert not t.window_answer, f"table {t.id}: a window answer was never told its fate"
                t.confirmed[pending[0]] = pending[1]
                t.latencies.append(time.monotonic() - pending[2])
                pending = None
            if msg["over"] or stop.is_set():
                return
            if msg["choices"] and pending is None:
                await asyncio.sleep(PACE)
                action = msg["choices"][rng.below(len(msg["choices"]))]["action"]
                pending = (msg["state_id"], action, time.monotonic())
                t.window_answer = bool(msg.get("window"))
                await ws.send(json.dumps({"type": "act", "action": action, "state_id": msg["state_id"]}))


async def open_table(client: httpx.AsyncClient, srv: ServerProcess, n: int, rng: Rng,
                     games: set[str]) -> tuple[Table, dict[str, Any]]:
    game, seats = GAMES[n % len(GAMES)]
    if game not in games:
        game = "gloom"
    person = n % 4 == 0
    body = {"game": game, "seed": rng.below(2**40), "bot_delay_ms": BOT_DELAY_MS, "listed": False,
            "seats": [{"kind": "person" if person and i == 0 else "bot", "level": "random"}
                      for i in range(seats)]}
    r = await client.post(srv.url + "/api/tables", json=body)
    assert r.status_code == 201, r.text
    info = r.json()
    return Table(info["id"], info["invites"][0]["token"] if person else None), info


async def soak(srv: ServerProcess, tables: int, seconds: float, seed: int) -> tuple[list[Table], int]:
    rng = Rng(seed)
    stop = asyncio.Event()
    made: list[Table] = []
    tasks: dict[str, list[asyncio.Task[None]]] = {}
    peak = 0
    async with httpx.AsyncClient(timeout=60) as client:
        games = {g["name"] for g in (await client.get(srv.url + "/api/games")).json()["games"]}

        async def add() -> None:
            t, _ = await open_table(client, srv, len(made), rng, games)
            made.append(t)
            url = f"{srv.ws_url}/ws/{t.id}"
            tasks[t.id] = [asyncio.create_task(spectate(url, t, stop))]
            if t.token:
                player = play(url, t, Rng(rng.below(2**32)), stop)
                tasks[t.id].append(asyncio.create_task(player))

        for _ in range(tables):
            await add()
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            await asyncio.sleep(0.25)
            live = [t for t in made if not t.over]
            peak = max(peak, len(live))
            for _ in range(tables - len(live)):
                await add()
        stop.set()
        await asyncio.wait_for(asyncio.gather(*(x for ts in tasks.values() for x in ts)), 120)
    return made, peak


@pytest.mark.slow
def test_soak_concurrent_bot_tables(tmp_path: Path, figures: dict[str, Any]) -> None:
    tables, seconds = scaled(20, 200), scaled(5, 60)
    started = time.monotonic()
    with ServerProcess(tmp_path / "load.db") as srv:
        made, peak = asyncio.run(soak(srv, tables, seconds, 7))
        srv.stop()
        rows = stored(srv.db)
    wall = time.monotonic() - started
    errors = [e for t in made for e in t.errors]
    assert not errors, errors[:5]
    lost = 0
    for t in made:
        game, config, seed, acts = rows[t.id]
        assert t.last_sid <= len(acts), f"table {t.id}: a spectator saw state {t.last_sid}"
        for idx, action in t.confirmed.items():
            lost += idx >= len(acts) or acts[idx] != action
        state = replay_record(GameRecord(game, config, seed, acts))
        assert state.is_over() or not t.over
    assert lost == 0
    assert peak >= tables
    latencies = sorted(x for t in made for x in t.latencies)
    assert latencies, "no person action was confirmed"
    ms = [round(1000 * x, 1) for x in (statistics.median(latencies),
                                       latencies[int(0.95 * (len(latencies) - 1))], latencies[-1])]
    actions = sum(len(rows[t.id][3]) for t in made)
    figures["server_load"] = {
        "tables held at once": peak, "tables played": len(made), "seconds": seconds,
        "games finished": sum(t.over for t in made), "actions stored": actions,
        "actions per second": round(actions / seconds, 1),
        "person actions confirmed": len(latencies), "actions lost": lost, "errors": len(errors),
        "window answers not taken (told so)": sum(t.unused for t in made),
        "confirm latency ms p50/p95/max": ms,
        "wall seconds with setup and checks": round(wall, 1),
    }
