"""A table's websocket: its refusals before the handshake (another site's page, an
address over its limits), the hello that names the seat, the connection's sender
(its mailbox drained to the socket) and the loop of its messages (act, sync, ping,
name, say, lesson_next), each counted against the seat's token and the address.
The protocol: docs/server.md.

``create_app`` adds ``ws_table`` to the app itself (``add_api_websocket_route``), not
through an ``APIRouter``: FastAPI dispatches an included router through a layer of its
own, whose frames and scope would live as long as each socket (a whole game)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any
from urllib.parse import urlsplit

from fastapi import WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse

from gloomtable.engine.textdata import TextDataError, load_json
from gloomtable.i18n.web import request_language
from gloomtable.server import accounts, metrics
from gloomtable.server.addresses import client_ip
from gloomtable.server.deps import (
    hosts_of,
    limits_of,
    lobby_of,
    not_in_memory,
    rates_of,
    sockets_of,
    talk_of,
)
from gloomtable.server.errors import ServerError, error_message
from gloomtable.server.limits import RateLimits
from gloomtable.server.options import clean_name
from gloomtable.server.table import Conn, LiveTable
from gloomtable.server.talk import TableTalk

log = logging.getLogger("gloomtable.server")

MAX_MESSAGE = 8192
"""Bytes a client message may have (a play with narration needs far fewer)."""
NARRATION_MAX = 200
TOKEN_MAX = 128
"""Characters a seat token may have in a hello (ours have 24)."""
SYNC_LOG = 100
"""Log entries a ``sync`` answer carries (the newest): a sync is a repair, not a replay."""

PATH = "/ws/{table_id}"


async def ws_table(websocket: WebSocket, table_id: str) -> None:
    """A table's websocket: refused before the handshake when over its address's
    limits or opened by another site's page; then the hello names the seat (or a
    spectator), and the page's mailbox and messages run until either side closes.
    It reads the app's parts itself rather than through ``Depends``: a socket lives
    for a whole game, and holds nothing of FastAPI's dependency solving meanwhile."""
    config, rates, sockets = limits_of(websocket), rates_of(websocket), sockets_of(websocket)
    talk, served_hosts, lobby = talk_of(websocket), hosts_of(websocket), lobby_of(websocket)
    ip = client_ip(websocket, config.ipv6_prefix)
    held: list[str] = []
    # An address over its limits is refused before the handshake completes (HTTP 429,
    # the cheapest no there is); the page's socket retries later, as for any failure.
    refusal = None
    origin = websocket.headers.get("origin")
    scheme = "https" if websocket.url.scheme == "wss" else "http"
    if origin is not None and not same_origin(origin, websocket.headers.get("host", ""), served_hosts,
                                              scheme):
        # A browser always says which page opened the socket: another site's page may
        # not watch or play here through a visitor's browser (cross-site websockets).
        refusal = ServerError("bad_origin", f"a page of {origin[:80]!r} may not open this server's "
                              "websockets", 403)
    elif not await rates.hit("ws_connect_rate", ip):
        refusal = ServerError("rate_limited", f"too many connections from you (at most "
                              f"{config.ws_connect_rate}); wait a little", 429)
    elif not await sockets.take("ip:" + ip, config.sockets_per_ip):
        refusal = ServerError("too_many_sockets", f"your address already has {config.sockets_per_ip} "
                              "connections open", 429)
    if refusal is not None:
        metrics.refused(refusal.code, "ws")
        with contextlib.suppress(Exception):
            await websocket.send_denial_response(JSONResponse(refusal.to_dict(),
                                                              status_code=refusal.status))
        return
    held.append("ip:" + ip)
    try:
        await websocket.accept()
        if "token" in websocket.query_params:
            raise ServerError("bad_message", "a seat token goes in the first message "
                              '({"type": "hello", "token": ...}), never in the address')
        await not_in_memory(websocket, table_id)
        table = lobby.get(table_id)
        token, deltas = await _hello(websocket, config.hello_timeout)
        # while the hello came, the table may have left memory or been deleted (expired)
        table = lobby.get(table_id)
        seat = table.seat_for_token(token)
        if token and seat is None:
            raise ServerError("bad_token", "that token is not a seat of this table", 403)
        if token:  # seat connections count, per token, whatever the address
            if not await rates.hit("ws_token_connect_rate", "token:" + token):
                raise ServerError("rate_limited", "too many connections with this seat's token (at most "
                                  f"{config.ws_token_connect_rate}); wait a little", 429)
            if not await sockets.take("token:" + token, config.sockets_per_token):
                raise ServerError("too_many_sockets", f"this seat already has {config.sockets_per_token} "
                                  "pages open; close one", 429)
            held.append("token:" + token)
        if seat is not None:  # a signed-in person opening a seat's link is recorded there
            accounts.record_seat(websocket, table.id, seat)
        if seat is None and not table.settings.spectators:
            raise ServerError("no_spectators", "this table does not allow spectators", 403)
        if seat is None and sum(1 for c in table.conns if c.seat is None) >= config.max_spectators:
            raise ServerError("server_busy", f"this table already has {config.max_spectators} "
                              "spectators", 503)
        # A seat's messages count against its token, so a new socket starts where the old
        # one stopped; a spectator's against its socket and, all together, its address.
        key = "token:" + token if seat is not None and token else f"conn:{id(websocket)}"
        lang = request_language(websocket.query_params, websocket.cookies, websocket.headers)
        conn = Conn(seat, lang=lang, max_bytes=config.queue_bytes, deltas=deltas)
        sender = asyncio.create_task(_sender(websocket, conn, config.send_timeout))
        table.attach(conn)
        receiver = asyncio.create_task(_receive_loop(websocket, table, conn, rates, talk, key, ip))
        try:
            await talk.welcome(table, conn)  # inside: the page is detached however this ends
            await asyncio.wait([sender, receiver], return_when=asyncio.FIRST_COMPLETED)
        finally:
            receiver.cancel()
            table.detach(conn)
            conn.push(None)
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(sender, 2)
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await receiver
    except ServerError as exc:
        metrics.refused(exc.code, "ws")
        with contextlib.suppress(Exception):
            await websocket.send_json(exc.to_dict())
            await websocket.close(code=4000 + exc.status % 1000)
    except WebSocketDisconnect:
        pass
    finally:
        for key in held:
            sockets.give_back(key)


DEFAULT_PORTS = {"http": 80, "https": 443}


def _host_port(netloc: str, scheme: str) -> tuple[str, int] | None:
    """(host, port) of ``netloc`` (``host``, ``host:port``, ``[v6]:port``), the
    scheme's port when none is written; None when it is not well formed."""
    try:
        parts = urlsplit(f"{scheme}://{netloc}")
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname or parts.username is not None or parts.path or parts.query:
        return None
    return parts.hostname.lower(), port if port is not None else DEFAULT_PORTS[scheme]


def same_origin(origin: str, host: str, served: list[str], scheme: str = "http") -> bool:
    """Whether a websocket's ``Origin`` is a page of this server, exactly: the scheme the
    socket came in on (``ws`` for ``http``, ``wss`` for ``https``, a proxy's
    ``X-Forwarded-Proto`` where it is trusted), the host and port of the request's own
    ``Host``, and a host this server serves (``--allowed-hosts``)."""
    parts = urlsplit(origin)
    if parts.scheme != scheme or parts.path not in ("", "/") or parts.query or parts.fragment:
        return False
    mine, theirs = _host_port(host, scheme), _host_port(parts.netloc, scheme)
    if mine is None or theirs is None or mine != theirs:
        return False
    name = f"[{theirs[0]}]" if ":" in theirs[0] else theirs[0]
    return "*" in served or name in (h.lower() for h in served)


async def _hello(websocket: WebSocket, timeout: float) -> tuple[str | None, bool]:
    """The first message names the seat: ``{"type": "hello", "token": "..."}`` (no token
    or null: a spectator). It travels inside the socket, so no log of addresses holds it.
    ``"deltas": true`` asks for patches after the first full state (docs/server.md)."""
    try:
        message = await asyncio.wait_for(websocket.receive(), timeout)
    except TimeoutError:
        raise ServerError("hello_needed", f"no hello within {timeout:g} s") from None
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        text = (message.get("bytes") or b"").decode("utf-8", "replace")
    if len(text) > MAX_MESSAGE:
        raise ServerError("too_large", f"the hello has {len(text)} characters; at most {MAX_MESSAGE}")
    try:
        msg = load_json(text)
    except TextDataError as exc:
        raise ServerError("bad_json", f"the hello is {exc}") from None
    if not isinstance(msg, dict) or msg.get("type") != "hello":
        raise ServerError("hello_needed", 'the first message must be {"type": "hello", "token": ...}')
    deltas = msg.get("deltas", False)
    if not isinstance(deltas, bool):
        raise ServerError("bad_message", '"deltas" must be true or false')
    token = msg.get("token")
    if token is None or token == "":
        return None, deltas
    if not isinstance(token, str):
        raise ServerError("bad_token", "a seat token is text", 403)
    if len(token) > TOKEN_MAX or not token.isascii() or not token.isprintable():
        raise ServerError("bad_token", "that token is not a seat of this table", 403)
    return token, deltas


async def _sender(websocket: WebSocket, conn: Conn, timeout: float) -> None:
    """Drain one connection's mailbox; ``None``, a dropped slow reader or a send that
    blocks ``timeout`` seconds (a client that does not read) ends it."""
    while True:
        text = await conn.queue.get()
        if text is None or conn.dropped:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(websocket.close(code=1008 if conn.dropped else 1000), 1)
            return
        try:
            async with asyncio.timeout(timeout):  # no task of its own per message, as wait_for makes
                await websocket.send_text(text)
        except TimeoutError:
            conn.drop()
            return
        except Exception:
            return
        conn.sent(text)


async def _receive_loop(websocket: WebSocket, table: LiveTable, conn: Conn, rates: RateLimits,
                        talk: TableTalk, key: str, ip: str) -> None:
    """Every message counts against the seat's token (a spectator's: its IP) and the IP,
    so a new connection starts where the old one stopped."""
    strikes, refusing = 0, False
    config = rates.config
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is None:
            raw = message.get("bytes") or b""
            text = raw.decode("utf-8", "replace")
        checks = [("message_rate", key), ("message_ip_rate", "ip:" + ip)]
        if conn.seat is None:
            checks.append(("spectator_message_rate", "ip:" + ip))
        if not await rates.hit_all(checks):
            strikes += 1
            metrics.refused("rate_limited", "ws")
            if not refusing:  # one answer per run of refused messages: a flood costs no more answers
                conn.push(error_message("rate_limited", f"at most {config.message_rate} messages; slow down"))
                refusing = True
            if strikes >= config.max_strikes:
                return
            continue
        refusing = False
        try:
            await _handle(table, conn, text, rates, talk, key, ip)
        except ServerError as exc:  # the error alone: states follow real changes, and sync
            metrics.refused(exc.code, "ws")
            conn.push(exc.to_dict())
        except Exception:
            log.exception("table %s: error handling a message", table.id)
            metrics.refused("server_error", "ws")
            conn.push(error_message("server_error", "the server could not handle that message"))


def _integer(msg: dict[str, Any], name: str) -> int:
    """``msg[name]`` if it is an integer (not a bool), else the error that says which field."""
    value = msg.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ServerError("bad_message", f'"{name}" must be an integer')
    return value


async def _handle(table: LiveTable, conn: Conn, text: str, rates: RateLimits, talk: TableTalk,
                  key: str, ip: str) -> None:
    if len(text) > MAX_MESSAGE:
        raise ServerError("too_large", f"the message has {len(text)} characters; at most {MAX_MESSAGE}")
    try:
        msg = load_json(text)
    except TextDataError as exc:  # also nested too deep, or a number too long to convert
        raise ServerError("bad_json", f"the message is {exc}") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ServerError("bad_message", 'a message is a JSON object with a "type"')
    kind = msg["type"]
    if kind == "ping":
        conn.push({"type": "pong"})
    elif kind == "sync":
        checks = [("sync_rate", key)] if conn.seat is not None else [
            ("spectator_sync_rate", "ip:" + ip), ("sync_rate", key)]
        if not await rates.hit_all(checks):
            conn.shown = None  # a page out of step gets the next state whole, asked or not
            raise ServerError("rate_limited", f"at most {rates.config.sync_rate} syncs; the last one stands")
        conn.log_sent = max(0, len(table.entries) - SYNC_LOG)
        conn.push_state({**table.state_message(conn), "resync": True})
    elif kind == "act":
        action, state_id = _integer(msg, "action"), _integer(msg, "state_id")
        narration = msg.get("narration")
        if narration is not None and not isinstance(narration, str):
            raise ServerError("bad_message", '"narration" must be text')
        line = clean_name(narration, NARRATION_MAX) if narration else None
        started = time.perf_counter()
        await table.submit(conn, action, state_id, line or None)
        metrics.MOVE_SECONDS.labels(table.row.game).observe(time.perf_counter() - started)
    elif kind == "lesson_next":
        table.lesson_next(conn)
    elif kind == "say":
        await talk.say(table, conn, msg, key, ip)
    elif kind == "name":
        name = msg.get("name")
        if not isinstance(name, str):
            raise ServerError("bad_message", '"name" must be text')
        table.rename(conn, clean_name(name))
    else:
        raise ServerError("bad_message", f"unknown message type {kind[:40]!r}; "
                          "known: act, sync, ping, name, say, lesson_next (hello comes first, once)")
