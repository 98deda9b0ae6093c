"""The yardsticks: RLCard's UNO and PettingZoo's ``leduc_holdem_v4``, driven by
random agents and measured in the same run, by the same clock, as our games.

Both come with the ``bench`` extra (rlcard; PettingZoo's classic games use it).
Without it a baseline reports ``available: false`` and its ratios are ``None``.
"""

from __future__ import annotations

import time

from gloomtable.bench.stats import Clock


def missing_reason() -> str | None:
    """Why the baselines cannot run here, or ``None`` if they can."""
    try:
        import rlcard  # noqa: F401
        from pettingzoo.classic.rlcard_envs import leduc_holdem  # noqa: F401
    except ImportError as exc:
        return f"{exc.name or exc} is not installed (pip install 'gloomtable[bench]')"
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
