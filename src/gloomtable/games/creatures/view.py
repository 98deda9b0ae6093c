"""What one seat may see of a Crazy Creatures state, as JSON and as text.

The observer is separate from the rules so the hiding is in one place: other
hands, the Reserve and the set-aside cards appear only as counts, so no card
id of theirs can reach a client. Card ids appear only in the piles (public)
and in the viewer's own hand, always under the key ``"id"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict, cast

from gloomtable.engine import DecisionKind, ResultView
from gloomtable.games.creatures.cards import (
    COLOUR,
    COLOUR_KEYS,
    DNA_NUMBERS,
    FITS,
    LABEL,
    NUMBER,
    SHIPPED_SET,
)
from gloomtable.games.creatures.table import CreaturesPosition

_SIDES = ("-", "+")


class PileCard(TypedDict):
    id: int
    number: int


class MachineView(TypedDict):
    """One colour's Machine and its pile (R-C6, R-C7)."""

    colour: str
    creature: str
    side: str
    """``"+"`` (Growing Machine up) or ``"-"`` (Minimalizer up)."""
    machine: str
    top: int | None
    """The number on top of the pile; None while it is empty."""
    pile: list[PileCard]


class HandCard(TypedDict):
    id: int
    colour: str
    number: int
    penalty: int
    dna: bool
    playable: bool
    """It fits its colour's pile now."""


class Choice(TypedDict):
    action: int
    text: str


class CreaturesView(TypedDict):
    """Everything one seat (or a spectator: ``viewer`` None) may see of a Crazy
    Creatures game. The seat's own ``hand`` only in a seat's view; ``legal_actions``
    and ``choices`` only for the seat to move; ``result`` only once it is over."""

    game: str
    set: str
    viewer: int | None
    players: int
    round: int
    rounds: int
    start_player: int
    current_player: int
    decision: DecisionKind | None
    machines: list[MachineView]
    hand_counts: list[int]
    reserve_count: int
    aside_count: int
    passes_in_row: int
    closer: int | None
    final_turns_left: int | None
    totals: list[int]
    round_scores: list[list[int]]
    turns: int
    over: bool
    hand: NotRequired[list[HandCard]]
    legal_actions: NotRequired[list[int]]
    choices: NotRequired[list[Choice]]
    result: NotRequired[ResultView]


def creatures_view(view: Mapping[str, Any]) -> CreaturesView:
    """A view from the engine protocol (``State.view``) as the Crazy Creatures view it
    is, for a client that knows its game; another game's view is refused."""
    if "machines" not in view:
        raise TypeError(f"not a view of a Crazy Creatures game: {view.get('game')!r}")
    return cast(CreaturesView, view)


def make_view(state: CreaturesPosition, player: int | None) -> CreaturesView:
    """A JSON-ready dict of what ``player`` sees (``None``: a spectator)."""
    n = state.game.players
    if player is not None and not 0 <= player < n:
        raise ValueError(f"no seat {player} at a {n}-player table")
    tops = [NUMBER[p[-1]] if p else 0 for p in state.piles]
    game = state.game  # the shipped set or a variant: its names and penalties
    names, penalty, side_names = game.creature_names, game.penalty, game.side_names
    machines: list[MachineView] = [{
        "colour": COLOUR_KEYS[c], "creature": names[c], "side": _SIDES[state.plus[c]],
        "machine": side_names[state.plus[c]], "top": tops[c] or None,
        "pile": [{"id": x, "number": NUMBER[x]} for x in state.piles[c]],
    } for c in range(len(state.piles))]
    view: CreaturesView = {
        "game": "creatures",
        "set": game.card_set.id,
        "viewer": player,
        "players": n,
        "round": min(state.round + 1, state.game.num_rounds),
        "rounds": state.game.num_rounds,
        "start_player": state.start_player,
        "current_player": state.current_player(),
        "decision": None if state.over else state.decision.kind,
        "machines": machines,
        "hand_counts": [len(h) for h in state.hands],
        "reserve_count": len(state.reserve),
        "aside_count": len(state.aside),
        "passes_in_row": state.passes,
        "closer": state.closer if state.closer >= 0 else None,
        "final_turns_left": state.final_left if state.closer >= 0 else None,
        "totals": state.totals[:],
        "round_scores": [r[:] for r in state.round_scores],
        "turns": state.turns,
        "over": state.over,
    }
    if player is not None:
        plus = state.plus
        view["hand"] = [{
            "id": c, "colour": COLOUR_KEYS[COLOUR[c]], "number": NUMBER[c], "penalty": penalty[c],
            "dna": NUMBER[c] in DNA_NUMBERS,
            "playable": FITS[plus[COLOUR[c]]][tops[COLOUR[c]]][NUMBER[c]],
        } for c in state.hands[player]]
        if not state.over and player == state.current:
            legal = state.legal_actions()
            view["legal_actions"] = legal
            view["choices"] = [{"action": a, "text": state.action_to_string(a)} for a in legal]
    if state.over:
        view["result"] = state.result().to_dict()
    return view


def render(state: CreaturesPosition, player: int | None) -> str:
    """A multi-line text picture of ``player``'s view, for the terminal."""
    v = make_view(state, player)
    n = v["players"]
    you = "spectating" if player is None else f"you are player {player + 1}"
    card_set = state.game.card_set
    title = "Crazy Creatures" + ("" if card_set.id == SHIPPED_SET else f" ({card_set.name})")
    if v["over"]:
        head = f"{title}: game over after {len(v['round_scores'])} rounds ({you})"
    else:
        what = "decides: flip a Machine or make another player draw" \
            if v["decision"] == DecisionKind.SAME_NUMBER else "to play"
        head = (f"{title}: round {v['round']} of {v['rounds']}, "
                f"player {v['current_player'] + 1} {what} ({you})")
    lines = [head, "Machines:"]
    for m in v["machines"]:
        pile = " ".join(str(c["number"]) for c in m["pile"][:-1])
        top = f"[{m['top']}]" if m["top"] else "(empty)"
        lines.append(f"  {m['colour']:<7}{m['creature']:<12} {m['side']} {m['machine']:<16}"
                     f" pile: {pile + ' ' if pile else ''}{top}")
    lines.append(f"Reserve: {v['reserve_count']} face down; set aside: {v['aside_count']} unseen")
    if v["closer"] is not None:
        lines.append(f"Player {v['closer'] + 1} is out: {v['final_turns_left']} final turn(s) left")
    for q in range(n):
        mark = ">" if q == v["current_player"] else " "
        name = f"player {q + 1}" + (" (you)" if q == player else "")
        rounds = ", ".join(f"{r[q]:+d}" for r in v["round_scores"])
        lines.append(f" {mark} {name:<16}{v['hand_counts'][q]:>3} cards   total {v['totals'][q]:>3}"
                     + (f"   rounds: {rounds}" if rounds else ""))
    if player is not None:
        hand = "  ".join(("*" if c["playable"] else "") + LABEL[c["id"]] for c in v["hand"])
        pen = sum(c["penalty"] for c in v["hand"])
        lines.append(f"Your hand ({pen} penalty): {hand or '(empty)'}   (* fits a pile now)")
        if "choices" in v:
            lines.append("Your choices: " + "; ".join(f"{c['action']}={c['text']}"
                                                       for c in v["choices"]))
    if v["over"]:
        res = v["result"]
        winners = " and ".join(f"player {w + 1}" for w in res["winners"])
        lines.append(f"Winner: {winners}" + ("  (stopped at the turn cap)" if res["capped"] else ""))
    return "\n".join(lines)
