"""Responses: cancelling a card as another player plays it.

Rules: R-G20 (when a card of a type some response can cancel is played, every other
player in turn order may answer with a response card; an answered card is
cancelled and discarded). **Decision:** every other player is asked, with or
without a response in hand, so nobody can tell who holds one; clients may answer a
lone 'pass' themselves.
"""

from __future__ import annotations

from typing import Final

import gloomtable.games.gloom.messages as M
from gloomtable.engine import Event
from gloomtable.games.gloom.actions import MAX_PLAYERS, Codec
from gloomtable.games.gloom.rules.board import Board
from gloomtable.games.gloom.tasks import ASK_RESPONSES, CTX, DECISION, RESPOND, TASK, Task, new

PASS: Final = Codec.PASS  # (a class attribute read through an instance is slow)
_LET_IT_STAND: Final = (PASS,)
"""The options of a player asked to respond with no answer in hand."""

_SEATS: Final = tuple((i,) for i in range(MAX_PLAYERS))
"""``(i,)``, the data of the task that asks the player ``i`` seats after the turn player."""

_LET_STAND_EVENTS: Final = tuple(Event("respond_pass", M.LET_STAND, (p,), p)
                          for p in range(MAX_PLAYERS))


def respond_options(s: Board, q: int, played: int) -> tuple[int, ...]:
    """What ``q`` may answer ``played`` with: let it stand, or a response card that
    cancels its type (R-G20)."""
    answers = s.facts.answered_by[played]
    hand = s.hands[q]
    if answers.isdisjoint(hand):  # most hands hold no answer
        return _LET_IT_STAND
    base = s.codec.respond_base
    options = [PASS]
    for c in sorted(answers.intersection(hand)):  # (a loop: a comprehension's closure costs every call)
        options.append(base + c)
    return tuple(options)


def ask_respond(s: Board, task: Task) -> None:
    """Ask the next other player in turn order (``task.data[0]`` seats after the turn
    player), unless the card is already cancelled or everyone was asked."""
    if not s.cancelled:
        idx, n = task[3][0], s.n  # (task.data[0], by position)
        if idx < n:
            q = (s.turn_player + idx * s.direction) % n
            s.decision = new(DECISION, (q, RESPOND, respond_options(s, q, task[1][1]), task))


def respond(s: Board, p: int, task: Task, action: int) -> None:
    """``p``, asked by ``task``, lets the card stand (the next player is asked) or cancels it."""
    ctx = task[1]  # (task.ctx: by position, see tasks.py)
    if action == PASS:
        s.events.append(_LET_STAND_EVENTS[p])
        # Ask the next player now, as the task queue would do next (nobody has
        # cancelled the card: the window closes when someone does).
        idx = task[3][0] + 1
        n = s.n
        if idx < n:  # (else everyone was asked: no task for the next seat; as ask_respond asks)
            q = (s.turn_player + idx * s.direction) % n
            s.decision = new(DECISION, (q, RESPOND, respond_options(s, q, ctx[1]),
                                        new(TASK, (ASK_RESPONSES, ctx, None, _SEATS[idx], ()))))
        return
    c = action - s.codec.respond_base
    s.hands[p].remove(c)
    s.discard.append(c)
    s.cancelled = True
    s.emit("response", M.RESPONSE, (p, c, ctx.card), player=p, card=c, target=ctx.card)
    more = s.facts.response_steps.get(c) if s.facts.response_steps else None
    if more:  # a response that does more than cancel: its responder resolves the rest
        s.push_steps(new(CTX, (p, c, -1, ())), more)
