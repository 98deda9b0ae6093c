"""``gloom bench --against REV``: two trees' benches turn about, compared figure by figure.

No test asserts a speed (the machine is shared): these check which figures are read,
which way a ratio points, that the controls and too-coarse figures are never called a
regression, and that a real run of two checkouts reports every figure of both."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cli_support import gloom
from gloomtable.bench.trees import compare, figures, this_checkout


def _stat(value: float) -> dict[str, Any]:
    return {"median": value, "min": value, "max": value, "runs": [value]}


def _report(gloom_actions: float, apply_us: float, uno: float, kuhn_legal_us: float = 0.05) -> dict[str, Any]:
    return {
        "playouts": {"gloom": {"available": True, "config": {"players": 4},
                               "actions_per_s": _stat(gloom_actions), "actions_per_game": _stat(200.0)}},
        "per_call_us": {"gloom": {"positions": 300, "apply": _stat(apply_us)},
                        "kuhn": {"legal_actions": _stat(kuhn_legal_us)}},
        "baselines": {"rlcard_uno_game": {"actions_per_s": _stat(uno), "actions_per_game": _stat(45.0)}},
        "targets": {"gloom_vs_uno_game": {"target": 1.0, "met": True}},
    }


def test_figures_are_the_speed_figures_each_with_its_direction() -> None:
    found = figures(_report(100_000.0, 4.5, 200_000.0))
    assert found == {
        "playouts.gloom.actions_per_s": (100_000.0, True),
        "per_call_us.gloom.apply": (4.5, False),
        "per_call_us.kuhn.legal_actions": (0.05, False),
        "baselines.rlcard_uno_game.actions_per_s": (200_000.0, True),
    }, "counts (actions per game) and targets are not speeds"


def test_a_slower_figure_is_named_and_a_faster_one_is_not() -> None:
    before = _report(100_000.0, 4.0, 200_000.0)
    after = _report(90_000.0, 3.0, 200_000.0)  # playouts 10% slower, apply 25% faster
    result = compare([(before, after), (before, after)])
    assert result["figures"]["playouts.gloom.actions_per_s"]["median"] == 0.9
    assert result["figures"]["per_call_us.gloom.apply"]["median"] == pytest.approx(4.0 / 3.0, abs=1e-3)
    assert result["slower_than_5_percent"] == ["playouts.gloom.actions_per_s"]
    assert result["met"] is False


def test_controls_and_coarse_figures_are_reported_but_never_judged() -> None:
    before = _report(100_000.0, 4.0, 200_000.0, kuhn_legal_us=0.05)
    after = _report(99_000.0, 4.0, 150_000.0, kuhn_legal_us=0.06)  # UNO's code is the same: noise
    result = compare([(before, after)])
    assert result["figures"]["baselines.rlcard_uno_game.actions_per_s"]["control"] is True
    assert result["controls_noise"] == 0.25
    assert result["figures"]["per_call_us.kuhn.legal_actions"]["coarse"] is True
    assert result["figures"]["per_call_us.gloom.apply"]["coarse"] is False
    assert result["slower_than_5_percent"] == [] and result["met"] is True


def test_the_median_of_the_pairs_decides() -> None:
    base = _report(100_000.0, 4.0, 200_000.0)
    pairs = [(base, _report(r, 4.0, 200_000.0)) for r in (70_000.0, 99_000.0, 101_000.0)]
    row = compare(pairs)["figures"]["playouts.gloom.actions_per_s"]
    assert (row["min"], row["median"], row["max"]) == (0.7, 0.99, 1.01)


@pytest.mark.slow
def test_against_head_runs_both_checkouts_turn_about() -> None:
    """A real run: HEAD checked out beside this tree, each benched in its own process."""
    try:
        this_checkout()
    except RuntimeError as exc:
        pytest.skip(str(exc))
    out = gloom("bench", "--quick", "--only", "per_call_us", "--against", "HEAD", "--pairs", "1", "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["against"] == "HEAD" and result["pairs"] == 2
    names = set(result["figures"])
    assert {f"per_call_us.{g}.{m}" for g in ("gloom", "creatures") for m in ("apply", "view")} <= names
    assert all(row["min"] > 0 for row in result["figures"].values())


def test_a_revision_that_does_not_exist_is_one_clear_error() -> None:
    try:
        this_checkout()
    except RuntimeError as exc:
        pytest.skip(str(exc))
    out = gloom("bench", "--quick", "--against", "no-such-revision-here")
    assert out.returncode == 2
    assert "cannot check out 'no-such-revision-here'" in out.stderr
