"""``gloom learn``: a guided first game in the terminal (lessons in gloomtable.learn).

Each step is printed in the learner's language; the choices that do what the step
asks are marked; another choice gets the step's explanation and is not played.
``--auto`` plays the lesson through by itself (demos and tests), printing each step.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from gloomtable.i18n.cli_language import CLI as LANG
from gloomtable.i18n.cli_language import _
from gloomtable.i18n.client import Localizer, localizer_for
from gloomtable.learn import LEARNER, Guide, LessonError, lesson_for

console = Console(highlight=False, soft_wrap=True)

AUTO_LIMIT = 2000
"""Learner actions after which ``--auto`` gives up on a lesson (a broken lesson file)."""


def learn(
    game: Annotated[str, typer.Option(
        "--game", "-g", help=_("gloom, gloomier or creatures, or a lesson file (.toml)."))] = "gloom",
    auto: Annotated[bool, typer.Option(help=_("Play the lesson through by itself, printing each step."))
                    ] = False,
    lang: Annotated[str | None, typer.Option("--lang", help=_(
        "Language: {langs} (default: from LANG).").format(langs="en, es, ru"))] = None,
) -> None:
    """A guided first game: each step says what to look at and what to do."""
    from gloomtable.cli.common import fail, set_language

    set_language(lang)
    try:
        guide = Guide(lesson_for(game))
    except LessonError as exc:
        fail(str(exc))
    loc = localizer_for(guide.game, LANG.lang)
    try:
        run(guide, loc, auto)
    except LessonError as exc:
        fail(str(exc))
    except (KeyboardInterrupt, EOFError):
        console.print("\n" + _("Stopped."))


def run(guide: Guide, loc: Localizer, auto: bool) -> None:
    """Drive ``guide`` to its end, by the person at the keyboard or by itself."""
    tr = loc.tr.gettext
    console.print(f"[bold]{tr(guide.lesson.title)}[/]")
    shown: int | None = None
    seen_events = 0
    for _turn in range(AUTO_LIMIT):
        for event in guide.log[seen_events:]:
            console.print("  " + loc.event(event.for_player(LEARNER)), markup=False)
        seen_events = len(guide.log)
        if guide.finished:
            break
        step = guide.step
        if step is not None and shown != guide.index:
            shown = guide.index
            heading = _("Step {n} of {total}").format(n=guide.index + 1, total=len(guide.lesson.steps))
            console.print(f"\n[bold cyan]{heading}[/]")
            console.print(tr(step.say if not guide.free or step.free_play is None else step.free_play),
                          markup=False)
        if step is not None and step.expect is None:
            if not auto:
                input(_("Press Enter to go on. "))
            guide.next()
            continue
        fitting = set(guide.fitting())
        if auto:
            action = guide.auto_action()
            console.print("  > " + loc.action(guide.state, action), markup=False)
            outcome = guide.act(action)
            if not outcome.done:
                raise LessonError(f"lesson {guide.lesson.id!r}: the demo's move was refused: "
                                  f"{outcome.why}")
            continue
        action = _ask(guide, loc, fitting)
        outcome = guide.act(action)
        if not outcome.done:
            console.print("[yellow]" + tr(outcome.why) + "[/]")
    else:
        raise LessonError(f"lesson {guide.lesson.id!r} did not end within {AUTO_LIMIT} moves")
    for event in guide.log[seen_events:]:
        console.print("  " + loc.event(event.for_player(LEARNER)), markup=False)
    console.print()
    console.print(loc.render(guide.state, None), markup=False)
    console.print(f"\n[bold]{tr(guide.lesson.end)}[/]")


def _ask(guide: Guide, loc: Localizer, fitting: set[int]) -> int:
    """Show the table and the choices (the ones the step asks for marked) and read one."""
    console.print()
    console.print(loc.render(guide.state, LEARNER), markup=False)
    legal = guide.state.legal_actions()
    for i, action in enumerate(legal):
        mark = "*" if action in fitting else " "
        console.print(f" {mark}{i + 1:>3}. {loc.action(guide.state, action)}", markup=False)
    if fitting:
        console.print(_("The choices marked * do what this step asks."))
    while True:
        raw = input(_("Choose (q to quit): ")).strip().lower()
        if raw in ("q", "quit", "exit"):
            raise KeyboardInterrupt
        if raw.isdigit() and 1 <= int(raw) <= len(legal):
            return legal[int(raw) - 1]
        console.print(_("Please type a number from 1 to {count}, or q to quit.").format(count=len(legal)))
