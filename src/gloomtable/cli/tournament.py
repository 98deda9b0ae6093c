"""``gloom tournament``: seat-rotated bot matches with win shares and ratings."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from gloomtable.engine import GloomtableError
from gloomtable.games import GAMES
from gloomtable.i18n.cli_language import _


def tournament(
    game: Annotated[str, typer.Option(
        "--game", "-g", help=_("One of: {games}.").format(games=", ".join(GAMES)))] = "gloom",
    bots: Annotated[str, typer.Option(
        help=_("Bot levels, separated by commas (random, easy, medium, hard)."))] = "random,medium,hard",
    players: Annotated[int, typer.Option(help=_("Seats at each table."), min=2)] = 2,
    games: Annotated[int, typer.Option(help=_("How many games in all."), min=1)] = 100,
    seed: Annotated[int, typer.Option(help=_("Seed of the whole run."))] = 1,
    workers: Annotated[int, typer.Option(
        help=_("Worker processes; the results are the same for any number."), min=1)] = 1,
    as_json: Annotated[bool, typer.Option("--json", help=_("Print one JSON object."))] = False,
) -> None:
    """Seat-rotated bot matches: win share with a 95% interval and an Elo rating per bot."""
    from gloomtable.tournament import run_tournament, tables

    err = Console(stderr=True, soft_wrap=True)
    levels = [b.strip() for b in bots.split(",") if b.strip()]
    config = {"players": players}
    show_bar = sys.stderr.isatty() and not as_json
    try:
        lineups = tables(levels, players) if levels else []
        if show_bar:
            with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                          TimeElapsedColumn(), TimeRemainingColumn(), console=err) as bar:
                task = bar.add_task(f"{game} tournament", total=games)
                report = run_tournament(game, config, levels, games, seed, workers,
                                        on_game=lambda done: bar.update(task, completed=done))
        else:
            report = run_tournament(game, config, levels, games, seed, workers)
    except GloomtableError as exc:
        err.print(f"[bold red]error:[/] {exc}", highlight=False)
        raise typer.Exit(2) from None
    data = report.to_dict()
    if as_json:
        print(json.dumps(data))
        return
    per = len(lineups) * players
    balanced = "" if games % per == 0 else f" (not seat-balanced: use a multiple of {per} games)"
    print(f"{data['games']} games of {game}, {players} players, seed {seed}{balanced}")
    table = Table("bot", "win share", "95% interval", "rating", "seats")
    for name, row in sorted(data["bots"].items(), key=lambda kv: -kv[1]["rating"]):
        lo, hi = row["ci95"]
        table.add_row(name, f"{row['win_share']:.1%}", f"{lo:.1%} .. {hi:.1%}",
                      f"{row['rating']:.0f}", str(row["seats"]))
    Console(soft_wrap=True).print(table)
    print(f"  rating: {data['rating']}")
    for pair, share in data["pairwise"].items():
        print(f"  {pair}: {share:.1%} of head-to-head points")
    if data["capped_games"]:
        print(f"  {data['capped_games']} games hit the turn cap")
