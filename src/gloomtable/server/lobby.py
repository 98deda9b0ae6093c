"""The lobby: creating tables, listing the open ones, joining, playing again,
and bringing every unfinished table back when the server starts."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from gloomtable.engine import GloomtableError
from gloomtable.games import make_game
from gloomtable.server.errors import ServerError
from gloomtable.server.options import TableSpec, clean_name, table_options
from gloomtable.server.store import SeatRow, Store, TableRow
from gloomtable.server.table import LiveTable

log = logging.getLogger("gloomtable.server")

MAX_OPEN_TABLES = 2000
"""Unfinished tables one server keeps live; creating more is refused with server_busy."""


def new_token() -> str:
    """An unguessable seat token (144 random bits)."""
    return secrets.token_urlsafe(18)


def invite_path(table_id: str, token: str | None = None) -> str:
    """The page address of a seat (the token rides in the fragment, which browsers
    never send to a server, so it stays out of logs) or of the spectators' view."""
    return f"/table/{table_id}" + (f"#token={token}" if token else "")


def check_sets(config: dict[str, Any]) -> None:
    """Card sets by shipped name only: a deck path from a remote client would make
    the server read any file on its disk."""
    if "sets" not in config:
        return
    from gloomtable.games.gloom.deck import SHIPPED_SETS

    sets = config["sets"]
    if not isinstance(sets, list) or not sets or not all(isinstance(x, str) for x in sets):
        raise ServerError("bad_table", "sets must be a non-empty list of set names")
    unknown = [x for x in sets if x not in SHIPPED_SETS]
    if unknown:
        raise ServerError("bad_table", f"unknown card set {unknown[0][:60]!r}; "
                          f"sets: {', '.join(SHIPPED_SETS)}")


class Lobby:
    """Every table the server knows, live in memory, stored in :class:`Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.tables: dict[str, LiveTable] = {}

    def resume_all(self) -> int:
        """Rebuild every unfinished table from its record; returns how many."""
        n = 0
        for tid in self.store.unfinished_ids():
            try:
                self._open(tid)
                n += 1
            except (GloomtableError, ValueError, KeyError) as exc:
                log.error("table %s cannot be resumed: %s", tid, exc)
        return n

    def _open(self, tid: str) -> LiveTable | None:
        row = self.store.load(tid)
        if row is None:
            return None
        table = LiveTable.open(row, self.store)
        self.tables[tid] = table
        return table

    def get(self, tid: str) -> LiveTable:
        if not isinstance(tid, str) or not 1 <= len(tid) <= 64:
            raise ServerError("not_found", "no table has that id", 404)
        table = self.tables.get(tid) or self._open(tid)
        if table is None:
            raise ServerError("not_found", f"no table {tid!r}", 404)
        return table

    def create(self, spec: TableSpec, *, seat_tokens: list[str] | None = None) -> tuple[LiveTable, str]:
        if sum(1 for t in self.tables.values() if not t.over) >= MAX_OPEN_TABLES:
            raise ServerError("server_busy", f"{MAX_OPEN_TABLES} games are already being played here; "
                              "try again when one ends", 503)
        config = dict(spec.config)
        config["players"] = len(spec.seats)
        check_sets(config)
        try:
            game = make_game(spec.game, config)
        except (GloomtableError, ValueError) as exc:  # ConfigError, DeckError, ...
            raise ServerError("bad_table", str(exc).split("\n")[0]) from None
        tid = secrets.token_urlsafe(8)
        seats = []
        for i, s in enumerate(spec.seats):
            name = clean_name(s.name) or (f"Player {i + 1}" if s.kind == "person"
                                          else f"Bot {i + 1} ({s.level})")
            token = seat_tokens[i] if seat_tokens else new_token()
            seats.append(SeatRow(i, s.kind, s.level, name, token if s.kind == "person" else "",
                                 claimed=False))
        seed = spec.seed if spec.seed is not None else secrets.randbelow(2**62)
        row = TableRow(tid, spec.game, game.config_dict(), seed, table_options(spec), spec.listed,
                       new_token(), seats)
        self.store.create_table(row)
        table = LiveTable.open(row, self.store)
        self.tables[tid] = table
        table.schedule()  # a bot or a timer may hold the first decision
        return table, row.host_token

    def created_answer(self, table: LiveTable, host_token: str) -> dict[str, Any]:
        """The one answer that carries every person's token: to the table's creator."""
        return {**table.summary(), "host_token": host_token, "spectate": invite_path(table.id),
                "invites": [{"seat": s.index, "name": s.row.name, "token": s.row.token,
                             "link": invite_path(table.id, s.row.token)}
                            for s in table.seats if s.row.kind == "person"]}

    def listing(self) -> list[dict[str, Any]]:
        return [t.summary() for t in self.tables.values() if t.row.listed and not t.over]

    def join(self, tid: str, name: str) -> dict[str, Any]:
        """Take the first unclaimed person seat of a listed table."""
        table = self.get(tid)
        if table.over:
            raise ServerError("game_over", "that game is over", 409)
        for seat in table.seats:
            if seat.row.kind == "person" and not seat.row.claimed:
                seat.row.claimed = True
                name = clean_name(name)
                if name:
                    seat.row.name = name
                table.store.update_seat(tid, seat.index, name=seat.row.name, claimed=True)
                table.broadcast_seats()
                return {"seat": seat.index, "token": seat.row.token,
                        "link": invite_path(tid, seat.row.token)}
        raise ServerError("no_open_seat", "every seat of that table is taken", 409)

    def again(self, tid: str, token: str) -> LiveTable:
        """Play again with the same seats: same people (same tokens), same bots,
        same options, a new shuffle. Every page of the old table follows."""
        old = self.get(tid)
        if old.seat_for_token(token) is None and token != old.row.host_token:
            raise ServerError("bad_token", "only a seat of this table can start the next game", 403)
        if not old.over:
            raise ServerError("not_over", "finish this game first", 409)
        if old.row.next_table:
            return self.get(old.row.next_table)
        config = {k: v for k, v in old.row.config.items() if k != "players"}
        spec = TableSpec(game=old.row.game, config=config, listed=old.row.listed,
                         seats=[{"kind": s.row.kind, "level": s.row.level, "name": s.row.name}
                                for s in old.seats],
                         **{k: v for k, v in old.options.items()})
        table, _ = self.create(spec, seat_tokens=[s.row.token for s in old.seats])
        for s_old, s_new in zip(old.seats, table.seats, strict=True):
            s_new.row.claimed = s_old.row.claimed
            if s_old.row.claimed:
                self.store.update_seat(table.id, s_new.index, claimed=True)
        old.row.next_table = table.id
        self.store.set_next_table(old.id, table.id)
        old.broadcast()
        return table

    def close(self) -> None:
        for t in self.tables.values():
            t.close()
