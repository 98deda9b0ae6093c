"""Redis for tests: the server at 127.0.0.1:6379, and a proxy in front of it that can
stall, as a Redis under attack or on a sick network would.

``require_redis()`` skips a test when nothing answers there, unless the CI variable
is set: then it fails, so CI can never pass by skipping (as tests/pg_support.py).
Each test names its own key prefix, so runs never count each other's requests.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import threading
import time
from types import TracebackType

import pytest

from gloomtable.server.limits import ServerLimits, check_rate_storage

REDIS_HOST, REDIS_PORT = "127.0.0.1", int(os.environ.get("GLOOM_TEST_REDIS_PORT", "6379"))
REDIS_URL = f"async+redis://{REDIS_HOST}:{REDIS_PORT}"


def require_redis() -> None:
    try:
        check_rate_storage(ServerLimits(rate_storage=REDIS_URL))
    except ValueError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"Redis at {REDIS_URL} does not answer, and under CI it must: {exc}")
        pytest.skip(f"Redis at {REDIS_URL} does not answer: {exc}")


def fresh_prefix() -> str:
    """A key prefix no other test or run uses (the counters expire on their own)."""
    return "gloomtest-" + secrets.token_hex(6)


class StallingProxy:
    """TCP from a free port on 127.0.0.1 to Redis (or ``upstream``). ``stall()`` stops passing
    bytes either way (connections stay open, new ones are accepted): Redis as slow as it gets.
    ``delay``: seconds each chunk waits before it is passed on, either way (a far Redis)."""

    def __init__(self, upstream: tuple[str, int] = (REDIS_HOST, REDIS_PORT), delay: float = 0.0) -> None:
        self.upstream = upstream
        self.delay = delay
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.passing = threading.Event()
        self.passing.set()
        self.closed = False
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"async+redis://127.0.0.1:{self.port}"

    def stall(self) -> None:
        self.passing.clear()

    def resume(self) -> None:
        """Pass bytes again, what was held first."""
        self.passing.set()

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.upstream)
            self.sockets += [client, upstream]
            for src, dst in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(src, dst), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                self.passing.wait()  # stalled: what arrived is held, and nothing more is read
                if self.closed:
                    return
                if self.delay:
                    time.sleep(self.delay)
                dst.sendall(data)
        with contextlib.suppress(OSError):
            dst.shutdown(socket.SHUT_WR)

    def go_away(self) -> None:
        """Redis down: every connection closed, new ones refused."""
        self.close()

    def close(self) -> None:
        self.closed = True
        self.passing.set()
        self.listener.close()
        for s in self.sockets:
            # shutdown first: close() alone leaves a socket open while a pump blocks in its
            # recv(), so the far end (a PostgreSQL backend, its locks held) never heard the
            # connection end, and dropping the test's schema waited on it for ever
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                s.close()

    def __enter__(self) -> StallingProxy:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
