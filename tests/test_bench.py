"""``gloom bench``: the shape of its JSON and that every ratio comes from the same run.

No test asserts a speed: the machine is shared, so figures are reported by the
command (docs/bench.md), never checked against a clock here."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from typing import Any

import pytest

from cli_support import gloom
from gloomtable.bench import TARGETS, Plan, run_bench
from gloomtable.bench.baselines import missing_reason
from gloomtable.bench.build import ENGINE_MODULES
from gloomtable.bench.playouts import CallCostBench, PlayoutBench, available, positions
from gloomtable.bench.stats import ratio, summary
from gloomtable.bench.suite import Slot, _build, ratios
from gloomtable.cli.bench import render_text

GLOOM = [sys.executable, "-m", "gloomtable.cli.main"]
BENCH_EXTRA = missing_reason() is None
"""rlcard (the ``bench`` extra) is installed, so the baselines can run."""
STAT_KEYS = {"median", "min", "max", "runs"}


@pytest.fixture(scope="module")
def quick() -> dict[str, Any]:
    """One real ``gloom bench --quick --json`` run, as a user starts it."""
    proc = subprocess.run([*GLOOM, "bench", "--quick", "--json"], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _check_stat(stat: dict[str, Any], runs: int) -> None:
    assert set(stat) == STAT_KEYS
    assert len(stat["runs"]) == runs
    assert stat["min"] <= stat["median"] <= stat["max"]
    assert stat["min"] > 0


@pytest.mark.slow
def test_quick_json_has_every_section(quick: dict[str, Any]) -> None:
    for section in ("playouts", "per_call_us", "ismcts", "rl", "baselines", "workers", "ratios",
                    "targets", "plan", "machine", "seconds"):
        assert section in quick
    plan = quick["plan"]
    assert plan["runs"] >= 3 and plan["clock"] == "cpu"
    for name in ("gloom", "creatures"):
        entry = quick["playouts"][name]
        assert entry["available"] is True
        for metric in ("games_per_s", "actions_per_s", "actions_per_game"):
            _check_stat(entry[metric], plan["runs"])
        calls = quick["per_call_us"][name]
        for call in ("legal_actions", "apply", "view", "clone"):
            _check_stat(calls[call], plan["runs"])
    assert quick["playouts"]["gloom"]["config"] == {"players": 4}
    uno, leduc = quick["baselines"]["rlcard_uno"], quick["baselines"]["pettingzoo_leduc"]
    if BENCH_EXTRA:
        assert uno["available"] and leduc["available"]
        _check_stat(uno["actions_per_s"], plan["runs"])
        _check_stat(leduc["steps_per_s"], plan["runs"])
    else:  # without the bench extra the baselines say so, and the ratios are null
        assert not uno["available"] and "gloomtable[bench]" in uno["reason"]
        assert quick["ratios"]["creatures_vs_uno"] is None


@pytest.mark.slow
def test_workers_section_times_simulate_and_checks_identical_results(quick: dict[str, Any]) -> None:
    w = quick["workers"]["simulate"]
    assert w["available"] and w["workers"] == 2 and w["clock"] == "wall"
    for metric in ("serial_s", "parallel_s", "speedup", "projected_speedup"):
        _check_stat(w[metric], quick["plan"]["runs"])
    assert w["projected_speedup"]["median"] <= 2.5  # CPU split over 2 workers, never much more
    assert quick["ratios"]["workers2_projected"] == w["projected_speedup"]["median"]
    assert w["identical"]["min"] == 1.0  # every run: the same report on 1 and 2 processes
    assert quick["ratios"]["workers2_vs_workers1"] == w["speedup"]["median"]


@pytest.mark.slow
def test_parts_not_there_say_why(quick: dict[str, Any]) -> None:
    for section in ("playouts", "per_call_us", "ismcts", "rl"):
        for entry in quick[section].values():
            assert isinstance(entry["available"], bool)
            if not entry["available"]:
                assert entry["reason"]


@pytest.mark.slow
def test_ratios_divide_medians_of_the_same_run(quick: dict[str, Any]) -> None:
    r = quick["ratios"]
    for key in TARGETS:
        assert key in r
    assert ratios(quick) == r  # recomputed from the report itself: nothing from elsewhere
    if not BENCH_EXTRA:
        return
    uno = quick["baselines"]["rlcard_uno"]["actions_per_s"]["median"]
    for name in ("gloom", "creatures"):
        ours = quick["playouts"][name]["actions_per_s"]["median"]
        assert r[f"{name}_vs_uno"] == round(ours / uno, 3)
    rl = quick["rl"]["gloom_v0_pettingzoo"]  # issue 21: through the same wrapper chain as Leduc
    assert rl["wrapping"] == quick["baselines"]["pettingzoo_leduc"]["wrapping"] == "pettingzoo"
    if rl["available"]:
        leduc = quick["baselines"]["pettingzoo_leduc"]["steps_per_s"]["median"]
        assert r["pettingzoo_vs_leduc"] == round(rl["steps_per_s"]["median"] / leduc, 3)
        raw = quick["baselines"]["pettingzoo_leduc_raw"]["steps_per_s"]["median"]
        ours = quick["rl"]["gloom_v0_raw"]["steps_per_s"]["median"]
        assert r["gloom_v0_raw_vs_leduc_raw"] == round(ours / raw, 3)
    else:
        assert r["pettingzoo_vs_leduc"] is None
    paired = quick["rl"]["gloom_v0_vs_leduc_paired"]  # the same two, in alternating slices
    if paired["available"]:
        assert paired["wrapping"] == "pettingzoo" and paired["slices"] == 10
        _check_stat(paired["ratio"], quick["plan"]["runs"])
        assert r["pettingzoo_vs_leduc_paired"] == round(paired["ratio"]["median"], 3)
    else:
        assert r["pettingzoo_vs_leduc_paired"] is None
    for key, goal in quick["targets"].items():
        if "at_most" in goal:  # issue 21: OpenSpiel call costs, microseconds
            assert goal["met"] == (None if goal["value"] is None else goal["value"] <= goal["at_most"])
            continue
        assert goal["target"] == TARGETS[key]
        assert goal["met"] == (None if r[key] is None else r[key] >= TARGETS[key])


@pytest.mark.slow
def test_text_report_names_every_figure(quick: dict[str, Any]) -> None:
    text = render_text(quick)
    for word in ("Random playouts", "rlcard_uno", "pettingzoo_leduc", "Cost per call",
                 "gloom_vs_uno", "creatures_vs_uno", "pettingzoo_vs_leduc"):
        assert word in text


@pytest.mark.slow
def test_run_bench_in_process_with_a_tiny_plan() -> None:
    report = run_bench(Plan(runs=2, budget_s=0.02, positions=20, clock="wall",
                            sections=("playouts", "baselines")))
    assert report["plan"]["clock"] == "wall"
    assert len(report["playouts"]["creatures"]["actions_per_s"]["runs"]) == 2
    assert report["rl"]["gloom_v0"] == {"available": False, "reason": "not measured in this run"}
    assert (report["ratios"]["creatures_vs_uno"] is not None) == BENCH_EXTRA
    assert report["ratios"]["pettingzoo_vs_leduc"] is None
    with pytest.raises(ValueError, match="unknown clock"):
        run_bench(Plan(runs=1, budget_s=0.01, positions=5, clock="sundial"))
    with pytest.raises(ValueError, match="unknown section"):
        run_bench(Plan(runs=1, budget_s=0.01, positions=5, sections=("vibes",)))


def test_cli_refuses_an_unknown_section_in_one_line() -> None:
    proc = gloom("bench", "--quick", "--only", "playouts,vibes")  # in-process: an uncaught error fails here
    assert proc.returncode == 2 and "--only" in proc.stderr and "Traceback" not in proc.stderr


def test_summary_and_ratio() -> None:
    assert summary([3.0, 1.0, 2.0]) == {"median": 2.0, "min": 1.0, "max": 3.0, "runs": [3.0, 1.0, 2.0]}
    assert ratio(10.0, 4.0) == 2.5
    assert ratio(None, 4.0) is None and ratio(1.0, None) is None and ratio(1.0, 0.0) is None
    with pytest.raises(ValueError):
        summary([])


def test_unknown_game_and_failing_setup_are_reported_not_raised() -> None:
    ok, why = available("parcheesi")
    assert not ok and "parcheesi" in why

    def broken() -> PlayoutBench:
        raise LookupError("no such hook")

    sampler, why = _build(Slot("ismcts", "gloom", broken))
    assert sampler is None and why == "no such hook"


def test_playouts_and_positions_are_seeded() -> None:
    a = positions("creatures", {}, 40)
    b = positions("creatures", {}, 40)
    assert [act for _, act in a] == [act for _, act in b]
    assert [s.snapshot() for s, _ in a] == [s.snapshot() for s, _ in b]
    bench = PlayoutBench("creatures", {}, seed=3)
    first = bench.sample(0.0)
    assert first["actions_per_game"] > 0 and bench.next_game == 1  # at least one whole game
    costs = CallCostBench("creatures", {}, 30).sample(0.0)
    assert set(costs) == {"legal_actions", "apply", "view", "clone"}


@pytest.mark.slow
def test_server_bench_against_a_real_gloom_serve() -> None:
    from gloomtable.bench.server import bench_server, percentile, server_target

    s = bench_server(tables=4, seconds=1.5, seed=2, think_ms=20)
    assert s["available"], s
    assert s["tables"] == 4 and s["tables_moving"] == 4 and s["errors"] == 0
    assert s["moves"] >= s["round_trips"] > 0
    lat = s["latency_ms"]
    assert 0 < lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["max"]
    assert s["rss_after_kb"] > 0 and "rss_per_table_kb" in s
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.0 and percentile([5.0], 99) == 5.0
    assert server_target(s)["met"] is False  # 4 tables do not show that 200 are held
    assert server_target({"available": False})["met"] is None


def test_without_the_bench_extra_the_baselines_say_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "rlcard", None)  # as if rlcard were not installed
    why = missing_reason()
    assert why is not None and "rlcard" in why and "gloomtable[bench]" in why
    report = run_bench(Plan(runs=1, budget_s=0.01, positions=5, sections=("baselines",)))
    assert report["baselines"]["rlcard_uno"] == {"available": False, "reason": why}
    assert report["ratios"]["creatures_vs_uno"] is None
    assert report["targets"]["creatures_vs_uno"]["met"] is None


@pytest.mark.slow  # a benchmark: a few seconds of playouts
@pytest.mark.skipif(not BENCH_EXTRA, reason="the bench extra (rlcard, open-spiel) is not installed")
def test_engine_anchors_run_in_this_process_beside_our_playouts() -> None:
    """Issue 35: UNO's bare engine and OpenSpiel's crazy_eights, each a ratio of this run."""
    import pyspiel  # the anchors are real engines in this very process, not a subprocess
    import rlcard.games.uno.game

    report = run_bench(Plan(runs=2, budget_s=0.02, positions=5, sections=("playouts", "baselines")))
    uno, eights = report["baselines"]["rlcard_uno_game"], report["baselines"]["openspiel_crazy_eights"]
    assert uno["available"] and eights["available"], (uno, eights)
    assert uno["engine"] == "rlcard.games.uno.game.UnoGame" and eights["players"] == 3
    for entry in (uno, eights):
        _check_stat(entry["actions_per_s"], 2)
    assert eights["steps_per_s"]["median"] > eights["actions_per_s"]["median"]  # the deal is chance steps
    r = report["ratios"]
    assert r["gloom_vs_uno_game"] == ratio(report["playouts"]["gloom"]["actions_per_s"]["median"],
                                           uno["actions_per_s"]["median"])
    assert r["creatures_vs_crazy_eights"] == ratio(
        report["playouts"]["creatures"]["actions_per_s"]["median"], eights["actions_per_s"]["median"])
    for key in ("gloom_vs_uno_game", "creatures_vs_crazy_eights"):
        assert report["targets"][key]["met"] == (r[key] >= TARGETS[key])
    assert "pyspiel" in sys.modules and rlcard.games.uno.game.UnoGame is not None
    del pyspiel


def test_the_anchors_without_their_packages_say_how_to_get_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.setitem(sys.modules, "rlcard", None)
    for key in ("rlcard_uno_game", "openspiel_crazy_eights"):
        why = missing_reason(key)
        assert why is not None and "gloomtable[bench]" in why
    report = run_bench(Plan(runs=1, budget_s=0.01, positions=5, sections=("baselines",)))
    assert report["baselines"]["openspiel_crazy_eights"]["available"] is False
    assert report["ratios"]["creatures_vs_crazy_eights"] is None
    assert report["targets"]["gloom_vs_uno_game"]["met"] is None


def test_the_report_says_which_build_of_the_engine_ran() -> None:
    """Pure Python unless the engine's modules were loaded from extension modules (a
    compiled build); the text report's first line says which too."""
    report = run_bench(Plan(runs=1, budget_s=0.01, positions=5, clock="wall", sections=("playouts",)))
    files = {name: str(importlib.import_module(name).__file__) for name in ENGINE_MODULES}
    extension = [name for name, f in files.items() if not f.endswith(".py")]
    assert report["build"] == {"engine": "compiled" if extension else "pure", "compiled": extension}
    assert render_text(report).startswith(f"gloom bench ({report['build']['engine']} build): ")
