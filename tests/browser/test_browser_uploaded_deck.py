"""A designer's deck at an online table, all in the browser (issue 34, "Done when"):
the deck file and its Spanish translation are uploaded in the lobby, the deck's box
appears in the card sets, a table is made with it, the table says it plays an
uploaded deck and its gallery opens from there, and two people in two browsers
play it to the end. Twice: a small deck of plain cards with its Spanish translation,
and examples/ashgrove-rookery.toml, whose cards use every primitive of the richer
card language (triggers, conditions, chosen targets, players and cards), so the page
asks its people the new kinds of decision and they click them."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from conftest import MAX_DECISIONS, PageErrors, click_any_choice, page_state
from gloomtable.server.testing import LiveServer, ServerThread
from gloomtable.server.uploads import upload_key

DECK = '''
[set]
id = "lighthouse"
name = "The Lighthouse"
[[families]]
id = "keepers"
name = "The Lamp Keepers"
[[characters]]
id = "wick-trimmer"
name = "Wick the Trimmer"
family = "keepers"
[[modifiers]]
id = "lost-in-the-fog"
name = "Lost in the Fog"
points = { top = -15 }
[[modifiers]]
id = "saw-a-ship-come-home"
name = "Saw a Ship Come Home"
points = { middle = 10 }
'''

SPANISH = '''
[set]
name = "El Faro"
[cards.lost-in-the-fog]
name = "Perdido en la niebla"
'''


def play_to_the_end(pages: list[Any], rng: random.Random) -> int:
    """Whichever page is asked decides by clicks, until both pages show the end."""
    made = 0
    while made < 3 * MAX_DECISIONS:
        states = [page_state(p) for p in pages]
        if all(s is not None and s["over"] for s in states):
            return made
        asked = next((p for p, s in zip(pages, states, strict=True)
                      if s and not s["over"] and s["deciding"] == s["seat"]
                      and p.locator(".prompt:not([hidden]):not(.pending)").count()), None)
        if asked is None:
            pages[0].wait_for_timeout(30)
            continue
        before = page_state(asked)["state_id"]
        click_any_choice(asked, rng)
        asked.wait_for_function(f"() => window.gloomtablePage.msg.state_id > {before} || "
                                "window.gloomtablePage.msg.over", timeout=30_000)
        made += 1
    raise AssertionError(f"the game did not end in {made} decisions")


ROOKERY = (Path(__file__).parents[2] / "examples" / "ashgrove-rookery.toml").read_text(encoding="utf-8")

DECKS = {
    # name: (deck, Spanish translation or None, its set's name, a Modifier's name, a Character's name)
    "lighthouse": (DECK, SPANISH, "The Lighthouse", "Saw a Ship Come Home", "Wick the Trimmer"),
    "rookery": (ROOKERY, None, "The Ashgrove Rookery", "Was Adopted Next Door", "Aunt Perpetua Rook"),
}


@pytest.mark.parametrize("name", sorted(DECKS))
def test_an_uploaded_deck_is_played_to_the_end_by_two_people(browser: Any, tmp_path: Path, name: str) -> None:
    # the worker starts at the lowest priority: on a busy machine its first check is slow
    with ServerThread(tmp_path / "tables.db") as server:
        play(server, browser, tmp_path, name)


def play(server: LiveServer, browser: Any, tmp_path: Path, name: str) -> None:
    deck, spanish_text, set_name, modifier, character = DECKS[name]
    deck_file, spanish = tmp_path / f"{name}.toml", tmp_path / f"{name}.es.toml"
    deck_file.write_text(deck, encoding="utf-8")
    files = [str(deck_file)]
    if spanish_text is not None:
        spanish.write_text(spanish_text, encoding="utf-8")
        files.append(str(spanish))
    key = upload_key("deck", deck, {"es": spanish_text} if spanish_text is not None else {})
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    try:
        host = contexts[0].new_page()
        errors = [PageErrors(host)]
        host.goto(server.url + "/")
        host.set_input_files("[data-testid=deck-files]", files)
        host.click("[data-testid=upload-deck]")
        host.wait_for_selector(f"[data-testid=my-deck-{key}]", timeout=60_000)
        assert set_name in host.inner_text("[data-testid=upload-note]")
        box = host.locator(f"[data-testid=set-{key}]")
        box.check()
        host.select_option("[data-testid=players]", "2")
        # The table's R-G20 pause, set in the lobby. Not shorter than the default: this loop
        # answers one page at a time, so the other page's window runs out, and a short one
        # may run out between seeing the prompt and clicking it.
        host.fill("[data-testid=response-pause]", "3")
        for i in range(2):
            host.select_option(f"[data-testid=seat-kind-{i}]", "person")
        host.click("[data-testid=create]")
        host.wait_for_selector("[data-testid=created]:not([hidden])", timeout=60_000)
        links = host.eval_on_selector_all(".invite-link", "(els) => els.map((e) => e.value)")
        assert len(links) == 2
        guest = contexts[1].new_page()
        errors.append(PageErrors(guest))
        pages = [host, guest]
        for page, link in zip(pages, links, strict=True):
            page.goto(link)
            page.wait_for_selector("[data-testid=hand] .hand-card", timeout=60_000)
            assert set_name in page.inner_text("[data-testid=uploaded-decks]")
        st = page_state(host)
        assert st is not None
        summary = host.evaluate("() => fetch(location.pathname.replace('/table/', '/api/tables/'))"
                                ".then((r) => r.json())")
        assert summary["options"]["response_pause_ms"] == 3000
        # the gallery opens from the table, on every seat's page
        with guest.expect_popup() as popup:
            guest.click(f"[data-testid=gallery-{key}]")
        gallery = popup.value
        gallery.wait_for_selector("[data-testid=deck-name]", timeout=60_000)
        assert gallery.inner_text("[data-testid=deck-name]") == set_name
        gallery.wait_for_selector(".gallery-card")
        assert modifier in gallery.content()
        gallery.close()
        made = play_to_the_end(pages, random.Random(7))
        assert made > 10
        for page in pages:
            page.wait_for_selector("[data-testid=end]:not([hidden])", timeout=30_000)
        cards = host.evaluate("() => fetch(location.pathname.replace('/table/', '/api/tables/') + '/cards')"
                              ".then((r) => r.json())")
        assert character in {c.get("name") for c in cards["cards"]}
        for e in errors:
            e.check()
    finally:
        for ctx in contexts:
            ctx.close()
