"""Two or more ``gloom serve`` processes on one PostgreSQL schema, and people who
stay at their seats through kills: each reconnects to its own process, or to
another while its own is down, and keeps every state it was shown."""

from __future__ import annotations

import contextlib
import json
import re
import time
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from gloomtable.engine.record import GameRecord
from gloomtable.games import replay_record
from gloomtable.server.store import open_store
from gloomtable.server.store_rows import TableRow
from gloomtable.server.testing import ServerProcess


def member_id(srv: ServerProcess) -> str | None:
    """The lease holder id the process logged at its latest start."""
    found = re.findall(r"cluster member ([0-9a-f]+)", srv.log_path.read_text(errors="replace"))
    return found[-1] if found else None


def stored_row(url: str, table_id: str) -> TableRow:
    """``table_id`` as the database itself holds it (a store of its own, opened and closed)."""
    store = open_store(url)
    try:
        row = store.load(table_id)
    finally:
        store.close()
    assert row is not None
    return row


def stored_record(url: str, table_id: str) -> tuple[GameRecord, list[tuple[int, str]]]:
    row = stored_row(url, table_id)
    return GameRecord(row.game, row.config, row.seed, row.actions, row.narration), row.actors


def lease_holder(url: str, table_id: str) -> str | None:
    import psycopg

    from gloomtable.server.store_postgres import split_url

    conninfo, schema = split_url(url)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f'SET search_path TO "{schema}"')
        got = conn.execute("SELECT holder FROM leases WHERE table_id=%s", (table_id,)).fetchone()
    return got[0] if got else None


class Person:
    """One seat's page: connects to its preferred process, falls back to the others."""

    def __init__(self, seat: int, token: str, table_id: str, servers: list[ServerProcess]) -> None:
        self.seat, self.token, self.table_id, self.servers = seat, token, table_id, servers
        self.ws: ClientConnection | None = None
        self.on: ServerProcess | None = None
        self.latest: dict[str, Any] | None = None
        self.seen: dict[int, dict[str, Any]] = {}
        """Every state id this page was shown, with the view it was shown."""
        self.acted_at: set[int] = set()
        self.reconnects = 0
        self.errors: list[dict[str, Any]] = []

    def connect(self) -> None:
        for srv in self.servers:
            if srv.proc is None or srv.proc.poll() is not None:
                continue
            try:
                # entered as a context manager (closed in drop()): the long-lived form websockets asks for
                self.ws = connect(f"{srv.ws_url}/ws/{self.table_id}", max_queue=4096,
                                  open_timeout=3).__enter__()
                self.ws.send(srv.hello(self.token))  # the seat's token: in the first message, never the URL
                self.on = srv
                return
            except (OSError, InvalidHandshake, InvalidStatus, TimeoutError, ConnectionClosed):
                continue

    def poll(self, wait: float = 0.02) -> None:
        """Read what has arrived; reconnect if the process went away."""
        if self.ws is None:
            self.connect()
            if self.ws is None:
                return
            self.reconnects += 1
            self.acted_at.clear()  # a move sent to a process that died before storing it goes again
        try:
            while True:
                msg = json.loads(self.ws.recv(timeout=wait))
                wait = 0
                if msg["type"] == "state":
                    self.latest = msg
                    self.seen[msg["state_id"]] = msg["view"]
                elif msg["type"] == "error":
                    self.errors.append(msg)
        except TimeoutError:
            return
        except (ConnectionClosed, OSError):
            self.drop()

    def drop(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):  # it is gone either way
                self.ws.close()
        self.ws = None

    def deciding(self) -> bool:
        m = self.latest
        return bool(m and m["choices"] and not m["over"] and m["state_id"] not in self.acted_at)

    def act(self) -> None:
        if self.ws is None or self.latest is None:  # not connected: it acts once it is again
            return
        m = self.latest
        self.acted_at.add(m["state_id"])
        try:
            self.ws.send(json.dumps({"type": "act", "action": m["choices"][-1]["action"],
                                     "state_id": m["state_id"]}))
        except (ConnectionClosed, OSError):
            self.drop()


def check_against_replay(url: str, table_id: str, people: list[Person]
                         ) -> tuple[GameRecord, list[tuple[int, str]]]:
    """Every state each page was shown is the replay of the stored record at that index,
    for that seat: nothing a person saw was lost, changed or doubled."""
    record, actors = stored_record(url, table_id)
    state = replay_record(GameRecord(record.game, record.config, record.seed, [], {}))
    views: dict[int, dict[int, Any]] = {p.seat: {} for p in people}
    for i in range(len(record.actions) + 1):
        for p in people:
            if i in p.seen:
                views[p.seat][i] = json.loads(json.dumps(state.view(p.seat)))
        if i < len(record.actions):
            state.apply(record.actions[i])
    assert state.is_over()
    for p in people:
        assert max(p.seen) == len(record.actions), "a page did not see the end"
        for i, view in p.seen.items():
            assert view == views[p.seat][i], f"seat {p.seat} was shown at state {i} what the record lacks"
    return record, actors


def servers_on(url: str, tmp_path: Path, n: int = 2, args: tuple[str, ...] = ()) -> list[ServerProcess]:
    return [ServerProcess(url, log=tmp_path / f"p{i}.log", args=args) for i in range(n)]


def wait_for(cond: Any, timeout: float, step: float = 0.05) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(step)
    return bool(cond())
