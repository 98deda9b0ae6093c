"""Gloomier and mixed sets through the ``gloom`` command, as a user runs it (in this
process, tests/cli_support.py: the same app, arguments, exit codes and output)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_support import gloom as run
from gloomtable.engine.record import GameRecord


@pytest.mark.slow
def test_simulate_gloomier_json_has_the_same_keys_as_gloom() -> None:
    gloomier = run("simulate", "--game", "gloomier", "--players", "4", "--games", "12", "--seed", "1",
                   "--json")
    gloom = run("simulate", "--game", "gloom", "--players", "4", "--games", "2", "--seed", "1", "--json")
    assert gloomier.returncode == 0, gloomier.stderr
    a, b = json.loads(gloomier.stdout), json.loads(gloom.stdout)
    assert set(a) == set(b)
    assert a["games"] == 12 and abs(sum(a["win_share_by_seat"]) - 1) < 1e-6


@pytest.mark.slow
def test_mixed_sets_play_to_the_end_and_replay(tmp_path: Path) -> None:
    save = tmp_path / "mix.json"
    proc = run("play", "--game", "gloom", "--sets", "classic,gloomier", "--players", "6",
               "--humans", "0", "--seed", "4", "--save", str(save))
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Game over" in proc.stdout
    rec = GameRecord.load(save)
    assert rec.config["sets"] == ["classic", "gloomier"] and rec.config["players"] == 6
    replayed = run("replay", str(save))
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout.split("Game over")[1].splitlines()[0] in proc.stdout


@pytest.mark.slow
def test_a_person_plays_gloomier_in_the_terminal(tmp_path: Path) -> None:
    """Choosing Characters, claiming and playing are menu entries like any other."""
    save = tmp_path / "g.json"
    proc = run("play", "--game", "gloomier", "--players", "3", "--seed", "8", "--save", str(save),
               stdin="1\n" * 3000)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Game over" in proc.stdout
    assert GameRecord.load(save).game == "gloomier"


@pytest.mark.slow
def test_deck_check_reports_a_mix_and_names_each_problem(tmp_path: Path) -> None:
    ok = run("deck", "check", "classic,gloomier")
    assert ok.returncode == 0, ok.stderr
    assert "guests: 14" in ok.stdout and "stories: 6" in ok.stdout
    assert "one draw pile of 176 cards, 40 Characters pooled" in ok.stdout
    clash = tmp_path / "clash.toml"
    clash.write_text('[set]\nid = "clash"\nname = "Clash"\n[[modifiers]]\nid = "was-pursued-by-geese"\n'
                     'name = "Geese again"\n')
    bad = run("deck", "check", f"classic,{clash}")
    assert bad.returncode == 1
    assert "card id 'was-pursued-by-geese' appears in more than one set (" in bad.stderr
    assert f"and {clash}); rename it in one of them" in bad.stderr


def test_sets_is_refused_for_crazy_creatures() -> None:
    proc = run("simulate", "--game", "creatures", "--sets", "classic", "--games", "1")
    assert proc.returncode == 2
    assert "--sets" in proc.stderr
