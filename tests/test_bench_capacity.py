"""``gloom bench --server --processes N --db URL`` (bench/capacity.py): a real probe
on two processes sharing one PostgreSQL, and the search for the most tables held."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gloomtable.bench.capacity import TARGET_P99_MS, capacity_against, largest_held, probe, tree_flags
from gloomtable.bench.trees import this_checkout
from gloomtable.server.testing import ServerProcess, server_flags
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


FAKE_SERVER = '''
import socket, sys
port = int(sys.argv[sys.argv.index("--port") + 1])
open(sys.argv[0] + ".ran", "w").write(" ".join(sys.argv[1:]))
with socket.create_server(("127.0.0.1", port)) as s:
    s.accept()[0].close()
    s.accept()
'''


def test_a_server_of_another_tree_runs_that_trees_code(tmp_path: Path) -> None:
    """``src=`` puts the other tree first on the path and ``flags=`` replaces this tree's
    test flags: the 'server' here is a stand-in package that only listens and notes
    how it was started."""
    package = tmp_path / "src" / "gloomtable" / "server"
    package.mkdir(parents=True)
    (package.parent / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "__main__.py").write_text(FAKE_SERVER)
    with ServerProcess(tmp_path / "x.db", src=tmp_path / "src", flags=["--only-this-flag"]):
        ran = (package / "__main__.py.ran").read_text()
    assert "--only-this-flag" in ran and "--allow-fixed-deals" not in ran


def test_tree_flags_are_the_trees_own() -> None:
    assert tree_flags(Path(__file__).resolve().parents[1] / "src") == server_flags()


@pytest.mark.slow
def test_capacity_against_a_revision_loads_both_trees_turn_about() -> None:
    """``gloom bench --server --against REV``: the same search for each tree's server,
    in the order REV, this, this, REV; both hold a load far under any limit."""
    try:
        this_checkout()
    except RuntimeError as exc:  # an installed build (the compiled one) is no git checkout
        pytest.skip(str(exc))
    said: list[str] = []
    r = capacity_against("HEAD", pairs=1, seconds=2.0, start=4, refine=0, most=4, progress=said.append)
    assert [s["tree"] for s in r["searches"]] == ["rev", "this", "this", "rev"]
    assert r["tables_held"] == {"this": [4, 4], "rev": [4, 4]} and r["ratio"] == 1.0
    assert all(p["errors"] == 0 and p["moves_per_s"] > 0 for s in r["searches"] for p in s["probes"])
    assert sum("HEAD: 4 tables" in m for m in said) == 2
