"""A Crazy Creatures variant from a deck file in the browser: the server is started
with ``--sets examples/night-zoo.toml``, the lobby's form offers it, and the table
shows the variant's Creatures and penalties (docs/decks.md)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import PageErrors, create_in_lobby, page_state, play_by_clicks
from gloomtable.games.creatures.cards import load_set
from gloomtable.server.testing import ServerProcess

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "night-zoo.toml"


@pytest.fixture
def zoo_server(tmp_path: Path) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path / "tables.db", args=["--sets", str(EXAMPLE)]) as srv:
        yield srv


def test_a_variant_chosen_in_the_lobby_plays_in_the_browser(zoo_server: ServerProcess,
                                                            context: Any) -> None:
    variant = load_set(EXAMPLE)
    page = context.new_page()
    errors = PageErrors(page)
    create_in_lobby(page, zoo_server.url, "creatures", seats=2, bots=1, seed=12,
                    extra={"[data-testid=opt-creature-set]": "night-zoo"})
    page.click("[data-testid=take-seat-0]")
    page.wait_for_selector("[data-testid=hand] .hand-card")
    state = page_state(page)
    assert state is not None and state["view"]["set"] == "night-zoo"
    names = set(variant.creature_names)
    assert {m["creature"] for m in state["view"]["machines"]} == names
    drawn = page.locator(".machine").first.inner_html()
    assert "Emberwolf" in drawn and "Hellcat" not in page.content()  # the variant's, not the shipped
    hand = state["view"]["hand"]
    assert [c["penalty"] for c in hand] == [variant.penalty[c["id"]] for c in hand]
    play_by_clicks(page, random.Random(4), decisions=10)
    errors.check()
