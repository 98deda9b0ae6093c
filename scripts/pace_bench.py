"""A table's pace (docs/bench.md, "A table's pace"): one person and four bots at a
Gloomier table on a real `gloom serve`, bots' delay as shipped, to the end.

The person plays a random legal choice at once; asked to respond, they do what the
page does with nobody clicking: before issue 30 its "let it stand automatically"
answered after 2.5 s; since, the table's one pause lets the card stand. Prints the
person's decisions, the response prompts they met and the game's wall time, as JSON.

    PYTHONPATH=src python scripts/pace_bench.py --seed 5
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

import httpx
from websockets.sync.client import connect

from gloomtable.server.testing import ServerProcess

AUTO_STAND_S = 2.5
"""The page's automatic "let it stand" delay before issue 30."""


def run(seed: int, players: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp, \
            ServerProcess(Path(tmp) / "t.db", fast_bots=False) as srv:
        t = httpx.post(srv.url + "/api/tables", json={
            "game": "gloomier", "seats": [{"kind": "person"}] + [{"kind": "bot"}] * (players - 1),
            "seed": seed}).json()
        token = t["invites"][0]["link"].split("token=")[1]
        rng = random.Random(seed)
        decisions = prompts = windows = 0
        answered: set[int] = set()
        with connect(srv.ws_url + f"/ws/{t['id']}", max_size=None) as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            start = time.monotonic()
            while True:
                m = json.loads(ws.recv(timeout=120))
                if m["type"] != "state":
                    continue
                if m["over"]:
                    break
                if not m["choices"] or m["state_id"] in answered:
                    continue
                if m.get("window"):
                    windows += 1  # the table's pause: nothing to do
                    prompts += 1
                    answered.add(m["state_id"])
                    continue
                answered.add(m["state_id"])
                if m["view"]["decision"]["kind"] == "respond":
                    prompts += 1
                    time.sleep(AUTO_STAND_S)
                    action = next(c["action"] for c in m["choices"] if c["kind"] == "pass")
                else:
                    action = rng.choice(m["choices"])["action"]
                decisions += 1
                ws.send(json.dumps({"type": "act", "action": action, "state_id": m["state_id"]}))
            wall = time.monotonic() - start
        return {"seed": seed, "players": players, "state_id": m["state_id"], "decisions": decisions,
                "response_prompts": prompts, "windows": windows, "wall_s": round(wall, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--players", type=int, default=5)
    args = ap.parse_args()
    print(json.dumps(run(args.seed, args.players)))


if __name__ == "__main__":
    main()
