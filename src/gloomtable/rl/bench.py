"""Steps per second of a PettingZoo environment under random legal actions.

The loop is the one every PettingZoo user writes (``last()``, pick from the
``action_mask``, ``step``; ``reset`` when everyone is done), so our
environments and PettingZoo's own ``leduc_holdem_v4`` are measured alike.
"""

from __future__ import annotations

import importlib
import time
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


def bench_steps(env_name: str, seconds: float = 2.0, seed: int = 0) -> float:
    """Steps per second of ``env_name`` over about ``seconds`` of random legal play
    (resets included, as they are part of running episodes)."""
    if not seconds > 0:
        raise ConfigError(f"seconds must be positive, got {seconds!r}")
    env = make_env(env_name)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while steps < MAX_STEPS:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[rng.integers(len(legal))])
        env.step(action)
        steps += 1
        if not env.agents:
            env.reset()
        if steps & 63 == 0 and time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    env.close()
    return steps / elapsed
