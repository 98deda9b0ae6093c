"""The chronicle on the web table's end screen (R-G27), in a real Chromium: a
finished table shows each family's tales, and the chronicle downloads as
Markdown and opens as a printable page. Screenshot: docs/screenshots/
gallery-chronicle-end-screen.png (next to the gallery's)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from conftest import shoot
from gloomtable.server.testing import ServerThread


@pytest.fixture(scope="module")
def designer_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with ServerThread(tmp_path_factory.mktemp("server") / "tables.db") as srv:
        yield srv.url


def play_out(server: str, tid: str) -> None:
    """Watch the table until the bots finish it (bounded). A watcher must be
    attached for the bots to play; whether it is over is asked over HTTP, and a
    connection the server drops for reading too slowly is simply reopened.
    (The sync client: Playwright's sync API already runs an event loop here.)"""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            with connect(server.replace("http", "ws", 1) + f"/ws/{tid}", open_timeout=10) as ws:
                while time.monotonic() < deadline:
                    with contextlib.suppress(TimeoutError):
                        while True:
                            ws.recv(timeout=0.05)  # drain what has come
                    if httpx.get(f"{server}/api/tables/{tid}", timeout=10).json()["over"]:
                        return
        except ConnectionClosed:
            continue
    pytest.fail("the bots did not finish the game in time")


def test_a_finished_tables_chronicle_is_shown_and_downloadable(browser, designer_server: str,
                                                               tmp_path: Path) -> None:
    server = designer_server
    seats = [{"kind": "bot", "level": "random", "name": n} for n in ("Agatha", "Bram <b>", "Cora", "Dmitri")]
    r = httpx.post(f"{server}/api/tables", json={"game": "gloom", "seats": seats, "bot_delay_ms": 0,
                                                "seed": 11}, timeout=10)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    # not over yet (a table with a person who has not moved: the bots above may finish at once)
    waiting = httpx.post(f"{server}/api/tables", timeout=10,
                         json={"game": "gloom", "seats": [{"kind": "person"}, *seats[1:]]}).json()["id"]
    assert httpx.get(f"{server}/api/tables/{waiting}/chronicle", timeout=10).status_code == 409
    play_out(server, tid)
    page = browser.new_page(viewport={"width": 1280, "height": 1000}, accept_downloads=True)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/table/{tid}")  # a spectator at the finished table
    page.wait_for_selector('[data-testid=chronicle][data-ready="1"]', timeout=30_000)
    section = page.get_by_test_id("chronicle")
    text = section.inner_text()
    for name in ("Agatha", "Bram <b>", "Cora", "Dmitri"):
        assert name in text  # as text: the page never turns a name into markup
    assert section.locator("article.tale").count() == 16  # four families of four (R-G8)
    assert section.locator("li.death").count() >= 4
    section.scroll_into_view_if_needed()
    shoot(page, "gallery-chronicle-end-screen")

    with page.expect_download() as dl:
        page.get_by_test_id("chronicle-md").click()
    md_path = tmp_path / "chronicle.md"
    dl.value.save_as(md_path)
    md = md_path.read_text(encoding="utf-8")
    assert md.startswith("# The chronicle of a game of Gloom")
    assert "Bram \\<b\\>" in md and "## Family Values" in md
    assert md == httpx.get(f"{server}/api/tables/{tid}/chronicle.md", timeout=10).text

    with page.expect_popup() as popup:
        page.get_by_test_id("chronicle-html").click()
    printable = popup.value
    printable.wait_for_load_state()
    assert printable.locator("h1").inner_text() == "The chronicle of a game of Gloom"
    assert printable.locator("section.family").count() == 4
    assert printable.locator("#family-values tr").count() == 5
    assert "Bram <b>" in printable.locator("body").inner_text()
    assert not errors, errors
    page.close()
