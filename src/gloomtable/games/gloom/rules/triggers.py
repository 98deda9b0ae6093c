"""Triggers: lasting effects that wait for something to happen on the table.

A lasting (continuous or persistent) step ``on`` names an event (a Character dies, a
card is played on a Character, a turn starts or ends) and whose it must be; while its
effect holds (R-G18, R-G19) and the event happens, its nested steps are queued for
the controller of the stack that shows it, in turn order from the turn player, after
what is resolving now. The beginner game ignores them (R-G22). **Decision:** a
Character's own "when this dies" trigger is read from its stack as it showed just
before the Death landed (a dead stack's effects no longer hold, so nothing else
could ever see it), and only its ``whose = "this"`` triggers fire: "whenever one of
your Characters dies" means another one. A card's own ``played_on`` trigger does not
fire for its own arrival.
"""

from __future__ import annotations

from typing import Any

from gloomtable.games.gloom.cards import Card, Step
from gloomtable.games.gloom.effects import TRIGGERS
from gloomtable.games.gloom.rules.board import Board
from gloomtable.games.gloom.tasks import Ctx


def _whose(param: Any, holder: int, carrier: int, player: int, char: int) -> bool:
    whose: str = param.whose
    if whose == "any":
        return True
    if char < 0:  # a turn's event: ``player`` is whose turn it is
        return (player == holder) == (whose != "others")
    if whose == "this":
        return char == carrier
    return (player == holder) == (whose == "yours")


def _waiting(steps: tuple[Step, ...], event: str) -> list[Step]:
    out = []
    for st in steps:
        hook = TRIGGERS.get(st.name)
        if hook is not None and hook(st.param) == event:
            out.append(st)
    return out


def fire(s: Board, event: str, player: int, char: int, card: Card | None = None) -> bool:
    """Queue every live trigger waiting for ``event``: ``player`` is whose Character
    ``char`` it happened to (or whose turn it is, with ``char`` -1); ``card`` is the
    card played on it. Returns whether any was queued."""
    if s.facts.beginner or s.over:
        return False
    found: list[tuple[int, int, Step]] = []
    # a card's own trigger does not see the card itself arrive
    own = {id(st) for e in card.effects for st in e.steps} if card is not None else set()
    lasting_cards, deaths, stacks = s.facts.lasting_cards, s.facts.deaths, s.stacks
    for q in s.turn_order_from(s.turn_player):
        for c in s.members(q):
            stack = stacks[c]
            if c == char and event == "death":
                if len(stack) < 2:
                    continue
                steps = s.facts.stack_visible(tuple(stack[:-1])).lasting_steps
            elif stack[-1] in deaths or lasting_cards.isdisjoint(stack):
                continue
            else:
                steps = s.visible_of(c).lasting_steps
            for st in _waiting(steps, event):
                if id(st) in own:
                    continue
                if c == char and event == "death" and st.param.whose != "this":
                    continue  # a dying Character's own triggers wait for its own death only
                if _whose(st.param, q, c, player, char) and (card is None or st.param.matches(card)):
                    found.append((q, c, st))
    for holder, carrier, st in reversed(found):
        target = char if char >= 0 else carrier
        icons = s.visible_of(target).icons if target in stacks else ()
        s.push_steps(Ctx(holder, -1, target, icons), st.steps)
    return bool(found)
