"""A Crazy Creatures variant's Machines reach the log by their own names (issue 34,
item 4): a flip reads "to + Swelling Lamp" in the Night Zoo, never the shipped set's
Machine, in every language; the shipped set's lines are unchanged."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gloomtable.games import make_game
from gloomtable.games.creatures.cards import CREATURE_SET, load_set
from gloomtable.i18n.events import render

ZOO = Path(__file__).resolve().parents[1] / "examples" / "night-zoo.toml"


def flips(sets: list[str] | None, lang: str, want: int = 3) -> list[str]:
    """The flip lines of random games until ``want`` are told."""
    config = {"players": 3, **({"sets": sets} if sets else {})}
    game = make_game("creatures", config)
    found: list[str] = []
    for seed in range(200):
        state, rng = game.new_initial_state(seed), random.Random(seed)
        while not state.is_over() and len(found) < want:
            for event in state.apply(rng.choice(state.legal_actions())):
                if event.kind == "flip":
                    found.append(render(event, lang))
        if len(found) >= want:
            return found
    raise AssertionError("no Machine was flipped in 200 games")


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
def test_a_variants_machine_names_reach_the_log(lang: str) -> None:
    zoo = load_set(ZOO)
    lines = flips([str(ZOO)], lang)
    names = {zoo.plus.name, zoo.minus.name}
    assert all(any(n in line for n in names) for line in lines), lines
    shipped = {CREATURE_SET.plus.name, CREATURE_SET.minus.name}
    assert not any(n in line for line in lines for n in shipped), lines


def test_the_shipped_sets_flip_lines_name_its_machines() -> None:
    lines = flips(None, "en")
    assert all(CREATURE_SET.plus.name in line or CREATURE_SET.minus.name in line for line in lines), lines
