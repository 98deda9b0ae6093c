"""The compiled build against the pure one (issue 35, docs/bench.md "The compiled build"):
``gloom bench --only playouts,baselines --json`` run alternately by two interpreters,
pure, compiled, pure, compiled, ..., with the load average before and after each run,
then the ratios: each build's playouts over the other's, and each against its anchor
(Gloom against UNO's bare engine, Crazy Creatures against OpenSpiel's ``crazy_eights``,
both measured in the same process as the game they anchor).

    python scripts/compiled_vs_pure.py --compiled /work/venv-compiled/bin/python [--quick] [--rounds 2]

The pure build is this tree's ``src`` run by ``--pure`` (default: this interpreter, with
``PYTHONPATH=src``); the compiled build is an installed ``GLOOMTABLE_COMPILE=1`` build,
run with no ``PYTHONPATH`` so that the sources do not shadow its extension modules. A
run whose report does not say the build it was meant to measure stops the script.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FIGURES = {  # name -> (section, key)
    "gloom": ("playouts", "gloom"),
    "creatures": ("playouts", "creatures"),
    "uno_game": ("baselines", "rlcard_uno_game"),
    "crazy_eights": ("baselines", "openspiel_crazy_eights"),
}
ANCHORS = ("gloom_vs_uno_game", "creatures_vs_crazy_eights")


def bench(python: str, build: str, quick: bool) -> dict[str, Any]:
    """One bench run of ``build`` ("pure" or "compiled"): its figures and the load."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if build == "pure":
        env["PYTHONPATH"] = str(ROOT / "src")
    cmd = [python, "-m", "gloomtable.cli.main", "bench", "--only", "playouts,baselines", "--json"]
    if quick:
        cmd.append("--quick")
    load_before = os.getloadavg()[0]
    started = time.strftime("%H:%M:%S", time.gmtime())
    out = subprocess.run(cmd, env=env, cwd="/", capture_output=True, text=True, check=True).stdout
    load_after = os.getloadavg()[0]
    report = json.loads(out)
    if report["build"]["engine"] != build:
        raise SystemExit(f"{python} measured the {report['build']['engine']} build, not the {build} one")
    row: dict[str, Any] = {"build": build, "utc": started, "load": (load_before, load_after)}
    for name, (section, key) in FIGURES.items():
        row[name] = report[section][key]["actions_per_s"]["median"]
    for name in ANCHORS:
        row[name] = report["ratios"][name]
    return row


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compiled", required=True, help="the compiled build's python")
    ap.add_argument("--pure", default=sys.executable, help="the python that runs this tree's src")
    ap.add_argument("--rounds", type=int, default=2, help="pairs of runs (pure, then compiled)")
    ap.add_argument("--quick", action="store_true", help="gloom bench --quick (short runs)")
    args = ap.parse_args(argv)
    rows = []
    for _ in range(args.rounds):
        for build, python in (("pure", args.pure), ("compiled", args.compiled)):
            row = bench(python, build, args.quick)
            rows.append(row)
            print(f"{row['utc']} UTC {build:8} load {row['load'][0]:.2f} -> {row['load'][1]:.2f}  "
                  f"Gloom {row['gloom']:,.0f}/s (UNO game {row['uno_game']:,.0f}/s, "
                  f"{row['gloom_vs_uno_game']:.3f})  Creatures {row['creatures']:,.0f}/s "
                  f"(crazy_eights {row['crazy_eights']:,.0f}/s, {row['creatures_vs_crazy_eights']:.3f})",
                  flush=True)
    print()
    for name in ("gloom", "creatures"):
        pure = [r[name] for r in rows if r["build"] == "pure"]
        compiled = [r[name] for r in rows if r["build"] == "compiled"]
        pairs = [c / p for p, c in zip(pure, compiled, strict=True)]
        print(f"{name}: compiled / pure {statistics.median(compiled) / statistics.median(pure):.2f} "
              f"(medians); each pair {', '.join(f'{x:.2f}' for x in pairs)}")
    for name in ANCHORS:
        for build in ("pure", "compiled"):
            values = [r[name] for r in rows if r["build"] == build]
            print(f"{name} ({build}): median {statistics.median(values):.3f}; "
                  f"runs {', '.join(f'{x:.3f}' for x in values)}")


if __name__ == "__main__":
    main(sys.argv[1:])
