"""Setting up: the deal, the first player, and how families form.

Rules: R-G7 (each player takes a whole family; unchosen Characters are out of the
game), R-G8 (with 4 or more players each sets one Character aside; a fifth player
on four families gets the set-aside Characters), R-G9 (everything but the
Characters is shuffled into the draw pile; 5 cards each), R-G10 (the first player,
from the table or at random), R-H2 (with double-sided Characters, players draft
Characters one at a time and reverse sides go to the middle as Guests and Stories).
"""

from __future__ import annotations

import gloomtable.games.gloom.messages as M
from gloomtable.games.gloom.cards import CardType
from gloomtable.games.gloom.rules.board import Board
from gloomtable.games.gloom.rules.turn import begin_turn
from gloomtable.games.gloom.tasks import FAMILY_FOR, SETUP_ASIDE, SETUP_DRAFT, UNCONTROLLED, Decision, new

HAND_SIZE = 5  # R-G9

def deal(s: Board) -> None:
    """R-G10, R-G9: choose the first player, shuffle, deal; then the first setup question."""
    cfg = s.game.config
    s.first_player = cfg.first_player if cfg.first_player is not None else s.rng.below(s.n)
    s.turn_player = s.first_player
    s.draw_pile = list(s.game.draw_pile_cards)  # (Characters, Guests and Stories never, R-H10)
    s.rng.shuffle(s.draw_pile)
    for p in s.turn_order_from(s.first_player):
        s.draw(p, HAND_SIZE)
    s.events.clear()  # deals are not news
    if s.game.drafting:
        s.decision = Decision(s.first_player, SETUP_DRAFT, draft_options(s))
    else:
        s.decision = FAMILY_FOR[s.first_player]


def family_options(s: Board) -> list[int]:
    """R-G7: the families nobody has taken."""
    base = s.codec.family_base  # (codec.choose_family, without a call per family)
    return [base + f for f, seat in enumerate(s.family_taken) if seat < 0]


def family_choosers(s: Board) -> list[int]:
    """Seats that choose a family: all, except the fifth seat of a 5-player game
    on four families, who gets the set-aside Characters (R-G8)."""
    order = s.turn_order_from(s.first_player)
    if s.n > len(s.game.deck.families):
        return order[:-1]
    return order


def choose_family(s: Board, p: int, f: int) -> None:
    """R-G7: ``p`` takes family ``f``; once all have, the rest are out of the game."""
    deck = s.game.deck
    fam = deck.families[f]
    s.family_taken[f] = p
    by_key = s.game.card_by_key
    for key in fam.characters:
        c = by_key[key]
        s.families[p].append(c)
        s.put_stack(c, p)
    s.emit("family", M.FAMILY, (p, f), player=p)
    choosers = family_choosers(s)
    nxt = (p + 1) % s.n
    if nxt in choosers and any(s.families[q] == [] for q in choosers):
        s.decision = FAMILY_FOR[nxt]
        return
    # Unchosen Characters are out of the game (R-G7).
    for f2, seat in enumerate(s.family_taken):
        if seat < 0:
            for key in deck.families[f2].characters:
                s.out_of_game.append(by_key[key])
    if s.n >= 4:
        s.decision = new(Decision, (s.first_player, SETUP_ASIDE, aside_options(s, s.first_player), None))
    else:
        begin_turn(s, s.first_player)


def aside_options(s: Board, p: int) -> tuple[int, ...]:
    base = s.codec.card_base  # (codec.choose_card, without a call per Character)
    return tuple([base + c for c in s.families[p]])


def set_aside(s: Board, p: int, c: int) -> None:
    """R-G8: ``p`` sets ``c`` aside; with a fifth seat, the set-aside form its family."""
    s.families[p].remove(c)
    s.drop_stack(c)
    s.out_of_game.append(c)
    s.emit("set_aside", M.SET_ASIDE, (p, c), player=p, card=c)
    choosers = family_choosers(s)
    i = choosers.index(p)
    if i + 1 < len(choosers):
        q = choosers[i + 1]
        s.decision = new(Decision, (q, SETUP_ASIDE, aside_options(s, q), None))
        return
    if len(choosers) < s.n:
        # R-G8: the set-aside Characters form the fifth family.
        last = s.turn_order_from(s.first_player)[-1]
        for c2 in list(s.out_of_game):
            if s.cards[c2].type is CardType.CHARACTER and _was_set_aside(s, c2):
                s.out_of_game.remove(c2)
                s.families[last].append(c2)
                s.put_stack(c2, last)
        s.emit("family", M.SET_ASIDE_FAMILY, (last,), player=last)
    begin_turn(s, s.first_player)


def _was_set_aside(s: Board, c: int) -> bool:
    fam_key = s.cards[c].family
    for f, fam in enumerate(s.game.deck.families):
        if fam.id == fam_key:
            return s.family_taken[f] >= 0
    return False


def draft_options(s: Board) -> tuple[int, ...]:
    """R-H2: the Characters nobody has chosen."""
    chosen = {c for fam in s.families for c in fam}
    return tuple(s.codec.choose_card(c) for c in s.game.characters if c not in chosen)


def draft(s: Board, p: int, c: int) -> None:
    """One pick of the draft (R-H2). **Decision:** players choose one Character at a
    time in turn order, round after round, until each has ``draft_size``; then
    ``stories_guests`` reverse sides of the unchosen, at random, go to the middle."""
    s.families[p].append(c)
    s.put_stack(c, p)
    s.emit("choose", M.CHOOSE, (p, c), player=p, card=c)
    picks = sum(len(f) for f in s.families)
    if picks < s.n * s.game.config.draft_size:
        nxt = s.turn_order_from(s.first_player)[picks % s.n]
        s.decision = Decision(nxt, SETUP_DRAFT, draft_options(s))
        return
    # The unchosen are flipped; some of their reverse sides, at random, go to the middle.
    chosen = {c2 for fam in s.families for c2 in fam}
    backs = [s.game.back_of[c2] for c2 in s.game.characters
             if c2 not in chosen and c2 in s.game.back_of]
    s.rng.shuffle(backs)
    for b in sorted(backs[: s.game.config.stories_guests]):
        if s.cards[b].type is CardType.GUEST:
            s.guests.append(b)
            s.put_stack(b, UNCONTROLLED)
        else:
            s.stories[b] = UNCONTROLLED
        s.emit("middle", M.STORY_WAITS if s.cards[b].type is CardType.STORY else M.GUEST_WAITS,
               (b,), card=b)
    begin_turn(s, s.first_player)
