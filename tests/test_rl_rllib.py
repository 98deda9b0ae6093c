"""issue 37: RLlib's own ``PettingZooEnv`` wrapper runs ``creatures_v0`` and
``gloom_v0`` as they are, and its PPO (new API stack, one policy shared by
both seats, RLlib's action-masking RLModule) trains briefly on them; the
trained module then plays whole games against a masked random player and only
ever picks legal actions. Skipped without RLlib (the ``rllib`` extra, which
brings torch: install torch==2.13.0 CPU first; docs/rl.md "Other trainers")."""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
import gymnasium
import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.tune.registry import register_env


class ClassicMasking(ActionMaskingTorchRLModule):  # type: ignore[misc]
    """RLlib's masking module names the vector ``observations``; PettingZoo's
    classic games (and ours) name it ``observation``: rename it, nothing else."""

    def __init__(self, *, observation_space: gymnasium.spaces.Dict, **kwargs: Any) -> None:
        space = gymnasium.spaces.Dict({"observations": observation_space["observation"],
                                       "action_mask": observation_space["action_mask"]})
        super().__init__(observation_space=space, **kwargs)

    def _preprocess_batch(self, batch: dict, **kwargs: Any) -> Any:
        obs = batch[Columns.OBS]
        if "observation" in obs:
            obs["observations"] = obs.pop("observation")
        return super()._preprocess_batch(batch, **kwargs)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # nothing reported anywhere
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def build(name: str, batch: int):
    register_env(name, lambda _cfg: PettingZooEnv(importlib.import_module(f"gloomtable.rl.{name}")
                                                   .env(players=2)))
    config = (PPOConfig().environment(name)
              .env_runners(num_env_runners=0, rollout_fragment_length="auto")
              .multi_agent(policies={"shared"}, policy_mapping_fn=lambda *_a, **_k: "shared")
              .training(train_batch_size_per_learner=batch, minibatch_size=batch // 4, num_epochs=2,
                        lr=1e-3)
              .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": RLModuleSpec(
                  module_class=ClassicMasking, model_config={"head_fcnet_hiddens": [64, 64]})}))
              .debugging(seed=0))
    return config.build_algo()


def greedy(module: Any, obs: dict) -> int:
    batch = {Columns.OBS: {"observation": torch.as_tensor(obs["observation"][None]),
                           "action_mask": torch.as_tensor(obs["action_mask"][None])}}
    with torch.no_grad():
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
    return int(torch.argmax(logits[0]))


@pytest.mark.slow
# RLlib registers one Gymnasium id for every multi-agent algorithm it builds; the second build says so.
@pytest.mark.filterwarnings("ignore:.*Overriding environment rllib-multi-agent-env-v0:UserWarning")
@pytest.mark.parametrize(("name", "iterations", "batch"), [("creatures_v0", 3, 1000), ("gloom_v0", 1, 500)])
def test_ppo_trains_through_rllibs_pettingzoo_wrapper(local_ray: None, name: str, iterations: int,
                                                      batch: int) -> None:
    algo = build(name, batch)
    try:
        before = [p.detach().clone() for p in algo.get_module("shared").parameters()]
        for _ in range(iterations):
            result = algo.train()
        runners, learner = result["env_runners"], result["learners"]["shared"]
        assert runners["num_env_steps_sampled_lifetime"] >= iterations * batch
        assert runners["num_episodes_lifetime"] >= 1
        # Both seats' win shares are paid at the end (constant-sum: they add up to 1).
        assert runners["episode_return_mean"] == pytest.approx(1.0)
        assert np.isfinite(learner["total_loss"]) and learner["num_module_steps_trained"] > 0
        module = algo.get_module("shared")
        assert any(not torch.equal(a, b.detach()) for a, b in zip(before, module.parameters(), strict=True))

        env = importlib.import_module(f"gloomtable.rl.{name}").env(players=2)
        rng = np.random.default_rng(0)
        for seed in range(2):  # the trained module (seat 0) against a masked random player
            env.reset(seed=seed)
            for agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                mask = obs["action_mask"]
                action = greedy(module, obs) if agent == "player_0" else int(rng.choice(np.flatnonzero(mask)))
                assert mask[action], (seed, action)
                env.step(action)
            assert env.unwrapped.state.is_over()
    finally:
        algo.stop()
