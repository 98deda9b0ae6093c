"""A real server for tests, on a free port of 127.0.0.1 with a SQLite file (or
PostgreSQL URL) of the test's choosing: in a child process, with a way to kill it hard
and start it again, or in a thread of the test process, which starts in a fraction of
the time (no interpreter, no imports) and serves the same app over the same sockets.

    with ServerProcess(tmp_path / "t.db") as srv:
        httpx.post(srv.url + "/api/tables", json=...)
        srv.kill()      # SIGKILL, as a crash would
        srv.start()     # same port, same database: unfinished tables resume

    with ServerThread(tmp_path / "t.db") as srv:   # the same calls, but no kill()
        httpx.post(srv.url + "/api/tables", json=...)

A test needs the process when it kills the server, runs several at once (the
``/metrics`` figures and the text limits are the process's), reads the server's log,
registers sets with ``--sets`` (the registry is the process's too), measures latency
(the thread shares the test's GIL) or starts it from its command line; every other
one may use the thread.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

READY_TIMEOUT = 60.0
STOP_TIMEOUT = 30.0
"""How long an in-process server may take to stop (uvicorn gives its connections 3 s)."""
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
PATIENT = ("--heavy-timeout", "120")
"""A deck read or a chronicle replayed in the heavy worker (whose first request also
starts that process) may take seconds on a loaded two-core machine, past the public
default of 5 s; test servers wait longer. A test of the deadline passes its own."""


def server_flags(args: Sequence[str] = (), *, allow_fixed_deals: bool = True, fast_bots: bool = True,
               shared_loopback: bool = True) -> list[str]:
    """The server flags of a test server (see :class:`ServerProcess`), ``args`` last so they win."""
    return [*(["--allow-fixed-deals"] if allow_fixed_deals else []),
            *(["--bot-only-min-delay-ms", "0"] if fast_bots else []),
            *(SHARED_LOOPBACK if shared_loopback else []), *PATIENT, *args]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``python -m gloomtable.server`` on 127.0.0.1; stopped on exit, however the test ends."""

    def __init__(self, db: str | Path, port: int | None = None, log: str | Path | None = None,
                 args: Sequence[str] = (), *, allow_fixed_deals: bool = True,
                 fast_bots: bool = True, shared_loopback: bool = True,
                 src: Path | None = None, flags: Sequence[str] | None = None) -> None:
        """``args``: more server flags. Tests deal known shuffles and play bot games flat
        out, so unless told otherwise (``allow_fixed_deals=False``, ``fast_bots=False``:
        the server as a public one runs) the server accepts a table's seed and lets
        bot-only tables move with no least delay. ``shared_loopback=False`` keeps the
        per-IP limits a public server has (see ``SHARED_LOOPBACK``).

        ``src``: run the server of another tree (its ``src`` directory first on the
        path), as ``gloom bench --server --against`` does; ``flags`` then replaces all
        of the above with that tree's own test flags, which this tree's may not match."""
        self.db = str(db)
        self.src = src
        self.args = list(flags) if flags is not None else server_flags(
            args, allow_fixed_deals=allow_fixed_deals, fast_bots=fast_bots, shared_loopback=shared_loopback)
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
        if self.src is not None:
            env["PYTHONPATH"] = os.pathsep.join([str(self.src), *filter(None, [env.get("PYTHONPATH")])])
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "gloomtable.server", "--host", "127.0.0.1",
                 "--port", str(self.port), "--db", self.db, *self.args],
                stdout=log, stderr=subprocess.STDOUT, env=env)
        try:
            self._wait_ready()
        except BaseException:
            self.stop()  # a server that did not come up is not left running (nor unreaped)
            raise
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


class ServerThread:
    """The app of ``python -m gloomtable.server`` served by uvicorn on 127.0.0.1 in a
    thread of the test process, with the flags of :class:`ServerProcess` (``args``
    parsed by the server's own parser); stopped on exit. It cannot be killed and keeps
    no log file of its own (its log lines go to the test's logging)."""

    def __init__(self, db: str | Path, port: int | None = None, args: Sequence[str] = (), *,
                 allow_fixed_deals: bool = True, fast_bots: bool = True,
                 shared_loopback: bool = True) -> None:
        self.db = str(db)
        self.args = server_flags(args, allow_fixed_deals=allow_fixed_deals, fast_bots=fast_bots,
                               shared_loopback=shared_loopback)
        self.port = port or free_port()
        self._server: Any = None
        self._text_limits: Any = None
        self._thread: threading.Thread | None = None
        self._failed: BaseException | None = None

    url = ServerProcess.url
    ws_url = ServerProcess.ws_url
    hello = staticmethod(ServerProcess.hello)

    def start(self) -> ServerThread:
        # as run.serve: upgrades with request lines as long as uvicorn accepts
        os.environ.setdefault("WEBSOCKETS_MAX_LINE_LENGTH", "65536")
        import uvicorn

        from gloomtable.server.app import create_app
        from gloomtable.server.limits import add_arguments, from_namespace
        from gloomtable.server.lobby import add_lobby_args, lobby_settings
        from gloomtable.server.run import SWITCH_INTERVAL, add_log_arguments, server_config

        parser = argparse.ArgumentParser(prog="ServerThread", exit_on_error=False)
        add_lobby_args(parser)
        add_arguments(parser)
        add_log_arguments(parser)
        ns = parser.parse_args(self.args)
        limits = from_namespace(ns)
        lobby = lobby_settings(ns)
        if lobby.sets:
            raise ValueError("--sets registers its sets for the whole process: use ServerProcess")
        from gloomtable.engine.textdata import text_limits

        self._text_limits = text_limits()  # create_app sets the process's; stop() puts them back
        _import_lazy_parts()
        app = create_app(self.db, lobby, limits, limits.hosts("127.0.0.1"))
        sys.setswitchinterval(SWITCH_INTERVAL)  # as run.serve: bot threads yield the GIL soon
        self._server = uvicorn.Server(server_config(app, "127.0.0.1", self.port, limits))
        self._failed = None
        self._thread = threading.Thread(target=self._run, name=f"gloom-server-{self.port}", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + READY_TIMEOUT
        while not self._server.started:
            if not self._thread.is_alive():
                raise RuntimeError(f"the in-process server did not start: {self._failed!r}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the in-process server did not listen on port {self.port} "
                                   f"within {READY_TIMEOUT}s")
            time.sleep(0.02)
        return self

    def kill(self) -> None:
        """A thread of the test process cannot be killed as a crash would kill a process."""
        raise TypeError("a ServerThread cannot be killed: a test that kills its server uses "
                        "ServerProcess (in tests/browser: the server_process fixture)")

    def _run(self) -> None:
        try:
            self._server.run()
        except BaseException as exc:  # start-up failed (uvicorn exits): shown by start()
            self._failed = exc

    def stop(self) -> None:
        stuck = ""
        if self._thread is not None and self._server is not None:
            self._server.should_exit = True
            self._thread.join(STOP_TIMEOUT)
            if self._thread.is_alive():
                stuck = self._stuck()
        self._thread = None
        if self._text_limits is not None:
            from gloomtable.engine.textdata import set_text_limits

            set_text_limits(self._text_limits)
            self._text_limits = None
        assert not stuck, f"the in-process server did not stop within {STOP_TIMEOUT:g} s; it was at:\n{stuck}"

    def _stuck(self) -> str:
        """Where a server that would not stop was (its thread's stack and its event loop's
        tasks), for the failure's message; then its loop is stopped, so that it neither
        serves on nor reaches for a database the test drops through the tests that follow."""
        import asyncio
        import io
        import traceback

        assert self._thread is not None
        out = io.StringIO()
        frame = sys._current_frames().get(self._thread.ident or -1)
        out.write("thread:\n" + "".join(traceback.format_stack(frame) if frame is not None else []))
        servers = getattr(self._server, "servers", None) or []
        if servers:
            loop = servers[0].get_loop()
            for task in asyncio.all_tasks(loop):
                out.write(f"task {task.get_name()}:\n")
                _awaits(task.get_coro(), out)
            loop.call_soon_threadsafe(loop.stop)
            self._thread.join(5)
        return out.getvalue()

    def __enter__(self) -> ServerThread:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def _awaits(coro: Any, out: Any) -> None:
    """Write the chain of awaits from ``coro`` down to where it waits: through coroutines,
    generators and async generators (``async with`` exits and ``anext`` go through one)."""
    import inspect

    for _ in range(100):
        at = next((f for f in (getattr(coro, a, None) for a in ("cr_frame", "gi_frame", "ag_frame"))
                   if f is not None), None)
        if at is None:
            out.write(f"  awaits {coro!r}"[:300] + "\n")
            return
        out.write(f"  {at.f_code.co_filename}:{at.f_lineno} in {at.f_code.co_name}\n")
        nxt = next((n for n in (getattr(coro, a, None) for a in ("cr_await", "gi_yieldfrom", "ag_await"))
                    if n is not None), None)
        if type(nxt).__name__ == "async_generator_asend":  # anext(gen): the gen is in the frame
            held = [*at.f_locals.values(), *(getattr(v, "gen", None) for v in at.f_locals.values())]
            nxt = next((v for v in held if inspect.isasyncgen(v) and v.ag_running), nxt)
        if nxt is None:
            return
        coro = nxt


def _import_lazy_parts() -> None:
    """Import here, in the test's thread, what the server would import on its first file
    or thread hop: anyio's parts, which anyio imports lazily. anyio is a pytest plugin, so
    pytest rewrites its modules with ``ast.parse``, and CPython 3.11 counts the AST
    constructor's depth per interpreter, not per thread (CPython gh-106905): a server
    thread's parse failed once with "AST constructor recursion depth mismatch", and the
    page whose file it served never loaded."""
    import importlib

    import anyio

    for name in dir(anyio):
        getattr(anyio, name)
    importlib.import_module("anyio._backends._asyncio")


LiveServer = ServerProcess | ServerThread
"""Either kind of test server: what the helpers that only talk to one accept."""
