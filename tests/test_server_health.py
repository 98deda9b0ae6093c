"""``/healthz`` and ``/readyz`` against a real server (issue 36; docs/deploy.md,
"Health checks"): readiness follows the database, liveness does not."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

from gloomtable.server.migrations import LATEST
from gloomtable.server.testing import ServerProcess, ServerThread
from pg_support import fresh_schema, require_postgres
from redis_support import StallingProxy

TIMEOUT = 0.5


def test_a_sqlite_server_is_live_and_ready(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "t.db") as srv:
        live = httpx.get(srv.url + "/healthz", timeout=30)
        assert live.status_code == 200 and live.json() == {"status": "ok"}
        ready = httpx.get(srv.url + "/readyz", timeout=30)
        assert ready.status_code == 200, ready.text
        assert ready.json()["status"] == "ready" and ready.json()["schema_version"] == LATEST
        assert "heartbeat_age_seconds" not in ready.json()  # one process on a file: no cluster
        assert httpx.head(srv.url + "/readyz", timeout=30).status_code == 200


@pytest.mark.slow
def test_readyz_is_503_within_the_store_timeout_while_the_database_stalls(tmp_path: Path) -> None:
    require_postgres()
    with fresh_schema() as url, StallingProxy(("127.0.0.1", 5432)) as proxy:
        through = url.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}")
        with ServerProcess(through, log=tmp_path / "s.log", args=["--store-timeout", str(TIMEOUT)]) as srv:
            ready = httpx.get(srv.url + "/readyz", timeout=30)
            assert ready.status_code == 200, ready.text
            assert ready.json()["heartbeat_age_seconds"] < 2.5
            proxy.stall()
            started = time.monotonic()
            stalled = httpx.get(srv.url + "/readyz", timeout=10)
            took = time.monotonic() - started
            assert stalled.status_code == 503, stalled.text
            assert any("did not answer within 0.5 s" in p for p in stalled.json()["problems"]), stalled.text
            assert took < TIMEOUT + 0.5, took
            assert httpx.get(srv.url + "/healthz", timeout=30).status_code == 200  # alive all the same
            deadline = time.monotonic() + 10  # the lapsed heartbeat is seen too, in a lease's time
            while not any("heartbeat" in p for p in httpx.get(srv.url + "/readyz", timeout=30)
                          .json()["problems"]):
                assert time.monotonic() < deadline
                time.sleep(0.2)
            proxy.resume()
            deadline = time.monotonic() + 15
            while (r := httpx.get(srv.url + "/readyz", timeout=30)).status_code != 200:
                assert time.monotonic() < deadline, r.text
                time.sleep(0.2)
            assert r.json()["status"] == "ready"
