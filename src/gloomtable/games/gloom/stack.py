"""A Character's stack of cards that remembers what shows on it.

The cardinal rule is asked about the same stacks over and over (every legal-move
list asks every living Character's Self-Worth), while stacks change only when a
card lands or leaves. :class:`Stack` is a plain ``list`` of card indices that
keeps the last :class:`~gloomtable.games.gloom.cards.Visible` worked out for it
and forgets it on any change, whoever makes the change.

Facts about the whole table (who lives, whose Self-Worth is negative) are asked on
every play decision too. ``Stack.changes`` moves on every change to any stack and
every stack put into or taken out of a :class:`StackTable`, so a cache of such
facts knows it still holds while the value has not moved.
"""

from __future__ import annotations

from itertools import count
from typing import Any, SupportsIndex

from gloomtable.games.gloom.cards import Visible

_TICKS = count(1)
"""Where ``Stack.changes`` takes its values. ``next`` is one indivisible step, so even
when threads change stacks at once (the server's bots search in worker threads) every
change stores a value never stored before, and a count someone noted never comes back:
``changes += 1`` could lose an update and land on a value already noted."""


def _forgets(name: str) -> Any:
    method = getattr(list, name)

    def mutate(self: Stack, *args: Any, **kw: Any) -> Any:
        self.vis = self.below = None
        Stack.changes = next(_TICKS)
        return method(self, *args, **kw)

    mutate.__name__ = name
    return mutate


def _counts(name: str) -> Any:
    method = getattr(dict, name)

    def mutate(self: StackTable, *args: Any, **kw: Any) -> Any:
        Stack.changes = next(_TICKS)
        return method(self, *args, **kw)

    mutate.__name__ = name
    return mutate


class Stack(list[int]):
    """Card indices, bottom (the Character or Guest) first. ``vis`` is what shows, once
    worked out; ``below`` (unset until a card is laid on top) what showed before the last
    card, if that was the last change and it had been worked out: the new Visible is that
    plus one card."""

    __slots__ = ("below", "vis")
    changes = 0
    """Moves to a fresh value on every change to any stack or stack table (so a cache
    that noted it holds while it stands)."""

    def __init__(self, cards: Any = (), vis: Visible | None = None) -> None:
        super().__init__(cards)
        self.vis: Visible | None = vis

    def append(self, card: int) -> None:  # spelt out: a card lands on every play
        self.below, self.vis = self.vis, None
        Stack.changes = next(_TICKS)
        list.append(self, card)

    def pop(self, index: SupportsIndex = -1) -> int:
        self.vis = self.below = None
        Stack.changes = next(_TICKS)
        return list.pop(self, index)

    extend = _forgets("extend")
    insert = _forgets("insert")
    remove = _forgets("remove")
    clear = _forgets("clear")
    sort = _forgets("sort")
    reverse = _forgets("reverse")
    __setitem__ = _forgets("__setitem__")
    __delitem__ = _forgets("__delitem__")
    __iadd__ = _forgets("__iadd__")
    __imul__ = _forgets("__imul__")

    def copy(self) -> Stack:  # type: ignore[override]
        return Stack(self, self.vis)

    def __reduce__(self) -> Any:
        return (Stack, (list(self),))


class StackTable(dict[int, list[int]]):
    """Character (or Guest) -> its stack: a ``dict`` that counts putting a stack in or
    taking one out as a change (see ``Stack.changes``)."""

    __slots__ = ()

    __setitem__ = _counts("__setitem__")
    __delitem__ = _counts("__delitem__")
    __ior__ = _counts("__ior__")
    pop = _counts("pop")
    popitem = _counts("popitem")
    clear = _counts("clear")
    update = _counts("update")
    setdefault = _counts("setdefault")
