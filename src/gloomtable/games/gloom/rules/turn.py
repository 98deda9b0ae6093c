"""Turns: who plays next, skipped turns, the turn cap, and drawing up.

Rules: R-G14 (at the end of a turn the player draws up to their draw limit, 5
changed by lasting effects; the next player in turn order plays), R-G10 (turn
order runs from the first player). **Decision:** a draw limit is never below 1; a
table's ``turn_cap`` ends the game and scores it as it stands.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

import gloomtable.games.gloom.messages as M
from gloomtable.engine import Event
from gloomtable.games.gloom import effects
from gloomtable.games.gloom.rules.board import Board
from gloomtable.games.gloom.rules.lasting import held_steps
from gloomtable.games.gloom.rules.scoring import end_game
from gloomtable.games.gloom.rules.triggers import fire
from gloomtable.games.gloom.tasks import DRAW_UP, EVENT, PLAY_FOR, Ctx, Task, new

BASE_DRAW_LIMIT: Final = 5  # R-G14
LIMITS: Final = effects.LIMITS  # (Final: see tasks.TASK)
OTHERS_LIMITS: Final = effects.OTHERS_LIMITS
TURN_DRAWS: Final = effects.TURN_DRAWS


@lru_cache(maxsize=4096)
def _turn_event(turn: int, p: int) -> Event:
    """Turn ``turn`` begins: player ``p`` plays. (Built by field position, see tasks.py.)"""
    return new(EVENT, ("turn", M.TURN, (turn, p), p, None, None, None, None, None, (), None))


def draw_limit(s: Board, p: int) -> int:
    """R-G14: 5, changed by the lasting effects that apply to ``p``.
    **Decision:** never below 1."""
    total = BASE_DRAW_LIMIT
    if s.facts.shared_limits:
        total += others_limit(s, p)
    steps = held_steps(s, p)
    if not steps:
        return max(1, total)
    for step in steps:
        hook = LIMITS.get(step.name)
        if hook is not None:
            total += hook(s, p, step.param)
    return max(1, total)


def others_limit(s: Board, p: int) -> int:
    """What the lasting effects other players hold add to ``p``'s draw limit."""
    total = 0
    for q in range(s.n):
        if q != p:
            for step in held_steps(s, q):
                hook = OTHERS_LIMITS.get(step.name)
                if hook is not None:
                    total += hook(step.param)
    return total


def begin_turn(s: Board, p: int) -> None:
    """``p``'s turn begins, or the next one's if ``p`` must skip it; the table's cap
    on turns may end the game instead."""
    cap = s.facts.turn_cap
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
            p = (p + s.direction) % s.n
            continue
        s.events.append(_turn_event(s.turn, p))
        if s.facts.has_turn_draw:
            extra = 0
            for st in held_steps(s, p):
                hook = TURN_DRAWS.get(st.name)
                if hook is not None:
                    extra += hook(st.param)
            if extra:
                s.draw(p, extra)
        if s.facts.triggers and "turn_start" in s.facts.triggers and fire(s, "turn_start", p, -1):
            return  # the triggers run first; the play decision follows them (resolving.run)
        s.decision = PLAY_FOR[p]
        return


def end_turn(s: Board) -> None:
    """R-G14: draw up to the draw limit; the next player plays. Triggers waiting for the
    turn's end happen first."""
    if s.facts.triggers and "turn_end" in s.facts.triggers:
        s.queue.append(Task(DRAW_UP, Ctx(s.turn_player, -1, -1, ()), None))
        fire(s, "turn_end", s.turn_player, -1)
        return
    draw_up(s)


def draw_up(s: Board) -> None:
    """R-G14: the turn player draws up to their draw limit; the next player plays."""
    p = s.turn_player
    want = draw_limit(s, p) - len(s.hands[p])
    if want > 0:
        s.draw(p, want)
    begin_turn(s, (p + s.direction) % s.n)
