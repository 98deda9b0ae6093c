"""Faults (issue 9, part 4): the server is killed with SIGKILL at random moments
across at least 24 games in the suite (300 in the soak, ``scripts/soak.py``) and
started again on the same database.

Players are real websocket clients: people tables are played by this test's
own clients (random choices, sent as fast as they arrive), bot tables are
watched by a spectator. At every kill the test records what each client last
saw; then it reads the SQLite file and restarts the server, and checks:

- nothing any client saw is missing from the store (stored actions >= last seen
  state id), and the stored prefix is never rewritten;
- what each client last saw is exactly the engine's view after that many stored
  actions (so a restart rebuilds the very state they were shown);
- a people table (nothing moves without them) resumes at exactly the stored
  state: the state its players last saw, or one action further when that
  player's own action was in flight, and then it is that action;
- every finished game's stored record replays to the final view its players saw.

Also: a read-only or locked database gives a clear error at start.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from gloomtable.engine import Rng
from gloomtable.engine.record import GameRecord
from gloomtable.games import make_game, replay_record
from gloomtable.server.testing import ServerProcess, free_port
from reliability_support import scaled, stored

MAX_MESSAGES = 50_000
"""No client reads more messages than this on one connection."""
MAX_CYCLES = 60
FINISH_TIMEOUT = 120.0
PACE = 0.05
BOT_DELAY_MS = 4
"""Bots pause a little, so a game spans several kills."""
CONCURRENT = 30
"""Seconds a test client waits before each action (under the 20-a-second rate limit)."""


def as_json(data: Any) -> Any:
    return json.loads(json.dumps(data))


@dataclass
class Watch:
    """One table, as its clients saw it."""

    info: dict[str, Any]
    people: bool
    seats: list[int | None]
    last: dict[int | None, tuple[int, Any]] = field(default_factory=dict)
    in_flight: dict[int | None, tuple[int, int]] = field(default_factory=dict)
    final: dict[int | None, Any] = field(default_factory=dict)
    errors: list[dict[str, Any]] = field(default_factory=list)
    kills: int = 0
    stored: list[int] = field(default_factory=list)

    @property
    def id(self) -> str:
        return str(self.info["id"])

    @property
    def over(self) -> bool:
        return bool(self.final)

    def token(self, seat: int | None) -> str | None:
        return None if seat is None else self.info["invites"][seat]["token"]


async def client(srv: ServerProcess, w: Watch, seat: int | None, rng: Rng,
                 first: asyncio.Future[dict[str, Any]] | None = None,
                 hold: asyncio.Event | None = None) -> None:
    """One connection: records every state; a seat plays a random choice when asked
    (once ``hold`` is set). Ends when the game ends or the server dies."""
    url = f"{srv.ws_url}/ws/{w.id}"
    try:
        async with connect(url, open_timeout=30, max_queue=None, max_size=2**24) as ws:
            await ws.send(srv.hello(None if seat is None else w.token(seat)))
            for _ in range(MAX_MESSAGES):
                msg = json.loads(await ws.recv())
                if msg["type"] == "error":
                    w.errors.append(msg)
                    continue
                if msg["type"] != "state":
                    continue
                sid = msg["state_id"]
                if first is not None and not first.done():
                    first.set_result(msg)
                w.last[seat] = (sid, msg["view"])
                sent = w.in_flight.get(seat)
                if sent is not None and sid > sent[0]:
                    del w.in_flight[seat]
                if msg["over"]:
                    w.final[seat] = msg["view"]
                    return
                if hold is not None and not hold.is_set():
                    await hold.wait()
                if msg["choices"] and seat not in w.in_flight:
                    await asyncio.sleep(PACE)  # people click; the server allows 20 messages a second
                    action = msg["choices"][rng.below(len(msg["choices"]))]["action"]
                    w.in_flight[seat] = (sid, action)
                    await ws.send(json.dumps({"type": "act", "action": action, "state_id": sid}))
    except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError):
        return


TABLE_KINDS: list[tuple[str, int, bool]] = [
    ("gloom", 2, True), ("creatures", 2, True), ("gloom", 3, False), ("creatures", 4, False),
    ("gloom", 4, False), ("creatures", 3, True), ("gloomier", 3, False), ("gloom", 5, False),
]


def create_table(srv: ServerProcess, n: int, rng: Rng) -> Watch:
    game, seats, people = TABLE_KINDS[n % len(TABLE_KINDS)]
    if game == "gloomier" and "gloomier" not in {g["name"] for g in httpx.get(
            srv.url + "/api/games", timeout=30).json()["games"]}:
        game = "gloom"
    kind = "person" if people else "bot"
    body = {"game": game, "seats": [{"kind": kind, "level": "random"} for _ in range(seats)],
            "bot_delay_ms": BOT_DELAY_MS, "seed": rng.below(2**40), "listed": False}
    r = httpx.post(srv.url + "/api/tables", json=body, timeout=30)
    assert r.status_code == 201, r.text
    return Watch(r.json(), people, list(range(seats)) if people else [None])


def check_after_kill(w: Watch, rows: dict[str, tuple[str, dict[str, Any], int, list[int]]]) -> None:
    game, config, seed, acts = rows[w.id]
    assert acts[:len(w.stored)] == w.stored, f"table {w.id}: stored actions were rewritten"
    w.stored = acts
    g = make_game(game, config)
    for seat, (sid, view) in w.last.items():
        assert sid <= len(acts), f"table {w.id}: seat {seat} saw state {sid}, store has {len(acts)}"
        state = g.new_initial_state(seed)
        for a in acts[:sid]:
            state.apply(a)
        assert as_json(state.view(seat)) == view, f"table {w.id}: what seat {seat} saw is not state {sid}"
    if w.people and w.last:
        newest = max(sid for sid, _ in w.last.values())
        extra = acts[newest:]
        flying = {a for (sid, a) in w.in_flight.values() if sid == newest}
        assert len(extra) <= 1, f"table {w.id}: {len(extra)} actions nobody sent or saw"
        assert not extra or extra[0] in flying, f"table {w.id}: a stored action nobody sent"


async def resume_check(srv: ServerProcess, w: Watch, rng: Rng) -> list[asyncio.Task[None]]:
    """Reconnect a table's clients; a people table must come back at exactly the stored state."""
    tasks = []
    hold = asyncio.Event()
    firsts: dict[int | None, asyncio.Future[dict[str, Any]]] = {}
    for seat in w.seats:
        firsts[seat] = asyncio.get_running_loop().create_future()
        w.in_flight.pop(seat, None)
        tasks.append(asyncio.create_task(client(srv, w, seat, Rng(rng.below(2**32)), firsts[seat], hold)))
    if w.people:  # nobody acts until every seat has seen where the table resumed
        last = dict(w.last)
        for seat, first in firsts.items():
            msg = await asyncio.wait_for(first, 30)
            assert msg["state_id"] == len(w.stored), f"table {w.id} resumed at {msg['state_id']}"
            if seat in last and last[seat][0] == msg["state_id"]:
                assert msg["view"] == last[seat][1], f"table {w.id}: seat {seat} sees another state"
    hold.set()
    return tasks


async def run_faults(srv: ServerProcess, games: int, seed: int) -> tuple[int, list[Watch]]:
    rng = Rng(seed)
    watches: list[Watch] = []
    kills = 0
    running: list[asyncio.Task[None]] = []
    def lived_through() -> int:
        return sum(w.kills > 0 for w in watches)

    for _cycle in range(MAX_CYCLES):
        # go on until the games are played and half of them lived through a kill: how
        # many a kill catches mid-game depends on how fast games go, not on the store
        if kills and sum(w.over for w in watches) >= games and lived_through() >= games // 2:
            break
        if srv.proc is None:
            srv.start()
            for w in watches:
                if not w.over:
                    running += await resume_check(srv, w, rng)
        while (len(watches) < games or lived_through() < games // 2) \
                and sum(not w.over for w in watches) < CONCURRENT:
            w = create_table(srv, len(watches), rng)
            watches.append(w)
            running += [asyncio.create_task(client(srv, w, s, Rng(rng.below(2**32)))) for s in w.seats]
        await asyncio.sleep(0.8 + rng.below(1600) / 1000)
        for w in watches:
            w.kills += not w.over
        srv.kill()
        kills += 1
        await asyncio.wait_for(asyncio.gather(*running), 60)
        running = []
        rows = stored(srv.db)
        for w in watches:
            check_after_kill(w, rows)
    # Let every game finish, then stop for good.
    srv.start()
    for w in watches:
        if not w.over:
            running += await resume_check(srv, w, rng)
    await asyncio.wait_for(asyncio.gather(*running), FINISH_TIMEOUT)
    srv.stop()
    return kills, watches


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_nothing(tmp_path: Path, figures: dict[str, Any]) -> None:
    target = scaled(24, 300)  # a few kills in the suite; the soak's 300 games see dozens
    with ServerProcess(tmp_path / "faults.db") as srv:
        kills, watches = asyncio.run(run_faults(srv, target, 20261130))
        rows = stored(srv.db)
    assert len(rows) == len(watches) >= target
    for w in watches:
        game, config, seed, acts = rows[w.id]
        final = replay_record(GameRecord(game, config, seed, acts))
        assert final.is_over(), f"table {w.id} did not finish"
        assert w.final, f"table {w.id}: no client saw the end"
        for seat, view in w.final.items():
            assert as_json(final.view(seat)) == view, f"table {w.id}: the replay ends elsewhere"
        assert not [e for e in w.errors if e["code"] not in ("stale_state", "not_your_turn")], w.errors
    through = sum(w.kills > 0 for w in watches)
    assert kills >= 3 and through >= target // 2
    figures["server_faults"] = {
        "sigkills": kills, "games": len(watches), "games that lived through a kill": through,
        "most kills one game lived through": max(w.kills for w in watches),
        "records replayed to the final view": len(watches),
        "actions stored": sum(len(r[3]) for r in rows.values()), "actions lost": 0}


def gloom_serve(db: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "gloomtable.cli.main", "serve", "--host", "127.0.0.1",
         "--port", str(free_port()), "--db", str(db)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def refuses_to_start(db: Path, wait: float = 20.0) -> str:
    """Start ``gloom serve`` on ``db``; it must exit by itself with a clear message."""
    proc = gloom_serve(db)
    try:
        out, _ = proc.communicate(timeout=wait)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate(timeout=10)
        raise AssertionError(f"the server started on an unusable database {db}") from None
    assert proc.returncode != 0
    assert "Traceback" not in out and str(db) in out, out[-2000:]
    return out


@contextlib.contextmanager
def read_only(path: Path) -> Any:
    """Make ``path`` unwritable even for root (chattr +i), and writable again after."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        try:
            yield
        finally:
            path.chmod(0o644)
        return
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("cannot make a file read-only here (root, and no chattr +i)")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def existing_db(tmp_path: Path) -> Path:
    from gloomtable.server.store import open_store

    db = tmp_path / "tables.db"
    open_store(db).close()
    return db


@pytest.mark.slow
def test_read_only_database_is_a_clear_error_at_start(tmp_path: Path) -> None:
    """Not a half-working server that fails at the first write: it exits at once, naming the file."""
    db = existing_db(tmp_path)
    with read_only(db):
        out = refuses_to_start(db)
    assert "read" in out.lower()


@pytest.mark.slow
def test_locked_database_is_a_clear_error_at_start(tmp_path: Path) -> None:
    db = existing_db(tmp_path)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        out = refuses_to_start(db)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert "lock" in out.lower()


@pytest.mark.slow
def test_database_that_is_not_sqlite_is_a_clear_error_at_start(tmp_path: Path) -> None:
    """A file that is not a database at all is refused at start, naming the file."""
    db = tmp_path / "not-a-db.db"
    db.write_bytes(b"this is not a database\n" * 100)
    proc = gloom_serve(db)
    try:
        out, _ = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate(timeout=10)
        raise AssertionError("the server started on a file that is not a database") from None
    assert proc.returncode != 0 and "Traceback" not in out and str(db) in out, out[-2000:]


@pytest.mark.slow
def test_killed_mid_write_then_restarted_twice_still_serves(tmp_path: Path) -> None:
    """Two kills in a row with no traffic between them: the store opens every time."""
    with ServerProcess(tmp_path / "twice.db") as srv:
        r = httpx.post(srv.url + "/api/tables", json={"seats": [{"kind": "bot"}] * 2,
                                                      "bot_delay_ms": BOT_DELAY_MS, "seed": 3}, timeout=30)
        assert r.status_code == 201
        for _ in range(2):
            time.sleep(0.2)
            srv.kill()
            srv.start()
        assert httpx.get(srv.url + f"/api/tables/{r.json()['id']}", timeout=30).status_code == 200
