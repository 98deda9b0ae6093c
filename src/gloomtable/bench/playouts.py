"""Our games under random play: whole playouts, and the cost of each protocol call.

Random play is the measure because it isolates the engine: the driver only asks
``legal_actions`` and ``apply_legal`` (the same loop a search bot runs in its
rollouts: the action comes from ``legal_actions``, so it is not checked again),
so the figures are the rules' own cost, comparable across games and with other
libraries' engines."""

from __future__ import annotations

import gc
import time
from dataclasses import dataclass, field
from typing import Any

from gloomtable.bench.stats import Clock
from gloomtable.engine import GloomtableError, Rng, State
from gloomtable.games import make_game, registry

GAMES: dict[str, dict[str, Any]] = {e.name: {"players": e.default_players} for e in registry.entries()}
"""The games measured, each at its default table (Gloom: classic set, 4 players)."""


def available(name: str) -> tuple[bool, str]:
    """Whether ``make_game(name)`` works here, and why not if it does not."""
    try:
        make_game(name, GAMES.get(name, {}))
    except GloomtableError as exc:
        return False, str(exc)
    except Exception as exc:  # a game still being built must not sink the whole bench
        return False, f"make_game({name!r}) failed: {type(exc).__name__}: {exc}"
    return True, ""


@dataclass
class PlayoutBench:
    """Random playouts of one game; each :meth:`sample` continues the seed sequence,
    so every run plays fresh games and a repeated bench plays the same ones."""

    name: str
    config: dict[str, Any]
    seed: int = 1
    next_game: int = 0
    rng: Rng = field(init=False)

    def __post_init__(self) -> None:
        self.game = make_game(self.name, self.config)
        self.rng = Rng(self.seed)

    def sample(self, budget_s: float, clock: Clock = time.perf_counter) -> dict[str, float]:
        """Play whole games until ``budget_s`` has passed (at least one game)."""
        game, rng = self.game, self.rng
        games = actions = 0
        start = clock()
        while True:
            state = game.new_initial_state(self.seed * 1_000_003 + self.next_game)
            self.next_game += 1
            while not state.is_over():
                legal = state.legal_actions()
                state.apply_legal(legal[rng.below(len(legal))])  # as a search's rollout does
                actions += 1
            games += 1
            elapsed = clock() - start
            if elapsed >= budget_s:
                break
        return {"games_per_s": games / elapsed, "actions_per_s": actions / elapsed,
                "actions_per_game": actions / games}


def positions(name: str, config: dict[str, Any], count: int, seed: int = 7) -> list[tuple[State, int]]:
    """``count`` positions met in seeded random games, each with the action taken
    there: the mix of decisions a real game asks, not a hand-picked one."""
    game = make_game(name, config)
    rng = Rng(seed)
    out: list[tuple[State, int]] = []
    g = 0
    while len(out) < count:
        state = game.new_initial_state(seed * 1_000_003 + g)
        g += 1
        while not state.is_over() and len(out) < count:
            legal = state.legal_actions()
            action = legal[rng.below(len(legal))]
            out.append((state.clone(), action))
            state.apply(action)
    return out


@dataclass
class CallCostBench:
    """Microseconds per call of ``legal_actions``, ``apply``, ``view`` (the acting
    seat's) and ``clone``, each timed over the same fixed set of positions."""

    name: str
    config: dict[str, Any]
    count: int = 2000

    def __post_init__(self) -> None:
        self.positions = positions(self.name, self.config, self.count)

    def sample(self, budget_s: float, clock: Clock = time.perf_counter) -> dict[str, float]:
        """One pass over the positions per call kind (``budget_s`` is not used: the
        position count fixes the work). As in :mod:`timeit`, the garbage collector
        is off while a loop is timed, so a collection that 2,000 kept copies would
        set off is not charged to whichever call happened to trigger it."""
        del budget_s
        states = [s for s, _ in self.positions]
        n = len(states)
        copies = [s.clone() for s in states]  # apply needs fresh copies; made untimed
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            t0 = clock()
            for s in states:
                s.legal_actions()
            t1 = clock()
            for s in states:
                s.view(s.current_player())
            t2 = clock()
            for s in states:
                s.clone()
            t3 = clock()
            for s, (_, a) in zip(copies, self.positions, strict=True):
                s.apply(a)
            t4 = clock()
        finally:
            if was_enabled:
                gc.enable()
        us = 1e6 / n
        return {"legal_actions": (t1 - t0) * us, "view": (t2 - t1) * us,
                "clone": (t3 - t2) * us, "apply": (t4 - t3) * us}
