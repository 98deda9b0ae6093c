"""Two people's pages on two different server processes sharing one PostgreSQL
(issue 17): a three-seat Gloom game with a bot, played by clicks to the end."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_browser_two_people import decide_once

from conftest import PageErrors, page_state, state_and_hand
from gloomtable.server.testing import ServerProcess
from pg_support import fresh_schema

MAX_DECISIONS = 400


@pytest.mark.slow
def test_two_pages_on_two_processes_play_to_the_end(browser: Any, tmp_path: Path) -> None:
    with fresh_schema() as url:
        a = ServerProcess(url, log=tmp_path / "a.log")
        b = ServerProcess(url, log=tmp_path / "b.log")
        with a, b:
            t = httpx.post(a.url + "/api/tables", json={
                "game": "gloom", "seed": 23, "bot_delay_ms": 50, "listed": False,
                "seats": [{"kind": "person", "name": "Ada"}, {"kind": "person", "name": "Bea"},
                          {"kind": "bot", "level": "random"}]}).json()
            contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
            try:
                pages = [ctx.new_page() for ctx in contexts]
                errors = [PageErrors(p) for p in pages]
                for seat, (page, srv) in enumerate(zip(pages, (a, b), strict=True)):
                    page.goto(srv.url + t["invites"][seat]["link"])  # Ada on A, Bea on B
                    page.wait_for_selector("[data-testid=hand] .hand-card")
                rng = random.Random(5)
                for _ in range(MAX_DECISIONS):
                    states = [page_state(p) for p in pages]
                    if all(s and s["over"] for s in states):
                        break
                    for page in pages:  # each page draws exactly its own hand, from its own process
                        st, shown = state_and_hand(page)
                        if st and not st["over"]:
                            assert shown == set(st["view"]["hand"])
                    try:
                        decide_once(pages, rng)
                    except AssertionError:  # the last move ended the game while a page was drawing
                        if not all((s := page_state(p)) and s["over"] for p in pages):
                            raise
                else:
                    raise AssertionError("the game did not end")
                for page in pages:
                    page.wait_for_selector("[data-testid=end]:not([hidden])")
                final = [page_state(p) for p in pages]
                assert final[0]["state_id"] == final[1]["state_id"]  # type: ignore[index]
                summary = httpx.get(f"{b.url}/api/tables/{t['id']}").json()
                assert summary["over"] and summary["state_id"] == final[0]["state_id"]  # type: ignore[index]
                for e in errors:
                    e.check()
            finally:
                for ctx in contexts:
                    ctx.close()
