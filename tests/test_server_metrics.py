"""``/metrics`` against a real ``gloom serve`` (issue 36; docs/deploy.md, "Metrics";
docs/security.md): the text parses with prometheus_client's own parser, its move
counter equals the moves stored, and the figures are served only to the addresses
``--metrics-allow`` names, never through a proxy."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from gloomtable.server.store import open_store
from gloomtable.server.testing import ServerProcess
from pg_support import fresh_schema, require_postgres
from redis_support import StallingProxy
from server_support import assert_error, create_table, invite_token, next_state, open_ws, play_first_choice

LOCAL = ["--metrics-allow", "127.0.0.1,::1"]
PERSON_MOVES = 4


def scrape(srv: ServerProcess) -> dict[str, list[Any]]:
    """Every sample of ``/metrics``, by sample name, as parsed by prometheus_client."""
    r = httpx.get(srv.url + "/metrics", timeout=10)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain"), r.headers
    out: dict[str, list[Any]] = {}
    for family in text_string_to_metric_families(r.text):
        for sample in family.samples:
            out.setdefault(sample.name, []).append(sample)
    return out


def value(samples: dict[str, list[Any]], name: str, **labels: str) -> float:
    """The sum of the samples ``name`` whose labels include ``labels`` (0 if none)."""
    return sum(s.value for s in samples.get(name, []) if labels.items() <= s.labels.items())


@pytest.mark.slow  # starts several processes
def test_the_move_counter_equals_the_moves_played_and_every_figure_parses(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with ServerProcess(db, log=tmp_path / "s.log", args=LOCAL) as srv:
        table = create_table(srv, seats=[{"kind": "person", "name": "Ada"}, {"kind": "bot"}],
                             bot_delay_ms=0, seed=11)
        with open_ws(srv, table, invite_token(table, 0)) as ada:
            msg = next_state(ada, lambda m: m["choices"], fail_on_error=True)
            for _ in range(PERSON_MOVES):
                play_first_choice(ada, msg)
                msg = next_state(ada, lambda m, sid=msg["state_id"]: m["state_id"] > sid and m["choices"],
                                 fail_on_error=True)
            seen = scrape(srv)  # Ada's turn: nothing moves until she does
            assert value(seen, "gloomtable_websockets", kind="seat") == 1
            assert value(seen, "gloomtable_tables", game="gloom", state="unfinished") == 1
            assert value(seen, "gloomtable_tables_led") == 1
        assert httpx.get(srv.url + "/api/gallery/classic", timeout=60).status_code == 200  # a worker's job
        after = scrape(srv)
    stored = open_store(db)
    try:
        played = len(stored.load(table["id"]).actions)
    finally:
        stored.close()
    assert played == msg["state_id"] > PERSON_MOVES
    assert value(seen, "gloomtable_moves_total") == value(seen, "gloomtable_moves_total", game="gloom") \
        == played
    assert value(seen, "gloomtable_moves_total", by="person") == PERSON_MOVES
    assert value(seen, "gloomtable_moves_total", by="bot") == played - PERSON_MOVES
    assert value(seen, "gloomtable_move_seconds_count", game="gloom") == PERSON_MOVES
    assert value(seen, "gloomtable_move_seconds_bucket", game="gloom", le="+Inf") == PERSON_MOVES
    assert value(seen, "gloomtable_http_request_seconds_count", method="POST", route="/api/tables",
                 status="201") == 1
    assert value(after, "gloomtable_http_request_seconds_count", method="GET",
                 route="/api/gallery/{name}", status="200") == 1
    assert value(after, "gloomtable_heavy_jobs_total") == 1  # the set's faces, read by the worker
    assert value(after, "gloomtable_heavy_workers_killed_total") == 0
    assert value(after, "gloomtable_websockets") == 0
    assert value(after, "process_resident_memory_bytes") > 0


@pytest.mark.slow  # starts several processes
def test_metrics_are_off_by_default_and_never_served_through_a_proxy(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "a.db") as srv:
        assert_error(httpx.get(srv.url + "/metrics", timeout=10), 404, "not_found")
        assert httpx.get(srv.url + "/no-such-page", timeout=10).status_code == 404
    with ServerProcess(tmp_path / "b.db", args=LOCAL) as srv:
        for header in ("X-Forwarded-For", "Forwarded", "X-Real-IP"):  # nginx passing it on
            said = assert_error(httpx.get(srv.url + "/metrics", headers={header: "127.0.0.1"}, timeout=10),
                                403, "forbidden")
            assert "not through a proxy" in said
        # a stranger's made-up paths and methods are one series each, not one per path
        for path in ("/x1", "/x2", "/x3"):
            httpx.get(srv.url + path, timeout=10)
        httpx.request("BREW", srv.url + "/api/games", timeout=10)
        seen = scrape(srv)
        unmatched = [s for s in seen["gloomtable_http_request_seconds_count"]
                     if s.labels["route"] == "unmatched"]
        assert [s.labels["status"] for s in unmatched] == ["404"] and unmatched[0].value == 3, unmatched
        assert value(seen, "gloomtable_http_request_seconds_count", method="other") == 1
    with ServerProcess(tmp_path / "c.db", args=["--metrics-allow", "10.0.0.0/8"]) as srv:
        assert_error(httpx.get(srv.url + "/metrics", timeout=10), 403, "forbidden")  # 127.0.0.1 is not in it
    bad = ServerProcess(tmp_path / "d.db", args=["--metrics-allow", "127.0.0.1,localhost"])
    with pytest.raises(RuntimeError, match="--metrics-allow: 'localhost' is not an IP address or network"):
        bad.start()


@pytest.mark.slow
def test_store_errors_refusals_and_moved_leases_are_counted_while_the_database_stalls(tmp_path: Path) -> None:
    require_postgres()
    with fresh_schema() as url, StallingProxy(("127.0.0.1", 5432)) as proxy:
        through = url.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}")
        with ServerProcess(through, log=tmp_path / "a.log", args=[*LOCAL, "--store-timeout", "0.5"]) as a, \
                ServerProcess(url, log=tmp_path / "b.log", args=LOCAL) as b:
            create_table(a, seats=[{"kind": "person"}, {"kind": "person"}])
            calm = scrape(a)
            assert value(calm, "gloomtable_leases_held") == 1
            assert value(scrape(b), "gloomtable_leases_held") == 0
            assert value(calm, "gloomtable_store_errors_total") == 0
            assert value(calm, "gloomtable_store_call_seconds_count") > 0
            proxy.stall()  # a's database stops answering; b's answers
            for _ in range(3):
                r = httpx.post(a.url + "/api/tables", json={"seats": [{"kind": "person"}] * 2}, timeout=10)
                assert_error(r, 503, "server_busy")
            stalled = scrape(a)  # /metrics asks nothing of the database: it answers during the stall
            assert value(stalled, "gloomtable_store_errors_total", kind="timeout") >= 1
            assert value(stalled, "gloomtable_store_errors_total", kind="unanswered") >= 1
            assert value(stalled, "gloomtable_refusals_total", code="server_busy", via="http") == 3
            deadline = time.monotonic() + 20  # a's lease lapses, and b takes the table over
            while value(seen := scrape(b), "gloomtable_leases_taken_total") < 1:
                assert time.monotonic() < deadline, seen.get("gloomtable_leases_taken_total")
                time.sleep(0.2)
            assert value(seen, "gloomtable_leases_held") == 1 and value(seen, "gloomtable_tables_led") == 1
            proxy.resume()
            deadline = time.monotonic() + 20  # back, a finds its lease gone and says so
            while value(seen := scrape(a), "gloomtable_leases_lost_total") < 1:
                assert time.monotonic() < deadline, seen.get("gloomtable_leases_lost_total")
                time.sleep(0.2)
            assert value(seen, "gloomtable_leases_held") == 0
            assert value(seen, "gloomtable_heartbeat_age_seconds") < 2.5
