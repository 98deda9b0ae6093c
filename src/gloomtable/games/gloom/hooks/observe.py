"""The environments' hot path to a Gloom observation: one public vector, kept.

``GloomEncoder.encode(state.view(seat))`` is the reference: it builds the view (what
the seat may know) and encodes it whole. An environment asks for an observation on
every step while a step changes a few cards, and everything but a seat's own hand is
public. So :class:`GloomObserver` keeps one table vector in absolute seats (the
observation seat 0 would get, less its hand and the "deciding" flag) and writes
again only the parts whose inputs changed since it was last asked: the discard, the
cards in play, the decision, the stacks the state's journal of board moves
(``Seen.moved``) names since it last read it (every stack compared once when it meets
another state), those whose controller changed, the counts. A seat's observation is
that vector with its per-seat slots put in the seat's relative order (one numpy
``take`` through a precomputed permutation, which is also the copy the caller keeps:
later steps never change it), then its own hand and whether it decides. It reads
exactly what the view shows (never another seat's hand); and
``tests/test_rl_encoding.py`` holds the result equal to ``encode`` slot by slot for
every seat at every step of whole games.

Every zone slot has one source (the discard, the cards in play, the card being
played, the draft, the stacks), so a source clears its old marks and sets its new
ones without touching another's. Floats are written through a ``memoryview`` of the
vector: one item for a fraction of what a numpy item write costs.
"""

from __future__ import annotations

from array import array
from collections.abc import Set as AbstractSet
from itertools import compress, count
from operator import ne
from typing import Any, Protocol, cast

import numpy as np

from gloomtable.engine import DecisionKind
from gloomtable.games.gloom.cards import CardType, Region
from gloomtable.games.gloom.effects import LIMITS, OTHERS_LIMITS
from gloomtable.games.gloom.state import BASE_DRAW_LIMIT

FREE_PLAY_KINDS = ("modifier", "untimely_death", "any")
ZONES = ("hand", "discard", "in_play", "being_played", "stack_top", "draft_pool")
"""Per-card zones besides "in a stack of relative seat k" and "in a stack in the middle"
(the encoder's layout: :mod:`gloomtable.games.gloom.hooks.encode` takes them from here)."""

LIMIT_STEPS = frozenset(LIMITS) | frozenset(OTHERS_LIMITS)
"""The lasting steps ``GloomState.draw_limit`` adds up; without one the limit is the base."""
_TEXT = int(Region.TEXT)
CACHE_LIMIT = 10_000
"""Cached stack encodings kept at most (then the cache starts over)."""

_NONE: frozenset[int] = frozenset()
"""No seat: what :meth:`GloomObserver._stacks` returns when no stack changed."""
_UNSEEN = object()
"""Not a ``Visible``: marks a stack never encoded (what a state shows on a stack may be ``None``)."""


class GloomLayout(Protocol):
    """What the observer needs of the encoder (``GloomEncoder``, which builds it): the
    layout's offsets and the reference path. Named here so that the encoder imports
    the observer and not the other way round."""

    n: int
    size: int
    num_cards: int
    zones: int
    per_target: int
    o_card: int
    o_target: int
    o_story: int
    o_kind: int
    o_mine: int
    o_dec: int
    o_turn: int
    o_fam: int
    o_over: int
    o_scalar: int
    score_scale: float
    beginner: bool
    target_slot: dict[int, int]
    story_slot: dict[int, int]
    kinds: dict[str, int]
    free_slot: dict[str, int]
    story_lasting: dict[int, bool]

    def block_bytes(self, dead: bool, live: bool, points: Any, icon_slots: Any,
                    self_worth: int, height: int) -> bytes: ...

    def encode(self, view: Any) -> np.ndarray: ...


def _floats(a: np.ndarray) -> memoryview[float]:
    """The items of the float32 array ``a``, written one at a time far faster than
    through numpy's item assignment."""
    return cast("memoryview[float]", a.data)


def _effect_facts(card: Any) -> tuple[bool, bool, bool, bool]:
    """(has a continuous effect, one moving the draw limit, the same for persistent)."""
    cont = [e for e in card.effects if e.when == "continuous"]
    pers = [e for e in card.effects if e.when == "persistent"]
    return (bool(cont), any(st.name in LIMIT_STEPS for e in cont for st in e.steps),
            bool(pers), any(st.name in LIMIT_STEPS for e in pers for st in e.steps))


class _Table:
    """The public observation in absolute seats (as seat 0 sees it, less its hand and
    whether it decides) and the inputs each part was last written from."""

    __slots__ = ("bases", "controller", "counts", "decision", "discard", "draft", "free", "fv",
                 "journal", "lasting", "limbo", "limits", "marks", "mv", "out", "over", "pile",
                 "played", "ps", "read", "seen", "stories", "story_marks", "taken", "tslot", "turn",
                 "turn_player", "used", "vs")

    def __init__(self, size: int, n: int) -> None:
        self.out = np.zeros(size, np.float32)
        self.mv = _floats(self.out)
        self.discard: list[int] = []
        self.limbo: list[int] = []
        self.decision: Any = None
        self.over: Any = None
        self.played = -1
        """The card being played, marked in its zone (-1: none)."""
        self.draft: list[int] = []
        self.tslot = -1
        """The "target of the card being played" slot set (-1: none)."""
        self.marks: list[int] = []
        """The decision's slots set (kind, deciding, decider, over)."""
        self.seen: Any = None
        self.journal: list[int] = []
        """The state's ``Seen`` whose journal (``moved``) was read last, that list, and how far."""
        self.read = 0
        self.controller: dict[int, int] = {}
        """Who controlled each stack when last looked."""
        self.vs: dict[int, Any] = {}
        """Per stack: its ``Visible`` when last encoded."""
        self.ps: dict[int, int] = {}
        """Per stack: its controller when last encoded."""
        self.bases: dict[int, tuple[Any, ...]] = {}
        """Per stack: what it set (:meth:`GloomObserver._base`)."""
        self.fv = [0] * n
        self.lasting = [0] * n
        """Per seat: Family Value, and the living stacks whose lasting effects move the draw limit."""
        self.stories: dict[int, int] | None = None
        self.story_marks: list[int] = []
        self.turn_player = -1
        self.taken: list[int] | None = None
        self.used = -1
        self.free: list[str] | None = None
        self.limits: list[int] | None = None
        """Every seat's draw limit when the stacks or Stories last changed."""
        self.counts: list[int] | None = None
        """Per seat: hand size, draw limit, turns to skip, Family Value, as last written."""
        self.pile = -1
        self.turn = -1


class GloomObserver:
    """``observe(state, seat)`` equal to ``encoder.encode(state.view(seat))``; see the
    module doc."""

    def __init__(self, encoder: GloomLayout, cards: Any) -> None:
        self.enc = encoder
        self.effect_facts = [_effect_facts(card) for card in cards]
        """Per card id: (has a continuous effect, one that moves the draw limit, has a
        persistent effect, one that moves the draw limit)."""
        self.persistent = frozenset(c for c, f in enumerate(self.effect_facts) if f[2])
        """The cards with a persistent effect."""
        z, first = encoder.zones, encoder.o_card
        self.owner_zone = [first + c * z + len(ZONES) for c in range(len(self.effect_facts))]
        """Per card: its "in a stack of relative seat 0" slot (the controller's is that plus its seat)."""
        self.top_zone = [first + c * z + ZONES.index("stack_top") for c in range(len(self.effect_facts))]
        n = self.n = encoder.n
        self.size = encoder.size
        self.zones, self.oc = encoder.zones, encoder.o_card
        self.ot, self.pt = encoder.o_target, encoder.per_target
        self.table = _Table(self.size, n)
        self.perms = [self._perm(encoder, me) for me in range(n)]
        """Per viewer: where each of its slots is in the table's (absolute) order."""
        self.zero_block = _floats(np.zeros(self.pt, np.float32))
        self.bases: dict[int, tuple[Any, ...]] = {}
        """:meth:`_base` by ``id(Visible)``; the value keeps the ``Visible`` alive, so
        its id cannot be reused while the entry lives."""
        self.blocks: dict[tuple[Any, ...], memoryview[float]] = {}
        """Target blocks (the encoder's ``block_bytes`` as floats) by what shows on them."""
        self.deaths = frozenset(card.index for card in cards if card.type is CardType.UNTIMELY_DEATH)
        self.target_of = encoder.target_slot
        self.base_limits = [BASE_DRAW_LIMIT] * n
        self.shared_limits = any(st.name in OTHERS_LIMITS for card in cards for e in card.effects
                                 for st in e.steps)
        """A card of the deck changes other seats' draw limits: every limit is asked again."""
        self.over_marks = [encoder.o_over]
        self.decision_marks: dict[tuple[str, int], list[int]] = {}
        """The slots a decision sets (its kind, who decides), by its kind and player."""
        self.free_slot = {k: i - 1 for k, i in encoder.free_slot.items()}
        b = encoder.o_scalar + 1 + len(FREE_PLAY_KINDS)
        self.count_slots = [b + g * n + q for g in range(4) for q in range(n)]
        """The slot of each count, in :attr:`_Table.counts` order."""
        self.count_scale = [x for x in (10.0, 10.0, 3.0, encoder.score_scale) for _ in range(n)]

    @staticmethod
    def _perm(enc: GloomLayout, me: int) -> np.ndarray:
        """The slots of ``me``'s observation in the table's order: relative seat ``k``
        is absolute seat ``(me + k) % n`` in every per-seat one-hot and count."""
        n = enc.n
        perm = np.arange(enc.size, dtype=np.intp)
        starts = [enc.o_card + c * enc.zones + len(ZONES) for c in range(enc.num_cards)]
        starts += [enc.o_target + t * enc.per_target + 1 for t in range(len(enc.target_slot))]
        starts += [enc.o_story + t * (n + 1) for t in range(len(enc.story_slot))]
        starts += [enc.o_dec, enc.o_turn]
        b = enc.o_scalar + 1 + len(FREE_PLAY_KINDS)
        starts += [b + g * n for g in range(4)]
        for start in starts:
            perm[start:start + n] = [start + (me + k) % n for k in range(n)]
        return perm

    def observe(self, state: Any, seat: int) -> np.ndarray:
        """The observation of ``seat`` (a new array); see the module doc."""
        if state.seen.stacks is not state.stacks:  # new stacks put in (a state rebuilt from a view)
            return self.enc.encode(state.view(seat))  # the view sees them afresh
        t = self.table
        seats = self._stacks(state, t)
        mv, z, oc = t.mv, self.zones, self.oc
        discard = state.discard
        if discard != t.discard:
            old = t.discard
            k = len(old)
            if discard[:k] != old:  # not only cards put on top
                for c in old:
                    mv[oc + c * z + 1] = 0.0
                k = 0
            for c in discard[k:]:
                mv[oc + c * z + 1] = 1.0
            t.discard = list(discard)
        limbo = state.limbo
        if limbo != t.limbo:
            for c in t.limbo:
                mv[oc + c * z + 2] = 0.0
            for c in limbo:
                mv[oc + c * z + 2] = 1.0
            t.limbo = list(limbo)
        d = state.decision
        over = state.over
        if d is not t.decision or over is not t.over:
            self._decision(state, d, over, t)
        if t.tslot >= 0:
            mv[t.tslot] = 1.0  # after the stacks: a target block written again clears it
        self._counts(state, t, seats)
        # The seat's own: its relative seats ("wrap": every index is in range, so no
        # check is needed), its hand, whether it decides.
        out = t.out.take(self.perms[seat], mode="wrap") if seat else t.out.copy()
        mine = _floats(out)
        for c in state.hands[seat]:
            mine[oc + c * z] = 1.0
        if not over and d.player == seat:
            mine[self.enc.o_mine] = 1.0
        return out

    def _decision(self, state: Any, d: Any, over: bool, s: _Table) -> None:
        """The parts the decision alone decides: its kind, who decides, the card being
        played and its target, the Characters to draft, whether the game is over."""
        enc, mv, z, oc, n = self.enc, s.mv, self.zones, self.oc, self.n
        played, target, draft = -1, -1, []
        if d.kind == DecisionKind.RESPOND and d.task is not None:
            ctx = d.task.ctx
            played = ctx.card
            target = enc.target_slot.get(ctx.target, -1)
        elif d.kind == DecisionKind.CHOOSE_CHARACTER and not over:
            codec = state.codec
            draft = [codec.chosen_card(a) for a in d.options]
        if played != s.played:
            if s.played >= 0:
                mv[oc + s.played * z + 3] = 0.0
            if played >= 0:
                mv[oc + played * z + 3] = 1.0
            s.played = played
        if draft != s.draft:
            for c in s.draft:
                mv[oc + c * z + 5] = 0.0
            for c in draft:
                mv[oc + c * z + 5] = 1.0
            s.draft = draft
        tslot = -1 if target < 0 else self.ot + target * self.pt + n + 3
        if tslot != s.tslot:
            if s.tslot >= 0:
                mv[s.tslot] = 0.0
            s.tslot = tslot
        for i in s.marks:
            mv[i] = 0.0
        marks = self.over_marks if over else self.decision_marks.get((d.kind, d.player))
        if marks is None:
            marks = [enc.o_kind + enc.kinds.get(d.kind, len(enc.kinds))]
            if d.player >= 0:
                marks.append(enc.o_dec + d.player)
            self.decision_marks[d.kind, d.player] = marks
        for i in marks:
            mv[i] = 1.0
        s.marks = marks
        s.decision, s.over = d, over

    def _counts(self, state: Any, s: _Table, seats: AbstractSet[int]) -> None:
        """Who holds the Stories, whose turn it is, the families still to choose, the
        plays left and free, and the counts per seat, each written when it changed.
        ``seats``: those whose stacks changed since last looked."""
        enc, mv, n = self.enc, s.mv, self.n
        stories = state.stories
        restory = stories != s.stories
        if restory:  # a Story's lasting effects hold for its holder (R-H5)
            for i in s.story_marks:
                mv[i] = 0.0
            marks = []
            for card, owner in stories.items():
                t = enc.story_slot.get(card)
                if t is not None:
                    marks.append(enc.o_story + t * (n + 1) + (owner if owner >= 0 else n))
            for i in marks:
                mv[i] = 1.0
            s.story_marks, s.stories = marks, dict(stories)
        tp = state.turn_player
        if tp != s.turn_player:
            if s.turn_player >= 0:
                mv[enc.o_turn + s.turn_player] = 0.0
            mv[enc.o_turn + tp] = 1.0
            s.turn_player = tp
        taken = state.family_taken
        if taken != s.taken:
            o = enc.o_fam
            for f, p in enumerate(taken):
                mv[o + f] = 1.0 if p < 0 else 0.0
            s.taken = list(taken)
        used = state.counted_used
        if used != s.used:
            left = 2 - used
            mv[enc.o_scalar] = 0.0 if left <= 0 else left / 2.0 if left < 2 else 1.0
            s.used = used
        free = state.free_plays
        if free != s.free:
            vals = [0.0] * len(self.free_slot)
            for k in free:
                slot = self.free_slot.get(k)
                if slot is not None:
                    vals[slot] = 1.0 if vals[slot] else 0.5
            b = enc.o_scalar + 1
            mv[b:b + len(vals)] = array("f", vals)
            s.free = list(free)
        if restory or s.limits is None:  # a draw limit follows the stacks and Stories alone (R-G14)
            s.limits = self._limits(state, s, stories)
        elif seats:
            s.limits = self._limits(state, s, stories, seats)
        sizes = list(map(len, state.hands))
        old = s.counts
        if seats or restory or old is None or sizes != old[:n] or state.skips != old[2 * n:3 * n]:
            # Family Values and draw limits follow the stacks and Stories alone.
            counts = [*sizes, *s.limits, *state.skips, *s.fv]
            slots, scale = self.count_slots, self.count_scale
            for i in range(len(counts)) if old is None else compress(count(), map(ne, counts, old)):
                v = counts[i] / scale[i]  # counts are never negative: only Family Values clip below
                mv[slots[i]] = -1.0 if v < -1.0 else v if v < 1.0 else 1.0
            s.counts = counts
        pile = len(state.draw_pile)
        if pile != s.pile:
            x = pile / enc.num_cards
            mv[enc.size - 2] = x if x < 1.0 else 1.0
            s.pile = pile
        if state.turn != s.turn:
            x = state.turn / 100.0
            mv[enc.size - 1] = x if x < 1.0 else 1.0
            s.turn = state.turn

    def _limits(self, state: Any, s: _Table, stories: dict[int, int],
                seats: AbstractSet[int] | None = None) -> list[int]:
        """Every seat's draw limit, asked of the state again only for ``seats`` (all if
        None; a limit follows its seat's own stacks and Story alone, R-G14) and only for
        a seat whose stacks or Story hold a lasting effect that moves it (else the base
        limit, as ``draw_limit`` returns without held steps)."""
        enc = self.enc
        lasting = s.lasting
        if stories:
            lasting = list(lasting)  # the seat's counts stay the stacks' own
            for story, p in stories.items():
                if p >= 0 and enc.story_lasting.get(story):
                    lasting[p] = 1
        if enc.beginner:
            return self.base_limits
        if self.shared_limits:
            return [state.draw_limit(q) for q in range(self.n)]
        if seats is None:
            if not any(lasting):
                return self.base_limits
            return [state.draw_limit(q) if lasting[q] else BASE_DRAW_LIMIT for q in range(self.n)]
        limits = list(s.limits or self.base_limits)
        for q in seats:
            limits[q] = state.draw_limit(q) if lasting[q] else BASE_DRAW_LIMIT
        return limits

    def _base(self, c: int, stack: Any, v: Any) -> tuple[Any, ...]:
        """What a stack sets whoever looks: (its ``Visible``, dead, moves a draw limit,
        its cards' zone offsets, its top card's, its target index or -1, its target block
        as float32 with the controller slots empty). Kept by ``Visible`` (the entry keeps
        it alive, so its id is never another's). What ``stack_facts`` and
        ``lasting_steps`` tell is asked of each card's effects once (:attr:`effect_facts`)
        and of the ``Visible`` only which cards' persistent effects are live."""
        bases = self.bases
        base = bases.get(id(v))
        if base is not None and base[0] is v:
            return base
        if len(bases) >= CACHE_LIMIT:
            bases.clear()
            self.blocks.clear()
        facts = self.effect_facts
        top = stack[-1]
        dead = top in self.deaths
        text = v.shown_by[_TEXT]
        live, limit = facts[stack[text]][:2] if text >= 0 else (False, False)
        if not self.persistent.isdisjoint(stack):  # a card here has a persistent effect
            persistent = [facts[card.index] for card in v.persistent_cards()]
            live = live or any(f[2] for f in persistent)
            limit = limit or any(f[3] for f in persistent)
        live = live and not dead
        t = self.target_of.get(c, -1)
        if t < 0:
            block = self.zero_block
        else:
            key = (dead, live, v.points, v.icon_slots, len(stack))  # Self-Worth is the points' sum
            known = self.blocks.get(key)
            if known is None:
                known = self.blocks[key] = memoryview(self.enc.block_bytes(
                    dead, live and not self.enc.beginner, v.points, v.icon_slots, v.self_worth,
                    len(stack))).cast("f")
            block = known
        base = bases[id(v)] = (v, dead, limit, tuple(map(self.owner_zone.__getitem__, stack)),
                               self.top_zone[top], t, block)
        return base

    def _stacks(self, state: Any, s: _Table) -> AbstractSet[int]:
        """The stacks' part of the table brought up to date: only the stacks a board move
        touched (or whose controller changed) since last looked are written again, and
        those gone are cleared. The seats that controlled one before or after."""
        stacks, controller = state.stacks, state.controller
        seen = state.seen
        vs, ps = s.vs, s.ps
        journal = seen.moved
        if seen is s.seen and journal is s.journal:  # the state last looked at, moved on by board moves
            if len(journal) == s.read and controller == s.controller:
                return _NONE
            touched = list(dict.fromkeys(journal[s.read:]))
        else:  # another state: compare every stack with what was encoded
            shown, lists = seen.shown, seen.lists
            touched = [c for c, stack in stacks.items()
                       if shown.get(c) is not vs.get(c, _UNSEEN) or lists.get(c) is not stack]
            touched += [c for c in vs if c not in stacks]
            s.seen = seen
        s.journal, s.read = journal, len(journal)
        if controller != s.controller:  # Guests change hands (R-H7); a set-aside joins a family (R-G8)
            touched += [c for c in stacks if ps.get(c) != controller[c] and c not in touched]
            s.controller = dict(controller)
        n = self.n
        mv, fv, lasting, bases = s.mv, s.fv, s.lasting, s.bases
        visible_of = state.visible_of
        gone: list[int] = []
        now: list[tuple[int, Any, int]] = []
        for c in touched:
            if c not in stacks:
                if c in vs:
                    gone.append(c)
                continue
            v, p = visible_of(c), controller[c]
            if v is vs.get(c) and p == ps.get(c):
                continue  # the stack changed and changed back
            now.append((c, v, p))
        if not gone and not now:
            return _NONE
        seats: set[int] = set()
        # Every old mark goes before any new one: a card may move between stacks.
        for c in gone + [c for c, _v, _p in now]:
            old = bases.get(c)
            if old is None:
                continue
            q = ps[c]
            seats.add(q)
            zone = q if q >= 0 else n
            for j in old[3]:
                mv[j + zone] = 0.0
            mv[old[4]] = 0.0
            if q >= 0:
                if old[1]:
                    fv[q] -= old[0].self_worth
                elif old[2]:
                    lasting[q] -= 1
        pt, ot = self.pt, self.ot
        for c in gone:
            t = bases[c][5]
            if t >= 0:
                mv[ot + t * pt:ot + (t + 1) * pt] = self.zero_block
            del vs[c], ps[c], bases[c]
        for c, v, p in now:
            base = bases[c] = self._base(c, stacks[c], v)
            vs[c], ps[c] = v, p
            seats.add(p)
            owner = p if p >= 0 else n
            for j in base[3]:
                mv[j + owner] = 1.0
            mv[base[4]] = 1.0
            t = base[5]
            if t >= 0:
                a = ot + t * pt
                mv[a:a + pt] = base[6]
                mv[a + 1 + owner] = 1.0
            if p >= 0:
                if base[1]:
                    fv[p] += v.self_worth
                elif base[2]:
                    lasting[p] += 1
        seats.discard(-1)  # the middle has no draw limit
        return seats
