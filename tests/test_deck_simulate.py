"""``gloom deck check --simulate N`` and the balance report's capped-games warning,
on the example deck with too few Deaths and on the classic set (real games between
``medium`` bots, in real worker processes)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cli_support import gloom
from gloom_helpers import MIX_ONLY_DECK
from gloomtable.designer.balance import figures, run_balance
from gloomtable.designer.playtest import REASONS
from gloomtable.games.gloom.deck import load_deck

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "too-few-deaths.toml"


def check(*args: str) -> subprocess.CompletedProcess[str]:
    """``gloom deck check ARGS``, run in this process (tests/cli_support.py)."""
    return gloom("deck", "check", *args, cwd=ROOT)


@pytest.mark.slow
def test_simulate_warns_on_a_deck_with_too_few_deaths_with_the_capped_share() -> None:
    proc = check("--simulate", "30", "--workers", "2", str(EXAMPLE))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "field count: 6 Untimely Deaths" in out  # the static warning
    line = next(ln for ln in out.splitlines() if ln.startswith("  2 players: capped "))
    share = float(line.split("capped ")[1].split("%")[0])
    assert share > 2.0
    assert "stopped at the turn cap (more than 2%); likely reason: " in out
    assert any(text in out for text in REASONS.values())
    assert "0 error(s), 2 warning(s)" in out
    assert check("--strict", "--simulate", "30", str(EXAMPLE)).returncode == 1


@pytest.mark.slow
def test_simulate_on_classic_reports_every_table_size_and_no_warning() -> None:
    proc = check("--simulate", "30", "classic")
    assert proc.returncode == 0, proc.stderr
    for n in (2, 3, 4, 5):
        assert f"  {n} players: capped " in proc.stdout
    assert "warning:" not in proc.stdout
    assert "0 error(s), 0 warning(s)" in proc.stdout


@pytest.mark.slow
def test_balance_report_shows_the_same_capped_share_and_warning() -> None:
    run = run_balance([str(EXAMPLE)], 2, 12, seed=1, bots=["medium"], workers=2)
    fig = figures(run, load_deck(EXAMPLE))
    assert fig["capped_share"] == fig["capped_games"] / 12 > 0.02
    assert sum(fig["cap_reasons"].values()) == fig["capped_games"]
    assert "stopped at the turn cap" in fig["cap_warning"]




def test_simulate_on_a_deck_meant_only_for_mixing_says_so_instead_of_crashing(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(MIX_ONLY_DECK)
    proc = check("--simulate", "5", str(path))
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "set up no table of 2 to 8 players on their own" in proc.stdout
    assert "gloom deck check classic,mine.toml --simulate N" in proc.stdout
    assert proc.returncode == 0
    assert check("--strict", "--simulate", "5", str(path)).returncode == 1


def test_simulate_on_a_crazy_creatures_variant_plays_every_table_size() -> None:
    """--simulate is no longer ignored on a Crazy Creatures set (R-C2: 2 to 4 players)."""
    proc = check("--simulate", "4", "--workers", "1", str(ROOT / "examples" / "night-zoo.toml"))
    assert proc.returncode == 0, proc.stderr
    assert "simulating 4 games at each table size (2, 3, 4 players), medium bots:" in proc.stdout
    for n in (2, 3, 4):
        assert f"  {n} players: capped " in proc.stdout and "(0 of 4)" in proc.stdout


def test_deck_check_and_gallery_take_a_mix_with_spaces_or_commas(tmp_path: Path) -> None:
    spaced, commas = check("classic", "gloomier"), check("classic,gloomier")
    assert spaced.returncode == commas.returncode == 0, spaced.stderr
    assert spaced.stdout == commas.stdout
    assert "one draw pile of 176 cards" in spaced.stdout
    for args in (["classic", "gloomier"], ["classic,gloomier"]):
        out = tmp_path / "g.html"
        proc = gloom("deck", "gallery", *args, "--out", str(out), cwd=ROOT)
        assert proc.returncode == 0, proc.stderr
        assert "Hemlock Hall" in out.read_text()
