"""Shared test settings: hypothesis profiles and the reliability figures.

Two hypothesis profiles: ``ci`` (the default, for every run of the suite) and
``long`` (nightly scale), chosen with ``HYPOTHESIS_PROFILE=long``, read once in
``scale.py``. The tests that size their own loops (seeded games, server faults,
SIGKILLs, the load soak) take their sizes from ``scale.scaled``, so one command
scales everything up: ``.venv/bin/python scripts/soak.py`` (see
docs/reliability.md).

Reliability tests report what they tried through the ``figures`` fixture; when
``GLOOM_FIGURES`` names a file, the figures are merged into it as JSON at the
end of the session (``scripts/soak.py`` prints them).
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from scale import PROFILE

# The servers' heavy worker (gloomtable.server.heavy) runs at the server's own CPU priority
# in tests: at the public 19, beside two busy test workers on two cores, it got so little
# CPU that chronicles passed every client's deadline. Server processes inherit this.
os.environ.setdefault("GLOOM_HEAVY_NICENESS", "0")

# "ci" keeps hypothesis's default example count (other tests rely on it) and only
# drops the per-example deadline, which a loaded 2-core machine trips at random.
# The tests that loop by themselves pick their sizes through scale.scaled.
settings.register_profile("ci", deadline=None)
settings.register_profile(
    "long", max_examples=1000, stateful_step_count=80, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(PROFILE)

_FIGURES: dict[str, Any] = {}


@pytest.fixture(scope="session")
def figures() -> Iterator[dict[str, Any]]:
    """A dict the reliability tests fill with what they tried and survived."""
    yield _FIGURES
    path = os.environ.get("GLOOM_FIGURES")
    if path and _FIGURES:
        out = Path(path)
        # under pytest-xdist every worker merges its own figures: one at a time
        with open(out.with_name(out.name + ".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            old = json.loads(out.read_text()) if out.exists() and out.stat().st_size else {}
            old.update(_FIGURES)
            out.write_text(json.dumps({**old, "profile": PROFILE}, indent=1, sort_keys=True) + "\n")


@pytest.fixture(params=["sqlite", "postgres"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where one test's store lives, on each backend: a SQLite file, or a fresh
    PostgreSQL schema (dropped afterwards); every ``open_store(where)`` opens the same one."""
    if request.param == "sqlite":
        yield str(tmp_path / "s.db")
    else:
        from pg_support import fresh_schema

        with fresh_schema() as url:
            yield url


@pytest.fixture
def store(where: str) -> Iterator[Any]:
    """The store at ``where``, closed afterwards."""
    from gloomtable.server.store import open_store

    s = open_store(where)
    yield s
    s.close()
