"""Crazy Creatures rules, one or more tests per rule id of RULES.md part C.

Positions are arranged by moving card ids between the zones of a fresh state
(hands, piles, Reserve, set aside) so every Creature stays in exactly one
place; everything after that goes through ``apply()`` and public facts.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

import pytest

from gloomtable.bots.base import RandomBot
from gloomtable.engine import (
    TERMINAL,
    ConfigError,
    Event,
    Game,
    GloomtableError,
    IllegalActionError,
    MalformedActionError,
    State,
)
from gloomtable.games import make_game
from gloomtable.games.creatures.actions import (
    DRAW_BASE,
    FLIP_BASE,
    NUM_ACTIONS,
    PASS,
    describe,
    flip,
    make_draw,
    play,
)
from gloomtable.games.creatures.cards import (
    COLOUR_KEYS,
    CREATURE_SET,
    CREATURES,
    CreatureSetError,
    load_set,
    parse_set,
)
from gloomtable.games.creatures.game import CreaturesGame
from gloomtable.games.creatures.state import CreaturesState
from gloomtable.i18n.events import render

RED, BLUE, GREEN, YELLOW = range(4)

# --- arranging positions -------------------------------------------------------


class Cards:
    """Hands out distinct copies: ``cards("red 4")`` twice gives both red 4s."""

    def __init__(self) -> None:
        self.free: dict[tuple[str, int], list[int]] = {}
        for c in CREATURES:
            self.free.setdefault((c.colour_key, c.number), []).append(c.id)

    def __call__(self, label: str) -> int:
        colour, number = label.split()
        return self.free[(colour, int(number))].pop(0)

    def rest(self) -> list[int]:
        return sorted(i for ids in self.free.values() for i in ids)


def arrange(hands: Sequence[Iterable[str]], piles: dict[str, Sequence[int]] | None = None,
            reserve: Iterable[str] = (), minus: Iterable[str] = (), current: int = 0,
            totals: Sequence[int] | None = None, rounds: int | None = None,
            ) -> CreaturesState:
    """A state with exactly these hands, piles (numbers, bottom first), Reserve
    (last = top) and Machines showing "-"; everything else is set aside."""
    players = len(hands)
    game = CreaturesGame(players=players, first_player=current, rounds=rounds)
    state = game.new_initial_state(0)
    cards = Cards()
    state.hands = [sorted(cards(label) for label in hand) for hand in hands]
    piles = piles or {}
    state.piles = [[cards(f"{col} {n}") for n in piles.get(col, ())] for col in COLOUR_KEYS]
    state.reserve = [cards(label) for label in reserve]
    state.aside = cards.rest()
    state.plus = [0 if col in set(minus) else 1 for col in COLOUR_KEYS]
    state.current = current
    if totals is not None:
        state.totals = list(totals)
    assert all_cards(state) == list(range(48))
    return state


def all_cards(state: CreaturesState) -> list[int]:
    """Every card id in hands, piles, Reserve and set aside, sorted."""
    return sorted([*(c for h in state.hands for c in h), *(c for p in state.piles for c in p),
                   *state.reserve, *state.aside])


def card_of(state: CreaturesState, seat: int, label: str) -> int:
    """The id of a ``label`` card in ``seat``'s hand."""
    for c in state.hands[seat]:
        if CREATURES[c].label == label:
            return c
    raise AssertionError(f"{label} not in hand of seat {seat}")


def play_label(state: CreaturesState, label: str) -> list[Event]:
    return state.apply(play(card_of(state, state.current, label)))


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def play_out(state: CreaturesState, seed: int = 0) -> CreaturesState:
    bots = [RandomBot(seed * 10 + p) for p in range(state.game.players)]
    while not state.is_over():
        state.apply(bots[state.current_player()].choose({}, state.legal_actions()))
    return state


# --- R-C1 the set ---------------------------------------------------------------


def test_R_C1_set_has_48_creatures_4_colours_numbers_1_to_6_twice() -> None:
    assert len(CREATURES) == 48
    assert [c.id for c in CREATURES] == list(range(48))
    assert COLOUR_KEYS == ("red", "blue", "green", "yellow")
    names = {c.colour_key: c.creature for c in CREATURES}
    assert names == {"red": "Hellcat", "blue": "Amphibug", "green": "Trolliphant",
                     "yellow": "Beenoceros"}
    for colour in COLOUR_KEYS:
        numbers = sorted(c.number for c in CREATURES if c.colour_key == colour)
        assert numbers == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
    for c in CREATURES:
        assert c.flavour and len(c.flavour) < 120


def test_R_C1_dna_on_1_and_6_and_penalty_skulls() -> None:
    for c in CREATURES:
        assert c.dna == (c.number in (1, 6))
        assert c.penalty == {1: 0, 6: 0, 2: 1, 5: 1, 3: 2, 4: 2}[c.number]


def test_R_C1_four_two_sided_machines() -> None:
    assert (CREATURE_SET.plus.symbol, CREATURE_SET.plus.name) == ("+", "Growing Machine")
    assert (CREATURE_SET.minus.symbol, CREATURE_SET.minus.name) == ("-", "Minimalizer")
    state = CreaturesGame(players=2).new_initial_state(1)
    assert len(state.plus) == 4
    assert [m["creature"] for m in state.view(None)["machines"]] == [
        "Hellcat", "Amphibug", "Trolliphant", "Beenoceros"]


def test_R_C1_set_file_is_validated_with_file_and_field(tmp_path) -> None:
    good = load_set()
    assert good.creatures == CREATURES
    with pytest.raises(CreatureSetError, match=r"bad\.toml: field copies"):
        bad = tmp_path / "bad.toml"
        bad.write_text('name = "x"\ncopies = "two"\ncolours = []\nnumbers = []\n'
                       '[machine.plus]\nsymbol="+"\nname="a"\n[machine.minus]\nsymbol="-"\nname="b"\n')
        load_set(bad)
    data = {"name": "x", "copies": 2, "colours": [{"key": "red", "creature": "Hellcat"}],
            "numbers": [{"value": v, "penalty": 0, "dna": v in (1, 6)} for v in range(1, 7)],
            "machine": {"plus": {"symbol": "+", "name": "G"}, "minus": {"symbol": "-", "name": "M"}}}
    with pytest.raises(CreatureSetError, match="need exactly 4"):
        parse_set(data, "mine.toml")
    with pytest.raises(CreatureSetError, match="unknown"):
        load_set(tmp_path / "unknown.toml")


# --- R-C2 players and rounds ---------------------------------------------------


@pytest.mark.parametrize("players", [1, 5, 0, "3", True])
def test_R_C2_only_2_to_4_players(players: object) -> None:
    with pytest.raises(ConfigError):
        CreaturesGame.from_dict({"players": players})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_R_C2_as_many_rounds_as_players(players: int) -> None:
    game = make_game("creatures", {"players": players})
    assert isinstance(game, CreaturesGame)
    assert game.num_players == players and game.rounds == players
    state = play_out(game.new_initial_state(players))
    assert len(state.round_scores) == players
    assert state.result().details["rounds"] == players


def test_R_C2_config_round_trips_and_rejects_bad_options() -> None:
    game = CreaturesGame.from_dict({"players": 4, "first_player": 2, "turn_cap": 500})
    assert CreaturesGame.from_dict(game.config_dict()) == game
    assert CreaturesGame.from_dict(json.loads(json.dumps(game.config_dict()))) == game
    assert CreaturesGame.from_dict({}) == CreaturesGame(players=3, rounds=3)
    assert isinstance(game, Game)
    assert game.name == "creatures" and game.num_distinct_actions == NUM_ACTIONS == 57
    with pytest.raises(ConfigError, match=r"unknown creatures option.*'colour'"):
        CreaturesGame.from_dict({"colour": "red"})
    with pytest.raises(ConfigError, match="first_player"):
        CreaturesGame.from_dict({"players": 2, "first_player": 2})
    with pytest.raises(ConfigError, match="rounds"):
        CreaturesGame.from_dict({"rounds": 0})
    with pytest.raises(ConfigError, match="turn_cap"):
        CreaturesGame.from_dict({"turn_cap": 1.5})
    with pytest.raises(ConfigError, match="seed"):
        game.new_initial_state("7")  # type: ignore[arg-type]


# --- R-C3 round setup ----------------------------------------------------------


@pytest.mark.parametrize(("players", "hand"), [(2, 12), (3, 12), (4, 10)])
def test_R_C3_round_setup_deals_reserve_and_sets_aside(players: int, hand: int) -> None:
    state = CreaturesGame(players=players).new_initial_state(11)
    assert [len(h) for h in state.hands] == [hand] * players
    assert len(state.reserve) == 8
    assert len(state.aside) == 48 - players * hand - 8
    assert state.piles == [[], [], [], []]
    assert state.plus == [1, 1, 1, 1]  # all Machines "+"
    assert all_cards(state) == list(range(48))
    view = state.view(0)
    assert view["reserve_count"] == 8 and view["aside_count"] == 48 - players * hand - 8
    assert all(m["side"] == "+" for m in view["machines"])


def test_R_C3_every_round_is_set_up_afresh() -> None:
    state = arrange([["red 3"], ["blue 2", "blue 2"]], piles={"green": [4, 5]},
                       minus=["green", "yellow"], rounds=2)
    play_label(state, "red 3")  # out
    events = play_label(state, "blue 2")  # final turn, round over
    assert kinds(events)[-2:] == ["round_end", "round_start"]
    assert state.round == 1
    assert state.plus == [1, 1, 1, 1] and state.piles == [[], [], [], []]
    assert [len(h) for h in state.hands] == [12, 12] and len(state.reserve) == 8
    assert all_cards(state) == list(range(48))


def test_R_C3_the_deal_is_shuffled_from_the_seed() -> None:
    game = CreaturesGame(players=3)
    a, b = game.new_initial_state(5), game.new_initial_state(5)
    assert a.snapshot() == b.snapshot()
    assert game.new_initial_state(6).hands != a.hands


# --- R-C4 start player ---------------------------------------------------------


def test_R_C4_first_start_player_is_random_from_the_seed() -> None:
    game = CreaturesGame(players=4)
    starts = [game.new_initial_state(seed).current_player() for seed in range(60)]
    assert set(starts) == {0, 1, 2, 3}
    assert starts == [game.new_initial_state(seed).current_player() for seed in range(60)]
    fixed = CreaturesGame(players=4, first_player=2)
    assert {fixed.new_initial_state(seed).current_player() for seed in range(20)} == {2}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_R_C4_each_round_starts_left_of_the_previous_start(players: int) -> None:
    state = CreaturesGame(players=players).new_initial_state(3)
    first = state.current_player()
    seen = [first]
    bots = [RandomBot(p) for p in range(players)]
    while not state.is_over():
        for e in state.apply(bots[state.current_player()].choose({}, state.legal_actions())):
            if e.kind == "round_start":
                assert state.current_player() == e.player == state.start_player
                seen.append(e.player)
    assert seen == [(first + r) % players for r in range(players)]


# --- R-C5 play if you can, else pass ---------------------------------------------


def test_R_C5_must_play_if_able_pass_is_illegal() -> None:
    state = arrange([["red 4", "blue 2"], ["green 3"]], piles={"red": [5]})
    assert state.legal_actions() == [play(card_of(state, 0, "blue 2"))]
    with pytest.raises(IllegalActionError) as info:
        state.apply(PASS)
    assert "R-C5" in info.value.reason
    assert info.value.legal == [(play(card_of(state, 0, "blue 2")), "play blue 2")]


def test_R_C5_pass_only_when_no_creature_fits() -> None:
    state = arrange([["red 2", "blue 3"], ["green 3"]], piles={"red": [5], "blue": [4]})
    assert state.legal_actions() == [PASS]
    events = state.apply(PASS)
    assert kinds(events) == ["pass"] and state.current_player() == 1


def test_R_C5_a_player_who_passed_may_play_later() -> None:
    state = arrange([["red 2", "blue 3"], ["red 6", "green 2"]],
                       piles={"red": [6], "blue": [5]})
    state.apply(PASS)  # red 2 cannot go on red 6, nor blue 3 on blue 5, under "+"
    play_label(state, "red 6")  # same number (R-C8)
    state.apply(flip(RED))  # red shows "-" now
    assert state.current_player() == 0
    assert state.legal_actions() == [play(card_of(state, 0, "red 2"))]
    play_label(state, "red 2")
    assert [CREATURES[c].number for c in state.piles[RED]] == [6, 6, 2]


def test_R_C5_a_card_not_in_hand_cannot_be_played() -> None:
    state = arrange([["red 2"], ["red 3"]])
    other = card_of(state, 1, "red 3")
    with pytest.raises(IllegalActionError, match="not in your hand"):
        state.apply(play(other))


# --- R-C6 + and - piles ----------------------------------------------------------


def test_R_C6_empty_pile_takes_any_number_of_its_colour() -> None:
    for minus in ([], ["yellow"]):
        hand = [f"yellow {n}" for n in range(1, 7)]
        state = arrange([hand, ["blue 1"]], minus=minus)
        assert state.legal_actions() == [play(c) for c in state.hands[0]]
        play_label(state, "yellow 3")
        assert [CREATURES[c].label for c in state.piles[YELLOW]] == ["yellow 3"]


def test_R_C6_plus_pile_needs_equal_or_higher() -> None:
    hand = ["blue 2", "blue 3", "blue 4", "blue 5"]
    state = arrange([hand, ["red 2"]], piles={"blue": [3]})
    legal = {describe(a) for a in state.legal_actions()}
    assert legal == {"play blue 3", "play blue 4", "play blue 5"}
    with pytest.raises(IllegalActionError, match=r"top 3, Machine shows \+"):
        play_label(state, "blue 2")


def test_R_C6_minus_pile_needs_equal_or_lower() -> None:
    hand = ["green 2", "green 3", "green 4", "green 5"]
    state = arrange([hand, ["red 2"]], piles={"green": [4]}, minus=["green"])
    legal = {describe(a) for a in state.legal_actions()}
    assert legal == {"play green 2", "play green 3", "play green 4"}
    with pytest.raises(IllegalActionError, match="Machine shows -"):
        play_label(state, "green 5")


def test_R_C6_a_creature_only_goes_on_its_own_colour() -> None:
    state = arrange([["red 4", "blue 5"], ["red 2"]], piles={"blue": [6]})
    play_label(state, "red 4")
    assert [len(p) for p in state.piles] == [1, 1, 0, 0]
    assert CREATURES[state.piles[RED][-1]].label == "red 4"


# --- R-C7 DNA ----------------------------------------------------------------------


def test_R_C7_dna_1_on_6_under_plus_and_6_on_1_under_minus() -> None:
    state = arrange([["red 1", "blue 6"], ["green 2"]], piles={"red": [6], "blue": [1]},
                       minus=["blue"])
    legal = {describe(a) for a in state.legal_actions()}
    assert legal == {"play red 1", "play blue 6"}
    play_label(state, "red 1")
    assert CREATURES[state.piles[RED][-1]].label == "red 1"


def test_R_C7_dna_on_dna_needs_the_same_colour_and_a_dna_top() -> None:
    # 1 on a 5 under "+" is not DNA on DNA; a yellow 6 under "-" on a 2 is not either.
    state = arrange([["red 1", "yellow 6", "green 1"], ["blue 2"]],
                       piles={"red": [5], "yellow": [2], "blue": [6]}, minus=["yellow"])
    assert state.legal_actions() == [play(card_of(state, 0, "green 1"))]


def test_R_C7_one_on_one_and_six_on_six_either_side() -> None:
    for minus in ([], ["red"]):
        state = arrange([["red 1", "red 6"], ["blue 2"]], piles={"red": [1]}, minus=minus)
        assert {describe(a) for a in state.legal_actions()} == {"play red 1", "play red 6"}
        state = arrange([["red 1", "red 6"], ["blue 2"]], piles={"red": [6]}, minus=minus)
        assert {describe(a) for a in state.legal_actions()} == {"play red 1", "play red 6"}


# --- R-C8 same number -------------------------------------------------------------------


def test_R_C8_same_number_opens_a_decision_for_the_same_player() -> None:
    state = arrange([["red 4", "blue 2"], ["green 3"], ["green 5"]], piles={"red": [4]},
                       reserve=["yellow 3"])
    events = play_label(state, "red 4")
    assert kinds(events) == ["play", "same_number"]
    assert state.current_player() == 0 and state.decision.kind == "same_number"
    assert state.view(0)["decision"] == "same_number"
    assert state.legal_actions() == [flip(c) for c in range(4)] + [make_draw(1), make_draw(2)]
    with pytest.raises(IllegalActionError, match="R-C8"):
        state.apply(play(card_of(state, 0, "blue 2")))
    with pytest.raises(IllegalActionError, match="not yourself"):
        state.apply(make_draw(0))
    with pytest.raises(IllegalActionError, match="no player 4"):
        state.apply(make_draw(3))


def test_R_C8_flip_any_machine() -> None:
    state = arrange([["red 4", "blue 2"], ["green 3"]], piles={"red": [4]})
    play_label(state, "red 4")
    events = state.apply(flip(GREEN))
    assert kinds(events) == ["flip"] and "green Machine to - Minimalizer" in render(events[0], "en")
    assert state.plus == [1, 1, 0, 1]
    assert state.current_player() == 1 and state.decision.kind == "play"


def test_R_C8_make_another_player_draw_from_the_reserve_privately() -> None:
    state = arrange([["red 4", "blue 2"], ["green 3"], ["green 5"]], piles={"red": [4]},
                       reserve=["yellow 1", "yellow 3"])
    bottom, top = state.reserve
    play_label(state, "red 4")
    (event,) = state.apply(make_draw(2))
    assert top in state.hands[2] and len(state.hands[2]) == 2 and state.reserve == [bottom]
    assert event.kind == "draw" and event.private_to == 2 and event.card == top
    assert "yellow 3" in render(event, "en")
    for viewer in (None, 0, 1):
        seen = event.for_player(viewer)
        assert seen.card is None and "yellow" not in render(seen, "en")
        assert "makes player 3 draw" in render(seen, "en")
    assert event.for_player(2).card == top
    assert state.current_player() == 1


def test_R_C8_with_the_reserve_empty_only_flips() -> None:
    state = arrange([["red 4", "blue 2"], ["green 3"]], piles={"red": [4]})
    play_label(state, "red 4")
    assert state.legal_actions() == [FLIP_BASE, FLIP_BASE + 1, FLIP_BASE + 2, FLIP_BASE + 3]
    with pytest.raises(IllegalActionError, match="Reserve is empty"):
        state.apply(DRAW_BASE + 1)


def test_R_C8_no_decision_on_a_different_number_or_an_empty_pile() -> None:
    state = arrange([["red 5", "blue 2"], ["green 3", "green 4"]], piles={"red": [4]},
                       reserve=["yellow 3"])
    assert kinds(play_label(state, "red 5")) == ["play"]
    assert kinds(play_label(state, "green 3")) == ["play"]
    assert state.current_player() == 0 and state.decision.kind == "play"


def test_R_C8_decision_also_when_the_play_empties_the_hand() -> None:
    state = arrange([["red 4"], ["green 3", "blue 5"]], piles={"red": [4]},
                       reserve=["yellow 3"])
    play_label(state, "red 4")
    assert state.decision.kind == "same_number" and state.current_player() == 0
    events = state.apply(make_draw(1))
    assert kinds(events) == ["draw", "out"]
    assert state.current_player() == 1 and len(state.hands[1]) == 3


# --- R-C9 round end -----------------------------------------------------------------------


def test_R_C9_hand_empty_then_every_other_player_one_final_turn_in_order() -> None:
    state = arrange([["blue 3", "yellow 2"], ["red 3"], ["blue 2", "blue 4"],
                        ["green 2", "green 5"]], current=1, rounds=4)
    events = play_label(state, "red 3")
    assert kinds(events) == ["play", "out"]
    assert state.closer == 1 and state.final_left == 3
    order = []
    while state.round == 0:
        order.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert order == [2, 3, 0]  # left of the closer, around the table, never the closer
    # Final turns played blue 2, green 2 and blue 3: yellow 2, blue 4, green 5 remain.
    assert state.round_scores[0] == [1, -3, 2, 1]


def test_R_C9_final_turns_are_exactly_one_each_even_if_playing_out() -> None:
    state = arrange([["red 3"], ["blue 2"], ["green 2", "green 5"]], rounds=3)
    play_label(state, "red 3")
    events = play_label(state, "blue 2")  # player 2 also empties their hand
    assert "round_end" not in kinds(events) and state.current_player() == 2
    events = play_label(state, "green 2")
    assert "round_end" in kinds(events)
    assert state.round_scores[0] == [-3, -3, 1]


def test_R_C9_closer_made_to_draw_in_final_turns_gets_no_turn_and_no_bonus() -> None:
    state = arrange([["red 3"], ["blue 2", "blue 5"], ["green 2", "green 5"]],
                       piles={"blue": [2]}, reserve=["yellow 4"], rounds=3)
    play_label(state, "red 3")
    play_label(state, "blue 2")
    state.apply(make_draw(0))  # the closer gets yellow 4
    assert len(state.hands[0]) == 1 and state.current_player() == 2
    events = play_label(state, "green 2")
    assert "round_end" in kinds(events)
    assert state.round_scores[0] == [2, 1, 1]  # yellow 4 costs 2: no -3 for player 1


def test_R_C9_round_ends_when_every_player_in_a_row_has_passed() -> None:
    state = arrange([["red 2", "blue 3"], ["red 3"], ["red 4", "red 5"]],
                       piles={"red": [6], "blue": [5]}, rounds=3)
    assert kinds(state.apply(PASS)) == ["pass"]
    assert kinds(state.apply(PASS)) == ["pass"]
    events = state.apply(PASS)
    assert kinds(events)[:2] == ["pass", "round_end"]
    assert "every player in a row has passed" in render(events[1], "en")
    assert state.round_scores[0] == [3, 2, 3]


def test_R_C9_a_play_breaks_the_row_of_passes() -> None:
    state = arrange([["red 2", "blue 3"], ["red 3", "blue 6"], ["red 4", "red 5"]],
                       piles={"red": [6], "blue": [5]}, rounds=3)
    state.apply(PASS)
    play_label(state, "blue 6")
    state.apply(PASS)
    state.apply(PASS)
    assert state.round == 0 and state.passes == 2
    events = state.apply(PASS)
    assert "round_end" in kinds(events)


# --- R-C10 penalties --------------------------------------------------------------------


def test_R_C10_penalties_per_card_left_in_hand() -> None:
    hand = ["red 2", "red 3", "red 4", "red 5", "yellow 1", "yellow 6", "green 1"]
    state = arrange([["blue 3"], hand], piles={"red": [6]}, rounds=2)
    assert state.penalties(1) == 1 + 2 + 2 + 1
    play_label(state, "blue 3")
    play_label(state, "green 1")  # the final turn
    assert state.round_scores[0] == [-3, 6]
    assert state.totals == [0, 6]


@pytest.mark.parametrize(("before", "after"), [(5, 2), (3, 0), (2, 0), (0, 0)])
def test_R_C10_empty_hand_subtracts_3_never_below_0(before: int, after: int) -> None:
    state = arrange([["blue 3"], ["red 2"]], piles={"red": [6]}, totals=[before, 4],
                       rounds=2)
    play_label(state, "blue 3")
    state.apply(PASS)
    assert state.totals == [after, 5]


# --- R-C11 winner ----------------------------------------------------------------------


def test_R_C11_lowest_total_wins() -> None:
    state = arrange([["blue 3"], ["red 2"]], piles={"red": [6]}, totals=[4, 2], rounds=1)
    with pytest.raises(GloomtableError, match="not over"):
        state.result()
    play_label(state, "blue 3")
    events = state.apply(PASS)
    assert kinds(events) == ["pass", "round_end", "game_end"]
    assert state.is_over() and state.current_player() == TERMINAL
    result = state.result()
    assert result.scores == (1, 3) and result.winners == (0,) and not result.capped
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply(PASS)


def test_R_C11_ties_share_the_win() -> None:
    state = arrange([["blue 3"], ["red 2"]], piles={"red": [6]}, totals=[4, 0], rounds=1)
    play_label(state, "blue 3")
    state.apply(PASS)
    result = state.result()
    assert result.scores == (1, 1) and result.winners == (0, 1)
    assert result.returns() == [0.5, 0.5]
    assert state.view(0)["result"]["winners"] == [0, 1]


def test_R_C11_turn_cap_ends_the_game_visibly() -> None:
    game = CreaturesGame(players=3, turn_cap=7)
    state = game.new_initial_state(2)
    events: list[Event] = []
    while not state.is_over():
        events = state.apply(state.legal_actions()[0])
    assert state.turns == 7 and events[-1].kind == "capped"
    result = state.result()
    assert result.capped and result.details["rounds"] == 0
    assert result.scores == (0, 0, 0) and result.winners == (0, 1, 2)
    assert "turn cap" in state.render(None)


# --- the engine protocol -----------------------------------------------------------------


def test_state_follows_the_engine_protocol() -> None:
    state = CreaturesGame(players=3).new_initial_state(9)
    assert isinstance(state, State)
    assert state.legal_actions() == sorted(state.legal_actions())
    json.dumps(state.snapshot())
    for p in (None, 0, 1, 2):
        json.dumps(state.view(p))
    text = state.render(0)
    assert "Machines:" in text and "Reserve: 8" in text and "Your hand" in text
    assert "*" in text and "round 1 of 3" in text
    assert "Your hand" not in state.render(None)


@pytest.mark.parametrize("bad", ["1", 1.0, None, -1, 57, 1000, True])
def test_malformed_actions_are_refused(bad: object) -> None:
    state = CreaturesGame(players=2).new_initial_state(1)
    before = state.snapshot()
    with pytest.raises(MalformedActionError):
        state.apply(bad)  # type: ignore[arg-type]
    assert state.snapshot() == before


def test_illegal_action_says_why_and_lists_legal_pairs() -> None:
    state = arrange([["red 2"], ["red 3"]])
    with pytest.raises(IllegalActionError) as info:
        state.apply(flip(BLUE))
    assert "same-number" in info.value.reason
    assert info.value.legal == [(a, describe(a)) for a in state.legal_actions()]


def test_action_strings_are_readable() -> None:
    state = CreaturesGame(players=4).new_initial_state(1)
    red4 = next(c.id for c in CREATURES if c.label == "red 4")
    assert state.action_to_string(PASS) == "pass"
    assert state.action_to_string(play(red4)) == "play red 4"
    assert state.action_to_string(flip(BLUE)) == "flip blue Machine"
    assert state.action_to_string(make_draw(1)) == "make player 2 draw"
    with pytest.raises(MalformedActionError):
        state.action_to_string(NUM_ACTIONS)


def test_clone_is_independent() -> None:
    state = CreaturesGame(players=3).new_initial_state(4)
    copy = state.clone()
    before = state.snapshot()
    play_out(copy)
    assert state.snapshot() == before and copy.is_over()
    assert copy.game is state.game
