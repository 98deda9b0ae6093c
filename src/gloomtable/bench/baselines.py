"""The yardsticks: RLCard's UNO and PettingZoo's ``leduc_holdem_v4``, driven by
random agents and measured in the same run, by the same clock, as our games;
the two engine anchors of issue 35, UNO's bare engine (RLCard's ``UnoGame``, no
environment or observation encoding) and OpenSpiel's C++ ``crazy_eights`` through
``pyspiel``, driven by the very playout loop of ours;
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
    "rlcard_uno_game": ("rlcard", "rlcard.games.uno.game"),
    "openspiel_crazy_eights": ("pyspiel",),
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


class UnoGameBench:
    """UNO's bare engine: RLCard's ``UnoGame`` (2 players, its default), no environment,
    no observation encoding, no agent objects. The loop is ours (``PlayoutBench``):
    take the legal actions, ``step`` a uniformly random one drawn from our own
    :class:`~gloomtable.engine.Rng`, until the game is over. The legal actions are the
    ones ``step`` already returned in its state dict (``UnoGame.get_legal_actions``
    would work them out a second time); its shuffles use its own seeded numpy
    generator."""

    name = "rlcard_uno_game"

    def __init__(self, seed: int = 1) -> None:
        import numpy as np
        from rlcard.games.uno.game import UnoGame

        from gloomtable.engine import Rng

        self.game = UnoGame(num_players=2)
        self.game.np_random = np.random.RandomState(seed)
        self.rng = Rng(seed)

    def sample(self, budget_s: float, clock: Clock = time.perf_counter) -> dict[str, float]:
        game, rng = self.game, self.rng
        games = actions = 0
        start = clock()
        while True:
            state, _ = game.init_game()
            while not game.is_over():
                legal = state["legal_actions"]
                state, _ = game.step(legal[rng.below(len(legal))])
                actions += 1
            games += 1
            elapsed = clock() - start
            if elapsed >= budget_s:
                break
        return {"games_per_s": games / elapsed, "actions_per_s": actions / elapsed,
                "actions_per_game": actions / games}


CRAZY_EIGHTS_PLAYERS = 3
"""Crazy Creatures' default table, so both games deal the same number of hands
(OpenSpiel's own default is 5 players)."""


class CrazyEightsBench:
    """OpenSpiel's ``crazy_eights`` (C++, ``pyspiel``) at 3 players, its other
    parameters at their defaults, driven from Python by our playout loop. Its deal is
    explicit chance nodes (a card each); the loop picks those uniformly too (every
    chance outcome there is equally likely) and counts only the players' actions, as
    our games deal inside ``new_initial_state``: ``actions_per_s`` is decisions of
    players, ``steps_per_s`` every ``apply_action``, chance included."""

    name = "openspiel_crazy_eights"

    def __init__(self, seed: int = 1, players: int = CRAZY_EIGHTS_PLAYERS) -> None:
        import pyspiel

        from gloomtable.engine import Rng

        self.game = pyspiel.load_game("crazy_eights", {"players": players})
        self.rng = Rng(seed)

    def sample(self, budget_s: float, clock: Clock = time.perf_counter) -> dict[str, float]:
        game, rng = self.game, self.rng
        games = actions = steps = 0
        start = clock()
        while True:
            state = game.new_initial_state()
            while not state.is_terminal():
                legal = state.legal_actions()
                if not state.is_chance_node():
                    actions += 1
                state.apply_action(legal[rng.below(len(legal))])
                steps += 1
            games += 1
            elapsed = clock() - start
            if elapsed >= budget_s:
                break
        return {"games_per_s": games / elapsed, "actions_per_s": actions / elapsed,
                "steps_per_s": steps / elapsed, "actions_per_game": actions / games}


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
