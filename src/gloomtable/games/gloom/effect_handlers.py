"""The handlers of the richer card language (docs/decks.md, "Targets, conditions and
triggers"): moving Characters and stacks, looking at hidden cards, cards between
hands and the discard pile, extra turns, conditions and steps for other players.

A handler is ``handler(state, task, choice)`` as in :mod:`effects`: it finishes, or
asks one player with ``state.ask`` and a copy of ``task`` whose ``data`` records how
far it got. Nothing here builds text: events carry catalogue messages and numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import gloomtable.games.gloom.messages as M
from gloomtable.engine import DecisionKind
from gloomtable.games.gloom.cards import CardType
from gloomtable.games.gloom.tasks import Ctx, Task

if TYPE_CHECKING:
    from gloomtable.games.gloom.rules.board import Board

_TARGET, _PLAYER, _CARD = DecisionKind.CHOOSE_TARGET, DecisionKind.CHOOSE_PLAYER, DecisionKind.CHOOSE_CARD


def _fits(state: Board, c: int, p: int, which: str) -> bool:
    """Whether Character ``c`` passes the filter ``which`` for player ``p``."""
    if which == "any":
        return True
    owner = state.controller[c]
    return owner == p if which == "yours" else owner != p


def others(state: Board, p: int) -> list[int]:
    """Every other player, in turn order after ``p``."""
    return [q for q in state.turn_order_from(p) if q != p]


# --- Characters and stacks ----------------------------------------------------------

def move_character(state: Board, task: Task, choice: int | None) -> None:
    """A living Character of a family (as the filter allows) joins another player's
    family with its whole stack. **Decision:** its family must keep another living
    Character, so a move never ends the game (R-G24) and no family is left empty."""
    codec, p = state.codec, task.ctx.resolver
    if not task.data:
        if choice is None:
            options: list[int] = []
            for fam in state.families:
                living = [c for c in fam if not state.is_dead(c)]
                if len(living) > 1:
                    options.extend(codec.choose_card(c) for c in living
                                   if _fits(state, c, p, task.param))
            if options and state.n > 1:
                state.ask(p, _TARGET, sorted(options), task)
            return
        char = codec.chosen_card(choice)
        owner = state.controller[char]
        dests = [codec.choose_player(q) for q in state.turn_order_from(p) if q != owner]
        state.ask(p, _PLAYER, dests, task._replace(data=(char,)))
        return
    assert choice is not None
    state.change_family(task.data[0], codec.chosen_player(choice), p)


def move_this(state: Board, task: Task, choice: int | None) -> None:
    """The card itself (a Modifier just laid) moves onto another living Character of the
    resolver's choice (R-G17: it does not trigger again)."""
    ctx, codec = task.ctx, state.codec
    src = ctx.target
    if choice is None:
        if src < 0 or src not in state.stacks or state.stacks[src][-1] != ctx.card:
            return
        dests = [codec.choose_card(c) for c in state.living_characters() if c != src]
        if dests:
            state.ask(ctx.resolver, _TARGET, sorted(dests), task)
        return
    state.move_top_modifier(src, codec.chosen_card(choice), ctx.resolver)


def move_stack(state: Board, task: Task, choice: int | None) -> None:
    """Every Modifier on one living Character (as the filter allows) moves, in order,
    onto another living Character (R-G17: none triggers again)."""
    codec, p = state.codec, task.ctx.resolver
    living = state.living_characters()
    if not task.data:
        if choice is None:
            options = [codec.choose_card(c) for c in living
                       if len(state.stacks[c]) > 1 and _fits(state, c, p, task.param)]
            if options and len(living) > 1:
                state.ask(p, _TARGET, sorted(options), task)
            return
        src = codec.chosen_card(choice)
        dests = [codec.choose_card(c) for c in living if c != src]
        state.ask(p, _TARGET, sorted(dests), task._replace(data=(src,)))
        return
    assert choice is not None
    state.move_stack(task.data[0], codec.chosen_card(choice), p)


# --- hidden cards --------------------------------------------------------------------

def look_at_hand(state: Board, task: Task, choice: int | None) -> None:
    """The resolver sees another player's hand (only they do)."""
    codec, p = state.codec, task.ctx.resolver
    if choice is None:
        options = [codec.choose_player(q) for q in others(state, p) if state.hands[q]]
        if options:
            state.ask(p, _PLAYER, options, task)
        return
    q = codec.chosen_player(choice)
    for c in sorted(state.hands[q]):
        state.emit("look", M.LOOK_HAND, (p, c, q), player=p, card=c, target=q, private_to=p,
                   public_msg=M.LOOK_HAND_HIDDEN, public_args=(p, q))


def look_at_draw_pile(state: Board, task: Task, choice: int | None) -> None:
    """The resolver sees the top N cards of the draw pile (only they do); they stay."""
    p = task.ctx.resolver
    for c in reversed(state.draw_pile[-task.param:]):
        state.emit("look", M.LOOK_PILE, (p, c), player=p, card=c, private_to=p,
                   public_msg=M.LOOK_PILE_HIDDEN, public_args=(p,))


def take_card(state: Board, task: Task, choice: int | None) -> None:
    """Take N cards of your choice from another player's hand: you choose the player,
    then each card (you see their hand as you choose)."""
    codec, p = state.codec, task.ctx.resolver
    if not task.data:
        if choice is None:
            options = [codec.choose_player(q) for q in others(state, p) if state.hands[q]]
            if options:
                state.ask(p, _PLAYER, options, task)
            return
        victim, done = codec.chosen_player(choice), 0
    else:
        victim, done = task.data
        if choice is not None:
            c = codec.chosen_card(choice)
            state.take_from_hand(p, victim, c)
            done += 1
    if done < task.param and state.hands[victim]:
        options = [codec.choose_card(c) for c in sorted(state.hands[victim])]
        state.ask(p, _CARD, options, task._replace(data=(victim, done)))


def give_card(state: Board, task: Task, choice: int | None) -> None:
    """Give N cards of your choice from your hand to one other player you choose."""
    codec, p = state.codec, task.ctx.resolver
    if not task.data:
        if choice is None:
            if state.hands[p] and state.n > 1:
                state.ask(p, _PLAYER, [codec.choose_player(q) for q in others(state, p)], task)
            return
        to, done = codec.chosen_player(choice), 0
    else:
        to, done = task.data
        if choice is not None:
            c = codec.chosen_card(choice)
            state.give(p, to, c)
            done += 1
    if done < task.param and state.hands[p]:
        options = [codec.choose_card(c) for c in sorted(state.hands[p])]
        state.ask(p, _CARD, options, task._replace(data=(to, done)))


_TYPE_OF = {"modifier": CardType.MODIFIER, "event": CardType.EVENT,
            "untimely_death": CardType.UNTIMELY_DEATH}


def take_from_discard(state: Board, task: Task, choice: int | None) -> None:
    """Take a card of the named type (or any) from the discard pile into your hand."""
    codec, p = state.codec, task.ctx.resolver
    if choice is None:
        want = _TYPE_OF.get(task.param)
        options = sorted({codec.choose_card(c) for c in state.discard
                          if want is None or state.cards[c].type is want})
        if options:
            state.ask(p, _CARD, options, task)
        return
    state.take_back(p, codec.chosen_card(choice))


# --- turns ----------------------------------------------------------------------------

def extra_turn(state: Board, task: Task, choice: int | None) -> None:
    """The resolver plays again after this turn. **Decision:** made as every other
    player skipping their next turn once (the turns they skip are counted), so it holds
    with skips already pending; only on the resolver's own turn, as a free play is."""
    p = task.ctx.resolver
    if p != state.turn_player or state.n < 2:
        return
    state.emit("extra_turn", M.EXTRA_TURN, (p,), player=p)
    for q in others(state, p):
        state.skips[q] += 1


def reverse_order(state: Board, task: Task, choice: int | None) -> None:
    """The turn order runs the other way from now on: the next turn is the player's
    before this one, and response windows ask in the new order too (R-G20)."""
    p = task.ctx.resolver
    state.direction = -state.direction
    state.emit("reverse", M.REVERSE, (p,), player=p)


# --- composing ------------------------------------------------------------------------

def for_players(state: Board, task: Task, choice: int | None) -> None:
    """The nested steps, resolved by each player the parameter names, in turn order:
    each other player, the player to your left (next in turn order) or right, the
    target's controller, or one other player you choose."""
    ctx, codec = task.ctx, state.codec
    p, who = ctx.resolver, task.param
    if who == "chosen_other":
        if choice is None:
            if state.n > 1:
                state.ask(p, _PLAYER, [codec.choose_player(q) for q in others(state, p)], task)
            return
        players = [codec.chosen_player(choice)]
    elif who == "each_other":
        players = others(state, p)
    elif who == "left":
        players = [(p + 1) % state.n] if state.n > 1 else []
    elif who == "right":
        players = [(p - 1) % state.n] if state.n > 1 else []
    else:  # target_owner
        owner = state.controller.get(ctx.target, -1) if ctx.target >= 0 else -1
        players = [owner] if owner >= 0 else []
    # Pushed last player first: the queue runs the last pushed first (R-G15 order).
    for q in reversed(players):
        state.push_steps(Ctx(q, ctx.card, ctx.target, ctx.icons_at_play), task.sub)


def condition_holds(state: Board, ctx: Ctx, cond: Any) -> bool:
    """Every test a condition names holds now (see ``effects.Condition``)."""
    p, target = ctx.resolver, ctx.target
    if cond.self_worth_at_most is not None or cond.self_worth_at_least is not None:
        if target < 0 or target not in state.stacks:
            return False
        worth = state.self_worth(target)
        if cond.self_worth_at_most is not None and worth > cond.self_worth_at_most:
            return False
        if cond.self_worth_at_least is not None and worth < cond.self_worth_at_least:
            return False
    hand = len(state.hands[p]) if p >= 0 else 0
    if cond.hand_at_most is not None and hand > cond.hand_at_most:
        return False
    if cond.hand_at_least is not None and hand < cond.hand_at_least:
        return False
    if cond.icons is not None:
        c = cond.icons
        if c.whose == "target":
            n = (state.visible_of(target).icons.count(c.icon)
                 if target >= 0 and target in state.stacks else 0)
        elif c.whose == "yours":
            n = state.count_icons(p, c.icon) if p >= 0 else 0
        else:
            n = sum(state.count_icons(q, c.icon) for q in range(state.n))
        if n < c.at_least:
            return False
    if cond.cards is not None:
        where = cond.cards.where
        if where == "discard":
            n = len(state.discard)
        elif where == "dead":
            n = len(state.dead_characters())
        else:
            n = len(state.modifiers_on(target)) if target >= 0 and target in state.stacks else 0
        if n < cond.cards.at_least:
            return False
    if cond.target_owner is not None:
        owner = state.controller.get(target, -1) if target >= 0 else -1
        if (owner == p) != (cond.target_owner == "you"):
            return False
    return True


def only_if(state: Board, task: Task, choice: int | None) -> None:
    """The nested steps happen only if the condition holds as this step is reached."""
    if condition_holds(state, task.ctx, task.param):
        state.push_steps(task.ctx, task.sub)
