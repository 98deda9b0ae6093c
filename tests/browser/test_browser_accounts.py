"""Accounts in Chromium (issue 31): two people sign up in the lobby's account panel,
one resumes her seat from "My games", they play a rated game of Crazy Creatures to
the end (moves sent through each page's own socket), both see both ratings move on
the end screen and on their profiles (with the chart), the finished game opens from
the history, and axe-core finds nothing serious on the panel, the end screen, the
profile or the leaderboard."""

from __future__ import annotations

import time
from typing import Any

import pytest

from conftest import PageErrors
from gloomtable.server.testing import ServerProcess

PASSWORD = "correct horse 42"


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


def act_if_asked(page: Any) -> bool:
    """Send the first choice through the page's socket if it decides now; True once over."""
    return bool(page.evaluate("""() => {
      const p = window.gloomtablePage, m = p && p.msg;
      if (!m) return false;
      if (m.over) return true;
      if (m.choices.length && p.sentFor !== m.state_id) {
        p.sentFor = m.state_id;
        p.socket.send({ type: "act", action: m.choices[0].action, state_id: m.state_id });
      }
      return false;
    }"""))


@pytest.mark.slow
def test_a_rated_game_between_two_accounts_in_the_browser(browser: Any, server: ServerProcess) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    try:
        ada, bo = (ctx.new_page() for ctx in contexts)
        errors = [PageErrors(ada), PageErrors(bo)]
        sign_up(ada, server.url, "ada_b")
        assert serious_violations(ada) == []
        sign_up(bo, server.url, "bo_b")
        table = ada.evaluate("""async () => {
          const me = await (await fetch("/api/account")).json();
          const r = await fetch("/api/tables", { method: "POST",
            headers: { "Content-Type": "application/json", "X-CSRF-Token": me.csrf },
            body: JSON.stringify({ game: "creatures", seats: [
              { kind: "person", name: "Ada" }, { kind: "person", name: "Bo" }] }) });
          return await r.json();
        }""")
        # Ada takes her seat from "My games", without the link
        ada.reload()
        ada.get_by_test_id(f"resume-{table['id']}").click()
        ada.wait_for_url(f"**/table/{table['id']}*")
        ada.wait_for_function("() => window.gloomtablePage && window.gloomtablePage.msg")
        assert ada.evaluate("() => window.gloomtablePage.msg.seat") == 0
        bo.goto(server.url + table["invites"][1]["link"])  # Bo by his invite: recorded at seat 1
        bo.wait_for_function("() => window.gloomtablePage && window.gloomtablePage.msg")
        deadline = time.monotonic() + 180
        while not all([act_if_asked(ada), act_if_asked(bo)]):  # both pages, every round
            assert time.monotonic() < deadline, "the game did not end"
            ada.wait_for_timeout(20)
        for page in (ada, bo):  # the end screen shows both ratings moving
            page.wait_for_selector("[data-testid=rating-changes] li >> nth=1")
            text = page.get_by_test_id("rating-changes").inner_text()
            assert "ada_b" in text and "bo_b" in text and "\u2192" in text
            assert page.get_by_test_id("seat-rating-0").count() == 1
        assert serious_violations(ada) == []
        ratings = []
        for page, name in ((ada, "ada_b"), (bo, "bo_b")):
            page.goto(f"{server.url}/players/{name}")
            page.wait_for_selector("[data-testid=rating-creatures]")
            ratings.append(int(page.get_by_test_id("rating-creatures").inner_text()))
            assert page.locator("svg.rating-chart circle").count() == 1
            assert serious_violations(page) == []
        assert ratings != [0, 0]  # a new account shows 0; one game moved both
        # the finished game opens from the history
        bo.get_by_test_id(f"replay-{table['id']}").click()
        bo.wait_for_url(f"**/table/{table['id']}")
        bo.wait_for_function("() => window.gloomtablePage && window.gloomtablePage.msg "
                             "&& window.gloomtablePage.msg.over")
        bo.goto(f"{server.url}/leaderboard/creatures")
        bo.wait_for_selector("[data-testid=leaderboard] li")
        rows = bo.locator("[data-testid=leaderboard] li").all_inner_texts()
        assert {x.strip().split(" ")[0] for x in rows} == {"ada_b", "bo_b"}
        assert serious_violations(bo) == []
        for e in errors:
            e.check()
    finally:
        for ctx in contexts:
            ctx.close()
