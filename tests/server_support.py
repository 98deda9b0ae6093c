"""Small helpers for the tests that talk to a live ``gloom serve`` (a
:class:`~gloomtable.server.testing.ServerProcess` or ``ServerThread`` on 127.0.0.1): create a table over
the HTTP API, open a websocket that names its seat in its first message, read until
the message a test waits for, and check an HTTP error's JSON shape.

Every read is bounded in messages and in time, so a server that says too much or
too little fails the test instead of hanging it. A test file that wants other
defaults binds them once, e.g. ``create = partial(create_table, seats=THREE)``.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from gloomtable.server.errors import CODES
from gloomtable.server.testing import LiveServer

Message = dict[str, Any]
"""One JSON message from the server's websocket."""

PEOPLE: list[dict[str, Any]] = [{"kind": "person", "name": "Ada"}, {"kind": "person", "name": "Bo"}]
"""Two invited people: the default table."""

MAX_MESSAGES = 5000
"""No helper reads more messages than this while waiting for one."""
RATE_WINDOW = 2.0
"""Seconds of the server's default --message-rate window (40/2seconds)."""


def post_table(server: LiveServer, *, timeout: float = 20, headers: Mapping[str, str] | None = None,
               **body: Any) -> httpx.Response:
    """``POST /api/tables`` with ``body`` as JSON (and ``headers``, e.g. a proxy's
    ``X-Forwarded-For``), whatever the answer (for tests of refusals)."""
    return httpx.post(server.url + "/api/tables", json=body, headers=headers, timeout=timeout)


def create_table(server: LiveServer, *, seats: Sequence[Mapping[str, Any]] = PEOPLE,
                 timeout: float = 20, **body: Any) -> dict[str, Any]:
    """A new table (``201`` asserted): its summary with ``id``, ``invites`` and ``host_token``."""
    r = post_table(server, timeout=timeout, seats=list(seats), **body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def invite_token(table: Mapping[str, Any], i: int) -> str:
    """The token of the table's ``i``-th invite (seat ``i`` when every seat before it is a person's)."""
    return str(table["invites"][i]["token"])


@contextlib.contextmanager
def open_ws(server: LiveServer, table: Mapping[str, Any] | str, token: str | None = None,
            **connect_kw: Any) -> Iterator[ClientConnection]:
    """A websocket to ``table`` (its summary or its id) whose first message is the hello
    with ``token`` (``None``: a spectator); the token never goes in the URL. A deep
    client queue and 4 MiB messages unless ``connect_kw`` says otherwise."""
    tid = table if isinstance(table, str) else table["id"]
    kw: dict[str, Any] = {"max_queue": 4096, "max_size": 2**22, "open_timeout": 20, **connect_kw}
    with connect(f"{server.ws_url}/ws/{tid}", **kw) as conn:
        conn.send(server.hello(token))
        yield conn


def read_until(conn: ClientConnection, want: Callable[[Message], bool], timeout: float = 15,
               limit: int = MAX_MESSAGES, *, fail_on_error: bool = False) -> Message:
    """The next message satisfying ``want``, within ``timeout`` seconds and ``limit``
    messages. Every message must be a JSON object with a string ``type``;
    ``fail_on_error``: an error message on the way fails the test."""
    deadline = time.monotonic() + timeout
    for _ in range(limit):
        msg = json.loads(conn.recv(timeout=max(0.1, deadline - time.monotonic())))
        assert isinstance(msg, dict) and isinstance(msg.get("type"), str), msg
        assert not (fail_on_error and msg["type"] == "error"), msg
        if want(msg):
            return msg
    raise AssertionError(f"no such message in {limit}")


def next_of(conn: ClientConnection, kind: str, timeout: float = 20, limit: int = MAX_MESSAGES) -> Message:
    """The next message of type ``kind``."""
    return read_until(conn, lambda m: m["type"] == kind, timeout, limit)


def next_state(conn: ClientConnection, until: Callable[[Message], Any] | None = None,
               timeout: float = 20, *, fail_on_error: bool = False) -> Message:
    """The next state message (that satisfies ``until``)."""
    return read_until(conn, lambda m: m["type"] == "state" and (until is None or bool(until(m))),
                      timeout, fail_on_error=fail_on_error)


def play_first_choice(conn: ClientConnection, msg: Message, narration: str | None = None) -> None:
    """Act on state ``msg`` with its first choice (and ``narration``, if any)."""
    body: dict[str, Any] = {"type": "act", "action": msg["choices"][0]["action"], "state_id": msg["state_id"]}
    if narration:
        body["narration"] = narration
    conn.send(json.dumps(body))


def play_to_end(conns: Sequence[ClientConnection], timeout: float = 120,
                answer: Callable[[Message], bool] = lambda m: True,
                choose: Callable[[Message], int] = lambda m: int(m["choices"][0]["action"])) -> Message:
    """Each seat plays ``choose(state)`` (its first choice unless told) whenever it
    decides and ``answer(state)`` holds (a test may leave some questions unanswered),
    until a state says the game is over; that state."""
    deadline = time.monotonic() + timeout
    acted: set[int] = set()
    last: dict[int, dict[str, Any]] = {}  # each connection's last move
    while time.monotonic() < deadline:
        for i, conn in enumerate(conns):
            try:
                msg = json.loads(conn.recv(timeout=0.05))
            except TimeoutError:
                continue
            if msg["type"] == "error" and msg.get("code") == "rate_limited" and i in last:
                time.sleep(RATE_WINDOW)  # faster than --message-rate allows: the same move once it has passed
                conn.send(json.dumps(last[i]))
            if msg["type"] != "state":
                continue
            if msg["over"]:
                return dict(msg)
            if msg.get("choices") and msg["state_id"] not in acted and answer(msg):
                acted.add(msg["state_id"])
                last[i] = {"type": "act", "action": choose(msg), "state_id": msg["state_id"]}
                conn.send(json.dumps(last[i]))
    raise AssertionError("the game did not end")


def assert_error(resp: httpx.Response, status: int, code: str) -> str:
    """``resp`` is the server's JSON error ``code`` (a documented one) with ``status``
    and a message; the message, for tests that read it."""
    assert resp.status_code == status, resp.text
    data = resp.json()
    assert data["type"] == "error" and data["code"] == code and data["message"], data
    assert code in CODES, code
    return str(data["message"])
