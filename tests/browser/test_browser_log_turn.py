"""Issue 30, the page's side, in a real Chromium against a real server: the log's
newest line stays in view after every move (1366x768 and 390x844) unless the reader
scrolled up, when a "new lines" marker shows; a hidden page's title and favicon say
"your turn" while the seat must decide and change back after; Crazy Creatures' end
screen shows every total at 390x844 without a sideways scroll and the end panel lists
every player's total; hand cards are at least 96 px wide on a laptop and 72 on a
phone; the Gloomier draft shows its candidates as zoomable cards; a zoom never covers
the decision bar or the seats.

Set GLOOM_PAGE_SHOTS=<dir> to keep the screenshots these tests take."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from test_table_ui import serious_violations

from conftest import PageErrors, click_any_choice, page_at, page_state, shot, wait_my_turn_or_end
from gloomtable.server.testing import LiveServer, ServerThread

SIZES = {"laptop": (1366, 768), "phone": (390, 844)}
MIN_HAND_PX = {"laptop": 96, "phone": 72}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with ServerThread(tmp_path_factory.mktemp("page") / "tables.db") as srv:
        yield srv


def new_table(server: LiveServer, game: str, players: int, seed: int, *, delay: int = 10,
              **options: Any) -> dict[str, Any]:
    seats = [{"kind": "person", "name": "Ada"}]
    seats += [{"kind": "bot", "name": f"Bot {i}", "level": "medium"} for i in range(1, players)]
    r = httpx.post(server.url + "/api/tables", json={"game": game, "seats": seats, "seed": seed,
                                                     "bot_delay_ms": delay, **options})
    assert r.status_code in (200, 201), r.text
    return dict(r.json())


NEWEST_IN_VIEW = """() => {
  const log = document.querySelector('[data-testid=log]');
  const last = log.lastElementChild;
  if (!last) return {ok: false, why: 'no lines'};
  const r = last.getBoundingClientRect(), l = log.getBoundingClientRect();
  const ok = r.height > 0 && r.top >= l.top - 1 && r.bottom <= l.bottom + 1 && r.top >= 0
    && r.bottom <= innerHeight + 1;
  return {ok, line: [r.top, r.bottom], list: [l.top, l.bottom], vh: innerHeight};
}"""


def open_log(page: Any) -> None:
    if page.get_attribute("[data-testid=log-toggle]", "aria-expanded") != "true":
        page.click("[data-testid=log-toggle]")
    page.wait_for_selector("[data-testid=side-panel]:not([hidden])")


def close_log(page: Any) -> None:
    if page.get_attribute("[data-testid=log-toggle]", "aria-expanded") == "true":
        page.click("[data-testid=log-toggle]")


def newest_in_view(page: Any, phone: bool) -> dict[str, Any]:
    """On a phone the log floats over the table: it is opened to look, and put away."""
    if phone:
        open_log(page)
    seen = dict(page.evaluate(NEWEST_IN_VIEW))
    if phone:
        close_log(page)
    return seen


@pytest.mark.parametrize("size", list(SIZES))
def test_the_logs_newest_line_is_in_view_after_every_move(browser: Any, server: LiveServer,
                                                            size: str) -> None:
    w, h = SIZES[size]
    phone = size == "phone"
    table = new_table(server, "gloom", 4, seed=17)
    ctx = browser.new_context(viewport={"width": w, "height": h})
    ctx.set_default_timeout(20_000)
    try:
        page = ctx.new_page()
        errors = PageErrors(page)
        page.goto(server.url + table["invites"][0]["link"])
        page.wait_for_selector("[data-testid=hand] .hand-card")
        if not phone:
            open_log(page)
        rng = random.Random(8)
        moves = 0
        for _ in range(14):
            if not wait_my_turn_or_end(page, timeout=30_000):
                break
            seen = newest_in_view(page, phone)
            assert seen["ok"], (moves, seen)
            before = page_state(page)["state_id"]
            click_any_choice(page, rng)
            page.wait_for_function(f"() => window.gloomtablePage.msg.state_id !== {before}")
            seen = newest_in_view(page, phone)
            assert seen["ok"], (moves, seen)
            moves += 1
        assert moves >= 10
        lines = page.locator("[data-testid=log] li").count()
        assert lines > 20, "the log is long enough to scroll"
        open_log(page)
        shot(page, f"log-{size}")
        # the reader scrolls up to read: the list stays there, and new lines are marked
        page.eval_on_selector("[data-testid=log]", "el => { el.scrollTop = 0; }")
        page.wait_for_timeout(100)
        top_line = page.evaluate("() => window.gloomtablePage.logNewest")
        for _ in range(10):
            if not wait_my_turn_or_end(page, timeout=30_000):
                break
            if phone:
                close_log(page)
            click_any_choice(page, rng)
            if phone:
                open_log(page)
            if page.evaluate("() => window.gloomtablePage.logNewest") > top_line:
                break
        page.wait_for_selector("[data-testid=log-new]:not([hidden])")
        assert page.eval_on_selector("[data-testid=log]", "el => el.scrollTop") < 5
        shot(page, f"log-marker-{size}")
        assert serious_violations(page) == [], "the log with its marker"
        page.click("[data-testid=log-new]")
        assert page.evaluate(NEWEST_IN_VIEW)["ok"]
        assert page.is_hidden("[data-testid=log-new]")
        errors.check()
    finally:
        ctx.close()


HIDE = """(hidden) => {
  Object.defineProperty(document, 'visibilityState', {configurable: true,
    get: () => (hidden ? 'hidden' : 'visible')});
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => hidden});
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def test_a_hidden_page_says_your_turn_in_its_title_and_icon(browser: Any, server: LiveServer) -> None:
    table = new_table(server, "gloom", 2, seed=23, delay=400)
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, permissions=["notifications"])
    ctx.set_default_timeout(20_000)
    try:
        page = ctx.new_page()
        errors = PageErrors(page)
        page.goto(server.url + table["invites"][0]["link"])
        page.wait_for_selector("[data-testid=hand] .hand-card")
        base = "Gloom \u2013 gloomtable"
        page.wait_for_function(f"() => document.title === {base!r}")
        page.check("[data-testid=turn-sound]")  # remembered, and counted when it beeps
        page.check("[data-testid=turn-notify]")  # the browser allows notifications here
        page.wait_for_function("() => window.gloomtablePage.announcer.notify")
        rng = random.Random(1)
        announced = 0
        for _ in range(40):
            if announced >= 3 or not wait_my_turn_or_end(page, timeout=30_000):
                break
            # the seat must decide; the page is visible: no announcement
            assert page.title() == base
            page.evaluate(HIDE, True)
            assert page.title().startswith("Your turn!") and base in page.title()
            assert page.get_attribute("link[rel=icon]", "href") == "/static/favicon-turn.svg"
            beeps = page.evaluate("() => window.gloomtablePage.announcer.beeps || 0")
            assert beeps >= announced + 1
            assert page.evaluate("() => !!window.gloomtablePage.announcer.notice")
            before = page_state(page)["state_id"]
            # still hidden, the move is made (a click from another window): while the
            # seat is not deciding, the title is back
            click_any_choice(page, rng)
            page.wait_for_function(f"() => window.gloomtablePage.msg.state_id !== {before}")
            page.wait_for_function(f"""() => !window.gloomtablePage.isMine()
                || window.gloomtablePage.msg.state_id !== {before}""")
            if not page.evaluate("() => window.gloomtablePage.isMine()"):
                assert page.title() == base
                assert page.get_attribute("link[rel=icon]", "href") == "/static/favicon.svg"
                assert page.evaluate("() => !window.gloomtablePage.announcer.notice"), "the notice goes too"
                announced += 1
            page.evaluate(HIDE, False)
            assert page.title() == base
        assert announced >= 3
        page.reload()
        page.wait_for_selector("[data-testid=turn-sound]")
        assert page.is_checked("[data-testid=turn-sound]")
        assert page.is_checked("[data-testid=turn-notify]")
        errors.check()
    finally:
        ctx.close()


def finished_creatures(server: LiveServer, seed: int) -> dict[str, Any]:
    """A 4-seat Crazy Creatures table whose person is away from the start, so a stand-in
    plays the seat to the end; the invite link then opens the end screen."""
    r = httpx.post(server.url + "/api/tables", json={
        "game": "creatures", "seed": seed, "bot_delay_ms": 0, "replace_absent": True, "absent_after": 0,
        "seats": [{"kind": "person", "name": "Ada Lovelace-Byron"}]
        + [{"kind": "bot", "name": f"Bot {i}", "level": "medium"} for i in range(1, 4)]})
    assert r.status_code in (200, 201), r.text
    table = dict(r.json())
    deadline = time.monotonic() + 90
    while not httpx.get(f"{server.url}/api/tables/{table['id']}").json()["over"]:
        assert time.monotonic() < deadline, "the stand-in never finished the game"
        time.sleep(0.2)
    return table


def test_creatures_end_screen_fits_a_phone(browser: Any, server: LiveServer) -> None:
    table = finished_creatures(server, seed=31)
    with page_at(browser, server.url + table["invites"][0]["link"], 390, 844) as (page, errors):
        page.wait_for_selector("[data-testid=final-scores]")
        st = page_state(page)
        assert st is not None and st["over"]
        totals = st["view"]["totals"]
        # the end panel: every player's total, not only who won
        for p, total in enumerate(totals):
            assert page.inner_text(f"[data-testid=final-total-{p}]") == str(total)
        # the scores table: every column inside the screen, nothing scrolls sideways
        cells = page.eval_on_selector_all("[data-testid=scores] th, [data-testid=scores] td",
                                          "els => els.map(e => e.getBoundingClientRect().right)")
        assert len(cells) == (len(totals) + 1) * (2 + len(st["view"]["round_scores"]) + 1)
        assert max(cells) <= 390, max(cells)
        widths = page.evaluate("""() => [document.scrollingElement.scrollWidth,
            document.querySelector('[data-testid=board-scroll]').scrollWidth,
            document.querySelector('[data-testid=board-scroll]').clientWidth]""")
        assert widths[0] <= 390 and widths[1] <= widths[2], widths
        page.locator("[data-testid=scores]").scroll_into_view_if_needed()
        shot(page, "creatures-end-phone")
        assert serious_violations(page) == [], "Crazy Creatures' end screen"
        errors.check()


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", ["gloom", "creatures"])
def test_hand_cards_are_wide_enough(browser: Any, server: LiveServer, game: str, size: str) -> None:
    w, h = SIZES[size]
    table = new_table(server, game, 4, seed=5)
    ctx = browser.new_context(viewport={"width": w, "height": h})
    ctx.set_default_timeout(20_000)
    try:
        page = ctx.new_page()
        errors = PageErrors(page)
        page.goto(server.url + table["invites"][0]["link"])
        page.wait_for_selector("[data-testid=hand] .hand-card svg")
        assert wait_my_turn_or_end(page, timeout=30_000)
        widths = page.eval_on_selector_all("[data-testid=hand] .hand-card svg",
                                           "els => els.map(e => e.getBoundingClientRect().width)")
        assert widths and min(widths) >= MIN_HAND_PX[size], widths
        # whole titles: no hand card's name is clipped
        clipped = page.eval_on_selector_all(".hand-card .hand-name",
                                            "els => els.filter(e => e.scrollHeight > e.clientHeight + 1"
                                            " || e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)")
        assert clipped == []
        sh, ih = page.evaluate("[document.scrollingElement.scrollHeight, innerHeight]")
        assert sh <= ih, "the page still fits one screen"
        shot(page, f"{game}-hand-{size}")
        errors.check()
    finally:
        ctx.close()


COVERS = """() => {
  const z = document.querySelector('[data-testid=zoom]').getBoundingClientRect();
  const hit = (sel) => [...document.querySelectorAll(sel)].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.left < z.right && r.right > z.left && r.top < z.bottom && r.bottom > z.top;
  }).length;
  return {bar: hit('[data-testid=statusbar]'), seats: hit('[data-testid=seats]'),
          right: z.right, vw: innerWidth,
          inner: [...document.querySelectorAll('[data-testid=zoom], [data-testid=zoom] *')]
            .filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
            .length};
}"""


def zoom_in(page: Any, target: Any, phone: bool, tries: int = 3) -> None:
    """Focus (a phone) or hover ``target`` until the zoom shows. A state arriving in
    between may draw the element anew, and the new one never had the focus or the
    pointer: so the gesture is made again on the element as it is now."""
    for attempt in range(tries):
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        page.mouse.move(1, 1)
        if phone:
            target.focus()
        else:
            target.hover()
        try:
            page.wait_for_function("() => !document.querySelector('[data-testid=zoom]').hidden",
                                   timeout=10_000)
            return
        except PlaywrightTimeout:
            if attempt == tries - 1:
                raise


def _zoomable_stacks(page: Any, st: dict[str, Any], phone: bool) -> list[int]:
    """Characters with a stack of two or more whose zoom this size opens: on a phone by
    focusing the stack, which a Character that is a target of the play does not take
    (its stack is out of the tab order there; tapping it chooses it)."""
    out = []
    for f in st["view"]["families"]:
        for c in f["characters"]:
            if len(c["stack"]) < 2:
                continue
            if phone and page.eval_on_selector(
                    f".character[data-char='{c['card']}'] .stack-wrap", "el => el.tabIndex") != 0:
                continue
            out.append(c["card"])
    return out


@pytest.mark.parametrize("size", list(SIZES))
def test_the_draft_shows_cards_and_zooms_keep_off_the_decision(browser: Any, server: LiveServer,
                                                               size: str) -> None:
    w, h = SIZES[size]
    phone = size == "phone"
    table = new_table(server, "gloomier", 5, seed=43)
    ctx = browser.new_context(viewport={"width": w, "height": h})
    ctx.set_default_timeout(20_000)
    try:
        page = ctx.new_page()
        errors = PageErrors(page)
        page.goto(server.url + table["invites"][0]["link"])
        assert wait_my_turn_or_end(page, timeout=30_000)
        st = page_state(page)
        assert st is not None and st["view"]["decision"]["kind"] == "choose_character"
        page.wait_for_selector("[data-testid=draft] .draft-card svg")
        cands = [c for c in st["choices"] if "card" in c]
        assert page.locator("[data-testid=draft] .draft-card").count() == len(cands) >= 2
        cards = httpx.get(f"{server.url}/api/tables/{table['id']}/cards").json()["cards"]
        zoom_in(page, page.locator("[data-testid=draft] .draft-card").first, phone)
        assert cards[cands[0]["card"]]["name"] in page.inner_text("[data-testid=zoom]")
        cover = page.evaluate(COVERS)
        assert cover["bar"] == 0 and cover["seats"] == 0 and cover["right"] <= cover["vw"], cover
        shot(page, f"draft-zoom-{size}")
        assert serious_violations(page) == [], "the draft"
        page.keyboard.press("Escape")
        page.mouse.move(1, 1)
        # the draft's buttons show whole: none is cut at the screen's edge
        rights = page.eval_on_selector_all(".prompt button.choice",
                                           "els => els.map(e => e.getBoundingClientRect().right)")
        assert max(rights) <= w
        # a stack's zoom, later in the game, keeps off the decision too and cuts no text
        rng = random.Random(4)
        for _ in range(60):
            assert wait_my_turn_or_end(page, timeout=30_000)
            st = page_state(page)
            if st["view"]["decision"]["kind"] == "play" and _zoomable_stacks(page, st, phone):
                break
            before = st["state_id"]
            click_any_choice(page, rng)
            page.wait_for_function(f"() => window.gloomtablePage.msg.state_id !== {before}")
        char = _zoomable_stacks(page, st, phone)[0]
        sel = f".character[data-char='{char}']"
        page.eval_on_selector(sel, "el => el.scrollIntoView({block: 'center', inline: 'center'})")
        # focused afresh (zoom_in blurs first): a stack that already held the focus gets no focus event
        zoom_in(page, page.locator(sel).locator(".stack-wrap") if phone else page.locator(sel), phone)
        cover = page.evaluate(COVERS)
        assert cover["bar"] == 0 and cover["seats"] == 0 and cover["inner"] == 0, cover
        shot(page, f"stack-zoom-{size}")
        errors.check()
    finally:
        ctx.close()


def test_the_side_panel_follows_the_width_until_the_reader_chooses(browser: Any, server: LiveServer) -> None:
    """Open beside a wide table, closed over a narrow one (a tablet turned to portrait,
    a window made narrow) and open again when wide, until the reader opens or closes it:
    from then on it stays as they left it, at any width."""
    table = new_table(server, "gloom", 3, seed=5, delay=500)
    with page_at(browser, server.url + table["invites"][0]["link"]) as (page, errors):
        panel = "[data-testid=side-panel]"
        page.wait_for_selector(f"{panel}:not([hidden])")
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_selector(panel, state="hidden")
        assert page.get_attribute("[data-testid=log-toggle]", "aria-expanded") == "false"
        page.set_viewport_size({"width": 1366, "height": 768})
        page.wait_for_selector(f"{panel}:not([hidden])")
        page.click("[data-testid=log-toggle]")  # the reader closes it on a wide window
        page.wait_for_selector(panel, state="hidden")
        page.set_viewport_size({"width": 390, "height": 844})
        page.set_viewport_size({"width": 1366, "height": 768})
        page.wait_for_function("() => innerWidth === 1366")
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        assert page.locator(panel).is_hidden(), "the reader's choice outlives a change of width"
        errors.check()
