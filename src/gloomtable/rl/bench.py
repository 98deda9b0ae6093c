"""Steps per second of a PettingZoo environment under random legal actions.

The loop is the one every PettingZoo user writes (``agent_iter``, ``last()``,
pick from the ``action_mask``, ``step``; ``reset`` when everyone is done), so
our environments and PettingZoo's own ``leduc_holdem_v4`` are measured alike.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from gloomtable.engine import ConfigError

ENVS = {
    "gloom_v0": "gloomtable.rl.gloom_v0",
    "gloomier_v0": "gloomtable.rl.gloomier_v0",
    "creatures_v0": "gloomtable.rl.creatures_v0",
    "leduc_holdem_v4": "pettingzoo.classic.leduc_holdem_v4",
}
MAX_STEPS = 50_000_000
"""A bound on the loop besides the clock."""


def make_env(env_name: str, **kw: Any):
    """The wrapped environment ``env_name`` (one of :data:`ENVS`)."""
    if env_name not in ENVS:
        raise ConfigError(f"unknown environment {env_name!r}; known: {', '.join(ENVS)}")
    return importlib.import_module(ENVS[env_name]).env(**kw)


def aec_sample(env: Any, budget_s: float, seed: int,
               clock: Callable[[], float] = time.perf_counter) -> dict[str, float]:
    """Steps per second of a PettingZoo AEC env under random legal actions (by
    ``action_mask``) for about ``budget_s``, counted as PettingZoo's own
    ``performance_benchmark`` counts: every ``env.step`` call, the ``None`` steps
    of finished agents included, and resets (a part of running episodes)."""
    rng = np.random.default_rng(seed)
    steps = episodes = 0
    start = clock()
    env.reset(seed=seed)
    while True:
        for _agent in env.agent_iter(MAX_STEPS):
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(len(legal))])
            env.step(action)
            steps += 1
        episodes += 1
        elapsed = clock() - start
        if elapsed >= budget_s or steps >= MAX_STEPS:
            break
        env.reset()
    return {"steps_per_s": steps / elapsed, "episodes_per_s": episodes / elapsed}


def bench_steps(env_name: str, seconds: float = 2.0, seed: int = 0) -> float:
    """Steps per second of ``env_name`` over about ``seconds`` of random legal play
    (:func:`aec_sample`, the loop ``gloom bench`` runs on every environment)."""
    if not seconds > 0:
        raise ConfigError(f"seconds must be positive, got {seconds!r}")
    env = make_env(env_name)
    try:
        return aec_sample(env, seconds, seed)["steps_per_s"]
    finally:
        env.close()
