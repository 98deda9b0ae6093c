"""``run_bench``: every measurement, interleaved run by run, summarised and compared.

Runs are interleaved (run 1 of every bench, then run 2 of every bench, ...) so a
burst of load from elsewhere on the machine hits ours and the baselines alike,
and each ratio divides two medians taken in this very run."""

from __future__ import annotations

import gc
import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from gloomtable.bench.baselines import (
    CRAZY_EIGHTS_PLAYERS,
    ChainBench,
    CrazyEightsBench,
    LeducBench,
    UnoBench,
    UnoGameBench,
    gin_rummy_raw,
    hanabi_raw,
    missing_reason,
)
from gloomtable.bench.build import engine_build
from gloomtable.bench.extras import IsmctsBench, PairedRLBench, RLBench, SpielCostBench
from gloomtable.bench.playouts import GAMES, CallCostBench, PlayoutBench, available
from gloomtable.bench.stats import CLOCKS, Clock, ratio, summary
from gloomtable.bench.workers import WorkersBench
from gloomtable.games import registry

SECTIONS = ("playouts", "per_call_us", "ismcts", "rl", "baselines", "workers")
"""The measured sections of a report, in order."""
RL_ENVS = ("gloom_v0", "creatures_v0", "gloomier_v0")
"""Our PettingZoo environments (``gloomtable.rl``)."""
RL_WRAPPED = {"gloom_v0_pettingzoo": ("gloom_v0", "pettingzoo"), "gloom_v0_raw": ("gloom_v0", "raw")}
"""``gloom_v0`` inside PettingZoo's own wrapper chain (as Leduc's ``env()``), and unwrapped."""

TARGETS = {"gloom_vs_uno": 2.0, "creatures_vs_uno": 4.0, "pettingzoo_vs_hanabi": 1.0,
           "pettingzoo_vs_gin_rummy": 1.0, "workers2_vs_workers1": 1.7,
           "gloom_vs_uno_game": 1.0, "creatures_vs_crazy_eights": 0.8}
"""The bars a run is held to (ours divided by the baseline's, same run): issue 8's
against UNO and for two workers; issue 35's engine anchors (pure Python: Gloom's
playouts against UNO's bare engine, Crazy Creatures' against OpenSpiel's C++
``crazy_eights``); against games of a similar size through the same PettingZoo
wrapper chain, ``gloom_v0`` at least as fast as ``hanabi_v5`` and as OpenSpiel's
``gin_rummy`` (issue 37). ``pettingzoo_vs_leduc`` (``gloom_v0`` and Leduc through
that chain, issue 21) and its paired reading are still reported, as ratios without
a target: issue 37 withdrew the 1.0 against Leduc, a six-card toy (docs/rl.md, "Speed")."""
LIMITS = {"openspiel_chance_outcomes_us": 200.0, "openspiel_clone_infostate_us": 200.0}
"""Costs issue 21 bounds (microseconds per call, at most)."""


@dataclass(frozen=True)
class Plan:
    """How much to measure: ``runs`` samples of ``budget_s`` seconds per bench."""

    runs: int
    budget_s: float
    positions: int
    clock: str = "cpu"
    workers_games: int = 1500
    """Games of the ``workers`` section's simulation (timed serial, then on 2 processes)."""
    sections: tuple[str, ...] = SECTIONS
    """Which sections to measure (all by default); the others report "not measured"."""

    @classmethod
    def quick(cls, clock: str = "cpu", sections: tuple[str, ...] = SECTIONS) -> Plan:
        return cls(runs=3, budget_s=0.2, positions=300, clock=clock, sections=sections)

    @classmethod
    def full(cls, clock: str = "cpu", sections: tuple[str, ...] = SECTIONS) -> Plan:
        return cls(runs=5, budget_s=2.0, positions=2000, clock=clock, sections=sections,
                   workers_games=8000)


class Sampler(Protocol):
    def sample(self, budget_s: float, clock: Clock = ...) -> dict[str, float]: ...


@dataclass
class Slot:
    """One bench in the report: where its figures go and how it is built."""

    section: str
    key: str
    build: Callable[[], Sampler]
    digits: int = 1
    meta: dict[str, Any] | None = None


def _slots(plan: Plan, seed: int) -> list[Slot]:
    slots: list[Slot] = []
    for name, config in GAMES.items():
        slots.append(Slot("playouts", name, partial(PlayoutBench, name, config, seed),
                          meta={"config": config}))
    for name, config in GAMES.items():
        slots.append(Slot("per_call_us", name,
                          partial(CallCostBench, name, config, plan.positions), digits=2,
                          meta={"positions": plan.positions}))
    searched: dict[str, str] = {}
    for e in registry.entries():
        searched.setdefault(e.package, e.name)  # one search bench per rules package
    for name in searched.values():
        slots.append(Slot("ismcts", name, partial(IsmctsBench, name, GAMES[name], seed),
                          meta={"bot": "hard"}))
    for name in RL_ENVS:
        slots.append(Slot("rl", name, partial(RLBench, name, seed), meta={"wrapping": "env"}))
    for key, (name, wrapping) in RL_WRAPPED.items():
        slots.append(Slot("rl", key, partial(RLBench, name, seed, wrapping),
                          meta={"wrapping": wrapping}))
    slots.append(Slot("rl", "gloom_v0_vs_leduc_paired", partial(PairedRLBench, seed), digits=3,
                      meta={"wrapping": "pettingzoo", "slices": 10}))
    slots.append(Slot("rl", "openspiel_gloom", lambda: SpielCostBench(seed), digits=2,
                      meta={"game": "gloomtable_gloom", "unit": "microseconds per call"}))
    slots.append(Slot("baselines", "rlcard_uno", lambda: UnoBench(seed)))
    slots.append(Slot("baselines", "rlcard_uno_game", lambda: UnoGameBench(seed),
                      meta={"engine": "rlcard.games.uno.game.UnoGame", "players": 2}))
    slots.append(Slot("baselines", "openspiel_crazy_eights", lambda: CrazyEightsBench(seed),
                      meta={"engine": "pyspiel crazy_eights", "players": CRAZY_EIGHTS_PLAYERS}))
    slots.append(Slot("baselines", "pettingzoo_leduc", lambda: LeducBench(seed),
                      meta={"wrapping": "pettingzoo"}))
    slots.append(Slot("baselines", "pettingzoo_leduc_raw", lambda: LeducBench(seed, raw=True),
                      meta={"wrapping": "raw"}))
    slots.append(Slot("baselines", "pettingzoo_hanabi", lambda: ChainBench(hanabi_raw, seed),
                      meta={"wrapping": "pettingzoo", "env": "hanabi_v5"}))
    slots.append(Slot("baselines", "openspiel_gin_rummy", lambda: ChainBench(gin_rummy_raw, seed),
                      meta={"wrapping": "pettingzoo", "env": "shimmy OpenSpielCompatibilityV0('gin_rummy')"}))
    slots.append(Slot("workers", "simulate", lambda: WorkersBench(plan.workers_games, 2, seed), digits=3,
                      meta={"game": "creatures", "games": plan.workers_games, "workers": 2,
                            "clock": "wall"}))
    return slots


def _build(slot: Slot) -> tuple[Sampler | None, str]:
    """The slot's sampler, or ``None`` and the reason it cannot run here."""
    if slot.section in ("playouts", "per_call_us"):
        ok, why = available(slot.key)
        if not ok:
            return None, why
    if slot.section == "baselines":
        missing = missing_reason(slot.key)
        if missing is not None:
            return None, missing
    try:
        return slot.build(), ""
    except (LookupError, ImportError) as exc:
        return None, str(exc)
    except Exception as exc:  # another module's work in progress must not sink the bench
        return None, f"setup failed: {type(exc).__name__}: {exc}"


def run_bench(plan: Plan, seed: int = 1, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Measure everything in ``plan``; return the JSON-ready report."""
    started = time.perf_counter()
    if plan.clock not in CLOCKS:
        raise ValueError(f"unknown clock {plan.clock!r}; known: {', '.join(CLOCKS)}")
    unknown = sorted(set(plan.sections) - set(SECTIONS))
    if unknown:
        raise ValueError(f"unknown section(s) {', '.join(unknown)}; known: {', '.join(SECTIONS)}")
    clock = CLOCKS[plan.clock]
    load_before = os.getloadavg()
    slots = _slots(plan, seed)
    samplers: list[tuple[Slot, Sampler]] = []
    report: dict[str, Any] = {section: {} for section in SECTIONS}
    for slot in slots:
        if slot.section not in plan.sections:
            report[slot.section][slot.key] = {"available": False, "reason": "not measured in this run"}
            continue
        sampler, why = _build(slot)
        if sampler is None:
            report[slot.section][slot.key] = {"available": False, "reason": why}
        else:
            samplers.append((slot, sampler))
    # As pyperformance does: start the timed runs from a collected heap, with what
    # setup built (imports, decks, stored positions, the baselines' own modules)
    # frozen out of later full collections, so whichever sampler happens to be running
    # when one comes is not charged for the setup's garbage. Ours and the baselines alike.
    gc.collect()
    gc.freeze()
    raw: dict[tuple[str, str], list[dict[str, float]]] = {(s.section, s.key): [] for s, _ in samplers}
    failed: dict[tuple[str, str], str] = {}
    for run in range(plan.runs):
        for slot, sampler in samplers:
            key = (slot.section, slot.key)
            if key in failed:
                continue
            if progress is not None:
                progress(f"run {run + 1}/{plan.runs}: {slot.section} {slot.key}")
            try:
                raw[key].append(sampler.sample(plan.budget_s, clock))
            except Exception as exc:  # another module's hook failing must not sink the bench
                failed[key] = f"{type(exc).__name__}: {exc}"
    for slot, _ in samplers:
        key = (slot.section, slot.key)
        if key in failed:
            report[slot.section][slot.key] = {"available": False, "reason": f"failed: {failed[key]}"}
            continue
        entry: dict[str, Any] = {"available": True, **(slot.meta or {})}
        for metric in raw[key][0]:
            entry[metric] = summary([r[metric] for r in raw[key]], slot.digits)
        report[slot.section][slot.key] = entry
    gc.unfreeze()  # a caller that goes on (a test, a notebook) gets its collector back as it was
    report["ratios"] = ratios(report)
    report["targets"] = {k: {"target": v, "met": None if report["ratios"].get(k) is None
                             else report["ratios"][k] >= v} for k, v in TARGETS.items()}
    for k, most in LIMITS.items():
        value = _median(report, "rl", "openspiel_gloom", k.removeprefix("openspiel_"))
        report["targets"][k] = {"at_most": most, "value": value,
                                "met": None if value is None else value <= most}
    report["plan"] = {"runs": plan.runs, "seconds_per_run": plan.budget_s, "seed": seed,
                      "positions": plan.positions, "clock": plan.clock, "sections": list(plan.sections)}
    report["build"] = engine_build()
    report["machine"] = {"cpus": os.cpu_count(), "python": platform.python_version(),
                         "load_before": [round(x, 2) for x in load_before],
                         "load_after": [round(x, 2) for x in os.getloadavg()]}
    report["seconds"] = round(time.perf_counter() - started, 2)
    return report


def _median(report: dict[str, Any], section: str, key: str, metric: str) -> float | None:
    entry = report[section].get(key, {})
    if not entry.get("available"):
        return None
    median: float | None = entry[metric]["median"]
    return median


def ratios(report: dict[str, Any]) -> dict[str, float | None]:
    """Our medians over the baselines' medians, all from this report."""
    uno = _median(report, "baselines", "rlcard_uno", "actions_per_s")
    leduc = _median(report, "baselines", "pettingzoo_leduc", "steps_per_s")
    out: dict[str, float | None] = {}
    for name in GAMES:
        out[f"{name}_vs_uno"] = ratio(_median(report, "playouts", name, "actions_per_s"), uno)
    # Issue 35's anchors: the bare engines, driven by the same playout loop as ours.
    out["gloom_vs_uno_game"] = ratio(_median(report, "playouts", "gloom", "actions_per_s"),
                                     _median(report, "baselines", "rlcard_uno_game", "actions_per_s"))
    out["creatures_vs_crazy_eights"] = ratio(
        _median(report, "playouts", "creatures", "actions_per_s"),
        _median(report, "baselines", "openspiel_crazy_eights", "actions_per_s"))
    for env in RL_ENVS:
        out[f"{env}_vs_leduc"] = ratio(_median(report, "rl", env, "steps_per_s"), leduc)
    # The headline: gloom_v0 and Leduc through the very same PettingZoo wrapper chain.
    out["pettingzoo_vs_leduc"] = ratio(
        _median(report, "rl", "gloom_v0_pettingzoo", "steps_per_s"), leduc)
    # Beside Leduc (a six-card toy), games of a similar size through the same chain.
    chained = _median(report, "rl", "gloom_v0_pettingzoo", "steps_per_s")
    out["pettingzoo_vs_hanabi"] = ratio(chained, _median(report, "baselines", "pettingzoo_hanabi",
                                                         "steps_per_s"))
    out["pettingzoo_vs_gin_rummy"] = ratio(chained, _median(report, "baselines", "openspiel_gin_rummy",
                                                            "steps_per_s"))
    paired = _median(report, "rl", "gloom_v0_vs_leduc_paired", "ratio")
    out["pettingzoo_vs_leduc_paired"] = None if paired is None else round(paired, 3)
    out["gloom_v0_raw_vs_leduc_raw"] = ratio(
        _median(report, "rl", "gloom_v0_raw", "steps_per_s"),
        _median(report, "baselines", "pettingzoo_leduc_raw", "steps_per_s"))
    out["workers2_vs_workers1"] = _median(report, "workers", "simulate", "speedup")
    out["workers2_projected"] = _median(report, "workers", "simulate", "projected_speedup")
    return out
