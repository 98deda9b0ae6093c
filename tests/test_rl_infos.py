"""issue 37: every info has the same keys, shapes and dtypes at every step of
every game (so Tianshou's buffers, which fix a field's shape at its first
insert, and vector environments take them), shared wins included. Needs no
deep-learning library."""

from __future__ import annotations

import importlib

import gymnasium
import numpy as np
import pytest

import gloomtable.rl  # noqa: F401  (registers the Gymnasium ids)
from gloomtable.engine import Result
from gloomtable.rl.infos import empty_result, result_fields
from rl_support import needs_gloomier

CASES = [("creatures_v0", 2, 40), ("creatures_v0", 3, 40), ("gloom_v0", 2, 40), ("gloom_v0", 4, 6),
         pytest.param("gloomier_v0", 2, 3, marks=needs_gloomier)]


def shape_of(info: dict) -> dict:
    """What a buffer fixes at the first insert: each key's type, dtype and shape."""
    return {k: (type(v).__name__, getattr(v, "dtype", None), np.shape(v)) for k, v in info.items()}


def check_end(info: dict, result: Result) -> None:
    n = len(result.scores)
    assert info["over"] is True and info["capped"] is result.capped
    assert list(np.flatnonzero(info["winners"])) == sorted(result.winners)
    assert info["win_share"].tolist() == pytest.approx(result.returns())
    assert info["scores"].tolist() == list(result.scores)
    assert info["win_share"].sum() == pytest.approx(1.0) and len(info["winners"]) == n


@pytest.mark.parametrize(("name", "players", "games"), CASES)
def test_pettingzoo_infos_keep_one_shape_through_whole_games(name: str, players: int, games: int) -> None:
    env = importlib.import_module(f"gloomtable.rl.{name}").env(players=players)
    expected = shape_of(empty_result(players))
    shared = 0
    for seed in range(games):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            assert shape_of(info) == expected, (seed, agent)
            for other in env.agents:
                assert shape_of(env.infos[other]) == expected
            if term or trunc:
                check_end(info, env.unwrapped.state.result())
                action = None
            else:
                assert info["over"] is False and not info["winners"].any()
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
        shared += int(len(env.unwrapped.state.result().winners) > 1)
    if name == "creatures_v0":
        assert shared >= 2  # shared wins are among these seeds (5 of 40 with 2 players, 3 with 3)
    if name == "gloom_v0" and players == 2:
        assert shared >= 1  # seed 31 is a shared win


@pytest.mark.parametrize(("game", "players", "games"),
                         [("Creatures-v0", 2, 40), ("Gloom-v0", 2, 30),
                          pytest.param("Gloomier-v0", 2, 2, marks=needs_gloomier)])
def test_gymnasium_infos_keep_one_shape_through_whole_games(game: str, players: int, games: int) -> None:
    env = gymnasium.make(f"gloomtable/{game}", players=players, opponents="random", seat=None)
    expected = None
    shared = 0
    for seed in range(games):
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        expected = expected or shape_of(info)
        assert set(expected) == {"action_mask", "seat", "illegal_action", "over", "capped",
                                 "winners", "win_share", "scores"}
        while True:
            obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            assert shape_of(info) == expected and info["illegal_action"] == -1
            if term or trunc:
                result = env.unwrapped.aec.state.result()
                check_end(info, result)
                assert reward == pytest.approx(info["win_share"][info["seat"]])
                shared += int(len(result.winners) > 1)
                break
    if game == "Creatures-v0":
        assert shared >= 1


def test_an_illegal_action_keeps_the_shape_and_names_the_action() -> None:
    env = gymnasium.make("gloomtable/Creatures-v0").unwrapped
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, _, term, _, after = env.step(illegal)
    assert term and shape_of(after) == shape_of(info)
    assert after["illegal_action"] == illegal and after["over"] is False


def test_a_shared_win_is_one_flag_per_seat_not_a_longer_list() -> None:
    alone = result_fields(Result(scores=(-40, 10, 5), winners=(0,)))
    shared = result_fields(Result(scores=(-40, -40, 5), winners=(0, 1)))
    assert shape_of(alone) == shape_of(shared) == shape_of(empty_result(3))
    assert shared["winners"].tolist() == [1, 1, 0]
    assert shared["win_share"].tolist() == [0.5, 0.5, 0.0]
    stacked = np.stack([alone["winners"], shared["winners"], empty_result(3)["winners"]])
    assert stacked.shape == (3, 3)  # what a buffer of 3 envs stores
