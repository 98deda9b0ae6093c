"""Every attack of issues 16 and 29 at once against a fresh ``gloom serve`` on loopback,
while a person plays a game by websocket; prints what each attack got and the
person's move round trip (p50/p99) and the server's RSS before and after.

    PYTHONPATH=src python scripts/attack.py [--seconds 20] [--port PORT]

``--port``: attack a server already running on 127.0.0.1:PORT instead of a fresh one
(its RSS is not read then). Issue 29's rows are named ``29/N``; its row 1 (TOML decks)
and row 6 (a stalled database link) are not here: the first has its own test and
worker figures, the second needs a PostgreSQL behind a stalling proxy.

Bounded: loopback only, every attack stops after ``--seconds`` and a fixed count.
The server runs with the defaults of a public server. Attackers send from
127.0.0.2..127.0.0.9 (each its own "client IP"); the person plays from 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import socket
import statistics
import sys
import tempfile
import time
import types
from collections import Counter
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from gloomtable.server.testing import ServerProcess

RESULTS: dict[str, str] = {}
OPTIONS = {"bot_level": "hard", "creators": 8}
ONLY: set[str] = set()
"""``--only 7s,12``: a subset of the attacks (to see which one costs what)."""


def rss_mb(srv: ServerProcess) -> float:
    if srv.proc is None:  # --port: a server this script did not start
        return float("nan")
    text = Path(f"/proc/{srv.proc.pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+)", text).group(1)) / 1024  # type: ignore[union-attr]


def client(ip: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(local_address=ip), timeout=30)


def ws_sock(srv: ServerProcess, ip: str) -> socket.socket:
    s = socket.socket()
    s.bind((ip, 0))
    s.connect(("127.0.0.1", srv.port))
    return s


def tally(codes: list[Any]) -> str:
    return ", ".join(f"{k} x{v}" for k, v in Counter(codes).most_common())


async def person(srv: ServerProcess, stop: asyncio.Event, rtts: list[float]) -> None:
    """A person playing both seats of a two-person table (as at one screen): a move, then
    the state that confirms it; the round trip. No bot in the way, so every wait is the server's."""
    async with client("127.0.0.1") as c:
        seats = [{"kind": "person", "name": "Pat"}, {"kind": "person", "name": "Sam"}]
        t = (await c.post(srv.url + "/api/tables", json={
            "game": "creatures", "seats": seats, "config": {"rounds": 100}})).json()
    socks = []
    for invite in t["invites"]:
        ws = await connect(f"{srv.ws_url}/ws/{t['id']}", max_size=2**22)
        await ws.send(json.dumps({"type": "hello", "token": invite["token"]}))
        socks.append(ws)

    async def latest(ws: Any, after: int) -> dict[str, Any]:
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if msg["type"] == "state" and msg["state_id"] > after:
                return msg  # type: ignore[no-any-return]

    try:
        states = [await latest(ws, -1) for ws in socks]
        while not stop.is_set():
            seat = states[0]["deciding"]
            if seat is None:
                return
            mine = states[seat]
            if not mine["choices"] or mine["state_id"] != states[1 - seat]["state_id"]:
                states[seat] = await latest(socks[seat], mine["state_id"])
                continue
            sid = mine["state_id"]
            sent = time.perf_counter()
            await socks[seat].send(json.dumps({"type": "act", "action": mine["choices"][0]["action"],
                                               "state_id": sid}))
            states[seat] = await latest(socks[seat], sid)
            rtts.append((time.perf_counter() - sent) * 1000)
            states[1 - seat] = await latest(socks[1 - seat], sid)
            await asyncio.sleep(0.1)  # a person's pace
    finally:
        for ws in socks:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 2)


async def until(stop: asyncio.Event, count: int, one: Callable[[int], Awaitable[Any]]) -> list[Any]:
    out = []
    for i in range(count):
        if stop.is_set():
            break
        try:
            out.append(await one(i))
        except Exception as exc:
            out.append(type(exc).__name__)
    return out


def heavy_deck(size: int = 500_000) -> str:
    """The classic set's cards under new ids, again and again, to ``size`` bytes."""
    text = (resources.files("gloomtable.games.gloom.sets") / "classic.toml").read_text(encoding="utf-8")
    head, _, body = text.partition("[[")
    parts = [head]
    while sum(map(len, parts)) < size:
        parts.append(re.sub(r'(id|family) = "([^"]+)"', rf'\1 = "\2-{len(parts)}"', "[[" + body))
    return "".join(parts)


async def attacks(srv: ServerProcess, stop: asyncio.Event) -> None:
    url = srv.url
    two = [{"kind": "person"}, {"kind": "person"}]

    async def row1() -> None:
        codes: list[Any] = []
        async with client("127.0.0.2") as c:
            for _ in range(30):
                if stop.is_set():
                    break
                r = await c.post(url + "/api/tables",
                                 json={"seats": two, "config": {"sets": ["classic"] * 700}})
                codes.append(r.status_code)
                RESULTS["1 sets x700"] = tally(codes)

    async def row2_3_9() -> None:
        async with client("127.0.0.3") as c:
            t = (await c.post(url + "/api/tables", json={"seats": two})).json()
            r = await c.post(f"{url}/api/tables/{t['id']}/join", json={"name": "Eve"})
            RESULTS["2 join unlisted"] = f"{r.status_code} {r.json().get('code')}"
            r = await c.post(url + "/api/tables", json={"seats": two, "seed": 7})
            RESULTS["3 chosen seed"] = f"{r.status_code} {r.json().get('code', 'created')}"
            r = await c.post(f"{url}/api/tables/{t['id']}/again", json={"token": "\u00e9\u00e9"})
            RESULTS["9 non-ASCII token"] = f"{r.status_code} {r.json().get('code')}"

    async def row4() -> None:
        answers = []
        for _ in range(20):
            if stop.is_set():
                break
            reader, writer = await asyncio.open_connection("127.0.0.1", srv.port, local_addr=("127.0.0.4", 0))
            writer.write(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 300000000\r\n\r\n" + b"x" * 65536)
            with contextlib.suppress(Exception):
                await writer.drain()
                line = await asyncio.wait_for(reader.readline(), 10)
                answers.append(line.split(b" ")[1].decode() if line else "closed")
            writer.close()
            RESULTS["4 300 MB bodies"] = tally(answers)
        async with client("127.0.0.10") as c:
            r = await c.post(url + "/api/tables", content=json.dumps({"seats": two}),
                             headers={"Content-Type": "text/plain"})
        RESULTS["10 text/plain post"] = f"{r.status_code} {r.json().get('code')}"

    async def row5_6_8() -> None:
        codes: list[Any] = []

        async def creator(c: httpx.AsyncClient) -> None:
            while not stop.is_set() and len(codes) < 2100:
                try:
                    r = await c.post(url + "/api/tables", json={
                        "seats": [{"kind": "bot", "level": OPTIONS["bot_level"]}] * 5, "bot_delay_ms": 0})
                    codes.append(r.status_code)
                except httpx.HTTPError as exc:
                    codes.append(type(exc).__name__)
                RESULTS["5/6/8 2100 creations, hard bots"] = tally(codes)

        async with client("127.0.0.5") as c:
            await asyncio.gather(*(creator(c) for _ in range(int(OPTIONS["creators"]))))

    async def row7_spectators() -> None:
        async with client("127.0.0.6") as c:
            t = (await c.post(url + "/api/tables", json={"seats": two})).json()
        answers: list[str] = []

        async def watcher(i: int) -> None:
            try:
                async with connect(f"{srv.ws_url}/ws/{t['id']}", sock=ws_sock(srv, "127.0.0.6"),
                                   max_size=2**22) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": None}))
                    got = 0
                    while not stop.is_set() and got < 400:
                        await ws.send('{"type": "sync"}')
                        msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
                        got += 1
                        if msg["type"] == "error":
                            answers.append(msg["code"])
                        elif msg.get("resync"):
                            answers.append("sync")
                        RESULTS["7 200 spectators syncing"] = tally(answers)
                        await asyncio.sleep(0.05)
            except Exception as exc:
                answers.append(getattr(getattr(exc, "rcvd", None), "code", type(exc).__name__))

        await asyncio.gather(*(watcher(i) for i in range(200)))
        RESULTS["7 200 spectators syncing"] = tally(answers)

    async def row7_token_sockets() -> None:
        async with client("127.0.0.7") as c:
            t = (await c.post(url + "/api/tables", json={"seats": two})).json()
        token = t["invites"][0]["token"]
        answers: list[Any] = []
        held = []

        async def one() -> None:
            try:
                ws = await asyncio.wait_for(
                    connect(f"{srv.ws_url}/ws/{t['id']}", sock=ws_sock(srv, "127.0.0.7"), max_queue=1), 10)
                await ws.send(json.dumps({"type": "hello", "token": token}))
                held.append(ws)  # and never read: the non-reader
            except Exception as exc:
                answers.append(type(exc).__name__)

        for _ in range(12):  # 600 sockets, 50 at a time
            if stop.is_set():
                break
            await asyncio.gather(*(one() for _ in range(50)))
        await asyncio.sleep(2)
        for ws in held:
            answers.append("open" if ws.close_code is None else ws.close_code)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 1)
            RESULTS["7 600 sockets, one token"] = tally(answers)

    async def row10_11() -> None:
        async with client("127.0.0.8") as c:
            r = await c.get(url + "/api/games", headers={"Host": "attacker.example"})
            RESULTS["10 foreign Host"] = str(r.status_code)
            t = (await c.post(url + "/api/tables", json={"seats": two})).json()
        try:
            async with connect(f"{srv.ws_url}/ws/{t['id']}?token={t['invites'][0]['token']}",
                               sock=ws_sock(srv, "127.0.0.8")) as ws:
                RESULTS["11 token in URL"] = json.loads(await ws.recv())["code"]
        except Exception as exc:
            RESULTS["11 token in URL"] = type(exc).__name__

    async def row12() -> None:
        closed: list[float] = []
        opened: list[int] = []

        async def slow() -> None:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", srv.port,
                                                               local_addr=("127.0.0.9", 0))
            except OSError:
                return
            opened.append(1)
            started = time.monotonic()
            writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            while not stop.is_set():
                writer.write(b"X")  # one byte of a header, every half second
                try:
                    data = await asyncio.wait_for(reader.read(1024), 0.5)
                except TimeoutError:
                    continue
                except OSError:
                    data = b""
                if not data:
                    closed.append(time.monotonic() - started)
                    break
            writer.close()
            RESULTS["12 300 slow-header sockets"] = (f"{len(closed)} of {len(opened)} closed by the server, "
                                                     f"after {max(closed, default=0):.1f} s at most")

        await asyncio.gather(*(slow() for _ in range(300)))

    async def row13_long_numbers() -> None:
        """Integers of 5,000 digits (more than Python converts) in bodies and messages."""
        long = "9" * 5000
        answers: list[Any] = []
        async with client("127.0.0.11") as c:
            t = (await c.post(url + "/api/tables", json={"seats": two})).json()
            for _ in range(20):
                if stop.is_set():
                    break
                r = await c.post(url + "/api/tables", content='{"seats": [], "seed": ' + long + "}",
                                 headers={"Content-Type": "application/json"})
                answers.append(f"{r.status_code} {r.json().get('code')}")
        try:
            async with connect(f"{srv.ws_url}/ws/{t['id']}", sock=ws_sock(srv, "127.0.0.11")) as ws:
                await ws.send(json.dumps({"type": "hello", "token": None}))
                for _ in range(30):
                    if stop.is_set():
                        break
                    await ws.send('{"type": "act", "action": ' + long + "}")
                    while (msg := json.loads(await asyncio.wait_for(ws.recv(), 5)))["type"] != "error":
                        pass
                    answers.append(msg["code"])
                    await asyncio.sleep(0.1)
        except Exception as exc:
            answers.append(type(exc).__name__)
        RESULTS["13 5,000-digit numbers"] = tally(answers)

    async def row14_heavy() -> None:
        """Decks of 500 KB sent to the gallery, back to back (each some 0.3 s to read)."""
        deck = heavy_deck()
        answers: list[Any] = []
        async with client("127.0.0.12") as c:
            for _ in range(60):
                if stop.is_set():
                    break
                try:
                    r = await c.post(url + "/api/gallery", content=deck, timeout=30)
                    answers.append(r.status_code)
                except httpx.HTTPError as exc:
                    answers.append(type(exc).__name__)
                RESULTS["14 500 KB decks to the gallery"] = tally(answers)

    async def i29_tables() -> None:
        """Issue 29, rows 2, 3 and 9: one client makes tables and sits at each; a table
        that plays itself is played again; a seat takes a bot's name."""
        codes: list[Any] = []
        async with client("127.0.0.13") as c:
            made = []
            for _ in range(30):
                if stop.is_set():
                    break
                r = await c.post(url + "/api/tables", json={"seats": two, "listed": False})
                codes.append(r.status_code)
                if r.status_code == 201:
                    made.append(r.json())
                RESULTS["29/2 tables from one client"] = tally(codes)
            if made:
                t = made[0]
                async with connect(f"{srv.ws_url}/ws/{t['id']}", max_size=2**22) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": t["invites"][0]["token"]}))
                    await ws.send(json.dumps({"type": "name", "name": "Bot 3 (hard)"}))
                    said = []
                    for _ in range(20):
                        m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                        said.append(m["type"])
                        if m["type"] == "error":
                            RESULTS["29/9 a seat named as a bot"] = m["code"]
                            break
                    # row 8: acts in a state that is not the table's; count the states they bring
                    for _ in range(30):
                        await ws.send(json.dumps({"type": "act", "action": 0, "state_id": 999}))
                    await ws.send(json.dumps({"type": "ping"}))
                    kinds: list[str] = []
                    while not kinds or kinds[-1] != "pong":
                        kinds.append(json.loads(await asyncio.wait_for(ws.recv(), 10))["type"])
                    RESULTS["29/8 30 refused acts"] = (f"{kinds.count('error')} errors, "
                                                       f"{kinds.count('state')} states")
        async with client("127.0.0.14") as c:
            r = await c.post(url + "/api/tables", json={"seats": [{"kind": "person"}, {"kind": "bot"}],
                                                        "game": "creatures",
                                                        "replace_absent": True, "absent_after": 0})
            t = r.json()
            RESULTS["29/3 again on a self-playing table"] = "its game did not end in time"
            deadline = time.monotonic() + 35  # a bot-only game at 250 ms a move (past --seconds 30)
            while time.monotonic() < deadline:
                if (await c.get(f"{url}/api/tables/{t['id']}")).json().get("over"):
                    break
                await asyncio.sleep(0.5)
            r = await c.post(f"{url}/api/tables/{t['id']}/again", json={"token": t["invites"][0]["token"]})
            RESULTS["29/3 again on a self-playing table"] = f"{r.status_code} {r.json().get('code', 'made')}"

    async def i29_listing() -> None:
        """Issue 29, rows 4, 5 and 7: four clients list the lobby; bad offsets and ids; origins."""
        async def lister(ip: str) -> list[Any]:
            codes: list[Any] = []
            async with client(ip) as c:
                while not stop.is_set() and len(codes) < 2000:
                    codes.append((await c.get(url + "/api/tables?limit=50")).status_code)
            return codes

        async def odd() -> None:
            codes: list[Any] = []
            async with client("127.0.0.19") as c:
                for path in ("/api/tables?offset=9223372036854775808", "/api/tables/a%00b",
                             "/api/tables/a%00b/cards", "/api/tables/a%00b/chronicle") * 10:
                    codes.append((await c.get(url + path)).status_code)
            RESULTS["29/5 huge offsets, %00 ids"] = tally(codes)
            answers = []
            for origin in ("http://127.0.0.1:9999", "https://localhost:1"):
                try:
                    async with connect(f"{srv.ws_url}/ws/none", origin=origin):  # type: ignore[arg-type]
                        answers.append("accepted")
                except Exception as exc:
                    status = getattr(getattr(exc, "response", None), "status_code", None)
                    answers.append(str(status or type(exc).__name__))
            RESULTS["29/7 other ports and schemes"] = tally(answers)

        got = await asyncio.gather(*(lister(f"127.0.0.{15 + i}") for i in range(4)), odd())
        RESULTS["29/4 four clients listing"] = tally([c for codes in got[:4] for c in codes])

    rows = {"1": row1, "2": row2_3_9, "4": row4, "5": row5_6_8, "7s": row7_spectators,
            "7t": row7_token_sockets, "10": row10_11, "12": row12, "13": row13_long_numbers,
            "14": row14_heavy, "29t": i29_tables, "29l": i29_listing}
    await asyncio.gather(*(f() for k, f in rows.items() if not ONLY or k in ONLY))


def percentiles(rtts: list[float]) -> str:
    if not rtts:
        return "no moves"
    rtts = sorted(rtts)
    p99 = rtts[min(len(rtts) - 1, int(len(rtts) * 0.99))]
    return f"{len(rtts)} moves, round trip p50 {statistics.median(rtts):.1f} ms, p99 {p99:.1f} ms"


async def run_attacks(port: int, seconds: float) -> None:
    """The attacker process: every attack against the server on ``port`` for ``seconds``,
    then RESULTS as one JSON line."""
    srv = types.SimpleNamespace(url=f"http://127.0.0.1:{port}", ws_url=f"ws://127.0.0.1:{port}", port=port)
    stop = asyncio.Event()
    attack = asyncio.create_task(attacks(srv, stop))  # type: ignore[arg-type]
    await asyncio.sleep(seconds)
    stop.set()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(attack, 15)
    print(json.dumps(RESULTS), flush=True)


@contextlib.asynccontextmanager
async def _server(port: int) -> Any:
    """The server under attack: ``--port``'s (started by someone else), or a fresh one."""
    if port:
        yield types.SimpleNamespace(url=f"http://127.0.0.1:{port}", ws_url=f"ws://127.0.0.1:{port}",
                                    port=port, proc=None)
        return
    with tempfile.TemporaryDirectory() as tmp, \
            ServerProcess(Path(tmp) / "attack.db", shared_loopback=False, allow_fixed_deals=False,
                          fast_bots=False) as srv:
        yield srv


async def main(seconds: float, argv: list[str], port: int = 0) -> int:
    """First the person plays alone (the baseline, on this machine as loaded now), then
    with every attack running; both in one run, side by side. The attackers run in
    their own process at the lowest CPU priority: on the internet they would use
    their own machines, not the server's CPU."""
    async with _server(port) as srv:
        before = rss_mb(srv)
        quiet: list[float] = []
        stop = asyncio.Event()
        player = asyncio.create_task(person(srv, stop, quiet))
        await asyncio.sleep(seconds / 2)
        stop.set()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(player, 5)
        stop = asyncio.Event()
        rtts: list[float] = []
        player = asyncio.create_task(person(srv, stop, rtts))
        await asyncio.sleep(1)
        attackers = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--attacker", str(srv.port), "--seconds", str(seconds), *argv,
            stdout=asyncio.subprocess.PIPE, preexec_fn=lambda: os.nice(19))
        peak = before
        for _ in range(int(seconds)):
            await asyncio.sleep(1)
            peak = max(peak, rss_mb(srv)) if srv.proc is not None else peak
        out, _ = await asyncio.wait_for(attackers.communicate(), 60)
        stop.set()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(player, 5)
        after = rss_mb(srv)
    lines = out.decode().strip().splitlines()
    RESULTS.update(json.loads(lines[-1]) if lines else {})
    width = max((len(k) for k in RESULTS), default=6) + 2
    print(f"{'attack':<{width}}answer")
    for k in sorted(RESULTS, key=lambda k: (k.startswith("29/"), int(k.split()[0].split("/")[-1]))):
        print(f"{k:<{width}}{RESULTS[k]}")
    print(f"\nthe person alone:         {percentiles(quiet)}")
    print(f"the person under attack:  {percentiles(rtts)}")
    print(f"server RSS: {before:.0f} MB before, {peak:.0f} MB at most, {after:.0f} MB after")
    p99 = sorted(rtts)[min(len(rtts) - 1, int(len(rtts) * 0.99))] if rtts else float("inf")
    ok = p99 < 100 and not peak >= 300  # (RSS unknown with --port)
    print("targets under attack (p99 < 100 ms, RSS < 300 MB):", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--attacker", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--only", default="",
                        help="attacks to run (1,2,4,5,7s,7t,10,12,13,14,29t,29l); default all")
    parser.add_argument("--port", type=int, default=0,
                        help="attack the server already listening on 127.0.0.1:PORT (its RSS is not read)")
    parser.add_argument("--bot-level", default="hard", help="row 5/8: the bots of the created tables")
    parser.add_argument("--creators", type=int, default=8, help="row 5: requests in flight at once (1..32)")
    args = parser.parse_args()
    OPTIONS.update(bot_level=args.bot_level, creators=min(max(args.creators, 1), 32))
    ONLY.update(x for x in args.only.split(",") if x)
    seconds = min(max(args.seconds, 5.0), 120.0)
    if args.attacker:
        asyncio.run(run_attacks(args.attacker, seconds))
    else:
        passed = ["--only", args.only, "--bot-level", args.bot_level, "--creators", str(args.creators)]
        sys.exit(asyncio.run(main(seconds, passed, args.port)))
