"""``simulate --workers N`` (and ``--ray``): the same games, the same report, whatever N.

Speed-up is measured by ``docs/bench.md``'s command, not asserted here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gloomtable.engine import ConfigError
from gloomtable.simulate import TIMING_KEYS, Chunk, chunks_of, play_chunk, resolve_workers, simulate

GLOOM = [sys.executable, "-m", "gloomtable.cli.main"]


@pytest.mark.parametrize(("game", "config", "games", "bots"), [
    ("creatures", {}, 240, None),
    ("creatures", {"players": 4}, 60, ["random", "medium", "random", "medium"]),
    ("gloom", {"players": 4}, 24, None),
])
@pytest.mark.slow
def test_two_workers_give_the_serial_report(game: str, config: dict, games: int,
                                            bots: list[str] | None) -> None:
    one = simulate(game, config, games, seed=11, bots=bots)
    two = simulate(game, config, games, seed=11, bots=bots, workers=2)
    assert (one.workers, one.backend) == (1, "serial")
    assert (two.workers, two.backend) == (2, "processes")
    assert two.results_dict() == one.results_dict()
    assert two.rounds == one.rounds and two.wins == one.wins  # exact floats, merged in game order


def test_records_saved_by_workers_are_the_serial_ones(tmp_path: Path) -> None:
    simulate("creatures", {}, 30, seed=4, save_dir=tmp_path / "one")
    simulate("creatures", {}, 30, seed=4, save_dir=tmp_path / "two", workers=2)
    one = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert one == sorted(p.name for p in (tmp_path / "two").iterdir()) and len(one) == 30
    for name in one:
        assert (tmp_path / "one" / name).read_text() == (tmp_path / "two" / name).read_text()


def test_progress_is_reported_once_per_game_in_order() -> None:
    seen: list[int] = []
    simulate("creatures", {}, 25, seed=2, workers=2, on_game=seen.append)
    assert seen == list(range(25))


def test_chunks_cover_every_game_once_in_order() -> None:
    for games, workers in ((1, 2), (7, 2), (1000, 2), (12345, 8), (5, 64)):
        chunks = chunks_of(games, workers, lambda a, b: Chunk("creatures", {}, 1, ("random",), a, b))
        covered = [i for c in chunks for i in range(c.start, c.stop)]
        assert covered == list(range(games))
        assert all(1 <= c.stop - c.start <= 200 for c in chunks)


def test_a_chunk_is_the_same_games_wherever_it_runs() -> None:
    whole = play_chunk(Chunk("creatures", {}, 5, ("random",) * 3, 0, 10))
    halves = (play_chunk(Chunk("creatures", {}, 5, ("random",) * 3, 0, 4))
              + play_chunk(Chunk("creatures", {}, 5, ("random",) * 3, 4, 10)))
    assert whole == halves


def test_bad_worker_counts_and_levels_are_refused_clearly() -> None:
    assert resolve_workers(0) == (os.cpu_count() or 1)
    assert resolve_workers(3) == 3
    for bad in (-1, 257):
        with pytest.raises(ConfigError, match="workers must be"):
            resolve_workers(bad)
    with pytest.raises(ConfigError, match="bot levels for 3 seats"):
        simulate("creatures", {}, 2, seed=1, bots=["random", "random"], workers=2)
    with pytest.raises(ConfigError, match="unknown bot level"):
        simulate("creatures", {}, 2, seed=1, bots=["grandmaster"], workers=2)


@pytest.mark.slow
def test_cli_workers_json_matches_serial_and_errors_are_one_line() -> None:
    args = ["simulate", "--game", "creatures", "--games", "80", "--seed", "3", "--json"]
    one = subprocess.run([*GLOOM, *args], capture_output=True, text=True, timeout=120)
    two = subprocess.run([*GLOOM, *args, "--workers", "2"], capture_output=True, text=True, timeout=120)
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    d1, d2 = json.loads(one.stdout), json.loads(two.stdout)
    assert d2["workers"] == 2
    assert {k: v for k, v in d1.items() if k not in TIMING_KEYS} == \
        {k: v for k, v in d2.items() if k not in TIMING_KEYS}
    bad = subprocess.run([*GLOOM, *args, "--workers", "-3"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "workers must be" in bad.stderr and "Traceback" not in bad.stderr


def test_ray_without_ray_installed_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    with pytest.raises(ConfigError, match="--ray needs Ray"):
        simulate("creatures", {}, 3, seed=1, ray_address="local")


@pytest.mark.skipif(not os.environ.get("GLOOM_TEST_RAY"),
                    reason="starts a Ray cluster (~15 s): set GLOOM_TEST_RAY=1 to run")
def test_ray_local_cluster_gives_the_serial_report() -> None:
    pytest.importorskip("ray")
    one = simulate("creatures", {}, 60, seed=8)
    ray = simulate("creatures", {}, 60, seed=8, ray_address="local")
    assert ray.backend == "ray" and ray.results_dict() == one.results_dict()
