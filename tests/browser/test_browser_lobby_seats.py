"""Issue 16 in the browser: the lobby offers no deal number on a public server,
pages its listing and offers Join only for open seats; a fixed deal says so on
the lobby and on the table; a stand-in bot's narration is credited to the
stand-in in the table's log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from conftest import PageErrors, create_in_lobby
from gloomtable.server.testing import LiveServer, ServerThread


def test_public_lobby_pages_its_tables_and_joins_only_open_seats(tmp_path: Path, context: Any) -> None:
    with ServerThread(tmp_path / "tables.db", allow_fixed_deals=False) as srv:
        for _ in range(24):
            r = httpx.post(srv.url + "/api/tables", json={"seats": [{"kind": "open"}, {"kind": "bot"}]},
                           timeout=20)
            assert r.status_code == 201, r.text
        invited = httpx.post(srv.url + "/api/tables", json={"seats": [{"kind": "person"}] * 2},
                             timeout=20).json()
        page = context.new_page()
        errors = PageErrors(page)
        page.goto(srv.url + "/")
        page.wait_for_selector(".table-row")
        assert page.locator("[data-testid=seed]").count() == 0  # no client chooses the deal
        assert page.locator(".table-row").count() == 20
        assert "of 25" in page.get_by_test_id("table-pages").inner_text()
        page.get_by_test_id("tables-next").click()
        page.wait_for_function("() => document.querySelectorAll('.table-row').length === 5")
        row = page.locator(f".table-row[data-table='{invited['id']}']")
        assert row.count() == 1 and row.locator("button.join").count() == 0  # invited seats only
        page.get_by_test_id("tables-previous").click()
        page.wait_for_function("() => document.querySelectorAll('.table-row').length === 20")
        page.locator(".table-row button.join").first.click()
        page.wait_for_url("**/table/*#token=*")
        errors.check()


def test_a_fixed_deal_says_so_in_the_lobby_and_on_the_table(server: LiveServer, context: Any) -> None:
    page = context.new_page()
    errors = PageErrors(page)
    create_in_lobby(page, server.url, "gloom", seats=2, bots=1, seed=42)
    assert page.get_by_test_id("fixed-deal").is_visible()
    page.get_by_test_id("take-seat-0").click()
    page.wait_for_selector(".table-title [data-testid=fixed-deal]")
    assert "fixed deal" in page.locator(".table-title").inner_text()
    errors.check()


def test_a_stand_ins_narration_is_credited_to_the_stand_in(server: LiveServer, context: Any) -> None:
    seats = [{"kind": "person", "name": "Bea", "level": "random"}, {"kind": "bot", "level": "random"}]
    t = httpx.post(server.url + "/api/tables", json={"seats": seats, "replace_absent": True,
                                                     "absent_after": 0, "bot_delay_ms": 0}, timeout=20).json()
    page = context.new_page()
    errors = PageErrors(page)
    page.goto(server.url + t["spectate"])
    by = page.locator(".log-entry.narration .by", has_text="Bea")
    by.first.wait_for(timeout=30_000)
    texts = set(by.all_inner_texts())
    assert texts == {"Bea's stand-in bot"}, texts  # never plain "Bea"
    errors.check()
