"""issue 37: Tianshou 2.0's ``PettingZooEnv``, ``DummyVectorEnv`` and ``Collector``
with masked random policies (as its tic-tac-toe example) run over whole games
of ``creatures_v0`` and ``gloom_v0`` into a replay buffer, shared wins
included (a variable-length info once broke its buffer), and its DQN trains
briefly against a random opponent. Skipped without Tianshou (the ``tianshou``
extra, which brings torch), except under CI, which installs it (.ci/run) and
fails here if it is missing."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest

from rl_support import installed

installed("tianshou", "tianshou")  # skip, or fail under CI; imported by the tests themselves
# (torch and Tianshou take seconds to import: not while the suite is being collected)


def make(name: str):
    from tianshou.env.pettingzoo_env import PettingZooEnv

    return lambda: PettingZooEnv(importlib.import_module(f"gloomtable.rl.{name}").env(players=2))


def random_pair(env: Any) -> Any:
    from tianshou.algorithm import MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm

    return MultiAgentOffPolicyAlgorithm(
        algorithms=[MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
                    for _ in env.agents], env=env)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "episodes"), [("creatures_v0", 60), ("gloom_v0", 40)])
def test_the_collector_fills_a_buffer_with_whole_games(name: str, episodes: int) -> None:
    from tianshou.data import Collector, CollectStats, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv

    envs = DummyVectorEnv([make(name) for _ in range(4)])
    envs.seed(0)
    np.random.seed(0)
    buffer = VectorReplayBuffer(20_000, len(envs))
    collector = Collector[CollectStats](random_pair(make(name)()), envs, buffer)
    collector.reset()
    stats = collector.collect(n_episode=episodes)
    assert stats.n_collected_episodes >= episodes
    ended = buffer.info.over[: len(buffer)] if hasattr(buffer.info, "over") else None
    data = buffer.sample(0)[0]  # every stored transition
    winners = data.info.winners
    assert winners.shape == (len(data), 2)  # one 0/1 flag per seat, every step
    finals = winners[data.info.over]
    assert len(finals) >= episodes and (finals.sum(axis=1) >= 1).all()
    if name == "creatures_v0":
        assert (finals.sum(axis=1) == 2).any()  # shared wins went into the buffer too
    assert ended is None or ended.dtype == bool


@pytest.mark.slow
def test_dqn_trains_against_a_random_opponent() -> None:
    import torch
    from tianshou.algorithm import (
        DQN,
        MARLRandomDiscreteMaskedOffPolicyAlgorithm,
        MultiAgentOffPolicyAlgorithm,
    )
    from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.data import Collector, CollectStats, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.trainer import OffPolicyTrainerParams
    from tianshou.utils.net.common import Net


    torch.manual_seed(0)
    np.random.seed(0)
    env = make("creatures_v0")()
    space = env.observation_space.spaces["observation"]
    net = Net(state_shape=space.shape, action_shape=int(env.action_space.n), hidden_sizes=[64, 64])
    learner = DQN(policy=DiscreteQLearningPolicy(model=net, action_space=env.action_space,
                                                 eps_training=0.1, eps_inference=0.0),
                  optim=AdamOptimizerFactory(lr=1e-3), n_step_return_horizon=1, gamma=0.99,
                  target_update_freq=100)
    opponent = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[learner, opponent], env=env)
    train_envs = DummyVectorEnv([make("creatures_v0") for _ in range(4)])
    test_envs = DummyVectorEnv([make("creatures_v0") for _ in range(4)])
    train_envs.seed(0)
    test_envs.seed(1)
    train = Collector[CollectStats](algorithm, train_envs, VectorReplayBuffer(5000, 4),
                                    exploration_noise=True)
    test = Collector[CollectStats](algorithm, test_envs, exploration_noise=False)
    train.reset()
    train.collect(n_step=256)
    result = algorithm.run_training(OffPolicyTrainerParams(
        training_collector=train, test_collector=test, max_epochs=2, epoch_num_steps=500,
        collection_step_num_env_steps=20, test_step_num_episodes=8, batch_size=64,
        update_step_num_gradient_steps_per_sample=0.2, test_in_training=False, show_progress=False,
        multi_agent_return_reduction=lambda rews: rews[:, 0]))
    assert result.update_step > 0 and result.train_step >= 1000 and result.test_episode >= 8
    assert -1.0 <= result.best_reward <= 1.0  # the learner's win share over the test games
