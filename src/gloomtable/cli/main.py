"""The ``gloom`` command: play, simulate, replay, and deck tools."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from gloomtable.cli.common import err, fail, set_language
from gloomtable.cli.help_frame import translate_help_frame
from gloomtable.engine import GloomtableError
from gloomtable.engine.record import GameRecord
from gloomtable.games import GAMES, make_game, registry, replay_record
from gloomtable.i18n import LANGUAGES
from gloomtable.i18n.cli_language import CLI as LANG
from gloomtable.i18n.cli_language import _, ngettext

translate_help_frame()

LangOpt = Annotated[str | None, typer.Option(
    "--lang", help=_("Language: {langs} (default: from LANG).").format(langs=", ".join(LANGUAGES)))]

app = typer.Typer(
    help=_("gloomtable: play the Gloom family of card games with every rule enforced."),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
deck_app = typer.Typer(help=_("Check deck files and print their schema."), no_args_is_help=True)
app.add_typer(deck_app, name="deck")

GameOpt = Annotated[str, typer.Option("--game", "-g", help=_("One of: {games}.").format(
    games=", ".join(GAMES)))]


@app.callback()
def main_options(lang: LangOpt = None) -> None:
    """gloomtable: play the Gloom family of card games with every rule enforced."""
    set_language(lang, reset=True)


SetsOpt = Annotated[str | None, typer.Option(
    "--sets", help=_("Gloom: shipped set names or deck files to mix, separated by commas "
                     "(e.g. classic,gloomier)."))]


def table_config(game: str, players: int | None, edition: int | None, beginner: bool,
                 cap: int | None, sets: str | None = None) -> dict[str, Any]:
    """Build a game config from the shared options, refusing ones a game lacks."""
    config: dict[str, Any] = {}
    if players is not None:
        config["players"] = players
    if sets is not None:
        # Gloom mixes sets (R-H10); Crazy Creatures takes one, shipped or a variant file.
        config["sets"] = [s.strip() for s in sets.split(",") if s.strip()]
    entry = registry.find(game)
    takes = entry.options if entry is not None else frozenset()
    if (edition is not None and "edition" not in takes) or (beginner and "beginner" not in takes):
        fail(_("--edition and --beginner are Gloom options, not {game} options").format(game=game))
    if edition is not None:
        config["edition"] = edition
    if beginner:
        config["beginner"] = True
    if cap is not None:
        config["turn_cap"] = cap
    return config


@app.command(help=_("Play in the terminal: you against bots, or several people taking turns."))
def play(
    game: GameOpt = "gloom",
    players: Annotated[int | None, typer.Option(help=_("Seats at the table (2-5)."))] = None,
    humans: Annotated[int, typer.Option(help=_("How many seats are people (hot-seat)."))] = 1,
    seed: Annotated[int | None, typer.Option(help=_("Seed (random if omitted)."))] = None,
    edition: Annotated[int | None, typer.Option(help=_("Gloom rules edition: 1 or 2."))] = None,
    beginner: Annotated[bool, typer.Option(help=_("Gloom: ignore card effects."))] = False,
    bots: Annotated[str | None, typer.Option(
        help=_("Bot level for the other seats: random, easy, medium or hard; one per seat "
               "separated by commas, e.g. medium,hard (default: medium)."))] = None,
    save: Annotated[Path | None, typer.Option(help=_("Save the game record here."))] = None,
    sets: SetsOpt = None,
    lang: LangOpt = None,
) -> None:
    """Play in the terminal: you against bots, or several people taking turns."""
    from gloomtable.cli.terminal import play_terminal

    set_language(lang)

    if players is None and (entry := registry.find(game)) is not None:
        players = entry.default_players
    config = table_config(game, players, edition, beginner, None, sets)
    try:
        g = make_game(game, config)
    except GloomtableError as exc:
        fail(str(exc))
    if not 0 <= humans <= g.num_players:
        fail(_("--humans must be between 0 and {n}").format(n=g.num_players))
    if seed is None:
        import secrets

        seed = secrets.randbelow(2**31)
    level = bots or "medium"
    try:
        from gloomtable.bots import make_bot

        for one in level.split(","):
            make_bot(one.strip(), game, 0)
    except GloomtableError as exc:
        fail(str(exc))
    try:
        play_terminal(g, seed, humans, level, save, lang=LANG.lang)
    except GloomtableError as exc:  # e.g. per-seat levels before the terminal reads them
        fail(str(exc))


@app.command(help=_("Play many bot games and report speed, length and win share by seat."))
def simulate(
    game: GameOpt = "gloom",
    players: Annotated[int | None, typer.Option(help=_("Seats at the table."))] = None,
    games: Annotated[int, typer.Option(help=_("How many games."), min=1)] = 100,
    seed: Annotated[int, typer.Option(help=_("Seed of the whole run."))] = 1,
    bots: Annotated[str, typer.Option(help=_("Bot level, or one per seat separated by commas."))] = "random",
    edition: Annotated[int | None, typer.Option(help=_("Gloom rules edition: 1 or 2."))] = None,
    beginner: Annotated[bool, typer.Option(help=_("Gloom: ignore card effects."))] = False,
    cap: Annotated[int | None, typer.Option(help=_("Safety cap on turns per game."))] = None,
    as_json: Annotated[bool, typer.Option("--json", help=_("Print one JSON object."))] = False,
    save_dir: Annotated[Path | None, typer.Option(help=_("Write every game's record here."))] = None,
    sets: SetsOpt = None,
    workers: Annotated[int, typer.Option(
        help=_("Processes to play in (0: one per core); results do not depend on it."))] = 1,
    ray: Annotated[str | None, typer.Option(
        "--ray", help=_("Run on the Ray cluster at this address ('local': start one); needs Ray."))] = None,
) -> None:
    """Play many bot games and report speed, length and win share by seat."""
    from gloomtable.simulate import simulate as run

    config = table_config(game, players, edition, beginner, cap, sets)
    levels = [b.strip() for b in bots.split(",") if b.strip()]
    show_bar = sys.stderr.isatty() and not as_json
    try:
        make_game(game, config)  # fail fast on bad options
        if show_bar:
            with Progress("[progress.description]{task.description}", BarColumn(),
                          MofNCompleteColumn(), TimeRemainingColumn(), console=err) as bar:
                task = bar.add_task(_("simulating {game}").format(game=game), total=games)
                report = run(game, config, games, seed, levels, save_dir,
                             on_game=lambda i: bar.advance(task), workers=workers, ray_address=ray)
        else:
            report = run(game, config, games, seed, levels, save_dir, workers=workers, ray_address=ray)
    except GloomtableError as exc:
        fail(str(exc))
    data = report.to_dict()
    if as_json:
        print(json.dumps(data))
        return
    print(ngettext("{n} game of {game} for {players} players ({bots} bots), seed {seed}",
                   "{n} games of {game} for {players} players ({bots} bots), seed {seed}",
                   data["games"]).format(n=data["games"], game=game, players=data["players"],
                                         bots=", ".join(levels), seed=seed))
    print("  " + _("speed:   {g} games/s, {a} actions/s ({m} actions per game)").format(
        g=data["games_per_s"], a=data["actions_per_s"], m=data["mean_actions"]))
    print("  " + _("length:  mean {mean} rounds, median {median}").format(
        mean=data["mean_rounds"], median=data["median_rounds"]))
    print("  " + ngettext("capped:  {n} game ({share}) hit the turn cap",
                          "capped:  {n} games ({share}) hit the turn cap", data["capped_games"]).format(
        n=data["capped_games"], share=f"{data['capped']:.1%}"))
    print("  " + _("wins:    {shares}").format(shares=", ".join(
        _("seat {n} {share}").format(n=i + 1, share=f"{w:.1%}")
        for i, w in enumerate(data["win_share_by_seat"]))))
    if save_dir is not None:
        print("  " + _("records: {path}").format(path=save_dir))


@app.command(help=_("Replay a saved game record and print the final table and scores."))
def replay(
    record: Annotated[Path, typer.Argument(help=_("A record saved by play or simulate."))],
    chronicle: Annotated[bool, typer.Option(help=_("Tell the game's chronicle instead."))] = False,
    fmt: Annotated[str, typer.Option("--format", help=_("Chronicle format: md or html."))] = "md",
    out: Annotated[Path | None, typer.Option(help=_("Write the chronicle to this file."))] = None,
    narrate: Annotated[bool, typer.Option(help=_("Chronicle: narrate plays nobody narrated."))] = True,
) -> None:
    """Replay a saved game record and print the final table and scores."""
    if chronicle:
        from gloomtable.designer.commands import replay_chronicle

        replay_chronicle(record, fmt, out, narrate)
        return
    from gloomtable.i18n.client import localizer_for

    try:
        rec = GameRecord.load(record)
        state = replay_record(rec)
    except GloomtableError as exc:
        fail(f"{record}: {exc}")
    print(localizer_for(make_game(rec.game, rec.config), LANG.lang).render(state, None))
    n = len(rec.actions)
    if not state.is_over():
        print("\n" + ngettext("(The record stops before the end: {n} action replayed.)",
                              "(The record stops before the end: {n} actions replayed.)", n).format(n=n))
    else:
        res = state.result()
        print("\n" + ngettext("Replayed {n} action. Scores: {scores}; winner(s): {names}",
                              "Replayed {n} actions. Scores: {scores}; winner(s): {names}", n).format(
            n=n, scores=list(res.scores), names=", ".join(LANG.tr.player(w) for w in res.winners)))


@deck_app.command("check", help=_("Validate a deck; print its counts by type and its families."))
def deck_check(
    paths: Annotated[list[str], typer.Argument(help=_(
        "A deck file or a shipped set name; several separated by commas to check a mix."))],
    strict: Annotated[bool, typer.Option(
        "--strict", help=_("Count warnings as errors (exit code 1)."))] = False,
    simulate: Annotated[int, typer.Option(
        "--simulate", min=0, help=_("Also play N games between medium bots at each table size "
        "the deck allows; report capped share, length and seat balance."))] = 0,
    seed: Annotated[int, typer.Option(help=_("Seed of the simulated games."))] = 1,
    workers: Annotated[int | None, typer.Option(
        help=_("Processes for --simulate (default: every core)."), min=1)] = None,
) -> None:
    """Validate a deck (or a mix of decks); print counts by type and families, then
    every error and warning found in play terms (docs/decks.md)."""
    from gloomtable.designer.commands import (
        check_creature_set,
        check_findings,
        is_creature_set,
        split_sets,
    )
    from gloomtable.games.gloom.deck import DeckError, combine, load_deck

    names = split_sets(paths)  # spaces or commas, as `deck gallery` takes them
    if len(names) == 1 and is_creature_set(names[0]):  # a Crazy Creatures set, shipped or a variant
        code = check_creature_set(names[0], strict, simulate, seed, workers)
        if code:
            raise typer.Exit(code)
        return
    decks = []
    failed = False
    for one in names:
        try:
            decks.append(load_deck(one))
        except DeckError as exc:
            _print_deck_error(exc)
            failed = True
    if failed or not decks:
        raise typer.Exit(1)
    for deck in decks:
        _print_deck(deck)
    if len(decks) > 1:
        try:
            mix = combine(decks)
        except DeckError as exc:
            _print_deck_error(exc)
            raise typer.Exit(1) from None
        counts = mix.counts()
        drawn = counts["modifier"] + counts["event"] + counts["untimely_death"]
        print(_("The mix {name}: one draw pile of {n} cards, {chars} Characters pooled, "
                "{guests} Guests and {stories} Stories; up to {seats} seats choosing 4 Characters "
                "each").format(name=mix.name, n=drawn, chars=counts["character"],
                               guests=counts.get("guest", 0), stories=counts.get("story", 0),
                               seats=min(8, counts["character"] // 4)))
    try:
        code = check_findings(decks, names, strict, simulate, seed, workers)
    except GloomtableError as exc:
        fail(str(exc))
    if code:
        raise typer.Exit(code)


def _print_deck_error(exc: Any) -> None:
    err.print("[bold red]" + ngettext("{n} problem", "{n} problems", len(exc.problems)).format(
        n=len(exc.problems)) + "[/] " + _("in {source}:").format(source=exc.source), highlight=False)
    for p in exc.problems:
        err.print(f"  {exc.source}: {p}", highlight=False, markup=False)


def _print_deck(deck: Any) -> None:
    counts = deck.counts()
    print(_("{source}: {name} is valid").format(source=deck.source, name=deck.name))
    for kind, n in counts.items():
        print(f"  {card_kind_plural(kind)}: {n}")
    print("  " + _("families: {n}").format(n=len(deck.families)))
    for fam in deck.families:
        print(f"    {fam.name}: " + ngettext("{n} Characters", "{n} Characters", len(fam.characters)).format(
            n=len(fam.characters)))


def card_kind_plural(kind: str) -> str:
    """The heading of a card count in ``deck check``."""
    names = {"character": _("characters"), "modifier": _("modifiers"), "event": _("events"),
             "untimely_death": _("untimely deaths"), "guest": _("guests"), "story": _("stories")}
    return names.get(kind, kind.replace("_", " ") + "s")


@deck_app.command("schema", help=_("Print the JSON Schema of deck files (for editor autocompletion)."))
def deck_schema(game: Annotated[str, typer.Option(
        "--game", "-g", help=_("gloom (Gloom and Gloomier decks) or creatures (a Crazy Creatures set)."))
        ] = "gloom") -> None:
    """Print the JSON Schema of deck files (for editor autocompletion)."""
    entry = registry.find(game)
    if entry is None:
        fail(f"--game must be one of {', '.join(registry.names())}, not {game!r}")
    print(json.dumps(entry.schema(), indent=2))


@app.command(help=_("Show a short rules reference of a game in your language."))
def rules(game: GameOpt = "gloom", lang: LangOpt = None) -> None:
    """Show a short rules reference of a game in your language."""
    from rich.markdown import Markdown

    from gloomtable.i18n.catalog import translator
    from gloomtable.i18n.rules import rules_text

    set_language(lang)
    try:  # rendered, so no raw Markdown marks (``**``, ``#``) reach the terminal
        text = rules_text(game, LANG.lang)
        entry = registry.find(game)
        if entry is not None:  # Gloom: drawn stacks, the cardinal rule (R-G4)
            text += entry.pictures(translator(LANG.lang))
        Console(highlight=False).print(Markdown(text))
    except GloomtableError as exc:
        fail(str(exc))


def _designer_commands() -> None:
    """``deck new``, ``deck gallery`` and ``balance`` live in gloomtable.designer."""
    from gloomtable.designer.commands import register

    register(app, deck_app)


_designer_commands()


def _bench_command() -> None:
    """``gloom bench`` lives in gloomtable.cli.bench (docs/bench.md)."""
    from gloomtable.cli.bench import bench

    app.command(help=_("Measure engine, bot, RL and server speed against RLCard and PettingZoo."))(bench)


_bench_command()


def _serve_command() -> None:
    """``gloom serve`` lives in gloomtable.cli.serve (docs/server.md)."""
    from gloomtable.cli.serve import serve

    app.command(help=_("Play in the browser: serve the lobby and live tables (docs/server.md)."))(serve)


_serve_command()


def _db_commands() -> None:
    """``gloom db copy`` lives in gloomtable.cli.db (docs/deploy.md)."""
    from gloomtable.cli.db import db_app

    app.add_typer(db_app, name="db")


_db_commands()


def _learn_command() -> None:
    """``gloom learn`` lives in gloomtable.cli.learn (lessons: gloomtable.learn)."""
    from gloomtable.cli.learn import learn

    app.command(help=_("Learn to play: a guided first game of Gloom, Gloomier or Crazy Creatures."))(learn)


_learn_command()


def _tournament_command() -> None:
    """``gloom tournament`` lives in gloomtable.cli.tournament (docs/bots.md)."""
    from gloomtable.cli.tournament import tournament

    app.command(help=_("Seat-rotated bot matches: win shares with 95% intervals and Elo ratings."))(
        tournament)


_tournament_command()


def main() -> None:
    app()


if __name__ == "__main__":
    main()
