"""issue 7: the Gymnasium environments (one learner seat against bots) pass
Gymnasium's own check_env and are registered on ``import gloomtable.rl``."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import gloomtable.rl  # noqa: F401
from gloomtable.engine import ConfigError
from rl_support import needs_gloomier

IDS = ["gloomtable/Creatures-v0", "gloomtable/Gloom-v0",
       pytest.param("gloomtable/Gloomier-v0", marks=needs_gloomier)]


@pytest.mark.parametrize("env_id", IDS)
def test_gymnasium_check_env_passes(env_id: str) -> None:
    env = gymnasium.make(env_id, opponents="random")
    check_env(env.unwrapped)
    check_env(gymnasium.make(env_id, opponents="random", seat=None, reward="shaped",
                             render_mode="ansi").unwrapped)


def play(env, seed: int) -> tuple[float, dict]:
    obs, info = env.reset(seed=seed)
    total = 0.0
    for _ in range(10_000):
        legal = np.flatnonzero(obs["action_mask"])
        assert list(legal) == list(np.flatnonzero(info["action_mask"]))
        obs, reward, term, trunc, info = env.step(int(legal[0]))
        total += reward
        if term or trunc:
            return total, info
    raise AssertionError("the game did not end")


def test_learner_plays_against_chosen_bots_to_the_end() -> None:
    env = gymnasium.make("gloomtable/Creatures-v0", players=3,
                         opponents=["random", "random"], seat=2)
    total, info = play(env, seed=7)
    assert info["seat"] == 2
    winners = info["winners"]  # one 0/1 flag per seat
    assert total == pytest.approx(1 / winners.sum() if winners[2] else 0.0)
    again, _ = play(env, seed=7)
    assert again == total  # same seed, same game


def test_opponent_levels_come_from_make_bot() -> None:
    with pytest.raises(ConfigError, match="unknown bot level"):
        gymnasium.make("gloomtable/Creatures-v0", opponents="grandmaster")
    with pytest.raises(ConfigError, match="needs 2 opponents"):
        gymnasium.make("gloomtable/Creatures-v0", players=3, opponents=["random"])
    with pytest.raises(ConfigError, match="seat"):
        gymnasium.make("gloomtable/Creatures-v0", seat=5)


def test_an_illegal_action_ends_the_episode_with_a_penalty() -> None:
    env = gymnasium.make("gloomtable/Creatures-v0").unwrapped
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, term, trunc, info = env.step(illegal)
    assert (reward, term, trunc, info["illegal_action"]) == (-1.0, True, False, illegal)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_render_ansi_shows_the_learners_view() -> None:
    env = gymnasium.make("gloomtable/Gloom-v0", render_mode="ansi").unwrapped
    env.reset(seed=3)
    assert isinstance(env.render(), str) and env.render()


@pytest.mark.parametrize("env_id", IDS)
def test_action_masks_equal_the_legal_mask_at_every_step(env_id: str) -> None:
    """issue 21: sb3-contrib's MaskablePPO asks ``env.action_masks()``; it must be the
    observation's mask (the learner's legal actions) at every step of whole games."""
    env = gymnasium.make(env_id, opponents="random", seat=None).unwrapped
    rng = np.random.default_rng(5)
    for seed in range(2):
        obs, _ = env.reset(seed=seed)
        for _ in range(10_000):
            masks = env.action_masks()
            assert masks.dtype == bool and masks.shape == (env.action_space.n,)
            legal = np.flatnonzero(masks)
            assert np.array_equal(masks, obs["action_mask"].astype(bool))
            assert sorted(env.aec.state.legal_actions()) == list(legal)
            obs, _, term, trunc, _ = env.step(int(rng.choice(legal)))
            if term or trunc:
                assert not env.action_masks().any()
                break
        else:
            raise AssertionError("the game did not end")


def test_make_with_render_mode_human_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    env = gymnasium.make("gloomtable/Creatures-v0", render_mode="human")
    env.reset(seed=2)
    assert env.render() is None
    assert "Your hand" in capsys.readouterr().out
