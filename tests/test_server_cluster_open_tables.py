"""``--max-open-tables`` on several ``gloom serve`` processes sharing one PostgreSQL
schema: the unfinished tables are counted in the store, so the limit holds for the
site, not once per process (docs/security.md, docs/deploy.md)."""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path

import pytest

from cluster_support import servers_on, wait_for
from pg_support import fresh_schema
from server_support import post_table

pytestmark = pytest.mark.slow  # two real server processes on PostgreSQL

SEATS = [{"kind": "person", "name": "Ada"}, {"kind": "person", "name": "Bo"}]


create = partial(post_table, seats=SEATS, listed=False)
"""Ask one process for a table; its answer, whatever it is."""


def test_max_open_tables_counts_every_process_tables(tmp_path: Path) -> None:
    with fresh_schema() as url:
        a, b = servers_on(url, tmp_path, args=("--max-open-tables", "2", "--idle-table-expiry", "2"))
        with a, b:
            assert [create(srv).status_code for srv in (a, b)] == [201, 201]
            for srv in (a, b):  # each process holds only one of the two
                r = create(srv)
                assert r.status_code == 503 and r.json()["code"] == "server_busy", r.text
            # nobody took those seats: they expire, and the site has room again
            t0 = time.monotonic()
            assert wait_for(lambda: create(b).status_code == 201, 20, step=0.5)
            assert time.monotonic() - t0 > 1.0
