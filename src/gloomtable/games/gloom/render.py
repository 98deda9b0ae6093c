"""The table as plain text, for the terminal and ``render_mode="ansi"``.

A pure function of what ``player`` may see: it reads the view, never the state's
hidden parts, so it cannot leak a card."""

from __future__ import annotations

from typing import Any

from gloomtable.games.gloom.cards import BLANK, Card
from gloomtable.games.gloom.rules.board import Board
from gloomtable.games.gloom.view import CharacterView, StoryView, build_view


def _slots(values: list[Any], fmt: str) -> str:
    out = []
    for v in values:
        if v is None:
            out.append("·")
        elif v == BLANK:
            out.append("▮")
        else:
            out.append(format(v, fmt))
    return "/".join(out)


def _character_lines(ch: CharacterView, cards: tuple[Card, ...]) -> str:
    mark = "☠ " if ch["dead"] else "  "
    icons = ", ".join(ch["icons"]) or "no icons"
    name = ch["name"] + (" (Guest)" if ch["guest"] else "")
    out = [f" {mark}{name:<32} Self-Worth {ch['self_worth']:+4d}  "
           f"points {_slots(ch['points'], '+d')}  icons {icons}"]
    if len(ch["stack"]) > 1:
        stack = " < ".join(cards[c].name for c in ch["stack"][1:])
        out.append(f"      stack (bottom to top): {stack}")
    for c in ch["live_effects"]:
        out.append(f"      live effect: {cards[c].name}: {cards[c].text}")
    return "\n".join(out)


def _story_line(st: StoryView) -> str:
    need = ", ".join(f"{n} {icon}" for icon, n in st["requires"].items())
    return f"  Story {st['name']} (needs {need}): {st['text']}"


def render_text(state: Board, player: int | None) -> str:
    view = build_view(state, player)
    cards = state.cards
    lines: list[str] = []
    if view["over"]:
        lines.append(f"The game ended on turn {view['turn']} (round {view['round']}).")
    elif view["turn"] == 0:
        lines.append(f"Setting up the table: player {view['turn_player'] + 1} will play first.")
    else:
        lines.append(f"Turn {view['turn']} (round {view['round']}), player "
                     f"{view['turn_player'] + 1} to play; {view['plays_left']} play(s) left"
                     + (f", free: {', '.join(view['free_plays'])}" if view["free_plays"] else ""))
    lines.append(f"Draw pile {view['draw_pile']}, discard pile {len(view['discard'])}, "
                 f"hands {view['hand_sizes']}")
    if view["characters_available"]:
        lines.append("Characters still to choose: "
                     + ", ".join(ch["name"] for ch in view["characters_available"]))
    middle = view["middle"]
    if middle["guests"] or middle["stories"]:
        lines.append("\nIn the middle, uncontrolled:")
        lines.extend(_character_lines(ch, cards) for ch in middle["guests"])
        lines.extend(_story_line(st) for st in middle["stories"])
    for fam in view["families"]:
        p = fam["player"]
        me = " (you)" if p == player else ""
        lines.append(f"\nPlayer {p + 1}{me}: Family Value {fam['family_value']}, "
                     f"draw limit {view['draw_limits'][p]}"
                     + (f", skips {view['skips'][p]} turn(s)" if view["skips"][p] else ""))
        if fam["story"] is not None:
            lines.append(_story_line(fam["story"]))
        lines.extend(_character_lines(ch, cards) for ch in fam["characters"] + fam["guests"])
    if view["in_play"]:
        lines.append("\nBeing played: " + ", ".join(cards[c].name for c in view["in_play"]))
    if view["hand"] is not None and player is not None:  # a seat's view: its own hand
        lines.append(f"\nYour hand ({len(view['hand'])}, draw limit "
                     f"{view['draw_limits'][player]}):")
        for c in view["hand"]:
            card = cards[c]
            pts = _slots(list(card.points), "+d") if any(
                x is not None for x in card.points) else ""
            icons = _slots(list(card.icons), "") if any(i is not None for i in card.icons) else ""
            bits = "  ".join(b for b in (pts and f"points {pts}", icons and f"icons {icons}") if b)
            lines.append(f"  [{card.type}] {card.name}  {bits}" + (
                f"\n      {card.text}" if card.text else ""))
    res = view["result"]
    if res is not None:  # the game is over
        lines.append("\nGame over. Family Values: " + ", ".join(
            f"player {p + 1}: {s}" for p, s in enumerate(res["scores"])))
        won = [f"player {w + 1}" for w in res["winners"]]
        lines.append(("Winner: " if len(won) == 1 else "Winners: ")
                     + (", ".join(won[:-1]) + " and " + won[-1] if len(won) > 1 else won[0])
                     + (" (the turn cap ended the game)" if res["capped"] else ""))
    return "\n".join(lines)
