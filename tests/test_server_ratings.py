"""Ratings per game (issue 31): the store moves them exactly as ``openskill`` does, a
shared win is a tie, a table is rated once, and a game played to the end between two
accounts on a real server moves both ratings (SQLite and PostgreSQL)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce

from gloomtable.engine import Result
from gloomtable.server.ratings import NEW, RatingPlan, bot_played_for_person, ranks
from gloomtable.server.store_rows import SeatRow, StaleActionError, TableRow
from gloomtable.server.testing import ServerProcess
from server_support import open_ws, play_to_end

PASSWORD = "correct horse 42"


def test_ranks_share_first_place_and_order_the_rest_by_score() -> None:
    assert ranks(Result((10, 30, 20), (0,))) == [1, 3, 2]
    assert ranks(Result((10, 10, 20), (0, 1))) == [1, 1, 2]  # a shared win is a tie
    assert ranks(Result((5, 9, 9, 12), (0,))) == [1, 2, 2, 3]


def _table(store: Any, tid: str, accounts: list[str]) -> None:
    seats = [SeatRow(i, "person", "random", f"P{i}", f"tok{tid}{i}", True) for i in range(len(accounts))]
    store.create_table(TableRow(tid, "gloom", {}, 1, {}, False, "host", seats))
    for i, a in enumerate(accounts):
        assert store.link_seat(tid, i, a)


def _rated_tables(where: str) -> list[str]:
    from gloomtable.server.store import open_store

    s = open_store(where)
    try:
        with s._run() as db:
            found = db.execute("SELECT table_id FROM rated_tables ORDER BY table_id").fetchall()
            return [r[0] for r in found]
    finally:
        s.close()


def _plan(places: list[int]) -> RatingPlan:
    return RatingPlan("gloom", tuple(range(len(places))), tuple(places), {})


def _last_move(store: Any, tid: str, plan: RatingPlan | None) -> None:
    """The move that ends the table, as the table stores it: with its rating."""
    store.append_action(tid, 0, 0, 0, "person", None, True, None, plan)


def test_thirty_rated_three_player_games_match_openskill(store: Any, where: str) -> None:
    """The scripted results (random places, a shared win every third game) are stored as
    each table's last move, which carries its rating as a live table sends it; openskill
    called directly on the same results gives the same ratings, games and wins. Storing a
    last move again (a replay) is refused and rates nothing twice."""
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
        if g % 3 == 0:  # a shared win: a seat that did not win ties with the winner
            other = (winners[0] + 1) % 3
            scores[other] = scores[winners[0]]
            winners = tuple(sorted({*winners, other}))
        places = ranks(Result(tuple(scores), winners))
        if g % 3 == 0:
            assert places.count(1) >= 2
        _table(store, f"t{g}", order)
        _last_move(store, f"t{g}", _plan(places))
        with pytest.raises(StaleActionError):
            _last_move(store, f"t{g}", _plan(places))
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
    assert len(_rated_tables(where)) == 30


def test_a_shared_win_is_a_tie(store: Any) -> None:
    """Two winners of three: openskill's tie (rank 1 twice), so the two winners, equal
    before, are equal after and both gain; both count a win."""
    for n in ("ann", "ben", "cat"):
        store.create_account(n, n, n, "hash")
    places = ranks(Result((4, 4, 9), (0, 1)))
    assert places == [1, 1, 2]
    _table(store, "tie", ["ann", "ben", "cat"])
    _last_move(store, "tie", _plan(places))
    ann, ben, cat = (store.ratings_of(n)[0] for n in ("ann", "ben", "cat"))
    assert ann[1:] == pytest.approx(ben[1:]) and ann[1] > NEW.mu > cat[1]
    assert (ann[4], ben[4], cat[4]) == (1, 1, 0)
    [(a,), (b,)] = PlackettLuce().rate([[PlackettLuce().rating()], [PlackettLuce().rating()],
                                         [PlackettLuce().rating()]], ranks=[1, 1, 2])[:2]
    assert ann[1] == pytest.approx(a.mu) and ben[1] == pytest.approx(b.mu)


def test_unfit_accounts_leave_the_game_unrated_but_stored(store: Any) -> None:
    """A person seat with no account, or one account at two seats: the last move is
    stored, nothing is rated."""
    for n in ("ann", "ben"):
        store.create_account(n, n, n, "hash")
    _table(store, "one", ["ann"])  # seat 1 below is nobody's
    store.create_table(TableRow("two", "gloom", {}, 1, {}, False, "host",
                                [SeatRow(i, "person", "random", f"P{i}", f"t2{i}", True) for i in range(2)]))
    store.link_seat("two", 0, "ann")
    store.link_seat("two", 1, "ann")
    for tid in ("one", "two"):
        store.append_action(tid, 0, 0, 0, "person", None, True, None, _plan([1, 2]))
        assert store.load(tid).over
    assert store.ratings_of("ann") == [] and store.ratings_of("ben") == []


CRASH = """
import os, signal, sys
from dataclasses import dataclass
from gloomtable.server.ratings import RatingPlan
from gloomtable.server.store import open_store

@dataclass(frozen=True)
class Crash(RatingPlan):
    def rate(self, before):  # the process dies between the move and its ratings
        print("dying", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)

store = open_store(sys.argv[1])
store.append_action(sys.argv[2], 0, 0, 0, "person", None, True, None, Crash("gloom", (0, 1), (1, 2), {}))
print("survived", flush=True)
"""


def test_a_crash_between_the_last_move_and_its_ratings_stores_neither(where: str, tmp_path: Path) -> None:
    """A process killed (SIGKILL) inside the last move's transaction, after the move is
    written and the ratings read, before they are written: the table is not over and
    nobody is rated; the move made again ends it rated once, and again is refused."""
    from gloomtable.server.store import open_store

    store = open_store(where)
    try:
        for n in ("ann", "ben"):
            store.create_account(n, n, n, "hash")
        _table(store, "k", ["ann", "ben"])
    finally:
        store.close()
    done = subprocess.run([sys.executable, "-c", CRASH, where, "k"], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == -signal.SIGKILL and "dying" in done.stdout, done.stderr
    store = open_store(where)  # as a restarted server finds it
    try:
        row = store.load("k")
        assert row is not None and row.actions == [] and not row.over
        assert store.ratings_of("ann") == [] and store.rating_history("ann") == []
        _last_move(store, "k", _plan([1, 2]))
        with pytest.raises(StaleActionError):
            _last_move(store, "k", _plan([1, 2]))
        assert [r[3] for r in (store.ratings_of("ann")[0], store.ratings_of("ben")[0])] == [1, 1]
    finally:
        store.close()
    assert _rated_tables(where) == ["k"]


RACER = """
import sys
from gloomtable.server.ratings import RatingPlan
from gloomtable.server.store import StaleActionError, open_store

store = open_store(sys.argv[1])
print("ready", flush=True)
sys.stdin.readline()  # both racers start together
won = []
for line in sys.argv[2:]:
    tid, *places = line.split(",")
    try:
        store.append_action(tid, 0, 0, 0, "person", None, True, None,
                            RatingPlan("gloom", (0, 1, 2), tuple(map(int, places)), {}))
        won.append(tid)
    except StaleActionError:
        pass
print("won", " ".join(won), flush=True)
"""


TABLES = 100
"""Tables the two racers end in one round."""
ROUNDS = 10
"""Rounds at most, until both racers ended tables of one round (on SQLite one may end all
100 before the other is scheduled at all, on a busy machine)."""


def _race(where: str, lines: list[str]) -> list[set[str]]:
    """Two racer processes store the given last moves, one first to last, the other last
    to first: they meet on a table in the middle and, the rest of the time, rate two
    tables of the same accounts at once. The tables each ended."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    racers = [subprocess.Popen([sys.executable, "-c", RACER, where, *order], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, env=env) for order in (lines, lines[::-1])]
    try:
        for r in racers:
            assert r.stdout is not None and r.stdout.readline().strip() == "ready"
        for r in racers:
            assert r.stdin is not None
            r.stdin.write("go\n")
            r.stdin.flush()
        outs = [r.communicate(timeout=180)[0] for r in racers]
    finally:
        for r in racers:
            if r.poll() is None:
                r.kill()
                r.wait()
    assert [r.returncode for r in racers] == [0, 0], outs
    return [set(out.split("won", 1)[1].split()) for out in outs]


@pytest.mark.slow  # starts several processes
def test_two_processes_racing_to_end_the_same_tables_rate_each_once(where: str) -> None:
    """Two processes store the same last moves of 100 tables at once, in opposite orders
    (the same three accounts, seated in turning orders; a deadlock or an error fails a
    racer). Each table is ended, and rated, by exactly one; no rating update is lost:
    openskill applied in the order the store made the updates (its history) gives the
    stored ratings."""
    from gloomtable.server.store import open_store

    names, rng, games = ["ann", "ben", "cat"], random.Random(7), []
    store = open_store(where)
    try:
        for n in names:
            store.create_account(n, n, n, "hash")
        for rnd in range(ROUNDS):
            batch = []
            for g in range(TABLES):
                turn = names[g % 3:] + names[:g % 3]
                order = turn if g % 2 else turn[::-1]
                places = ranks(Result(tuple(rng.randrange(0, 5) for _ in range(3)), (rng.randrange(3),)))
                _table(store, f"r{rnd}-{g:03d}", order)
                batch.append((f"r{rnd}-{g:03d}", order, places))
            games += batch
            won = _race(where, [",".join([tid, *map(str, places)]) for tid, _o, places in batch])
            assert won[0].isdisjoint(won[1]) and won[0] | won[1] == {g[0] for g in batch}
            if won[0] and won[1]:
                break
        else:
            pytest.fail(f"in {ROUNDS} rounds, one racer always ended every table first")
        model, direct = PlackettLuce(), {n: PlackettLuce().rating() for n in names}
        seen = sorted({(at, tid) for n in names for _g, tid, at, _mu, _sigma in store.rating_history(n)})
        assert len(seen) == len(games)
        by_id = {tid: (order, places) for tid, order, places in games}
        for _at, tid in seen:
            order, places = by_id[tid]
            after = model.rate([[direct[n]] for n in order], ranks=places)
            for n, team in zip(order, after, strict=True):
                direct[n] = team[0]
        for n in names:
            [(_game, mu, sigma, played, _won)] = store.ratings_of(n)
            assert played == len(games)
            assert (mu, sigma) == pytest.approx((direct[n].mu, direct[n].sigma), abs=1e-9)
    finally:
        store.close()


def test_a_lapsed_answer_is_no_bots_play() -> None:
    """A person's ``timeout`` that stored the pass (a response window left to lapse, or a
    turn timer that passes) keeps a game rated; a bot's choice at the timer, or any
    stand-in's play, does not."""
    assert not bot_played_for_person("person", 7, 0)
    assert not bot_played_for_person("timeout", 0, 0)
    assert bot_played_for_person("timeout", 7, 0)
    assert bot_played_for_person("stand_in", 0, 0)


def _sign_up(c: httpx.Client, name: str) -> str:
    r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return str(r.json()["csrf"])


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
            play_to_end([a, b])
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
            play_to_end([a])
        assert len(httpx.get(f"{srv.url}/api/players/ada_r").json()["history"]) == 1
        # the lobby's listing shows each account's rating in the table's game beside its name
        shown = {p["name"]: p["games"][0]["rating"] for p in profiles}
        listed = {}
        for game in ("creatures", "gloom"):
            r = ada.post("/api/tables", json={"game": game, "listed": True, "seats": [
                {"kind": "person", "name": "Ada"}, {"kind": "open"}, {"kind": "open"}]},
                headers={"X-CSRF-Token": csrf})
            assert r.status_code == 201, r.text
            listed[game] = r.json()["id"]
            r = bo.post(f"/api/tables/{listed[game]}/join", json={"name": "Bo"},
                        headers={"X-CSRF-Token": bo.get("/api/account").json()["csrf"]})
            assert r.status_code == 200, r.text
        entries = {t["id"]: t for t in httpx.get(f"{srv.url}/api/tables").json()["tables"]}
        assert entries[listed["creatures"]]["ratings"] == [shown["ada_r"], shown["bo_r"], None]
        assert entries[listed["gloom"]]["ratings"] == [None, None, None]  # not rated in Gloom yet
    # a restart replays the finished table from its record: nothing is rated again
    with ServerProcess(where, log=tmp_path / "again.log") as srv:
        after = httpx.get(f"{srv.url}/api/tables/{table['id']}/ratings").json()["seats"]
        assert after == seats  # read from the store before anything loads the finished table
        assert httpx.get(f"{srv.url}/api/tables/{table['id']}").json()["over"]
        again = [httpx.get(f"{srv.url}/api/players/{n}").json() for n in ("ada_r", "BO_R")]
        assert [(p["games"], p["history"]) for p in again] == [(p["games"], p["history"]) for p in profiles]


@pytest.mark.slow
def test_response_windows_left_to_lapse_keep_a_gloom_game_rated(where: str, tmp_path: Path) -> None:
    """Gloom between two accounts, with one response pause per card (R-G20): each person
    plays their own turns (at random) and never answers a window, so every card they could have
    answered stands as a ``timeout``; the game is still rated for both."""
    from gloomtable.server.store import open_store

    with ServerProcess(where, log=tmp_path / "server.log") as srv, \
            httpx.Client(base_url=srv.url, timeout=30) as ada, \
            httpx.Client(base_url=srv.url, timeout=30) as bo:
        csrf = _sign_up(ada, "ada_w")
        _sign_up(bo, "bo_w")
        r = ada.post("/api/tables", json={"game": "gloom", "config": {"players": 2}, "response_pause_ms": 500,
                                          "seats": [{"kind": "person", "name": "Ada"},
                                                    {"kind": "person", "name": "Bo"}]},
                     headers={"X-CSRF-Token": csrf})
        assert r.status_code == 201, r.text
        table = r.json()
        cookies = [{"Cookie": "gloom_session=" + c.cookies["gloom_session"]} for c in (ada, bo)]
        with open_ws(srv, table, table["invites"][0]["token"], additional_headers=cookies[0]) as a, \
                open_ws(srv, table, table["invites"][1]["token"], additional_headers=cookies[1]) as b:
            rng = random.Random(5)  # cards played at random: some a response could cancel
            play_to_end([a, b], timeout=600, answer=lambda m: "window" not in m,
                        choose=lambda m: int(rng.choice(m["choices"])["action"]))
        played = [httpx.get(f"{srv.url}/api/players/{n}").json()["games"] for n in ("ada_w", "bo_w")]
        assert [[(g["game"], g["played"]) for g in games] for games in played] == [[("gloom", 1)]] * 2
    store = open_store(where)
    try:
        row = store.load(table["id"])
        assert row is not None and row.over
        assert any(actor == "timeout" for _seat, actor in row.actors), "no window lapsed: nothing was shown"
        assert {actor for _seat, actor in row.actors} <= {"person", "timeout"}
    finally:
        store.close()
