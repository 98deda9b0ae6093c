"""One test per card of examples/ashgrove-rookery.toml (XMage style: set up a position,
play the card, check what it did), the deck that uses every primitive of the richer
card language (docs/decks.md, "Targets, conditions and triggers").

The position: classic + the Rookery, 3 players, seat 0 to make the first play of the
first turn; each seat has a classic family (A, B, C, D are seat 0's Characters; seat 1
and seat 2 have theirs). Hands are set by each test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gloom_helpers import (
    choose_card,
    choose_player,
    classic,
    finish_turn,
    give,
    kinds,
    pass_responses,
    play,
    put_on,
    set_draw_pile_top,
    set_hand,
    start,
)
from gloomtable.engine import DecisionKind
from gloomtable.games.gloom.deck import combine, load_deck
from gloomtable.games.gloom.state import GloomState

ROOKERY = str(Path(__file__).resolve().parents[1] / "examples" / "ashgrove-rookery.toml")
DECK = combine([classic(), load_deck(ROOKERY)])
_K = DecisionKind


def pos(players: int = 3) -> GloomState:
    s = start(DECK, players=players)
    for p in range(players):
        set_hand(s, p, [])
    return s


def r(s: GloomState, name: str) -> int:
    return s.game.card_by_key[f"rookery-{name}"]


def plain(s: GloomState, key: str) -> int:
    return s.game.card_by_key[key]


def play_mod(s: GloomState, card: int, target: int) -> list:
    """Seat 0 plays ``card`` from its hand on ``target``; every response window is let pass."""
    give(s, s.turn_player, card)
    events = play(s, card, target)
    events += pass_responses(s)
    return events


def play_event(s: GloomState, card: int) -> list:
    give(s, s.turn_player, card)
    events = play(s, card)
    events += pass_responses(s)
    return events


def next_turn_of(s: GloomState, p: int) -> None:
    """Pass turns until it is ``p``'s."""
    while True:
        finish_turn(s)
        if s.turn_player == p and s.decision.kind == _K.PLAY:
            return


# --- Modifiers -------------------------------------------------------------------

def test_was_adopted_next_door_moves_a_character_to_another_family() -> None:
    s = pos()
    a, b = s.families[0][0], s.families[1][0]
    play_mod(s, r(s, "was-adopted-next-door"), a)
    assert s.decision.kind == _K.CHOOSE_TARGET and s.decision.player == 0  # R-G16: A's controller
    choose_card(s, b)
    assert s.decision.kind == _K.CHOOSE_PLAYER
    assert s.codec.choose_player(1) not in s.decision.options  # not back to its own family
    events = choose_player(s, 2)
    assert b in s.families[2] and b not in s.families[1] and s.controller[b] == 2
    assert "change_family" in kinds(events)
    assert any(ch["card"] == b for ch in s.view(None)["families"][2]["characters"])


def test_was_adopted_next_door_never_takes_a_familys_last_living_character() -> None:
    s = pos()
    deaths = [c.index for c in s.cards if c.type.value == "untimely_death"]
    for ch, d in zip(s.families[1][1:], deaths, strict=False):
        put_on(s, ch, d)
    play_mod(s, r(s, "was-adopted-next-door"), s.families[0][0])
    offered = {s.codec.chosen_card(o) for o in s.decision.options}
    assert s.families[1][0] not in offered  # R-G24: the move would end the game
    assert s.families[2][0] in offered


def test_wandered_off_sideways_moves_itself_on() -> None:
    s = pos()
    a, b = s.families[0][0], s.families[1][0]
    card = r(s, "wandered-off-sideways")
    play_mod(s, card, a)
    assert s.decision.kind == _K.CHOOSE_TARGET
    choose_card(s, b)
    assert s.stacks[a] == [a] and s.stacks[b][-1] == card
    assert s.self_worth(b) == -15


def test_counted_the_ducks_twice_draws_two_only_with_two_ducks() -> None:
    s = pos()
    a, b = s.families[0][0], s.families[0][1]
    put_on(s, a, plain(s, "was-pursued-by-geese"))  # a duck at the top
    hand = len(s.hands[0])
    play_mod(s, r(s, "counted-the-ducks"), a)
    assert len(s.hands[0]) == hand + 2
    s2 = pos()
    play_mod(s2, r(s2, "counted-the-ducks"), s2.families[0][1])  # one duck: its own
    assert len(s2.hands[0]) == 0
    assert b in s.families[0]


def test_fretted_in_the_dark_draws_at_minus_ten_or_less() -> None:
    s = pos()
    a = s.families[0][0]
    put_on(s, a, plain(s, "took-a-chill-on-the-moors"))  # bottom -15
    play_mod(s, r(s, "fretted-in-the-dark"), a)  # -10 + 5 - 15 = -20
    assert s.self_worth(a) == -20 and len(s.hands[0]) == 1
    s2 = pos()
    play_mod(s2, r(s2, "fretted-in-the-dark"), s2.families[0][0])  # -5: no draw
    assert len(s2.hands[0]) == 0


def test_cast_a_long_shadow_lowers_every_other_players_draw_limit() -> None:
    s = pos()
    play_mod(s, r(s, "cast-a-long-shadow"), s.families[0][0])
    assert s.view(None)["draw_limits"] == [5, 4, 4]


def test_was_plagued_by_ducks_costs_five_per_duck_shown() -> None:
    s = pos()
    a = s.families[0][0]
    put_on(s, a, plain(s, "took-a-chill-on-the-moors"))  # bottom -15, a bottom duck
    play_mod(s, r(s, "was-plagued-by-ducks"), a)
    # 5 (top) - 15 (bottom), then two ducks (middle, bottom) at -5 each
    assert s.self_worth(a) == -20
    assert s.view(None)["families"][0]["characters"][0]["self_worth"] == -20
    # the text covered: the shift ends (R-G18)
    put_on(s, a, plain(s, "was-blessed-by-a-passing-saint"))
    assert s.cards[plain(s, "was-blessed-by-a-passing-saint")].prints_text is False
    s2 = pos()
    b = s2.families[0][0]
    play_mod(s2, r(s2, "was-plagued-by-ducks"), b)
    assert s2.self_worth(b) == 0  # 5, one duck


def test_mourned_loudly_draws_two_when_another_of_yours_dies() -> None:
    s = pos()
    a, b = s.families[0][0], s.families[0][1]
    play_mod(s, r(s, "mourned-loudly"), a)
    put_on(s, b, plain(s, "took-a-chill-on-the-moors"))
    next_turn_of(s, 0)
    set_hand(s, 0, [])
    play_mod(s, r(s, "fell-down-the-dumbwaiter"), b)
    assert s.is_dead(b)
    assert len(s.hands[0]) == 2


def test_kept_a_ledger_of_funerals_draws_when_another_familys_character_dies() -> None:
    s = pos()
    a, mine, theirs = s.families[0][0], s.families[0][1], s.families[1][0]
    play_mod(s, r(s, "kept-a-ledger-of-funerals"), a)
    put_on(s, theirs, plain(s, "took-a-chill-on-the-moors"))
    put_on(s, mine, plain(s, "was-pursued-by-geese"))
    next_turn_of(s, 0)
    set_hand(s, 0, [])
    play_mod(s, r(s, "choked-on-a-wishbone"), theirs)
    assert len(s.hands[0]) == 1
    next_turn_of(s, 0)
    set_hand(s, 0, [])
    play_mod(s, r(s, "slept-through-the-fire"), mine)  # one of mine: no draw
    assert s.is_dead(mine) and len(s.hands[0]) == 0


def test_had_the_final_word_makes_each_other_player_discard_when_it_dies() -> None:
    s = pos()
    a = s.families[0][0]
    play_mod(s, r(s, "had-a-final-word"), a)  # -5: may die
    next_turn_of(s, 0)
    set_hand(s, 1, [plain(s, "was-pursued-by-geese")])
    set_hand(s, 2, [plain(s, "learned-to-waltz"), plain(s, "grew-a-prize-marrow")])
    play_mod(s, r(s, "leaned-out-too-far"), a)
    assert s.is_dead(a)
    assert (s.decision.kind, s.decision.player) == (_K.DISCARD, 1)
    s.apply(s.decision.options[0])
    assert (s.decision.kind, s.decision.player) == (_K.DISCARD, 2)
    s.apply(s.decision.options[0])
    assert s.hands[1] == [] and len(s.hands[2]) == 1


def test_heard_footsteps_above_draws_when_a_modifier_lands_on_it() -> None:
    s = pos()
    a, b = s.families[0][0], s.families[0][1]
    play_mod(s, r(s, "heard-footsteps-above"), a)
    assert len(s.hands[0]) == 0  # its own arrival does not trigger it
    s.free_plays.append("modifier")  # R-G13: a second play that leaves the turn open
    play_mod(s, plain(s, "was-pursued-by-geese"), a)
    assert len(s.hands[0]) == 1 and s.turn_player == 0
    s2 = pos()
    play_mod(s2, r(s2, "heard-footsteps-above"), s2.families[0][0])
    s2.free_plays.append("modifier")
    play_mod(s2, plain(s2, "was-pursued-by-geese"), b)  # on another Character: nothing
    assert len(s2.hands[0]) == 0


def test_kept_vigil_at_dawn_draws_at_the_start_of_your_turn_with_three_or_fewer() -> None:
    s = pos()
    play_mod(s, r(s, "kept-vigil-at-dawn"), s.families[0][0])
    finish_turn(s)  # seat 0 draws up to 5
    set_hand(s, 0, s.hands[0][:2])
    next_turn_of(s, 0)
    assert len(s.hands[0]) == 3  # 2 + the vigil's card


def test_nursed_a_grudge_makes_the_player_to_your_left_discard_at_your_turns_end() -> None:
    s = pos()
    play_mod(s, r(s, "nursed-a-grudge"), s.families[0][0])
    set_hand(s, 1, [plain(s, "was-pursued-by-geese"), plain(s, "learned-to-waltz")])
    s.apply(s.codec.PASS)  # the second play: the turn ends
    assert (s.decision.kind, s.decision.player) == (_K.DISCARD, 1)
    assert s.turn_player == 0 and len(s.hands[0]) == 0  # the draw up waits
    s.apply(s.decision.options[0])
    assert len(s.hands[1]) == 1 and len(s.hands[0]) == 5 and s.turn_player == 1


# --- Events ----------------------------------------------------------------------

def test_the_great_rearrangement_moves_a_whole_stack_in_order() -> None:
    s = pos()
    b, c = s.families[1][0], s.families[2][0]
    m1, m2 = plain(s, "was-pursued-by-geese"), plain(s, "learned-to-waltz")
    put_on(s, b, m1, m2)
    play_event(s, r(s, "the-great-rearrangement"))
    assert s.decision.kind == _K.CHOOSE_TARGET
    choose_card(s, b)
    events = choose_card(s, c)
    assert s.stacks[b] == [b] and s.stacks[c] == [c, m1, m2]
    assert "move_stack" in kinds(events)


def test_peered_through_the_keyhole_shows_a_hand_to_its_player_only() -> None:
    s = pos()
    hand1 = set_hand(s, 1, [plain(s, "was-pursued-by-geese"), plain(s, "learned-to-waltz")])
    play_event(s, r(s, "peered-through-the-keyhole"))
    events = choose_player(s, 1)
    looks = [e for e in events if e.kind == "look"]
    assert sorted(e.card for e in looks) == sorted(hand1)
    assert all(e.for_player(2).card is None for e in looks)


def test_read_the_tea_leaves_shows_the_top_three_then_draws_one() -> None:
    s = pos()
    top = set_draw_pile_top(s, plain(s, "was-pursued-by-geese"), plain(s, "learned-to-waltz"),
                            plain(s, "grew-a-prize-marrow"))
    events = play_event(s, r(s, "read-the-tea-leaves"))
    assert [e.card for e in events if e.kind == "look"] == top
    assert s.hands[0] == [top[0]]


def test_picked_a_pocket_carefully_takes_the_card_you_choose() -> None:
    s = pos()
    want, other = plain(s, "was-pursued-by-geese"), plain(s, "learned-to-waltz")
    set_hand(s, 1, [want, other])
    play_event(s, r(s, "picked-a-pocket-carefully"))
    choose_player(s, 1)
    assert s.decision.kind == _K.CHOOSE_CARD
    assert set(s.decision.options) == {s.codec.choose_card(want), s.codec.choose_card(other)}
    choose_card(s, want)
    assert s.hands[0] == [want] and s.hands[1] == [other]


def test_pressed_a_gift_upon_them_gives_a_card_then_draws_two() -> None:
    s = pos()
    gift = plain(s, "was-pursued-by-geese")
    set_hand(s, 0, [gift])
    play_event(s, r(s, "pressed-a-gift-upon-them"))
    choose_player(s, 2)
    choose_card(s, gift)
    assert s.hands[2] == [gift] and len(s.hands[0]) == 2


def test_went_through_the_rubbish_takes_a_modifier_back() -> None:
    s = pos()
    mod, event = plain(s, "was-pursued-by-geese"), r(s, "a-plague-of-chores")
    for c in (mod, event):
        give(s, 1, c)
        s.hands[1].remove(c)
        s.discard.append(c)
    play_event(s, r(s, "went-through-the-rubbish"))
    assert s.decision.options == (s.codec.choose_card(mod),)
    choose_card(s, mod)
    assert s.hands[0] == [mod] and mod not in s.discard


def test_stayed_up_all_night_gives_another_turn() -> None:
    s = pos()
    play_event(s, r(s, "stayed-up-all-night"))
    s.apply(s.codec.PASS)
    assert s.turn_player == 0 and s.decision.kind == _K.PLAY
    assert s.turn == 4  # seats 1 and 2 skipped theirs
    finish_turn(s)
    assert s.turn_player == 1


def test_turned_the_house_about_reverses_the_turn_order() -> None:
    s = pos()
    events = play_event(s, r(s, "turned-the-house-about"))
    assert "reverse" in kinds(events) and s.view(None)["direction"] == -1
    s.apply(s.codec.PASS)
    assert s.turn_player == 2  # the player before seat 0 (R-G14: the next in turn order)
    # response windows ask in the new order too (R-G20): seat 1, then seat 0
    assert s.turn_order_from(2) == [2, 1, 0]
    finish_turn(s)
    assert s.turn_player == 1
    assert s.snapshot()["direction"] == -1


def test_a_plague_of_chores_makes_each_other_player_discard() -> None:
    s = pos()
    set_hand(s, 1, [plain(s, "was-pursued-by-geese")])
    set_hand(s, 2, [plain(s, "learned-to-waltz")])
    play_event(s, r(s, "a-plague-of-chores"))
    assert (s.decision.kind, s.decision.player) == (_K.DISCARD, 1)
    s.apply(s.decision.options[0])
    s.apply(s.decision.options[0])
    assert s.hands[1] == [] and s.hands[2] == []


def test_sent_word_next_door_feeds_the_player_to_your_left() -> None:
    s = pos()
    play_event(s, r(s, "sent-word-next-door"))
    assert [len(h) for h in s.hands] == [1, 2, 0]


def test_took_stock_of_things_counts_the_hand_and_the_discard_pile() -> None:
    s = pos()
    play_event(s, r(s, "took-stock-of-things"))
    assert len(s.hands[0]) == 3
    s2 = pos()
    back = s2.draw_pile[:10]
    for c in back:
        s2.draw_pile.remove(c)
        s2.discard.append(c)
    set_hand(s2, 0, [plain(s2, "was-pursued-by-geese")] * 1 + [plain(s2, "learned-to-waltz"),
                                                              plain(s2, "grew-a-prize-marrow")])
    play_event(s2, r(s2, "took-stock-of-things"))  # 3 in hand: no draw; 10+ discarded
    assert s2.decision.kind == _K.CHOOSE_CARD
    choose_card(s2, back[0])
    assert back[0] in s2.hands[0] and len(s2.hands[0]) == 4


def test_slammed_the_door_cancels_a_death_and_draws_two() -> None:
    s = pos()
    victim = s.families[1][0]
    put_on(s, victim, plain(s, "took-a-chill-on-the-moors"))
    door = r(s, "slammed-the-door")
    set_hand(s, 1, [door])
    give(s, 0, r(s, "fell-down-the-dumbwaiter"))
    play(s, r(s, "fell-down-the-dumbwaiter"), victim)
    assert (s.decision.kind, s.decision.player) == (_K.RESPOND, 1)  # R-G20
    events = s.apply(s.codec.respond(door))
    assert not s.is_dead(victim) and "response" in kinds(events)
    assert len(s.hands[1]) == 2 and door in s.discard


def test_not_under_my_roof_cancels_a_modifier_and_takes_a_chosen_card() -> None:
    s = pos()
    roof = r(s, "not-under-my-roof")
    want = plain(s, "learned-to-waltz")
    set_hand(s, 1, [roof])
    set_hand(s, 2, [want])
    mod = plain(s, "was-pursued-by-geese")
    give(s, 0, mod)
    play(s, mod, s.families[1][0])
    s.apply(s.codec.respond(roof))
    assert (s.decision.kind, s.decision.player) == (_K.CHOOSE_PLAYER, 1)
    choose_player(s, 2)
    choose_card(s, want)
    assert s.hands[1] == [want]
    assert mod in s.discard and s.stacks[s.families[1][0]] == [s.families[1][0]]  # R-G20


# --- Untimely Deaths and Characters ---------------------------------------------

DEATHS = {"fell-down-the-dumbwaiter": -15, "was-carried-off-by-rooks": -20,
          "choked-on-a-wishbone": -20, "was-bricked-up-in-the-cellar": -15,
          "slept-through-the-fire": -5, "followed-the-crows-home": -15,
          "went-to-feed-the-crows": -15, "leaned-out-too-far": -20}
"""Each Death, laid on a Character showing only a bottom -15: its Self-Worth then (R-G4)."""


@pytest.mark.parametrize("name", sorted(DEATHS))
def test_each_untimely_death_kills_a_negative_character(name: str) -> None:
    s = pos()
    victim = s.families[1][0]
    put_on(s, victim, plain(s, "took-a-chill-on-the-moors"))
    death = r(s, name)
    play_mod(s, death, victim)
    assert s.is_dead(victim) and s.stacks[victim][-1] == death  # R-G23
    assert s.self_worth(victim) == DEATHS[name]  # what counts for Family Value (R-G25)


@pytest.mark.parametrize("family", [0, 1])
def test_each_rookery_family_is_taken_and_plays(family: int) -> None:
    from gloom_helpers import new_game

    s = new_game(load_deck(ROOKERY), players=2, first_player=0)
    s.apply(s.codec.choose_family(family))
    s.apply(s.legal_actions()[0])
    fam = load_deck(ROOKERY).families[family]
    assert [s.cards[c].key for c in s.families[0]] == list(fam.characters)  # R-G7
    assert s.decision.kind == _K.PLAY


def test_games_mixed_with_classic_never_stall() -> None:
    """``gloom simulate`` on the mix: every game ends without the turn cap (the full
    1,000 are in the slow test below)."""
    from gloomtable.simulate import simulate

    report = simulate("gloom", {"players": 5, "sets": ["classic", ROOKERY]}, 20, 1)
    assert report.games == 20 and report.capped == 0


@pytest.mark.slow
def test_a_thousand_games_mixed_with_classic() -> None:
    """The issue's 'done when': ``gloom simulate`` plays 1,000 games of the Rookery
    mixed with classic without an error or a stall."""
    from gloomtable.simulate import simulate

    report = simulate("gloom", {"players": 5, "sets": ["classic", ROOKERY]}, 1000, 1)
    assert report.games == 1000 and report.capped == 0


@pytest.mark.parametrize("bots", ["heuristic", "sensible"])
def test_the_bots_answer_every_new_decision(bots: str) -> None:
    """The new choices (a Character, a player, a card) are legal actions the bots take
    like any other: whole games end, uncapped."""
    from gloomtable.simulate import simulate

    report = simulate("gloom", {"players": 3, "sets": ["classic", ROOKERY]}, 3, 2, bots=[bots])
    assert report.games == 3 and report.capped == 0
