"""What one state's table shows, kept: every speed cache of the Gloom engine, behind
this one boundary.

The cardinal rule is asked about the same stacks over and over (every legal-move list
asks every living Character's Self-Worth), and every play decision asks who lives
and the play ids on them, while stacks change only when a card lands or leaves. So
each state owns one :class:`Seen`, and the only ways to change a stack are the
board's moves (:class:`~gloomtable.games.gloom.rules.board.Board`: ``lay``,
``lift_top``, ``lift``, ``put_stack``, ``drop_stack``), which tell it what changed.

Nothing here is shared: a clone gets its own copy, so threads playing different
states never meet, and no count or memo lives outside a state. What it keeps is
exact, not a guess:

- ``shown[c]`` is what shows on stack ``c`` while ``lists[c]`` is that very list
  object: a stack put in by hand (``state.stacks[c] = [...]``, as views rebuilt into
  states and tests do) is another object, so it is worked out afresh; a whole new
  ``state.stacks`` dict starts everything afresh.
- the table facts (who lives, their play rows, who is negative) hold while the board's
  moves keep them up and the families and Guests are as they were. A family's list is
  held as that very list (its members are compared only when it is another list): as
  with a stack, the board's moves are the only ways to change one in place
  (``put_stack``, ``drop_stack``, ``change_family`` come with every rule that does).
- ``moved`` lists every stack a board move touched, in order, since these facts were
  made: a reader that remembers how far it read (the RL observer) finds what changed
  since it last looked without comparing every stack. It grows by one id per move up
  to :data:`MOVES_KEPT`, then a new list starts (a reader holding the old one looks at
  every stack once); a clone starts an empty one.
- each player's lasting steps (``held``, R-G18, R-G19) hold while no stack holding a
  lasting card (``lasting``) has a card laid on it, nothing is lifted off a stack and
  no stack comes or goes, for the very family list they were worked out for: laying
  a card on a stack that holds no lasting card shows no lasting effect there.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Final

from gloomtable.games.gloom.actions import Codec
from gloomtable.games.gloom.cards import Step, Visible

Pick = Callable[[tuple[int, ...]], tuple[int, ...]]
"""Picks the ids on some target slots out of a card's play ids on every slot."""


_itemgetter: Final = operator.itemgetter  # (Final: the compiled build reads it straight)


def picker(slots: list[int]) -> Pick:
    """The :data:`Pick` of the ids at target ``slots`` (sorted), in one call. (An
    itemgetter of one item gives the item, not a tuple: one slot, or none, is picked
    as a slice.)"""
    pick: Pick
    if len(slots) > 1:
        pick = _itemgetter(*slots)
    elif slots:
        pick = _itemgetter(slice(slots[0], slots[0] + 1))
    else:
        pick = _itemgetter(slice(0, 0))
    return pick


_PICK_NONE: Final = picker([])


MOVES_KEPT = 4096
"""Board moves ``Seen.moved`` holds at most (a game of the default 500-turn cap makes
about a thousand). (Not ``Final``, unlike the constants around it: the compiled build
would build the number in, and a test sets it lower to see the journal start over.)"""


class Seen:
    """One state's kept facts about its table (see the module docstring)."""

    __slots__ = ("below", "death_pick", "dirty", "families", "guests", "held", "lasting", "lists",
                 "living", "moved", "negative", "pick", "picked_for", "rows", "shown", "stacks")

    def __init__(self, stacks: dict[int, list[int]]) -> None:
        self.stacks = stacks
        """The stacks dict these facts speak for."""
        self.lists: dict[int, list[int]] = {}
        """Stack -> the list object ``shown`` (or ``below``) was worked out for."""
        self.shown: dict[int, Visible] = {}
        self.below: dict[int, Visible] = {}
        """What showed on a stack before the card the board laid last (the new Visible
        is that plus one card)."""
        self.living: tuple[int, ...] | None = None
        """The living targets, once asked (None: to work out)."""
        self.families: list[list[int]] = []
        self.guests: list[int] = []
        self.rows: dict[int, tuple[int, ...]] = {}
        """Card -> its play ids on the living, in id order, filled as asked."""
        self.pick: Pick = _PICK_NONE
        """Picks a card's row out of its ids on every target slot."""
        self.picked_for: tuple[int, ...] | None = None
        """The living ``pick`` is for."""
        self.negative: set[int] | None = None
        """Target slots with negative Self-Worth, once asked."""
        self.death_pick: Pick | None = None
        """Picks an Untimely Death's ids on the slots in ``negative`` (None: to make again
        from ``negative``, which changed)."""
        self.dirty: list[int] = []
        """Living Characters whose Self-Worth may have changed since ``negative``."""
        self.moved: list[int] = []
        """Every stack a board move touched since these facts were made, in order."""
        self.held: dict[int, tuple[list[int], list[Step]]] = {}
        """Player -> (the family list, the lasting steps it holds), once asked."""
        self.lasting: frozenset[int] = frozenset()
        """The cards with a lasting effect (the game's, once ``held`` is filled)."""

    def copy_for(self, old: dict[int, list[int]], new: dict[int, list[int]]) -> Seen:
        """These facts for a clone whose stacks ``new`` copy ``old`` (what shows carries
        over; the table facts are worked out again when asked)."""
        out = Seen(new)
        if self.stacks is old:
            lists, shown = self.lists, self.shown
            keep = out.shown
            for c, stack in old.items():
                v = shown.get(c)
                if v is not None and lists.get(c) is stack:
                    keep[c] = v
            out.lists = dict(new)
        return out

    # --- what the board's moves tell ----------------------------------------------

    def _moved(self, c: int) -> None:
        """The stack of ``c`` was touched: noted in ``moved``, which never holds more
        than :data:`MOVES_KEPT` (an endless game must not grow it for good)."""
        moved = self.moved
        if len(moved) >= MOVES_KEPT:
            moved = self.moved = []  # a new list: its readers see it is not the one they read
        moved.append(c)

    def laid(self, c: int, stack: list[int], died: bool, slot: int) -> None:
        """A card was laid on ``stack`` (the stack of ``c``, at target slot ``slot``);
        ``died``: it was an Untimely Death."""
        moved = self.moved
        if len(moved) >= MOVES_KEPT:
            moved = self.moved = []  # as _moved does (inlined: every play lays a card)
        moved.append(c)
        v = self.shown.pop(c, None)
        if v is not None and self.lists.get(c) is stack:
            self.below[c] = v
        else:
            self.below.pop(c, None)
        if self.held and not self.lasting.isdisjoint(stack):
            self._unhold(c)  # a stack with a lasting card changed: what it shows may have
        living = self.living
        if living is None:
            return
        if c not in living:
            self.living = None  # not a play the rules make: work everything out again
            return
        if not died:
            self.dirty.append(c)
            return
        self._died(c, slot)

    def _died(self, c: int, slot: int) -> None:
        """The living Character ``c`` (at target slot ``slot``) died. (Apart from
        :meth:`laid`, whose every call would otherwise make ``c`` a closure cell.)"""
        living = list(self.living or ())
        living.remove(c)  # (laid made sure it is there; the living appear once each)
        self.living = tuple(living)
        self.rows = {}
        if self.negative is not None and slot in self.negative:
            self.negative.discard(slot)
            self.death_pick = None
        dirty = self.dirty
        while c in dirty:  # (seldom there: most deaths land on a stack not laid on since)
            dirty.remove(c)

    def lifted(self, c: int, top_only: bool) -> None:
        """A card left the stack of ``c``: the top one (a Modifier, or an Untimely Death
        if ``c`` was dead) if ``top_only``."""
        self._moved(c)
        self.shown.pop(c, None)
        self.below.pop(c, None)
        if self.held:
            self._unhold(c)
        if self.living is not None and top_only and c in self.living:
            self.dirty.append(c)  # a living stack loses its top Modifier: only its Self-Worth moves
        else:
            self.living = None  # anything else (a revival, a card out of the middle) may move who lives

    def regrouped(self, c: int) -> None:
        """The stack of ``c`` came or went: who lives is to work out again."""
        moved = self.moved
        if len(moved) >= MOVES_KEPT:
            moved = self.moved = []  # as _moved does (inlined: a whole family comes at once)
        moved.append(c)
        self.living = None
        if self.held:
            self.held.clear()

    def _unhold(self, c: int) -> None:
        """The lasting steps kept for the family holding ``c`` are to work out again."""
        held = self.held
        for p, kept in held.items():
            if c in kept[0]:
                del held[p]
                return  # (a Character is in one family)

    def keep_held(self, p: int, family: list[int], steps: list[Step], lasting: frozenset[int]) -> None:
        """``p``'s lasting steps, worked out for their ``family`` (the very list);
        ``lasting``: the game's cards with a lasting effect."""
        self.lasting = lasting
        self.held[p] = (family, steps)

    # --- the table facts ----------------------------------------------------------

    def hold(self, families: list[list[int]], guests: list[int]) -> bool:
        """Whether the table facts are known and the families and Guests unchanged."""
        return self.living is not None and self.families == families and self.guests == guests

    def settle(self, living: list[int], families: list[list[int]], guests: list[int]) -> None:
        """Table facts worked out afresh: ``living`` now."""
        self.living = tuple(living)
        self.families = list(families)  # the very family lists (see the module docstring)
        self.guests = list(guests)
        self.rows = {}
        self.negative = None
        self.death_pick = None
        self.dirty = []

    def row(self, c: int, codec: Codec) -> tuple[int, ...]:
        """The play ids of card ``c`` on the living, in id order."""
        row = self.rows.get(c)
        if row is None:
            if self.picked_for is not self.living:
                self._repick(codec)
            row = self.rows[c] = self.pick(codec.all_plays[c])
        return row

    def _repick(self, codec: Codec) -> None:
        """``pick`` for the living now."""
        slot = codec.char_slot
        self.pick = picker(sorted([slot[t] for t in self.living or ()]))
        self.picked_for = self.living
