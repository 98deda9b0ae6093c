"""A real server in a child process, for tests: a free port on 127.0.0.1, a
SQLite file (or PostgreSQL URL) of the test's choosing, and a way to kill it hard and start it again.

    with ServerProcess(tmp_path / "t.db") as srv:
        httpx.post(srv.url + "/api/tables", json=...)
        srv.kill()      # SIGKILL, as a crash would
        srv.start()     # same port, same database: unfinished tables resume
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

READY_TIMEOUT = 20.0
SHARED_LOOPBACK = ("--create-rate", "100000/minute", "--join-rate", "100000/minute",
                   "--heavy-rate", "100000/minute", "--open-tables-per-ip", "100000",
                   "--listing-rate", "100000/minute",
                   "--ws-connect-rate", "100000/minute", "--sockets-per-ip", "100000",
                   "--message-ip-rate", "100000/second", "--spectator-message-rate", "100000/second",
                   "--spectator-sync-rate", "100000/second", "--signin-rate", "100000/minute",
                   "--signup-rate", "100000/minute", "--talk-ip-rate", "100000/minute")
"""Every test's clients share 127.0.0.1, so per-IP limits would tie unrelated tests
together; these flags lift them (limits per token stay). A test of the limits passes
its own flags in ``args``, which come after these and win."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``python -m gloomtable.server`` on 127.0.0.1; stopped on exit, however the test ends."""

    def __init__(self, db: str | Path, port: int | None = None, log: str | Path | None = None,
                 args: Sequence[str] = (), *, allow_fixed_deals: bool = True,
                 fast_bots: bool = True, shared_loopback: bool = True) -> None:
        """``args``: more server flags. Tests deal known shuffles and play bot games flat
        out, so unless told otherwise (``allow_fixed_deals=False``, ``fast_bots=False``:
        the server as a public one runs) the server accepts a table's seed and lets
        bot-only tables move with no least delay. ``shared_loopback=False`` keeps the
        per-IP limits a public server has (see ``SHARED_LOOPBACK``)."""
        self.db = str(db)
        self.args = [*(["--allow-fixed-deals"] if allow_fixed_deals else []),
                     *(["--bot-only-min-delay-ms", "0"] if fast_bots else []),
                     *(SHARED_LOOPBACK if shared_loopback else []), *args]
        self.port = port or free_port()
        if log is None and self.db.startswith(("postgresql://", "postgres://")):
            raise ValueError("a server on a PostgreSQL URL needs log= (a file for its output)")
        self.log_path = Path(log) if log else Path(self.db).with_suffix(".log")
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @staticmethod
    def hello(token: str | None = None) -> str:
        """The first message every websocket sends: the seat token travels here, never in a URL."""
        return json.dumps({"type": "hello", "token": token})

    def start(self) -> ServerProcess:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "gloomtable.server", "--host", "127.0.0.1",
                 "--port", str(self.port), "--db", self.db, *self.args],
                stdout=log, stderr=subprocess.STDOUT, env=env)
        self._wait_ready()
        return self

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}; "
                                   f"log: {self.log_path.read_text(errors='replace')[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not listen on port {self.port} within {READY_TIMEOUT}s")

    def kill(self) -> None:
        """SIGKILL: no shutdown handlers, no flushing; what a crash looks like."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc = None

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
