"""JSON and TOML from outside fail with a clear error, never a traceback, in every
way the standard parsers fail: a syntax error, nesting deeper than Python's stack,
an integer longer than CPython converts (4,300 digits: a few kilobytes, inside
every size cap), bytes that are not UTF-8 (``gloomtable.engine.textdata``).

Against the real parts: a server on loopback (a request body, a websocket hello and
a message, a deck sent to the gallery), and the ``gloom`` commands that read decks
and records."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from cli_support import gloom
from gloomtable.engine.record import GameRecord, RecordFormatError
from gloomtable.engine.textdata import TextDataError, load_json, load_toml
from gloomtable.games.gloom.deck import DeckError, parse_deck
from gloomtable.server.testing import ServerProcess

DIGITS = sys.get_int_max_str_digits()
LONG = "7" * (DIGITS + 1)
"""An integer one digit longer than CPython converts from text."""
SEATS = [{"kind": "person", "name": "Ada"}, {"kind": "person", "name": "Bo"}]


@pytest.mark.parametrize(("text", "says"), [
    ('{"seed": ' + LONG + "}", f"not JSON: a number has more than {DIGITS} digits"),
    ("[" * 100_000 + "]" * 100_000, "not JSON: nested too deeply"),
    (b'{"a": "\xff"}', "not JSON: not UTF-8 text"),
    ("{nope", "not JSON: Expecting property name enclosed in double quotes: line 1 column 2"),
])
def test_json_fails_one_way(text: str | bytes, says: str) -> None:
    with pytest.raises(TextDataError) as err:
        load_json(text)
    assert str(err.value).startswith(says), str(err.value)


@pytest.mark.parametrize(("text", "says"), [
    (f"seed = {LONG}\n", f"not valid TOML: a number has more than {DIGITS} digits"),
    ("a = " + "[" * 100_000, "not valid TOML: nested too deeply"),
    ("[[modifiers]\n", "not valid TOML: "),
])
def test_toml_fails_one_way(text: str, says: str) -> None:
    with pytest.raises(TextDataError) as err:
        load_toml(text)
    assert str(err.value).startswith(says), str(err.value)
    assert "set_int_max_str_digits" not in str(err.value)  # advice for programmers, not for a designer


def test_a_deck_and_a_record_name_the_problem(tmp_path: Path) -> None:
    """The readers above them keep their own error types and say where."""
    with pytest.raises(DeckError, match=f"my.toml.*a number has more than {DIGITS} digits"):
        parse_deck(f"[set]\nname = 1{LONG}\n", "my.toml")
    with pytest.raises(RecordFormatError, match="not JSON: nested too deeply"):
        GameRecord.from_json("[" * 100_000)
    deck = tmp_path / "long.toml"
    deck.write_text(f'[set]\nname = "Long"\nversion = {LONG}\n')
    proc = gloom("deck", "check", str(deck))
    assert proc.returncode == 1 and f"more than {DIGITS} digits" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("text") / "tables.db") as srv:
        yield srv


def test_the_server_answers_bad_text_with_bad_json(server: ServerProcess) -> None:
    """A request body, a hello and a message each holding a number too long to
    convert: 400 / ``bad_json`` saying so, and no traceback in the server's log."""
    body = '{"seats": ' + json.dumps(SEATS) + ', "seed": ' + LONG + "}"
    r = httpx.post(server.url + "/api/tables", content=body, timeout=20,
                   headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.json()["code"] == "bad_json" and f"more than {DIGITS} digits" in r.json()["message"]

    r = httpx.post(server.url + "/api/tables", json={"seats": SEATS}, timeout=20)
    assert r.status_code == 201, r.text
    url = f"{server.ws_url}/ws/{r.json()['id']}"
    with connect(url, open_timeout=20) as conn:
        conn.send('{"type": "hello", "token": ' + LONG + "}")
        msg = json.loads(conn.recv(timeout=20))
        assert msg["code"] == "bad_json" and msg["message"].startswith("the hello is not JSON"), msg
    with connect(url, open_timeout=20) as conn:
        conn.send(server.hello(None))
        while json.loads(conn.recv(timeout=20))["type"] != "seats":
            pass
        conn.send('{"type": "act", "action": ' + LONG + "}")
        msg = json.loads(conn.recv(timeout=20))
        while "code" not in msg and msg["type"] in ("talk", "state", "seats"):  # what a page is sent anyway
            msg = json.loads(conn.recv(timeout=20))
        assert msg["code"] == "bad_json" and f"more than {DIGITS} digits" in msg["message"], msg
        conn.send('{"type": "ping"}')
        assert json.loads(conn.recv(timeout=20))["type"] == "pong"  # the socket goes on

    r = httpx.post(server.url + "/api/gallery", content=f"[set]\nname = {LONG}\n", timeout=20)
    assert r.status_code == 400, r.text
    assert r.json()["problems"] == [f"not valid TOML: a number has more than {DIGITS} digits"]
    assert "Traceback" not in server.log_path.read_text()
