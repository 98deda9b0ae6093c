"""``gloom bench --server --processes N --db URL`` (bench/capacity.py): a real probe
on two processes sharing one PostgreSQL, and the search for the most tables held."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gloomtable.bench.capacity import TARGET_P99_MS, largest_held, probe
from pg_support import fresh_schema


@pytest.mark.slow
def test_a_probe_moves_tables_on_two_processes(tmp_path: Path) -> None:
    with fresh_schema() as url:
        p = probe(url, 2, 6, 2.0, 1, 100, tmp_path)
    assert p["tables"] == 6 and p["errors"] == 0 and p["moves_per_s"] > 0 and p["p99_ms"] is not None
    assert p["holds"] == (p["p99_ms"] < TARGET_P99_MS)
    logs = sorted(f.name for f in tmp_path.glob("server*.log"))
    assert logs == ["server0.log", "server1.log"]


def test_the_search_doubles_then_halves_the_gap() -> None:
    """A site that holds up to 370 tables: doubling from 50 fails at 400, bisection narrows it."""
    tried: list[int] = []

    def run(n: int) -> dict[str, Any]:
        tried.append(n)
        return {"tables": n, "holds": n <= 370}

    best, probes = largest_held(run, 50, 3, 2000)
    assert tried == [50, 100, 200, 400, 300, 350, 375] and best == 350
    assert [p["tables"] for p in probes] == tried
    assert largest_held(lambda n: {"tables": n, "holds": False}, 50, 3, 2000)[0] == 0
