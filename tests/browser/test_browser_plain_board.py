"""issue 33: a game that ships no board script (the example game, Kuhn poker) plays in
the browser as buttons: the plain board draws the view's facts, every choice is a
button, and the table is titled by its registry entry. Parametrized by the registry,
so a new game without a board is played here with no test written for it."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from conftest import PageErrors, create_in_lobby, page_state, play_by_clicks
from gloomtable.games import registry
from gloomtable.server.testing import ServerProcess

WEB = Path(__file__).resolve().parents[2] / "src" / "gloomtable" / "web"
PLAIN = [e.name for e in registry.entries() if not (WEB / f"{e.package}_table.js").is_file()]


@pytest.mark.parametrize("name", PLAIN)
def test_a_game_without_a_board_plays_as_buttons(name: str, server: ServerProcess, context: Any) -> None:
    entry = registry.entry(name)
    page = context.new_page()
    errors = PageErrors(page)
    create_in_lobby(page, server.url, name, seats=entry.players[0], bots=entry.players[0] - 1, seed=3)
    page.click("[data-testid=take-seat-0]")
    page.wait_for_selector("[data-testid=plain-view]")
    assert entry.title in page.title()
    play_by_clicks(page, random.Random(2), decisions=400)
    page.wait_for_selector("[data-testid=end]:not([hidden])")
    state = page_state(page)
    assert state is not None and state["over"]
    errors.check()


def test_the_shipped_games_have_their_boards() -> None:
    """The plain board is for a game without one: the shipped games keep theirs."""
    assert {"gloom", "gloomier", "creatures"}.isdisjoint(PLAIN)
