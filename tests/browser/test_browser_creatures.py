"""Crazy Creatures in the browser: a table created in the lobby and played by
clicks to the end of a round (the round's penalties appear in the scores)."""

from __future__ import annotations

import random
from typing import Any

from conftest import PageErrors, create_in_lobby, page_state, play_by_clicks
from gloomtable.server.testing import ServerProcess


def round_done(page: Any) -> bool:
    return int(page.get_attribute("[data-testid=scores]", "data-rounds") or "0") >= 1


def test_creatures_table_played_to_the_end_of_a_round(server: ServerProcess, context: Any) -> None:
    page = context.new_page()
    errors = PageErrors(page)
    create_in_lobby(page, server.url, "creatures", seats=3, bots=2, seed=12)
    page.click("[data-testid=take-seat-0]")
    page.wait_for_selector("[data-testid=hand] .hand-card")
    assert page.locator(".machine").count() == 4
    rng = random.Random(4)
    play_by_clicks(page, rng, decisions=6)
    play_by_clicks(page, rng, decisions=200, until=round_done)
    page.wait_for_function("() => document.querySelector('[data-testid=scores]').dataset.rounds >= 1")
    state = page_state(page)
    assert state is not None and len(state["view"]["round_scores"]) >= 1
    first = state["view"]["round_scores"][0]
    cells = page.locator("[data-testid=scores] tbody tr").all()
    assert [int(r.locator("td").nth(2).inner_text()) for r in cells] == first
    errors.check()
