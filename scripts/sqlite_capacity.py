"""Tables one process on SQLite holds at p99 < 50 ms, by ``gloom bench --server
--processes``'s own probe and search (``bench/capacity.py``), without PostgreSQL:
``PYTHONPATH=<tree>/src python scripts/sqlite_capacity.py LABEL``. Run it once with
each tree's ``src`` (a baseline checked out beside with ``git worktree add
--detach``), in turn, to compare; it prints one JSON line (the probes: tables,
p99 ms, moves/s, errors) and each probe on stderr as it ends."""

from __future__ import annotations

import json
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from gloomtable.bench.capacity import largest_held, probe


def main() -> None:
    label = sys.argv[1] if len(sys.argv) > 1 else "sqlite"
    with tempfile.TemporaryDirectory(prefix="gloom-cap-") as tmp:
        def run(tables: int) -> dict[str, Any]:
            work = Path(tmp) / secrets.token_hex(4)
            work.mkdir()
            p = probe(str(work / "bench.db"), 1, tables, 8.0, 1, 250, work)
            print(label, tables, p, file=sys.stderr, flush=True)
            return p

        started = time.time()
        best, probes = largest_held(run, 50, 3, 2000)
    print(json.dumps({"label": label, "tables_held": best, "seconds": round(time.time() - started),
                      "probes": [(p["tables"], p["p99_ms"], p["moves_per_s"], p["errors"]) for p in probes]}))


if __name__ == "__main__":
    main()
