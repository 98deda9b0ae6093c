"""``simulate`` on one process and on two: the wall-clock speed-up, and whether
the two reports agree (they must: results never depend on the worker count).

Parallelism can only be seen on the wall clock, so this section ignores the
bench's CPU clock; the report's load averages say how idle the machine was."""

from __future__ import annotations

import time

from gloomtable.bench.stats import Clock
from gloomtable.simulate import simulate

GAME = "creatures"


class WorkersBench:
    """``games`` random-bot games of Crazy Creatures, serial then ``workers`` processes."""

    def __init__(self, games: int, workers: int = 2, seed: int = 1) -> None:
        self.games, self.workers, self.seed = games, workers, seed

    def sample(self, budget_s: float, clock: Clock = time.perf_counter) -> dict[str, float]:
        del budget_s, clock  # the game count fixes the work; the wall clock times it
        self.seed += 1
        t0 = time.perf_counter()
        one = simulate(GAME, {}, self.games, self.seed)
        t1 = time.perf_counter()
        many = simulate(GAME, {}, self.games, self.seed, workers=self.workers)
        t2 = time.perf_counter()
        return {"serial_s": t1 - t0, "parallel_s": t2 - t1, "speedup": (t1 - t0) / (t2 - t1),
                "identical": float(one.results_dict() == many.results_dict())}
