"""``gloom bench --against REV``: this tree's figures beside another revision's, in one run.

A refactor has to show it made nothing slower. Two benches run an hour apart on a
shared machine differ by more than the change does, so this runs the same
``gloom bench --json`` of both trees turn about, in the order A B B A for every pair
(a drift of the machine's load hits both alike), each tree in its own process with
its own sources first on the path, and divides figure by figure within each pair.

The baselines (RLCard, OpenSpiel, PettingZoo) run unchanged code in both trees, so
their ratios show how far this run's noise alone moves a figure: a change is only
read as slower when it is slower than the controls' spread."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SPEED_KEYS = ("games_per_s", "actions_per_s", "steps_per_s", "iterations_per_s")
"""Figures where more is faster."""
COST_SUFFIX = "_us"
"""Figures where less is faster (microseconds per call)."""
SLOWER_BY = 0.05
"""A figure whose median speed ratio is below ``1 - SLOWER_BY`` is reported slower."""
CONTROL_SECTIONS = ("baselines",)
"""Sections whose code is the same in both trees."""
PER_CALL_STEP_US = 0.01
"""``per_call_us`` figures are rounded to this (``bench/playouts.py``); a call so fast
that one step is more than a fifth of :data:`SLOWER_BY` of it is too coarse to judge."""


def figures(report: dict[str, Any]) -> dict[str, tuple[float, bool]]:
    """``section.bench.metric`` -> (median, more_is_faster) for every speed figure."""
    out: dict[str, tuple[float, bool]] = {}

    def walk(node: dict[str, Any], path: list[str]) -> None:
        for key, value in node.items():
            if not isinstance(value, dict):
                continue
            median = value.get("median")
            if isinstance(median, int | float) and not isinstance(median, bool):
                if key in SPEED_KEYS:
                    out[".".join([*path, key])] = (float(median), True)
                elif key.endswith(COST_SUFFIX) or path[:1] == ["per_call_us"]:
                    out[".".join([*path, key])] = (float(median), False)
            else:
                walk(value, [*path, key])

    for section in ("playouts", "per_call_us", "ismcts", "rl", "baselines"):
        part = report.get(section)
        if isinstance(part, dict):
            walk(part, [section])
    return out


def speed_ratio(before: tuple[float, bool], after: tuple[float, bool]) -> float | None:
    """After's speed over before's (above 1: after is faster), or None if not measurable."""
    (b, faster_up), (a, _) = before, after
    if b <= 0 or a <= 0:
        return None
    return a / b if faster_up else b / a


def compare(pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> dict[str, Any]:
    """The per-figure median speed ratio (after / before) over ``pairs`` of reports,
    the controls' spread, and the figures slower by more than :data:`SLOWER_BY`."""
    ratios: dict[str, list[float]] = {}
    for before, after in pairs:
        fb, fa = figures(before), figures(after)
        for name in fb.keys() & fa.keys():
            r = speed_ratio(fb[name], fa[name])
            if r is not None:
                ratios.setdefault(name, []).append(r)
    smallest = {name: min(f[name][0] for pair in pairs for f in map(figures, pair) if name in f)
                for name in ratios}
    rows = {name: {"median": round(statistics.median(rs), 3), "min": round(min(rs), 3),
                   "max": round(max(rs), 3), "control": name.split(".")[0] in CONTROL_SECTIONS,
                   "coarse": name.startswith("per_call_us.")
                   and PER_CALL_STEP_US / smallest[name] > SLOWER_BY / 5}
            for name, rs in sorted(ratios.items())}
    controls = [row["median"] for row in rows.values() if row["control"]]
    noise = round(max(abs(1 - c) for c in controls), 3) if controls else None
    slower = sorted(n for n, row in rows.items()
                    if not row["control"] and not row["coarse"] and row["median"] < 1 - SLOWER_BY)
    return {"pairs": len(pairs), "figures": rows, "controls_noise": noise, "slower_than_5_percent": slower,
            "met": not slower}


def run_tree(src: Path, bench_args: list[str]) -> dict[str, Any]:
    """One ``gloom bench --json`` of the tree whose package is under ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    proc = subprocess.run([sys.executable, "-m", "gloomtable.cli.main", "bench", "--json", *bench_args],
                          env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-5:]
        raise RuntimeError(f"gloom bench in {src.parent} failed (exit {proc.returncode}): "
                           + " / ".join(tail))
    report: dict[str, Any] = json.loads(proc.stdout)
    return report


def this_checkout() -> Path:
    """The git checkout these sources are in (``--against`` needs one)."""
    root = Path(__file__).resolve().parents[3]
    if not (root / ".git").exists() or not (root / "src" / "gloomtable").is_dir():
        raise RuntimeError(f"--against needs a git checkout of gloomtable; {root} is not one")
    return root


@contextmanager
def checked_out(rev: str) -> Iterator[Path]:
    """``rev`` checked out beside this tree (a detached git worktree), removed after."""
    root = this_checkout()
    with tempfile.TemporaryDirectory(prefix="gloom-bench-") as tmp:
        where = Path(tmp) / "tree"
        add = subprocess.run(["git", "-C", str(root), "worktree", "add", "--detach", "-q", str(where), rev],
                             capture_output=True, text=True, check=False)
        if add.returncode != 0:
            raise RuntimeError(f"cannot check out {rev!r}: {add.stderr.strip()}")
        try:
            yield where
        finally:
            subprocess.run(["git", "-C", str(root), "worktree", "remove", "--force", str(where)],
                           capture_output=True, check=False)


def against(rev: str, bench_args: list[str], pairs: int,
            progress: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    """This tree against ``rev``: ``pairs`` rounds of A B B A, compared figure by figure."""
    here = this_checkout() / "src"
    with checked_out(rev) as there:
        runs: list[tuple[dict[str, Any], dict[str, Any]]] = []
        for i in range(pairs):
            progress(f"pair {i + 1}/{pairs}: {rev}, this tree, this tree, {rev}")
            b1 = run_tree(there / "src", bench_args)
            a1 = run_tree(here, bench_args)
            a2 = run_tree(here, bench_args)
            b2 = run_tree(there / "src", bench_args)
            runs += [(b1, a1), (b2, a2)]
    result = compare(runs)
    result["against"] = rev
    result["bench_args"] = bench_args
    result["builds"] = {"before": runs[0][0].get("build"), "after": runs[0][1].get("build")}
    return result
