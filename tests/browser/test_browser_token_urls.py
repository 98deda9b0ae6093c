"""Issue 16, row 11, in a real Chromium: a person opens their invite link and plays,
reloads and plays again, and the seat token appears in no URL the page asks the
server for (pages, scripts, API calls, the websocket's address), nor in any
Referer; the page's policy blocks nothing it needs (PageErrors fails on any
Content-Security-Policy report)."""

from __future__ import annotations

from typing import Any

import httpx

from conftest import PageErrors, page_state
from gloomtable.server.testing import ServerProcess


def test_the_seat_token_never_travels_in_a_url(server: ServerProcess, context: Any) -> None:
    seats = [{"kind": "person", "name": "Ada"}, {"kind": "bot", "level": "random"}]
    t = httpx.post(server.url + "/api/tables", timeout=20, json={"game": "gloom", "seats": seats}).json()
    token = t["invites"][0]["token"]
    link = t["invites"][0]["link"]
    assert link.endswith(f"#token={token}") and "?" not in link
    page = context.new_page()
    errors = PageErrors(page)
    urls: list[str] = []
    referers: list[str] = []
    sent_hellos: list[str] = []

    def on_request(request: Any) -> None:
        urls.append(request.url)
        referers.append(request.headers.get("referer", ""))

    def on_ws(ws: Any) -> None:
        urls.append(ws.url)
        ws.on("framesent", lambda payload: sent_hellos.append(payload) if '"hello"' in str(payload) else None)

    page.on("request", on_request)
    page.on("websocket", on_ws)
    for visit in range(2):  # the first visit, then a reload (the page reconnects the same way)
        if visit == 0:
            page.goto(server.url + link)
        else:
            page.reload()
        page.wait_for_function("() => window.gloomtablePage && window.gloomtablePage.msg"
                               " && window.gloomtablePage.msg.seat === 0")
    state = page_state(page)
    assert state is not None and state["seat"] == 0 and state["view"]["hand"] is not None
    assert any("/ws/" in u for u in urls) and any("/api/tables/" in u for u in urls)
    # the browser keeps the fragment out of every request; the page keeps it out of every address
    assert not [u for u in urls if token in u.split("#")[0]], urls
    assert not [r for r in referers if token in r], referers
    assert len(sent_hellos) == 2 and all(token in h for h in sent_hellos)  # one hello per socket
    errors.check()
    page.close()


def test_an_old_query_invite_link_seats_its_holder_and_moves_the_token_out_of_the_query(
        server: ServerProcess, context: Any) -> None:
    """Links shared before tokens moved to the fragment ("?token=...") still seat their
    holder; the page rewrites its own address at once, so a reload, a bookmark or a
    copied address no longer sends the token to the server."""
    seats = [{"kind": "person", "name": "Ada"}, {"kind": "bot", "level": "random"}]
    t = httpx.post(server.url + "/api/tables", timeout=20, json={"game": "gloom", "seats": seats}).json()
    token = t["invites"][0]["token"]
    page = context.new_page()
    errors = PageErrors(page)
    page.goto(f"{server.url}/table/{t['id']}?token={token}&lang=en")
    page.wait_for_function("() => window.gloomtablePage && window.gloomtablePage.msg"
                           " && window.gloomtablePage.msg.seat === 0")
    address = page.evaluate("() => location.href")
    assert address.endswith(f"/table/{t['id']}?lang=en#token={token}"), address
    page.reload()
    page.wait_for_function("() => window.gloomtablePage && window.gloomtablePage.msg"
                           " && window.gloomtablePage.msg.seat === 0")
    state = page_state(page)
    assert state is not None and state["view"]["hand"] is not None
    errors.check()
    page.close()
