"""Golden playthroughs with views: one seeded game of every shipped game and variant
(Gloom, its 1st edition, beginner, Gloomier, a classic + Gloomier mix, Crazy Creatures,
the Kuhn poker example), pinning at every step the seat to move, its legal actions, the
action taken, the events as each seat and a spectator get them, and every seat's view
and the spectator's view.

Why digests: a view is a few kilobytes, so a golden keeps, per step, the first 16 hex
digits of the SHA-256 of each view's, each seat's events' and the legal list's canonical
JSON (sorted keys, no spaces), with the action taken and the number of legal actions, one
line per step in ``tests/golden/views/<case>.jsonl``. The readable
goldens (``test_golden_playthroughs.py``) show what the actions and events say; these
catch any change in what a player or a spectator is shown.

A missing or different golden fails, naming the first step, seat and field that differ.
After a deliberate change of behaviour, regenerate with
``GLOOMTABLE_UPDATE_GOLDEN=1 python -m pytest tests/test_golden_views.py`` and say in
the commit why the views changed. A refactor must never need that."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from gloomtable.bots import bot_action, make_bot
from gloomtable.games import make_game, registry

GOLDEN = Path(__file__).parent / "golden" / "views"
UPDATE = "GLOOMTABLE_UPDATE_GOLDEN"
REGENERATE = f"{UPDATE}=1 python -m pytest tests/test_golden_views.py"

# (case id, game name, config, seed, bot level): random bots reach every kind of choice
# and cost nothing; seeds picked for games of 100-350 steps, so each test takes about a
# second on a loaded machine
CASES: list[tuple[str, str, dict[str, Any], int, str]] = [
    ("gloom", "gloom", {"players": 4}, 21, "random"),
    ("gloom-edition1", "gloom", {"players": 3, "edition": 1}, 5, "random"),
    ("gloom-beginner", "gloom", {"players": 2, "beginner": True}, 23, "random"),
    ("gloomier", "gloomier", {"players": 4}, 5, "random"),
    ("gloom-mix", "gloom", {"players": 5, "sets": ["classic", "gloomier"]}, 9, "random"),
    ("creatures", "creatures", {"players": 3}, 26, "random"),
    ("kuhn", "kuhn", {"players": 2}, 27, "random"),
]


def digest(value: object) -> str:
    """The first 16 hex digits of the SHA-256 of ``value``'s canonical JSON."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def playthrough(game_name: str, config: dict[str, Any], seed: int, level: str) -> list[dict[str, Any]]:
    """The golden's lines: a header, one line per step, and the end (result and the
    last views). ``views``/``events`` list the seats in order, then the spectator."""
    game = make_game(game_name, config)
    state = game.new_initial_state(seed)
    seats: list[int | None] = [*range(game.num_players), None]
    bots = [make_bot(level, game_name, seed * 31 + p) for p in range(game.num_players)]
    lines: list[dict[str, Any]] = [
        {"game": game_name, "config": config, "seed": seed, "bots": level}]
    step = 0
    while not state.is_over():
        p = state.current_player()
        legal = state.legal_actions()
        views = [digest(state.view(s)) for s in seats]
        action = bot_action(bots[p], state, legal)
        events = state.apply(action)
        lines.append({"step": step, "player": p, "legal": [len(legal), digest(legal)],
                      "action": action,
                      "views": views,
                      "events": [digest([e.for_player(s).to_dict() for e in events]) for s in seats]})
        step += 1
    lines.append({"step": step, "result": state.result().to_dict(),
                  "views": [digest(state.view(s)) for s in seats]})
    return lines


def seat_name(index: int, seats: int) -> str:
    return "the spectator" if index == seats else f"seat {index} (player {index + 1})"


def first_difference(want: list[dict[str, Any]], got: list[dict[str, Any]]) -> str:
    """Where ``got`` first leaves ``want``: step, seat and field."""
    seats = len(got[-1]["views"]) - 1
    for w, g in zip(want, got, strict=False):
        if w == g:
            continue
        at = f"step {g.get('step', 'header')}"
        for key in ("player", "legal", "action", "result"):
            if w.get(key) != g.get(key):
                return f"{at}: {key} is {g.get(key)!r}, the golden has {w.get(key)!r}"
        for key in ("views", "events"):
            for i, (a, b) in enumerate(zip(w.get(key, []), g.get(key, []), strict=False)):
                if a != b:
                    return f"{at}: {seat_name(i, seats)}'s {key[:-1]} differs"
        return f"{at}: the line differs ({g!r} against {w!r})"
    return f"the game has {len(got)} lines, the golden {len(want)}"


def test_every_shipped_game_has_a_case() -> None:
    """A new game or variant without a golden fails here, not silently."""
    assert {c[1] for c in CASES} == set(registry.names())


@pytest.mark.parametrize(("case", "game_name", "config", "seed", "level"), CASES,
                         ids=[c[0] for c in CASES])
def test_golden_views(case: str, game_name: str, config: dict[str, Any], seed: int,
                      level: str) -> None:
    path = GOLDEN / f"{case}.jsonl"
    got = playthrough(game_name, config, seed, level)
    text = "".join(json.dumps(line, sort_keys=True, separators=(",", ":")) + "\n" for line in got)
    if os.environ.get(UPDATE) == "1":
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    # a missing golden fails: writing it here would make the test pass on anything
    assert path.exists(), f"{path} is missing: make it on purpose with {REGENERATE}"
    if text != path.read_text():
        want = [json.loads(line) for line in path.read_text().splitlines()]
        pytest.fail(f"{path.name}: {first_difference(want, got)}. If the change is meant, "
                    f"regenerate with {REGENERATE} and say why in the commit")
