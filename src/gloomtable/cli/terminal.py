"""Terminal play: one person against bots, or several people on one keyboard.

The client sees only ``view(seat)`` renders and event lines filtered for the
seat, like any other client. A response window in which a person's only choice
is "let it stand" is answered for them without a prompt (RULES R-G20): every
seat is asked either way, so nothing shows who held a response.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rich.console import Console

from gloomtable.bots import bot_action, seat_bots
from gloomtable.engine import DecisionKind, Game, GloomtableError, State
from gloomtable.engine.record import GameRecord
from gloomtable.games import registry
from gloomtable.i18n.client import Localizer, localizer_for

console = Console(highlight=False, soft_wrap=True)


class Quit(Exception):
    """The person asked to stop."""


def ask(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError:
        raise Quit from None


def _grouped(state: State, legal: list[int], seat: int,
             loc: Localizer) -> list[tuple[str, str, list[tuple[int, str]]]]:
    """Collapse "play X on A", "play X on B" into one entry with a target sub-menu,
    targets listed family by family starting with the seat's own.
    Each entry is (menu label, what it plays, [(action, target)])."""
    _ = loc.tr.gettext
    groups: dict[str, tuple[str, list[tuple[int, str, int]]]] = {}
    n = len(state.view(seat).get("hand_sizes", [])) or 1
    for a in legal:
        parts = loc.action_parts(state, a)
        if parts is None:
            text = loc.action(state, a)
            # Identical texts (two copies of one card) are the same choice to a person.
            groups.setdefault(text, (text, [(a, text, 0)]))
        else:
            what = parts[0]
            groups.setdefault(_("{play} on …").format(play=what), (what, []))[1].append(
                (a, parts[1], (parts[2] - seat) % n))
    return [(label, what, [(a, t) for a, t, _k in sorted(m, key=lambda x: x[2])])
            for label, (what, m) in groups.items()]


def choose_number(prompt: str, count: int, allow_back: bool = False,
                  loc: Localizer | None = None) -> int | None:
    """Ask for 1..count; re-ask with the reason on bad input. ``None`` means back.
    ``q`` quits and ``b`` goes back in every language (the prompts say so)."""
    _ = (loc or _english()).tr.gettext
    while True:
        raw = ask(prompt).strip().lower()
        if raw in ("q", "quit", "exit"):
            raise Quit
        if allow_back and raw in ("b", "back", ""):
            return None
        if not raw.isdigit():
            msg = (_("Please type a number from 1 to {count}, b to go back, or q to quit.")
                   if allow_back else _("Please type a number from 1 to {count}, or q to quit."))
            console.print("  " + msg.format(count=count))
            continue
        n = int(raw)
        if not 1 <= n <= count:
            console.print("  " + _("{n} is not on the list: choose 1 to {count}.").format(
                n=n, count=count))
            continue
        return n - 1


def _english() -> Localizer:
    from gloomtable.i18n.catalog import translator

    return Localizer(translator("en"))


def human_turn(state: State, seat: int, news: list[str],
               loc: Localizer | None = None) -> tuple[int, str | None]:
    """Show the table and what happened, then get one legal action (and narration)."""
    loc = loc or _english()
    _ = loc.tr.gettext
    legal = state.legal_actions()
    if news:
        console.print("[bold]" + _("Since your last decision:") + "[/]")
        for line in news[-30:]:
            console.print(f"  {line}", markup=False)
        news.clear()
    console.print()
    console.print(loc.render(state, seat), markup=False)
    view = state.view(seat)
    kind = state.decision.kind
    console.print("\n[bold]" + _("Player {p}, your decision ({kind}):").format(
        p=seat + 1, kind=loc.decision(kind)) + "[/]", markup=True)
    groups = _grouped(state, legal, seat, loc)
    while True:
        for i, (label, _what, _members) in enumerate(groups):
            console.print(f"  {i + 1:>2}. {label}", markup=False)
        picked = choose_number(_("Choose (q to quit): "), len(groups), loc=loc)
        assert picked is not None
        label, what, members = groups[picked]
        if len(members) == 1:
            action = members[0][0]
            break
        console.print("  " + _("{play} on which?").format(play=what), markup=False)
        for j, (_a, target) in enumerate(members):
            console.print(f"    {j + 1:>2}. {target}", markup=False)
        target_pick = choose_number("  " + _("Target (b to go back): "), len(members), allow_back=True,
                                    loc=loc)
        if target_pick is not None:
            action = members[target_pick][0]
            break
    narration = None
    codec = getattr(state, "codec", None)  # a play of a card, by its decoded kind
    played = codec is not None and codec.decode(action).kind.name in ("PLAY", "PLAY_EVENT")
    entry = registry.find(view.get("game"))
    if entry is not None and entry.tells_stories and kind == DecisionKind.PLAY and played:
        line = ask(_("Tell how it happened (optional, Enter to skip): ")).strip()
        narration = line[:300] or None
    return action, narration


def play_terminal(game: Game, seed: int, humans: int, bots: str, save: Path | None,
                  lang: str = "en") -> None:
    """Run one game: people at seats ``0..humans-1``, bots of level ``bots`` elsewhere,
    every text in ``lang`` (the engine's own English lines go through the localizer)."""
    loc = localizer_for(game, lang)
    _, ngettext = loc.tr.gettext, loc.tr.ngettext
    n = game.num_players
    state = game.new_initial_state(seed)
    record = GameRecord.of(game, seed)
    agents = seat_bots(bots, game.name, seed, list(range(humans, n)))
    news: dict[int, list[str]] = {p: [] for p in range(humans)}
    last_human: int | None = None
    entry = registry.find(game.name)
    title = game.name if entry is None else _(entry.short_title)
    who = _("You are player 1") if humans == 1 else ngettext(
        "{n} person", "{n} people", humans).format(n=humans)
    if n > humans:
        names = {"random": _("random"), "easy": _("easy"), "medium": _("medium"), "hard": _("hard"),
                 "sensible": _("sensible"), "heuristic": _("heuristic")}
        level = ",".join(names.get(b.strip(), b.strip()) for b in bots.split(","))
        who += ", " + ngettext("{n} {level} bot", "{n} {level} bots", n - humans).format(
            n=n - humans, level=level)
    console.print(f"[bold]{title}[/]: " + _("{n} players, seed {seed}.").format(n=n, seed=seed)
                  + f" {who}. " + _("Type q to quit."))
    try:
        while not state.is_over():
            p = state.current_player()
            legal = state.legal_actions()
            narration = None
            if p in agents:
                action = bot_action(agents[p], state, legal)
            elif len(legal) == 1 and state.decision.kind == DecisionKind.RESPOND:
                action = legal[0]  # nothing to answer with: pass silently (R-G20)
            else:
                if humans > 1 and last_human != p:
                    console.print("\n" * 3 + "[bold]" + _("Pass the keyboard to player {p}.").format(
                        p=p + 1) + "[/]")
                    ask(_("Press Enter when ready. "))
                last_human = p
                action, narration = human_turn(state, p, news[p], loc)
            if narration:
                record.narration[len(record.actions)] = narration
            events = state.apply(action)
            record.actions.append(action)
            for h in news:
                if narration and p != h:
                    news[h].append(_('Player {p}: "{narration}"').format(p=p + 1, narration=narration))
                news[h].extend(loc.event(e.for_player(h)) for e in events)
            if humans == 0:
                for e in events:
                    console.print(loc.event(e.for_player(None)), markup=False)
    except (Quit, KeyboardInterrupt):
        console.print("\n" + _("Stopped."))
        if save is not None:
            _save(record, save, loc)
        return
    for h in news:
        if news[h]:
            console.print("[bold]" + _("Last moves, as player {p} saw them:").format(p=h + 1) + "[/]")
            for line in news[h][-15:]:
                console.print(f"  {line}", markup=False)
            break
    console.print()
    console.print(loc.render(state, None), markup=False)
    if save is not None:
        _save(record, save, loc)


def _save(record: GameRecord, path: Path, loc: Localizer | None = None) -> None:
    _, ngettext = (loc or _english()).tr.gettext, (loc or _english()).tr.ngettext
    try:
        record.save(path)
    except OSError as exc:
        console.print("[red]" + _("Could not save the record to {path}: {reason}").format(
            path=path, reason=exc.strerror) + "[/]", markup=True)
        fallback = Path(f"gloom-record-{record.seed}.json")
        try:
            record.save(fallback)
            console.print(_("Saved it to {path} instead.").format(path=fallback))
        except OSError:
            sys.stdout.write(record.to_json() + "\n")
        return
    console.print(ngettext("Record saved to {path} ({n} action).", "Record saved to {path} ({n} actions).",
                           len(record.actions)).format(path=path, n=len(record.actions)))


__all__ = ["GloomtableError", "play_terminal"]
