"""Rate counters shared by several ``gloom serve`` processes through Redis
(``--rate-storage async+redis://...``, docs/security.md and docs/deploy.md), and what
a server does when that Redis stalls: it counts in its own memory for a while, never
waits on Redis longer than ``--rate-storage-timeout``, and says so once in its log.

Against the real Redis at 127.0.0.1:6379 (skipped when none answers, failed under CI:
tests/redis_support.py); each test counts under its own key prefix.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import threading
import time
from functools import partial
from pathlib import Path

import httpx
import pytest

from gloomtable.server.limits import RETRY_SHARED, ServerLimits, check_rate_storage, flag
from gloomtable.server.testing import ServerProcess, free_port
from redis_support import REDIS_URL, StallingProxy, fresh_prefix, require_redis
from server_support import open_ws, post_table, read_until

SEATS = [{"kind": "open"}, {"kind": "open"}]


create = partial(post_table, seats=SEATS, timeout=30)
"""Ask one process for a table; its answer, whatever it is."""


def shared(url: str, rate: str = "3/hour") -> list[str]:
    """Flags for a server counting table creations (a few per hour, so no window boundary
    falls inside a test) in the Redis at ``url``, under a prefix of this test alone."""
    return ["--rate-storage", url, "--rate-storage-prefix", fresh_prefix(), "--create-rate", rate]


def test_rate_storage_is_memory_or_an_asyncio_storage() -> None:
    assert ServerLimits().rate_storage == "memory://"
    assert ServerLimits(rate_storage="async+redis://db.internal:6379/2").rate_storage.startswith("async+")
    for blocking in ("redis://127.0.0.1:6379", "memcached://x:11211", "async+memory://", "127.0.0.1:6379"):
        with pytest.raises(ValueError, match=r"^--rate-storage .* is neither memory:// nor an asyncio"):
            ServerLimits(rate_storage=blocking)


def test_gloom_serve_help_shows_every_limit_flag() -> None:
    """Each limit's help is printed as rich markup by typer: text in square brackets there
    is a tag, and a stray closing one made ``gloom serve --help`` crash."""
    done = subprocess.run([sys.executable, "-m", "gloomtable.cli.main", "serve", "--help"],
                          capture_output=True, text=True, timeout=60, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr[-2000:]
    for f in dataclasses.fields(ServerLimits):
        assert f"--{flag(f.name)}" in done.stdout


def test_an_unreachable_or_unknown_rate_storage_is_one_line_at_start(tmp_path: Path) -> None:
    nobody = f"async+redis://:secret@127.0.0.1:{free_port()}"
    with pytest.raises(ValueError, match=r"^--rate-storage async\+redis://:\*\*\*@127\.0\.0\.1:\d+: it does "
                       r"not answer") as err:
        check_rate_storage(ServerLimits(rate_storage=nobody))
    assert "secret" not in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(ValueError, match=r"^--rate-storage async\+nosuch://x: unknown storage scheme"):
        check_rate_storage(ServerLimits(rate_storage="async+nosuch://x"))
    # and the server says it and exits, instead of starting without the counters it was told to share
    srv = ServerProcess(tmp_path / "t.db", args=["--rate-storage", nobody])
    with pytest.raises(RuntimeError, match="exited with 2"):
        srv.start()
    lines = [line for line in srv.log_path.read_text().splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and lines[0].startswith("error: --rate-storage async+redis://:***@"), lines


@pytest.mark.slow
def test_two_processes_spend_one_creation_rate_through_redis(tmp_path: Path) -> None:
    require_redis()
    args = shared(REDIS_URL)  # one prefix: the two processes are one site
    with ServerProcess(tmp_path / "a.db", args=args) as a, ServerProcess(tmp_path / "b.db", args=args) as b:
        assert [create(srv).status_code for srv in (a, b, a)] == [201, 201, 201]
        for srv in (b, a):  # each process alone has let through fewer than 3
            r = create(srv)
            assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text
        assert "at most 3/hour" in r.json()["message"]


@pytest.mark.slow
def test_a_stalled_redis_costs_one_bounded_wait_then_this_process_counts_alone(tmp_path: Path) -> None:
    require_redis()
    timeout = 2.0
    with StallingProxy() as redis, ServerProcess(tmp_path / "t.db", args=[
            *shared(redis.url), "--rate-storage-timeout", str(timeout)]) as srv:
        assert create(srv).status_code == 201  # counted in Redis: 1 of 3
        redis.stall()
        answer: dict[str, float | int] = {}

        def stalled_create() -> None:
            t0 = time.monotonic()
            answer["status"] = create(srv).status_code
            answer["seconds"] = time.monotonic() - t0

        waiting = threading.Thread(target=stalled_create)
        waiting.start()
        time.sleep(0.3)
        t0 = time.monotonic()  # while that request waits on Redis, the server answers others
        assert httpx.get(srv.url + "/api/games", timeout=30).status_code == 200
        assert time.monotonic() - t0 < timeout / 2
        waiting.join(30)
        # the wait is bounded, and then the request is counted here (fail over, not fail open)
        assert answer["status"] == 201 and timeout * 0.9 < answer["seconds"] < timeout + 3, answer
        quick = []
        for _ in range(2):
            t0 = time.monotonic()
            assert create(srv).status_code == 201
            quick.append(time.monotonic() - t0)
        assert max(quick) < timeout / 2, quick  # no more waiting on the stalled Redis
        refused = create(srv)  # 3 counted in this process's memory since the stall
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"

        redis.passing.set()  # Redis answers again: after the pause, counting is back there
        time.sleep(RETRY_SHARED + 0.5)
        # Redis holds 2 of 3: the first, and the stalled one, which reached it late (a slow
        # Redis still does what it was asked); this process's memory would refuse at once
        assert [create(srv).status_code for _ in range(2)] == [201, 429]
        log = srv.log_path.read_text()
    assert log.count("rate counters:") == 2, log  # one line when it failed, one when it came back
    assert "failed (no answer within 2 s)" in log and "answers again" in log


@pytest.mark.slow
def test_a_redis_gone_away_costs_one_short_wait_then_the_process_counts_alone(tmp_path: Path) -> None:
    require_redis()
    with StallingProxy() as redis, ServerProcess(tmp_path / "t.db", args=shared(redis.url)) as srv:
        assert create(srv).status_code == 201  # counted in Redis
        redis.go_away()
        took = []
        for _ in range(3):
            t0 = time.monotonic()
            assert create(srv).status_code == 201  # counted in this process's memory: 3 of 3
            took.append(time.monotonic() - t0)
        assert max(took) < 2.0, took  # the first waits --rate-storage-timeout (0.25 s) at most
        refused = create(srv)
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        assert httpx.get(srv.url + "/api/games", timeout=30).status_code == 200
        log = srv.log_path.read_text()
    assert log.count("rate counters:") == 1 and "failed (" in log, log


@pytest.mark.slow
def test_a_message_waits_on_redis_once_not_once_per_rate(tmp_path: Path) -> None:
    """A spectator's message is counted against three rates (its socket, its address,
    spectators of its address): with Redis a round trip away, they are asked at once, so
    a ping waits about one round trip, not three."""
    require_redis()
    delay = 0.15  # each way: a round trip of 0.3 s
    with StallingProxy(delay=delay) as redis, ServerProcess(tmp_path / "t.db", args=[
            *shared(redis.url), "--rate-storage-timeout", "5"]) as srv:
        table = create(srv).json()
        with open_ws(srv, table) as conn:
            read_until(conn, lambda m: m["type"] == "state")
            took = []
            for _ in range(5):  # the first ones open the client's connections to Redis
                t0 = time.monotonic()
                conn.send('{"type": "ping"}')
                read_until(conn, lambda m: m["type"] == "pong", timeout=30)
                took.append(time.monotonic() - t0)
        steady = took[2:]
        assert min(steady) >= 2 * delay * 0.9, took  # it did wait on the far Redis
        assert max(steady) < 2 * (2 * delay), took  # once, not three times (0.9 s)
