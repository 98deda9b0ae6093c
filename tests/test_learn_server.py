"""Learn to play on a real server: a lesson table follows the same deal, bots and
steps as ``gloom learn``; a wrong move is refused with the step's words; the
learner's page hears the step, what fits and a suggested move."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from gloomtable.learn import Guide, lesson_for
from gloomtable.server.testing import LiveServer, ServerThread

MAX_MESSAGES = 20000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with ServerThread(tmp_path_factory.mktemp("learn") / "tables.db") as srv:
        yield srv


def start(server: LiveServer, name: str) -> tuple[str, str]:
    r = httpx.post(server.url + "/api/lessons", json={"lesson": name})
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["link"].startswith(f"/table/{body['table']}#token=")
    return body["table"], body["link"].split("#token=")[1]


def states(ws: ClientConnection, timeout: float = 60) -> Iterator[dict[str, Any]]:
    deadline = time.monotonic() + timeout
    for _ in range(MAX_MESSAGES):
        msg = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if msg["type"] == "error":
            raise AssertionError(msg)
        if msg["type"] == "state":
            yield msg
    raise AssertionError("too many messages")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["gloom", "creatures"])
def test_a_lesson_table_plays_the_same_game_as_the_terminal_guide(server: LiveServer, name: str) -> None:
    table, token = start(server, name)
    listing = httpx.get(server.url + "/api/tables").json()
    assert table not in json.dumps(listing)  # a lesson's table is never listed
    done: list[str] = []
    with connect(f"{server.ws_url}/ws/{table}", max_queue=4096) as ws:
        ws.send(server.hello(token))
        for msg in states(ws, timeout=240):
            lesson = msg["lesson"]
            if lesson["done"]:
                break
            if lesson["read"]:
                done.append(lesson["step_id"])
                ws.send(json.dumps({"type": "lesson_next"}))
                continue
            if msg["choices"] and msg["deciding"] == 0:
                if lesson["fitting"]:
                    assert lesson["suggest"] == lesson["fitting"][0]
                    done.append(lesson["step_id"])
                ws.send(json.dumps({"type": "act", "action": lesson["suggest"], "state_id": msg["state_id"]}))
    assert done == [s.id for s in lesson_for(name).steps]
    # The same moves as the terminal's guide: the stored record is its game.
    guide = Guide(lesson_for(name))
    while guide.step is not None:
        if guide.step.expect is None:
            guide.next()
        else:
            assert guide.act(guide.auto_action()).done
    db = sqlite3.connect(server.db)
    try:
        stored = [a for (a,) in db.execute(
            "SELECT action FROM actions WHERE table_id=? ORDER BY idx", (table,))]
    finally:
        db.close()
    k = min(len(stored), len(guide.actions))
    diff = next((i for i in range(k) if stored[i] != guide.actions[i]), None)
    assert k >= 3 and diff is None, f"the server's game left the guide's at action {diff}"


@pytest.mark.slow
def test_a_wrong_move_is_refused_with_the_steps_words(server: LiveServer) -> None:
    table, token = start(server, "gloom")
    lesson = lesson_for("gloom")
    with connect(f"{server.ws_url}/ws/{table}", max_queue=4096) as ws:
        ws.send(server.hello(token))
        for msg in states(ws):
            step = msg["lesson"]
            if step["read"]:
                ws.send(json.dumps({"type": "lesson_next"}))
            elif msg["deciding"] == 0 and step["fitting"]:
                wrong = [c["action"] for c in msg["choices"] if c["action"] not in step["fitting"]]
                if wrong:
                    break
                ws.send(json.dumps({"type": "act", "action": step["suggest"], "state_id": msg["state_id"]}))
        ws.send(json.dumps({"type": "act", "action": wrong[0], "state_id": msg["state_id"]}))
        for _ in range(50):
            reply = json.loads(ws.recv(timeout=10))
            if reply["type"] == "error":
                break
        assert reply["code"] == "lesson_step"
        expected = next(s for s in lesson.steps if s.id == step["step_id"])
        assert reply["message"] == expected.wrong


def test_an_unknown_lesson_is_a_clear_error(server: LiveServer) -> None:
    r = httpx.post(server.url + "/api/lessons", json={"lesson": "chess"})
    assert r.status_code == 400
    assert "no lesson 'chess'" in r.json()["message"]
    r = httpx.post(server.url + "/api/lessons", json={"lesson": ["gloom"]})
    assert r.status_code == 400
