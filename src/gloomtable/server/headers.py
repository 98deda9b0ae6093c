"""The headers every HTTP answer carries, so no other site can script, frame or
sniff our pages, and the checks on a request's body before it is read.

The page loads only its own scripts and styles (no inline script anywhere); a
page that must inline a style (the chronicle, the gallery) sets its own policy
naming that style by hash (:func:`csp_with_styles`), which this middleware keeps.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import re
from typing import Any

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gloomtable.engine.textdata import TextDataError, load_json
from gloomtable.server.errors import ServerError

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
_STYLE = re.compile(r"<style>(.*?)</style>", re.S)


def csp_with_styles(html: str) -> str:
    """The policy, allowing exactly the inline ``<style>`` blocks of ``html`` by hash."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(m.encode("utf-8")).digest()).decode("ascii") + "'"
        for m in _STYLE.findall(html))
    return CSP.replace("style-src 'self'", f"style-src 'self' {hashes}" if hashes else "style-src 'self'")


class SecurityHeaders:
    """Pure ASGI (no per-request task): adds the headers to every HTTP response start."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                headers.extend(h for h in SECURITY_HEADERS if h[0] not in names)
                if b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", CSP.encode("ascii")))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class PathCheck:
    """Pure ASGI: a request or websocket whose decoded path holds a control character
    (``%00`` and the like) is answered ``400 bad_request`` before any route runs, so
    no id, name or game carries one to a store (PostgreSQL refuses a NUL in text with
    an error and a traceback; issue 29, row 5)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] in ("http", "websocket") and any(ord(ch) < 32 or ord(ch) == 127 for ch in path):
            body = json.dumps({"type": "error", "code": "bad_request",
                               "message": "the address holds a control character"}).encode()
            start = {"status": 400, "headers": [(b"content-type", b"application/json"),
                                                (b"content-length", str(len(body)).encode())]}
            if scope["type"] == "http":
                await send({"type": "http.response.start", **start})
                await send({"type": "http.response.body", "body": body})
            else:  # refused before the handshake, as a websocket over its limits is
                await receive()  # websocket.connect
                await send({"type": "websocket.http.response.start", **start})
                await send({"type": "websocket.http.response.body", "body": body})
            return
        await self.app(scope, receive, send)


async def read_body(request: Request, cap: int, timeout: float) -> bytes:
    """The body, refused by its ``Content-Length`` before a byte is read, and read
    with a cap (a chunked body stops counting at ``cap``) within ``timeout`` seconds."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit():
            raise ServerError("bad_message", "Content-Length is not a number")
        if int(declared) > cap:
            raise ServerError("too_large", f"the request has {declared} bytes; at most {cap}", 413)

    async def collect() -> bytes:
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > cap:
                raise ServerError("too_large", f"the request has more than {cap} bytes; at most {cap}", 413)
            chunks.append(chunk)
        return b"".join(chunks)

    try:
        return await asyncio.wait_for(collect(), timeout)
    except TimeoutError:
        raise ServerError("too_large", f"the request body took longer than {timeout:g} s to arrive",
                          408) from None


async def read_json(request: Request, cap: int, timeout: float) -> dict[str, Any]:
    """A JSON object body: ``application/json`` only (a form post from another site
    cannot send that without the browser asking us first, and we never say yes)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ServerError("bad_content_type", "send the request body as application/json "
                          f"(got {kind[:60] or 'no Content-Type'})", 415)
    raw = await read_body(request, cap, timeout)
    try:
        data = load_json(raw or b"{}")
    except TextDataError as exc:
        raise ServerError("bad_json", f"the request body is {exc}") from None
    if not isinstance(data, dict):
        raise ServerError("bad_message", "the request body must be a JSON object")
    return data
