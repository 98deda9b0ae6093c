"""The ``gloom`` command: play, simulate, replay, and deck tools."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from gloomtable.engine import GloomtableError
from gloomtable.engine.record import GameRecord
from gloomtable.games import GAMES, make_game, replay_record

app = typer.Typer(
    help="gloomtable: play the Gloom family of card games with every rule enforced.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
deck_app = typer.Typer(help="Check deck files and print their schema.", no_args_is_help=True)
app.add_typer(deck_app, name="deck")

err = Console(stderr=True, soft_wrap=True)
GameOpt = Annotated[str, typer.Option("--game", "-g", help=f"One of: {', '.join(GAMES)}.")]


def fail(message: str, code: int = 2) -> None:
    err.print(f"[bold red]error:[/] {message}", highlight=False)
    raise typer.Exit(code)


def table_config(game: str, players: int | None, edition: int | None, beginner: bool,
                 cap: int | None) -> dict[str, Any]:
    """Build a game config from the shared options, refusing ones a game lacks."""
    config: dict[str, Any] = {}
    if players is not None:
        config["players"] = players
    if game == "gloom":
        if edition is not None:
            config["edition"] = edition
        if beginner:
            config["beginner"] = True
        if cap is not None:
            config["turn_cap"] = cap
    else:
        if edition is not None or beginner:
            fail(f"--edition and --beginner are Gloom options, not {game} options")
        if cap is not None:
            config["turn_cap"] = cap
    return config


@app.command()
def play(
    game: GameOpt = "gloom",
    players: Annotated[int | None, typer.Option(help="Seats at the table (2-5).")] = None,
    humans: Annotated[int, typer.Option(help="How many seats are people (hot-seat).")] = 1,
    seed: Annotated[int | None, typer.Option(help="Seed (random if omitted).")] = None,
    edition: Annotated[int | None, typer.Option(help="Gloom rules edition: 1 or 2.")] = None,
    beginner: Annotated[bool, typer.Option(help="Gloom: ignore card effects.")] = False,
    bots: Annotated[str | None, typer.Option(
        help="Bot level for the other seats (default: the game's best).")] = None,
    save: Annotated[Path | None, typer.Option(help="Save the game record here.")] = None,
) -> None:
    """Play in the terminal: you against bots, or several people taking turns."""
    from gloomtable.cli.terminal import play_terminal

    if game == "gloom" and players is None:
        players = 4
    config = table_config(game, players, edition, beginner, None)
    try:
        g = make_game(game, config)
    except GloomtableError as exc:
        fail(str(exc))
    if not 0 <= humans <= g.num_players:
        fail(f"--humans must be between 0 and {g.num_players}")
    if seed is None:
        import secrets

        seed = secrets.randbelow(2**31)
    level = bots or {"gloom": "sensible", "creatures": "heuristic"}.get(game, "random")
    try:
        from gloomtable.bots import make_bot

        make_bot(level, game, 0)
    except GloomtableError as exc:
        fail(str(exc))
    play_terminal(g, seed, humans, level, save)


@app.command()
def simulate(
    game: GameOpt = "gloom",
    players: Annotated[int | None, typer.Option(help="Seats at the table.")] = None,
    games: Annotated[int, typer.Option(help="How many games.", min=1)] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 1,
    bots: Annotated[str, typer.Option(help="Bot level, or one per seat separated by commas.")] = "random",
    edition: Annotated[int | None, typer.Option(help="Gloom rules edition: 1 or 2.")] = None,
    beginner: Annotated[bool, typer.Option(help="Gloom: ignore card effects.")] = False,
    cap: Annotated[int | None, typer.Option(help="Safety cap on turns per game.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    save_dir: Annotated[Path | None, typer.Option(help="Write every game's record here.")] = None,
) -> None:
    """Play many bot games and report speed, length and win share by seat."""
    from gloomtable.simulate import simulate as run

    config = table_config(game, players, edition, beginner, cap)
    levels = [b.strip() for b in bots.split(",") if b.strip()]
    show_bar = sys.stderr.isatty() and not as_json
    try:
        make_game(game, config)  # fail fast on bad options
        if show_bar:
            with Progress("[progress.description]{task.description}", BarColumn(),
                          MofNCompleteColumn(), TimeRemainingColumn(), console=err) as bar:
                task = bar.add_task(f"simulating {game}", total=games)
                report = run(game, config, games, seed, levels, save_dir,
                             on_game=lambda i: bar.advance(task))
        else:
            report = run(game, config, games, seed, levels, save_dir)
    except GloomtableError as exc:
        fail(str(exc))
    data = report.to_dict()
    if as_json:
        print(json.dumps(data))
        return
    print(f"{data['games']} games of {game} for {data['players']} players "
          f"({', '.join(levels)} bots), seed {seed}")
    print(f"  speed:   {data['games_per_s']} games/s, {data['actions_per_s']} actions/s "
          f"({data['mean_actions']} actions per game)")
    print(f"  length:  mean {data['mean_rounds']} rounds, median {data['median_rounds']}")
    print(f"  capped:  {data['capped_games']} games ({data['capped']:.1%}) hit the turn cap")
    print("  wins:    " + ", ".join(f"seat {i + 1} {w:.1%}"
                                   for i, w in enumerate(data["win_share_by_seat"])))
    if save_dir is not None:
        print(f"  records: {save_dir}")


@app.command()
def replay(record: Annotated[Path, typer.Argument(help="A record saved by play or simulate.")]) -> None:
    """Replay a saved game record and print the final table and scores."""
    try:
        rec = GameRecord.load(record)
        state = replay_record(rec)
    except GloomtableError as exc:
        fail(f"{record}: {exc}")
    print(state.render(None))
    if not state.is_over():
        print(f"\n(The record stops before the end: {len(rec.actions)} actions replayed.)")
    else:
        res = state.result()
        print(f"\nReplayed {len(rec.actions)} actions. Scores: {list(res.scores)}; "
              f"winner(s): {', '.join(f'player {w + 1}' for w in res.winners)}")


@deck_app.command("check")
def deck_check(path: Annotated[str, typer.Argument(help="A deck file, or a shipped set name.")]) -> None:
    """Validate a deck; print its counts by type and its families."""
    from gloomtable.games.gloom.deck import DeckError, load_deck

    try:
        deck = load_deck(path)
    except DeckError as exc:
        err.print(f"[bold red]{len(exc.problems)} problem(s)[/] in {exc.source}:", highlight=False)
        for p in exc.problems:
            err.print(f"  {exc.source}: {p}", highlight=False, markup=False)
        raise typer.Exit(1) from None
    counts = deck.counts()
    print(f"{deck.source}: {deck.name} is valid")
    for kind, n in counts.items():
        print(f"  {kind.replace('_', ' ')}s: {n}")
    print(f"  families: {len(deck.families)}")
    for fam in deck.families:
        print(f"    {fam.name}: {len(fam.characters)} Characters")


@deck_app.command("schema")
def deck_schema() -> None:
    """Print the JSON Schema of deck files (for editor autocompletion)."""
    from gloomtable.games.gloom.deck import json_schema

    print(json.dumps(json_schema(), indent=2))


def main() -> None:
    app()


if __name__ == "__main__":
    main()
