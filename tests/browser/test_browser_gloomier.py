"""Gloomier in the browser: Characters drafted by clicks, Stories and Guests in
the middle."""

from __future__ import annotations

import random
from typing import Any

import pytest

from conftest import PageErrors, create_in_lobby, page_state, play_by_clicks
from gloomtable.engine import GloomtableError
from gloomtable.games import make_game
from gloomtable.server.testing import ServerProcess


def test_gloomier_table_shows_the_middle(server: ServerProcess, context: Any) -> None:
    try:
        make_game("gloomier", {"players": 3})
    except (GloomtableError, ValueError):
        pytest.skip("Gloomier has not landed in the engine")
    page = context.new_page()
    errors = PageErrors(page)
    create_in_lobby(page, server.url, "gloomier", seats=3, bots=2, seed=5)
    page.click("[data-testid=take-seat-0]")
    page.wait_for_selector("[data-testid=hand] .hand-card")
    rng = random.Random(8)
    play_by_clicks(page, rng, decisions=16)
    state = page_state(page)
    assert state is not None
    middle = state["view"].get("middle") or {}
    if middle.get("guests") or middle.get("stories"):
        page.wait_for_selector("[data-testid=middle]")
    errors.check()
