"""The card gallery in a real Chromium: the classic set and a user's deck, as the
self-contained file ``gloom deck gallery`` writes and as the app's ``/gallery``
page; the stack builder shows what the engine's cardinal rule says (R-G4).
Screenshots go to docs/screenshots/gallery-*.png."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from conftest import shoot
from gloomtable.designer.starter import write_starter
from gloomtable.games.gloom.cards import visible
from gloomtable.games.gloom.deck import load_deck
from gloomtable.server.testing import ServerThread

GLOOM = [sys.executable, "-m", "gloomtable.cli.main"]
STACK = ["lord-slogar", "swallowed-a-suspicious-oyster", "went-down-the-well-after-a-hat"]


@pytest.fixture(scope="module")
def designer_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with ServerThread(tmp_path_factory.mktemp("server") / "tables.db") as srv:
        yield srv.url


def write(paths: list[str], out: Path) -> Path:
    proc = subprocess.run([*GLOOM, "deck", "gallery", *paths, "--out", str(out)], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return out


def open_page(browser, url: str, offline: bool = False):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    if offline:  # a self-contained page must not need anything but itself
        page.route("http*://**", lambda route: (errors.append(f"request {route.request.url}"), route.abort()))
    page.goto(url)
    page.wait_for_selector(".gallery-card")
    return page, errors


def expected_regions(stack_keys: list[str]) -> tuple[list[str | None], int]:
    deck = load_deck("classic")
    by_key = {c.key: c for c in deck.cards}
    cards = [by_key[k] for k in stack_keys]
    v = visible(cards)
    names = [None if pos < 0 else cards[pos].name for pos in v.shown_by]
    return names, v.self_worth


def test_classic_gallery_file_draws_every_card_and_the_stack_as_the_engine_sees_it(browser, tmp_path) -> None:
    path = write(["classic"], tmp_path / "classic.html")
    page, errors = open_page(browser, f"{path.as_uri()}#stack={','.join(STACK)}", offline=True)
    assert page.locator(".gallery-card").count() == 20 + 57 + 11 + 20
    assert page.locator(".gallery-card svg").count() == 108
    assert page.get_by_test_id("deck-name").inner_text() == "Gloom: the classic set"
    names, worth = expected_regions(STACK)
    for region, name in enumerate(names):
        cell = page.get_by_test_id(f"region-{region}").inner_text()
        assert cell == (name if name is not None else "nothing: see-through"), region
    assert page.get_by_test_id("stack-self-worth").inner_text() == (f"+{worth}" if worth > 0 else str(worth))
    assert page.locator(".stack-view svg .card-layer").count() == len(STACK)
    shoot(page, "gallery-classic")
    # look through the stack: one layer fewer, the engine's answer for the shorter stack
    page.get_by_test_id("upto").fill("2")
    names2, worth2 = expected_regions(STACK[:2])
    assert page.get_by_test_id("stack-self-worth").inner_text() == str(worth2)
    assert page.get_by_test_id("region-0").inner_text() == (names2[0] or "nothing: see-through")
    assert not errors, errors
    page.close()


def test_a_user_deck_gallery_file(browser, tmp_path) -> None:
    deck_path = write_starter("Rainy Day", tmp_path)
    path = write([str(deck_path)], tmp_path / "rainy.html")
    page, errors = open_page(browser, path.as_uri(), offline=True)
    assert page.get_by_test_id("deck-name").inner_text() == "Rainy Day"
    assert page.locator(".gallery-card").count() == 6 + 12 + 3 + 6
    assert page.locator('.gallery-family[data-family="rainy-day-puddleby"] .gallery-card').count() == 3
    # build a stack by clicking: a Character, then two Modifiers
    page.get_by_test_id("card-rainy-day-aunt-drizzle").click()
    page.get_by_test_id("card-rainy-day-lost-an-umbrella").click()
    page.get_by_test_id("card-rainy-day-was-rained-on").click()
    by_key = {c.key: c for c in load_deck(deck_path).cards}
    v = visible([by_key[f"rainy-day-{k}"] for k in ("aunt-drizzle", "lost-an-umbrella", "was-rained-on")])
    assert page.get_by_test_id("stack-self-worth").inner_text() == str(v.self_worth) == "-20"
    assert page.get_by_test_id("stack-icons").inner_text() == ", ".join(v.icons) == "umbrella, umbrella"
    assert page.get_by_test_id("region-3").inner_text() == "Was Rained On"
    assert page.get_by_test_id("region-5").inner_text() == "Lost an Umbrella"  # its blank hides nothing here
    assert page.get_by_test_id("region-6").inner_text() == "Lost an Umbrella"  # the text plate
    shoot(page, "gallery-user-deck", full_page=False)
    assert not errors, errors
    page.close()


def test_the_app_serves_the_gallery_and_opens_a_deck_file(browser, designer_server, tmp_path) -> None:
    page, errors = open_page(browser, f"{designer_server}/gallery?deck=classic")
    assert page.locator(".gallery-card").count() == 108
    counts = page.get_by_test_id("deck-counts").inner_text()
    assert counts == "20 Characters, 57 Modifiers, 11 Events, 20 Untimely Deaths", counts  # the shipped set
    page.get_by_test_id("card-lord-slogar").click()
    page.get_by_test_id("card-swallowed-a-suspicious-oyster").click()
    assert page.locator(".stack-view svg .card-layer").count() == 2
    assert "#stack=lord-slogar%2Cswallowed-a-suspicious-oyster" in page.url
    # a user's deck file, opened from disk and drawn by the same renderer
    deck_path = write_starter("Rainy Day", tmp_path)
    page.get_by_test_id("deck-file").set_input_files(str(deck_path))
    page.wait_for_function("() => document.querySelector('[data-testid=deck-name]').textContent"
                           " === 'Rainy Day'")
    assert page.locator(".gallery-card").count() == 27
    # a broken deck file: every problem is listed, the page keeps working
    bad = tmp_path / "bad.toml"
    bad.write_text(deck_path.read_text().replace('name = "Was Rained On"', 'name = ""'))
    page.get_by_test_id("deck-file").set_input_files(str(bad))
    page.wait_for_selector("[data-testid=problems]")
    assert "was-rained-on" in page.get_by_test_id("problems").inner_text()
    assert page.locator(".gallery-card").count() == 27  # the last good deck stays on show
    refused = "Failed to load resource: the server responded with a status of 400"
    assert [e for e in errors if not e.startswith(refused)] == [], errors
    page.close()
    assert httpx.get(f"{designer_server}/api/gallery/no-such-set").status_code == 404
    # a set that is not a Gloom deck: the page says so, and counts nothing
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{designer_server}/gallery?deck=creatures")
    page.wait_for_selector("[data-testid=problems]")
    assert "creatures" in page.get_by_test_id("problems").inner_text()
    assert page.get_by_test_id("deck-counts").count() == 0
    assert "0 Characters" not in page.inner_text("body")
    page.close()
