"""``/metrics``: this process's figures in Prometheus' text format, by
``prometheus-client`` (docs/deploy.md, "Metrics"; docs/security.md).

**Off by default.** ``/metrics`` answers only when ``--metrics-allow`` names the
addresses or networks that may scrape it (``127.0.0.1,::1``, ``10.0.0.0/8``); it is
``404`` otherwise, like any path the server does not have. A request is served only
when it comes *straight* from an allowed address: one carrying ``X-Forwarded-For``,
``Forwarded`` or ``X-Real-IP`` came through a proxy and is refused (``403``), so a
proxy in front of the site never makes the figures public by passing them on, even
if it sends everything on and even if ``--forwarded-allow-ips`` is missing.

**One process, one scrape.** Each ``gloom serve`` process is its own server on its
own port, so Prometheus scrapes each one (``host:port/metrics``, a target per
process, never through the proxy). Counters count what *this* process did (moves it
committed, requests it answered); gauges say what it holds now (tables in its memory,
leases, sockets). A site's figure is the sum over its processes (``sum(rate(...))``).
prometheus-client's multiprocess mode is for several workers behind one port, which
``gloom serve`` never has, so it is not used.

The metric objects live in :data:`REGISTRY`, this module's own (the library's idiom:
one registry a process; not the library's global one, so nothing another library
registers there shows up); the figures read at scrape time (tables, sockets, leases,
the heavy worker) come from the app :func:`watch` was last given.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Iterable, Iterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gloomtable.server.errors import error_message

REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)  # memory, CPU, open files of this process
PlatformCollector(registry=REGISTRY)  # the Python version

LATENCY = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Histogram buckets in seconds (a move's round trip aims under 50 ms at p99, docs/bench.md)."""

MOVES = Counter("gloomtable_moves", "Actions this process committed to the store, by game and by who "
                "chose them (person, bot, stand_in, timeout)", ["game", "by"], registry=REGISTRY)
MOVE_SECONDS = Histogram("gloomtable_move_seconds", "A person's move handled by this process: from its "
                         "message to the state sent to every page here (the store commit included)",
                         ["game"], buckets=LATENCY, registry=REGISTRY)
REQUEST_SECONDS = Histogram("gloomtable_http_request_seconds", "HTTP requests answered, by method, route "
                            "(its pattern; 'unmatched' for paths the server does not have) and status",
                            ["method", "route", "status"], buckets=LATENCY, registry=REGISTRY)
REFUSED = Counter("gloomtable_refusals", "Requests and websocket messages refused, by error code "
                  "(docs/server.md) and by way (http, ws)", ["code", "via"], registry=REGISTRY)
STORE_SECONDS = Histogram("gloomtable_store_call_seconds", "Calls to a PostgreSQL store (through the "
                          "guard of --store-timeout), answered or not", buckets=LATENCY, registry=REGISTRY)
STORE_ERRORS = Counter("gloomtable_store_errors", "Store calls that failed for want of the database: "
                       "timeout (no answer within --store-timeout), cut (the link broke), unanswered "
                       "(refused at once while the database is away)", ["kind"], registry=REGISTRY)
LEASES_TAKEN = Counter("gloomtable_leases_taken", "Tables this process took over from none or from a "
                       "process that stopped renewing (a lease moved here)", registry=REGISTRY)
LEASES_LOST = Counter("gloomtable_leases_lost", "Leases this process found taken by another when it "
                      "renewed (it had stalled)", registry=REGISTRY)

PROXY_HEADERS = ("x-forwarded-for", "forwarded", "x-real-ip")
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
"""Methods a label names (any other is ``other``: a client may send any word as one)."""


def moved(game: str, by: str) -> None:
    """One action committed (``by``: person, bot, stand_in, timeout)."""
    MOVES.labels(game, by).inc()


def refused(code: str, via: str) -> None:
    """One refusal with ``code`` (``via``: http or ws)."""
    REFUSED.labels(code, via).inc()


class _Watched:
    """What the scrape reads from the serving app (set by :func:`watch`)."""

    lobby: Any = None
    heavy: Any = None


_WATCHED = _Watched()


def watch(lobby: Any, heavy: Any) -> None:
    """Read the tables, sockets and leases of ``lobby`` and the worker of ``heavy`` at
    each scrape (``None``: nothing, when the app stops)."""
    _WATCHED.lobby, _WATCHED.heavy = lobby, heavy


class StateCollector:
    """The figures that are a count of what the process holds, read when scraped
    (on the event loop, like every request: nothing is asked of the store)."""

    def collect(self) -> Iterable[Metric]:
        return list(self._families())

    def _families(self) -> Iterator[Metric]:
        lobby, heavy = _WATCHED.lobby, _WATCHED.heavy
        if lobby is not None:
            tables = GaugeMetricFamily("gloomtable_tables", "Tables in this process's memory, by game and "
                                       "state (unfinished: being played; finished: kept a while)",
                                       labels=["game", "state"])
            sockets = GaugeMetricFamily("gloomtable_websockets", "Websockets open at a table of this "
                                        "process, a seat's page or a spectator's", labels=["kind"])
            counts: dict[tuple[str, str], int] = {}
            seat_socks = watching = led = 0
            for table in list(lobby.tables.values()):
                key = (table.row.game, "finished" if table.over else "unfinished")
                counts[key] = counts.get(key, 0) + 1
                led += int(table.leader and not table.over)
                for conn in table.conns:
                    if conn.seat is None:
                        watching += 1
                    else:
                        seat_socks += 1
            for (game, state), n in sorted(counts.items()):
                tables.add_metric([game, state], n)
            sockets.add_metric(["seat"], seat_socks)
            sockets.add_metric(["spectator"], watching)
            yield tables
            yield sockets
            yield GaugeMetricFamily("gloomtable_tables_led", "Unfinished tables whose bots and timers this "
                                    "process runs (with several processes: whose lease it holds)", value=led)
            if lobby.cluster is not None:
                yield GaugeMetricFamily("gloomtable_leases_held", "Table leases this process holds",
                                        value=len(lobby.cluster.held))
                yield GaugeMetricFamily("gloomtable_heartbeat_age_seconds", "Seconds since this process "
                                        "last stored its heartbeat (/readyz fails past the lease's 2.5 s)",
                                        value=time.monotonic() - lobby.cluster.renewed_at)
        if heavy is not None:
            yield CounterMetricFamily("gloomtable_heavy_jobs", "Jobs sent to the heavy worker (decks read, "
                                      "games replayed for a chronicle)", value=heavy.jobs)
            yield CounterMetricFamily("gloomtable_heavy_workers_killed", "Heavy workers killed past "
                                      "--heavy-timeout or --heavy-memory", value=heavy.killed)
            yield GaugeMetricFamily("gloomtable_heavy_busy", "Heavy workers working now", value=heavy.busy)
            yield GaugeMetricFamily("gloomtable_heavy_waiting", "Jobs waiting for a heavy worker",
                                    value=heavy.waiting)


REGISTRY.register(StateCollector())


def parse_allowed(text: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """``--metrics-allow``: addresses and networks, comma-separated ('' = /metrics off)."""
    nets = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        try:
            nets.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise ValueError(f"--metrics-allow: {part[:60]!r} is not an IP address or network "
                             "(like 127.0.0.1, ::1 or 10.0.0.0/8)") from None
    return nets


def _may_scrape(request: Request, allowed: list[ipaddress.IPv4Network | ipaddress.IPv6Network]) -> bool:
    if any(h in request.headers for h in PROXY_HEADERS):
        return False  # it came through a proxy: the figures are never passed on by one
    if request.client is None:
        return False
    try:
        address = ipaddress.ip_address(request.client.host)
    except ValueError:
        return False
    return any(address in net for net in allowed)


router = APIRouter()


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    """The figures, to the addresses ``--metrics-allow`` names, asked directly."""
    allowed = parse_allowed(request.app.state.limits.metrics_allow)
    if not allowed:
        return JSONResponse(error_message("not_found", "Not Found"), status_code=404)
    if not _may_scrape(request, allowed):
        return JSONResponse(error_message("forbidden", "the metrics are served only to the addresses "
                                          "--metrics-allow names, asked directly (not through a proxy)"),
                            status_code=403)
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)


class RequestTimes:
    """Pure ASGI: every HTTP request's time to its response, by method, route pattern
    and status (websockets are long-lived: they are counted as sockets instead)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            route = scope.get("route")
            pattern = getattr(route, "path", None) if route is not None else None
            method = scope["method"] if scope["method"] in METHODS else "other"
            REQUEST_SECONDS.labels(method, pattern or "unmatched", str(status)).observe(
                time.perf_counter() - started)
