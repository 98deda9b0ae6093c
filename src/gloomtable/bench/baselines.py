"""The yardsticks: RLCard's UNO and PettingZoo's ``leduc_holdem_v4``, driven by
random agents and measured in the same run, by the same clock, as our games;
and, for ``gloom_v0`` in PettingZoo's chain, games of a similar size in the same
chain: PettingZoo's ``hanabi_v5`` and OpenSpiel's ``gin_rummy`` through Shimmy.

UNO and Leduc come with the ``bench`` extra (rlcard; PettingZoo's classic games
use it), gin_rummy with it too (shimmy, open-spiel). ``hanabi_v5`` needs
``hanabi-learning-environment``, a C++ build that is not in the extra (its
CMake file asks for a CMake older than 3.5, which CMake 4 refuses unless
``CMAKE_POLICY_VERSION_MINIMUM=3.5`` is set). Without its package a baseline
reports ``available: false`` with the reason, and its ratios are ``None``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from gloomtable.bench.stats import Clock

NEEDS = {
    "rlcard_uno": ("rlcard", "pettingzoo.classic.rlcard_envs.leduc_holdem"),
    "pettingzoo_leduc": ("rlcard", "pettingzoo.classic.rlcard_envs.leduc_holdem"),
    "pettingzoo_leduc_raw": ("rlcard", "pettingzoo.classic.rlcard_envs.leduc_holdem"),
    "pettingzoo_hanabi": ("hanabi_learning_environment", "pettingzoo.classic.hanabi.hanabi"),
    "openspiel_gin_rummy": ("pyspiel", "shimmy"),
}
"""The modules each baseline imports."""
HOW = {"hanabi_learning_environment": "pip install hanabi-learning-environment "
                                      "(with CMAKE_POLICY_VERSION_MINIMUM=3.5 under CMake 4)"}


def missing_reason(key: str = "pettingzoo_leduc") -> str | None:
    """Why the baseline ``key`` cannot run here, or ``None`` if it can."""
    import importlib

    for module in NEEDS.get(key, NEEDS["pettingzoo_leduc"]):
        try:
            importlib.import_module(module)
        except ImportError as exc:
            name = exc.name or module
            how = HOW.get(name, "pip install 'gloomtable[bench]'")
            return f"{name} is not installed ({how})"
        except Exception as exc:  # PettingZoo's hanabi raises its own error without the package
            how = HOW.get(NEEDS[key][0], "")
            return f"{module} cannot be imported: {type(exc).__name__}: {exc} ({how})"
    return None


class UnoBench:
    """RLCard UNO, 2 players, ``RandomAgent`` on every seat; one action is one
    ``env.step`` (which includes RLCard's observation encoding, as in RL use)."""

    name = "rlcard_uno"

    def __init__(self, seed: int = 1) -> None:
        import numpy as np
        import rlcard
        from rlcard.agents import RandomAgent

        np.random.seed(seed)  # RandomAgent draws from numpy's global generator
        self.env = rlcard.make("uno", config={"seed": seed})
        self.agents = [RandomAgent(num_actions=self.env.num_actions)
                       for _ in range(self.env.num_players)]

    def sample(self, budget_s: float, clock: Clock = time.perf_counter) -> dict[str, float]:
        env, agents = self.env, self.agents
        games = actions = 0
        start = clock()
        while True:
            state, pid = env.reset()
            while not env.is_over():
                state, pid = env.step(agents[pid].step(state))
                actions += 1
            games += 1
            elapsed = clock() - start
            if elapsed >= budget_s:
                break
        return {"games_per_s": games / elapsed, "actions_per_s": actions / elapsed,
                "actions_per_game": actions / games}


class LeducBench:
    """PettingZoo ``leduc_holdem_v4`` (AEC API), random legal actions."""

    name = "pettingzoo_leduc"

    def __init__(self, seed: int = 1, raw: bool = False) -> None:
        # leduc_holdem_v4 itself, imported from where it lives: the versioned alias
        # module only re-exports it with a DeprecationWarning.
        from pettingzoo.classic.rlcard_envs.leduc_holdem import env, raw_env

        self.env = raw_env() if raw else env()  # env(): PettingZoo's three wrappers
        self.seed = seed

    def sample(self, budget_s: float, clock: Clock = time.perf_counter) -> dict[str, float]:
        from gloomtable.rl.bench import aec_sample

        self.seed += 1
        return aec_sample(self.env, budget_s, self.seed, clock)


def hanabi_raw() -> Any:
    """PettingZoo's ``hanabi_v5``, unwrapped, with its defaults (2 players, 5 colours, 5 ranks)."""
    from pettingzoo.classic.hanabi.hanabi import raw_env

    return raw_env()


def gin_rummy_raw() -> Any:
    """OpenSpiel's ``gin_rummy`` (2 players) as a PettingZoo AEC environment through Shimmy."""
    from shimmy import OpenSpielCompatibilityV0

    return OpenSpielCompatibilityV0(game_name="gin_rummy")


class ChainBench:
    """Another project's AEC environment inside PettingZoo's own classic-game chain
    (``gloomtable.rl.bench.pettingzoo_chain``, as ``gloom_v0_pettingzoo``), random
    legal actions in the same loop (the mask from the observation or, as Shimmy
    gives it, from ``info``)."""

    def __init__(self, build_raw: Callable[[], Any], seed: int = 1) -> None:
        from gloomtable.rl.bench import pettingzoo_chain

        self.env = pettingzoo_chain(build_raw())
        self.seed = seed

    def sample(self, budget_s: float, clock: Clock = time.perf_counter) -> dict[str, float]:
        from gloomtable.rl.bench import aec_sample

        self.seed += 1
        return aec_sample(self.env, budget_s, self.seed, clock)
