"""Two people at one table in two browser contexts: each sees only its own
hand, nothing of the other's hand crosses its websocket, and a server killed
with SIGKILL comes back with both pages reconnected to the same state."""

from __future__ import annotations

import random
from typing import Any

import httpx

from conftest import PageErrors, click_any_choice, frames_of, page_state, state_and_hand
from gloomtable.server.testing import ServerProcess


def decide_once(pages: list[Any], rng: random.Random) -> None:
    """Whichever page is asked, it clicks one legal option."""
    for _ in range(200):
        for page in pages:
            st = page_state(page)
            if st and not st["over"] and st["deciding"] == st["seat"] and \
                    page.locator(".prompt:not([hidden]):not(.pending)").count():
                before = st["state_id"]
                click_any_choice(page, rng)
                page.wait_for_function(f"() => window.gloomtablePage.msg.state_id > {before}")
                return
        pages[0].wait_for_timeout(25)
    raise AssertionError("neither page was asked to decide")


def test_two_people_hidden_hands_and_a_killed_server(server_process: ServerProcess, browser: Any) -> None:
    server = server_process
    t = httpx.post(server.url + "/api/tables", json={
        "game": "gloom", "seats": [{"kind": "person", "name": "Ada"}, {"kind": "person", "name": "Bea"}],
        "seed": 17}).json()
    cards = httpx.get(f"{server.url}/api/tables/{t['id']}/cards").json()["cards"]
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    try:
        pages = [ctx.new_page() for ctx in contexts]
        errors = [PageErrors(p) for p in pages]
        frames = [frames_of(p) for p in pages]
        for seat, page in enumerate(pages):
            page.goto(server.url + t["invites"][seat]["link"])
            page.wait_for_selector("[data-testid=hand] .hand-card")
        rng = random.Random(2)
        hands: list[list[set[int]]] = [[], []]
        seen: list[list[int]] = [[], []]  # frames received by each page at each snapshot
        for _ in range(10):
            for seat, page in enumerate(pages):
                st, shown = state_and_hand(page)
                assert st is not None
                assert shown == set(st["view"]["hand"])  # the page draws exactly its own hand
                hands[seat].append(shown)
                seen[seat].append(len(frames[seat]))
            decide_once(pages, rng)
        checked = 0
        for seat, other in ((0, 1), (1, 0)):
            # A card held by the other seat since the deal has never been public: until it
            # leaves that hand, its name must not reach this page.
            for card in hands[other][0]:
                k = 0
                while k + 1 < len(hands[other]) and card in hands[other][k + 1]:
                    k += 1
                name = cards[card]["name"]
                assert not any(name in f for f in frames[seat][:seen[seat][k]]), \
                    f"page {seat} was told {name!r} from the other seat's hand"
                checked += 1
        assert checked >= 10
        # the check can see names at all: a seat is told the names of the cards it draws
        own = {cards[c]["name"] for seat in (0, 1) for c in set().union(*hands[seat])
               if any(cards[c]["name"] in f for f in frames[seat])}
        assert own

        state_id = page_state(pages[0])["state_id"]
        server.kill()
        for page in pages:
            page.wait_for_selector("[data-testid=conn-status][data-status=reconnecting]")
        server.start()
        for page in pages:
            page.wait_for_selector("[data-testid=conn-status][data-status=online]", timeout=20_000)
            page.wait_for_function(f"() => window.gloomtablePage.msg && window.gloomtablePage.msg.state_id"
                                   f" === {state_id}")
        decide_once(pages, rng)
        for page in pages:
            page.wait_for_function(f"() => window.gloomtablePage.msg.state_id === {state_id + 1}")
        for e in errors:
            e.check()
    finally:
        for ctx in contexts:
            ctx.close()
