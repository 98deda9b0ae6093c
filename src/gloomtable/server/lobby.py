"""The lobby: creating tables, listing the open ones, joining, playing again,
bringing every unfinished table back when the server starts, letting go of
tables nobody needs in memory, and deleting expired and long-finished tables
from the store (docs/security.md, "Nothing grows for good")."""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from pydantic import ValidationError

from gloomtable.engine import ConfigError, Game, GloomtableError, State
from gloomtable.games import make_game, registry
from gloomtable.learn import load_lesson, shipped_lessons
from gloomtable.server.errors import ServerError
from gloomtable.server.games import seat_range
from gloomtable.server.names import check_seat_name
from gloomtable.server.options import SeatSpec, TableSpec, clean_name, table_options
from gloomtable.server.store import SeatRow, Store, TableRow, in_store
from gloomtable.server.store_decks import DeckRow
from gloomtable.server.table import BotPolicy, LiveTable, listing_entry
from gloomtable.server.table_core import same_token
from gloomtable.server.uploads import KEY as UPLOAD_KEY
from gloomtable.server.uploads import register_rows as register_uploads
from gloomtable.server.uploads import resolve as resolve_uploads
from gloomtable.server.uploads import upload_rows

if TYPE_CHECKING:
    from gloomtable.server.cluster import Cluster

log = logging.getLogger("gloomtable.server")
P = ParamSpec("P")
R = TypeVar("R")

MAX_OPEN_TABLES = 2000
"""Unfinished tables one server keeps live; creating more is refused with server_busy."""
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""The shape of every table id (ours are 11 URL-safe characters): anything else is
refused before a store is asked (PostgreSQL refuses a NUL in text with an error)."""
LESSON_BOT_DELAY_MS = 600
"""A lesson's bots play slowly enough for a newcomer to follow."""
FINISHED_EXPIRY = 30 * 86400.0
"""Seconds a finished table is kept in the store (``--finished-table-expiry``)."""
LISTING_CACHE = 1.0
"""Seconds a page of the lobby listing is answered from memory (issue 29, row 4)."""
LISTINGS_KEPT = 256
"""Pages of the listing kept at most (then all are dropped: a client paging through every
offset cannot make the cache grow)."""
DELETE_AT_ONCE = 500
"""Finished tables one sweep deletes at most: a backlog (say, after a long stop) is worked
off a slice per round, never in one long stall of the event loop."""


@dataclass(frozen=True)
class LobbySettings:
    """The lobby's limits; each is a ``gloom serve`` flag (docs/security.md)."""

    allow_fixed_deals: bool = False
    """Accept a table's ``seed`` (a deal chosen by its creator): tests and replays among friends."""
    max_open_tables: int = MAX_OPEN_TABLES
    idle_expiry: float = 900.0
    """Seconds an unfinished table may stay with no move and no seat taken before it is
    deleted, pages open or not (a page that comes and goes keeps nothing alive)."""
    abandoned_expiry: float = 86400.0
    """Seconds an unfinished table may stay with no page open and no move before it is
    deleted, even if seats were taken: one client cannot hold the table limit for good."""
    finished_keep: float = 60.0
    """Seconds a finished table stays in memory after its last page leaves
    (then it is read from the store on demand)."""
    finished_expiry: float = FINISHED_EXPIRY
    """Seconds after its end a finished table is deleted from the store, unless a page of it
    is open: what one client can store is bounded by its creation rate times this."""
    sweep_every: float = 15.0
    """How often the lobby looks for tables to let go of (more often when an expiry is shorter)."""
    build_timeout: float = 5.0
    """Seconds building a new game may take before the creation is refused."""
    build_workers: int = 2
    """Threads that build new games (off the event loop)."""
    listing_max: int = 50
    """Tables one page of the lobby listing holds at most (the default page is 20)."""
    bot_workers: int = 1
    """Threads that run bot searches, apart from everything a person waits for."""
    bot_only_min_delay_ms: int = 250
    """The least pause before each automatic move of a table where no person has a page open."""
    sets: tuple[str, ...] = ()
    """Gloom deck files and Crazy Creatures variant set files (``--sets``) tables may name
    by their set id: the
    operator chooses files; a remote client only ever names an id (docs/decks.md)."""


def add_lobby_args(parser: argparse.ArgumentParser) -> None:
    """The lobby's limits as server flags (docs/security.md lists them)."""
    d = LobbySettings()
    parser.add_argument("--allow-fixed-deals", action="store_true",
                        help="accept a table's seed (a deal its creator chose); such tables say so "
                             "and are never listed")
    parser.add_argument("--max-open-tables", type=int, default=d.max_open_tables, metavar="N")
    parser.add_argument("--idle-table-expiry", type=float, default=d.idle_expiry, metavar="SECONDS",
                        help="delete an unfinished table with no move (nor seat taken) for this long, "
                             "pages open or not")
    parser.add_argument("--abandoned-table-expiry", type=float, default=d.abandoned_expiry, metavar="SECONDS",
                        help="delete an unfinished table with no page open and no move after this")
    parser.add_argument("--finished-table-keep", type=float, default=d.finished_keep, metavar="SECONDS",
                        help="keep a finished table in memory this long after its last page leaves")
    parser.add_argument("--finished-table-expiry", type=float, default=d.finished_expiry,
                        metavar="SECONDS",
                        help="delete a finished table from the store this long after it ended "
                             "(unless a page of it is open)")
    parser.add_argument("--bot-workers", type=int, default=d.bot_workers, metavar="N",
                        help="threads for bot searches")
    parser.add_argument("--bot-only-min-delay-ms", type=int, default=d.bot_only_min_delay_ms, metavar="MS",
                        help="least pause before each automatic move at a table where no person "
                             "has a page open")
    parser.add_argument("--sets", default="", metavar="FILES",
                        help="Gloom deck files and Crazy Creatures variant set files, separated by "
                             "commas: tables may name them by set id (config sets = [\"classic\", ID] "
                             "for a Gloom deck, [ID] for a variant)")


def lobby_settings(args: argparse.Namespace) -> LobbySettings:
    """:class:`LobbySettings` from the flags of :func:`add_lobby_args`, each checked."""
    for name in ("max_open_tables", "bot_workers"):
        if getattr(args, name) < 1:
            raise SystemExit(f"error: --{name.replace('_', '-')} must be at least 1")
    for name in ("idle_table_expiry", "abandoned_table_expiry", "finished_table_keep",
                 "finished_table_expiry", "bot_only_min_delay_ms"):
        if not getattr(args, name) >= 0:
            raise SystemExit(f"error: --{name.replace('_', '-')} must not be negative")
    return LobbySettings(allow_fixed_deals=args.allow_fixed_deals, max_open_tables=args.max_open_tables,
                         idle_expiry=args.idle_table_expiry, abandoned_expiry=args.abandoned_table_expiry,
                         finished_keep=args.finished_table_keep, finished_expiry=args.finished_table_expiry,
                         bot_workers=args.bot_workers, bot_only_min_delay_ms=args.bot_only_min_delay_ms,
                         sets=tuple(s.strip() for s in args.sets.split(",") if s.strip()))


def check_table_id(tid: object) -> None:
    """Refuse (400 ``bad_request``) an id not of a table id's shape, before any store sees it."""
    if not isinstance(tid, str) or not TABLE_ID.fullmatch(tid):
        raise ServerError("bad_request", "a table id is 1 to 64 letters, digits, '-' or '_'")


def new_token() -> str:
    """An unguessable seat token (144 random bits)."""
    return secrets.token_urlsafe(18)


def invite_path(table_id: str, token: str | None = None) -> str:
    """The page address of a seat (the token rides in the fragment, which browsers
    never send to a server, so it stays out of logs) or of the spectators' view."""
    return f"/table/{table_id}" + (f"#token={token}" if token else "")


def check_sets(config: dict[str, Any], game: str = "gloom") -> None:
    """Card sets by shipped name only, each once: a deck path from a remote client
    would make the server read any file on its disk, and a long list of the same
    set would make it build a huge deck. Crazy Creatures: one set, shipped or a
    variant the server was started with (``--sets``), by id."""
    if "sets" not in config:
        return
    try:
        entry = registry.entry(game)
    except ConfigError as exc:
        raise ServerError("bad_table", str(exc)) from None
    names = entry.sets()
    sets = config["sets"]
    if isinstance(sets, list):  # decks uploaded at the lobby, by key (server/uploads.py resolves them)
        names = (*names, *(x for x in sets if isinstance(x, str) and UPLOAD_KEY.fullmatch(x)))
    if not entry.mixes_sets:
        if not isinstance(sets, list) or len(sets) != 1 or sets[0] not in names:
            shown = repr(sets)[:60]
            raise ServerError("bad_table", f"unknown {entry.short_title} set {shown}; name one of: "
                              f"{', '.join(names)}")
        return
    if not isinstance(sets, list) or not sets or not all(isinstance(x, str) for x in sets):
        raise ServerError("bad_table", "sets must be a non-empty list of set names")
    unknown = [x for x in sets if x not in names]
    if unknown:
        raise ServerError("bad_table", f"unknown card set {unknown[0][:60]!r}; "
                          f"sets: {', '.join(names)}")
    if len(set(sets)) != len(sets):
        raise ServerError("bad_table", "sets names a set twice; each set may be named once")


def _build(game_name: str, config: dict[str, Any], seed: int,
           uploads: list[DeckRow] | None = None) -> tuple[Game, State, dict[str, str]]:
    """(In a builder thread.) The game, its first state, and the uploaded decks it names
    (registered here first: parsing them is no work for the event loop)."""
    uploaded = register_uploads(uploads or [])
    game = make_game(game_name, config)
    return game, game.new_initial_state(seed), uploaded


class Lobby:
    """Every table the server knows: the live ones in memory, all of them in :class:`Store`."""

    def __init__(self, store: Store, settings: LobbySettings | None = None) -> None:
        self.store = store
        self.settings = settings or LobbySettings()
        self.tables: dict[str, LiveTable] = {}
        self._builders = ThreadPoolExecutor(self.settings.build_workers, thread_name_prefix="gloom-build")
        self.bots = BotPolicy(ThreadPoolExecutor(self.settings.bot_workers, thread_name_prefix="gloom-bot"),
                              self.settings.bot_only_min_delay_ms)
        self._sweeper: asyncio.Task[None] | None = None
        self.cluster: Cluster | None = None
        """Set when several processes share the store: it says which tables this one leads."""
        self._listings: dict[tuple[int, int], tuple[float, dict[str, Any]]] = {}
        """Pages of the listing lately answered, by (offset, limit): (when, page)."""
        self._deleting: set[str] = set()
        """Finished tables being deleted now: no page may open them meanwhile."""

    def start(self) -> None:
        """Begin letting go of expired and finished tables (needs the running loop)."""
        s = self.settings
        every = min(s.sweep_every, max(0.2, min(s.idle_expiry, s.abandoned_expiry, s.finished_keep,
                                                s.finished_expiry) / 4))
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever(every))

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
        resolve_uploads(self.store, row.game, row.config)  # a deck uploaded here, maybe on another process
        table = LiveTable.open(row, self.store, bots=self.bots)
        table.leader = self.cluster is None or tid in self.cluster.held
        if self.cluster is not None:
            table.holder = self.cluster.holder
            table.refresh_presence()
        self.tables[tid] = table
        return table

    def get(self, tid: str) -> LiveTable:
        """A table by id, read back from the store if it is not in memory."""
        check_table_id(tid)
        if tid in self._deleting:
            raise ServerError("not_found", f"no table {tid!r}", 404)
        table = self.tables.get(tid) or self._open(tid)
        if table is None:
            raise ServerError("not_found", f"no table {tid!r}", 404)
        return table

    async def create_lesson(self, name: str, *, bot_delay_ms: int = LESSON_BOT_DELAY_MS,
                            owner: str | None = None, owner_most: int | None = None
                            ) -> tuple[LiveTable, str]:
        """A lesson's table: the learner at seat 0, the lesson's bots, its deal. The deal
        is fixed by the lesson (public, like a rulebook's example), so the table is
        never listed and takes no spectators."""
        shipped = shipped_lessons()
        if name not in shipped:
            raise ServerError("bad_table", f"no lesson {name!r}; shipped: {', '.join(sorted(shipped))}")
        lesson = load_lesson(shipped[name])
        seats = [SeatSpec(kind="person", name="")] + [
            SeatSpec(kind="bot", level=level) for level in lesson.bots]
        spec = TableSpec(game=lesson.game, config=lesson.config, seats=seats, listed=False,
                         spectators=False, bot_delay_ms=bot_delay_ms, seed=lesson.seed,
                         talk=False)  # a learner and bots: nobody to talk to
        return await self.create(spec, lesson=lesson.id, owner=owner, owner_most=owner_most)

    def owned(self, owner: str) -> int:
        """Unfinished tables in this process's memory that ``owner`` made."""
        return sum(1 for t in self.tables.values() if t.owner == owner and not t.over)

    def open_tables(self) -> int:
        """Unfinished tables of the site (``--max-open-tables``): the store's count when several
        processes share it (each holds only some of them in memory), else this process's."""
        if self.cluster is not None:
            return len(self.store.unfinished_ids())
        return sum(1 for t in self.tables.values() if not t.over)

    async def create(self, spec: TableSpec, *, seat_tokens: list[str] | None = None,
                     open_claimed: list[bool] | None = None, lesson: str | None = None,
                     owner: str | None = None, owner_most: int | None = None,
                     noted: dict[str, Any] | None = None) -> tuple[LiveTable, str]:
        """A new table; ``owner`` (the client asking) may have at most ``owner_most`` unfinished
        tables open in this process, so one address cannot fill ``--max-open-tables``."""
        s = self.settings
        if owner is not None and owner_most is not None and self.owned(owner) >= owner_most:
            raise ServerError("server_busy", f"you already have {owner_most} unfinished games open "
                              "here; finish one or let it expire", 429)
        if self.open_tables() >= s.max_open_tables:
            raise ServerError("server_busy", f"{s.max_open_tables} games are already being played here; "
                              "try again when one ends", 503)
        fixed = spec.seed is not None
        if fixed and not s.allow_fixed_deals and lesson is None:
            raise ServerError("bad_table", "this server deals every table at random; a fixed deal (seed) "
                              "is accepted only by a server started with --allow-fixed-deals")
        listed = spec.listed and not fixed
        if any(x.kind == "open" for x in spec.seats) and not listed:
            raise ServerError("bad_table", "open seats are taken from the lobby's listing; "
                              "an unlisted table (or a fixed deal) gives its seats by invite links only")
        span = seat_range(spec.game)
        if span is not None and not span[0] <= len(spec.seats) <= span[1]:
            raise ServerError("bad_table", f"{spec.game} seats {span[0]} to {span[1]} players, "
                              f"not {len(spec.seats)}")
        config = dict(spec.config)
        config["players"] = len(spec.seats)
        check_sets(config, spec.game)
        seed = spec.seed if spec.seed is not None else secrets.randbelow(2**62)
        try:
            uploads = await self._in_store(upload_rows, self.store, spec.game, config)
            game, state, uploaded = await asyncio.wait_for(asyncio.get_running_loop().run_in_executor(
                self._builders, _build, spec.game, config, seed, uploads), s.build_timeout)
        except (GloomtableError, ValueError) as exc:  # ConfigError, DeckError, ...
            raise ServerError("bad_table", str(exc).split("\n")[0]) from None
        except TimeoutError:
            raise ServerError("server_busy", f"building the game took over {s.build_timeout:g} s; "
                              "try again later", 503) from None
        tid = secrets.token_urlsafe(8)
        seats: list[SeatRow] = []
        for i, x in enumerate(spec.seats):
            default = f"Bot {i + 1} ({x.level})" if x.kind == "bot" else f"Player {i + 1}"
            name = clean_name(x.name) or default
            if x.kind == "bot":
                token = ""
            elif seat_tokens:
                token = seat_tokens[i]
            else:
                token = "" if x.kind == "open" else new_token()  # an open seat's token is minted by Join
            claimed = bool(open_claimed and open_claimed[i])
            if x.kind == "person" and seat_tokens is None and x.name:  # an invited person's name
                check_seat_name(name, [s.name for s in seats if s.token or s.kind == "bot"],
                                f"seat {i + 1}'s name")
            seats.append(SeatRow(i, "bot" if x.kind == "bot" else "person", x.level, name, token,
                                 claimed=claimed))
        options = table_options(spec)
        options["open_seats"] = [i for i, x in enumerate(spec.seats) if x.kind == "open"]
        options.update(noted or {})  # what the server notes beside them (a rematch: of what, by whom)
        if uploaded:  # the lobby and the table say so, and link each deck's gallery
            options["uploaded_decks"] = [{"key": k, "name": n} for k, n in uploaded.items()]
            for key in uploaded:
                await self._in_store(self.store.touch_deck, key)
        if lesson is not None:
            options["lesson"] = lesson
        elif fixed:
            options["fixed_deal"] = True
        row = TableRow(tid, spec.game, game.config_dict(), seed, options, listed, new_token(), seats)
        self.store.create_table(row)
        table = LiveTable(row, self.store, game, state, bots=self.bots)
        table.owner = owner
        table.leader = self.cluster is None or self.cluster.lead(tid)
        table.holder = self.cluster.holder if self.cluster is not None else None
        table.start_decision()
        self.tables[tid] = table
        self._listings.clear()  # this process's own change shows at once
        table.schedule()  # a bot or a timer may hold the first decision
        return table, row.host_token

    def created_answer(self, table: LiveTable, host_token: str) -> dict[str, Any]:
        """The one answer that carries the invited people's tokens: to the table's creator."""
        return {**table.summary(), "host_token": host_token, "spectate": invite_path(table.id),
                "invites": [{"seat": s.index, "name": s.row.name, "token": s.row.token,
                             "link": invite_path(table.id, s.row.token)}
                            for s in table.seats
                            if s.row.kind == "person" and not table.is_open_seat(s.index)]}

    async def listing(self, offset: int = 0, limit: int = 20) -> dict[str, Any]:
        """One page of the listed, unfinished tables, each in a few fields. A page is kept
        for ``LISTING_CACHE`` seconds, so clients polling the lobby cost one store query a
        page a second, whatever their number; the store is asked in a worker thread."""
        limit = max(1, min(limit, self.settings.listing_max))
        offset = max(0, offset)
        now = time.monotonic()
        kept = self._listings.get((offset, limit))
        if kept is not None and now - kept[0] < LISTING_CACHE:
            return kept[1]
        page = await self._listing(offset, limit)
        if len(self._listings) >= LISTINGS_KEPT:
            self._listings.clear()
        self._listings[(offset, limit)] = (now, page)
        return page

    async def _listing(self, offset: int, limit: int) -> dict[str, Any]:
        if self.cluster is not None:  # other processes' tables too: the store knows them all
            rows, total = await self._in_store(self.store.listed_tables, offset, limit)
            entries = [listing_entry(r) for r in rows]
        else:
            shown = [t for t in self.tables.values() if t.row.listed and not t.over and not t.broken]
            entries, total = [t.listing_entry() for t in shown[offset:offset + limit]], len(shown)
        await self._rate_entries(entries)
        return {"tables": entries, "total": total, "offset": offset, "limit": limit}

    async def _rate_entries(self, entries: list[dict[str, Any]]) -> None:
        """Beside each seat's name, the rating in the table's game of the account recorded
        there (``ratings``, one per seat, null for a seat of nobody's account or of an
        account not yet rated in that game): one store query for the page."""
        from gloomtable.server.ratings import Rating

        found = await self._in_store(self.store.seat_ratings, [e["id"] for e in entries]) if entries else {}
        for e in entries:
            rated = found.get(e["id"], {})
            e["ratings"] = [Rating(*rated[i]).shown if i in rated else None for i in range(len(e["seats"]))]

    def join(self, tid: str, name: str) -> dict[str, Any]:
        """Take the first open seat of a listed table; a fresh token is minted for it."""
        table = self.get(tid)
        if not table.row.listed:
            raise ServerError("no_open_seat", "this table is not listed: its seats are given by "
                              "invite links only", 403)
        if table.over:
            raise ServerError("game_over", "that game is over", 409)
        for seat in table.seats:
            if table.is_open_seat(seat.index) and not seat.row.claimed:
                token, taker = new_token(), clean_name(name) or seat.row.name
                check_seat_name(taker, [s.row.name for s in table.seats if s.index != seat.index])
                if not table.store.claim_seat(tid, seat.index, taker, token):
                    seat.row.claimed = True  # through another process, just now: its NOTIFY brings the rest
                    continue
                seat.row.claimed, seat.row.token, seat.row.name = True, token, taker
                table.touch()
                table.last_move = table.last_seen  # a seat taken: the game may begin now
                self._listings.clear()
                table.broadcast_seats()
                return {"seat": seat.index, "token": seat.row.token,
                        "link": invite_path(tid, seat.row.token)}
        raise ServerError("no_open_seat", "every open seat of that table is taken", 409)

    async def again(self, tid: str, token: str, owner: str | None = None,
                    owner_most: int | None = None) -> LiveTable:
        """Play again with the same seats: same people (same tokens), same bots,
        same options, a new shuffle. The others are invited, not taken along: their
        pages stay on the end screen and offer the next table (its options say
        ``rematch_of`` and ``rematch_by``, the seat that asked, None for the host
        token), and the old table's links keep opening the old table. Only while a
        person has a page of it open: a table that plays itself (stand-ins for people
        who never came) is not played again and again."""
        old = self.get(tid)
        if old.seat_for_token(token) is None and not same_token(old.row.host_token, token):
            raise ServerError("bad_token", "only a seat of this table can start the next game", 403)
        if not old.over:
            raise ServerError("not_over", "finish this game first", 409)
        if old.row.next_table:
            return self.get(old.row.next_table)
        if not old.person_present():
            raise ServerError("nobody_here", "nobody has a page of this table open; a game is played "
                              "again only from a seat's page", 409)
        config = {k: v for k, v in old.row.config.items() if k != "players"}
        # the table options a request may give (not what the server notes beside them:
        # open seats, a fixed deal, a lesson); the deal is new and random
        options = {k: v for k, v in old.options.items()
                   if k in TableSpec.model_fields and k not in ("seed", "seats", "config", "game", "listed")}
        try:
            spec = TableSpec(game=old.row.game, config=config, listed=old.row.listed,
                             seats=[{"kind": "open" if old.is_open_seat(s.index) else s.row.kind,
                                     "level": s.row.level, "name": s.row.name} for s in old.seats],
                             **options)
        except ValidationError as exc:
            why = exc.errors()[0]["msg"]
            raise ServerError("bad_table", f"this table cannot be played again: {why}") from None
        table, _ = await self.create(spec, seat_tokens=[s.row.token for s in old.seats],
                                     open_claimed=[s.row.claimed for s in old.seats],
                                     owner=owner, owner_most=owner_most,
                                     noted={"rematch_of": old.id, "rematch_by": old.seat_for_token(token)})
        if not self.store.set_next_table(old.id, table.id):  # another process played again first
            table.close()
            del self.tables[table.id]
            self.store.delete_table(table.id)
            stored = self.store.load(old.id)
            old.row.next_table = stored.next_table if stored else None
            old.broadcast()
            if old.row.next_table is None:
                raise ServerError("server_busy", "the next game could not be started; try again", 503)
            return self.get(old.row.next_table)
        old.row.next_table = table.id
        old.broadcast()
        return table

    # --- letting go ----------------------------------------------------------------------

    def sweep(self, now: float | None = None) -> tuple[int, int]:
        """Delete unfinished tables with no move (nor seat taken) for ``idle_expiry``
        (or with no page and no move for ``abandoned_expiry``);
        drop finished (or broken) tables with no page open for ``finished_keep`` from
        memory (the store keeps them). Returns (expired, dropped)."""
        now = time.monotonic() if now is None else now
        s = self.settings
        expired = dropped = 0
        for tid, t in list(self.tables.items()):
            watched = bool(t.conns or t.present_elsewhere)  # a page open here or on another process
            idle = now - t.last_seen
            if t.leader and not t.over and not t.broken:
                # no move (nor seat taken) for the idle expiry: gone, pages open or not; a page
                # that comes and goes keeps nothing alive (issue 29, row 2)
                if now - t.last_move >= s.idle_expiry or (not watched and idle >= s.abandoned_expiry):
                    t.close()
                    del self.tables[tid]
                    self.store.delete_table(tid)
                    expired += 1
            # finished, broken, or led (and expired) by another process: only leave memory
            elif not watched and idle >= s.finished_keep:
                t.close()
                del self.tables[tid]
                dropped += 1
        if expired or dropped:
            log.info("expired %d unfinished table(s) with no move; %d finished table(s) left memory",
                     expired, dropped)
        return expired, dropped

    async def expire_finished(self, now: float | None = None, at_once: int = DELETE_AT_ONCE) -> int:
        """Delete from the store (and memory) at most ``at_once`` tables that finished
        ``finished_expiry`` seconds before ``now`` (wall clock), longest finished first,
        except those with a page open here (or a seat's page on another process).
        Each deletion is its own commit (in a worker thread where the store is remote)
        with the event loop free between them. Any process may do this: a table two
        processes delete at once is deleted once. Returns how many were deleted."""
        cutoff = (time.time() if now is None else now) - self.settings.finished_expiry
        watched = {tid for tid, t in self.tables.items() if t.over and (t.conns or t.present_elsewhere)}
        # ask for enough that the watched ones cannot fill the slice: they are skipped
        ids = await self._in_store(self.store.finished_before, cutoff, at_once + len(watched))
        deleted = 0
        for tid in ids:
            if deleted >= at_once:
                break
            table = self.tables.get(tid)
            if table is not None and (table.conns or table.present_elsewhere):
                continue
            self._deleting.add(tid)
            try:
                if table is not None:
                    table.close()
                    del self.tables[tid]
                await self._in_store(self.store.delete_table, tid)
            finally:
                self._deleting.discard(tid)
            deleted += 1
            await asyncio.sleep(0)  # a person's message goes before the next deletion
        if deleted:
            log.info("deleted %d table(s) finished over %g s ago", deleted, self.settings.finished_expiry)
        return deleted

    async def _in_store(self, call: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """A store call: in a worker thread when it waits on a database server."""
        return await in_store(self.store, call, *args, **kwargs)

    async def _sweep_forever(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                self.sweep()
            except Exception:  # the sweeper must outlive one bad table
                log.exception("the lobby's sweep failed")
            try:
                await self.expire_finished()
            except ServerError:  # the database did not answer (the store's guard logs it once)
                pass
            except Exception:  # the database may be restarting: again next round
                log.exception("deleting finished tables failed")

    def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        for t in self.tables.values():
            t.close()
        self._builders.shutdown(wait=False, cancel_futures=True)
        if self.bots.pool is not None:
            self.bots.pool.shutdown(wait=False, cancel_futures=True)
