"""``gloom bench``: how fast our engines, bots, RL environments and server are,
measured side by side with well-known baselines in one run (docs/bench.md)."""

from gloomtable.bench.suite import TARGETS, Plan, run_bench

__all__ = ["TARGETS", "Plan", "run_bench"]
