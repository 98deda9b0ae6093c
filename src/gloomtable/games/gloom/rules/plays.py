"""Plays: what the turn player may do, and doing it.

Rules: R-G11 (two counted plays a turn: play a card, discard, or pass; an Untimely
Death only as the first play, on a Character with negative Self-Worth), R-G12 (1st
edition: discard one card instead of the whole hand), R-G13 (free plays of a kind,
on top of the two), R-G23 (nothing is played on the dead), R-H4 (claiming a Story
is a counted play).

One rule decides every play: :func:`card_problem` (may a card of this type be played
now) and :func:`may_die` (may an Untimely Death land here) feed :func:`legal_plays`,
:func:`play_problem` and so :func:`is_legal` and the reason an action is refused.
"""

from __future__ import annotations

from typing import Final

import gloomtable.games.gloom.messages as M
from gloomtable.engine import Event
from gloomtable.games.gloom.actions import MAX_PLAYERS, Codec, Kind
from gloomtable.games.gloom.cards import CardType
from gloomtable.games.gloom.rules.board import Board
from gloomtable.games.gloom.rules.resolving import finish_play
from gloomtable.games.gloom.rules.responses import ask_respond
from gloomtable.games.gloom.rules.setup import family_options
from gloomtable.games.gloom.rules.stories import can_claim, claim, claim_problem
from gloomtable.games.gloom.seen import Pick, Seen, picker
from gloomtable.games.gloom.tasks import ASK_RESPONSES, CTX, EVENT, FINISH_PLAY, PLAY, SETUP_FAMILY, TASK, new

_FREE_FOR: Final = {
    CardType.MODIFIER: ("modifier", "any"),
    CardType.UNTIMELY_DEATH: ("untimely_death", "any"),
    CardType.EVENT: ("any",),
}

# Enum members as module constants: looking a member up on its class is slow
# (Python 3.11), and every action asks a few.
# (Final, as every constant the rules read: the compiled build reads a Final name
# straight, any other module global by a lookup in the module's namespace.)
_MODIFIER: Final = CardType.MODIFIER
_EVENT: Final = CardType.EVENT
_DEATH: Final = CardType.UNTIMELY_DEATH
_PASS: Final = Kind.PASS
_DISCARD_HAND: Final = Kind.DISCARD_HAND
_DISCARD_ONE: Final = Kind.DISCARD_ONE
_PLAY_ON: Final = Kind.PLAY
_PLAY_EVENT: Final = Kind.PLAY_EVENT
_CLAIM: Final = Kind.CLAIM_STORY
PASS: Final = Codec.PASS  # (a class attribute read through an instance is slow)
DISCARD_HAND: Final = Codec.DISCARD_HAND

BOTH_USED: Final = "both plays are used; only a matching free play or pass remains (R-G13)"
DEATH_FIRST: Final = "an Untimely Death may only be the first play of a turn (R-G11)"
NOT_A_PLAY: Final = "that is not a play here"

_PLAY_ON_MSG: Final = M.PLAY_ON
_FORGO: Final = M.FORGO
_DISCARD_HAND_MSG: Final = M.DISCARD_HAND
_PASS_EVENTS: Final = tuple(Event("pass", M.PASS, (p,), p) for p in range(MAX_PLAYERS))


# --- the rule ---------------------------------------------------------------------

def free_for(s: Board, ctype: CardType) -> str | None:
    """R-G13: the turn player's free play a card of ``ctype`` would use, if any."""
    for kind in _FREE_FOR[ctype]:
        if kind in s.free_plays:
            return kind
    return None


def card_problem(s: Board, t: CardType) -> str | None:
    """Why a card of type ``t`` in the turn player's hand may not be played now, or None
    if it may. R-G11: a Modifier or an Event while one of the two counted plays is left,
    an Untimely Death only as the first; R-G13: any of them on a free play of its kind."""
    if s.free_plays and free_for(s, t) is not None:
        return None
    if t is _DEATH:
        return None if s.counted_used == 0 else DEATH_FIRST
    if t is _MODIFIER or t is _EVENT:
        return None if s.counted_used < 2 else BOTH_USED
    return NOT_A_PLAY


def may_die(self_worth: int) -> bool:
    """R-G11: an Untimely Death lands only on a Character showing negative Self-Worth."""
    return self_worth < 0


def discard_problem(s: Board, whole_hand: bool) -> str | None:
    """Why discarding is not a play now, or None. A counted play (R-G11): the whole hand
    in the 2nd edition, one card in the 1st (R-G12)."""
    if whole_hand and s.facts.edition == 1:
        return "1st edition: discard one card instead of the whole hand (R-G12)"
    if not whole_hand and s.facts.edition == 2:
        return "2nd edition: discard the whole hand, not one card (R-G11)"
    if s.counted_used >= 2:
        return BOTH_USED
    if whole_hand and not s.hands[s.decision.player]:
        return NOT_A_PLAY
    return None


def play_problem(s: Board, action: int) -> str | None:
    """Why ``action`` is not a play the turn player may make now, or None if it is."""
    if action == PASS:
        return None
    if action == DISCARD_HAND:
        return discard_problem(s, True)
    p = s.decision.player
    kind, card, target, _ = s.codec.decode(action)
    if kind is _CLAIM:
        if card not in s.stories or s.stories[card] == p:
            return claim_problem(s, p, card)
        if s.counted_used >= 2:
            return "claiming a Story takes one of the two plays, and both are used (R-H4)"
        return None if can_claim(s, p, card) else claim_problem(s, p, card)
    if kind is not _PLAY_ON and kind is not _PLAY_EVENT and kind is not _DISCARD_ONE:
        return NOT_A_PLAY
    if card not in s.hands[p]:
        return f"{s.name(card)} is not in player {p + 1}'s hand"
    if kind is _DISCARD_ONE:
        return discard_problem(s, False)
    t = s.cards[card].type
    if kind is _PLAY_EVENT:
        return card_problem(s, t) if t is _EVENT else NOT_A_PLAY
    if target not in s.stacks:
        return f"{s.name(target)} is not on the table"
    if s.stacks[target][-1] in s.facts.deaths:
        return f"{s.name(target)} is dead: nothing may be played on it (R-G23)"
    if t is _DEATH:
        worth = s.self_worth(target)
        if not may_die(worth):
            return (f"an Untimely Death needs a Character with negative Self-Worth; "
                    f"{s.name(target)} has {worth} (R-G11)")
        return card_problem(s, t)
    if t is _EVENT:
        return "an Event is played without a target"
    return card_problem(s, t)


# --- what the protocol asks ---------------------------------------------------------

def legal_actions(s: Board) -> list[int]:
    """Every action the player to decide may take, sorted."""
    if s.over:
        return []
    d = s.decision
    kind = d[1]  # (d.kind: by position, see tasks.py)
    if kind is PLAY:
        return legal_plays(s, d[0])
    if kind is SETUP_FAMILY:
        return family_options(s)
    return list(d[2])  # its options


def is_legal(s: Board, action: int) -> bool:
    """Whether ``action`` is in :func:`legal_actions`, without building the list
    (``apply`` asks this on every action). A test holds the two equal."""
    if s.over:
        return False
    d = s.decision
    kind = d.kind
    if kind is PLAY:
        return play_problem(s, action) is None
    if kind is SETUP_FAMILY:
        return action in family_options(s)
    return action in d.options  # what legal_actions lists for every other kind


def illegal_reason(s: Board, action: int) -> str:
    """Why ``action`` is refused now (with the rule id where one decides it)."""
    d = s.decision
    if d.kind != PLAY:
        return f"player {d.player + 1} must answer a '{d.kind}' decision now"
    return play_problem(s, action) or NOT_A_PLAY


def legal_plays(s: Board, p: int) -> list[int]:
    """The play decision's actions (``p`` to play): :func:`play_problem`'s answers for
    every action, built from the kept table facts (who lives, the play ids on them, who
    is negative)."""
    codec = s.codec
    cards = s.cards
    hand = s.hands[p]
    used = s.counted_used
    if s.free_plays:
        modifiers = card_problem(s, _MODIFIER) is None
        events = card_problem(s, _EVENT) is None
        deaths = card_problem(s, _DEATH) is None
    else:  # what card_problem answers without a free play (R-G11), without asking it thrice
        modifiers = events = used < 2
        deaths = used == 0
    if used < 2:  # discard_problem's answers, likewise (R-G11, R-G12)
        first_edition = s.facts.edition == 1
        out = [PASS] if first_edition or not hand else [PASS, DISCARD_HAND]
        discard_one = first_edition
    else:
        out = [PASS]
        discard_one = False
    # Built in action-id order (ids grow with the card, then the target slot), so
    # the list comes out sorted without sorting the long part of it.
    seen = s.seen
    if seen.stacks is not s.stacks:
        seen = s.seen = Seen(s.stacks)
    families, guests = s.families, s.guests
    if seen.living is None or seen.families != families or seen.guests != guests:  # (seen.hold, inlined)
        seen.settle(s.find_living(), families, guests)
    rows = seen.rows
    on_negative: Pick | None = None
    # Discard-one and Event ids, below every play id: straight into ``out`` when there
    # are only Events (they come in card order, so in id order); the 1st edition's
    # discard-one ids mix with them and are sorted in after.
    short: list[int] = [] if discard_one else out
    plays: list[int] = []
    held = sorted(hand)
    for c in held:
        t = cards[c].type
        if t is _MODIFIER:
            if modifiers:
                plays.extend(rows.get(c) or seen.row(c, codec))
        elif t is _EVENT:
            if events:
                short.append(codec.event_base + c)
        elif t is _DEATH and deaths:
            if on_negative is None:
                on_negative = _on_negative(s, seen)
            plays.extend(on_negative(codec.all_plays[c]))
    if discard_one:
        short.extend(map(codec.discard_one_base.__add__, held))  # (every card, R-G12)
        short.sort()
        out.extend(short)
    out.extend(plays)
    if s.stories and used < 2:
        out.extend(_claims(s, p))
    return out


def _claims(s: Board, p: int) -> list[int]:
    """The Stories ``p`` may claim (R-H5), as sorted action ids. (Its own function: a
    comprehension in :func:`legal_plays` would make its locals closure cells.)"""
    return sorted([s.codec.claim_story(st) for st in s.stories if can_claim(s, p, st)])


def _on_negative(s: Board, seen: Seen) -> Pick:
    """Picks an Untimely Death's ids on the living where it may land (:func:`may_die`):
    looks again only at the Characters whose stacks changed since last asked, and makes
    a new pick only when that changed where it may land."""
    negative = seen.negative
    look: tuple[int, ...] | list[int]
    if negative is None:
        negative = seen.negative = set()
        seen.death_pick = None
        look = seen.living or ()
    else:
        look = seen.dirty
    if look:
        slot = s.codec.char_slot
        for ch in look:
            i = slot[ch]
            if may_die(s.self_worth(ch)):  # (a method called straight: compiled, a direct call)
                if i not in negative:
                    negative.add(i)
                    seen.death_pick = None
            elif i in negative:
                negative.discard(i)
                seen.death_pick = None
        seen.dirty = []
    pick = seen.death_pick
    if pick is None:
        pick = seen.death_pick = picker(sorted(negative))
    return pick


# --- making a play -----------------------------------------------------------------

def play(s: Board, action: int) -> None:
    """The turn player makes the (legal) play ``action``."""
    p = s.turn_player
    kind, c, target = s.codec.moves[action]  # (apply checked the range)
    if kind is _PASS:
        if s.counted_used < 2:
            s.counted_used += 1
            s.events.append(_PASS_EVENTS[p])
        else:
            s.free_plays = []
            s.emit("pass", _FORGO, (p,), player=p)
        return
    if kind is _DISCARD_HAND:
        s.counted_used += 1
        s.discard.extend(s.hands[p])
        s.emit("discard_hand", _DISCARD_HAND_MSG, (p, len(s.hands[p])), player=p, amount=len(s.hands[p]))
        s.hands[p] = []
        return
    if kind is _DISCARD_ONE:
        s.counted_used += 1
        s.discard_from_hand(p, c)
        return
    if kind is _CLAIM:
        s.counted_used += 1
        claim(s, p, c)
        return
    card = s.cards[c]
    free = free_for(s, card.type) if s.free_plays else None
    if free is not None:
        s.free_plays.remove(free)
    else:
        s.counted_used += 1
    s.hands[p].remove(c)
    s.limbo.append(c)
    if kind is _PLAY_ON:
        icons = s.visible_of(target).icons
        # R-G16: the target's controller resolves; UNCONTROLLED for a Guest in the middle.
        resolver = s.controller[target]
        # Player p plays card c on the Character (or Guest) target, built by field
        # position (tasks.new): most plays are new, so a memo of them mostly misses.
        s.events.append(new(EVENT, ("play", _PLAY_ON_MSG, (p, c, target), p, c, target, None, None,
                                    None, (), s.game)))
    else:
        target, icons, resolver = -1, (), p
        s.events.append(s.facts.event_plays[p][c])
    ctx = new(CTX, (resolver, c, target, icons))
    s.cancelled = False
    finish = new(TASK, (FINISH_PLAY, ctx, None, (), ()))
    if s.facts.opens_window[c]:  # a response window: its first seat is asked now, as the queue would do next
        s.queue.append(finish)
        ask_respond(s, new(TASK, (ASK_RESPONSES, ctx, None, (1,), ())))
    else:  # no response window: the card resolves now, as the queue would do next
        finish_play(s, finish)
