"""Golden playthroughs (OpenSpiel style): seeded games whose every step is kept
as readable text and diffed, so any change of behaviour shows in review.

After a deliberate rules or content change, regenerate with
``GLOOMTABLE_UPDATE_GOLDEN=1 python -m pytest tests/test_golden_playthroughs.py``
and read the diff."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gloomtable.bots import bot_action, make_bot
from gloomtable.games import make_game
from gloomtable.i18n.events import render

GOLDEN = Path(__file__).parent / "golden"
CASES = [
    ("gloom", {"players": 3}, 7, "sensible"),
    ("gloom", {"players": 4, "edition": 1}, 11, "random"),
    ("creatures", {"players": 3}, 5, "heuristic"),
    ("gloomier", {"players": 4}, 3, "sensible"),
    ("gloom", {"players": 5, "sets": ["classic", "gloomier"]}, 9, "random"),
    ("gloom", {"players": 2, "beginner": True}, 13, "random"),
]


def playthrough(game_name: str, config: dict, seed: int, level: str) -> str:
    game = make_game(game_name, config)
    state = game.new_initial_state(seed)
    bots = [make_bot(level, game_name, seed * 31 + p) for p in range(game.num_players)]
    lines = [f"# {game_name} {config} seed {seed}, {level} bots"]
    step = 0
    while not state.is_over():
        p = state.current_player()
        legal = state.legal_actions()
        action = bot_action(bots[p], state, legal)
        lines.append(f"{step:4d} p{p + 1} [{len(legal)} legal] {action}: {state.action_to_string(action)}")
        for event in state.apply(action):
            lines.append(f"       {render(event.for_player(None), 'en')}")
        step += 1
    lines.append(f"result: {state.result().to_dict()}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("game_name", "config", "seed", "level"), CASES,
                         ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_golden_playthrough(game_name: str, config: dict, seed: int, level: str) -> None:
    path = GOLDEN / f"{game_name}-seed{seed}.txt"
    text = playthrough(game_name, config, seed, level)
    if os.environ.get("GLOOMTABLE_UPDATE_GOLDEN") == "1":
        path.write_text(text)
    # a missing golden fails: writing it here would make the test pass on anything
    assert path.exists(), f"{path.name} is missing: make it with GLOOMTABLE_UPDATE_GOLDEN=1 and review it"
    assert text == path.read_text(), f"{path.name} changed: regenerate and review the diff"
