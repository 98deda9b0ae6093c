"""Accounts in Chromium (issue 31): two people sign up in the lobby's account panel;
one signs in again on a second browser (her phone) and takes her seat there from
"My games" without the link; they play a rated game of Crazy Creatures to the end by
clicks in their pages; both see both ratings move on the end screen and on their
profiles (with the chart); the finished game opens from the history; the lobby's
listing shows a rating beside a name; signing out everywhere from the phone signs
the laptop out too; and axe-core finds nothing serious on the panel, the end screen,
the profile, the leaderboard or the listing.

The game is the shortest a rated one can be: two people, one round of Crazy Creatures
(about 23 decisions in all), created from the signed-in page through the API (the
lobby's form has no rounds field). A fixed deal would leave it unrated, so the deal
is random and the clicks follow whatever the pages ask."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from conftest import MAX_DECISIONS, PageErrors, click_any_choice, page_state
from gloomtable.server.testing import ServerProcess

PASSWORD = "correct horse 42"
GAME_SECONDS = 600
"""The whole game by clicks at most (it takes well under a minute on a quiet machine)."""
WAIT_MS = 60_000
"""Any one page event at most (a busy machine shares two cores with other runs)."""


def serious_violations(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:4]}"
            for v in found if v.get("impact") in ("serious", "critical")]


def sign_up(page: Any, base: str, name: str) -> None:
    page.goto(base + "/")
    page.get_by_label("User name").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_test_id("sign-up").click()
    page.wait_for_selector("[data-testid=sign-out]")
    assert name in page.get_by_test_id("account").inner_text()


def sign_in(page: Any, base: str, name: str) -> None:
    page.goto(base + "/")
    page.get_by_label("User name").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_test_id("sign-in").click()
    page.wait_for_selector("[data-testid=sign-out]")


def asked(page: Any) -> bool:
    """The page shows this seat a decision to make (its prompt drawn, nothing pending)."""
    st = page_state(page)
    return bool(st and not st["over"] and st["deciding"] == st["seat"] and st["choices"]
                and page.locator(".prompt:not([hidden]):not(.pending)").count())


def over(page: Any) -> bool:
    st = page_state(page)
    return bool(st and st["over"])


def play_both_by_clicks(pages: list[Any], rng: random.Random) -> int:
    """Whichever page is asked clicks one legal option, and waits until its page shows
    the next state; until both pages show the game over. The decisions made."""
    made, deadline = 0, time.monotonic() + GAME_SECONDS
    while not all(over(p) for p in pages):
        assert time.monotonic() < deadline and made < MAX_DECISIONS, f"not over after {made} decisions"
        page = next((p for p in pages if asked(p)), None)
        if page is None:  # the other page's state is on its way: wait a little, then look again
            pages[0].wait_for_timeout(50)
            continue
        before = page_state(page)["state_id"]
        click_any_choice(page, rng)
        page.wait_for_function(f"() => window.gloomtablePage.msg.state_id > {before}", timeout=WAIT_MS)
        made += 1
    return made


def rating_moves(page: Any) -> dict[str, tuple[int, int]]:
    """The end screen's "name: rating before → after" lines."""
    lines = page.locator("[data-testid=rating-changes] li").all_inner_texts()
    found = [re.match(r"(\S+): \D*(-?\d+) \u2192 (-?\d+)", x.strip()) for x in lines]
    assert all(found), lines
    return {m.group(1): (int(m.group(2)), int(m.group(3))) for m in found if m}


@pytest.mark.slow  # about 20 s
def test_a_rated_game_between_two_accounts_in_the_browser(browser: Any, server: ServerProcess) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}),
                browser.new_context(viewport={"width": 390, "height": 844}),  # Ada's phone
                browser.new_context(viewport={"width": 1280, "height": 900})]
    try:
        for ctx in contexts:
            ctx.set_default_timeout(WAIT_MS)
        laptop, ada, bo = (ctx.new_page() for ctx in contexts)
        errors = [PageErrors(p) for p in (laptop, ada, bo)]
        sign_up(laptop, server.url, "ada_b")
        assert serious_violations(laptop) == []
        sign_up(bo, server.url, "bo_b")
        table = laptop.evaluate("""async () => {
          const me = await (await fetch("/api/account")).json();
          const r = await fetch("/api/tables", { method: "POST",
            headers: { "Content-Type": "application/json", "X-CSRF-Token": me.csrf },
            body: JSON.stringify({ game: "creatures", config: { players: 2, rounds: 1 }, seats: [
              { kind: "person", name: "Ada" }, { kind: "person", name: "Bo" }] }) });
          return await r.json();
        }""")
        assert table["options"].get("rated", True) and not table["fixed_deal"], table
        # on her phone Ada signs in and takes her seat from "My games", without the link
        sign_in(ada, server.url, "ada_b")
        ada.get_by_test_id(f"resume-{table['id']}").click()
        ada.wait_for_url(f"**/table/{table['id']}*")
        ada.wait_for_function("() => window.gloomtablePage && window.gloomtablePage.msg")
        assert page_state(ada)["seat"] == 0
        bo.goto(server.url + table["invites"][1]["link"])  # Bo by his invite: recorded at seat 1
        bo.wait_for_function("() => window.gloomtablePage && window.gloomtablePage.msg")
        assert page_state(bo)["seat"] == 1
        made = play_both_by_clicks([ada, bo], random.Random(31))
        assert made >= 2
        moves = []
        for page in (ada, bo):  # the end screen shows both ratings moving
            page.wait_for_selector("[data-testid=rating-changes] li >> nth=1")
            moved = rating_moves(page)
            assert set(moved) == {"ada_b", "bo_b"}
            assert all(before == 0 and after != before for before, after in moved.values()), moved
            toggle = page.get_by_test_id("log-toggle")
            if page.locator("[data-testid=seats]").is_hidden() and toggle.is_visible():
                toggle.click()  # a phone folds the seats away with the log: open them
            for seat, name in enumerate(("ada_b", "bo_b")):  # and beside each seat's name
                page.wait_for_selector(f"[data-testid=seat-rating-{seat}]")
                assert str(moved[name][1]) in page.get_by_test_id(f"seat-rating-{seat}").inner_text()
            moves.append(moved)
        assert moves[0] == moves[1]
        assert serious_violations(ada) == []
        for page, name in ((ada, "ada_b"), (bo, "bo_b")):  # the profile shows the same
            page.goto(f"{server.url}/players/{name}")
            page.wait_for_selector("[data-testid=rating-creatures]")
            assert int(page.get_by_test_id("rating-creatures").inner_text()) == moves[0][name][1]
            assert page.locator("svg.rating-chart circle").count() == 1
            assert serious_violations(page) == []
        # the finished game opens from the history
        bo.get_by_test_id(f"replay-{table['id']}").click()
        bo.wait_for_url(f"**/table/{table['id']}")
        bo.wait_for_function("() => window.gloomtablePage && window.gloomtablePage.msg "
                             "&& window.gloomtablePage.msg.over")
        bo.wait_for_selector("[data-testid=end]:not([hidden])")
        bo.goto(f"{server.url}/leaderboard/creatures")
        bo.wait_for_selector("[data-testid=leaderboard] li")
        rows = bo.locator("[data-testid=leaderboard] li").all_inner_texts()
        assert {x.strip().split(" ")[0] for x in rows} == {"ada_b", "bo_b"}
        assert serious_violations(bo) == []
        # a listed table from the lobby's form: the listing shows Ada's rating beside her name
        ada.goto(server.url + "/")
        ada.select_option("[data-testid=game]", "creatures")
        ada.select_option("[data-testid=players]", "2")
        ada.select_option("[data-testid=seat-kind-0]", "person")
        ada.select_option("[data-testid=seat-kind-1]", "open")
        ada.fill("[data-testid=seat-name-0]", "Ada")
        ada.get_by_test_id("listed").check()
        ada.click("[data-testid=create]")
        ada.wait_for_selector("[data-testid=created]:not([hidden])")
        bo.goto(server.url + "/")
        shown = bo.locator("[data-testid=table-list] [data-testid=listing-rating-0]")
        shown.wait_for()
        assert str(moves[0]["ada_b"][1]) in shown.inner_text()
        assert bo.locator("[data-testid=table-list] [data-testid=listing-rating-1]").count() == 0  # open seat
        assert serious_violations(bo) == []
        # signing out everywhere from the phone: the laptop is signed out too
        ada.goto(server.url + "/")
        ada.get_by_test_id("sign-out-everywhere").click()
        ada.wait_for_selector("[data-testid=sign-up]")
        laptop.goto(server.url + "/")
        laptop.wait_for_selector("[data-testid=sign-up]")
        assert laptop.get_by_test_id("sign-out").count() == 0
        for e in errors:
            e.check()
    finally:
        for ctx in contexts:
            ctx.close()
