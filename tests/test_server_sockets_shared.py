"""``--sockets-per-ip`` and ``--sockets-per-token`` on several ``gloom serve`` processes
sharing one PostgreSQL schema: the open sockets are counted in the store, so each limit
holds for the site, not once per process; a process that dies stops counting once its
member row expires, and one that stops cleanly at once (server/sockets.py, docs/deploy.md).
The last test cuts the database off one process's counting: it counts alone, then
writes its counts back when the database answers again."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from functools import partial
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from cluster_support import servers_on
from gloomtable.server.cluster import RENEW_EVERY
from gloomtable.server.sockets import Sockets, digest
from gloomtable.server.store_postgres import PostgresStore, split_url
from gloomtable.server.table import LEASE_TTL
from gloomtable.server.testing import ServerProcess
from pg_support import PG_BASE, fresh_schema
from redis_support import StallingProxy
from server_support import create_table

pytestmark = pytest.mark.slow  # real server processes on PostgreSQL, and waits on lease clocks

new_table = partial(create_table, listed=False)
"""An unlisted table of Ada and Bo, both invited (201 asserted)."""


def attempt(srv: ServerProcess, tid: str, token: str | None = None) -> ClientConnection | str:
    """A page's socket: open (welcomed) and left open, or the code it was refused with,
    whether before the handshake (HTTP 429) or in its first answer."""
    try:
        conn = connect(f"{srv.ws_url}/ws/{tid}", open_timeout=10).__enter__()
    except InvalidStatus as exc:
        return str(json.loads(exc.response.body or b"{}").get("code"))
    try:
        conn.send(srv.hello(token))
        msg = json.loads(conn.recv(timeout=10))
    except ConnectionClosed:
        return "closed"
    if msg["type"] == "welcome":
        return conn
    conn.close()
    return str(msg.get("code"))


def opened(srv: ServerProcess, tid: str, token: str | None = None) -> ClientConnection:
    got = attempt(srv, tid, token)
    assert not isinstance(got, str), got
    return got


def opened_within(srv: ServerProcess, tid: str, timeout: float, token: str | None = None
                  ) -> tuple[ClientConnection, float]:
    """The first socket the site lets ``srv`` open, tried every 0.1 s, and when."""
    t0 = time.monotonic()
    while True:
        got = attempt(srv, tid, token)
        if not isinstance(got, str):
            return got, time.monotonic() - t0
        assert got == "too_many_sockets", got
        assert time.monotonic() - t0 < timeout, f"no slot within {timeout} s"
        time.sleep(0.1)


def keep(held: contextlib.ExitStack, conn: ClientConnection) -> ClientConnection:
    """Closed at the end of the test, quietly (its server may be gone by then)."""
    def close() -> None:
        with contextlib.suppress(Exception):
            conn.close()

    held.callback(close)
    return conn


def counts(url: str) -> list[tuple[str, str, int]]:
    """The stored rows: (key, holder, conns)."""
    import psycopg

    conninfo, schema = split_url(url)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f'SET search_path TO "{schema}"')
        return [(k, h, n) for k, h, n in conn.execute("SELECT key, holder, conns FROM socket_counts")]


def test_sockets_per_ip_hold_for_the_site_and_a_killed_process_frees_its_own(tmp_path: Path) -> None:
    """Three sockets from one address across two processes; the fourth is refused by
    either. Closing one lets either open one. Killing the process that holds two frees
    them once its member row expires (LEASE_TTL), not before, and then exactly them."""
    with fresh_schema() as url:
        a, b = servers_on(url, tmp_path, args=("--sockets-per-ip", "3"))
        with a, b, contextlib.ExitStack() as held:
            tid = str(new_table(a)["id"])
            on_a = [keep(held, opened(a, tid)) for _ in range(2)]
            keep(held, opened(b, tid))
            assert attempt(a, tid) == attempt(b, tid) == "too_many_sockets"
            on_a.pop().close()  # a slot on A goes back to the site: B may take it
            keep(held, opened_within(b, tid, 5)[0])
            assert attempt(a, tid) == attempt(b, tid) == "too_many_sockets"
            assert sum(n for _, _, n in counts(url)) == 3 and len({h for _, h, _ in counts(url)}) == 2

            b.kill()  # B held two; nobody tells the site they are gone
            killed = time.monotonic()
            assert attempt(a, tid) == "too_many_sockets"  # its member row still lives
            keep(held, opened_within(a, tid, LEASE_TTL + 5)[0])
            waited = time.monotonic() - killed
            keep(held, opened(a, tid))  # both of B's slots, and no more
            assert attempt(a, tid) == "too_many_sockets"
            assert 0.5 < waited < LEASE_TTL + RENEW_EVERY + 2.0, waited
            print(f"\nB's slots came back {waited:.2f} s after it was killed (rows live {LEASE_TTL} s)")


def test_sockets_per_token_hold_for_the_site_and_a_clean_stop_frees_at_once(tmp_path: Path) -> None:
    """One seat's token on two processes: three pages in all, the fourth refused by either
    (``too_many_sockets``, close 4429). The store keeps digests, never the token. A clean
    stop of the process holding them gives them back at once, not at expiry."""
    with fresh_schema() as url:
        a, b = servers_on(url, tmp_path, args=("--sockets-per-token", "3"))
        with a, b, contextlib.ExitStack() as held:
            t = new_table(a)
            tid, token = str(t["id"]), str(t["invites"][0]["token"])
            for srv in (a, a, b):
                keep(held, opened(srv, tid, token))
            assert attempt(a, tid, token) == attempt(b, tid, token) == "too_many_sockets"
            keep(held, opened(b, tid, str(t["invites"][1]["token"])))  # another seat still gets in
            rows = counts(url)
            assert all(token not in k for k, _, _ in rows)
            assert sum(n for k, _, n in rows if k == digest("token:" + token)) == 3

            a.stop()  # a clean stop: its two pages close and its rows leave the store
            stopped = time.monotonic()
            assert sum(n for k, _, n in counts(url) if k == digest("token:" + token)) == 1
            for _ in range(2):
                keep(held, opened_within(b, tid, 5, token)[0])
            assert time.monotonic() - stopped < LEASE_TTL  # before A's member row could expire
            assert attempt(b, tid, token) == "too_many_sockets"


def test_a_process_counts_alone_while_the_database_stalls_then_writes_its_counts_back(
        caplog: pytest.LogCaptureFixture) -> None:
    """Two members on one store; the first reaches PostgreSQL through a proxy that stalls.
    Its next take waits ``wait`` seconds at most, then it counts in its memory (saying so
    once); when the database answers again its rows are rewritten from memory, and the
    site's count holds again."""
    import psycopg

    with fresh_schema() as url, StallingProxy(("127.0.0.1", 5432)) as proxy:
        host_port = PG_BASE.split("@", 1)[1].split("/", 1)[0]
        assert host_port == "127.0.0.1:5432", "the proxy goes to the test database's port"
        psycopg.connect(PG_BASE).close()
        proxied = url.replace(host_port, f"127.0.0.1:{proxy.port}")
        near, far = PostgresStore(proxied), PostgresStore(url)

        async def scenario() -> None:
            one, two = Sockets(wait=0.3), Sockets(wait=0.3)
            await one.share(near, "one")
            await two.share(far, "two")
            assert await one.take("ip:x", 2) and await two.take("ip:x", 2)
            assert not await one.take("ip:x", 2) and not await two.take("ip:x", 2)
            proxy.stall()
            t0 = time.monotonic()
            assert await one.take("ip:y", 1)  # the database is away: counted here
            first = time.monotonic() - t0
            t0 = time.monotonic()
            assert not await one.take("ip:y", 1) and await one.take("ip:x", 2)  # alone: 1 of 2 here
            alone = time.monotonic() - t0
            assert not one.shared and first < 1.0 and alone < 0.05, (first, alone)
            proxy.resume()
            t0 = time.monotonic()
            while not one.shared:
                assert time.monotonic() - t0 < 10, "the counts were not written back"
                await asyncio.sleep(0.05)
            mine = {k: n for k, h, n in counts(url) if h == "one"}
            assert mine == {digest("ip:x"): 2, digest("ip:y"): 1}, mine
            assert not await two.take("ip:x", 3)  # 2 on one + 1 on two: the site is full again
            one.give_back("ip:x")
            await asyncio.sleep(0.3)
            assert await two.take("ip:x", 3)
            await one.close()
            await two.close()
            assert counts(url) == []

        with caplog.at_level(logging.WARNING, logger="gloomtable.server"):
            try:
                asyncio.run(scenario())
            finally:
                proxy.resume()
                near.close()
                far.close()
        said = [r.getMessage() for r in caplog.records if "open-socket counts" in r.getMessage()]
        assert len([s for s in said if "failed" in s]) == 1, said
        assert any("answers again" in s for s in said), said
