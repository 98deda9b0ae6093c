"""Steps per second of a PettingZoo environment under random legal actions.

The loop is the one every PettingZoo user writes (``agent_iter``, ``last()``,
pick from the ``action_mask``, ``step``; ``reset`` when everyone is done), so
our environments and PettingZoo's own ``leduc_holdem_v4`` are measured alike.

Each environment can be measured three ways (``make_env(name, wrapping)``):
``"env"``, as its ``env()`` ships (ours: one checking layer, Leduc: PettingZoo's
three wrappers); ``"pettingzoo"``, the raw environment inside PettingZoo's own
chain (``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper``,
``OrderEnforcingWrapper``, as Leduc's ``env()`` builds it), the honest
comparison; ``"raw"``, unwrapped.
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


WRAPPINGS = ("env", "pettingzoo", "raw")


def pettingzoo_chain(raw: Any) -> Any:
    """``raw`` in PettingZoo's own classic-game wrappers, in the order Leduc Hold'em's
    ``env()`` applies them (illegal move ends the episode with -1, bounds, order)."""
    from pettingzoo.utils import wrappers

    env = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def make_env(env_name: str, wrapping: str = "env", **kw: Any) -> Any:
    """The environment ``env_name`` (one of :data:`ENVS`), wrapped as ``wrapping``
    says (one of :data:`WRAPPINGS`, see the module doc)."""
    if env_name not in ENVS:
        raise ConfigError(f"unknown environment {env_name!r}; known: {', '.join(ENVS)}")
    if wrapping not in WRAPPINGS:
        raise ConfigError(f"unknown wrapping {wrapping!r}; known: {', '.join(WRAPPINGS)}")
    module = ENVS[env_name]
    if env_name == "leduc_holdem_v4":  # where it lives: the versioned alias only re-exports it
        module = "pettingzoo.classic.rlcard_envs.leduc_holdem"
    mod = importlib.import_module(module)
    if wrapping == "env":
        return mod.env(**kw)
    raw = mod.raw_env(**kw)
    return raw if wrapping == "raw" else pettingzoo_chain(raw)


def aec_run(env: Any, budget_s: float, seed: int,
            clock: Callable[[], float] = time.perf_counter) -> tuple[int, int, float]:
    """(steps, episodes, seconds) of a PettingZoo AEC env under random legal actions
    (by ``action_mask``), whole episodes until ``budget_s`` has passed, counted as
    PettingZoo's own ``performance_benchmark`` counts: every ``env.step`` call, the
    ``None`` steps of finished agents included, and resets (a part of running
    episodes)."""
    rng = np.random.default_rng(seed)
    steps = episodes = 0
    start = clock()
    env.reset(seed=seed)
    while True:
        for _agent in env.agent_iter(MAX_STEPS):
            obs, _reward, term, trunc, info = env.last()
            if term or trunc:
                action = None
            else:  # the mask: in the observation (PettingZoo's classic games), or in info (Shimmy)
                legal = np.flatnonzero(obs["action_mask"] if type(obs) is dict else info["action_mask"])
                action = int(legal[rng.integers(len(legal))])
            env.step(action)
            steps += 1
        episodes += 1
        elapsed = clock() - start
        if elapsed >= budget_s or steps >= MAX_STEPS:
            break
        env.reset()
    return steps, episodes, elapsed


def aec_sample(env: Any, budget_s: float, seed: int,
               clock: Callable[[], float] = time.perf_counter) -> dict[str, float]:
    """Steps and episodes per second of :func:`aec_run`."""
    steps, episodes, elapsed = aec_run(env, budget_s, seed, clock)
    return {"steps_per_s": steps / elapsed, "episodes_per_s": episodes / elapsed}


def paired_sample(ours: Any, theirs: Any, budget_s: float, seed: int, slices: int = 10,
                  clock: Callable[[], float] = time.perf_counter) -> dict[str, float]:
    """Steps per second of two AEC envs measured in turn, ``slices`` short runs of
    :func:`aec_run` each (which goes first alternates), about ``budget_s`` in all, and
    ``ratio``: ours over theirs from the summed steps and seconds. Both see the same
    moments of the machine, so a machine whose speed wanders moves both alike: a
    steadier ratio than two medians measured seconds apart."""
    if slices < 1:
        raise ConfigError(f"slices must be at least 1, got {slices!r}")
    part = budget_s / (2 * slices)
    totals = {"ours": [0, 0.0], "theirs": [0, 0.0]}
    envs = {"ours": ours, "theirs": theirs}
    for i in range(slices):
        for side in ("ours", "theirs") if i % 2 == 0 else ("theirs", "ours"):
            steps, _episodes, elapsed = aec_run(envs[side], part, seed * 1000 + i, clock)
            totals[side][0] += steps
            totals[side][1] += elapsed
    ours_rate = totals["ours"][0] / totals["ours"][1]
    theirs_rate = totals["theirs"][0] / totals["theirs"][1]
    return {"ratio": ours_rate / theirs_rate, "ours_steps_per_s": round(ours_rate, 1),
            "theirs_steps_per_s": round(theirs_rate, 1)}


def bench_steps(env_name: str, seconds: float = 2.0, seed: int = 0, wrapping: str = "env") -> float:
    """Steps per second of ``env_name`` over about ``seconds`` of random legal play
    (:func:`aec_sample`, the loop ``gloom bench`` runs on every environment)."""
    if not seconds > 0:
        raise ConfigError(f"seconds must be positive, got {seconds!r}")
    env = make_env(env_name, wrapping)
    try:
        return aec_sample(env, seconds, seed)["steps_per_s"]
    finally:
        env.close()


SPIEL_MOVES = 100
"""Actions played before the OpenSpiel costs are measured (a mid-game state)."""


def spiel_costs(budget_s: float, seed: int = 0, game_name: str = "gloomtable_gloom",
                clock: Callable[[], float] = time.perf_counter) -> dict[str, float]:
    """Microseconds per call of two OpenSpiel calls search makes all the time, on
    ``game_name`` (needs ``open_spiel``), for about ``budget_s`` each:
    ``chance_outcomes()`` at the deal, and ``clone()`` then the clone's
    ``information_state_string()`` after :data:`SPIEL_MOVES` random actions, the
    original's string asked once before (as ISMCTS asks it at a node first)."""
    import pyspiel

    import gloomtable.rl.spiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game(game_name)
    rng = np.random.default_rng(seed)
    root = game.new_initial_state()
    while True:
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
        for _ in range(SPIEL_MOVES):
            if state.is_terminal():
                break
            state.apply_action(int(rng.choice(state.legal_actions())))
        if not state.is_terminal():
            break
    player = state.current_player()
    state.information_state_string(player)

    def per_call(call: Callable[[], Any]) -> float:
        calls, start = 0, clock()
        while True:
            for _ in range(20):
                call()
            calls += 20
            elapsed = clock() - start
            if elapsed >= budget_s:
                return elapsed / calls * 1e6

    return {"chance_outcomes_us": per_call(root.chance_outcomes),
            "clone_infostate_us": per_call(
                lambda: state.clone().information_state_string(player))}
