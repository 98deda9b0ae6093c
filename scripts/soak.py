"""Run every reliability test (issue 9) and print the figures they report.

    .venv/bin/python scripts/soak.py             # the long profile (nightly scale)
    .venv/bin/python scripts/soak.py --short     # the default profile, as in CI
    .venv/bin/python scripts/soak.py --out figures.json -- -x   # args after -- go to pytest

The long profile sets ``HYPOTHESIS_PROFILE=long`` (read in tests/scale.py): thousands
of fuzzed games and decks, SIGKILL across 300 games, 200 bot tables for 60 s, 20 kills
of cluster processes, 1,500 seeded property games, a response-window game played to
its end in Chromium. Every part is bounded in count and time and stops by itself.
docs/reliability.md explains each test and what the suite runs of it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ["tests/test_fuzz_engine.py", "tests/test_fuzz_decks.py", "tests/test_server_abuse.py",
         "tests/test_server_faults.py", "tests/test_server_load.py",
         # the suite runs these at a smaller scale too (tests/scale.py; docs/reliability.md)
         "tests/test_server_cluster.py", "tests/test_gloom_properties.py",
         "tests/test_creatures_properties.py", "tests/test_bots_locked_table.py",
         "tests/browser/test_browser_response_window.py"]


def show(figures: dict[str, object]) -> str:
    lines = [f"profile: {figures.get('profile')}"]
    for part, data in sorted(figures.items()):
        if not isinstance(data, dict):
            continue
        lines.append(f"{part}:")
        lines.extend(f"  {key}: {value}" for key, value in sorted(data.items()))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    extra: list[str] = []
    if "--" in argv:
        at = argv.index("--")
        argv, extra = argv[:at], argv[at + 1:]
    parser = argparse.ArgumentParser(description="Run the reliability tests and print their figures.")
    parser.add_argument("--short", action="store_true", help="the default (CI) profile instead of long")
    parser.add_argument("--out", type=Path, help="also keep the figures in this JSON file")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        figures_path = Path(tmp) / "figures.json"
        env = {**os.environ, "HYPOTHESIS_PROFILE": "ci" if args.short else "long",
               "GLOOM_FIGURES": str(figures_path)}
        started = time.monotonic()
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *TESTS, *extra]
        proc = subprocess.run(command, cwd=ROOT, env=env, check=False)
        took = time.monotonic() - started
        figures = json.loads(figures_path.read_text()) if figures_path.exists() else {}
    figures["run"] = {"seconds": round(took, 1), "pytest exit code": proc.returncode}
    print(show(figures))
    if args.out:
        args.out.write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n")
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
