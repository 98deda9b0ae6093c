"""``gloom bench``: the body of the command (wired into ``cli/main.py``).

Prints a readable table, or with ``--json`` one JSON object (docs/bench.md
describes every member)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.console import Console

from gloomtable.i18n.cli_language import _

err = Console(stderr=True, soft_wrap=True)


def _fmt(entry: dict[str, Any], metric: str, unit: str = "") -> str:
    if not entry.get("available"):
        return "not available"
    s = entry[metric]
    return f"{s['median']:,}{unit} (min {s['min']:,}, max {s['max']:,})"


def render_text(report: dict[str, Any]) -> str:
    """The report as lines a person reads (figures are medians of the runs)."""
    plan, machine = report["plan"], report["machine"]
    build = report.get("build", {}).get("engine", "pure")
    lines = [f"gloom bench ({build} build): {plan['runs']} runs of {plan['seconds_per_run']} s "
             f"({plan['clock']} clock) per figure; {machine['cpus']} cpus, "
             f"load {machine['load_before'][0]} -> {machine['load_after'][0]}; median (min, max)",
             "", "Random playouts"]
    for name, e in report["playouts"].items():
        if not e.get("available"):
            lines.append(f"  {name:<18} not available: {e['reason']}")
            continue
        lines.append(f"  {name:<18} {_fmt(e, 'actions_per_s')} actions/s; "
                     f"{e['games_per_s']['median']:,} games/s; "
                     f"{e['actions_per_game']['median']} actions/game")
    for name, e in report["baselines"].items():
        metric = "actions_per_s" if "actions_per_s" in e else "steps_per_s"
        label = "actions/s" if metric == "actions_per_s" else "steps/s"
        lines.append(f"  {name:<18} {_fmt(e, metric)} {label}"
                     + ("" if e.get("available") else f": {e['reason']}"))
    lines += ["", "Cost per call, microseconds"]
    for name, e in report["per_call_us"].items():
        if not e.get("available"):
            lines.append(f"  {name:<18} not available")
            continue
        lines.append(f"  {name:<18} " + "  ".join(
            f"{call} {e[call]['median']}" for call in ("legal_actions", "apply", "view", "clone")))
    lines += ["", "Search and RL"]
    for name, e in report["ismcts"].items():
        lines.append(f"  ismcts {name:<12} " + (f"{_fmt(e, 'iterations_per_s')} iterations/s"
                                                  if e.get("available") else f"not available: {e['reason']}"))
    for name, e in report["rl"].items():
        if not e.get("available"):
            lines.append(f"  rl {name:<20} not available: {e['reason']}")
        elif "steps_per_s" in e:
            lines.append(f"  rl {name:<20} {_fmt(e, 'steps_per_s')} steps/s ({e.get('wrapping', 'env')})")
        elif "ratio" in e:  # two envs in alternating slices
            lines.append(f"  rl {name:<20} {_fmt(e, 'ours_steps_per_s')} against "
                         f"{_fmt(e, 'theirs_steps_per_s')} steps/s, ratio {e['ratio']['median']} "
                         f"({e['slices']} slices each, {e.get('wrapping', 'env')})")
        else:  # OpenSpiel call costs
            lines.append(f"  rl {name:<20} " + "  ".join(
                f"{metric} {e[metric]['median']}" for metric in ("chance_outcomes_us",
                                                                 "clone_infostate_us")))
    w = report.get("workers", {}).get("simulate", {})
    lines += ["", "simulate --workers 2 (wall clock)"]
    if w.get("available"):
        lines.append(f"  {w['games']:,} games of {w['game']}: serial {w['serial_s']['median']} s, "
                     f"2 processes {w['parallel_s']['median']} s: speed-up {_fmt(w, 'speedup', 'x')}; "
                     f"projected on 2 free cores {w['projected_speedup']['median']}x; "
                     + ("identical results" if w["identical"]["min"] == 1.0 else "RESULTS DIFFER"))
    else:
        lines.append(f"  not available: {w.get('reason', 'not measured')}")
    lines += ["", "Ratios (ours / baseline, medians of this run)"]
    targets = report["targets"]
    for key, value in report["ratios"].items():
        goal = targets.get(key)
        mark = "" if goal is None or goal["met"] is None else (
            f"   target {goal['target']}: " + ("met" if goal["met"] else "NOT met"))
        lines.append(f"  {key:<30} {'n/a' if value is None else value}{mark}")
    for key, goal in targets.items():
        if "at_most" in goal:
            mark = "" if goal["met"] is None else (
                f"   at most {goal['at_most']}: " + ("met" if goal["met"] else "NOT met"))
            lines.append(f"  {key:<30} {'n/a' if goal['value'] is None else goal['value']}{mark}")
    if "server" in report:
        lines += ["", "Server"]
        s = report["server"]
        if not s.get("available"):
            lines.append(f"  not available: {s['reason']}")
        else:
            lines.append(f"  {s['tables']} tables ({s['think_ms']} ms per move), {s['moves']} moves "
                         f"in {s['seconds']} s: "
                         f"{s['moves_per_s']} moves/s; round trip p50 {s['latency_ms']['p50']} ms, "
                         f"p99 {s['latency_ms']['p99']} ms; {s['rss_per_table_kb']} KB per open table")
            goal = report["targets"].get("server_p99_ms")
            if goal is not None and goal["met"] is not None:
                lines.append(f"  p99 under {goal['target']:g} ms with 200+ tables and no errors: "
                             + ("met" if goal["met"] else "NOT met"))
    if "capacity" in report:
        c = report["capacity"]
        lines += ["", "Server capacity: most tables with a p99 round trip under 50 ms"]
        if not c.get("available"):
            lines.append(f"  not available: {c['reason']}")
        else:
            for r in c["runs"]:
                tried = ", ".join(f"{p['tables']}: {p['p99_ms']} ms" for p in r["probes"])
                lines.append(f"  {r['label']:<26} {r['tables_held']:>5} tables   (p99 by tables: {tried})")
            lines.append(f"  {c['runs'][2]['processes']} processes / 1 (PostgreSQL): {c['scaling']}x")
    lines.append(f"\n(took {report['seconds']} s)")
    return "\n".join(lines)


def render_against(result: dict[str, Any]) -> str:
    """The ``--against`` comparison as text: one line per figure, slower ones marked."""
    lines = [f"this tree against {result['against']} ({result['pairs']} pairs, speed ratio this / that; "
             f"above 1 is faster)",
             f"builds: {result['builds']['after']} / {result['builds']['before']}"]
    for name, row in result["figures"].items():
        mark = " (control: same code)" if row["control"] else " (too fast to judge)" if row["coarse"] else (
            "  SLOWER" if name in result["slower_than_5_percent"] else "")
        lines.append(f"  {name:<52} {row['median']:>6.3f}  [{row['min']:.3f} to {row['max']:.3f}]{mark}")
    lines.append(f"controls' noise: {result['controls_noise']}; "
                 f"no figure slower by more than 5%: {'met' if result['met'] else 'NOT met'}")
    return "\n".join(lines)


def _bench_against(rev: str, pairs: int, bench_args: list[str], as_json: bool,
                   progress: Callable[[str], None]) -> None:
    from gloomtable.bench.trees import against

    try:
        result = against(rev, bench_args, pairs, progress)
    except RuntimeError as exc:
        err.print(f"[bold red]error:[/] {exc}", highlight=False)
        raise typer.Exit(2) from exc
    print(json.dumps(result) if as_json else render_against(result))


def render_capacity_against(result: dict[str, Any]) -> str:
    """``--server --against`` as text: each search's tables held, and the ratio of medians."""
    lines = [f"Tables one process on SQLite holds at p99 < 50 ms: this tree against {result['against']}"]
    for s in result["searches"]:
        tried = ", ".join(f"{p['tables']}: {p['p99_ms']} ms" for p in s["probes"])
        who = "this tree" if s["tree"] == "this" else result["against"]
        lines.append(f"  pair {s['pair']}, {who:<12} {s['tables_held']:>5} tables   (p99 by tables: {tried})")
    med = result["median"]
    lines.append(f"medians: this tree {med['this']}, {result['against']} {med['rev']}; "
                 f"ratio {result['ratio']}")
    return "\n".join(lines)


def _capacity_against(rev: str, pairs: int, seed: int, think_ms: int, as_json: bool,
                      progress: Callable[[str], None]) -> None:
    from gloomtable.bench.capacity import capacity_against

    try:
        result = capacity_against(rev, pairs, seed=seed, think_ms=think_ms, progress=progress)
    except RuntimeError as exc:
        err.print(f"[bold red]error:[/] {exc}", highlight=False)
        raise typer.Exit(2) from exc
    print(json.dumps(result) if as_json else render_capacity_against(result))


def bench(
    quick: Annotated[bool, typer.Option("--quick", help=_("Fewer, shorter runs (about 20 s)."))] = False,
    as_json: Annotated[bool, typer.Option("--json", help=_("Print one JSON object."))] = False,
    server: Annotated[bool, typer.Option("--server", help=_("Also load a real `gloom serve`."))] = False,
    tables: Annotated[int, typer.Option(help=_("--server: concurrent bot tables."), min=1, max=2000)] = 200,
    server_seconds: Annotated[float, typer.Option(
        help=_("--server: how long to keep the tables moving."), min=1.0, max=600.0)] = 10.0,
    think_ms: Annotated[int, typer.Option(
        help=_("--server: every seat's pause before its move, ms (0: flat out)."), min=0, max=10_000)] = 250,
    wall_clock: Annotated[bool, typer.Option(
        "--wall-clock", help=_("Time by the wall clock instead of this process's CPU time."))] = False,
    seed: Annotated[int, typer.Option(help=_("Seed of every measured game."))] = 1,
    processes: Annotated[int | None, typer.Option(
        help=_("--server: also find the most tables kept at p99 < 50 ms by 1 process on SQLite, "
             "1 on PostgreSQL and this many on PostgreSQL (needs --db)."), min=1, max=16)] = None,
    db: Annotated[str | None, typer.Option(
        help=_("--server --processes: the PostgreSQL to measure on (a postgresql:// URL)."))] = None,
    only: Annotated[str | None, typer.Option(
        help=_("Measure only these sections, comma-separated: playouts, per_call_us, ismcts, rl, "
             "baselines, workers."))] = None,
    against: Annotated[str | None, typer.Option(
        help=_("Also run the same bench of this git revision, turn about with this tree, and report "
             "each figure's speed ratio (this tree / the revision). With --server: the most tables "
             "one process on SQLite holds at p99 < 50 ms, each tree's server under the same load."))] = None,
    pairs: Annotated[int, typer.Option(
        help=_("--against: rounds of revision, tree, tree, revision."), min=1, max=20)] = 2,
) -> None:
    """Measure the engines, bots, RL environments (and the server) against RLCard's UNO
    and PettingZoo's Leduc Hold'em in one run; figures are medians of several runs."""
    from gloomtable.bench import Plan, run_bench
    from gloomtable.bench.suite import SECTIONS

    clock = "wall" if wall_clock else "cpu"
    sections: tuple[str, ...] = SECTIONS
    if only is not None:
        sections = tuple(x.strip() for x in only.split(",") if x.strip())
        unknown = [x for x in sections if x not in SECTIONS]
        if unknown or not sections:
            err.print(f"[bold red]error:[/] --only {only!r}: choose from {', '.join(SECTIONS)}",
                      highlight=False)
            raise typer.Exit(2)
    plan = Plan.quick(clock, sections) if quick else Plan.full(clock, sections)
    show = sys.stderr.isatty() and not as_json

    def progress(msg: str) -> None:
        if show:
            err.print(f"[dim]{msg}[/]", highlight=False)

    if against is not None and server:
        _capacity_against(against, pairs, seed, think_ms, as_json, progress)
        return
    if against is not None:
        args = [*(["--quick"] if quick else []), *(["--wall-clock"] if wall_clock else []),
                "--seed", str(seed), *(["--only", only] if only else [])]
        _bench_against(against, pairs, args, as_json, progress)
        return

    report = run_bench(plan, seed, progress)
    if server:
        from gloomtable.bench.server import bench_server, server_target

        progress(f"server: {tables} tables for {server_seconds} s")
        report["server"] = bench_server(tables, server_seconds, seed, think_ms)
        report["targets"]["server_p99_ms"] = server_target(report["server"])
    if server and processes is not None:
        if not db or not db.startswith(("postgresql://", "postgres://")):
            err.print("[bold red]error:[/] --processes needs --db postgresql://...", highlight=False)
            raise typer.Exit(2)
        from gloomtable.bench.capacity import bench_capacity

        report["capacity"] = bench_capacity(db, processes, seed=seed, think_ms=think_ms,
                                            progress=progress)
    if as_json:
        print(json.dumps(report))
        return
    print(render_text(report))
