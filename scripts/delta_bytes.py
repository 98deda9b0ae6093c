"""Bytes per move per connection, whole states against patches (server/deltas.py),
and what each costs the server to make: ``python scripts/delta_bytes.py``.

Whole seeded games are played on a real ``LiveTable`` (a SQLite store in a
temporary folder, every seat a person's, one page per seat and one spectator, all
in English); every connection is two: one without deltas and one with. For each
game it prints the median bytes of a state message each way, the bytes per move
per connection, and the microseconds (this process's CPU) to make one message:
``json.dumps`` of the whole state (the encoding before), ``orjson`` of the whole
state, our diff plus ``orjson``, and ``jsonpatch.make_patch`` plus ``orjson``.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from gloomtable.engine import Rng
from gloomtable.server.deltas import diff, document, dumps
from gloomtable.server.store import SeatRow, TableRow, open_store
from gloomtable.server.table import Conn, LiveTable

GAMES = {"gloom": {"players": 4}, "gloomier": {"players": 4}, "creatures": {"players": 3}}


def drain(conn: Conn, out: list[str]) -> None:
    while not conn.queue.empty():
        text = conn.queue.get_nowait()
        if text is not None:
            conn.sent(text)
            if text.startswith(('{"type":"state"', '{"type":"patch"')):
                out.append(text)


async def play(folder: Path, game: str, seed: int) -> tuple[int, dict[str, list[list[str]]]]:
    """Moves made, and each connection's state (or patch) messages, with and without deltas."""
    store = open_store(folder / f"{game}-{seed}.db")
    players = GAMES[game]["players"]
    row = TableRow(f"{game}-{seed}", game, GAMES[game], seed, {"spectators": True}, True, "host",
                   [SeatRow(i, "person", "random", f"P{i}", f"tok{i}") for i in range(players)])
    store.create_table(row)
    table = LiveTable.open(row, store)
    conns = {kind: [Conn(v, deltas=kind == "delta") for v in [*range(players), None]]
             for kind in ("full", "delta")}
    for kind in conns:
        for c in conns[kind]:
            table.attach(c)
    got: dict[str, list[list[str]]] = {k: [[] for _ in v] for k, v in conns.items()}
    rng = Rng(seed)

    def collect() -> None:
        for kind, cs in conns.items():
            for c, out in zip(cs, got[kind], strict=True):
                drain(c, out)

    moves = 0
    while not table.over:
        before, w = table.state_id, table.window
        if w is not None:
            for q in w.seats:
                if q in w.states and not w.answered(q):
                    await table.submit(conns["full"][q], w.options[q][rng.below(len(w.options[q]))],
                                       w.start_id, None)
            while table.state_id == before and table.window is w:
                await asyncio.sleep(0.001)  # the window's own task closes it
        else:
            legal = table.state.legal_actions()
            await table.submit(conns["full"][table.state.current_player()], legal[rng.below(len(legal))],
                               table.state_id, None)
        moves += table.state_id - before
        collect()
    table.close()
    store.close()
    return moves, got


def cost_us(pairs: list[tuple[dict[str, Any], dict[str, Any]]], make: Any, rounds: int = 5) -> float:
    best = float("inf")
    for _ in range(rounds):
        t = time.process_time()
        for a, b in pairs:
            make(a, b)
        best = min(best, time.process_time() - t)
    return round(best / len(pairs) * 1e6, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=3)
    args = ap.parse_args()
    import jsonpatch

    with tempfile.TemporaryDirectory() as tmp:
        for game in GAMES:
            full: list[int] = []
            delta: list[int] = []
            per_move: dict[str, float] = {"full": 0.0, "delta": 0.0}
            pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
            for seed in range(1, args.seeds + 1):
                moves, got = asyncio.run(play(Path(tmp), game, seed))
                for kind, sizes in (("full", full), ("delta", delta)):
                    texts = [t for out in got[kind] for t in out]
                    sizes.extend(len(t) for t in texts)
                    per_move[kind] += sum(len(t) for t in texts) / moves / len(got[kind]) / args.seeds
                seat0 = [json.loads(t) for t in got["full"][0]]
                pairs += list(itertools.pairwise(seat0))
            print(json.dumps({
                "game": game, "config": GAMES[game], "seeds": args.seeds, "messages": len(full),
                "median_bytes": {"state": statistics.median(full), "with_deltas": statistics.median(delta)},
                "bytes_per_move_per_connection": {k: round(v) for k, v in per_move.items()},
                "us_per_message": {
                    "json_dumps_state": cost_us(pairs, lambda a, b: json.dumps(b, separators=(",", ":"))),
                    "orjson_state": cost_us(pairs, lambda a, b: dumps(b)),
                    "diff_orjson_patch": cost_us(pairs, lambda a, b: dumps(diff(document(a), document(b)))),
                    "jsonpatch_orjson_patch": cost_us(pairs[:60], lambda a, b: dumps(
                        jsonpatch.make_patch(document(a), document(b)).patch), rounds=2),
                }}))


if __name__ == "__main__":
    main()
