"""``gloom deck new``: the starter deck is valid, plays, and mixes with the classic set."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from gloomtable.cli.main import app
from gloomtable.designer.starter import StarterError, slug, starter_toml, write_starter
from gloomtable.games import make_game
from gloomtable.games.gloom.deck import load_deck
from gloomtable.simulate import simulate


def gloom(*args: str):
    return CliRunner().invoke(app, list(args))


def test_deck_new_writes_a_deck_that_deck_check_accepts(tmp_path: Path) -> None:
    made = gloom("deck", "new", "Rainy Day", "--dir", str(tmp_path))
    assert made.exit_code == 0, made.stderr
    path = tmp_path / "rainy-day.toml"
    assert f"wrote {path}" in made.stdout
    check = gloom("deck", "check", str(path))
    assert check.exit_code == 0, check.stderr
    for line in ("characters: 6", "modifiers: 12", "events: 3", "untimely deaths: 6", "families: 2"):
        assert line in check.stdout
    again = gloom("deck", "new", "Rainy Day", "--dir", str(tmp_path))
    assert again.exit_code == 2 and "already exists" in again.stderr


def test_the_starter_deck_shows_every_kind_of_effect(tmp_path: Path) -> None:
    deck = load_deck(write_starter("Show Case", tmp_path))
    whens = {e.when for c in deck.cards for e in c.effects}
    assert whens == {"immediate", "continuous", "persistent", "response"}
    steps = {s.name for c in deck.cards for e in c.effects for s in e.steps}
    assert {"draw", "if_icon", "draw_limit", "cancel", "free_play"} <= steps
    assert any(c.icons.count("blank") for c in deck.cards)
    assert "umbrella" in deck.icons


def test_the_starter_deck_mixes_with_the_classic_set_and_games_finish(tmp_path: Path) -> None:
    path = write_starter("Rainy Day", tmp_path)
    game = make_game("gloom", {"players": 4, "sets": ["classic", str(path)]})
    assert len(game.deck.families) == 6
    report = simulate("gloom", {"players": 4, "sets": ["classic", str(path)]}, 5, 1)
    assert report.games == 5 and report.capped == 0
    alone = simulate("gloom", {"players": 2, "sets": [str(path)], "turn_cap": 300}, 3, 1)
    assert alone.games == 3


def test_names_become_safe_ids_and_bad_names_are_refused() -> None:
    assert slug("  The Rainy Day!! ") == "the-rainy-day"
    assert 'id = "my-deck-2"' in starter_toml("My Deck 2")
    with pytest.raises(StarterError, match="letters or digits"):
        slug("!!!")
    with pytest.raises(StarterError, match="quotes"):
        starter_toml('Bad "Deck"')
