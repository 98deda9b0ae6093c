"""Browser tests: a real server and Debian's headless Chromium (Playwright). The
``server`` fixture serves from a thread of the test process (fresh for each test);
``server_process`` is a server process, for a test that kills it.

Without /usr/bin/chromium the tests skip, unless the CI variable is set: then
they fail, so CI can never pass by skipping them.
"""

from __future__ import annotations

import contextlib
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gloomtable.server.testing import ServerProcess, ServerThread

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SCREENSHOTS_ENV = "GLOOM_SCREENSHOTS"
"""Set to 1 to rewrite the README's screenshots; a plain run leaves the tree unchanged."""
MAX_DECISIONS = 800
"""No click-through loop runs longer than this many decisions."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every browser test starts a server and Chromium: all are in the slow tier."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium per test module. Playwright's sync API keeps an event loop running
    in this thread while it is open, so it must close before other modules' asyncio code."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing, and under CI the browser tests must run")
        pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    """A fresh server for one test, in a thread (see gloomtable.server.testing)."""
    with ServerThread(tmp_path / "tables.db") as srv:
        yield srv


@pytest.fixture
def server_process(tmp_path: Path) -> Iterator[ServerProcess]:
    """A fresh server process for one test that kills it."""
    with ServerProcess(tmp_path / "tables.db") as srv:
        yield srv


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1360, "height": 900})
    ctx.set_default_timeout(15_000)
    try:
        yield ctx
    finally:
        ctx.close()


def shoot(page: Any, name: str, **kwargs: Any) -> bool:
    """Save docs/screenshots/<name>.png, only when GLOOM_SCREENSHOTS is set (the
    README's pictures are taken afresh on request, never by a plain test run)."""
    if not os.environ.get(SCREENSHOTS_ENV):
        return False
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), **kwargs)
    return True


def shot(page: Any, name: str) -> None:
    """Save a page's picture under $GLOOM_PAGE_SHOTS, only when it is set (to look at
    a layout while working on it; never in a plain run)."""
    where = os.environ.get("GLOOM_PAGE_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(where) / f"{name}.png"))


class PageErrors:
    """JavaScript errors of a page, and anything its Content-Security-Policy blocked:
    a test fails on any."""

    def __init__(self, page: Any) -> None:
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", lambda m: self.errors.append(m.text)
                if "Content Security Policy" in m.text else None)

    def check(self) -> None:
        assert not self.errors, self.errors


@contextlib.contextmanager
def page_at(browser: Any, url: str, width: int = 1366, height: int = 768,
            timeout_ms: float = 20_000) -> Iterator[tuple[Any, PageErrors]]:
    """A page of its own browser context, ``width`` x ``height``, opened at ``url``, and
    its errors (the test calls ``check``); the context closes after."""
    ctx = browser.new_context(viewport={"width": width, "height": height})
    ctx.set_default_timeout(timeout_ms)
    try:
        page = ctx.new_page()
        errors = PageErrors(page)
        page.goto(url)
        yield page, errors
    finally:
        ctx.close()


def frames_of(page: Any) -> list[str]:
    """Every websocket frame the page receives, as text, from now on."""
    frames: list[str] = []

    def on_ws(ws: Any) -> None:
        ws.on("framereceived", lambda payload: frames.append(payload if isinstance(payload, str)
                                                            else payload.decode("utf-8", "replace")))

    page.on("websocket", on_ws)
    return frames


def page_state(page: Any) -> dict[str, Any] | None:
    """The last state message the page drew (the page exposes itself for tests)."""
    return page.evaluate("() => window.gloomtablePage && window.gloomtablePage.msg")


def state_and_hand(page: Any) -> tuple[dict[str, Any] | None, set[int]]:
    """The last state the page drew and the hand cards it shows, read in one go: the
    page draws a state as soon as it takes it, so the two always belong together
    (read apart, a new state may land between them)."""
    st, cards = page.evaluate("""() => [window.gloomtablePage && window.gloomtablePage.msg,
        [...document.querySelectorAll('.hand-card')].map((e) => e.dataset.card)]""")
    return st, {int(x) for x in cards}


def wait_my_turn_or_end(page: Any, timeout: float = 15_000) -> bool:
    """True when the page asks this seat to decide, False when the game is over."""
    page.wait_for_selector(".prompt:not([hidden]):not(.pending), [data-testid=end]:not([hidden])",
                           timeout=timeout)
    return page.locator("[data-testid=end]:not([hidden])").count() == 0


def click_any_choice(page: Any, rng: random.Random) -> None:
    """One decision by clicks, any legal option: a hand card then a highlighted
    target or a choice button, or a general choice button."""
    playable = page.locator(".hand-card.playable")
    general = page.locator(".prompt .choices.general button.choice, .prompt .choices button.choice")
    n_cards, n_general = playable.count(), general.count()
    if not n_cards and not n_general:
        return  # the prompt went while the caller looked (a response window's pause ran out)
    before = page.evaluate("() => window.gloomtablePage.msg.state_id")
    if n_cards and (n_general == 0 or rng.random() < 0.8):
        card = playable.nth(rng.randrange(n_cards))
        if "selected" not in (card.get_attribute("class") or ""):  # a second click would unselect it
            card.click()
        acted = "(b) => window.gloomtablePage.pending || window.gloomtablePage.msg.state_id !== b"
        if page.evaluate(acted, before):
            return  # the card itself was the action (Crazy Creatures)
        targets = page.locator(".character.target, .machine.target")
        buttons = page.locator(".prompt button.choice")
        if targets.count() and rng.random() < 0.7:
            targets.nth(rng.randrange(targets.count())).click()
        elif buttons.count():
            buttons.nth(rng.randrange(buttons.count())).click()
    else:
        general.nth(rng.randrange(n_general)).click()


def play_by_clicks(page: Any, rng: random.Random, decisions: int = MAX_DECISIONS,
                   until: Any = None) -> int:
    """Decide by clicks until the game ends, ``until(page)`` holds, or ``decisions`` run out."""
    made = 0
    while made < decisions and wait_my_turn_or_end(page):
        if until is not None and until(page):
            break
        click_any_choice(page, rng)
        made += 1
    return made


def create_in_lobby(page: Any, base: str, game: str, seats: int, bots: int, *, seed: int | None,
                    extra: dict[str, str] | None = None) -> None:
    """Fill the lobby form and create the table; seat 0 .. seats-bots-1 are people.
    ``seed``: a fixed deal (the test server allows them), or None for a random one."""
    page.goto(base + "/")
    page.select_option("[data-testid=game]", game)
    page.select_option("[data-testid=players]", str(seats))
    for i in range(seats):
        page.select_option(f"[data-testid=seat-kind-{i}]", "bot" if i >= seats - bots else "person")
    page.fill("[data-testid=bot-delay]", "20")
    if seed is not None:
        page.fill("[data-testid=seed]", str(seed))
    for sel, value in (extra or {}).items():
        page.select_option(sel, value)
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=created]:not([hidden])")
