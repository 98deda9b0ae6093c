"""A Crazy Creatures variant from a deck file (``examples/night-zoo.toml``): checked by
``gloom deck check``, played in the terminal, at a real server (what the browser's
page reads) and in ``creatures_v0``. The variant keeps the shape of R-C1 and
changes the Creatures' and Machines' names and the penalty points (R-C10)."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest
from websockets.sync.client import connect

from cli_support import gloom
from gloomtable.engine.record import GameRecord
from gloomtable.games import make_game, replay_record
from gloomtable.games.creatures.cards import CREATURE_SET, load_set
from gloomtable.games.creatures.hooks.encode import LAYOUT
from gloomtable.rl import creatures_v0
from gloomtable.server.testing import ServerProcess

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "night-zoo.toml"
VARIANT = load_set(EXAMPLE)
NAMES = {"Emberwolf", "Moonsquid", "Mossgoblin", "Lanternmoth"}


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return gloom(*args, stdin=stdin, cwd=ROOT)


def test_the_example_variant_is_a_valid_set_with_its_own_penalties() -> None:
    """R-C1, R-C10: same 48 cards, other names, harsher 2s and 5s."""
    assert VARIANT.id == "night-zoo" and len(VARIANT.creatures) == 48
    assert set(VARIANT.creature_names) == NAMES
    assert VARIANT.penalty != CREATURE_SET.penalty
    proc = run("deck", "check", str(EXAMPLE))
    assert proc.returncode == 0, proc.stderr
    assert "valid Crazy Creatures set (id 'night-zoo')" in proc.stdout
    assert "penalty by number: 1: 0, 2: 3, 3: 2, 4: 2, 5: 3, 6: 0" in proc.stdout


def test_a_broken_variant_names_the_file_and_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(EXAMPLE.read_text().replace('key = "blue"', 'key = "purple"'))
    proc = run("deck", "check", str(bad))
    assert proc.returncode == 1
    assert f"{bad}: field colours: the keys are red, blue, green, yellow" in proc.stderr


def test_scoring_uses_the_variants_penalties() -> None:
    """R-C10: a hand left at the round's end costs the variant's points."""
    game = make_game("creatures", {"players": 2, "sets": [str(EXAMPLE)]})
    state = game.new_initial_state(4)
    assert state.penalties(0) == sum(VARIANT.penalty[c] for c in state.hands[0])
    assert game.config_dict()["sets"] == [str(EXAMPLE)]
    shipped = make_game("creatures", {"players": 2}).new_initial_state(4)
    assert shipped.hands == state.hands  # the same deal; only the count differs


def test_a_custom_deck_plays_in_the_terminal(tmp_path: Path) -> None:
    save = tmp_path / "zoo.json"
    played = run("play", "--game", "creatures", "--sets", str(EXAMPLE), "--players", "2",
                 "--seed", "3", "--save", str(save), stdin="1\n" * 2000)
    assert played.returncode == 0, played.stderr[-2000:]
    assert "Crazy Creatures (The Night Zoo of Dr. Gloom)" in played.stdout
    assert "Emberwolf" in played.stdout and "Swelling Lamp" in played.stdout
    assert "Winner" in played.stdout
    record = GameRecord.load(save)
    assert record.config["sets"] == [str(EXAMPLE)]
    assert replay_record(record).is_over()
    sim = run("simulate", "--game", "creatures", "--sets", str(EXAMPLE), "--players", "3",
              "--games", "20", "--json")
    assert sim.returncode == 0, sim.stderr
    assert json.loads(sim.stdout)["games"] == 20


def _state(ws: Any, until: Any, timeout: float = 40) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        msg = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if msg["type"] == "state" and until(msg):
            return msg


@pytest.mark.slow
def test_a_custom_deck_plays_at_the_server_by_id_never_by_path(tmp_path: Path) -> None:
    """The server is started with the variant file; a table names it by id, and the
    page's state messages carry its Creatures; a path or an unknown id is refused."""
    with ServerProcess(tmp_path / "tables.db", args=["--sets", str(EXAMPLE)]) as server:
        info = httpx.get(server.url + "/api/games").json()
        assert "night-zoo" in info["creature_sets"]
        for sets in (["/etc/passwd"], [str(EXAMPLE)], ["nowhere"], ["creatures", "night-zoo"]):
            r = httpx.post(server.url + "/api/tables", json={
                "game": "creatures", "config": {"sets": sets}, "seats": [{"kind": "bot"}] * 2})
            assert r.status_code == 400 and "unknown Crazy Creatures set" in r.text, r.text
        r = httpx.post(server.url + "/api/tables", json={
            "game": "creatures", "config": {"sets": ["night-zoo"]}, "bot_delay_ms": 0,
            "seats": [{"kind": "person"}, {"kind": "bot", "level": "medium"}], "seed": 5})
        assert r.status_code == 201, r.text
        t = r.json()
        token = t["invites"][0]["token"]
        with connect(f"{server.ws_url}/ws/{t['id']}", max_queue=4096) as ws:
            ws.send(server.hello(token))
            msg = _state(ws, lambda m: True)
            assert {m["creature"] for m in msg["view"]["machines"]} == NAMES
            assert {m["machine"] for m in msg["view"]["machines"]} <= {"Swelling Lamp", "Shrinking Lamp"}
            hand = msg["view"]["hand"]
            assert [c["penalty"] for c in hand] == [VARIANT.penalty[c["id"]] for c in hand]
            for _ in range(400):
                if msg["over"]:
                    break
                if msg["view"].get("choices"):
                    ws.send(json.dumps({"type": "act", "state_id": msg["state_id"],
                                        "action": msg["view"]["choices"][0]["action"]}))
                msg = _state(ws, lambda m, sid=msg["state_id"]: m["state_id"] > sid or m["over"])
            assert msg["over"] and msg["view"]["result"]["winners"]


def test_a_custom_deck_plays_in_creatures_v0() -> None:
    env = creatures_v0.raw_env(players=2, sets=[str(EXAMPLE)])
    env.reset(seed=3)
    assert env.game.card_set.id == "night-zoo"
    pen = LAYOUT["my_penalty"].start
    rng = np.random.default_rng(0)
    steps = 0
    while env.agents and steps < 5000:
        agent = env.agent_selection
        obs = env.observe(agent)
        seat = env.possible_agents.index(agent)
        hand = env.state.hands[seat]
        expected = min(1.0, sum(VARIANT.penalty[c] for c in hand) / 30)
        assert obs["observation"][pen] == pytest.approx(expected)
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert not env.agents and env.state.is_over()



def test_a_custom_deck_loads_in_openspiel_and_gymnasium() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import gloomtable.rl.spiel  # noqa: F401  (registers the games)
    from gloomtable.rl.gym_env import SeatEnv

    game = pyspiel.load_game(f"gloomtable_creatures(players=2,sets={EXAMPLE})")
    assert game.engine_game.card_set.id == "night-zoo"
    env = SeatEnv("creatures", players=2, sets=[str(EXAMPLE)])
    env.reset(seed=1)
    assert env.aec.game.card_set.id == "night-zoo"
    env.close()


def test_the_bots_weigh_the_variants_penalties() -> None:
    """R-C10: the medium bot reads the table's set from the view and counts its points."""
    from gloomtable.games.creatures.hooks.heuristic import Reading

    state = make_game("creatures", {"players": 2, "sets": [str(EXAMPLE)]}).new_initial_state(4)
    assert Reading.of(state.view(state.current_player())).penalty == VARIANT.penalty
    shipped = make_game("creatures", {"players": 2}).new_initial_state(4)
    assert Reading.of(shipped.view(shipped.current_player())).penalty == CREATURE_SET.penalty
