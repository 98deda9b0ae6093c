"""Gloom in the browser: a 3-seat table with 2 bots, created in the lobby and
played by clicks to the end; the stack viewer; a spectator sees no hand."""

from __future__ import annotations

import json
import random
import time
from typing import Any

from conftest import (
    PageErrors,
    click_any_choice,
    create_in_lobby,
    frames_of,
    page_state,
    play_by_clicks,
    wait_my_turn_or_end,
)
from gloomtable.server.testing import ServerProcess


def test_three_seat_gloom_with_two_bots_played_by_clicks_to_the_end(server: ServerProcess,
                                                                    context: Any) -> None:
    page = context.new_page()
    errors = PageErrors(page)
    create_in_lobby(page, server.url, "gloom", seats=3, bots=2, seed=21)
    page.click("[data-testid=take-seat-0]")
    page.wait_for_selector("[data-testid=hand] .hand-card")
    rng = random.Random(5)
    made = play_by_clicks(page, rng, decisions=14)
    assert wait_my_turn_or_end(page), "the game should still be on"  # the table holds still now
    page.wait_for_selector(".character .stack-wrap svg")
    # look through a stack layer by layer: fewer layers drawn, then all again
    char = page.locator(".character:has(.layer-down:not([disabled]))").first.get_attribute("data-char")
    assert char is not None, "after 14 decisions some Character has a Modifier"
    stack = page.locator(f".character[data-char='{char}']")
    layers = int(stack.locator("svg.stack").get_attribute("data-layers") or "0")
    stack.locator(".layer-down").click()
    assert int(stack.locator("svg.stack").get_attribute("data-layers") or "0") == layers - 1
    assert stack.locator(".layer-pos").inner_text() == f"layer {layers - 1} of {layers}"
    stack.locator(".layer-up").click()
    assert int(stack.locator("svg.stack").get_attribute("data-layers") or "0") == layers
    # choosing a card lights up exactly its legal targets
    targeted: list[int] = []
    for _ in range(40):  # decide on until a play on a Character is among the choices
        assert wait_my_turn_or_end(page)
        state = page_state(page)
        assert state is not None
        targeted = sorted({c["card"] for c in state["choices"] if c.get("kind") == "play"})
        if targeted:
            break
        click_any_choice(page, rng)
        made += 1
    assert targeted
    for card in targeted:
        page.click(f".hand-card[data-card='{card}']")
        lit = {int(x) for x in page.eval_on_selector_all(".character.target",
                                                          "els => els.map(e => e.dataset.char)")}
        assert lit == {c["target"] for c in state["choices"] if c.get("kind") == "play" and c["card"] == card}
        page.click(f".hand-card[data-card='{card}']")  # and a second click puts it back
        assert page.locator(".character.target").count() == 0
    # a play by clicks, with a line of narration (R-G27) that the log then shows as text
    page.fill("[data-testid=narration]", "It was a <b>dark</b> and stormy night.")
    page.click(f".hand-card[data-card='{targeted[0]}']")
    page.locator(".character.target").first.click()
    page.wait_for_selector(".log-entry.narration:has-text('It was a <b>dark</b> and stormy night.')")
    made += 1
    made += play_by_clicks(page, rng)
    page.wait_for_selector("[data-testid=final-values]")
    state = page_state(page)
    assert state is not None and state["over"]
    values = {f["player"]: f["family_value"] for f in state["view"]["families"]}
    for p, v in values.items():
        assert page.inner_text(f"[data-testid=final-value-{p}]") == str(v)
    assert page.locator("[data-testid=winner]").inner_text().startswith("Winner")
    assert state["view"]["result"]["scores"] == [values[p] for p in range(3)]
    page.evaluate("window.scrollTo(0, 0)")
    # play again with the same seats: this page follows to the new table, in the same seat
    old_url = page.url
    page.click(".play-again")
    page.wait_for_url(lambda url: url != old_url and "/table/" in url)
    page.wait_for_selector("[data-testid=hand] .hand-card")
    again = page_state(page)
    assert again is not None and again["seat"] == 0 and not again["over"]
    assert [s["kind"] for s in again["seats"]] == ["person", "bot", "bot"]
    errors.check()
    assert made > 0


def test_join_an_open_table_from_the_lobby(server: ServerProcess, context: Any, browser: Any) -> None:
    page = context.new_page()
    errors = PageErrors(page)
    # seat 0 is open (anyone may Join it); a fixed deal is never listed, so the deal is random
    create_in_lobby(page, server.url, "gloom", seats=3, bots=1, seed=None,
                    extra={"[data-testid=seat-kind-0]": "open"})
    other = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        guest = other.new_page()
        guest.goto(server.url + "/")
        guest.fill("[data-testid=your-name]", "Ghost of Christmas Past")
        guest.click("[data-testid=refresh]")
        guest.locator(".table-row button.join").first.click()
        guest.wait_for_selector("[data-testid=hand] .hand-card")
        st = page_state(guest)
        assert st is not None and st["seat"] == 0
        guest.wait_for_function("() => window.gloomtablePage.msg.seats[0].name === 'Ghost of Christmas Past'")
    finally:
        other.close()
    errors.check()


def test_spectator_sees_no_hand(server: ServerProcess, context: Any) -> None:
    page = context.new_page()
    errors = PageErrors(page)
    create_in_lobby(page, server.url, "gloom", seats=3, bots=3, seed=3)
    href = page.get_attribute("[data-testid=spectate-link]", "href")
    watcher = context.new_page()
    frames = frames_of(watcher)
    watcher.goto(server.url + href)
    watcher.wait_for_function("() => window.gloomtablePage && window.gloomtablePage.msg"
                              " && window.gloomtablePage.msg.state_id > 3")
    assert watcher.locator(".hand-card").count() == 0
    assert "Spectators see no hands." in watcher.inner_text("[data-testid=hand]")
    assert watcher.locator(".prompt:not([hidden])").count() == 0
    states = [f for f in frames if '"type":"state"' in f]
    assert states and all('"hand":null' in f for f in states)
    # the page asks for deltas: after its first state, patches, none of which gives it a hand
    patches = [json.loads(f) for f in frames if '"type":"patch"' in f]
    assert patches and not any(op["path"].split("/")[:3] == ["", "view", "hand"]
                               and op.get("value") is not None for p in patches for op in p["ops"])
    assert watcher.evaluate("() => window.gloomtablePage.msg.view.hand") is None
    # a page out of step (its patches no longer follow what it holds) asks for the whole state
    # (a patch that does not follow the page's last state: as if one went missing)
    assert not watcher.evaluate("""() => { const s = window.gloomtablePage.socket;
        s.ws.onmessage({ data: JSON.stringify({ type: "patch", base: s.rev + 5, rev: s.rev + 6, ops: [] }) });
        return window.gloomtablePage.msg.resync; }""")
    # the answer is a whole state marked resync; the bots' next patch may replace the page's
    # message before a poll of it sees the mark, so wait for the frame itself
    deadline = time.monotonic() + 60
    while not any('"resync":true' in f for f in frames):
        assert time.monotonic() < deadline, "no resync answer reached the page"
        watcher.wait_for_timeout(50)  # lets the page's websocket events reach `frames`
    errors.check()
