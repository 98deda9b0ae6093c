"""A busy PostgreSQL process keeps every lease it holds (issue 35): leases hold
through the process's heartbeat, which a thread of its own stores, so a process
whose event loop is loaded with bot tables and then held still for longer than a
lease's term loses none of them to another process, and its moves go on.

Before, every lease was renewed from the event loop: one process with 50 tables
demoted itself under load ("lease lost; another process leads it now") and made
no move for seconds while another took its tables (docs/reliability.md)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from cluster_support import member_id, wait_for
from gloomtable.server.cluster import RENEW_EVERY
from gloomtable.server.store_postgres import split_url
from gloomtable.server.table import LEASE_TTL
from gloomtable.server.testing import ServerProcess
from pg_support import fresh_schema
from server_support import create_table

pytestmark = pytest.mark.slow  # two real server processes on PostgreSQL, and a held event loop

TABLES = 24
"""Bot tables on the loaded process, each moving every ``BOT_DELAY_MS`` (a game of
four random bots lasts 90 to 220 moves: 18 s or more, longer than the test needs)."""
BOT_DELAY_MS = 200
STALL = LEASE_TTL + RENEW_EVERY + 1.5
"""Seconds the loaded process's event loop is held: past the time the old lease
renewals (made on the loop) let another process take its tables."""
BOTS = [{"kind": "bot", "level": "random", "name": f"Bot {i}"} for i in range(4)]

HOLD_LOOP = ("import os, pathlib, runpy, signal, time\n"
             "def hold(*_):\n"
             "    t0 = time.monotonic()\n"
             "    time.sleep(float(os.environ['GLOOM_HOLD_LOOP']))\n"
             "    pathlib.Path(os.environ['GLOOM_HOLD_TIMES']).write_text(f'{t0} {time.monotonic()}')\n"
             "signal.signal(signal.SIGUSR1, hold)\n"
             "runpy.run_module('gloomtable.server', run_name='__main__', alter_sys=True)\n")
"""``python -m gloomtable.server`` whose main thread (the event loop's) sleeps on SIGUSR1:
the loop is held while every other thread of the process runs. When the hold ends it
writes when it began and ended (``time.monotonic``, one clock for every process of the
machine), so the test judges only what it read inside the hold, however late a loaded
machine delivered the signal or answered the test's own queries."""
SETTLE = 1.0
"""Seconds after the hold begins for the moves already sent to commit."""


class LoopHeldServer(ServerProcess):
    """A real server whose event loop the test can hold still (``hold``)."""

    def start(self) -> LoopHeldServer:
        self.hold_times = self.log_path.with_suffix(".hold")
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "GLOOM_HOLD_LOOP": str(STALL),
               "GLOOM_HOLD_TIMES": str(self.hold_times)}
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", HOLD_LOOP, "--host", "127.0.0.1", "--port", str(self.port),
                 "--db", self.db, *self.args], stdout=log, stderr=subprocess.STDOUT, env=env)
        self._wait_ready()
        return self

    def hold(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGUSR1)


def look(url: str) -> tuple[dict[str, str], dict[str, int], dict[str, float], set[str]]:
    """Lease holders, stored moves per table, each heartbeat's age (database clock) and
    the finished tables."""
    conninfo, schema = split_url(url)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f'SET search_path TO "{schema}"')
        leases = {t: h for t, h in conn.execute("SELECT table_id, holder FROM leases")}
        moves = {t: int(n) for t, n in conn.execute(
            "SELECT table_id, COUNT(*) FROM actions GROUP BY table_id")}
        ages = {h: float(a) for h, a in conn.execute(
            "SELECT holder, EXTRACT(EPOCH FROM clock_timestamp())::float8 - beat FROM heartbeats")}
        over = {t for (t,) in conn.execute("SELECT id FROM tables WHERE over=1")}
    return leases, moves, ages, over


def not_led_by(url: str, tables: list[str], me: str) -> dict[str, str | None]:
    """The unfinished tables of ``tables`` whose lease does not name ``me``, with what it names."""
    leases, _, _, over = look(url)
    return {t: leases.get(t) for t in tables if t not in over and leases.get(t) != me}


def test_a_loaded_process_whose_loop_is_held_keeps_every_lease(tmp_path: Path) -> None:
    with fresh_schema() as url:
        a = LoopHeldServer(url, log=tmp_path / "loaded.log")
        b = ServerProcess(url, log=tmp_path / "idle.log")
        with a:
            ids = [str(create_table(a, seats=BOTS, listed=False, bot_delay_ms=BOT_DELAY_MS)["id"])
                   for _ in range(TABLES)]
            with b:  # a live process that takes any lease whose holder stops beating
                me, other = member_id(a), member_id(b)
                assert me and other and me != other
                assert wait_for(lambda: all(look(url)[1].get(t, 0) >= 3 for t in ids), 60)
                over = look(url)[3]
                going = [t for t in ids if t not in over]
                assert len(going) >= TABLES // 2, f"{len(over)} of {TABLES} games ended already"
                assert not_led_by(url, going, me) == {}  # the process that made them leads them

                a.hold()
                seen: list[tuple[float, float, tuple[dict[str, str], dict[str, int], dict[str, float]]]] = []
                while not a.hold_times.exists():  # look while the loop is held, until it lets go
                    t0 = time.monotonic()
                    leases, moves, ages, _ = look(url)
                    seen.append((t0, time.monotonic(), (leases, moves, ages)))
                    time.sleep(0.2)
                began, ended = map(float, a.hold_times.read_text().split())
                assert ended - began >= STALL - 0.1
                inside = [found for t0, t1, found in seen if t0 >= began + SETTLE and t1 <= ended]
                assert len(inside) >= 3, f"only {len(inside)} looks inside the hold: the machine is too slow"
                during = inside[-1][1]
                for leases, moves, ages in inside:  # the loop is held: yet it beats, and keeps every lease
                    assert {t: leases.get(t) for t in going if leases.get(t) != me} == {}
                    assert ages[me] < LEASE_TTL / 2, ages[me]
                    assert moves == during, "the event loop was not held: moves were stored meanwhile"

                # after the hold, every table is still this process's and its bots move on
                assert wait_for(lambda: all(t in look(url)[3] or look(url)[1].get(t, 0) > during.get(t, 0)
                                            for t in going), 30)
                assert not_led_by(url, going, me) == {}
    loaded, idle = (tmp_path / "loaded.log").read_text(), (tmp_path / "idle.log").read_text()
    assert "lease lost" not in loaded, loaded[-3000:]
    assert not any(f"table {t}: {other} leads it now" in idle for t in ids), idle[-3000:]
    assert "Traceback" not in loaded + idle, (loaded + idle)[-3000:]
