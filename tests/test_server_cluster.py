"""Several ``gloom serve`` processes, one site (issue 17): two processes on one
PostgreSQL schema share a table whose two people sit on different processes,
with a bot and a turn timer; then the same while processes are SIGKILLed and
restarted every few moves."""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from cluster_support import Person, check_against_replay, lease_holder, member_id, servers_on, wait_for
from gloomtable.server.testing import ServerProcess
from pg_support import fresh_schema

SEATS = [{"kind": "person", "name": "Ada"}, {"kind": "person", "name": "Bo"},
         {"kind": "bot", "level": "random", "name": "Cy"}]


def new_table(srv: ServerProcess, **options: object) -> dict[str, object]:
    r = httpx.post(srv.url + "/api/tables", json={"seats": SEATS, "listed": False, **options}, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def race_one_move(p: Person, other: ServerProcess) -> None:
    """The same move sent through both processes at once: exactly one is stored."""
    twin = Person(p.seat, p.token, p.table_id, [other])
    assert wait_for(lambda: (twin.poll(), twin.latest)[1], 10)
    assert twin.latest and p.latest and twin.latest["state_id"] == p.latest["state_id"]
    twin.act()
    p.act()
    assert wait_for(lambda: (twin.poll(), p.poll(), twin.errors + p.errors)[2], 5)
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
            raced = False
            deadline = time.monotonic() + 120
            while not (ada.latest and ada.latest["over"] and bo.latest and bo.latest["over"]):
                assert time.monotonic() < deadline, "the game did not end"
                for p in people:
                    p.poll()
                for p in people:
                    if p.deciding():
                        if not raced:
                            raced = True
                            race_one_move(p, b if p.on is a else a)
                        else:
                            p.act()
            assert ada.on is a and bo.on is b and ada.reconnects == bo.reconnects == 1
            record, actors = check_against_replay(url, str(t["id"]), people)
            assert {who for _, who in actors} == {"person", "bot"}
            assert len(record.actions) == len(set(range(len(record.actions))))
            holder = lease_holder(url, str(t["id"]))
            assert holder in (member_id(a), member_id(b))
