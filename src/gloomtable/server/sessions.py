"""Sign-in sessions: password hashes, the session cookie and its CSRF token.

A session is a random cookie value (256 bits) stored only as its SHA-256, so the
database never holds one that works. The cookie is ``HttpOnly`` (no script reads
it), ``SameSite=Lax`` (another site's page cannot send it with a POST) and
``Secure`` when the request came over TLS (directly, or as a proxy trusted by
``--forwarded-allow-ips`` says with ``X-Forwarded-Proto``). Every request that
changes something on the strength of the cookie must also carry the session's
CSRF token in the ``X-CSRF-Token`` header, which only this site's pages can
read (``GET /api/account``). Seat tokens are untouched by any of this: a seat is
still whoever holds its link. See docs/security.md.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import Request, WebSocket
from fastapi.responses import Response

from gloomtable.server.errors import ServerError
from gloomtable.server.store import Store
from gloomtable.server.store_accounts import SessionRow

COOKIE = "gloom_session"
CSRF_HEADER = "x-csrf-token"
TIME_COST = 3
MEMORY_KIB = 64 * 1024
PARALLELISM = 4
"""Argon2id as RFC 9106 recommends where memory is dear (argon2-cffi's defaults):
3 passes over 64 MiB, 4 lanes; about 50 ms on one core of the test machine."""


class Passwords:
    """Hashing and checking passwords in worker threads, ``at_once`` at a time (each
    takes 64 MiB: a flood of sign-ins must not take the machine's memory)."""

    def __init__(self, at_once: int) -> None:
        self.hasher = PasswordHasher(time_cost=TIME_COST, memory_cost=MEMORY_KIB, parallelism=PARALLELISM)
        self.gate = asyncio.Semaphore(at_once)
        self._dummy: str | None = None

    async def hash(self, password: str) -> str:
        async with self.gate:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, password_hash: str | None, password: str) -> bool:
        """Whether ``password`` is the one hashed; with no hash (a name nobody has) a
        dummy one is checked, so a wrong name takes as long as a wrong password."""
        if password_hash is None:
            if self._dummy is None:
                self._dummy = await self.hash(secrets.token_hex(16))
            password_hash = self._dummy
        async with self.gate:
            try:
                return await asyncio.to_thread(self.hasher.verify, password_hash, password)
            except (VerificationError, InvalidHashError):
                return False

    def needs_rehash(self, password_hash: str) -> bool:
        return self.hasher.check_needs_rehash(password_hash)


def digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def _cookie_value(request: Request | WebSocket) -> str | None:
    value = request.cookies.get(COOKIE)
    return value if value and len(value) <= 128 and value.isascii() else None


def current(request: Request | WebSocket, store: Store) -> SessionRow | None:
    """The session the request's cookie names, if it is live."""
    value = _cookie_value(request)
    return store.session(digest(value)) if value else None


def acting(request: Request, store: Store) -> SessionRow | None:
    """The session of a state-changing request (a POST): None without a live cookie;
    with one, the CSRF header must match it, else 403 ``bad_csrf``."""
    session = current(request, store)
    if session is not None:
        given = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(given.encode(), session.csrf.encode()):
            raise ServerError("bad_csrf", "a signed-in request that changes something needs the "
                              "X-CSRF-Token header that GET /api/account gives", 403)
    return session


def require(request: Request, store: Store) -> SessionRow:
    """:func:`acting`, and 401 ``not_signed_in`` without a session."""
    session = acting(request, store)
    if session is None:
        raise ServerError("not_signed_in", "sign in first", 401)
    return session


def start(request: Request, store: Store, account_id: str, days: float) -> tuple[str, str]:
    """A new session for the account (the request's old one, if any, ended: a sign-in
    always rotates it): its cookie value and CSRF token."""
    old = _cookie_value(request)
    if old:
        store.delete_session(digest(old))
    value, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
    store.create_session(digest(value), account_id, csrf, time.time() + days * 86400)
    return value, csrf


def set_cookie(request: Request, response: Response, value: str, days: float) -> None:
    response.set_cookie(COOKIE, value, max_age=int(days * 86400), path="/", httponly=True,
                        samesite="lax", secure=request.url.scheme == "https")


def end(request: Request, response: Response, store: Store) -> None:
    """End the request's session and clear its cookie."""
    old = _cookie_value(request)
    if old:
        store.delete_session(digest(old))
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme == "https")


def cookie_digest(request: Request) -> str:
    value = _cookie_value(request)
    return digest(value) if value else ""
