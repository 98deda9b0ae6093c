"""Where a table's bots think: a quick bot (one that declares ``quick = True``: the
random bot, Crazy Creatures' and Kuhn poker's heuristics) chooses on the event loop;
any other (a search, Gloom's heuristics) in the bots' own thread pool, so a person's
move never waits behind it (issue 16, row 8). Issue 35: the hand-off to a thread
cost more than a quick bot's choice."""

from __future__ import annotations

import asyncio
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from gloomtable.bots import LEVELS, make_bot
from gloomtable.bots.base import is_quick
from gloomtable.server.store import SeatRow, TableRow, open_store
from gloomtable.server.table import BotPolicy, LiveTable


@pytest.mark.parametrize(("game", "quick"), [
    ("creatures", {"random", "easy", "medium"}),
    ("kuhn", {"random", "easy", "medium", "hard"}),
    ("gloom", {"random"}),
    ("gloomier", {"random"}),
])
def test_each_level_declares_whether_it_is_quick(game: str, quick: set[str]) -> None:
    """A search (``hard``) and Gloom's heuristics (tens of ms at worst) are not quick."""
    assert {level for level in LEVELS if is_quick(make_bot(level, game, 1))} == quick


def bot_table(tid: str, level: str) -> TableRow:
    seats = [SeatRow(p, "bot", level, f"Bot {p}", "") for p in range(3)]
    return TableRow(tid, "creatures", {"players": 3}, 5, {"bot_delay_ms": 0}, False, "host", seats)


@pytest.mark.parametrize("level", ["random", "medium"])
def test_quick_bots_move_while_the_pool_is_busy_and_searches_wait_for_it(tmp_path: Path, level: str) -> None:
    """The pool's one thread is held: a table of quick bots plays on regardless (its
    bots never reach the pool), a table of ``hard`` bots makes no move until the
    thread is free, then plays too. Every move is stored before it is current, with
    its bot's told line (a quick bot that reads its view shares it with the line)."""
    store = open_store(tmp_path / "t.db")
    pool = ThreadPoolExecutor(1)
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        held.set()
        release.wait(60)

    pool.submit(hold)
    assert held.wait(10)
    policy = BotPolicy(pool)

    async def go() -> tuple[int, int, int]:
        tables = []
        for tid, kind in (("quick", level), ("slow", "hard")):
            store.create_table(bot_table(tid, kind))
            row = store.load(tid)
            assert row is not None
            tables.append(LiveTable.open(row, store, policy))
        quick, slow = tables
        for t in tables:
            t.schedule()
        deadline = asyncio.get_running_loop().time() + 60
        while quick.state_id < 30 and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)
        moved_quick, moved_slow = quick.state_id, slow.state_id
        release.set()  # the searches get their thread
        while slow.state_id < 1 and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)
        for t in tables:
            t.close()
        return moved_quick, moved_slow, slow.state_id

    try:
        moved_quick, moved_slow, slow_after = asyncio.run(go())
    finally:
        release.set()
        pool.shutdown(wait=True, cancel_futures=True)
    assert moved_quick >= 30 and moved_slow == 0 and slow_after >= 1
    for tid, made in (("quick", moved_quick), ("slow", slow_after)):
        stored = store.load(tid)
        assert stored is not None and len(stored.actions) >= made
        if tid == "quick":
            assert {actor for _, actor in stored.actors} == {"bot"} and stored.narration
            told = json.loads(next(iter(stored.narration.values())))
            assert told["told"] in ("play", "same", "last", "flip", "draw")
    store.close()
