"""Issue 16, row 8: a person's move never waits behind bot searches. Alone in its
module, so the other security tests' servers (and their bot tables) are stopped
while it measures."""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path

import httpx
import pytest

from gloomtable.server.testing import ServerProcess
from server_support import create_table, next_of, open_ws


def person_round_trips(server: ServerProcess, moves: int) -> list[float]:
    """Two people at one table play ``moves`` first choices; each act's round trip."""
    t = create_table(server, bot_delay_ms=0)
    with contextlib.ExitStack() as stack:
        socks = [stack.enter_context(open_ws(server, t["id"], inv["token"])) for inv in t["invites"]]
        states = [next_of(s, "state") for s in socks]
        out = []
        for _ in range(moves):
            seat = states[0]["deciding"]
            if seat is None:
                break
            msg = states[seat]
            t0 = time.monotonic()
            socks[seat].send(json.dumps({"type": "act", "action": msg["choices"][0]["action"],
                                         "state_id": msg["state_id"]}))
            want = msg["state_id"] + 1
            for i, s in enumerate(socks):
                while states[i]["state_id"] < want:
                    states[i] = next_of(s, "state")
            out.append(time.monotonic() - t0)
        return out


def moves_made(srv: ServerProcess, tables: list[str]) -> int:
    return sum(int(httpx.get(f"{srv.url}/api/tables/{t}", timeout=20).json()["state_id"]) for t in tables)


@pytest.mark.slow
def test_row8_a_persons_move_never_waits_behind_bot_searches(tmp_path: Path) -> None:
    """The issue's attack, smaller: bot-only tables of five hard bots with no delay
    (this server allows that, to load the bots' pool as hard as it can be)."""
    with ServerProcess(tmp_path / "bots.db", args=["--bot-workers", "1"]) as srv:
        quiet = sorted(person_round_trips(srv, 20))
        bots = [create_table(srv, seats=[{"kind": "bot", "level": "hard"}] * 5, bot_delay_ms=0)["id"]
                for _ in range(12)]
        time.sleep(1.0)
        before = moves_made(srv, bots)
        loaded = sorted(person_round_trips(srv, 40))
        busy = moves_made(srv, bots) - before
    p50, p90 = loaded[len(loaded) // 2], loaded[int(len(loaded) * 0.9)]
    print(f"person round trip: quiet p50 {quiet[len(quiet) // 2] * 1000:.1f} ms; "
          f"with 12 hard-bot tables p50 {p50 * 1000:.1f} ms, p90 {p90 * 1000:.1f} ms; "
          f"bot moves meanwhile {busy}")
    assert busy > 0  # the bots do play meanwhile
    # before (bots in asyncio's default pool: six threads here): p50 230 ms, p90 730 ms
    assert p50 < 0.15 and p90 < 0.5, (p50, p90)
