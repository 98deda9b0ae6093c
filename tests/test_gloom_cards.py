"""One test per card (XMage style): every card of the shipped classic set that has
an effect is played in a prepared position, and what it did is checked.

The checker is generic, driven by the card's data: it walks the card's effect
steps in printed order, predicts what each primitive must do in the prepared
position, answers every question the effect asks with a fixed policy, and then
compares the prediction with the game. A primitive the checker does not know
fails the test, so a new primitive in the classic set cannot go untested.

The position (3 players, player 1 = seat 0 to play, first play of the turn):

* seat 0: A has negative Self-Worth and shows the icons the card's
  ``if_icon`` steps require; B has a plain negative Modifier on top; C is
  dead; the fourth Character shows the icons ``draw_per_icon`` counts.
* seat 1: D has a plain positive Modifier on top; E is dead.
* hands: seat 0 holds the card under test, two plain Modifiers and a plain
  Untimely Death; seats 1 and 2 hold three plain Modifiers each.

All setup cards are effect-free classic cards picked by what they print.

Modifiers and Untimely Deaths are played on A (so seat 0 resolves them,
R-G16); Events are played by seat 0.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from gloom_helpers import (
    char_view,
    check_conservation,
    classic,
    draw_limits,
    kinds,
    pass_play,
    pass_responses,
    play_action,
    put_on,
    set_hand,
    start,
)
from gloomtable.games.gloom.cards import Card, CardType, Step, visible
from gloomtable.games.gloom.effects import PRIMITIVES
from gloomtable.games.gloom.state import GloomState

DECK = classic()

EFFECT_CARDS = [c for c in DECK.cards if c.effects]
RESPONSE_CARDS = [c for c in EFFECT_CARDS if any(e.when == "response" for e in c.effects)]
PLAYED_CARDS = [c for c in EFFECT_CARDS if c not in RESPONSE_CARDS]


def _steps(c: Card) -> list[Step]:
    out: list[Step] = []

    def walk(steps: tuple[Step, ...]) -> None:
        for st in steps:
            out.append(st)
            walk(st.steps)

    for e in c.effects:
        walk(e.steps)
    return out


def _has_step(c: Card, name: str) -> bool:
    return any(st.name == name for st in _steps(c))


def _icons_of(c: Card | None, step: str) -> set[str]:
    return set() if c is None else {st.param for st in _steps(c) if st.name == step}


IF_ICON_CARDS = [c for c in PLAYED_CARDS if _has_step(c, "if_icon")]

# Effect-free classic cards build the position; they are picked by what they
# print, so the test follows the deck data.
PLAIN = [c for c in DECK.cards if not c.effects and not c.text]


def _plain(ctype: CardType, pred: Callable[[Card], bool], taken: set[int]) -> int:
    for c in PLAIN:
        if c.type is ctype and c.index not in taken and pred(c):
            taken.add(c.index)
            return c.index
    raise AssertionError(f"the classic deck has no plain {ctype} left for this position")


def _worth(c: Card) -> int:
    return sum(p or 0 for p in c.points)


def test_every_effect_primitive_of_the_classic_set_is_known_to_the_checker():
    used = {st.name for c in EFFECT_CARDS for st in _steps(c)}
    assert used <= set(CHECKED_PRIMITIVES) | {"cancel"}
    assert used <= set(PRIMITIVES)
    assert PLAYED_CARDS and RESPONSE_CARDS and IF_ICON_CARDS


# --- the prepared position ----------------------------------------------------------


@dataclass
class Position:
    state: GloomState
    a: int
    b: int
    c: int
    d: int
    e: int
    b_top: int
    d_top: int
    c_death: int
    e_death: int
    fillers: list[int]
    spare_death: int
    revive_options: list[int] | None = None


def prepare(card: Card | None, with_icons: bool = True, seed: int = 3) -> Position:
    """The position of the module docstring, built from plain classic cards.

    With ``with_icons``, A shows every icon the card's ``if_icon`` steps ask for
    and seat 0's fourth Character shows the icons its ``draw_per_icon`` steps
    count; without, no living Character of seat 0 shows an ``if_icon`` icon."""
    s = start(DECK, players=3, seed=seed)
    a, b, c, f = s.families[0][0], s.families[0][1], s.families[0][2], s.families[0][3]
    d, e = s.families[1][0], s.families[1][1]
    required = _icons_of(card, "if_icon")
    counted = _icons_of(card, "draw_per_icon") - (set() if with_icons else required)
    taken: set[int] = {card.index} if card is not None else set()

    def avoid(x: Card) -> bool:
        return not required & set(x.icons)

    if with_icons:
        for icon in sorted(required):
            put_on(s, a, _plain(CardType.MODIFIER, lambda x, i=icon: i in x.icons, taken))
    # A: negative Self-Worth, without covering the icons it must show
    a_cards = [s.cards[i] for i in s.stacks[a]]
    put_on(s, a, _plain(CardType.MODIFIER, lambda x: _worth(x) < 0 and (
        required <= set(visible([*a_cards, x]).icons) if with_icons else avoid(x)), taken))
    b_top = _plain(CardType.MODIFIER, lambda x: _worth(x) < 0 and avoid(x), taken)
    put_on(s, b, b_top)
    for icon in sorted(counted):
        put_on(s, f, _plain(CardType.MODIFIER, lambda x, i=icon: i in x.icons and avoid(x), taken))
    c_death = _plain(CardType.UNTIMELY_DEATH, lambda x: True, taken)
    put_on(s, c, c_death)
    d_top = _plain(CardType.MODIFIER, lambda x: _worth(x) > 0, taken)
    put_on(s, d, d_top)
    e_death = _plain(CardType.UNTIMELY_DEATH, lambda x: True, taken)
    put_on(s, e, e_death)
    spare_death = _plain(CardType.UNTIMELY_DEATH, lambda x: True, taken)
    fillers = [_plain(CardType.MODIFIER, avoid, taken) for _ in range(8)]
    mine = [card.index] if card is not None else []
    set_hand(s, 0, [*mine, fillers[0], fillers[1], spare_death])
    set_hand(s, 1, fillers[2:5])
    set_hand(s, 2, fillers[5:8])
    check_conservation(s)
    pos = Position(s, a, b, c, d, e, b_top, d_top, c_death, e_death, fillers, spare_death)
    assert char_view(s, a)["self_worth"] < 0
    own_icons = {i for ch in s.living_of(0) for i in char_view(s, ch)["icons"]}
    if with_icons:
        assert required <= set(char_view(s, a)["icons"])
        assert counted <= own_icons
    else:
        assert not required & own_icons
    assert char_view(s, c)["dead"] and char_view(s, e)["dead"]
    return pos


# --- the model: what each primitive must do here ------------------------------------


@dataclass
class Model:
    """The prediction, updated step by step in printed order (R-G15)."""

    hands: list[list[int]]
    pile: list[int]
    discard_gain: list[int] = field(default_factory=list)
    free_plays: list[str] = field(default_factory=list)
    skips: list[int] = field(default_factory=lambda: [0, 0, 0])
    limit_delta: int = 0
    stolen: int = 0
    checks: list = field(default_factory=list)
    asked: list[str] = field(default_factory=list)


def _draw(m: Model, p: int, n: int) -> None:
    for _ in range(n):
        m.hands[p].append(m.pile.pop())


def predict(pos: Position, card: Card, icons_before: tuple[str, ...], own_icons: set[str]) -> Model:
    """Walk the card's immediate steps; ``icons_before`` are the target's icons when
    the card is played, ``own_icons`` the icons on seat 0's living Characters."""
    s = pos.state
    m = Model([list(h) for h in s.hands], list(s.draw_pile))
    m.hands[0].remove(card.index)
    is_event = card.type is CardType.EVENT

    def run(steps: tuple[Step, ...]) -> None:
        for step in steps:
            name, param = step.name, step.param
            if name == "draw":
                _draw(m, 0, param)
            elif name == "discard":
                for _ in range(min(param, len(m.hands[0]))):
                    m.asked.append("discard")
                    low = min(m.hands[0])  # the policy discards the lowest card index
                    m.hands[0].remove(low)
                    m.discard_gain.append(low)
            elif name == "draw_per_icon":
                n = own_icon_count(pos, card, param)
                assert n > 0, "position must make draw_per_icon draw something"
                _draw(m, 0, n)
            elif name == "each_other_player_draws":
                for q in (1, 2):
                    _draw(m, q, param)
            elif name == "steal":
                m.asked.append("steal_from")
                k = min(param, len(m.hands[1]))
                m.stolen += k
            elif name == "swap_hands":
                m.asked.append("swap_hands_with")
                m.hands[0], m.hands[1] = m.hands[1], m.hands[0]
            elif name == "free_play":
                m.free_plays.append(param)
            elif name == "skip_turn":
                if param == "other":
                    m.asked.append("skip_turn")
                m.skips[0 if param == "you" else 1] += 1
            elif name == "move_modifier":
                m.asked += ["move_modifier_from", "move_modifier_to"]
                m.checks.append(("top", pos.d, pos.b_top))
                m.checks.append(("stack", pos.b, [pos.b]))
            elif name == "return_modifier":
                m.asked.append("return_modifier")
                m.hands[0 if param == "you" else 1].append(pos.d_top)
                m.checks.append(("stack", pos.d, [pos.d]))
            elif name == "remove_modifier":
                m.asked.append("remove_modifier")
                m.discard_gain.append(pos.b_top)
                m.checks.append(("stack", pos.b, [pos.b]))
            elif name == "revive":
                m.asked.append("revive")
                char, death = (pos.c, pos.c_death) if param == "yours" else (pos.e, pos.e_death)
                m.discard_gain.append(death)
                m.checks.append(("alive", char, None))
                m.checks.append(("revive_options", param, None))
            elif name == "draw_limit":
                m.limit_delta += param
            elif name == "if_icon":
                shown = own_icons if is_event else set(icons_before)
                if param in shown:
                    run(step.steps)
            else:
                raise AssertionError(f"the card checker does not know the primitive {name!r}")

    for effect in card.effects:
        if effect.when == "immediate":
            run(effect.steps)
        elif effect.when == "continuous":
            for step in effect.steps:
                assert step.name in CONTINUOUS_PRIMITIVES, step.name
                m.limit_delta += step.param
        else:
            raise AssertionError(f"unexpected effect kind {effect.when!r} on {card.key}")
    if card.type is CardType.EVENT:
        m.discard_gain.append(card.index)
    return m


CHECKED_PRIMITIVES = (
    "draw", "discard", "draw_per_icon", "each_other_player_draws", "steal", "swap_hands",
    "free_play", "skip_turn", "move_modifier", "return_modifier", "remove_modifier", "revive",
    "draw_limit", "if_icon",
)
CONTINUOUS_PRIMITIVES = ("draw_limit",)


def own_icon_count(pos: Position, card: Card, icon: str) -> int:
    """Icons on seat 0's living Characters once ``card`` lies on A (the cardinal rule)."""
    s = pos.state
    total = 0
    for ch in s.families[0]:
        stack = [s.cards[i] for i in s.stacks[ch]]
        if ch == pos.a and card.type is not CardType.EVENT:
            stack.append(card)
        if stack[-1].type is CardType.UNTIMELY_DEATH:
            continue
        total += visible(stack).icons.count(icon)
    return total


# --- the policy that answers the effect's questions --------------------------------------


def answer(pos: Position, seen: list[str]) -> None:
    """Answer decisions until the turn player is asked for a play again."""
    s = pos.state
    codec = s.codec
    for _ in range(50):
        d = s.decision
        if s.is_over() or d.kind == "play":
            return
        if d.kind == "respond":
            pass_responses(s)
            continue
        assert d.player == 0, f"seat 0 resolves its own card (R-G16), but {d} was asked"
        seen.append(d.kind)
        legal = s.legal_actions()
        pick = {
            "move_modifier_from": codec.choose_card(pos.b),
            "move_modifier_to": codec.choose_card(pos.d),
            "return_modifier": codec.choose_card(pos.d),
            "remove_modifier": codec.choose_card(pos.b),
            "steal_from": codec.choose_player(1),
            "swap_hands_with": codec.choose_player(1),
            "skip_turn": codec.choose_player(1),
        }.get(d.kind)
        if d.kind == "revive":
            dead = sorted(codec.chosen_card(a) for a in legal)
            pick = codec.choose_card(pos.e if pos.e in dead else pos.c)
            pos.revive_options = dead
        if d.kind == "discard":
            pick = legal[0]
        assert pick in legal, (d.kind, pick, legal)
        s.apply(pick)
    raise AssertionError("the effect never finished")


# --- the per-card test ----------------------------------------------------------------------


def _id(c: Card) -> str:
    return c.key


def _play_and_check(card: Card, with_icons: bool) -> None:
    pos = prepare(card, with_icons=with_icons)
    s = pos.state
    a = pos.a
    icons_before = tuple(char_view(s, a)["icons"])
    own_icons = {i for ch in s.families[0] if not s.is_dead(ch) for i in char_view(s, ch)["icons"]}
    model = predict(pos, card, icons_before, own_icons)
    discard_before = list(s.discard)
    old_hands = [list(h) for h in s.hands]

    action = play_action(s, card.index, a)
    assert action in s.legal_actions(), f"{card.key} cannot be played in the prepared position"
    events = s.apply(action)
    seen: list[str] = []
    answer(pos, seen)

    assert not s.is_over()
    assert s.turn_player == 0 and s.decision.kind == "play", "the turn goes on after the first play"
    assert seen == model.asked, f"questions asked {seen}, expected {model.asked}"
    assert "play" in kinds(events)
    # where the card went
    if card.type is CardType.MODIFIER:
        assert s.stacks[a][-1] == card.index
        assert not char_view(s, a)["dead"]
    elif card.type is CardType.UNTIMELY_DEATH:
        assert s.stacks[a][-1] == card.index
        assert char_view(s, a)["dead"]
    # hands
    if model.stolen:
        gained = [c for c in s.hands[0] if c not in model.hands[0]]
        assert len(gained) == model.stolen
        assert set(gained) <= set(old_hands[1])
        assert sorted(s.hands[1]) == sorted(c for c in old_hands[1] if c not in gained)
    else:
        for p in range(3):
            assert sorted(s.hands[p]) == sorted(model.hands[p]), f"hand of seat {p}"
    assert s.draw_pile == model.pile
    assert sorted(s.discard) == sorted(discard_before + model.discard_gain)
    # the rest of the table
    view = s.view(0)
    assert view["free_plays"] == model.free_plays
    assert view["skips"] == model.skips
    expected_limit = 5 + model.limit_delta if card.type is CardType.MODIFIER else 5
    assert draw_limits(s) == [expected_limit, 5, 5]
    for kind, where, what in model.checks:
        if kind == "top":
            assert s.stacks[where][-1] == what
        elif kind == "stack":
            assert s.stacks[where] == what
        elif kind == "alive":
            assert not char_view(s, where)["dead"]
        elif kind == "revive_options":
            offered = pos.revive_options
            assert offered == ([pos.c] if where == "yours" else sorted([pos.c, pos.e]))
    check_conservation(s)

    # follow-up: a granted free play really is usable after both counted plays are spent
    if model.free_plays:
        pass_play(s)
        assert s.turn_player == 0 and s.decision.kind == "play"
        legal = s.legal_actions()
        kind = model.free_plays[0]
        if kind in ("modifier", "any"):
            assert s.codec.play(pos.fillers[0], pos.b) in legal
        if kind in ("untimely_death", "any"):
            assert s.codec.play(pos.spare_death, pos.b) in legal
        if kind == "modifier":
            assert s.codec.play(pos.spare_death, pos.b) not in legal
    # follow-up: the draw limit applies when drawing up
    elif model.limit_delta and card.type is CardType.MODIFIER and not model.free_plays:
        pass_play(s)
        assert s.turn_player == 1
        assert len(s.hands[0]) == max(len(model.hands[0]), expected_limit)
    # follow-up: skipped turns are skipped
    if any(model.skips) and not model.free_plays:
        pass_play(s)
        order = []
        for _ in range(3):
            order.append(s.turn_player)
            turn = s.turn
            while s.turn == turn and not s.is_over():
                if s.decision.kind == "respond":
                    pass_responses(s)
                else:
                    pass_play(s)
        assert order == expected_turn_order(model.skips, start_after=0, turns=3)


def expected_turn_order(skips: list[int], start_after: int, turns: int) -> list[int]:
    """Clockwise turn order after seat ``start_after``, each skip eating one turn."""
    skips = list(skips)
    out: list[int] = []
    p = start_after
    while len(out) < turns:
        p = (p + 1) % len(skips)
        if skips[p]:
            skips[p] -= 1
            continue
        out.append(p)
    return out


@pytest.mark.parametrize("card", PLAYED_CARDS, ids=_id)
def test_card(card):
    """Play the card in the prepared position and check what it did."""
    _play_and_check(card, with_icons=True)


@pytest.mark.parametrize("card", IF_ICON_CARDS, ids=_id)
def test_card_without_the_required_icon(card):
    """R-G21: the same card where the required icon does not show: the if_icon part does not happen."""
    _play_and_check(card, with_icons=False)


@pytest.mark.parametrize("card", RESPONSE_CARDS, ids=_id)
def test_response_card(card):
    """A response card held by seat 1 cancels the matching card seat 0 plays (R-G20)."""
    kinds_cancelled = {s.param for e in card.effects if e.when == "response" for s in e.steps}
    assert len(kinds_cancelled) == 1
    kind = kinds_cancelled.pop()
    candidates = [c for c in DECK.cards if c.type.value == kind and c not in RESPONSE_CARDS]
    # prefer a card whose effect would show (it draws), so "cancelled" is visible
    played = next((c for c in candidates if _has_step(c, "draw")), candidates[0])
    other_kinds = [c for c in PLAYED_CARDS if c.type.value != kind and c.type is not CardType.MODIFIER]
    pos = prepare(played)
    s = pos.state
    set_hand(s, 1, [card.index, pos.fillers[2]])
    hand0 = [c for c in s.hands[0] if c != played.index]
    a_stack = list(s.stacks[pos.a])
    s.apply(play_action(s, played.index, pos.a))
    assert s.decision.kind == "respond" and s.decision.player == 1
    assert s.codec.respond(card.index) in s.legal_actions()
    events = s.apply(s.codec.respond(card.index))
    assert "response" in kinds(events)
    # cancelled: its effects did not happen, it and the response are discarded, the play is used
    assert sorted(s.hands[0]) == sorted(hand0)
    assert played.index in s.discard and card.index in s.discard
    assert s.hands[1] == [pos.fillers[2]]
    assert not char_view(s, pos.a)["dead"]
    assert s.stacks[pos.a] == a_stack
    assert s.view(0)["plays_left"] == 1
    assert s.decision.kind == "play" and s.decision.player == 0  # seat 2 is not asked any more
    check_conservation(s)

    # the same response card does not answer a card of another type
    other = other_kinds[0]
    pos = prepare(other)
    s = pos.state
    set_hand(s, 1, [card.index])
    s.apply(play_action(s, other.index, pos.a))
    assert s.decision.kind == "respond" and s.decision.player == 1
    assert s.legal_actions() == [s.codec.PASS]


def test_every_effect_card_is_covered():
    covered = {c.key for c in PLAYED_CARDS} | {c.key for c in RESPONSE_CARDS}
    assert covered == {c.key for c in EFFECT_CARDS}
    assert len(EFFECT_CARDS) >= 30  # the classic set is full of effects
