"""issue 37: Gymnasium's vector environments over ``gloomtable/<Game>-v0`` in
both autoreset modes, as docs/rl.md "Vector environments" tells them: where
the mask of a finished episode is, and what to send for it."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv

import gloomtable.rl  # noqa: F401  (registers the Gymnasium ids)

KINDS = [SyncVectorEnv, AsyncVectorEnv]
ENVS = 3


def make_vector(kind: type, game: str, mode: AutoresetMode) -> gymnasium.vector.VectorEnv:
    fns = [lambda: gymnasium.make(f"gloomtable/{game}", players=2, opponents="random", seat=None)
           for _ in range(ENVS)]
    return kind(fns, autoreset_mode=mode)


def actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random legal action per environment; 0 where the mask is all zeros (a
    finished episode in NEXT_STEP mode: that step's action is ignored)."""
    return np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks])


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("game", ["Creatures-v0", "Gloom-v0"])
def test_next_step_autoreset_the_step_after_the_end_resets(kind: type, game: str) -> None:
    env = make_vector(kind, game, AutoresetMode.NEXT_STEP)  # Gymnasium's default
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    ended = np.zeros(ENVS, bool)
    episodes = 0
    for _ in range(3000):
        obs, reward, term, trunc, info = env.step(actions(obs["action_mask"], rng))
        for i in range(ENVS):
            if ended[i]:  # the step after an end: a new game's first observation
                assert obs["action_mask"][i].any() and reward[i] == 0 and not (term[i] or trunc[i])
            elif term[i] or trunc[i]:  # the end: the finished game's last observation, mask all zeros
                assert not obs["action_mask"][i].any()
                assert info["over"][i] and info["winners"][i].sum() >= 1
                assert reward[i] == pytest.approx(info["win_share"][i][info["seat"][i]])
                episodes += 1
            else:
                assert obs["action_mask"][i].any()
        ended = term | trunc
        if episodes >= 2 * ENVS:
            break
    env.close()
    assert episodes >= 2 * ENVS


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("game", ["Creatures-v0", "Gloom-v0"])
def test_same_step_autoreset_the_final_mask_is_in_final_obs(kind: type, game: str) -> None:
    env = make_vector(kind, game, AutoresetMode.SAME_STEP)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(3000):
        assert all(m.any() for m in obs["action_mask"])  # every observation can be acted on
        obs, reward, term, trunc, info = env.step(actions(obs["action_mask"], rng))
        for i in np.flatnonzero(term | trunc):
            final_obs, final = info["final_obs"][i], info["final_info"]
            assert not final_obs["action_mask"].any()  # the finished game's mask
            assert final["_over"][i] and final["over"][i]
            assert reward[i] == pytest.approx(final["win_share"][i][final["seat"][i]])
            assert not info["over"][i]  # info itself is the new game's
            episodes += 1
        if episodes >= 2 * ENVS:
            break
    env.close()
    assert episodes >= 2 * ENVS
