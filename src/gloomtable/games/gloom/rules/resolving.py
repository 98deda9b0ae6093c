"""Resolving played cards: the task queue that runs effects in order.

Rules: R-G15 (a card's effects happen in printed order, each finished before the
next), R-G16 (the target's controller resolves a card played on a Character; an
Event is resolved by its player and then discarded), R-G17 (a card moved by an
effect does not trigger again), R-G21 (a Character requirement looks at the icons
shown when the card was played, see :mod:`effects`), R-G22 (the beginner game
ignores effects). Lasting effects (R-G18, R-G19) are in :mod:`lasting`.
**Decision:** nobody resolves a card played on a Guest in the middle.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import gloomtable.games.gloom.messages as M
from gloomtable.games.gloom.cards import CardType
from gloomtable.games.gloom.effects import PRIMITIVES as _PRIMITIVES
from gloomtable.games.gloom.rules.board import Board
from gloomtable.games.gloom.rules.responses import ask_respond
from gloomtable.games.gloom.rules.scoring import check_end
from gloomtable.games.gloom.rules.stories import follow
from gloomtable.games.gloom.rules.triggers import fire
from gloomtable.games.gloom.rules.turn import draw_up, end_turn
from gloomtable.games.gloom.tasks import (
    ASK_RESPONSES,
    DISCARD_EVENT,
    DRAW_UP,
    FINISH_PLAY,
    FOLLOW,
    PLAY_FOR,
    RUNNING,
    TASK,
    Task,
    new,
)

_EVENT: Final = CardType.EVENT
_DEATH: Final = CardType.UNTIMELY_DEATH
_DEATH_MSG: Final = M.DEATH
PRIMITIVES: Final = _PRIMITIVES  # (Final: see tasks.TASK)


def finish_play(s: Board, task: Task) -> None:
    """The played card lands (or is discarded, if cancelled) and its immediate
    effects are queued (R-G15, R-G16)."""
    ctx = task[1]  # (task.ctx: by position, see tasks.py)
    resolver, c, target = ctx[0], ctx[1], ctx[2]
    if s.cancelled:
        s.cancelled = False
        s.limbo.remove(c)
        s.discard.append(c)
        return
    card = s.cards[c]
    if card.type is _EVENT:
        # R-G16: an Event is resolved by its player, then discarded.
        s.queue.append(new(TASK, (DISCARD_EVENT, ctx, None, (), ())))
    else:
        s.limbo.remove(c)
        s.lay(target, c)
        if card.type is _DEATH:
            owner = s.controller[target]
            s.emit("death", _DEATH_MSG, (target, c),
                   card=c, target=target, player=owner if owner >= 0 else None)
            if check_end(s):
                return
        if s.guests:
            s.queue.append(Task(FOLLOW, ctx, None))  # after the effects (R-H7)
        if s.facts.triggers:  # after the card's own effects, before a Guest follows
            owner = s.controller.get(target, -1)
            if card.type is _DEATH and "death" in s.facts.triggers:
                fire(s, "death", owner, target)
            if "played_on" in s.facts.triggers:
                fire(s, "played_on", owner, target, card)
    if resolver < 0:
        return  # **Decision:** nobody resolves a card played on a Guest in the middle
    if not s.facts.beginner:
        for steps in s.facts.immediate[c]:  # its immediate effects, in printed order
            s.push_steps(ctx, steps)


def discard_event(s: Board, task: Task) -> None:
    """R-G16: an Event goes to the discard pile once its effects are resolved."""
    c = task[1][1]  # task.ctx.card
    s.limbo.remove(c)
    s.discard.append(c)


def draw_up_task(s: Board, task: Task) -> None:
    """The end of a turn, once the triggers waiting for it are resolved."""
    draw_up(s)


def resume(s: Board, task: Task, action: int) -> None:
    """An effect that asked a question goes on with the answer."""
    PRIMITIVES[task.step].handler(s, task, action)  # type: ignore[misc]


def run(s: Board) -> None:
    """Run queued tasks until someone is asked a question or the game ends."""
    queue = s.queue
    running = s.decision
    if running[1] is not RUNNING:  # (running.kind: by position, see tasks.py)
        return
    # Any question, or the game's end (the OVER decision), replaces the running decision.
    while s.decision is running:
        if not queue:
            if s.counted_used < 2 or s.free_plays:  # the turn player may still play
                s.decision = PLAY_FOR[s.turn_player]
            else:
                end_turn(s)
            continue
        task = queue.pop()
        step = task[0]  # (task.step, by position: see tasks.py)
        if step is FINISH_PLAY:  # (the commonest engine step, called straight: no lookup)
            finish_play(s, task)
            continue
        own = ENGINE_STEPS.get(step)
        if own is not None:
            own(s, task)
        else:
            PRIMITIVES[step].handler(s, task, None)  # type: ignore[misc]


ENGINE_STEPS: Final[dict[str, Callable[[Board, Task], None]]] = {
    FINISH_PLAY: finish_play,
    ASK_RESPONSES: ask_respond,
    DISCARD_EVENT: discard_event,
    FOLLOW: follow,
    DRAW_UP: draw_up_task,
}
"""The engine's own queued steps, by name (anything else is an effect primitive)."""
