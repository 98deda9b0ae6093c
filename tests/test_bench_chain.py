"""issue 37: ``gloom bench`` sets ``gloom_v0`` in PettingZoo's wrapper chain beside
games of a similar size in the same chain: PettingZoo's ``hanabi_v5`` and
OpenSpiel's ``gin_rummy`` through Shimmy (each measured when installed, else
reported unavailable with the reason and a ``None`` ratio)."""

from __future__ import annotations

import sys

import pytest

from gloomtable.bench.baselines import ChainBench, gin_rummy_raw, missing_reason
from gloomtable.bench.stats import ratio
from gloomtable.bench.suite import TARGETS, Plan, run_bench

CHAINED = {"pettingzoo_hanabi": "pettingzoo_vs_hanabi", "openspiel_gin_rummy": "pettingzoo_vs_gin_rummy"}


@pytest.mark.slow
def test_gloom_v0_is_compared_with_hanabi_and_gin_rummy_in_the_same_chain() -> None:
    report = run_bench(Plan(runs=2, budget_s=0.1, positions=5, sections=("rl", "baselines")))
    ours = report["rl"]["gloom_v0_pettingzoo"]
    assert ours["available"] and ours["wrapping"] == "pettingzoo"
    for key, ratio_key in CHAINED.items():
        entry = report["baselines"][key]
        why = missing_reason(key)
        assert entry["available"] == (why is None), entry
        if why is None:
            assert entry["wrapping"] == "pettingzoo" and entry["steps_per_s"]["min"] > 0
            assert report["ratios"][ratio_key] == ratio(ours["steps_per_s"]["median"],
                                                         entry["steps_per_s"]["median"])
        else:
            assert entry["reason"] == why and report["ratios"][ratio_key] is None


def test_gin_rummy_runs_in_the_chain_with_its_mask_in_info() -> None:
    pytest.importorskip("shimmy")
    pytest.importorskip("pyspiel")
    bench = ChainBench(gin_rummy_raw, seed=3)
    assert type(bench.env).__name__ == "OrderEnforcingWrapper"  # PettingZoo's own outer layer
    out = bench.sample(0.3)
    assert out["steps_per_s"] > 0 and out["episodes_per_s"] >= 0


def test_a_missing_baseline_names_the_package_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "shimmy", None)  # as if shimmy were not installed
    why = missing_reason("openspiel_gin_rummy")
    assert why is not None and "shimmy" in why and "gloomtable[bench]" in why
    monkeypatch.setitem(sys.modules, "hanabi_learning_environment", None)
    assert "hanabi-learning-environment" in (missing_reason("pettingzoo_hanabi") or "")
    report = run_bench(Plan(runs=1, budget_s=0.01, positions=5, sections=("baselines",)))
    assert report["baselines"]["openspiel_gin_rummy"] == {"available": False, "reason": why}
    assert report["ratios"]["pettingzoo_vs_gin_rummy"] is None


def test_the_speed_targets_are_games_of_a_similar_size_not_leduc() -> None:
    """issue 37 withdrew the 1.0 against Leduc (a six-card toy): the ratio is still
    reported, with no target; the bar is hanabi_v5 and gin_rummy through the same chain."""
    assert TARGETS["pettingzoo_vs_hanabi"] == TARGETS["pettingzoo_vs_gin_rummy"] == 1.0
    assert not {"pettingzoo_vs_leduc", "pettingzoo_vs_leduc_paired"} & set(TARGETS)
    report = run_bench(Plan(runs=1, budget_s=0.01, positions=5, sections=("baselines",)))
    assert "pettingzoo_vs_leduc" in report["ratios"] and "pettingzoo_vs_leduc" not in report["targets"]
    for key in ("pettingzoo_vs_hanabi", "pettingzoo_vs_gin_rummy"):
        assert report["targets"][key] == {"target": 1.0, "met": None}  # rl not measured: no ratio
