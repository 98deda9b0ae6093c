"""Several ``gloom serve`` processes, one site (issue 17): two processes on one
PostgreSQL schema share a table whose two people sit on different processes,
with a bot and a turn timer; then the same while processes are SIGKILLed and
restarted every few moves."""

from __future__ import annotations

import threading
import time
from functools import partial
from pathlib import Path

import httpx
import pytest

from cluster_support import Person, check_against_replay, lease_holder, member_id, servers_on, wait_for
from gloomtable.engine.record import GameRecord
from gloomtable.games import replay_record
from gloomtable.server.testing import ServerProcess
from gloomtable.server.window import is_respond
from pg_support import fresh_schema
from scale import scaled
from server_support import create_table

# Two or three real server processes on PostgreSQL per test: the slow tier.
pytestmark = pytest.mark.slow

SEATS = [{"kind": "person", "name": "Ada"}, {"kind": "person", "name": "Bo"},
         {"kind": "bot", "level": "random", "name": "Cy"}]


new_table = partial(create_table, seats=SEATS, listed=False, timeout=10)
"""An unlisted table of Ada, Bo and a bot (201 asserted)."""


def race_one_move(p: Person, other: ServerProcess) -> None:
    """The same move sent through both processes at once: exactly one is stored."""
    twin = Person(p.seat, p.token, p.table_id, [other])
    assert wait_for(lambda: (twin.poll(), twin.latest)[1], 10)
    assert twin.latest and p.latest and twin.latest["state_id"] == p.latest["state_id"]
    twin.act()
    p.act()
    assert wait_for(lambda: (twin.poll(), p.poll(), twin.errors + p.errors)[2], 30)
    refused = twin.errors + p.errors
    assert len(refused) == 1 and refused[0]["code"] in ("stale_state", "not_your_turn")
    twin.drop()


def test_two_processes_play_one_table_to_the_end(tmp_path: Path) -> None:
    """Ada on process A, Bo on process B, a bot led by one of them: every move made on
    one process reaches the other's page; each page's views are its seat's views of the
    stored record; a move offered twice for one state is stored once."""
    with fresh_schema() as url:
        a, b = servers_on(url, tmp_path)
        with a, b:
            t = new_table(a, bot_delay_ms=20, seed=21)
            tokens = {i["seat"]: i["token"] for i in t["invites"]}  # type: ignore[attr-defined]
            ada = Person(0, tokens[0], str(t["id"]), [a, b])
            bo = Person(1, tokens[1], str(t["id"]), [b, a])
            people = [ada, bo]
            raced, held_by = False, None
            deadline = time.monotonic() + 300
            while not (ada.latest and ada.latest["over"] and bo.latest and bo.latest["over"]):
                assert time.monotonic() < deadline, "the game did not end"
                for p in people:
                    p.poll()
                for p in people:
                    if p.deciding():
                        if not raced:
                            raced = True
                            held_by = lease_holder(url, str(t["id"]))
                            race_one_move(p, b if p.on is a else a)
                        else:
                            p.act()
            assert ada.on is a and bo.on is b and ada.reconnects == bo.reconnects == 1
            record, actors = check_against_replay(url, str(t["id"]), people)
            # these pages never answer a response window, so each one that lapses is stored as
            # "timeout" (R-G20: the card stands); every other move is a person's or the bot's
            assert {"person", "bot"} <= {who for _, who in actors} <= {"person", "bot", "timeout"}
            assert all(in_window for in_window, who in window_moves(record, actors) if who == "timeout")
            assert len(record.actions) == len(set(range(len(record.actions))))
            assert held_by in (member_id(a), member_id(b))  # one of the two led it
            assert wait_for(lambda: lease_holder(url, str(t["id"])) is None, 30)  # and let go once it ended


def window_moves(record: GameRecord, actors: list[tuple[int, str]]) -> list[tuple[bool, str]]:
    """For each stored move, whether it answered a response window, and who made it
    (``actors`` holds a (seat, who) pair per stored move)."""
    state = replay_record(GameRecord(record.game, record.config, record.seed, [], {}))
    out = []
    for i, action in enumerate(record.actions):
        out.append((is_respond(state), actors[i][1]))
        state.apply(action)
    return out


KILLS = scaled(4, 20)
"""Processes killed in the soak below: 4 in the suite (two come back at once, two only
after the survivor took the lease), the 20 the issue asks for in ``scripts/soak.py``."""


def test_processes_killed_every_few_moves_lose_and_double_nothing(tmp_path: Path) -> None:
    """Ada prefers process A, Bo process B, the bot and the 2 s turn timer (Ada lets it run
    out now and then) live wherever the lease is. Every few moves the process leading the
    table (or else the other) is SIGKILLed; half the time it comes back at once, half the
    time only after the survivor had to take the lease. Games follow one another until
    there were KILLS kills. Then: every state each page was shown is the replay of the
    stored record for its seat, bots and timers kept playing after every kill, and the
    lease passed to a live process within a few seconds of its holder's death. The suite
    kills 4 times (about a tenth of the time); the soak (``scripts/soak.py``) 20."""
    with fresh_schema() as url:
        a, b = servers_on(url, tmp_path)
        with a, b:
            kills, takeovers, games = 0, [], []
            # killed process -> when to start it again, or the thread starting it
            down: dict[ServerProcess, float | threading.Thread] = {}
            while kills < KILLS or not games or not games[-1][2]:
                t = new_table(a if a not in down else b, bot_delay_ms=100, turn_timer=2, on_timeout="bot",
                              seed=100 + len(games))
                tid = str(t["id"])
                tokens = {i["seat"]: i["token"] for i in t["invites"]}  # type: ignore[attr-defined]
                ada, bo = Person(0, tokens[0], tid, [a, b]), Person(1, tokens[1], tid, [b, a])
                people = [ada, bo]
                games.append((tid, people, False))
                moves_at_kill, decisions, deadline = 0, 0, time.monotonic() + 300
                watching: tuple[str, float] | None = None  # the dead holder, and when it died
                while not all(p.latest and p.latest["over"] for p in people):
                    assert time.monotonic() < deadline, "the game stopped moving"
                    for srv, when in list(down.items()):
                        if isinstance(when, threading.Thread):
                            if not when.is_alive():  # it listens again
                                del down[srv]
                                for p in people:  # back to their own process
                                    if p.on is not p.servers[0]:
                                        p.drop()
                        elif time.monotonic() >= when:  # start it while the pages and bots go on
                            down[srv] = threading.Thread(target=srv.start)
                            down[srv].start()
                    for p in people:
                        p.poll()
                    for p in people:
                        if p.deciding():
                            decisions += 1
                            if p is ada and decisions % 4 == 0:  # let the turn timer play for her
                                p.acted_at.add(p.latest["state_id"])  # type: ignore[index]
                            else:
                                p.act()
                    moves = max((p.latest["state_id"] for p in people if p.latest), default=0)
                    if watching is not None:
                        holder = lease_holder(url, tid)
                        if holder is not None and holder != watching[0]:
                            takeovers.append(time.monotonic() - watching[1])
                            watching = None
                    if kills < KILLS and not down and moves - moves_at_kill >= 4:
                        holder = lease_holder(url, tid)
                        victim = a if member_id(a) == holder else b if member_id(b) == holder else \
                            (a if kills % 2 else b)
                        if member_id(victim) == holder:
                            watching = (holder or "", time.monotonic())
                        victim.kill()
                        kills += 1
                        moves_at_kill = moves
                        down[victim] = time.monotonic() + (0.0 if kills % 2 else 4.5)
                games[-1] = (tid, people, True)
            for srv, when in down.items():
                if isinstance(when, threading.Thread):
                    when.join()
                else:
                    srv.start()
            for tid, people, _ in games:
                _, actors = check_against_replay(url, tid, people)
                kinds = {who for _, who in actors}
                assert {"person", "bot"} <= kinds, kinds
            all_actors = [who for tid, _, _ in games for _, who in stored_actors(url, tid)]
            assert "timeout" in all_actors  # timers ran out and were played, across kills
            assert kills >= KILLS and len(takeovers) >= KILLS // 4, (kills, takeovers)
            assert max(takeovers) < 6.0, takeovers  # nominally at most LEASE_TTL + RENEW_EVERY = 3 s
            print(f"\n{kills} kills over {len(games)} game(s); lease taken over after "
                  f"{min(takeovers):.2f}..{max(takeovers):.2f} s (n={len(takeovers)})")


def stored_actors(url: str, tid: str) -> list[tuple[int, str]]:
    from cluster_support import stored_record

    return stored_record(url, tid)[1]


def test_lobby_joining_presence_and_stand_ins_work_across_processes(tmp_path: Path) -> None:
    """A listed table made on A is in B's lobby; two people join its one open seat at once
    through A and B, and one gets it. A (the table's leader) sees the winner's page on B
    as connected and lets no stand-in play for that seat until the page leaves. (Before
    anyone joined, the stand-in played the seat: nobody had sat there for absent_after.)"""
    from cluster_support import stored_record

    with fresh_schema() as url:
        a, b = servers_on(url, tmp_path)
        with a, b:
            r = httpx.post(a.url + "/api/tables", json={
                "seats": [{"kind": "open"}, {"kind": "bot", "level": "random"}], "listed": True,
                "replace_absent": True, "absent_after": 1.0, "bot_delay_ms": 50}, timeout=10)
            assert r.status_code == 201, r.text
            tid = r.json()["id"]
            listed = httpx.get(b.url + "/api/tables").json()
            assert [x["id"] for x in listed["tables"]] == [tid] and listed["tables"][0]["open_seats"] == 1
            answers: dict[str, httpx.Response] = {}
            gate = threading.Barrier(2)

            def join(srv: ServerProcess, name: str) -> None:
                gate.wait()
                answers[name] = httpx.post(f"{srv.url}/api/tables/{tid}/join", json={"name": name},
                                           timeout=10)

            racers = [threading.Thread(target=join, args=x) for x in ((a, "Eve"), (b, "Ada"))]
            for x in racers:
                x.start()
            for x in racers:
                x.join()
            # one open seat, two joins at once through two processes: exactly one gets it
            assert sorted(r.status_code for r in answers.values()) == [200, 409], answers
            winner, joined = next((k, r) for k, r in answers.items() if r.status_code == 200)
            assert wait_for(lambda: httpx.get(f"{a.url}/api/tables/{tid}").json()["seats"][0]["name"]
                            == winner, 30)
            ada = Person(0, joined.json()["token"], tid, [b])
            assert wait_for(lambda: (ada.poll(), ada.deciding())[1], 20)
            assert lease_holder(url, tid) == member_id(a)  # A leads; Ada is on B
            assert wait_for(lambda: httpx.get(f"{a.url}/api/tables/{tid}").json()["seats"][0]["connected"],
                            30)
            # once A knows her page is open, it is her decision at the newest stored state (a
            # stand-in's move already under way when A heard of her may land first: it is read here)
            def hers_at_the_newest() -> bool:
                ada.poll()
                return ada.deciding() and ada.latest is not None \
                    and ada.latest["state_id"] == len(stored_record(url, tid)[1])

            assert wait_for(hers_at_the_newest, 20)
            waiting_at = ada.latest["state_id"]  # type: ignore[index]
            time.sleep(3.0)  # three times absent_after: no stand-in while her page is open on B
            assert len(stored_record(url, tid)[1]) == waiting_at
            ada.poll()
            assert ada.latest["state_id"] == waiting_at  # type: ignore[index]
            ada.drop()
            assert wait_for(lambda: len(actors := stored_record(url, tid)[1]) > waiting_at
                            and actors[waiting_at] == (0, "stand_in"), 15)
