"""Deltas to the pages (server/deltas.py, docs/server.md "Deltas"): after one full
state, a connection that opted in gets JSON Patches, and at every step of whole
seeded games, for every seat, a spectator and a page in another language, the
patched document is the full state message a connection without deltas got, and
no patch carries a value the full view does not show there."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonpatch
import pytest
from websockets.sync.client import connect

from delta_support import check_patch
from gloomtable.engine import Rng
from gloomtable.games import make_game
from gloomtable.server.deltas import LOG_KEYS, PatchError, apply_patch, diff, document, dumps
from gloomtable.server.store import SeatRow, TableRow, open_store
from gloomtable.server.table import Conn, LiveTable
from gloomtable.server.testing import ServerProcess
from server_support import (
    PEOPLE,
    create_table,
    invite_token,
    next_of,
    next_state,
    play_first_choice,
    read_until,
)
from test_creatures_properties import card_ids_in, hidden_from

CONFIGS = {"gloom": {"players": 4}, "gloomier": {"players": 3}, "creatures": {"players": 3}}


def test_diff_round_trips_the_awkward_cases() -> None:
    cases: list[tuple[Any, Any]] = [
        ({"a": [1, 2, 3, 4]}, {"a": [1, 3, 4]}),  # one card leaves the middle of a hand
        ({"a": [1, 2]}, {"a": [1, 2, 9, 8]}),  # two are drawn
        ({"a": [5, 1, 2]}, {"a": [7, 8, 1, 2]}),  # the head changes and grows
        ({"x/y": 1, "~t": 2}, {"x/y": 3, "~t": 2, "n": None}),  # pointer escapes
        ({"b": 1}, {"b": True}), ({"b": 1}, {"b": 1.0}), ({"b": [1]}, {"b": {"0": 1}}),
        ({"gone": {"deep": [1]}}, {}), ([1, 2], {"a": 1}), ({"v": None}, {"v": [None]}),
        ({"l": [{"id": 1, "n": "a"}, {"id": 2}]}, {"l": [{"id": 1, "n": "b"}, {"id": 2}, {"id": 3}]}),
    ]
    for old, new in cases:
        ops = check_patch(old, new)
        assert apply_patch(json.loads(json.dumps(old)), ops) == new
        assert diff(new, new) == []
    assert diff({"a": [1, 2, 3, 4]}, {"a": [1, 3, 4]}) == [{"op": "remove", "path": "/a/1"}]


def test_apply_patch_refuses_what_does_not_apply() -> None:
    for doc, ops in [({"a": 1}, [{"op": "replace", "path": "/b", "value": 2}]),
                     ({"a": [1]}, [{"op": "remove", "path": "/a/1"}]),
                     ({"a": [1]}, [{"op": "add", "path": "/a/3", "value": 2}]),
                     ({"a": 1}, [{"op": "add", "path": "/a/b", "value": 2}]),
                     ({"a": 1}, [{"op": "move", "path": "/b", "from": "/a"}]),
                     ({"a": 1}, [{"op": "remove", "path": ""}]), ({"a": 1}, [{"op": "add", "path": "a"}])]:
        with pytest.raises(PatchError):
            apply_patch(doc, ops)


def test_dumps_falls_back_where_orjson_refuses() -> None:
    assert json.loads(dumps({"n": 2**70, "s": "\ud800", 3: "k"})) == {"n": 2**70, "s": "\ud800", "3": "k"}
    assert dumps({"a": [1, "я"]}) == '{"a":[1,"я"]}'


class Page:
    """One connection as a page sees it: the messages it was sent, decoded, and (with
    deltas) the document its patches keep up to date."""

    def __init__(self, table: LiveTable, seat: int | None, lang: str, deltas: bool) -> None:
        self.conn = Conn(seat, lang=lang, deltas=deltas)
        self.doc: dict[str, Any] | None = None
        self.rev = 0
        self.states: list[dict[str, Any]] = []
        """Every state it holds after each state or patch message, with that message's log."""
        self.patches: list[list[dict[str, Any]]] = []
        self.sizes: list[int] = []
        table.attach(self.conn)

    def drain(self) -> None:
        while not self.conn.queue.empty():
            text = self.conn.queue.get_nowait()
            assert text is not None
            self.conn.sent(text)
            msg = json.loads(text)
            if msg["type"] == "state":
                self.sizes.append(len(text))
                if self.conn.deltas:
                    self.rev = msg["rev"]
                self.doc = document(msg)
                self.states.append(msg)
            elif msg["type"] == "patch":
                self.sizes.append(len(text))
                assert self.conn.deltas and self.doc is not None and msg["base"] == self.rev
                assert msg["from_state_id"] == self.doc["state_id"]
                old = self.doc
                self.doc = jsonpatch.apply_patch(old, msg["ops"])  # not our applier: the RFC's
                assert self.doc["state_id"] == msg["state_id"]
                self.rev = msg["rev"]
                check_patch(old, self.doc)
                self.patches.append(msg["ops"])
                self.states.append({**self.doc, "log_start": msg["log_start"], "log": msg["log"]})


def values_in(ops: list[dict[str, Any]]) -> list[Any]:
    return [op["value"] for op in ops if "value" in op]


async def play(tmp_path: Path, game: str, seed: int) -> dict[str, list[int]]:
    store = open_store(tmp_path / f"{game}-{seed}.db")
    players = CONFIGS[game]["players"]
    seats = [SeatRow(i, "person", "random", f"P{i}", f"tok{i}") for i in range(players)]
    row = TableRow(f"t-{game}-{seed}", game, CONFIGS[game], seed, {"spectators": True}, True, "host", seats)
    store.create_table(row)
    table = LiveTable.open(row, store)
    viewers: list[int | None] = [*range(players), None]
    pairs = [(Page(table, v, lang, False), Page(table, v, lang, True))
             for v in viewers for lang in (("en", "ru", "en") if v in (0, None) else ("en",))]
    rng = Rng(seed)
    steps = 0

    def check() -> None:
        for full, delta in pairs:
            full.drain()
            delta.drain()
            assert len(full.states) == len(delta.states)
            for a, b in zip(full.states[-3:], delta.states[-3:], strict=True):
                assert {k: v for k, v in a.items() if k not in LOG_KEYS} == document(b)
                assert (a["log_start"], a["log"]) == (b["log_start"], b["log"])
            if game == "creatures" and delta.patches:  # the game's own leak check, on the patch
                seen = card_ids_in({"values": values_in(delta.patches[-1])})
                assert not seen & hidden_from(table.state, delta.conn.seat)  # type: ignore[arg-type]

    check()
    while not table.over and steps < 2000:
        before, w = table.state_id, table.window
        if w is not None:
            for q in w.seats:
                if q in w.states and not w.answered(q):
                    options = w.options[q]
                    await table.submit(seat_conn(pairs, q),
                                       options[rng.below(len(options))], w.start_id, None)
            check()
            while (table.state_id == before and table.window is w) or table.lock.locked():
                await asyncio.sleep(0.001)  # the window's own task closes it, storing each answer
        else:
            legal = table.state.legal_actions()
            seat = table.state.current_player()
            await table.submit(seat_conn(pairs, seat), legal[rng.below(len(legal))], table.state_id, None)
        steps += 1
        check()
    assert table.over
    table.close()
    store.close()
    return {"full": [n for full, _ in pairs for n in full.sizes],
            "delta": [n for _, delta in pairs for n in delta.sizes]}


def test_pages_sent_the_same_state_share_one_diff(tmp_path: Path) -> None:
    """Two spectators (and a seat's two pages) after the same state get the same patch,
    made once: the second page's document is the very object the first one's is."""

    async def go() -> None:
        store = open_store(tmp_path / "s.db")
        seats = [SeatRow(i, "person", "random", f"P{i}", f"tok{i}") for i in range(2)]
        row = TableRow("t", "creatures", {"players": 2}, 3, {"spectators": True}, True, "host", seats)
        store.create_table(row)
        table = LiveTable.open(row, store)
        pages = [Page(table, v, "en", True) for v in (None, None, 0, 0, 1)]
        for _ in range(3):
            seat = table.state.current_player()
            await table.submit(pages[2 + 2 * seat].conn, table.state.legal_actions()[0], table.state_id, None)
            for p in pages:
                p.drain()
            assert pages[0].conn.shown is pages[1].conn.shown and pages[2].conn.shown is pages[3].conn.shown
            assert pages[0].doc == pages[1].doc and pages[2].doc == pages[3].doc != pages[0].doc
        table.close()
        store.close()

    asyncio.run(go())


def seat_conn(pairs: list[tuple[Page, Page]], seat: int) -> Conn:
    return next(full.conn for full, _ in pairs if full.conn.seat == seat)


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_patches_of_a_whole_game_give_every_page_its_full_view(tmp_path: Path, game: str) -> None:
    sizes = asyncio.run(play(tmp_path, game, 11))
    assert sum(sizes["delta"]) < sum(sizes["full"]) / 2  # and they are much smaller


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 5))
@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_patches_of_more_seeded_games(tmp_path: Path, game: str, seed: int) -> None:
    asyncio.run(play(tmp_path, game, 100 + seed))


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None, reason="the page's patch code runs under Node here")
def test_the_pages_own_code_applies_the_patches_of_a_game(tmp_path: Path) -> None:
    """web/net.js's applyPatch, run by Node, turns each state into the next of a whole
    game (every seat's and a spectator's), and refuses a patch that does not apply."""
    game = make_game("gloom", {"players": 4})
    state = game.new_initial_state(5)
    rng = Rng(5)
    cases: list[list[Any]] = []
    views = {v: state.view(v) for v in (0, 1, 2, 3, None)}
    while not state.is_over():
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
        for v, old in views.items():
            new = json.loads(dumps(state.view(v)))
            cases.append([old, diff(old, new), new])
            views[v] = new
    cases.append([{"a": [1, 2, 3, 4], "k": {"x/y": 1}}, diff({"a": [1, 2, 3, 4], "k": {"x/y": 1}},
                                                              {"a": [1, 3, 4], "k": {"x/y": 2}}),
                  {"a": [1, 3, 4], "k": {"x/y": 2}}])
    out = subprocess.run(["node", str(Path(__file__).parent / "patch_node.mjs")], input=json.dumps(cases),
                         capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(out.stdout) == {"cases": len(cases), "unlike": 0, "refused": 2}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One sync per seat an hour: the second sync of a test is refused, however slow the machine."""
    db = tmp_path_factory.mktemp("deltas") / "tables.db"
    with ServerProcess(db, args=["--sync-rate", "1/hour"]) as srv:
        yield srv


def hello(token: str | None, deltas: Any = True) -> str:
    return json.dumps({"type": "hello", "token": token, "deltas": deltas})


@pytest.mark.slow
def test_a_page_that_opts_in_gets_one_state_then_patches_and_a_sync_resyncs(server: ServerProcess) -> None:
    """Over a real socket: the hello's ``"deltas": true`` gets a full state (``rev`` 1),
    then patches whose ``base`` is the last ``rev``; a ``sync`` gets a full state again;
    a sync refused for its rate still makes the next state a full one; a spectator
    with deltas keeps step with one without; a connection that did not ask gets states."""
    table = create_table(server, game="creatures", config={"players": 2}, seats=PEOPLE)
    tokens = [invite_token(table, 0), invite_token(table, 1)]
    url = f"{server.ws_url}/ws/{table['id']}"
    with connect(url, max_size=2**22) as me, connect(url, max_size=2**22) as other, \
            connect(url, max_size=2**22) as watcher, connect(url, max_size=2**22) as plain:
        me.send(hello(tokens[0]))
        other.send(hello(tokens[1], False))
        watcher.send(hello(None))
        plain.send(server.hello(None))
        first = next_of(me, "state")
        assert first["rev"] == 1 and "resync" not in first
        assert "rev" not in next_of(plain, "state")
        docs = {"me": document(first), "watcher": document(next_of(watcher, "state"))}
        revs = {"me": 1, "watcher": 1}
        conns = {"me": me, "watcher": watcher}
        seen = {"other": next_of(other, "state")}

        def act() -> int:
            """The seat deciding plays its first choice; the state id it was chosen in."""
            sid = int(docs["me"]["state_id"])
            if docs["me"]["deciding"] == 0:
                play_first_choice(me, docs["me"])
            else:
                if seen["other"]["state_id"] != sid:
                    seen["other"] = next_state(other, lambda m: m["state_id"] == sid)
                play_first_choice(other, seen["other"])
            return sid

        def follow(name: str, sid: int) -> dict[str, Any]:
            """Every message of a delta page, in order, until its state is past ``sid``: the last."""
            while True:
                msg = read_until(conns[name], lambda m: m["type"] in ("patch", "state"))
                if msg["type"] == "patch":
                    assert msg["base"] == revs[name] and msg["rev"] == revs[name] + 1
                    assert msg["from_state_id"] == docs[name]["state_id"]
                    docs[name] = apply_patch(docs[name], msg["ops"])
                else:
                    docs[name] = document(msg)
                revs[name] = msg["rev"]
                if docs[name]["state_id"] > sid:
                    return msg

        def move() -> None:
            sid = act()
            for name in conns:
                assert follow(name, sid)["type"] == "patch"
            full = next_state(plain, lambda m: m["state_id"] == docs["watcher"]["state_id"])
            assert document(full) == docs["watcher"]

        move()
        move()
        me.send(json.dumps({"type": "sync"}))
        again = next_of(me, "state")
        assert again["resync"] is True and again["rev"] == revs["me"] + 1 and document(again) == docs["me"]
        revs["me"] = again["rev"]
        move()
        me.send(json.dumps({"type": "sync"}))  # over --sync-rate
        assert read_until(me, lambda m: m["type"] in ("state", "error"))["code"] == "rate_limited"
        sid = act()
        whole = follow("me", sid)
        assert whole["type"] == "state" and "resync" not in whole  # asked or not, it comes whole
    with connect(url) as bad:
        bad.send(hello(None, "yes"))
        assert next_of(bad, "error")["code"] == "bad_message"
