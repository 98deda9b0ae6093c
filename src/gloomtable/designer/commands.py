"""The designer commands of ``gloom``: ``deck new``, ``deck gallery``, ``balance``
and the chronicle of ``replay``. The CLI module only registers them, so the
command bodies live next to the code they drive."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn, TimeRemainingColumn

from gloomtable.engine import GloomtableError
from gloomtable.i18n.cli_language import _

err = Console(stderr=True, soft_wrap=True)


def _fail(message: str, code: int = 2) -> None:
    err.print(f"[bold red]error:[/] {message}", highlight=False, markup=True)
    raise typer.Exit(code)


def _write(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        _fail(f"cannot write {path}: {exc.strerror}")


def deck_new(
    name: Annotated[str, typer.Argument(help=_("The deck's name; the file is named after it."))],
    directory: Annotated[Path, typer.Option("--dir", help=_("Where to write the file."))] = Path("."),
    force: Annotated[bool, typer.Option(help=_("Overwrite an existing file."))] = False,
) -> None:
    """Write a small valid starter deck to edit: two families, every kind of card."""
    from gloomtable.designer.starter import write_starter

    try:
        path = write_starter(name, directory, force)
    except GloomtableError as exc:
        _fail(str(exc))
    print(f"wrote {path}")
    print(f"  check it:   gloom deck check {path}")
    print(f"  see it:     gloom deck gallery {path}")
    print(f"  balance it: gloom balance classic {path} --players 4 --games 200 --out report.html")


def deck_gallery(
    paths: Annotated[list[str], typer.Argument(help=_(
        "Deck files or shipped set names, mixed if several (spaces or commas)."))],
    out: Annotated[Path | None, typer.Option(
        help=_("Write the page here (default: <deck>-gallery.html)."))] = None,
    open_page: Annotated[bool, typer.Option("--open", help=_("Open the page in your browser."))] = False,
) -> None:
    """Write one self-contained page drawing every card, with a stack builder."""
    from gloomtable.designer.gallery import write_gallery
    from gloomtable.games.gloom.deck import DeckError

    try:
        path = write_gallery(split_sets(paths), out)
    except DeckError as exc:
        err.print(f"[bold red]{len(exc.problems)} problem(s)[/] in {exc.source}:", highlight=False)
        for p in exc.problems:
            err.print(f"  {exc.source}: {p}", highlight=False, markup=False)
        raise typer.Exit(1) from None
    except GloomtableError as exc:
        _fail(str(exc))
    print(f"wrote {path}")
    if open_page:
        import webbrowser

        webbrowser.open(path.resolve().as_uri())


def balance(
    paths: Annotated[list[str], typer.Argument(
        help=_("Deck files or shipped set names, mixed into one deck (R-H10)."))],
    players: Annotated[int, typer.Option(help=_("Seats at the table."))] = 4,
    games: Annotated[int, typer.Option(help=_("How many games to simulate."), min=1)] = 200,
    bots: Annotated[str, typer.Option(help=_("Bot level, or one per seat separated by commas."))] = "random",
    workers: Annotated[int | None, typer.Option(help=_("Processes (default: every core)."), min=1)] = None,
    seed: Annotated[int, typer.Option(help=_("Seed of the whole run."))] = 1,
    cap: Annotated[int | None, typer.Option(help=_("Safety cap on turns per game."))] = None,
    out: Annotated[Path | None, typer.Option(help=_("Write the HTML report here."))] = None,
    as_json: Annotated[bool, typer.Option("--json", help=_("Print the figures as JSON."))] = False,
    records: Annotated[Path | None, typer.Option(help=_("Also save every game's record here."))] = None,
) -> None:
    """Simulate a deck on every core; report its balance as HTML charts and JSON."""
    from gloomtable.designer.balance import deck_of, figures, run_balance
    from gloomtable.designer.report_html import render_report
    from gloomtable.games import make_game

    if out is None and not as_json:
        _fail("say where the report goes (--out report.html), or ask for --json")
    sets = [str(Path(p).resolve()) if Path(p).is_file() else p for p in paths]
    levels = [b.strip() for b in bots.split(",") if b.strip()]
    show_bar = not as_json or out is not None
    try:
        with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), TimeRemainingColumn(), console=err,
                      disable=not show_bar) as bar:
            task = bar.add_task(f"{games} games, {players} players", total=games)
            run = run_balance(sets, players, games, seed, levels, workers, cap,
                              on_games=lambda k: bar.advance(task, k))
        fig = figures(run, deck_of(make_game("gloom", run.config)))
    except GloomtableError as exc:
        _fail(str(exc))
    fig["deck"]["sets"] = list(paths)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
        for rec in run.records:
            rec.save(records / f"gloom-{rec.seed}.json")
    if fig.get("cap_warning"):
        err.print(f"warning: {fig['cap_warning']}", highlight=False, markup=False)
    if out is not None:
        _write(out, render_report(fig))
        err.print(f"report: {out}", highlight=False, markup=False)
    if as_json:
        print(json.dumps(fig))
    elif out is not None:
        seats = ", ".join(f"{r['share']:.1%}" for r in fig["win_share_by_seat"])
        clear = [c["name"] for c in fig["cards"] if c["clear"]]
        print(f"{fig['games']} games: win share by seat {seats}; median {fig['rounds']['median']} rounds; "
              f"cards with a clear win-share difference: {', '.join(clear) or 'none'}")


def replay_chronicle(record_path: Path, fmt: str, out: Path | None, narrate: bool) -> None:
    """``gloom replay RECORD --chronicle``: the tale of the game, Markdown or HTML."""
    from gloomtable.designer.chronicle import build_chronicle, chronicle_html, chronicle_markdown
    from gloomtable.engine.record import GameRecord

    if fmt not in ("md", "html"):
        _fail(f"--format must be md or html, not {fmt!r}")
    try:
        rec = GameRecord.load(record_path)
        from gloomtable.i18n.cli_language import CLI

        chron = build_chronicle(rec, narrate=narrate, lang=CLI.lang)
    except GloomtableError as exc:
        _fail(f"{record_path}: {exc}")
    text = chronicle_markdown(chron) if fmt == "md" else chronicle_html(chron)
    if out is None:
        sys.stdout.write(text)
    else:
        _write(out, text)
        err.print(f"chronicle: {out}", highlight=False, markup=False)


def check_findings(decks: list[Any], paths: list[str], strict: bool, simulate: int,
                   seed: int, workers: int | None) -> int:
    """The part of ``gloom deck check`` after the counts: errors, then warnings, then
    (``--simulate N``) quick games at each table size. Returns the exit code: 1 if
    there is an error (or, with ``--strict``, a warning), else 0."""
    from gloomtable.designer.check import check_decks, table_sizes
    from gloomtable.designer.check_translations import check_translation_files
    from gloomtable.designer.playtest import CAPPED_WARN, playtest
    from gloomtable.games.gloom.deck import combine

    findings = check_decks(decks) + check_translation_files(decks)
    errors = [f for f in findings if f.severity == "error"]
    warnings = [f.line() for f in findings if f.severity == "warning"]
    for f in errors:
        print(f"error: {f.line()}")
    for line in warnings:
        print(f"warning: {line}")
    sizes = [t.players for t in table_sizes(combine(decks))] if simulate > 0 and not errors else []
    if simulate > 0 and not errors and not sizes:
        # A deck meant only for mixing deals no table by itself: say so, never crash.
        line = (f"{' + '.join(d.source for d in decks)}: simulate: these cards set up no table "
                "of 2 to 8 players on their own (too few Characters or families); name the sets "
                "to mix them with, as in `gloom deck check classic,mine.toml --simulate N`")
        warnings.append(line)
        print(f"warning: {line}")
    if sizes:
        sets = [str(Path(p).resolve()) if Path(p).is_file() else p for p in paths]
        print(f"simulating {simulate} games at each table size ({', '.join(map(str, sizes))} "
              "players), medium bots:")
        with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), console=err, disable=not sys.stderr.isatty()) as bar:
            task = bar.add_task("games", total=simulate * len(sizes))
            results = playtest(sets, sizes, simulate, seed, "medium", workers,
                               on_games=lambda k: bar.advance(task, k))
        for r in results:
            seats = " / ".join(f"{s:.1%}" for s in r.seat_shares)
            print(f"  {r.players} players: capped {r.capped_share:.1%} ({r.capped} of {r.games}), "
                  f"mean {r.mean_rounds:.1f} rounds, win share by seat {seats}")
            if r.capped_share > CAPPED_WARN:
                line = (f"{' + '.join(d.source for d in decks)}: simulate: at {r.players} players "
                        f"{r.capped_share:.1%} of games stopped at the turn cap (more than "
                        f"{CAPPED_WARN:.0%}); likely reason: {r.likely_reason()}")
                warnings.append(line)
                print(f"warning: {line}")
    print(f"{len(errors)} error(s), {len(warnings)} warning(s)"
          + (" (--strict: warnings count as errors)" if strict and warnings else ""))
    return 1 if errors or (strict and warnings) else 0


def is_creature_set(path: str) -> bool:
    """Whether ``path`` names a Crazy Creatures set (shipped or a variant file):
    such a file has top-level ``colours`` and ``numbers`` and no ``[set]`` table."""
    from gloomtable.engine.textdata import TextDataError, load_toml
    from gloomtable.games.creatures.cards import SHIPPED_SET

    if path == SHIPPED_SET:
        return True
    try:
        data = load_toml(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, TextDataError):
        return False
    return "set" not in data and "colours" in data and "numbers" in data


def split_sets(args: list[str]) -> list[str]:
    """Set names and deck files as ``deck check`` and ``deck gallery`` take them: several
    arguments, each of which may itself be a comma list (``classic,mine.toml``)."""
    return [p.strip() for arg in args for p in arg.split(",") if p.strip()]


def check_creature_set(path: str, strict: bool, simulate: int = 0, seed: int = 1,
                       workers: int | None = None) -> int:
    """``gloom deck check`` on a Crazy Creatures set: the schema and the shape the
    rules need (R-C1, R-C7), then what it means for play (``--simulate N``: N games
    between medium bots at each table size, 2 to 4). Returns the exit code."""
    from gloomtable.games.creatures.cards import CREATURE_SET, SHIPPED_SET, CreatureSetError, load_set

    try:
        found = CREATURE_SET if path == SHIPPED_SET else load_set(path)
    except CreatureSetError as exc:
        err.print(str(exc), highlight=False, markup=False)
        return 1
    by_number = {c.number: c.penalty for c in found.creatures}
    print(f"{found.source}: {found.name} is a valid Crazy Creatures set (id {found.id!r})")
    print(f"  creatures: {len(found.creatures)} ("
          + ", ".join(f"{c.key} {c.creature}" for c in found.colours) + ")")
    print("  penalty by number: " + ", ".join(f"{n}: {p}" for n, p in sorted(by_number.items())))
    print(f"  machines: + {found.plus.name} / - {found.minus.name}")
    warnings = []
    if not any(by_number.values()):
        warnings.append(f"{found.source}: numbers: field penalty: every card costs 0 penalty "
                        "points, so a round scores only the -3 for going out (R-C10): every "
                        "game ends 0 to 0 but for that; give some numbers a penalty")
    for line in warnings:
        print(f"warning: {line}")
    if simulate > 0:
        from gloomtable.designer.playtest import CAPPED_WARN
        from gloomtable.simulate import simulate as run

        print(f"simulating {simulate} games at each table size (2, 3, 4 players), medium bots:")
        for n in (2, 3, 4):
            rep = run("creatures", {"players": n, "sets": [path]}, simulate, seed, ["medium"],
                      workers=workers or 0).to_dict()
            seats = " / ".join(f"{s:.1%}" for s in rep["win_share_by_seat"])
            print(f"  {n} players: capped {rep['capped']:.1%} ({rep['capped_games']} of "
                  f"{rep['games']}), mean {rep['mean_rounds']:.1f} rounds, win share by seat {seats}")
            if rep["capped"] > CAPPED_WARN:
                line = (f"{found.source}: simulate: at {n} players {rep['capped']:.1%} of games "
                        f"stopped at the turn cap (more than {CAPPED_WARN:.0%})")
                warnings.append(line)
                print(f"warning: {line}")
    print(f"0 error(s), {len(warnings)} warning(s)")
    return 1 if strict and warnings else 0


def register(app: typer.Typer, deck_app: typer.Typer) -> None:
    """Add the designer commands to the ``gloom`` app and its ``deck`` group."""
    deck_app.command("new", help=_("Write a small valid starter deck to edit: two families, every kind "
                                    "of card."))(deck_new)
    deck_app.command("gallery", help=_("Write one self-contained page drawing every card, with a stack "
                                        "builder."))(deck_gallery)
    app.command("balance", help=_("Simulate a deck on every core; report its balance as HTML charts "
                                   "and JSON."))(balance)
