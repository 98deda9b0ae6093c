"""The ``gloom`` command as a user runs it: real processes, real files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gloomtable.engine.record import GameRecord

GLOOM = [sys.executable, "-m", "gloomtable.cli.main"]


def run(*args: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GLOOM, *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.slow
def test_simulate_json_has_the_promised_keys() -> None:
    proc = run("simulate", "--game", "gloom", "--players", "4", "--games", "30", "--seed", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    for key in ("games", "games_per_s", "actions_per_s", "mean_rounds", "median_rounds", "capped",
                "win_share_by_seat"):
        assert key in data
    assert data["games"] == 30
    assert len(data["win_share_by_seat"]) == 4
    assert abs(sum(data["win_share_by_seat"]) - 1.0) < 1e-6
    assert data["mean_rounds"] > 1


@pytest.mark.slow
def test_simulate_is_deterministic_and_saves_replayable_records(tmp_path: Path) -> None:
    a = run("simulate", "--players", "3", "--games", "5", "--seed", "9", "--json",
            "--save-dir", str(tmp_path))
    b = run("simulate", "--players", "3", "--games", "5", "--seed", "9", "--json")
    da, db = json.loads(a.stdout), json.loads(b.stdout)
    assert da["win_share_by_seat"] == db["win_share_by_seat"]
    assert da["mean_rounds"] == db["mean_rounds"]
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 5
    proc = run("replay", str(records[0]))
    assert proc.returncode == 0, proc.stderr
    assert "Game over" in proc.stdout and "winner" in proc.stdout.lower()


@pytest.mark.slow
def test_replay_says_where_a_broken_record_fails(tmp_path: Path) -> None:
    src = tmp_path / "games"
    run("simulate", "--players", "2", "--games", "1", "--seed", "4", "--save-dir", str(src))
    path = next(src.glob("*.json"))
    rec = GameRecord.load(path)
    rec.actions[10] = 999_999
    bad = tmp_path / "bad.json"
    rec.save(bad)
    proc = run("replay", str(bad))
    assert proc.returncode != 0
    assert "action #10" in proc.stderr
    (tmp_path / "junk.json").write_text("{not json")
    proc = run("replay", str(tmp_path / "junk.json"))
    assert proc.returncode != 0 and "not JSON" in proc.stderr


@pytest.mark.slow
def test_bad_options_get_clear_errors() -> None:
    proc = run("simulate", "--players", "9", "--games", "1")
    assert proc.returncode != 0 and "players" in proc.stderr
    proc = run("simulate", "--bots", "genius", "--games", "1")
    assert proc.returncode != 0 and "unknown bot level 'genius'" in proc.stderr
    proc = run("simulate", "--game", "chess", "--games", "1")
    assert proc.returncode != 0 and "unknown game 'chess'" in proc.stderr


@pytest.mark.slow
def test_a_whole_terminal_game_against_three_bots(tmp_path: Path) -> None:
    """A person who always picks the first choice still finishes a game; bad input
    re-asks with the reason; the record saves and replays to the same end."""
    save = tmp_path / "game.json"
    answers = "banana\n0\n" + "1\n" * 4000
    proc = run("play", "--players", "4", "--seed", "5", "--save", str(save), stdin=answers)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "Please type a number" in out
    assert "is not on the list" in out
    assert "Your hand" in out and "Self-Worth" in out
    assert "Game over" in out
    rec = GameRecord.load(save)
    replayed = run("replay", str(save))
    assert replayed.returncode == 0
    assert replayed.stdout.split("Game over")[1].splitlines()[0] in out
    assert rec.game == "gloom" and rec.seed == 5


@pytest.mark.slow
def test_quitting_saves_the_record(tmp_path: Path) -> None:
    save = tmp_path / "partial.json"
    proc = run("play", "--seed", "2", "--save", str(save), stdin="1\n1\nq\n")
    assert proc.returncode == 0
    assert "Stopped" in proc.stdout
    rec = GameRecord.load(save)
    assert rec.actions


@pytest.mark.slow
@pytest.mark.parametrize("humans", ["0"])
def test_bots_only_game_prints_the_story(humans: str) -> None:
    proc = run("play", "--players", "3", "--humans", humans, "--seed", "11")
    assert proc.returncode == 0, proc.stderr
    assert "plays" in proc.stdout and "Game over" in proc.stdout


@pytest.mark.slow
def test_creatures_simulate_play_and_replay(tmp_path: Path) -> None:
    """Crazy Creatures through the same commands: JSON keys with rounds per game,
    records that replay, and a terminal game a person finishes."""
    proc = run("simulate", "--game", "creatures", "--players", "3", "--games", "50", "--seed", "1",
               "--json", "--save-dir", str(tmp_path))
    data = json.loads(proc.stdout)
    assert data["games"] == 50 and data["mean_rounds"] == 3 and data["median_rounds"] == 3
    replayed = run("replay", str(next(tmp_path.glob("*.json"))))
    assert replayed.returncode == 0 and "Replayed" in replayed.stdout
    save = tmp_path / "cc.json"
    played = run("play", "--game", "creatures", "--players", "2", "--seed", "3", "--save", str(save),
                 stdin="1\n" * 2000)
    assert played.returncode == 0, played.stderr[-2000:]
    assert GameRecord.load(save).game == "creatures"
    assert "Winner" in played.stdout
