"""Figures from parts that other modules own: ISMCTS search and the RL environments.

Each is measured only if its module is importable and offers what is named
here; otherwise the bench says "not available" and why, instead of failing.

- RL: ``gloomtable.rl.bench.make_env(name)`` (a PettingZoo AEC env), else
  ``gloomtable.rl.bench_steps(env_name, seconds, seed)`` (steps per second).
- ISMCTS: the ``hard`` bot of :func:`gloomtable.bots.make_bot`, which reports the
  iterations its last search ran as ``last_iterations``.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from typing import Any, cast

from gloomtable.bench.stats import Clock
from gloomtable.engine import GloomtableError, Rng, State


def _number(value: Any, key: str) -> float:
    """A hook's answer as a number: a plain number, or ``value[key]``."""
    if isinstance(value, dict):
        value = value[key]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"expected a number or a dict with {key!r}, got {value!r}")
    return float(value)


def _hook(module: str, attr: str) -> tuple[Callable[..., Any] | None, str]:
    try:
        mod = importlib.import_module(module)
    except ImportError as exc:
        return None, f"{module} is not importable ({exc})"
    fn = getattr(mod, attr, None)
    if not callable(fn):
        return None, f"{module} has no {attr}()"
    return fn, ""


class RLBench:
    """Steps per second of the PettingZoo environment ``env_name`` (``gloom_v0``, ...).

    Built with ``gloomtable.rl.bench.make_env`` and driven by the very loop and
    clock that measure Leduc Hold'em (:func:`~gloomtable.rl.bench.aec_sample`),
    so the ratio compares like with like; ``gloomtable.rl.bench_steps`` is the
    fallback when the environment cannot be built here."""

    def __init__(self, env_name: str, seed: int = 1, wrapping: str = "env") -> None:
        self.env_name, self.seed = env_name, seed
        make, why = _hook("gloomtable.rl.bench", "make_env")
        self.env = make(env_name, wrapping) if make is not None else None
        if self.env is None:
            fn, why2 = _hook("gloomtable.rl", "bench_steps")
            if fn is None:
                raise LookupError(f"{why}; {why2}")
            self.fn = fn

    def sample(self, budget_s: float, clock: Clock = time.perf_counter) -> dict[str, float]:
        from gloomtable.rl.bench import aec_sample

        self.seed += 1
        if self.env is not None:
            return {"steps_per_s": aec_sample(self.env, budget_s, self.seed, clock)["steps_per_s"]}
        return {"steps_per_s": _number(self.fn(self.env_name, budget_s, self.seed), "steps_per_s")}


class PairedRLBench:
    """``gloom_v0`` and PettingZoo's ``leduc_holdem_v4``, both in PettingZoo's own
    wrapper chain, measured in alternating slices of one run
    (:func:`~gloomtable.rl.bench.paired_sample`): the headline ratio read the
    steady way."""

    def __init__(self, seed: int = 1, env_name: str = "gloom_v0", slices: int = 10) -> None:
        make, why = _hook("gloomtable.rl.bench", "make_env")
        if make is None:
            raise LookupError(why)
        self.ours = make(env_name, "pettingzoo")
        self.theirs = make("leduc_holdem_v4", "pettingzoo")
        self.seed, self.slices = seed, slices

    def sample(self, budget_s: float, clock: Clock = time.perf_counter) -> dict[str, float]:
        from gloomtable.rl.bench import paired_sample

        self.seed += 1
        return paired_sample(self.ours, self.theirs, budget_s, self.seed, self.slices, clock)


class SpielCostBench:
    """Microseconds per OpenSpiel ``chance_outcomes()`` and per ``clone()`` plus
    ``information_state_string()`` (:func:`gloomtable.rl.bench.spiel_costs`)."""

    def __init__(self, seed: int = 1) -> None:
        fn, why = _hook("gloomtable.rl.bench", "spiel_costs")
        if fn is None:
            raise LookupError(why)
        import pyspiel  # noqa: F401  (the optional extra: a clear "not available" without it)

        self.fn, self.seed = fn, seed

    def sample(self, budget_s: float, clock: Clock = time.perf_counter) -> dict[str, float]:
        self.seed += 1
        costs: dict[str, float] = self.fn(budget_s / 2, self.seed, clock=clock)
        return costs


class IsmctsBench:
    """ISMCTS iterations per second in ``game_name``: the ``hard`` bot as shipped
    (its own rollouts and evaluation), deciding a few fixed mid-game positions."""

    MAX_POSITIONS = 4

    def __init__(self, game_name: str, config: dict[str, Any], seed: int = 1) -> None:
        from gloomtable.bots import make_bot
        from gloomtable.bots.ismcts import ISMCTSBot

        self.game_name, self.config, self.seed = game_name, config, seed
        try:
            # the "hard" level is the search bot for every game (bots/levels.py)
            self.bot = cast(ISMCTSBot, make_bot("hard", game_name, seed))
        except GloomtableError as exc:
            raise LookupError(f"no hard bot for {game_name}: {exc}") from None
        if not hasattr(self.bot, "last_iterations"):
            raise LookupError(f"the hard bot ({type(self.bot).__name__}) is not a search "
                              "(it reports no last_iterations)")
        self.positions = self._positions()
        if not self.positions:
            raise LookupError(f"the hard bot searched no position of {game_name} (fallback only)")

    def _positions(self) -> list[State]:
        """Seeded random games walked until the bot has searched a few decisions
        (setup and positions it cannot sample go to its fallback, not counted)."""
        from gloomtable.games import make_game

        game = make_game(self.game_name, self.config)
        rng = Rng(self.seed)
        found: list[State] = []
        for g in range(3):
            state = game.new_initial_state(self.seed * 1_000_003 + g)
            step = 0
            while not state.is_over() and len(found) < self.MAX_POSITIONS and step < 2000:
                legal = state.legal_actions()
                if step >= 10 and step % 7 == 0 and len(legal) > 1:
                    self.bot.choose(state.view(state.current_player()), legal)
                    if self.bot.last_iterations > 0:
                        found.append(state.clone())
                state.apply(legal[rng.below(len(legal))])
                step += 1
            if len(found) >= self.MAX_POSITIONS:
                break
        return found

    def sample(self, budget_s: float, clock: Clock = time.perf_counter) -> dict[str, float]:
        iterations = decisions = 0
        start = clock()
        while True:
            state = self.positions[decisions % len(self.positions)]
            self.bot.choose(state.view(state.current_player()), state.legal_actions())
            iterations += int(self.bot.last_iterations)
            decisions += 1
            elapsed = clock() - start
            if elapsed >= budget_s:
                break
        return {"iterations_per_s": iterations / elapsed,
                "iterations_per_decision": iterations / decisions}
