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

from gloomtable.bots import bot_action, make_bot
from gloomtable.engine import Game, GloomtableError, State
from gloomtable.engine.record import GameRecord

console = Console(highlight=False, soft_wrap=True)


class Quit(Exception):
    """The person asked to stop."""


def ask(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError:
        raise Quit from None


def decision_kind(view: dict) -> str:
    """The open decision's kind, whichever shape the game's view gives it."""
    d = view.get("decision")
    if isinstance(d, dict):
        return str(d.get("kind", ""))
    return str(d or "")


def _grouped(state: State, legal: list[int], seat: int) -> list[tuple[str, list[tuple[int, str]]]]:
    """Collapse "play X on A", "play X on B" into one entry with a target sub-menu,
    targets listed family by family starting with the seat's own."""
    groups: dict[str, list[tuple[int, str, int]]] = {}
    parts_of = getattr(state, "action_parts", None)
    n = len(state.view(seat).get("hand_sizes", [])) or 1
    for a in legal:
        parts = parts_of(a) if parts_of is not None else None
        if parts is None:
            text = state.action_to_string(a)
            # Identical texts (two copies of one card) are the same choice to a person.
            groups.setdefault(text, [(a, text, 0)])
        else:
            groups.setdefault(f"{parts[0]} on …", []).append((a, parts[1], (parts[2] - seat) % n))
    return [(label, [(a, t) for a, t, _ in sorted(m, key=lambda x: x[2])])
            for label, m in groups.items()]


def choose_number(prompt: str, count: int, allow_back: bool = False) -> int | None:
    """Ask for 1..count; re-ask with the reason on bad input. ``None`` means back."""
    while True:
        raw = ask(prompt).strip().lower()
        if raw in ("q", "quit", "exit"):
            raise Quit
        if allow_back and raw in ("b", "back", ""):
            return None
        if not raw.isdigit():
            console.print(f"  Please type a number from 1 to {count}"
                          + (", b to go back" if allow_back else "") + ", or q to quit.")
            continue
        n = int(raw)
        if not 1 <= n <= count:
            console.print(f"  {n} is not on the list: choose 1 to {count}.")
            continue
        return n - 1


def human_turn(state: State, seat: int, news: list[str]) -> tuple[int, str | None]:
    """Show the table and what happened, then get one legal action (and narration)."""
    legal = state.legal_actions()
    if news:
        console.print("[bold]Since your last decision:[/]")
        for line in news[-30:]:
            console.print(f"  {line}", markup=False)
        news.clear()
    console.print()
    console.print(state.render(seat), markup=False)
    view = state.view(seat)
    kind = decision_kind(view)
    console.print(f"\n[bold]Player {seat + 1}, your decision ({kind.replace('_', ' ')}):[/]")
    groups = _grouped(state, legal, seat)
    while True:
        for i, (label, _) in enumerate(groups):
            console.print(f"  {i + 1:>2}. {label}", markup=False)
        i = choose_number("Choose (q to quit): ", len(groups))
        assert i is not None
        label, members = groups[i]
        if len(members) == 1:
            action = members[0][0]
            break
        console.print(f"  {label.removesuffix(' on …')} on which?")
        for j, (_, target) in enumerate(members):
            console.print(f"    {j + 1:>2}. {target}", markup=False)
        j = choose_number("  Target (b to go back): ", len(members), allow_back=True)
        if j is not None:
            action = members[j][0]
            break
    narration = None
    if view.get("game") == "gloom" and kind == "play" and state.action_to_string(action).startswith("play"):
        line = ask("Tell how it happened (optional, Enter to skip): ").strip()
        narration = line[:300] or None
    return action, narration


def play_terminal(game: Game, seed: int, humans: int, bots: str, save: Path | None) -> None:
    """Run one game: people at seats ``0..humans-1``, bots of level ``bots`` elsewhere."""
    n = game.num_players
    state = game.new_initial_state(seed)
    record = GameRecord(game.name, game.config_dict(), seed)
    agents = {p: make_bot(bots, game.name, seed * 31 + p) for p in range(humans, n)}
    news: dict[int, list[str]] = {p: [] for p in range(humans)}
    last_human: int | None = None
    console.print(f"[bold]{game.name}[/] for {n} players, seed {seed}. "
                  f"{'You are player 1' if humans == 1 else f'{humans} people'}"
                  f"{f', {n - humans} {bots} bot(s)' if n > humans else ''}. Type q to quit.")
    try:
        while not state.is_over():
            p = state.current_player()
            legal = state.legal_actions()
            narration = None
            if p in agents:
                action = bot_action(agents[p], state, legal)
            elif len(legal) == 1 and decision_kind(state.view(p)) == "respond":
                action = legal[0]  # nothing to answer with: pass silently (R-G20)
            else:
                if humans > 1 and last_human != p:
                    console.print("\n" * 3 + f"[bold]Pass the keyboard to player {p + 1}.[/]")
                    ask("Press Enter when ready. ")
                last_human = p
                action, narration = human_turn(state, p, news[p])
            if narration:
                record.narration[len(record.actions)] = narration
            events = state.apply(action)
            record.actions.append(action)
            for h in news:
                if narration and p != h:
                    news[h].append(f'Player {p + 1}: "{narration}"')
                news[h].extend(str(e.for_player(h)) for e in events)
            if humans == 0:
                for e in events:
                    console.print(str(e.for_player(None)), markup=False)
    except (Quit, KeyboardInterrupt):
        console.print("\nStopped.")
        if save is not None:
            _save(record, save)
        return
    for h in news:
        if news[h]:
            console.print(f"[bold]Last moves, as player {h + 1} saw them:[/]")
            for line in news[h][-15:]:
                console.print(f"  {line}", markup=False)
            break
    console.print()
    console.print(state.render(None), markup=False)
    if save is not None:
        _save(record, save)


def _save(record: GameRecord, path: Path) -> None:
    try:
        record.save(path)
    except OSError as exc:
        console.print(f"[red]Could not save the record to {path}: {exc.strerror}[/]")
        fallback = Path(f"gloom-record-{record.seed}.json")
        try:
            record.save(fallback)
            console.print(f"Saved it to {fallback} instead.")
        except OSError:
            sys.stdout.write(record.to_json() + "\n")
        return
    console.print(f"Record saved to {path} ({len(record.actions)} actions).")


__all__ = ["GloomtableError", "play_terminal"]
