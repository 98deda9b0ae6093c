"""What one client may ask of the server, and how much the server holds for it.

Every number here is a ``gloom serve`` flag (``--create-rate``, ...: the field name
with dashes) and is listed in docs/security.md. The rates are counted by the
``limits`` library (sliding-window counters), keyed by the client's IP address and,
where the client shows one, by its seat token, so opening a new connection or a new
browser does not reset them. The counters live in this process's memory, or with
``--rate-storage async+redis://...`` in a Redis that every process shares.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import inspect
import ipaddress
import json
import logging
import re
import time
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from limits import RateLimitItem, parse
from limits.aio.strategies import SlidingWindowCounterRateLimiter as SharedRateLimiter
from limits.errors import ConfigurationError
from limits.storage import MemoryStorage, StorageTypes, storage_from_string
from limits.strategies import SlidingWindowCounterRateLimiter
from starlette.types import ASGIApp, Receive, Scope, Send

from gloomtable.i18n.markers import N_
from gloomtable.server.addresses import IPV6_PREFIX, client_key
from gloomtable.server.errors import ServerError, error_message
from gloomtable.server.metrics import parse_allowed, refused

log = logging.getLogger("gloomtable.server")


def _opt(default: Any, help: str) -> Any:
    return field(default=default, metadata={"help": help})


@dataclass(frozen=True)
class ServerLimits:
    """The server's limits; the defaults suit a public server on a small machine."""

    max_body: int = _opt(8192, N_("bytes a JSON request body may have (refused by Content-Length first)"))
    max_deck_body: int = _opt(512 * 1024, N_("bytes a deck file sent to POST /api/gallery may have"))
    upload_max_bytes: int = _opt(1 << 20, N_("bytes one deck upload (POST /api/decks: the deck file and its "
                                             "translations) may have"))
    uploads_per_client: int = _opt(20, N_("decks one client (an account, else an IP) may keep uploaded"))
    upload_expiry_days: float = _opt(30.0, N_("days an uploaded deck is kept after the last table made with "
                                              "it (a deck a stored table names is kept while the table is)"))
    body_timeout: float = _opt(10.0, N_("seconds a client may take to send a request body"))
    create_rate: str = _opt("20/minute", N_("table creations per client IP (new tables, lessons, "
                                            "playing again)"))
    open_tables_per_ip: int = _opt(20, N_("unfinished tables one client IP may have made and still open "
                                          "(in each process); --max-open-tables is the site's"))
    join_rate: str = _opt("30/minute", N_("lobby joins per client IP"))
    listing_rate: str = _opt("120/minute", N_("pages of the lobby listing (GET /api/tables) per client IP"))
    heavy_rate: str = _opt("30/minute", N_("requests that read a deck or replay a game (a deck sent to the "
                                           "gallery, a chronicle, a table read back from the store) "
                                           "per client IP"))
    signin_rate: str = _opt("10/minute", N_("sign-in tries per client IP (right or wrong)"))
    signin_account_rate: str = _opt("10/minute", N_("sign-in tries per account name, from anywhere (a name "
                                                    "nobody has counts the same)"))
    signup_rate: str = _opt("10/hour", N_("accounts made per client IP"))
    password_rate: str = _opt("10/minute", N_("password checks per account when changing the password or "
                                              "deleting the account"))
    session_days: float = _opt(30.0, N_("days a sign-in lasts (then the session cookie is refused)"))
    password_hashes: int = _opt(2, N_("password hashes computed at once (64 MiB each); more requests wait"))
    heavy_timeout: float = _opt(5.0, N_("seconds a request that reads a deck or replays a game may take, "
                                        "queued or running; past it the client gets 503 and the "
                                        "worker is killed"))
    heavy_memory: int = _opt(512, N_("megabytes of address space the worker that reads decks and replays "
                                     "games may use (RLIMIT_AS); a job that needs more gets 503"))
    text_max_key_parts: int = _opt(8, N_("parts of one dotted TOML key, its table header's included, in a "
                                         "deck, translation or lesson read from outside"))
    text_max_keys: int = _opt(200_000, N_("keys and table headers one TOML text from outside may have"))
    text_max_nesting: int = _opt(32, N_("arrays and inline tables nested in one TOML text from outside"))
    ws_connect_rate: str = _opt("60/minute", N_("websocket connections per client IP"))
    ws_token_connect_rate: str = _opt("20/minute", N_("websocket connections per seat token"))
    sockets_per_token: int = _opt(4, N_("websockets one seat token may hold open at once"))
    sockets_per_ip: int = _opt(64, N_("websockets one client IP may hold open at once"))
    socket_count_timeout: float = _opt(1.0, N_("seconds a new websocket waits for the site-wide count of "
                                               "open sockets in PostgreSQL; past it, this process "
                                               "counts alone"))
    message_rate: str = _opt("40/2seconds", N_("websocket messages per seat token (a spectator: per socket)"))
    spectator_message_rate: str = _opt("100/2seconds", N_("websocket messages of spectators, per client IP"))
    message_ip_rate: str = _opt("200/2seconds",
        N_("websocket messages per client IP, all its sockets together"))
    max_strikes: int = _opt(50, N_("messages refused for rate before the server closes that socket"))
    sync_rate: str = _opt("1/2seconds", N_("'sync' requests per seat token (a spectator: per socket): "
                                           "the cooldown"))
    spectator_sync_rate: str = _opt("5/2seconds", N_("'sync' requests of spectators, per client IP"))
    talk_max: int = _opt(300, N_("characters one line of table talk may have (a longer one is refused)"))
    talk_rate: str = _opt("5/10seconds", N_("lines of table talk per seat token (a spectator: per socket)"))
    talk_ip_rate: str = _opt("20/10seconds",
        N_("lines of table talk per client IP, all its sockets together"))
    talk_keep: int = _opt(500, N_("lines of table talk a table keeps in the store (the oldest go)"))
    talk_backlog: int = _opt(100, N_("lines of table talk a page receives when it opens (the newest)"))
    hello_timeout: float = _opt(10.0, N_("seconds a new websocket has to send its first ('hello') message"))
    queue_bytes: int = _opt(1 << 20, N_("bytes waiting to be sent to one websocket before it is dropped"))
    send_timeout: float = _opt(10.0, N_("seconds one websocket send may block (a client that does not read)"))
    max_spectators: int = _opt(256, N_("pages one table serves at once beyond its seats"))
    limit_concurrency: int = _opt(1000, N_("connections and tasks uvicorn serves at once (then 503)"))
    header_timeout: float = _opt(10.0, N_("seconds a connection has to send a request's headers"))
    timeout_keep_alive: int = _opt(5, N_("seconds an idle keep-alive connection stays open"))
    max_header_bytes: int = _opt(16384,
        N_("bytes of request line and headers (h11_max_incomplete_event_size)"))
    ws_max_size: int = _opt(65536, N_("bytes one websocket frame may have"))
    backlog: int = _opt(2048, N_("pending TCP connections the listening socket queues"))
    allowed_hosts: str = _opt("", N_("Host header values served, comma-separated "
                                     "(default: localhost, 127.0.0.1, ::1 and the bound address)"))
    forwarded_allow_ips: str = _opt("", N_("proxies whose X-Forwarded-For is trusted for the client IP "
                                           "(default: none; set it when behind a reverse proxy)"))
    ipv6_prefix: int = _opt(IPV6_PREFIX, N_("leading bits of an IPv6 address counted as one client by "
                                            "every per-IP limit (a home or a server is handed a whole /64)"))
    store_timeout: float = _opt(2.0, N_("seconds a call to a PostgreSQL --db may take before it fails with "
                                        "503 (then every call fails at once until the database "
                                        "answers again)"))
    rate_storage: str = _opt("memory://", N_("where the rate counters live: memory:// (this process alone) "
                                             "or async+redis://HOST:PORT/DB (shared by every "
                                             "process given it)"))
    rate_storage_timeout: float = _opt(0.25, N_("seconds a rate check waits for --rate-storage; past it, "
                                                "this process counts alone for a few seconds"))
    rate_storage_prefix: str = _opt("gloomtable", N_("prefix of the counters' keys in --rate-storage "
                                                     "(one per site sharing a Redis)"))
    metrics_allow: str = _opt("", N_("addresses or networks that may read /metrics, comma-separated "
                                     "(127.0.0.1,::1), asked directly, never through a proxy (default: none, "
                                     "/metrics is off)"))

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name.endswith("_rate"):
                try:
                    parse(value)
                except ValueError:
                    raise ValueError(f"--{flag(f.name)} {value!r} is not a rate like '20/minute'") from None
            elif isinstance(value, (int, float)) and value <= 0:
                raise ValueError(f"--{flag(f.name)} must be positive, got {value}")
        if self.ipv6_prefix > 128:
            raise ValueError("--ipv6-prefix must be at most 128 (the bits of an IPv6 address), "
                             f"got {self.ipv6_prefix}")
        parse_allowed(self.metrics_allow)  # a typo is one clear error at the start
        scheme = urllib.parse.urlsplit(self.rate_storage).scheme
        asyncio_storage = scheme.startswith("async+") and scheme != "async+memory"
        if not (self.rate_storage == "memory://" or asyncio_storage):
            # A blocking client would stall the event loop, every table with it, on each slow answer.
            raise ValueError(f"--rate-storage {shown(self.rate_storage)!r} is neither memory:// nor an "
                             "asyncio storage such as async+redis://HOST:6379")

    def hosts(self, bound: str) -> list[str]:
        """The Host names the TrustedHostMiddleware lets in."""
        if self.allowed_hosts:
            return [h.strip() for h in self.allowed_hosts.split(",") if h.strip()]
        names = ["localhost", "127.0.0.1", "::1", "[::1]"]
        if bound not in ("0.0.0.0", "::", ""):
            try:
                ip = ipaddress.ip_address(bound)
                names.append(f"[{bound}]" if ip.version == 6 else bound)
            except ValueError:
                names.append(bound)
        return list(dict.fromkeys(names))


def shown(uri: str) -> str:
    """A storage URI fit for a log line or an error: without its password."""
    from gloomtable.server.store import shown as shown_url

    return shown_url(uri)


def flag(name: str) -> str:
    return name.replace("_", "-")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One ``--flag`` per limit, for ``python -m gloomtable.server``."""
    for f in dataclasses.fields(ServerLimits):
        kind = type(f.default)
        parser.add_argument(f"--{flag(f.name)}", dest=f.name, type=kind, default=f.default,
                            help=f"{f.metadata['help']} (default: {f.default!r})")


def from_namespace(ns: argparse.Namespace | dict[str, Any]) -> ServerLimits:
    values = vars(ns) if isinstance(ns, argparse.Namespace) else ns
    return ServerLimits(**{f.name: values[f.name] for f in dataclasses.fields(ServerLimits)
                           if f.name in values})


def typer_parameters() -> list[inspect.Parameter]:
    """The same flags as keyword parameters carrying ``typer.Option``s (for ``gloom serve``)."""
    from typing import Annotated

    import typer

    from gloomtable.i18n.cli_language import _

    params = []
    for f in dataclasses.fields(ServerLimits):
        kind = type(f.default)
        params.append(inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=f.default,
                                        annotation=Annotated[kind, typer.Option(help=_(f.metadata["help"]))]))
    return params


class SweptMemoryStorage(MemoryStorage):
    """``limits``' in-memory storage, with its expired keys swept by :meth:`sweep` on
    our timer. Its own schedule starts a new thread 10 ms after every busy moment,
    which under a flood of requests cost the event loop more than the counting
    (reads already drop an expired key, so sweeping only frees memory)."""

    def _MemoryStorage__schedule_expiry(self) -> None:  # the base class's private hook
        pass

    def sweep(self) -> None:
        self._MemoryStorage__expire_events()  # type: ignore[attr-defined]  # limits' private, name-mangled sweep


SWEEP_EVERY = 5.0
"""Seconds between sweeps of expired rate counters."""


RETRY_SHARED = 5.0
"""Seconds the counting stays in this process's memory after --rate-storage failed."""
PROBE_TIMEOUT = 5.0
"""Seconds the start-up check of --rate-storage waits for an answer."""


def _shared_storage(config: ServerLimits) -> StorageTypes:
    return storage_from_string(config.rate_storage, key_prefix=config.rate_storage_prefix)


def _disconnect(storage: StorageTypes) -> None:
    """Close a Redis client's connections (``limits`` keeps the client on its bridge)."""
    pool = getattr(getattr(getattr(storage, "bridge", None), "storage", None), "connection_pool", None)
    if pool is not None:
        pool.disconnect()


def check_rate_storage(config: ServerLimits) -> None:
    """At start-up: ValueError (one line naming the flag) unless --rate-storage answers."""
    if config.rate_storage == "memory://":
        return
    where = f"--rate-storage {shown(config.rate_storage)}"

    async def probe() -> str | None:
        storage = _shared_storage(config)
        try:
            async with asyncio.timeout(PROBE_TIMEOUT):
                answered = await storage.check()  # type: ignore[misc]  # an asyncio storage's check
        except TimeoutError:
            return f"no answer within {PROBE_TIMEOUT:g} s"
        finally:
            _disconnect(storage)
        return None if answered else "it does not answer (is the server running there?)"

    try:
        failure = asyncio.run(probe())
    except ConfigurationError as exc:  # an unknown scheme, or its client library missing
        hint = "; pip install 'gloomtable[redis]'" if "prerequisite" in str(exc) else ""
        failure = str(exc).replace(config.rate_storage, shown(config.rate_storage)) + hint
    if failure is not None:
        raise ValueError(f"{where}: {failure}")


class RateLimits:
    """The server's rate counters: a ``limits`` storage in this process's memory, and with
    ``--rate-storage`` a shared one (asyncio: a slow Redis never blocks the event loop).

    When the shared storage fails or takes longer than ``--rate-storage-timeout``, a
    request is counted in this process's memory instead (each process then enforces
    the rates alone, as without ``--rate-storage``) for ``RETRY_SHARED`` seconds: an
    attacker who slows Redis down neither stalls the server nor lifts the limits."""

    def __init__(self, config: ServerLimits) -> None:
        self.config = config
        self.storage = SweptMemoryStorage()
        self.limiter = SlidingWindowCounterRateLimiter(self.storage)
        self.items: dict[str, RateLimitItem] = {
            f.name: parse(getattr(config, f.name)) for f in dataclasses.fields(config)
            if f.name.endswith("_rate")}
        self.shared: SharedRateLimiter | None = None
        self.local_until = 0.0
        """``time.monotonic()`` before which the shared storage is not asked (it failed)."""
        self.failing = False

    def open_shared(self) -> None:
        """Connect to --rate-storage (inside the running event loop the server uses)."""
        if self.config.rate_storage != "memory://":
            self.shared = SharedRateLimiter(_shared_storage(self.config))

    def close(self) -> None:
        if self.shared is not None:
            _disconnect(self.shared.storage)
            self.shared = None

    async def sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            self.storage.sweep()

    async def hit(self, name: str, *keys: str) -> bool:
        """Count one ``name`` event for the key; False when the key is over its rate."""
        item = self.items[name]
        if self.shared is not None and time.monotonic() >= self.local_until:
            try:
                async with asyncio.timeout(self.config.rate_storage_timeout):
                    allowed = await self.shared.hit(item, name, *keys)
            except Exception as exc:  # whatever went wrong there, this request is counted here
                self._shared_failed(exc)
            else:
                if self.failing:
                    self.failing = False
                    log.warning("rate counters: %s answers again; counting there",
                                shown(self.config.rate_storage))
                return allowed
        return self.limiter.hit(item, name, *keys)

    async def hit_all(self, checks: Sequence[tuple[str, str]]) -> bool:
        """Count one event for each ``(name, key)``; False when any key is over its rate.
        With ``--rate-storage`` the counts are asked at once, so a message waits on Redis
        one round trip, not one per rate (every count is then taken, a refused message's
        too); in this process's memory they are taken in order, up to the first refusal."""
        if self.shared is not None and time.monotonic() >= self.local_until and len(checks) > 1:
            return all(await asyncio.gather(*(self.hit(name, key) for name, key in checks)))
        for name, key in checks:
            if not await self.hit(name, key):
                return False
        return True

    def _shared_failed(self, exc: Exception) -> None:
        self.local_until = time.monotonic() + RETRY_SHARED
        if not self.failing:  # once per outage, however many requests meet it
            self.failing = True
            reason = f"no answer within {self.config.rate_storage_timeout:g} s" \
                if isinstance(exc, TimeoutError) else f"{type(exc).__name__}: {shown(str(exc))}"
            log.warning("rate counters: %s failed (%s); counting in this process's memory until it "
                        "answers (retried every %g s)", shown(self.config.rate_storage), reason, RETRY_SHARED)

    async def check(self, name: str, key: str, what: str) -> None:
        """Count one event, or refuse it with ``rate_limited`` (HTTP 429)."""
        if not await self.hit(name, key):
            raise ServerError("rate_limited", f"too many {what} from you (at most "
                              f"{getattr(self.config, name)}); wait a little", 429)


HTTP_RATES = [
    ("POST", re.compile(r"/api/tables"), "create_rate", "new tables"),
    ("POST", re.compile(r"/api/lessons"), "create_rate", "new tables"),
    ("POST", re.compile(r"/api/tables/[^/]+/join"), "join_rate", "joins"),
    ("GET", re.compile(r"/api/tables"), "listing_rate", "listings"),
    ("POST", re.compile(r"/api/tables/[^/]+/again"), "create_rate", "new tables"),
    ("POST", re.compile(r"/api/gallery"), "heavy_rate", "decks sent"),
    ("POST", re.compile(r"/api/decks"), "heavy_rate", "decks uploaded"),
    ("GET", re.compile(r"/api/tables/[^/]+/chronicle(?:\.md|\.html)?"), "heavy_rate", "chronicles"),
]
"""The HTTP requests counted per client IP: (method, whole path, rate, what it is)."""


class HttpRateLimits:
    """Pure ASGI, outside the app: a request over its client's rate is answered 429
    here, before routing and body parsing, so a flood of them costs little."""

    def __init__(self, app: ASGIApp, rates: RateLimits) -> None:
        self.app = app
        self.rates = rates

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            for method, path, rate, what in HTTP_RATES:
                if scope["method"] == method and path.fullmatch(scope["path"]):
                    client = scope.get("client")
                    host = client_key(client[0], self.rates.config.ipv6_prefix) if client else "unknown"
                    if not await self.rates.hit(rate, host):
                        refused("rate_limited", "http")
                        most = getattr(self.rates.config, rate)
                        body = json.dumps(error_message(
                            "rate_limited", f"too many {what} from you (at most {most}); wait a little"))
                        headers = [(b"content-type", b"application/json"),
                                   (b"content-length", str(len(body)).encode())]
                        await send({"type": "http.response.start", "status": 429, "headers": headers})
                        await send({"type": "http.response.body", "body": body.encode()})
                        return
                    break
        await self.app(scope, receive, send)
