"""Tournaments: seat rotation, the JSON form of issue 5, interval and rating maths,
and identical results whatever the number of worker processes."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from gloomtable.cli.main import app
from gloomtable.engine import ConfigError
from gloomtable.tournament import elo, run_tournament, seating, tables, wilson


def test_wilson_matches_the_textbook_formula() -> None:
    lo, hi = wilson(80, 100)
    # 80/100 at 95%: the Wilson interval is about [0.7112, 0.8666].
    assert math.isclose(lo, 0.7112, abs_tol=1e-4) and math.isclose(hi, 0.8666, abs_tol=1e-4)
    assert wilson(0, 10)[0] == 0.0 and math.isclose(wilson(10, 10)[1], 1.0)
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(5.5, 11)  # a shared win counts as a fraction
    assert lo < 0.5 < hi and math.isclose(lo + hi, 1.0, abs_tol=1e-9)


def test_elo_orders_bots_and_keeps_the_mean() -> None:
    score = {("a", "b"): 75.0, ("b", "a"): 25.0}
    count = {("a", "b"): 100.0, ("b", "a"): 100.0}
    r = elo(["a", "b"], score, count)
    assert math.isclose((r["a"] + r["b"]) / 2, 1500, abs_tol=1e-6)
    # 75.5 : 25.5 with the virtual draw -> 400 * log10(75.5 / 25.5) apart.
    assert math.isclose(r["a"] - r["b"], 400 * math.log10(75.5 / 25.5), abs_tol=0.01)
    sweep = elo(["x", "y"], {("x", "y"): 10.0, ("y", "x"): 0.0}, {("x", "y"): 10.0, ("y", "x"): 10.0})
    assert math.isfinite(sweep["x"]) and sweep["x"] > sweep["y"]


def test_seats_rotate_evenly() -> None:
    assert tables(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert tables(["a", "b"], 4) == [("a", "b", "a", "b")]
    counts: dict[tuple[str, int], int] = {}
    for i in range(12):
        for seat, name in enumerate(seating(["a", "b", "c"], 2, i)):
            counts[name, seat] = counts.get((name, seat), 0) + 1
    assert set(counts.values()) == {4}


def test_json_has_the_issue_form_and_shares_add_up() -> None:
    report = run_tournament("creatures", {"players": 2}, ["random", "easy"], 12, seed=3)
    data = json.loads(json.dumps(report.to_dict()))
    assert set(data["bots"]) == {"random", "easy"}
    for row in data["bots"].values():
        assert set(row) >= {"win_share", "ci95", "rating"}
        lo, hi = row["ci95"]
        assert 0.0 <= lo <= row["win_share"] <= hi <= 1.0
    assert math.isclose(sum(r["win_share"] for r in data["bots"].values()), 1.0, abs_tol=1e-3)
    assert "Elo" in data["rating"]
    assert data["bots"]["easy"]["rating"] > data["bots"]["random"]["rating"]


@pytest.mark.slow
def test_workers_do_not_change_results_and_a_seed_repeats() -> None:
    args = ("gloom", {"players": 2}, ["random", "easy"], 10)
    one = run_tournament(*args, seed=7).to_dict()
    assert run_tournament(*args, seed=7).to_dict() == one
    assert run_tournament(*args, seed=7, workers=2).to_dict() == one


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="unknown bot level 'wizard'"):
        run_tournament("gloom", {"players": 2}, ["random", "wizard"], 2, 1)
    with pytest.raises(ConfigError, match="once"):
        run_tournament("gloom", {"players": 2}, ["random", "random"], 2, 1)


def test_cli_tournament_json_and_table() -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["tournament", "--game", "creatures", "--bots", "random,medium",
                              "--players", "2", "--games", "6", "--seed", "2", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert set(data["bots"]) == {"random", "medium"} and data["games"] == 6
    res = runner.invoke(app, ["tournament", "--game", "creatures", "--bots", "random,medium",
                              "--games", "4"])
    assert res.exit_code == 0 and "Elo" in res.stdout and "95%" in res.stdout
    res = runner.invoke(app, ["tournament", "--bots", "random,nobody", "--games", "2"])
    assert res.exit_code == 2 and "unknown bot level 'nobody'" in res.output
