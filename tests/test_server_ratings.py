"""Ratings per game (issue 31): the store moves them exactly as ``openskill`` does, a
shared win is a tie, a table is rated once, and a game played to the end between two
accounts on a real server moves both ratings (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce
from websockets.sync.client import ClientConnection

from gloomtable.engine import Result
from gloomtable.server.ratings import NEW, Rating, ranks, rate
from gloomtable.server.store_rows import SeatRow, TableRow
from gloomtable.server.testing import ServerProcess
from server_support import open_ws

PASSWORD = "correct horse 42"


def test_ranks_share_first_place_and_order_the_rest_by_score() -> None:
    assert ranks(Result((10, 30, 20), (0,))) == [1, 3, 2]
    assert ranks(Result((10, 10, 20), (0, 1))) == [1, 1, 2]  # a shared win is a tie
    assert ranks(Result((5, 9, 9, 12), (0,))) == [1, 2, 2, 3]


def _table(store: Any, tid: str, accounts: list[str]) -> None:
    seats = [SeatRow(i, "person", "random", f"P{i}", f"tok{tid}{i}", True) for i in range(len(accounts))]
    store.create_table(TableRow(tid, "gloom", {}, 1, {}, False, "host", seats, over=True))
    for i, a in enumerate(accounts):
        assert store.link_seat(tid, i, a)


def test_thirty_rated_three_player_games_match_openskill(store: Any) -> None:
    """The scripted results (random places, a shared win every third game) go through the
    store's rating of a finished table; openskill called directly on the same results
    gives the same ratings, games and wins."""
    names = ["ann", "ben", "cat"]
    for n in names:
        assert store.create_account(n, n, n, "hash")
    model = PlackettLuce()
    direct = {n: model.rating() for n in names}
    wins = dict.fromkeys(names, 0)
    rng = random.Random(31)
    for g in range(30):
        order = rng.sample(names, 3)
        scores = [rng.randrange(-40, 10) for _ in order]
        winners = tuple(i for i, s in enumerate(scores) if s == min(scores))
        if g % 3 == 0:  # a shared win
            scores[1] = scores[winners[0]]
            winners = tuple(sorted({*winners, 1}))
        places = ranks(Result(tuple(scores), winners))
        _table(store, f"t{g}", order)
        assert store.rate_table(f"t{g}", "gloom", order, places, [p == 1 for p in places], {}, rate)
        assert not store.rate_table(f"t{g}", "gloom", order, places, [p == 1 for p in places], {}, rate)
        after = model.rate([[direct[n]] for n in order], ranks=places)
        for n, team, p in zip(order, after, places, strict=True):
            direct[n] = team[0]
            wins[n] += p == 1
    for n in names:
        [(game, mu, sigma, played, won)] = store.ratings_of(n)
        assert game == "gloom" and played == 30 and won == wins[n]
        assert mu == pytest.approx(direct[n].mu, abs=1e-9)
        assert sigma == pytest.approx(direct[n].sigma, abs=1e-9)
        assert len(store.rating_history(n)) == 30
    board = store.leaderboard("gloom", 10)
    assert [r[0] for r in board] == sorted(names, key=lambda n: -(direct[n].mu - 3 * direct[n].sigma))


def test_new_rating_is_openskills_default() -> None:
    assert (NEW.mu, NEW.sigma) == (25.0, 25.0 / 3) and NEW.shown == 0
    assert Rating(30.0, 2.0).shown == 1440


def _sign_up(c: httpx.Client, name: str) -> str:
    r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return str(r.json()["csrf"])


def _play_to_end(conns: list[ClientConnection], timeout: float = 120) -> dict[str, Any]:
    """Each seat plays its first choice whenever it decides, until a state says over."""
    deadline = time.monotonic() + timeout
    acted: set[int] = set()
    while time.monotonic() < deadline:
        for conn in conns:
            try:
                msg = json.loads(conn.recv(timeout=0.05))
            except TimeoutError:
                continue
            if msg["type"] != "state":
                continue
            if msg["over"]:
                return dict(msg)
            if msg.get("choices") and msg["state_id"] not in acted:
                acted.add(msg["state_id"])
                conn.send(json.dumps({"type": "act", "action": msg["choices"][0]["action"],
                                      "state_id": msg["state_id"]}))
    raise AssertionError("the game did not end")


@pytest.mark.slow
def test_a_game_between_two_accounts_moves_both_ratings(where: str, tmp_path: Path) -> None:
    with ServerProcess(where, log=tmp_path / "server.log") as srv, \
            httpx.Client(base_url=srv.url, timeout=30) as ada, \
            httpx.Client(base_url=srv.url, timeout=30) as bo:
        csrf = _sign_up(ada, "ada_r")
        _sign_up(bo, "bo_r")
        r = ada.post("/api/tables", json={"game": "creatures", "seats": [{"kind": "person", "name": "Ada"},
                                                                        {"kind": "person", "name": "Bo"}]},
                     headers={"X-CSRF-Token": csrf})
        assert r.status_code == 201, r.text
        table = r.json()
        cookie = {"Cookie": "gloom_session=" + ada.cookies["gloom_session"]}
        cookie_b = {"Cookie": "gloom_session=" + bo.cookies["gloom_session"]}
        with open_ws(srv, table, table["invites"][0]["token"], additional_headers=cookie) as a, \
                open_ws(srv, table, table["invites"][1]["token"], additional_headers=cookie_b) as b:
            _play_to_end([a, b])
        summary = httpx.get(f"{srv.url}/api/tables/{table['id']}").json()
        assert summary["over"]
        # the ratings are stored with the last move, before any page hears the game is over
        profiles = [httpx.get(f"{srv.url}/api/players/{n}").json() for n in ("ada_r", "BO_R")]
        for p in profiles:
            [entry] = p["games"]
            assert entry["game"] == "creatures" and entry["played"] == 1
            assert (entry["mu"], entry["sigma"]) != (NEW.mu, NEW.sigma)
            assert p["history"][0]["table"] == table["id"]
            assert p["finished"][0]["table"] == table["id"]
            assert p["finished"][0]["replay"] == f"/table/{table['id']}"
        mus = sorted(p["games"][0]["mu"] for p in profiles)
        assert mus[0] < NEW.mu < mus[1] or mus[0] == mus[1]  # a winner and a loser, or a tie
        assert sum(p["games"][0]["won"] for p in profiles) >= 1
        board = httpx.get(f"{srv.url}/api/leaderboard/creatures").json()["players"]
        assert {x["name"] for x in board} == {"ada_r", "bo_r"}
        seats = httpx.get(f"{srv.url}/api/tables/{table['id']}/ratings").json()["seats"]
        assert {seats["0"]["account"], seats["1"]["account"]} == {"ada_r", "bo_r"}
        assert all(isinstance(s["rating"], int) for s in seats.values())
        # a table with a bot is not rated
        r = ada.post("/api/tables", json={"game": "creatures", "bot_delay_ms": 0,
                                          "seats": [{"kind": "person"}, {"kind": "bot", "level": "random"}]},
                     headers={"X-CSRF-Token": csrf})
        bot_table = r.json()
        with open_ws(srv, bot_table, bot_table["invites"][0]["token"], additional_headers=cookie) as a:
            _play_to_end([a])
        assert len(httpx.get(f"{srv.url}/api/players/ada_r").json()["history"]) == 1
