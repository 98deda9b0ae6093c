"""Turns: who plays next, skipped turns, the turn cap, and drawing up.

Rules: R-G14 (at the end of a turn the player draws up to their draw limit, 5
changed by lasting effects; the next player in turn order plays), R-G10 (turn
order runs from the first player). **Decision:** a draw limit is never below 1; a
table's ``turn_cap`` ends the game and scores it as it stands.
"""

from __future__ import annotations

from functools import lru_cache

import gloomtable.games.gloom.messages as M
from gloomtable.engine import Event
from gloomtable.games.gloom.rules.board import Board
from gloomtable.games.gloom.rules.lasting import held_steps
from gloomtable.games.gloom.rules.scoring import end_game
from gloomtable.games.gloom.tasks import PLAY_FOR

BASE_DRAW_LIMIT = 5  # R-G14


@lru_cache(maxsize=4096)
def _turn_event(turn: int, p: int) -> Event:
    """Turn ``turn`` begins: player ``p`` plays."""
    return Event("turn", M.TURN, (turn, p), p)


def draw_limit(s: Board, p: int) -> int:
    """R-G14: 5, changed by the lasting effects that apply to ``p``.
    **Decision:** never below 1."""
    total = BASE_DRAW_LIMIT
    steps = held_steps(s, p)
    if not steps:
        return total
    for step in steps:
        if step.name == "draw_limit":
            total += step.param
        elif step.name == "draw_limit_per_icon":
            total += step.param.n * s.count_icons(p, step.param.icon)
    return max(1, total)


def begin_turn(s: Board, p: int) -> None:
    """``p``'s turn begins, or the next one's if ``p`` must skip it; the table's cap
    on turns may end the game instead."""
    cap = s.game.turn_cap
    while True:
        if cap and s.turn >= cap:
            s.capped = True
            s.emit("cap", M.CAP, (cap,))
            end_game(s)
            return
        s.turn += 1
        s.turn_player = p
        s.counted_used = 0
        s.free_plays = []
        if s.skips[p]:
            s.skips[p] -= 1
            s.emit("skipped", M.SKIPPED, (p,), player=p)
            p = (p + 1) % s.n
            continue
        s.events.append(_turn_event(s.turn, p))
        if s.game.has_turn_draw:
            extra = 0
            for st in held_steps(s, p):
                if st.name == "turn_draw":
                    extra += st.param
            if extra:
                s.draw(p, extra)
        s.decision = PLAY_FOR[p]
        return


def end_turn(s: Board) -> None:
    """R-G14: draw up to the draw limit; the next player plays."""
    p = s.turn_player
    want = draw_limit(s, p) - len(s.hands[p])
    if want > 0:
        s.draw(p, want)
    begin_turn(s, (p + 1) % s.n)
