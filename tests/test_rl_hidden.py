"""issue 7: an agent's observation never changes when only cards hidden from it
differ (other hands, the draw pile, the Reserve, the set-aside cards), in every
environment, at every step of random games. This also holds for the OpenSpiel
observation and information-state tensors, built by the same encoders."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from rl_support import ENVS, scramble_hidden


@pytest.mark.parametrize("name", ENVS)
def test_observations_ignore_hidden_cards(name: str) -> None:
    env = importlib.import_module(f"gloomtable.rl.{name}").raw_env()
    games, steps = (3, 400) if name == "creatures_v0" else (1, 80)
    checked = moved = 0
    for seed in range(games):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for step in range(steps):
            if env.state.is_over():
                break
            real = env.state
            for agent in env.possible_agents:
                seat = env.seat_of[agent]
                before = env.observe(agent)
                env.state, changed = scramble_hidden(real, seat, seed * 1000 + step)
                after = env.observe(agent)
                env.state = real
                np.testing.assert_array_equal(before["observation"], after["observation"])
                np.testing.assert_array_equal(before["action_mask"], after["action_mask"])
                checked += 1
                moved += changed
            legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
    assert checked > 50 and moved > checked // 2  # the scrambles really moved cards


def test_observations_do_change_with_what_the_seat_sees() -> None:
    """The converse, so the test above is not vacuous: my own hand is observed."""
    env = importlib.import_module("gloomtable.rl.creatures_v0").raw_env(players=2)
    env.reset(seed=11)
    agent = env.agent_selection
    seat = env.seat_of[agent]
    before = env.observe(agent)["observation"]
    other = env.state.clone()
    other.hands[seat], other.hands[1 - seat] = other.hands[1 - seat], other.hands[seat]
    env.state = other
    assert not np.array_equal(before, env.observe(agent)["observation"])
