"""Gloom cards as immutable values, and the cardinal rule.

The cardinal rule (R-G4): cards stack squarely; for each region, what shows is
what the topmost card printing into that region prints. Self-Worth, icons and
live effects are all derived from :func:`visible` and never stored.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any, Final, cast

from gloomtable.games.gloom.step_hooks import WORTHS

SLOTS = ("top", "middle", "bottom")
"""The three point slots (left edge) and the three icon slots (right edge)."""

BLANK = "blank"
CLASSIC_ICONS = ("beast", "death", "duck", "goblet", "lucre", "romance")
GLOOMIER_ICONS = ("murder", "investigation")


class CardType(StrEnum):
    CHARACTER = "character"
    MODIFIER = "modifier"
    EVENT = "event"
    UNTIMELY_DEATH = "untimely_death"
    GUEST = "guest"
    STORY = "story"

    def __str__(self) -> str:
        return self.value.replace("_", " ")


class Region(int, Enum):
    """The regions a card may print into (R-G3). Values index :class:`Visible`."""

    POINTS_TOP = 0
    POINTS_MIDDLE = 1
    POINTS_BOTTOM = 2
    ICON_TOP = 3
    ICON_MIDDLE = 4
    ICON_BOTTOM = 5
    TEXT = 6
    PORTRAIT = 7
    PERSISTENT_ICON = 8


NUM_REGIONS = len(Region)
_TEXT = int(Region.TEXT)


@dataclass(frozen=True, slots=True)
class Step:
    """One effect primitive with its validated parameter (``if_icon`` nests)."""

    name: str
    param: Any
    icon: str | None = None
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True, slots=True)
class Effect:
    """``when`` is immediate, continuous, persistent or response."""

    when: str
    steps: tuple[Step, ...]


SHIFTING: Final = [False]
"""Whether any card built in this process shifts Self-Worth: until one does, no stack
looks for a shift (the classic sets never pay for it)."""


def _shift(v: Visible) -> int:
    """What the live lasting steps of a stack add to its Self-Worth."""
    extra = 0
    for st in v.lasting_steps:
        hook = WORTHS.get(st.name)
        if hook is not None:
            extra += hook(st.param, v.icons)
    return int(extra)


@dataclass(frozen=True, slots=True)
class Card:
    """A card of a deck. ``index`` is its id within the game (actions use it)."""

    index: int
    key: str
    type: CardType
    name: str
    points: tuple[int | None, int | None, int | None] = (None, None, None)
    icons: tuple[str | None, str | None, str | None] = (None, None, None)
    text: str = ""
    flavour: str = ""
    family: str | None = None
    prints_text: bool = False
    prints_portrait: bool = False
    prints_persistent_icon: bool = False
    persistent_requires: tuple[Region, ...] = (Region.PERSISTENT_ICON,)
    effects: tuple[Effect, ...] = ()
    set_id: str = ""
    back_key: str | None = None
    """A double-sided Character's reverse side (a Guest or a Story), by card key (R-H1)."""
    requires: tuple[tuple[str, int], ...] = ()
    """A Story's requirement: (icon, count) pairs its claimer's family must show (R-H5)."""
    gender: str | None = None
    """A Character's or Guest's grammatical gender (feminine, masculine, plural), for
    translations that inflect; ``None`` when the deck does not say (read as masculine)."""
    shifts_worth: bool = False
    """A lasting step of this card changes its stack's Self-Worth (``worth_per_icon``)."""
    prints: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    """Which regions this card prints into, indexed by :class:`Region`."""

    def __post_init__(self) -> None:
        if self.shifts_worth:
            SHIFTING[0] = True
        object.__setattr__(self, "prints", (
            *(p is not None for p in self.points),
            *(i is not None for i in self.icons),
            self.prints_text,
            self.prints_portrait,
            self.prints_persistent_icon,
        ))

    def effects_when(self, when: str) -> tuple[Effect, ...]:
        return tuple(e for e in self.effects if e.when == when)

    def __str__(self) -> str:
        return self.name


# Two small memos for building a Visible without a comprehension per stack (a new
# stack is worked out on nearly every play): few distinct keys ever occur.
_PRINTED: Final[dict[tuple[bool, ...], tuple[int, ...]]] = {}
_COUNTED_ICONS: Final[dict[tuple[str | None, ...], tuple[str, ...]]] = {}


def _printed_regions(prints: tuple[bool, ...]) -> tuple[int, ...]:
    """The regions a card with these ``prints`` prints into."""
    regions = _PRINTED[prints] = tuple(r for r, printed in enumerate(prints) if printed)
    return regions


def _counted_icons(icon_slots: tuple[str | None, ...]) -> tuple[str, ...]:
    """R-G6: of the icon slots as shown, the icons that count (a blank hides and shows nothing)."""
    icons = _COUNTED_ICONS[icon_slots] = tuple(
        i for i in icon_slots if i is not None and i != BLANK)
    return icons


class Visible:
    """What shows on a stack: for each region, the stack position of the card
    showing there, or -1 where nothing prints (R-G4). Everything a rule asks of a
    stack (points, Self-Worth, icons) is worked out once, when it is built; the
    positions and the cards of one built by :meth:`on_top` only when first asked."""

    __slots__ = ("_below", "_card", "_lasting", "_shown_by", "_stack", "height", "icon_slots", "icons",
                 "points", "self_worth", "view_facts")

    def __new__(cls, *args: object) -> Visible:
        """A bare instance, so that :meth:`on_top` can fill one in without
        ``__init__``. (Spelled out for the compiled build, whose classes make an instance
        only through their own ``__new__``; in Python it is ``object.__new__``.)"""
        return object.__new__(cls)

    def __init__(self, shown_by: tuple[int, ...], stack: tuple[Card, ...]) -> None:
        self._shown_by: tuple[int, ...] | None = shown_by
        self._stack: tuple[Card, ...] | None = stack
        self._below: Visible | None = None
        """The stack below the top card, which ``shown_by`` and ``stack`` are worked out
        from (None for a stack built whole)."""
        self._card: Card | None = None
        self.height: int = len(stack)
        """How many cards the stack holds."""
        t, m, b, it, im, ib = shown_by[:6]
        top, mid, bottom = self.points = (
            None if t < 0 else stack[t].points[0],
            None if m < 0 else stack[m].points[1],
            None if b < 0 else stack[b].points[2],
        )
        self.self_worth: int = (top or 0) + (mid or 0) + (bottom or 0)
        """R-G5: the sum of the visible point values."""
        self.icon_slots: tuple[str | None, ...] = (
            None if it < 0 else stack[it].icons[0],
            None if im < 0 else stack[im].icons[1],
            None if ib < 0 else stack[ib].icons[2],
        )
        """Each icon slot as shown: an icon name, ``"blank"``, or ``None``."""
        icons = _COUNTED_ICONS.get(self.icon_slots)  # (None: not yet met; () is a count too)
        self.icons: tuple[str, ...] = icons if icons is not None else _counted_icons(self.icon_slots)
        """R-G6: the icons that count (a blank hides and shows nothing)."""
        self._lasting: tuple[Step, ...] | None = None
        self.view_facts: Any = None
        """Slot for the view's per-stack facts (see ``view.character_view``)."""
        if SHIFTING[0] and any(c.shifts_worth for c in stack):
            self.self_worth += _shift(self)

    @property
    def shown_by(self) -> tuple[int, ...]:
        """For each region (:class:`Region`), the stack position of the card showing
        there, or -1."""
        shown = self._shown_by
        if shown is None:
            shown = self._work_out()[0]
        return shown

    @property
    def stack(self) -> tuple[Card, ...]:
        """The stack's cards, bottom first."""
        stack = self._stack
        if stack is None:
            stack = self._work_out()[1]
        return stack

    def _work_out(self) -> tuple[tuple[int, ...], tuple[Card, ...]]:
        """``shown_by`` and ``stack`` of a stack built by :meth:`on_top`: the card on top
        shows where it prints, what showed below shows everywhere else (R-G4). (The stack
        below is kept, not let go once this is done: a clone's state may share this
        Visible, and another thread may be working it out at the same moment.)"""
        below, card = self._below, self._card
        assert below is not None and card is not None
        shown = list(below.shown_by)
        pos = below.height
        prints = card.prints
        for region in _PRINTED.get(prints) or _printed_regions(prints):
            shown[region] = pos
        self._shown_by = shown_by = tuple(shown)
        self._stack = stack = (*below.stack, card)
        return shown_by, stack

    @property
    def lasting_steps(self) -> tuple[Step, ...]:
        """The steps of every live continuous and persistent effect (R-G18, R-G19)."""
        if self._lasting is None:
            # As live_effects("continuous") then ("persistent") would list them, without
            # their tuples: the draw limit asks this of every new stack of a family.
            steps: list[Step] = []
            text = self.shown_by[_TEXT]
            if text >= 0:
                steps += [st for e in self.stack[text].effects if e.when == "continuous"
                          for st in e.steps]
            steps += [st for card in self.persistent_cards() for e in card.effects
                      if e.when == "persistent" for st in e.steps]
            self._lasting = tuple(steps)
        return self._lasting

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Visible) and (self.shown_by, self.stack) == (other.shown_by, other.stack)

    def __hash__(self) -> int:
        return hash((self.shown_by, self.stack))

    def card_at(self, region: Region | int) -> Card | None:
        pos = self.shown_by[region]
        return None if pos < 0 else self.stack[pos]

    def on_top(self, card: Card) -> Visible:
        """This stack with ``card`` laid on top: the cardinal rule, one card at a time.
        Where ``card`` prints, it shows; everywhere else what showed still shows, so
        only its own regions are worked out (what ``__init__`` would find, region by
        region: a test holds the two equal), and which card shows where only when
        asked (most stacks are asked only their points and icons)."""
        prints = card.prints
        v = _bare_visible(Visible)
        v._below = self
        v._card = card
        v._shown_by = v._stack = None
        v.height = self.height + 1
        top, mid, bottom = self.points
        if prints[0] or prints[1] or prints[2]:
            points = card.points
            if prints[0]:
                top = points[0]
            if prints[1]:
                mid = points[1]
            if prints[2]:
                bottom = points[2]
            v.points = (top, mid, bottom)
            v.self_worth = (top or 0) + (mid or 0) + (bottom or 0)
        else:
            v.points, v.self_worth = self.points, self.self_worth
        if prints[3] or prints[4] or prints[5]:
            it, im, ib = self.icon_slots
            icons = card.icons
            if prints[3]:
                it = icons[0]
            if prints[4]:
                im = icons[1]
            if prints[5]:
                ib = icons[2]
            slots = v.icon_slots = (it, im, ib)
            counted = _COUNTED_ICONS.get(slots)
            v.icons = counted if counted is not None else _counted_icons(slots)
        else:
            v.icon_slots, v.icons = self.icon_slots, self.icons
        v._lasting = None
        v.view_facts = None
        if SHIFTING[0] and (card.shifts_worth or any(c.shifts_worth for c in self.stack)):
            top, mid, bottom = v.points
            v.self_worth = (top or 0) + (mid or 0) + (bottom or 0) + _shift(v)
        return v

    @property
    def text_card(self) -> Card | None:
        """The card whose effect text shows: its continuous effects are live (R-G18)."""
        return self.card_at(Region.TEXT)

    def persistent_cards(self) -> tuple[Card, ...]:
        """Cards whose persistent effects are live (R-G19): a card's effect holds while
        ANY region its data names (``persistent_requires``) shows that very card, and
        ends when all are covered. Only a card shown in some region can qualify, so
        just the (at most nine, usually two or three) shown positions are looked at."""
        shown, stack = self.shown_by, self.stack
        live = []
        for pos in sorted({p for p in shown if p >= 0}):
            card = stack[pos]
            for r in card.persistent_requires:
                if shown[r] == pos:
                    live.append(card)
                    break
        return tuple(live)

    def live_effects(self, when: str) -> tuple[Effect, ...]:
        """Effects of kind ``when`` that currently hold on this stack."""
        out: list[Effect] = []
        text = self.text_card
        if when == "continuous" and text is not None:
            out.extend(text.effects_when("continuous"))
        if when == "persistent":
            for card in self.persistent_cards():
                out.extend(card.effects_when("persistent"))
        return tuple(out)


_bare_visible: Final[Callable[[type[Visible]], Visible]] = (
    cast(Callable[[type[Visible]], Visible], object.__new__) if __file__.endswith(".py")
    else Visible.__new__)
"""A bare :class:`Visible` for :meth:`Visible.on_top` to fill in: ``object.__new__``
straight in Python (the class's own ``__new__`` is one more Python call on every card
laid); the compiled build's classes make an instance only through their own."""


def visible(stack: tuple[Card, ...] | list[Card]) -> Visible:
    """The cardinal rule: for each region, the topmost card printing there shows.

    ``stack[0]`` is the bottom (the Character); the last card is the top.
    """
    shown = [-1] * NUM_REGIONS
    remaining = NUM_REGIONS
    for pos in range(len(stack) - 1, -1, -1):
        prints = stack[pos].prints
        for region in range(NUM_REGIONS):
            if prints[region] and shown[region] < 0:
                shown[region] = pos
                remaining -= 1
        if remaining == 0:
            break
    return Visible(tuple(shown), tuple(stack))


_DECK_TYPES = (CardType.CHARACTER, CardType.MODIFIER, CardType.EVENT, CardType.UNTIMELY_DEATH)
"""The card types every deck file has a table of."""


@dataclass(frozen=True)
class Family:
    id: str
    name: str
    flavour: str
    characters: tuple[str, ...]  # card keys


@dataclass(frozen=True)
class Deck:
    """A validated deck: its cards (in file order) and families."""

    id: str
    name: str
    source: str
    cards: tuple[Card, ...]
    families: tuple[Family, ...]
    icons: tuple[str, ...]
    glyphs: tuple[tuple[str, str], ...] = ()
    """(icon, character) for the icons a deck adds that give one (``set.glyphs``)."""

    def of_type(self, t: CardType) -> list[Card]:
        return [c for c in self.cards if c.type is t]

    def counts(self) -> dict[str, int]:
        c = Counter(card.type.value for card in self.cards)
        out = {t.value: c.get(t.value, 0) for t in _DECK_TYPES}
        out.update({t.value: c[t.value] for t in (CardType.GUEST, CardType.STORY) if c[t.value]})
        return out
