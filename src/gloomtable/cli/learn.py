"""``gloom learn``: a guided first game in the terminal (lessons in gloomtable.learn).

Each step is printed in the learner's language; the choices that do what the step
asks are marked; another choice gets the step's explanation and is not played.
``--auto`` plays the lesson through by itself (demos and tests), printing each step.
Lines wrap at word boundaries to the terminal's width, a step speaks of what the
terminal shows (its ``say_terminal``), and the choices are grouped as ``gloom play``
groups them: one line per card, its targets asked next.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from gloomtable.cli.terminal import Quit, _grouped, choose_number
from gloomtable.i18n.cli_language import CLI as LANG
from gloomtable.i18n.cli_language import _
from gloomtable.i18n.client import Localizer, localizer_for
from gloomtable.learn import LEARNER, Guide, LessonError, lesson_for
from gloomtable.learn.guide import N_

console = Console(highlight=False)
"""Wraps words at the terminal's width (rich measures it; ``COLUMNS`` overrides)."""

WEB_WRONG = N_("Not quite: this step asks for something else. "
               "The highlighted choices are the ones it asks for.")
"""The guide's reminder speaks of the web page's highlights; the terminal marks with *."""

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
    except (KeyboardInterrupt, EOFError, Quit):
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
            say = step.say_terminal or step.say
            console.print(tr(say if not guide.free or step.free_play is None else step.free_play),
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
        if not outcome.done and outcome.why:
            why = (_("Not quite: this step asks for something else. The choices marked * are the ones "
                     "it asks for.") if outcome.why == WEB_WRONG else tr(outcome.why))
            console.print(why, style="yellow", markup=False)
    else:
        raise LessonError(f"lesson {guide.lesson.id!r} did not end within {AUTO_LIMIT} moves")
    for event in guide.log[seen_events:]:
        console.print("  " + loc.event(event.for_player(LEARNER)), markup=False)
    console.print()
    console.print(loc.render(guide.state, None), markup=False)
    console.print(f"\n[bold]{tr(guide.lesson.end)}[/]")


def _ask(guide: Guide, loc: Localizer, fitting: set[int]) -> int:
    """Show the table and the choices, grouped as ``gloom play`` groups them (a card
    once, its targets asked next; * marks what the step asks for), and read one."""
    console.print()
    console.print(loc.render(guide.state, LEARNER), markup=False)
    groups = _grouped(guide.state, guide.state.legal_actions(), LEARNER, loc)
    while True:
        for i, (label, _what, members) in enumerate(groups):
            mark = "*" if any(a in fitting for a, _t in members) else " "
            console.print(f" {mark}{i + 1:>3}. {label}", markup=False)
        if fitting:
            console.print(_("The choices marked * do what this step asks."))
        picked = choose_number(_("Choose (q to quit): "), len(groups), loc=loc)
        assert picked is not None
        _label, what, members = groups[picked]
        if len(members) == 1:
            return members[0][0]
        console.print("  " + _("{play} on which?").format(play=what), markup=False)
        for j, (action, name) in enumerate(members):
            mark = "*" if action in fitting else " "
            console.print(f"  {mark}{j + 1:>3}. {name}", markup=False)
        target = choose_number("  " + _("Target (b to go back): "), len(members), allow_back=True, loc=loc)
        if target is not None:
            return members[target][0]
