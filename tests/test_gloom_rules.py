"""One or more tests per Gloom rule (RULES.md part G, R-G1 .. R-G27).

Positions are arranged with the helpers in ``gloom_helpers`` (moving card
indices between zones), then driven through ``apply()`` and checked through
public facts: ``legal_actions()``, ``view()``, ``result()`` and events.
"""

from __future__ import annotations

import pytest

from gloom_helpers import (
    card,
    char_view,
    check_conservation,
    choose_card,
    classic,
    cont,
    deck_data,
    draw_limits,
    empty_piles,
    finish_turn,
    give,
    imm,
    kill,
    kinds,
    make_deck,
    new_game,
    pass_play,
    pass_responses,
    pass_setup,
    pers,
    play,
    play_action,
    put_on,
    resp,
    set_hand,
    start,
)
from gloomtable.engine import TERMINAL, IllegalActionError, MalformedActionError
from gloomtable.engine.record import GameRecord, replay
from gloomtable.games.gloom.cards import BLANK, CardType, Region, visible
from gloomtable.games.gloom.deck import DeckError, build_deck
from gloomtable.games.gloom.game import GloomConfig, GloomGame

# A small deck with one card per behaviour under test, and no response cards
# (so no response window ever opens in it, R-G20).
DECK = make_deck(
    modifiers=[
        card("neg10", points=(-10, None, None)),
        card("neg10b", points=(-10, None, None)),
        card("neg20", points=(-20, None, None)),
        card("mid-5", points=(None, -5, None)),
        card("pos10", points=(10, None, None)),
        card("pos5-bottom", points=(None, None, 5)),
        card("goblet", points=(-5, None, None), icons=("goblet", None, None)),
        card("romance-mid", icons=(None, "romance", None)),
        card("blank-top", icons=(BLANK, None, None)),
        card("draw1", points=(-5, None, None), effects=[imm({"draw": 1})]),
        card("discard1", points=(5, None, None), effects=[imm({"discard": 1})]),
        card("limit-up", points=(-5, None, None), effects=[cont({"draw_limit": 1})]),
        card("limit-up2", points=(-5, None, None), effects=[cont({"draw_limit": 1})]),
        card("texty", text="Nothing happens, at length."),
        card("free-mod", points=(-5, None, None), effects=[imm({"free_play": "modifier"})]),
        card("free-death", points=(-5, None, None), effects=[imm({"free_play": "untimely_death"})]),
        card("free-any", points=(-5, None, None), effects=[imm({"free_play": "any"})]),
        card("mover", effects=[imm({"move_modifier": "top"})]),
        card("if-goblet", points=(-5, None, None),
             effects=[imm({"draw": 1}, {"if_icon": "goblet", "do": [{"draw": 2}]})]),
        card("if-goblet-self", icons=("goblet", None, None),
             effects=[imm({"if_icon": "goblet", "do": [{"draw": 2}]})]),
    ],
    events=[
        card("ev-draw2", effects=[imm({"draw": 2})]),
        card("ev-draw2b", effects=[imm({"draw": 2})]),
        card("ev-draw-discard", effects=[imm({"draw": 1}, {"discard": 1})]),
        card("ev-discard-draw", effects=[imm({"discard": 1}, {"draw": 1})]),
        card("ev-move", effects=[imm({"move_modifier": "top"})]),
        card("ev-if-goblet", effects=[imm({"if_icon": "goblet", "do": [{"draw": 2}]})]),
        card("ev-plain"),
    ],
    deaths=[
        card("ud1"),
        card("ud2"),
        card("ud3"),
        card("ud4"),
        card("ud5"),
        card("ud6"),
        card("ud-draw", effects=[imm({"draw": 1})]),
        card("ud-happy", points=(20, None, None)),
        card("ud-neg", points=(None, None, -5)),
    ],
)

# The same kind of deck with response cards in it.
RESPONSE_DECK = make_deck(
    modifiers=[card("neg10", points=(-10, None, None)), card("draw1", effects=[imm({"draw": 1})])],
    events=[
        card("ev-draw2", effects=[imm({"draw": 2})]),
        card("cancel-ev", effects=[resp("event")]),
        card("cancel-ev2", effects=[resp("event")]),
        card("cancel-ud", effects=[resp("untimely_death")]),
    ],
    deaths=[*(card(f"ud{i}") for i in range(1, 6)), card("ud-draw", effects=[imm({"draw": 1})])],
)


def fams(state):
    """Each player's Characters, in family order."""
    return [list(f) for f in state.families]


def hand_sizes(state):
    return [len(h) for h in state.hands]


# --- Components ------------------------------------------------------------------


def test_R_G1_classic_counts_come_from_the_deck_data():
    deck = classic()
    assert deck.counts() == {"character": 20, "modifier": 57, "event": 11, "untimely_death": 20}
    assert len(deck.families) == 4
    assert all(len(f.characters) == 5 for f in deck.families)


def test_R_G1_a_deck_with_other_counts_works():
    deck = make_deck(
        modifiers=[card("m1", points=(-10, None, None))], events=[card("e1")],
        deaths=[card("d1"), card("d2")], families=3, per_family=3, fillers=4,
    )
    assert deck.counts() == {"character": 9, "modifier": 5, "event": 1, "untimely_death": 2}
    s = start(deck, players=3)
    assert [len(f) for f in s.families] == [3, 3, 3]
    # 8 non-Character cards, 5 dealt to each of 3 players: the deal stops when both piles are empty
    assert sum(hand_sizes(s)) + len(s.draw_pile) == 8
    check_conservation(s)
    # the game can be played to its end (here the table's turn cap ends it at the latest)
    s = start(deck, players=3, turn_cap=40)
    for _ in range(2000):
        if s.is_over():
            break
        s.apply(s.legal_actions()[-1])
    assert s.is_over()
    assert len(s.result().scores) == 3
    check_conservation(s)


def test_R_G1_declared_counts_are_checked_against_the_data():
    data = deck_data(fillers=2)
    data["set"]["components"] = {"modifiers": 57}
    with pytest.raises(DeckError, match="modifiers says 57 but the deck has 2"):
        build_deck(data, "x")


def test_R_G2_classic_families_and_their_characters():
    deck = classic()
    names = {c.key: c.name for c in deck.cards}
    by_name = {f.name: [names[k] for k in f.characters] for f in deck.families}
    assert set(by_name) == {"Castle Slogar", "Hemlock Hall", "Blackwater Watch", "Dark's Dismal Circus"}
    assert all(len(chars) == 5 for chars in by_name.values())
    text = {fam: " | ".join(chars) for fam, chars in by_name.items()}
    for fam, must in {
        "Castle Slogar": ["Helena Slogar", "Melissa", "Lord Slogar", "Elias E. Gorey"],
        "Hemlock Hall": ["Lord Wellington-Smythe", "Lola", "Butterfield"],
        "Blackwater Watch": ["Old Dam", "Angel", "Cousin Mordecai", "Balthazar"],
        "Dark's Dismal Circus": ["Darius Dark"],
    }.items():
        for piece in must:
            assert piece in text[fam], (fam, piece)
    # every Character belongs to exactly one family
    chars = [c for c in deck.cards if c.type is CardType.CHARACTER]
    assert sorted(k for f in deck.families for k in f.characters) == sorted(c.key for c in chars)


# --- Card anatomy and the cardinal rule --------------------------------------------


def test_R_G3_cards_print_only_some_regions():
    s = start(DECK)
    a = s.families[0][0]
    # a Modifier printing only its middle point slot leaves the top slot of the card below showing
    put_on(s, a, "neg10", "mid-5")
    v = char_view(s, a)
    assert v["points"] == [-10, -5, None]
    assert v["self_worth"] == -15
    # a card without text is transparent over the text region: the live effect below stays
    b = s.families[0][1]
    put_on(s, b, "limit-up", "pos10")
    assert char_view(s, b)["text_from"] == s.game.card_by_key["limit-up"]
    assert draw_limits(s)[0] == 6
    cards = {c.key: c for c in DECK.cards}
    assert cards["mid-5"].prints[Region.POINTS_TOP] is False
    assert cards["mid-5"].prints[Region.POINTS_MIDDLE] is True
    assert cards["texty"].prints[Region.TEXT] is True
    assert cards["pos10"].prints[Region.TEXT] is False


def test_R_G4_covered_points_do_not_score_and_covered_icons_are_gone():
    s = start(DECK)
    a = s.families[0][0]
    put_on(s, a, "goblet", "neg20")  # neg20 covers the top point; its top icon slot is unprinted
    v = char_view(s, a)
    assert v["self_worth"] == -20
    assert v["icons"] == ["goblet"]
    put_on(s, a, "blank-top")
    v = char_view(s, a)
    assert v["icons"] == []
    assert v["self_worth"] == -20


def test_R_G4_covered_continuous_effect_stops_applying():
    s = start(DECK)
    a = s.families[0][0]
    set_hand(s, 0, ["limit-up", "texty"])
    play(s, "limit-up", a)
    assert draw_limits(s) == [6, 5]
    assert char_view(s, a)["live_effects"] == [s.game.card_by_key["limit-up"]]
    play(s, "texty", a)  # a later Modifier printing text covers the effect plate
    assert draw_limits(s) == [5, 5]
    assert char_view(s, a)["live_effects"] == []
    # the turn ended: the player drew up to the uncovered limit 5, not 6
    assert len(s.hands[0]) == 5


def test_R_G4_topmost_printer_decides_each_region():
    cards = {c.key: c for c in DECK.cards}
    stack = [cards["c0-0"], cards["neg10"], cards["pos5-bottom"], cards["mid-5"]]
    v = visible(stack)
    assert v.points == (-10, -5, 5)
    assert v.self_worth == -10
    v2 = visible([*stack, cards["pos10"]])
    assert v2.points == (10, -5, 5)
    assert v2.self_worth == 10


def test_R_G4_one_card_at_a_time_shows_what_the_whole_stack_shows():
    """``Visible.on_top`` works out only the regions the laid card prints (and which
    card shows where only when asked, down the stacks it was built on); over seeded
    stacks of the shipped decks it must agree with the cardinal rule on the whole stack
    in every region, and so must the board's Self-Worth worked out from what showed
    below the card laid last."""
    from gloomtable.engine import Rng
    from gloomtable.games import make_game

    for name, config in (("gloom", {"players": 4}), ("gloomier", {"players": 4})):
        game = make_game(name, config)
        cards = game.deck.cards
        chars = [c for c in cards if c.type is CardType.CHARACTER]
        laid = [c for c in cards if c.type in (CardType.MODIFIER, CardType.UNTIMELY_DEATH)]
        rng = Rng(4)
        for n in range(200):
            stack = [chars[rng.below(len(chars))]]
            v = visible(stack)
            built = []
            for _ in range(rng.below(8)):
                stack.append(laid[rng.below(len(laid))])
                v = v.on_top(stack[-1])
                built.append((v, visible(stack)))
            if n % 2:  # which card shows where, asked of the top first: worked out down the stack
                built.reverse()
            for v, whole in built:
                assert (v.shown_by, v.stack, v.points, v.self_worth, v.icon_slots, v.icons) == (
                    whole.shown_by, whole.stack, whole.points, whole.self_worth,
                    whole.icon_slots, whole.icons)
                assert v.lasting_steps == whole.lasting_steps
                assert v == whole and hash(v) == hash(whole)
        state = game.new_initial_state(5)
        rng = Rng(5)
        while not state.is_over():
            for c in state.stacks:
                assert state.self_worth(c) == game.stack_visible(tuple(state.stacks[c])).self_worth
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])


def test_R_G5_new_character_has_self_worth_zero():
    s = start(DECK, players=3)
    for fam in s.view(None)["families"]:
        for ch in fam["characters"]:
            assert ch["self_worth"] == 0
            assert ch["points"] == [None, None, None]
            assert ch["icons"] == []
    assert all(f["family_value"] == 0 for f in s.view(None)["families"])


def test_R_G5_characters_may_not_print_points():
    data = deck_data()
    data["characters"][0]["points"] = {"top": 5}
    with pytest.raises(DeckError, match="Characters print no points"):
        build_deck(data, "x")


@pytest.mark.parametrize("field", ["icons", "effects"])
def test_R_G5_characters_may_not_print_icons_or_effects(field):
    data = deck_data()
    if field == "icons":
        data["characters"][0]["icons"] = {"top": "goblet"}
    else:
        data["characters"][0]["effects"] = [imm({"draw": 1})]
    with pytest.raises(DeckError):
        build_deck(data, "x")


def test_R_G6_blank_hides_the_icon_below_and_unprinted_slot_shows_through():
    s = start(DECK)
    a = s.families[0][0]
    put_on(s, a, "goblet", "romance-mid")
    v = char_view(s, a)
    assert v["icon_slots"] == ["goblet", "romance", None]  # top shows through romance-mid
    assert sorted(v["icons"]) == ["goblet", "romance"]
    put_on(s, a, "blank-top")
    v = char_view(s, a)
    assert v["icon_slots"] == [BLANK, "romance", None]
    assert v["icons"] == ["romance"]  # a blank shows no icon


def test_R_G6_unknown_icons_are_rejected_but_a_deck_may_declare_more():
    bad = deck_data(modifiers=[card("m", icons=("kraken", None, None))])
    with pytest.raises(DeckError, match="unknown icon 'kraken'"):
        build_deck(bad, "x")
    good = deck_data(modifiers=[card("m", icons=("kraken", None, None))], icons=["kraken"])
    assert "kraken" in build_deck(good, "x").icons


# --- Setup -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_R_G7_each_player_chooses_a_family_of_five(players):
    s = new_game(DECK, players=players, first_player=0)
    assert s.decision.kind == "choose_family"
    offered = s.legal_actions()
    assert offered == [s.codec.choose_family(f) for f in range(4)]
    s.apply(s.codec.choose_family(2))
    assert s.decision.player == 1
    assert s.codec.choose_family(2) not in s.legal_actions()  # taken
    pass_setup(s)
    assert s.decision.kind == "play"
    assert [len(f) for f in s.families] == [5] * players
    assert {DECK.cards[c].family for c in s.families[0]} == {"fam2"}
    in_play = {c for f in s.families for c in f}
    chars = [c.index for c in DECK.cards if c.type is CardType.CHARACTER]
    # unchosen Characters are out of the game
    assert sorted(s.out_of_game) == sorted(c for c in chars if c not in in_play)
    assert len(s.out_of_game) == 5 * (4 - players)
    check_conservation(s)


def test_R_G8_four_players_set_one_character_aside():
    s = new_game(DECK, players=4, first_player=1)
    while s.decision.kind == "choose_family":
        s.apply(s.legal_actions()[0])
    asked = []
    while s.decision.kind == "set_aside":
        p = s.decision.player
        asked.append(p)
        opts = s.legal_actions()
        assert opts == [s.codec.choose_card(c) for c in s.families[p]]
        s.apply(opts[-1])
    assert asked == [1, 2, 3, 0]
    assert [len(f) for f in s.families] == [4, 4, 4, 4]
    assert len(s.out_of_game) == 4
    check_conservation(s)


@pytest.mark.parametrize("first", [0, 2])
def test_R_G8_five_players_the_set_aside_characters_form_a_fifth_family(first):
    s = new_game(DECK, players=5, first_player=first)
    last = (first + 4) % 5  # the last seat in turn order gets the fifth family
    while s.decision.kind in ("choose_family", "set_aside"):
        assert s.decision.player != last  # the fifth seat neither chooses nor sets aside
        s.apply(s.legal_actions()[0])
    assert [len(f) for f in s.families] == [4, 4, 4, 4, 4]
    fifth = s.families[last]
    assert {DECK.cards[c].family for c in fifth} == {"fam0", "fam1", "fam2", "fam3"}
    assert all(s.controller[c] == last for c in fifth)
    assert s.turn_player == first
    assert s.out_of_game == []
    check_conservation(s)


def test_R_G8_too_few_families_is_a_config_error():
    from gloomtable.engine import ConfigError

    with pytest.raises(ConfigError):
        GloomGame(GloomConfig(players=6), deck=DECK)


def test_R_G9_hands_of_five_and_the_rest_is_the_draw_pile():
    s = new_game(DECK, players=3, first_player=0)
    assert hand_sizes(s) == [5, 5, 5]
    non_chars = [c.index for c in DECK.cards if c.type is not CardType.CHARACTER]
    assert sorted(s.draw_pile + [c for h in s.hands for c in h]) == sorted(non_chars)
    assert s.view(1)["draw_pile"] == len(non_chars) - 15


def test_R_G9_discard_pile_reshuffles_into_an_empty_draw_pile():
    s = start(DECK)
    set_hand(s, 0, [])
    empty_piles(s)
    discarded = [s.out_of_game.pop() for _ in range(3)]
    s.discard.extend(discarded)
    assert s.view(1)["discard"] == discarded  # the discard pile is public
    events = finish_turn(s)
    assert "reshuffle" in kinds(events)
    assert sorted(s.hands[0]) == sorted(discarded)
    assert s.discard == [] and s.draw_pile == []
    check_conservation(s)


def test_R_G9_when_both_piles_are_empty_the_draw_stops():
    s = start(DECK)
    set_hand(s, 0, [])
    empty_piles(s)
    s.discard.append(s.out_of_game.pop())
    events = finish_turn(s)
    assert len(s.hands[0]) == 1
    assert kinds(events).count("draw") == 1
    assert s.turn_player == 1  # the game goes on


def test_R_G10_first_player_comes_from_the_seed():
    firsts = {new_game(DECK, players=4, seed=seed).first_player for seed in range(40)}
    assert len(firsts) > 1
    assert firsts <= {0, 1, 2, 3}
    # same seed, same first player
    assert new_game(DECK, players=4, seed=7).first_player == new_game(DECK, players=4, seed=7).first_player


@pytest.mark.parametrize("first", [0, 1, 2])
def test_R_G10_first_player_fixed_by_the_table_and_play_goes_clockwise(first):
    for seed in range(5):
        s = new_game(DECK, players=3, seed=seed, first_player=first)
        assert s.decision.player == first
    pass_setup(s)
    assert s.turn_player == first
    order = []
    for _ in range(4):
        order.append(s.turn_player)
        finish_turn(s)
    assert order == [first, (first + 1) % 3, (first + 2) % 3, first]


def test_R_G10_first_player_must_be_seated():
    with pytest.raises(ValueError):
        GloomConfig(players=3, first_player=3)


# --- A turn --------------------------------------------------------------------------


def test_R_G11_modifier_may_go_on_any_living_character():
    s = start(DECK)
    set_hand(s, 0, ["neg10"])
    dead = s.families[1][4]
    kill(s, dead, "ud1")
    legal = set(s.legal_actions())
    living = [c for f in s.families for c in f if c != dead]
    assert all(play_action(s, "neg10", c) in legal for c in living)
    assert play_action(s, "neg10", dead) not in legal
    target = s.families[1][0]  # an opponent's Character
    play(s, "neg10", target)
    assert s.stacks[target][-1] == s.game.card_by_key["neg10"]
    assert char_view(s, target)["self_worth"] == -10


def test_R_G11_event_is_resolved_then_discarded():
    s = start(DECK)
    set_hand(s, 0, ["ev-draw2"])
    top = list(reversed(s.draw_pile[-2:]))
    events = play(s, "ev-draw2")
    ev = s.game.card_by_key["ev-draw2"]
    assert kinds(events)[:3] == ["play", "draw", "draw"]
    assert sorted(s.hands[0]) == sorted(top)
    assert s.discard == [ev]
    assert all(ev not in st for st in s.stacks.values())
    assert s.view(0)["plays_left"] == 1


def test_R_G11_untimely_death_only_on_first_play():
    s = start(DECK)
    a = s.families[1][0]
    put_on(s, a, "neg10")
    set_hand(s, 0, ["ud1", "ud2", "pos10"])
    assert play_action(s, "ud1", a) in s.legal_actions()
    pass_play(s)
    # second play: no Untimely Death may be played any more
    assert play_action(s, "ud1", a) not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="first play"):
        play(s, "ud1", a)
    # and across turns it is again the first play that may
    finish_turn(s)
    finish_turn(s)
    assert s.turn_player == 0
    assert play_action(s, "ud1", a) in s.legal_actions()
    play(s, "ud1", a)
    assert char_view(s, a)["dead"]
    assert all(s.codec.decode(x).card != s.game.card_by_key["ud2"] for x in s.legal_actions())


def test_R_G11_untimely_death_needs_negative_self_worth_before_it_is_placed():
    s = start(DECK)
    zero, positive, negative = s.families[1][0], s.families[1][1], s.families[1][2]
    put_on(s, positive, "pos10")
    put_on(s, negative, "neg10")
    set_hand(s, 0, ["ud-happy", "ud-neg"])
    legal = set(s.legal_actions())
    for ud in ("ud-happy", "ud-neg"):
        assert play_action(s, ud, zero) not in legal  # the Death's own -5 does not count
        assert play_action(s, ud, positive) not in legal
        assert play_action(s, ud, negative) in legal  # its own +20 does not count either
    with pytest.raises(IllegalActionError, match="negative Self-Worth"):
        play(s, "ud-neg", zero)
    play(s, "ud-happy", negative)
    assert char_view(s, negative)["dead"]
    assert char_view(s, negative)["self_worth"] == 20


def test_R_G11_discard_hand_then_draw_up_at_end_of_turn():
    s = start(DECK)
    hand = set_hand(s, 0, ["neg10", "pos10", "ev-plain"])
    assert s.codec.DISCARD_HAND in s.legal_actions()
    events = s.apply(s.codec.DISCARD_HAND)
    assert kinds(events) == ["discard_hand"]
    assert s.hands[0] == []
    assert s.discard == hand
    assert s.decision.kind == "play" and s.decision.player == 0
    assert s.codec.DISCARD_HAND not in s.legal_actions()  # nothing left to discard
    pass_play(s)
    assert len(s.hands[0]) == 5


def test_R_G11_pass_uses_a_play_and_two_plays_end_the_turn():
    s = start(DECK)
    hand = list(s.hands[0])
    assert s.legal_actions()[0] == s.codec.PASS
    pass_play(s)
    assert s.turn_player == 0 and s.view(0)["plays_left"] == 1
    events = pass_play(s)
    assert s.turn_player == 1 and "turn" in kinds(events)
    assert s.hands[0] == hand  # already 5 cards: nothing drawn


def test_R_G11_same_play_twice_in_a_turn():
    s = start(DECK)
    a, b = s.families[0][0], s.families[1][0]
    set_hand(s, 0, ["neg10", "neg10b", "ev-draw2", "ev-draw2b"])
    play(s, "neg10", a)
    play(s, "neg10b", b)
    assert s.turn_player == 1
    finish_turn(s)
    set_hand(s, 0, ["ev-draw2", "ev-draw2b"])
    events = play(s, "ev-draw2")
    events += play(s, "ev-draw2b")
    assert s.turn_player == 1
    assert s.discard[-2:] == [s.game.card_by_key["ev-draw2"], s.game.card_by_key["ev-draw2b"]]
    assert kinds(events).count("draw") == 2 + 2 + 1  # two Events, then drawing up from 4 to 5


def test_R_G12_first_edition_discards_exactly_one_card():
    s = start(DECK, edition=1)
    hand = set_hand(s, 0, ["neg10", "pos10", "ev-plain"])
    legal = s.legal_actions()
    assert s.codec.DISCARD_HAND not in legal
    assert all(s.codec.discard_one(c) in legal for c in hand)
    with pytest.raises(IllegalActionError, match="R-G12"):
        s.apply(s.codec.DISCARD_HAND)
    s.apply(s.codec.discard_one(hand[1]))
    assert s.discard == [hand[1]]
    assert sorted(s.hands[0]) == sorted([hand[0], hand[2]])
    assert s.view(0)["plays_left"] == 1


def test_R_G12_second_edition_offers_no_single_discard():
    s = start(DECK, edition=2)
    legal = s.legal_actions()
    assert s.codec.DISCARD_HAND in legal
    assert not any(s.codec.discard_one(c) in legal for c in s.hands[0])


def test_R_G13_free_play_is_an_extra_play():
    s = start(DECK)
    a = s.families[0][0]
    set_hand(s, 0, ["free-mod", "neg10", "neg10b", "ev-plain"])
    events = play(s, "free-mod", a)
    assert "free_play" in kinds(events)
    assert s.view(0)["free_plays"] == ["modifier"]
    play(s, "neg10", a)
    assert s.turn_player == 0  # two plays made, one left
    play(s, "neg10b", a)
    assert s.turn_player == 1  # three Modifiers in one turn
    assert s.stacks[a][1:] == [s.game.card_by_key[k] for k in ("free-mod", "neg10", "neg10b")]


def test_R_G13_free_play_is_limited_to_its_kind():
    s = start(DECK)
    a = s.families[0][0]
    set_hand(s, 0, ["free-mod", "neg10", "ev-plain"])
    play(s, "free-mod", a)
    pass_play(s)  # both counted plays used; the free Modifier play remains
    assert s.turn_player == 0 and s.view(0)["plays_left"] == 0
    legal = s.legal_actions()
    assert play_action(s, "neg10", a) in legal
    assert s.codec.play_event(s.game.card_by_key["ev-plain"]) not in legal  # only a Modifier
    assert s.codec.DISCARD_HAND not in legal
    with pytest.raises(IllegalActionError, match="free play"):
        play(s, "ev-plain")
    play(s, "neg10", a)
    assert s.turn_player == 1


def test_R_G13_free_play_may_be_forgone():
    s = start(DECK)
    a = s.families[0][0]
    set_hand(s, 0, ["free-any", "neg10"])
    play(s, "free-any", a)
    pass_play(s)
    assert s.turn_player == 0 and s.view(0)["free_plays"] == ["any"]
    pass_play(s)  # forgo the free play
    assert s.turn_player == 1


def test_R_G13_free_untimely_death_on_the_second_play():
    s = start(DECK)
    a, b, target = s.families[0][0], s.families[0][1], s.families[1][0]
    set_hand(s, 0, ["free-death", "ud1", "neg10"])
    put_on(s, target, "neg20")
    play(s, "free-death", a)
    assert s.view(0)["free_plays"] == ["untimely_death"]
    legal = s.legal_actions()
    assert play_action(s, "ud1", target) in legal
    assert play_action(s, "ud1", a) in legal  # a is at -5 now
    assert play_action(s, "ud1", b) not in legal  # still needs negative Self-Worth
    play(s, "ud1", target)
    assert char_view(s, target)["dead"]
    # the free play was taken: one counted play remains, and it cannot be another Death
    assert s.turn_player == 0 and s.view(0)["plays_left"] == 1 and s.view(0)["free_plays"] == []


def test_R_G13_free_play_only_on_the_granting_players_own_turn():
    s = start(DECK)
    opp = s.families[1][0]
    set_hand(s, 0, ["free-mod", "neg10", "neg10b"])
    events = play(s, "free-mod", opp)  # its controller (player 2) resolves it, off their turn
    assert "free_play" not in kinds(events)
    assert s.view(0)["free_plays"] == [] and s.view(1)["free_plays"] == []
    play(s, "neg10", opp)
    assert s.turn_player == 1  # no extra play for anyone


def test_R_G14_draw_up_to_the_draw_limit():
    s = start(DECK)
    set_hand(s, 0, ["neg10"])
    top = list(reversed(s.draw_pile[-4:]))
    events = finish_turn(s)
    assert kinds(events).count("draw") == 4
    assert sorted(s.hands[0]) == sorted([s.game.card_by_key["neg10"], *top])


def test_R_G14_draw_limit_changed_by_effects():
    s = start(DECK)
    a = s.families[0][0]
    set_hand(s, 0, ["limit-up", "limit-up2"])
    play(s, "limit-up", a)
    play(s, "limit-up2", s.families[0][1])
    assert len(s.hands[0]) == 7


def test_R_G14_never_discard_down():
    s = start(DECK)
    extra = [c for c in s.draw_pile[:3]]
    give(s, 0, *extra)
    hand = list(s.hands[0])
    assert len(hand) == 8
    events = finish_turn(s)
    assert sorted(s.hands[0]) == sorted(hand)
    assert "draw" not in kinds(events) and "discard" not in kinds(events)


def test_R_G14_R_G18_the_kept_lasting_steps_are_those_the_table_shows():
    """A player's lasting steps (what the draw limit asks at every turn's end) are kept
    in the state's ``Seen`` while no stack holding a lasting card changes; at every step
    of seeded games of the shipped decks they must equal the steps worked out afresh
    (a clone starts with nothing kept), and so must the draw limits."""
    from gloomtable.engine import Rng
    from gloomtable.games import make_game

    workloads = (("gloom", {"players": 4}), ("gloom", {"players": 3}), ("gloomier", {"players": 4}),
                 ("gloom", {"players": 5, "sets": ["classic", "gloomier"]}))
    for w, (name, config) in enumerate(workloads):
        game = make_game(name, config)
        for g in range(12):
            state = game.new_initial_state(60 + 100 * w + g)
            rng = Rng(w * 100 + g)
            while not state.is_over():
                fresh = state.clone()
                for p in range(state.n):
                    assert state.held_steps(p) == fresh.held_steps(p)
                    assert state.draw_limit(p) == fresh.draw_limit(p)
                legal = state.legal_actions()
                state.apply(legal[rng.below(len(legal))])


def test_R_G15_effects_resolve_in_printed_order():
    s = start(DECK)
    set_hand(s, 0, ["ev-draw-discard"])
    top = s.draw_pile[-1]
    play(s, "ev-draw-discard")  # draw first: the drawn card can be discarded
    assert s.decision.kind == "discard" and s.decision.player == 0
    assert s.legal_actions() == [s.codec.choose_card(top)]
    choose_card(s, top)
    assert s.hands[0] == []
    finish_turn(s)
    finish_turn(s)
    set_hand(s, 0, ["ev-discard-draw"])
    play(s, "ev-discard-draw")  # discard first, from an empty hand: nothing; then draw
    assert s.decision.kind == "play"
    assert len(s.hands[0]) == 1


def test_R_G15_cards_resolve_in_the_order_played():
    s = start(DECK)
    a = s.families[1][0]
    set_hand(s, 0, ["neg10", "pos10"])
    play(s, "neg10", a)
    play(s, "pos10", a)
    assert s.stacks[a][1:] == [s.game.card_by_key["neg10"], s.game.card_by_key["pos10"]]
    assert char_view(s, a)["self_worth"] == 10


# --- Effects -----------------------------------------------------------------------


def test_R_G16_modifier_effect_resolved_by_the_targets_controller():
    s = start(DECK)
    opp = s.families[1][0]
    set_hand(s, 0, ["draw1", "neg10"])
    before = hand_sizes(s)
    events = play(s, "draw1", opp)
    draws = [e for e in events if e.kind == "draw"]
    assert [e.player for e in draws] == [1]
    assert hand_sizes(s) == [before[0] - 1, before[1] + 1]


def test_R_G16_choice_of_a_modifier_is_made_by_the_targets_controller():
    s = start(DECK)
    opp = s.families[1][0]
    set_hand(s, 0, ["discard1", "neg10"])
    play(s, "discard1", opp)
    assert s.decision.kind == "discard" and s.decision.player == 1
    assert s.current_player() == 1
    assert s.legal_actions() == sorted(s.codec.choose_card(c) for c in s.hands[1])
    victim = s.hands[1][0]
    choose_card(s, victim)
    assert victim in s.discard and len(s.hands[1]) == 4
    assert s.decision.kind == "play" and s.current_player() == 0  # back to the turn player


def test_R_G16_event_resolved_by_its_player():
    s = start(DECK)
    set_hand(s, 0, ["ev-draw2"])
    events = play(s, "ev-draw2")
    assert [e.player for e in events if e.kind == "draw"] == [0, 0]
    assert hand_sizes(s) == [2, 5]


def test_R_G17_moving_a_modifier_does_not_retrigger_it():
    s = start(DECK)
    a, b = s.families[0][0], s.families[1][0]
    set_hand(s, 0, ["draw1", "ev-move", *s.draw_pile[:5]])
    events = play(s, "draw1", a)
    assert [e.player for e in events if e.kind == "draw"] == [0]  # once, on play
    before = hand_sizes(s)
    play(s, "ev-move")
    assert s.decision.kind == "move_modifier_from" and s.decision.player == 0
    choose_card(s, a)
    assert s.decision.kind == "move_modifier_to"
    assert s.codec.choose_card(a) not in s.legal_actions()
    events = choose_card(s, b)
    assert s.stacks[b][-1] == s.game.card_by_key["draw1"]
    assert s.stacks[a] == [a]
    assert "move" in kinds(events)
    assert "draw" not in kinds(events)  # neither the mover nor the new controller draws
    assert hand_sizes(s) == [before[0] - 1, before[1]]
    assert s.turn_player == 1


def test_R_G18_continuous_effect_moves_with_the_card_to_the_new_controller():
    s = start(DECK)
    a, b = s.families[0][0], s.families[1][0]
    set_hand(s, 0, ["limit-up", "ev-move"])
    play(s, "limit-up", a)
    assert draw_limits(s) == [6, 5]
    play(s, "ev-move")
    choose_card(s, a)
    choose_card(s, b)
    assert draw_limits(s) == [5, 6]
    assert char_view(s, b)["live_effects"] == [s.game.card_by_key["limit-up"]]
    assert s.turn_player == 1 and len(s.hands[0]) == 5  # player 1 drew up to 5, not 6


PERSISTENT_DECK = make_deck(
    modifiers=[
        card("pers-limit", points=(-5, None, None), persistent_icon=True,
             effects=[pers({"draw_limit": 1})]),
        card("pers-portrait-limit", persistent_icon=True, portrait=True,
             persistent_requires=["persistent_icon", "portrait"], effects=[pers({"draw_limit": 1})]),
        card("pers-other", persistent_icon=True, text="Another persistent card."),
        card("portrait-only", portrait=True),
        card("texty", text="A long tale."),
        card("mover", effects=[imm({"move_modifier": "top"})]),
    ],
)


def test_R_G19_persistent_effect_holds_while_its_icon_shows_even_with_text_covered():
    s = start(PERSISTENT_DECK)
    a = s.families[0][0]
    set_hand(s, 0, ["pers-limit", "texty", "pers-other"])
    play(s, "pers-limit", a)
    assert draw_limits(s) == [6, 5]
    play(s, "texty", a)  # covers the text, not the persistent icon
    assert char_view(s, a)["text_from"] == s.game.card_by_key["texty"]
    assert draw_limits(s) == [6, 5]
    assert len(s.hands[0]) == 6  # drew up to the persistent limit
    put_on(s, a, "pers-other")  # covers the persistent icon
    assert draw_limits(s) == [5, 5]


def test_R_G19_persistent_effect_holds_while_any_region_the_data_names_shows():
    s = start(PERSISTENT_DECK)
    a = s.families[0][0]
    put_on(s, a, "pers-portrait-limit")
    assert draw_limits(s)[0] == 6
    put_on(s, a, "portrait-only")  # the central illustration is covered; the icon shows
    assert draw_limits(s)[0] == 6
    put_on(s, a, "pers-other")  # now the persistent icon too: every named region is covered
    assert draw_limits(s)[0] == 5


def test_R_G19_persistent_effect_moves_with_the_card():
    s = start(PERSISTENT_DECK)
    a, b = s.families[0][0], s.families[1][0]
    put_on(s, a, "pers-limit")
    set_hand(s, 0, ["mover", *s.draw_pile[:6]])
    assert draw_limits(s) == [6, 5]
    play(s, "mover", s.families[0][1])
    choose_card(s, a)
    choose_card(s, b)
    assert s.stacks[b][-1] == s.game.card_by_key["pers-limit"]
    assert draw_limits(s) == [5, 6]


def test_R_G20_every_other_player_is_asked_in_turn_order():
    s = start(RESPONSE_DECK, players=3, first_player=1)
    set_hand(s, 1, ["ev-draw2"])
    set_hand(s, 2, ["neg10"])  # no response card
    set_hand(s, 0, ["draw1"])
    play(s, "ev-draw2")
    asked = []
    while s.decision.kind == "respond":
        asked.append(s.decision.player)
        assert s.legal_actions() == [s.codec.PASS]
        # what others see does not depend on the hand of the asked player
        assert s.view(1)["decision"] == {"player": s.decision.player, "kind": "respond"}
        s.apply(s.codec.PASS)
    assert asked == [2, 0]
    assert len(s.hands[1]) == 2  # the Event resolved


def test_R_G20_response_window_looks_the_same_whether_or_not_a_response_is_held():
    def run(hand2):
        s = start(RESPONSE_DECK, players=3)
        set_hand(s, 0, ["ev-draw2"])
        set_hand(s, 1, hand2)
        events = play(s, "ev-draw2")
        seen = [s.view(2)["decision"], s.view(0)["decision"]]
        events += s.apply(s.codec.PASS)
        return [e.for_player(2).to_dict() for e in events if e.kind != "draw"], seen

    with_resp = run(["cancel-ev", "neg10"])
    without = run(["neg10", "draw1"])
    assert with_resp == without


def test_R_G20_cancel_an_event():
    s = start(RESPONSE_DECK, players=3)
    set_hand(s, 0, ["ev-draw2", "neg10"])
    set_hand(s, 2, ["cancel-ev", "cancel-ev2"])
    set_hand(s, 1, [])
    play(s, "ev-draw2")
    assert s.decision.player == 1
    s.apply(s.codec.PASS)
    assert s.decision.player == 2
    opts = s.legal_actions()
    ce, ce2 = s.game.card_by_key["cancel-ev"], s.game.card_by_key["cancel-ev2"]
    assert opts == [s.codec.PASS, s.codec.respond(ce), s.codec.respond(ce2)]
    events = s.apply(s.codec.respond(ce))
    assert "response" in kinds(events)
    ev = s.game.card_by_key["ev-draw2"]
    # cancelled: no draw, the Event and the response are discarded, the play is used
    assert s.hands[0] == [s.game.card_by_key["neg10"]]
    assert set(s.discard) == {ev, ce}
    assert s.view(0)["plays_left"] == 1
    assert s.hands[2] == [ce2]
    # responses never chain: nobody (not even player 1 again) is asked about the response
    assert s.decision.kind == "play" and s.decision.player == 0


def test_R_G20_cancel_an_untimely_death():
    s = start(RESPONSE_DECK)
    victim = s.families[1][0]
    put_on(s, victim, "neg10")
    set_hand(s, 0, ["ud-draw", "ud1"])
    set_hand(s, 1, ["cancel-ud", "cancel-ev"])
    play(s, "ud-draw", victim)
    assert s.decision.kind == "respond" and s.decision.player == 1
    cu = s.game.card_by_key["cancel-ud"]
    assert s.legal_actions() == [s.codec.PASS, s.codec.respond(cu)]  # cancel-ev does not answer a Death
    s.apply(s.codec.respond(cu))
    assert not char_view(s, victim)["dead"]
    assert s.game.card_by_key["ud-draw"] in s.discard and cu in s.discard
    assert len(s.hands[0]) == 1  # its draw did not happen
    assert s.view(0)["plays_left"] == 1
    assert play_action(s, "ud1", victim) not in s.legal_actions()  # no longer the first play


def test_R_G20_uncancelled_death_and_modifiers_without_window():
    s = start(RESPONSE_DECK)
    victim = s.families[1][0]
    put_on(s, victim, "neg10")
    set_hand(s, 0, ["ud1", "draw1"])
    play(s, "ud1", victim)
    assert s.decision.kind == "respond"
    pass_responses(s)
    assert char_view(s, victim)["dead"]
    # the deck cannot answer Modifiers: no window opens for one
    play(s, "draw1", s.families[0][0])
    assert s.decision.kind == "play" and s.turn_player == 1


def test_R_G20_no_window_in_a_deck_without_response_cards():
    s = start(DECK, players=3)
    set_hand(s, 0, ["ev-draw2", "ud1"])
    put_on(s, s.families[1][0], "neg10")
    events = play(s, "ud1", s.families[1][0])
    assert s.decision.kind == "play" and s.decision.player == 0
    events += play(s, "ev-draw2")
    assert "respond_pass" not in kinds(events)
    assert s.turn_player == 1


def test_R_G20_turn_player_cannot_respond_to_their_own_play():
    s = start(RESPONSE_DECK, players=2)
    set_hand(s, 0, ["ev-draw2", "cancel-ev"])
    set_hand(s, 1, [])
    play(s, "ev-draw2")
    assert s.decision.player == 1
    s.apply(s.codec.PASS)
    assert s.decision.kind == "play"
    assert s.game.card_by_key["cancel-ev"] in s.hands[0]


def test_R_G21_requirement_unmet_card_still_played_and_standard_effect_happens():
    s = start(DECK)
    without = s.families[1][1]
    set_hand(s, 0, ["if-goblet", "neg10"])
    assert play_action(s, "if-goblet", without) in s.legal_actions()
    events = play(s, "if-goblet", without)
    # the standard effect (draw 1, by the controller) happens; the goblet bonus does not
    assert [e.player for e in events if e.kind == "draw"] == [1]
    assert s.stacks[without][-1] == s.game.card_by_key["if-goblet"]


def test_R_G21_requirement_met_when_the_target_shows_the_icon():
    s = start(DECK)
    with_goblet = s.families[1][0]
    put_on(s, with_goblet, "goblet")
    set_hand(s, 0, ["if-goblet", "neg10"])
    before = len(s.hands[1])
    events = play(s, "if-goblet", with_goblet)
    assert [e.player for e in events if e.kind == "draw"] == [1, 1, 1]
    assert len(s.hands[1]) == before + 3


def test_R_G21_the_icon_must_show_before_the_card_is_played():
    s = start(DECK)
    target = s.families[0][0]
    set_hand(s, 0, ["if-goblet-self", "neg10"])
    events = play(s, "if-goblet-self", target)
    assert "goblet" in char_view(s, target)["icons"]  # the card's own goblet shows now...
    assert "draw" not in kinds(events)  # ...but did not when it was played


@pytest.mark.parametrize(("goblet_on", "drawn"), [(None, 0), ("opponent", 0), ("own", 2)])
def test_R_G21_event_requirement_looks_at_your_living_characters(goblet_on, drawn):
    s = start(DECK)
    set_hand(s, 0, ["ev-if-goblet", "neg10"])
    if goblet_on == "own":
        put_on(s, s.families[0][3], "goblet")
    elif goblet_on == "opponent":
        put_on(s, s.families[1][0], "goblet")
    play(s, "ev-if-goblet")
    assert len(s.hands[0]) == 1 + drawn


def test_R_G22_beginner_ignores_every_effect():
    s = start(DECK, beginner=True)
    a = s.families[0][0]
    set_hand(s, 0, ["draw1", "limit-up", "free-mod"])
    events = play(s, "draw1", a)
    assert "draw" not in kinds(events)
    play(s, "limit-up", a)
    assert draw_limits(s) == [5, 5]
    assert s.turn_player == 1 and len(s.hands[0]) == 5
    finish_turn(s)
    set_hand(s, 0, ["free-mod", "neg10", "neg10b"])
    events = play(s, "free-mod", a)
    assert "free_play" not in kinds(events)
    play(s, "neg10", a)
    assert s.turn_player == 1


def test_R_G22_beginner_opens_no_response_window():
    s = start(RESPONSE_DECK, beginner=True)
    set_hand(s, 0, ["ev-draw2"])
    set_hand(s, 1, ["cancel-ev"])
    play(s, "ev-draw2")
    assert s.decision.kind == "play" and s.decision.player == 0
    assert len(s.hands[0]) == 0  # and the Event did nothing


# --- Death, end and score ---------------------------------------------------------------


def test_R_G23_dead_character_accepts_no_modifier():
    s = start(DECK)
    victim = s.families[1][0]
    put_on(s, victim, "neg10")
    set_hand(s, 0, ["ud1", "pos10", "ud2"])
    play(s, "ud1", victim)
    assert char_view(s, victim)["dead"]
    legal = s.legal_actions()
    assert all(s.codec.decode(a).target != victim for a in legal)
    with pytest.raises(IllegalActionError, match="R-G23"):
        play(s, "pos10", victim)


def test_R_G23_dead_characters_effects_stop_and_move_effects_skip_them():
    s = start(DECK)
    victim, other = s.families[0][0], s.families[0][1]
    set_hand(s, 0, ["limit-up", "ev-move"])
    play(s, "limit-up", victim)
    assert draw_limits(s) == [6, 5]
    kill(s, victim, "ud1")
    assert char_view(s, victim)["text_from"] == s.game.card_by_key["limit-up"]  # text still shows
    assert draw_limits(s) == [5, 5]  # but the Character is dead
    assert char_view(s, victim)["live_effects"] == []
    put_on(s, other, "neg10")
    play(s, "ev-move")
    # only living Characters with a Modifier on top are offered
    assert s.legal_actions() == [s.codec.choose_card(other)]
    choose_card(s, other)
    assert s.codec.choose_card(victim) not in s.legal_actions()


def test_R_G24_game_ends_when_a_familys_last_character_dies_even_with_plays_left():
    s = start(DECK)
    last = s.families[1][4]
    for i, ch in enumerate(s.families[1][:4]):
        kill(s, ch, f"ud{i + 1}")
    put_on(s, last, "neg10")
    set_hand(s, 0, ["ud-draw", "neg10b"])
    before = list(s.hands[0])
    events = play(s, "ud-draw", last)
    assert s.is_over()
    assert kinds(events)[-1] == "game_over"
    assert "draw" not in kinds(events)  # the Death's own effect never resolves
    assert s.current_player() == TERMINAL
    assert s.legal_actions() == []
    assert len(s.hands[0]) == len(before) - 1
    with pytest.raises(IllegalActionError, match="over"):
        s.apply(s.codec.PASS)
    check_conservation(s)


def test_R_G24_game_ends_once_the_killing_death_survives_its_response_window():
    s = start(RESPONSE_DECK)
    last = s.families[1][4]
    for i, ch in enumerate(s.families[1][:4]):
        kill(s, ch, f"ud{i + 2}")
    put_on(s, last, "neg10")
    set_hand(s, 0, ["ud1", "draw1"])
    set_hand(s, 1, ["cancel-ev"])
    play(s, "ud1", last)
    assert not s.is_over() and s.decision.kind == "respond"
    events = s.apply(s.codec.PASS)
    assert s.is_over() and kinds(events)[-1] == "game_over"


def test_R_G24_no_end_while_the_family_has_a_living_character():
    s = start(DECK)
    for i, ch in enumerate(s.families[1][:3]):
        kill(s, ch, f"ud{i + 1}")
    victim = s.families[1][3]
    put_on(s, victim, "neg10")
    set_hand(s, 0, ["ud4"])
    play(s, "ud4", victim)
    assert not s.is_over()


def _end_with(s, killer="ud6"):
    """Player 0 kills player 1's last living Character (the fifth)."""
    last = s.families[1][4]
    put_on(s, last, "neg10b")
    set_hand(s, 0, [killer])
    play(s, killer, last)
    assert s.is_over()


def test_R_G25_family_value_counts_only_own_dead_characters_visible_points():
    s = start(DECK)
    mine = s.families[0]
    theirs = s.families[1]
    put_on(s, mine[0], "neg20", "neg10")  # covered -20 does not count
    kill(s, mine[0], "ud1")
    put_on(s, mine[1], "mid-5", "ud-neg")  # a Death's printed -5 counts when visible
    put_on(s, mine[2], "neg20")  # living: counts nothing
    put_on(s, mine[3], "limit-up")
    kill(s, mine[3], "ud-happy")  # happy death: +20 covers the -5
    for i, ch in enumerate(theirs[:4]):
        kill(s, ch, f"ud{i + 2}")
    _end_with(s)
    assert s.family_value(0) == -10 + (-5 - 5) + 20
    res = s.result()
    assert res.scores[0] == 0
    assert res.scores[1] == -10  # neg10b under ud6
    assert s.view(None)["families"][0]["family_value"] == 0


def test_R_G26_lowest_family_value_wins():
    s = start(DECK)
    put_on(s, s.families[0][0], "neg20")
    kill(s, s.families[0][0], "ud1")
    for i, ch in enumerate(s.families[1][:4]):
        kill(s, ch, f"ud{i + 2}")
    _end_with(s)
    res = s.result()
    assert res.scores == (-20, -10)
    assert res.winners == (0,)
    assert res.returns() == [1.0, 0.0]


def _tied_game(**config):
    s = start(DECK, **config)
    put_on(s, s.families[0][0], "neg10")
    kill(s, s.families[0][0], "ud1")
    for i, ch in enumerate(s.families[1][:4]):
        kill(s, ch, f"ud{i + 2}")
    _end_with(s)
    return s


def test_R_G26_ties_share_the_win():
    res = _tied_game().result()
    assert res.scores == (-10, -10)
    assert res.winners == (0, 1)
    assert res.returns() == [0.5, 0.5]


def test_R_G26_tiebreak_fewer_living_characters():
    res = _tied_game(tiebreak="fewer_living").result()
    assert res.scores == (-10, -10)
    assert res.winners == (1,)  # player 2 has no living Character, player 1 has four


def test_R_G27_narration_is_kept_in_the_game_record(tmp_path):
    game = GloomGame(GloomConfig(players=2, first_player=0), deck=DECK)
    s = game.new_initial_state(11)
    actions = []
    for _ in range(12):
        a = s.legal_actions()[-1]
        actions.append(a)
        s.apply(a)
    rec = GameRecord("gloom", game.config_dict(), 11, actions,
                     {3: "It was a dark and stormy night.", 5: "Nobody saw the oyster wink."})
    path = tmp_path / "game.json"
    rec.save(path)
    back = GameRecord.load(path)
    assert back == rec
    assert back.narration[3] == "It was a dark and stormy night."
    final = replay(game, back)
    assert final.snapshot() == s.snapshot()


# --- errors ------------------------------------------------------------------------------


def test_illegal_action_error_says_why_and_lists_legal_actions():
    s = start(DECK)
    set_hand(s, 0, ["pos10", "neg10"])
    not_held = s.game.card_by_key["neg20"]
    with pytest.raises(IllegalActionError) as info:
        s.apply(s.codec.play(not_held, s.families[0][0]))
    err = info.value
    assert "not in player 1's hand" in err.reason
    assert "Legal now:" in str(err)
    assert [a for a, _ in err.legal] == s.legal_actions()
    assert "pass" in str(err)
    assert err.action == s.codec.play(not_held, s.families[0][0])


def test_illegal_action_during_a_decision_names_the_decision():
    s = start(DECK)
    set_hand(s, 0, ["discard1", "neg10"])
    play(s, "discard1", s.families[1][0])
    with pytest.raises(IllegalActionError, match="player 2 must answer a 'discard' decision"):
        s.apply(s.codec.PASS)


@pytest.mark.parametrize("bad", ["0", 1.0, None, True, [0]])
def test_malformed_action_not_an_int(bad):
    s = start(DECK)
    with pytest.raises(MalformedActionError):
        s.apply(bad)


def test_malformed_action_out_of_range():
    s = start(DECK)
    with pytest.raises(MalformedActionError, match="outside"):
        s.apply(s.codec.size)
    with pytest.raises(MalformedActionError):
        s.apply(-1)
    assert s.decision.kind == "play"  # nothing changed
