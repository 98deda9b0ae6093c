"""Live tables on a real server process: bots, the store, crash recovery by
replay, hidden hands, timers, stand-in bots and playing again (issue 6)."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection

from gloomtable.engine.record import GameRecord
from gloomtable.games import replay_record
from gloomtable.server.testing import LiveServer, ServerProcess, ServerThread
from server_support import create_table, invite_token, next_state, open_ws, play_first_choice


@pytest.fixture
def server(tmp_path: Any) -> Iterator[ServerThread]:
    """A fresh server for each test, in a thread of this process."""
    with ServerThread(tmp_path / "tables.db") as srv:
        yield srv


@pytest.fixture
def server_process(tmp_path: Any) -> Iterator[ServerProcess]:
    """A fresh server process, for a test that kills it."""
    with ServerProcess(tmp_path / "tables.db") as srv:
        yield srv


def stored_record(server: LiveServer, table_id: str) -> GameRecord:
    db = sqlite3.connect(server.db)
    try:
        game, config, seed = db.execute("SELECT game, config, seed FROM tables WHERE id=?",
                                        (table_id,)).fetchone()
        rows = db.execute("SELECT action, narration FROM actions WHERE table_id=? ORDER BY idx",
                          (table_id,)).fetchall()
    finally:
        db.close()
    narration = {i: text for i, (_, text) in enumerate(rows) if text}
    return GameRecord(game, json.loads(config), seed, [a for a, _ in rows], narration)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["gloom", "creatures"])
def test_bots_play_a_whole_game_and_the_store_replays_it(server: LiveServer, game: str) -> None:
    t = create_table(server, game=game, seats=[{"kind": "bot"}] * 3, bot_delay_ms=0, seed=11)
    with open_ws(server, t) as spectator:
        final = next_state(spectator, lambda m: m["over"], timeout=40)
        spectator.send('{"type": "sync"}')
        full_log = next_state(spectator)["log"]  # a sync resends the log from the start
    assert final["view"]["result"]["winners"]
    record = stored_record(server, t["id"])
    assert len(record.actions) == final["state_id"]
    state = replay_record(record)
    assert state.is_over() and state.result().to_dict() == final["view"]["result"]
    if game == "gloom":
        assert record.narration, "bots narrate their plays (R-G27)"
        assert any(e["kind"] == "narration" for e in full_log)
    assert httpx.get(f"{server.url}/api/tables/{t['id']}").json()["over"] is True


def states_at(socks: dict[int, ClientConnection], state_id: int) -> dict[int, dict[str, Any]]:
    """Each socket's state message for ``state_id`` (earlier ones are skipped)."""
    return {seat: next_state(ws, lambda m: m["state_id"] == state_id) for seat, ws in socks.items()}


def act_at(socks: dict[int, ClientConnection], states: dict[int, dict[str, Any]], **kw: Any) -> None:
    """The deciding seat plays its first choice."""
    (seat,) = [seat for seat, m in states.items() if m["choices"]]
    play_first_choice(socks[seat], states[seat], **kw)


@pytest.mark.slow
def test_killed_server_resumes_every_unfinished_table(server_process: ServerProcess) -> None:
    server = server_process
    t = create_table(server, seats=[{"kind": "person"}, {"kind": "person"}], seed=4)
    with open_ws(server, t, invite_token(t, 0)) as a, open_ws(server, t, invite_token(t, 1)) as b:
        socks = {0: a, 1: b}
        for state_id in range(12):
            act_at(socks, states_at(socks, state_id), narration="Steady now." if state_id == 3 else None)
        before = states_at(socks, 12)
    server.kill()
    server.start()
    with open_ws(server, t, invite_token(t, 0)) as a, open_ws(server, t, invite_token(t, 1)) as b:
        socks = {0: a, 1: b}
        after = states_at(socks, 12)
        for seat in (0, 1):
            assert after[seat]["view"] == before[seat]["view"]
        assert any(e["kind"] == "narration" and e["text"] == "Steady now." for e in after[0]["log"])
        act_at(socks, after)
        states_at(socks, 13)
    assert len(stored_record(server, t["id"]).actions) == 13


def _names(msgs: list[str], names: set[str]) -> set[str]:
    return {n for n in names if any(n in m for m in msgs)}


@pytest.mark.slow
def test_each_seat_sees_only_its_own_hand(server: LiveServer) -> None:
    t = create_table(server, seats=[{"kind": "person"}, {"kind": "person"}], seed=8)
    cards = httpx.get(f"{server.url}/api/tables/{t['id']}/cards").json()["cards"]
    raw: dict[int, list[str]] = {0: [], 1: []}
    hands: dict[int, list[set[int]]] = {0: [], 1: []}
    with open_ws(server, t, invite_token(t, 0)) as a, open_ws(server, t, invite_token(t, 1)) as b:
        socks = {0: a, 1: b}
        deciding = None
        for state_id in range(30):
            for seat, ws in socks.items():
                while True:  # read up to the current state on both sockets
                    text = ws.recv(timeout=10)
                    raw[seat].append(text)
                    msg = json.loads(text)
                    if msg["type"] == "state" and msg["state_id"] == state_id:
                        hands[seat].append(set(msg["view"]["hand"]))
                        for other in (0, 1):
                            if other != seat:
                                assert msg["view"]["hand_sizes"][other] >= 0
                        if msg["choices"]:
                            deciding = (seat, msg)
                        break
            assert deciding is not None
            seat, msg = deciding
            play_first_choice(socks[seat], msg)
            deciding = None
    for seat, other in ((0, 1), (1, 0)):
        kept = set.intersection(*hands[other])  # cards that never left the other's hand
        assert kept, "the test needs cards that stayed hidden"
        names = {cards[c]["name"] for c in kept}
        assert not _names(raw[seat], names), f"seat {seat} was told a card of seat {other}'s hand"
        for text in raw[seat]:
            msg = json.loads(text)
            if msg["type"] == "state":
                assert not kept & set(msg["view"]["hand"])


@pytest.mark.slow
@pytest.mark.parametrize("on_timeout", ["bot", "pass"])
def test_turn_timer_passes_or_lets_a_bot_play(server: LiveServer, on_timeout: str) -> None:
    # the stand-in is "easy", which plays rather than passes when it can (bots draw their own
    # randomness, not the deal's, so a random one might pass)
    t = create_table(server, seats=[{"kind": "person", "level": "easy"}] * 2, turn_timer=1,
                     on_timeout=on_timeout, seed=2)
    with open_ws(server, t) as spectator:
        first = next_state(spectator)
        assert first["deadline"] and first["deadline"] > time.time()
        next_state(spectator, lambda m: m["state_id"] >= 3, timeout=12)
    db = sqlite3.connect(server.db)
    rows = db.execute("SELECT action, actor FROM actions WHERE table_id=? ORDER BY idx",
                      (t["id"],)).fetchall()
    db.close()
    assert {actor for _, actor in rows} == {"timeout"}
    # the two family choices cannot be passed, so a bot chose; the first play can
    assert rows[0][0] != 0 and rows[1][0] != 0
    assert (rows[2][0] == 0) == (on_timeout == "pass")


def actors_of(server: LiveServer, table_id: str, seat: int) -> list[str]:
    db = sqlite3.connect(server.db)
    try:
        return [a for (a,) in db.execute("SELECT actor FROM actions WHERE table_id=? AND seat=? ORDER BY idx",
                                         (table_id, seat))]
    finally:
        db.close()


@pytest.mark.slow
def test_absent_person_is_replaced_by_a_bot_and_takes_the_seat_back(server: LiveServer) -> None:
    # 0.1 s a move, so the game is not over before the person is back (a quick bot on
    # the loop with no delay at all played the whole game first on a busy machine)
    t = create_table(server, seats=[{"kind": "person"}, {"kind": "bot"}], replace_absent=True,
                     absent_after=0.2, bot_delay_ms=100, seed=6)
    with open_ws(server, t) as spectator:
        next_state(spectator, lambda m: m["state_id"] >= 6, timeout=15)
    assert set(actors_of(server, t["id"], 0)) == {"stand_in"}
    with open_ws(server, t, invite_token(t, 0)) as me:
        msg = next_state(me, lambda m: bool(m["choices"]) or m["over"], timeout=15)
        assert not msg["over"]
        assert msg["seats"][0]["connected"] and not msg["seats"][0]["stand_in"]
        played = len(actors_of(server, t["id"], 0))
        time.sleep(0.6)  # longer than absent_after: nobody plays for a seat whose person is back
        me.send('{"type": "sync"}')
        assert next_state(me)["state_id"] == msg["state_id"]
        assert len(actors_of(server, t["id"], 0)) == played
        play_first_choice(me, msg)
        next_state(me, lambda m: m["state_id"] == msg["state_id"] + 1)
    assert actors_of(server, t["id"], 0)[played] == "person"


@pytest.mark.slow
def test_play_again_with_the_same_seats(server: LiveServer) -> None:
    t = create_table(server, game="creatures", seats=[{"kind": "person"}, {"kind": "bot", "level": "random"}],
                     bot_delay_ms=0, replace_absent=True, absent_after=0, seed=9)
    token = t["invites"][0]["token"]
    waiting = create_table(server, seats=[{"kind": "person"}, {"kind": "person"}])
    r = httpx.post(f"{server.url}/api/tables/{waiting['id']}/again", json={"token": waiting["host_token"]})
    assert r.status_code == 409 and r.json()["code"] == "not_over"
    with open_ws(server, t) as spectator:
        next_state(spectator, lambda m: m["over"], timeout=40)
        assert httpx.post(f"{server.url}/api/tables/{t['id']}/again", json={"token": "x"}).json()["code"] \
            == "bad_token"
        # a table that played itself, with no person's page open, is not played again
        r = httpx.post(f"{server.url}/api/tables/{t['id']}/again", json={"token": token})
        assert r.status_code == 409 and r.json()["code"] == "nobody_here"
        with open_ws(server, t, token) as person:  # the person comes back to the end screen
            next_state(person, lambda m: m["over"])
            new = httpx.post(f"{server.url}/api/tables/{t['id']}/again", json={"token": token}).json()
            told = next_state(spectator, lambda m: m["next_table"] is not None)
    assert told["next_table"] == new["id"]
    again = httpx.post(f"{server.url}/api/tables/{t['id']}/again", json={"token": token}).json()
    assert again["id"] == new["id"]  # asking twice gives the same next table
    with open_ws(server, new, token) as ws:
        msg = next_state(ws)
        assert msg["seat"] == 0 and msg["state_id"] >= 0
        assert [s["kind"] for s in msg["seats"]] == ["person", "bot"]
