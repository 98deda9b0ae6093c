"""``simulate`` on one process and on two: the wall-clock speed-up, and whether
the two reports agree (they must: results never depend on the worker count).

Parallelism can only be seen on the wall clock, so this section ignores the
bench's CPU clock; the report's load averages say how idle the machine was.
On a shared machine the wall clock mostly shows the others' load, so the
section also reports ``projected_speedup``: the serial run's CPU seconds over
the workers' CPU seconds, times the workers. It is the speed-up the same work
would have if every worker had a core to itself: 2.0 means no CPU was added by
splitting the run (process start, pickling, merging)."""

from __future__ import annotations

import resource
import time

from gloomtable.bench.stats import Clock
from gloomtable.simulate import simulate

GAME = "creatures"


class WorkersBench:
    """``games`` random-bot games of Crazy Creatures, serial then ``workers`` processes."""

    def __init__(self, games: int, workers: int = 2, seed: int = 1) -> None:
        self.games, self.workers, self.seed = games, workers, seed
        simulate(GAME, {}, 20, seed)  # imports and tables loaded before anything is timed

    def sample(self, budget_s: float, clock: Clock = time.perf_counter) -> dict[str, float]:
        del budget_s, clock  # the game count fixes the work; the wall clock times it
        self.seed += 1
        c0 = time.process_time()
        t0 = time.perf_counter()
        one = simulate(GAME, {}, self.games, self.seed)
        t1 = time.perf_counter()
        c1 = time.process_time()
        k0 = _children_cpu()
        many = simulate(GAME, {}, self.games, self.seed, workers=self.workers)
        t2 = time.perf_counter()
        k1 = _children_cpu()
        work = (k1 - k0) + (time.process_time() - c1)  # the workers, and this process merging
        return {"serial_s": t1 - t0, "parallel_s": t2 - t1, "speedup": (t1 - t0) / (t2 - t1),
                "projected_speedup": self.workers * (c1 - c0) / max(work, 1e-9),
                "identical": float(one.results_dict() == many.results_dict())}


def _children_cpu() -> float:
    """CPU seconds of this process's finished children (the pool's workers)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
