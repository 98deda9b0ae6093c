"""One response pause per card, for everyone at once (issue 30; R-G20's online
decision): every other seat's page shows the window at the same moment, the table
waits one fixed pause, and nothing on a page tells whether its hand held a response."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx

from conftest import PageErrors, click_any_choice, page_state
from gloomtable.server.testing import ServerProcess
from scale import scaled

PAUSE_MS = 500
"""The table's response pause: the least a table may have (server/options.py), so the
windows that run it out cost the suite as little as they can."""
WINDOWS = scaled(20, 0)
"""Windows run out after which the suite ends the five-seat game, once the person's hand
has held a response in one of them and none in another; 0, in the soak
(``scripts/soak.py``): the game is played to its end."""


def enough(wins: list[dict[str, Any]]) -> bool:
    """Whether WINDOWS windows ran their pause out, with and without a response in hand."""
    out = [w for w in wins if not w["answered"] and w["closed"] is not None]
    return len(out) >= WINDOWS and {w["hold"] for w in out} == {True, False}

RECORD = """() => {
  const p = window.gloomtablePage;
  if (p.__recording) return;
  p.__recording = true;
  window.__states = [];
  const orig = p.onMessage.bind(p);
  p.onMessage = (m) => {
    if (m.type === "state") {
      window.__states.push({ t: Date.now(), id: m.state_id, window: m.window || null,
        asked: !!(m.window && m.window.seats.includes(m.seat)),
        hold: (m.choices || []).some((c) => c.kind === "respond"), log: m.log.map((e) => e.text) });
    }
    orig(m);
    if (m.type === "state" && m.window && !m.window.answered) {
      const hint = document.querySelector("[data-testid=prompt] .hint");
      window.__states[window.__states.length - 1].prompt = [
        document.querySelector("[data-testid=turn-line] strong").textContent, hint ? hint.textContent : null,
        !document.querySelector("[data-testid=prompt]").hidden];
    }
  };
}"""


def open_page(browser: Any, url: str) -> tuple[Any, Any]:
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    ctx.set_default_timeout(30_000)
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_function("() => window.gloomtablePage && window.gloomtablePage.msg")
    page.evaluate(RECORD)
    return ctx, page


def in_window(st: dict[str, Any]) -> bool:
    return bool(st.get("window"))


def own_decision(page: Any) -> tuple[dict[str, Any], bool]:
    """The page's state, and whether it asks for a decision of the seat's own that is no
    response window, read in one go (a window may open between two reads)."""
    st, ready = page.evaluate("""() => { const m = window.gloomtablePage.msg;
      return [m, !m.window && !!document.querySelector('.prompt:not([hidden]):not(.pending)')]; }""")
    return st, bool(ready)


def windows_of(states: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each response window a page was asked in: when it showed, its state, whether the hand held a
    response, what the page said, and when the next state came (the window closed)."""
    out = []
    for i, s in enumerate(states):
        if s["asked"] and not s["window"]["answered"] and (i == 0 or states[i - 1]["id"] != s["id"]):
            after = next((n for n in states[i + 1:] if n["id"] != s["id"]), None)
            answered = any(n["id"] == s["id"] and n["window"] and n["window"]["answered"] for n in states)
            out.append({"id": s["id"], "shown": s["t"], "hold": s["hold"], "prompt": s.get("prompt"),
                        "ends": s["window"]["ends"] * 1000,
                        "opened": s["window"]["opened"] * 1000,
                        "answered": answered,
                        "closed": after["t"] if after else None,
                        "next_window": bool(after and after["window"])})
    return out


def test_gloomier_one_person_four_bots_meets_one_fixed_pause_per_card(
        server: ServerProcess, browser: Any) -> None:
    """Gloomier, 5 seats, one person and four bots (R-G20): one window per card played,
    each of the table's one fixed length; no "lets it stand" line; windows with and
    without a response in hand show the same prompts for the same time. The suite stops
    once WINDOWS windows ran out, some with a response in hand and some without (every
    card played opens one, so part of the game shows each property); the soak plays the
    game to its end."""
    t = httpx.post(server.url + "/api/tables", json={
        "game": "gloomier", "seats": [{"kind": "person"}] + [{"kind": "bot"}] * 4,
        # seed 3 deals the person a response card (one of Gloomier's four): windows with and
        # without an answer in hand come from the first cards on
        "bot_delay_ms": 20, "response_pause_ms": PAUSE_MS, "seed": 3}).json()
    ctx, page = open_page(browser, server.url + t["invites"][0]["link"])
    try:
        errors = PageErrors(page)
        rng = random.Random(3)
        for _ in range(2000):
            st, ready = own_decision(page)
            if st["over"]:
                break
            if not ready:
                page.wait_for_timeout(30)  # the person never answers: every window runs its pause
                continue
            if WINDOWS and enough(windows_of(page.evaluate("() => window.__states"))):
                break  # the person's own turn: no window is open
            before = st["state_id"]
            click_any_choice(page, rng)
            page.wait_for_function(f"() => window.gloomtablePage.msg.state_id !== {before} "
                                   "|| window.gloomtablePage.msg.window")
        else:
            raise AssertionError("the game did not end")
        states = page.evaluate("() => window.__states")
        wins = windows_of(states)
        assert len(wins) >= 10, len(wins)
        assert len({w["id"] for w in wins}) == len(wins), "one window per card played"
        assert not any(w["next_window"] for w in wins), "windows never follow one another"
        # a click the test aimed at the person's own decision may land in a window that
        # opened meanwhile: such an answered window ends early, by the person's answer
        assert sum(w["answered"] for w in wins) <= 3
        wins = [w for w in wins if not w["answered"] and w["closed"] is not None]
        # The table's clock: every window lasts the one pause, and no page hears of its
        # close before that pause ran out. (This 2-core machine, shared and loaded, may
        # hand a page its messages late: delivery is bounded loosely, by the median.)
        assert all(abs(w["ends"] - w["opened"] - PAUSE_MS) < 2 for w in wins)
        closing = sorted(w["closed"] - w["ends"] for w in wins)
        assert closing[0] >= -50, closing
        assert closing[len(closing) // 2] <= 700, closing
        assert all(w["shown"] < w["closed"] for w in wins)
        holding = [w for w in wins if w["hold"]]
        empty = [w for w in wins if not w["hold"]]
        assert holding and empty, (len(holding), len(empty))  # the deal gives both
        assert {tuple(w["prompt"]) for w in holding} == {tuple(w["prompt"]) for w in empty}
        for group in (holding, empty):  # held or not, the same pause closes it
            assert min(w["closed"] - w["ends"] for w in group) >= -50
        log = [line for s in states for line in s["log"]]
        assert log and not any("lets it stand" in line for line in log)
        shown_log = page.locator("[data-testid=log] li").all_inner_texts()
        assert not any("lets it stand" in line for line in shown_log)
        errors.check()
    finally:
        ctx.close()


def test_two_people_see_an_event_s_window_at_once_for_one_pause(server: ServerProcess, browser: Any) -> None:
    """Three people at Gloom: when one plays a card that can be answered, both others see
    the window within 200 ms of each other, and it closes after one pause, not one per seat."""
    t = httpx.post(server.url + "/api/tables", json={
        "game": "gloom", "seats": [{"kind": "person"}] * 3, "response_pause_ms": PAUSE_MS * 2,
        "seed": 12}).json()
    opened = [open_page(browser, server.url + t["invites"][i]["link"]) for i in range(3)]
    pages = [p for _c, p in opened]
    try:
        rng = random.Random(8)
        seen = 0
        deadline = time.monotonic() + 180
        while seen < 3 and time.monotonic() < deadline:
            acted = False
            for page in pages:
                st, ready = own_decision(page)
                assert not st["over"]
                if not ready:
                    continue
                before = st["state_id"]
                click_any_choice(page, rng)
                page.wait_for_function(f"() => window.gloomtablePage.msg.state_id !== {before}")
                acted = True
                if page_state(page).get("window"):  # the card just played opened a window
                    others = [p for p in pages if p is not page]
                    for p in pages:
                        p.wait_for_function("() => !window.gloomtablePage.msg.window", timeout=10_000)
                    wins = [[w for w in windows_of(p.evaluate("() => window.__states"))
                             if w["id"] == before + 1] for p in others]
                    assert all(len(w) == 1 for w in wins), wins
                    shown = [w[0]["shown"] for w in wins]
                    closed = [w[0]["closed"] for w in wins]
                    assert max(shown) - min(shown) <= 200, shown
                    assert max(closed) - min(closed) <= 200, closed
                    # One pause, not one per seat, by the table's clock: the window lasts the
                    # one pause, and no page hears of its close before that pause ran out (a
                    # loaded machine may show a page its window late, so the time between the
                    # page's own two moments is not the measure)
                    w0 = [w[0] for w in wins]
                    assert all(abs(w["ends"] - w["opened"] - 2 * PAUSE_MS) < 2 for w in w0), w0
                    assert all(-50 <= w["closed"] - w["ends"] <= 600 for w in w0), w0
                    assert wins[0][0]["prompt"] == wins[1][0]["prompt"]
                    seen += 1
                break
            if not acted:
                pages[0].wait_for_timeout(30)
        assert seen == 3, seen
    finally:
        for ctx, _p in opened:
            ctx.close()
