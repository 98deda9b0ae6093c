"""The Crazy Creatures heuristic bot: legal, deterministic, view-only, and
clearly stronger than the random bot (R-C11 decides who won)."""

from __future__ import annotations

import json

import pytest

from gloomtable.bots.base import Bot, RandomBot
from gloomtable.bots.levels import make_bot
from gloomtable.engine import Result
from gloomtable.games import make_game
from gloomtable.games.creatures.actions import flip, make_draw, play
from gloomtable.games.creatures.cards import COLOUR_KEYS, CREATURES
from gloomtable.games.creatures.game import CreaturesGame
from gloomtable.games.creatures.hooks.heuristic import CreaturesHeuristicBot
from gloomtable.games.creatures.state import CreaturesState


def play_game(game: CreaturesGame, bots: list[Bot], seed: int,
              json_views: bool = False) -> Result:
    state = game.new_initial_state(seed)
    while not state.is_over():
        p = state.current_player()
        view = state.view(p)
        if json_views:
            view = json.loads(json.dumps(view))
        legal = state.legal_actions()
        action = bots[p].choose(view, legal)
        assert action in legal
        state.apply(action)
    return state.result()


def test_make_bot_builds_the_heuristic_bot() -> None:
    bot = make_bot("heuristic", "creatures", 3)
    assert isinstance(bot, CreaturesHeuristicBot) and bot.name == "heuristic"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_R_C5_R_C8_heuristic_bot_always_chooses_a_legal_action(players: int) -> None:
    """It picks only legal plays and decisions, reading a JSON round-tripped view."""
    game = CreaturesGame(players=players)
    for seed in range(15):
        bots: list[Bot] = [CreaturesHeuristicBot(seed + p) for p in range(players)]
        play_game(game, bots, seed, json_views=True)


def test_heuristic_bot_is_deterministic_for_a_seed() -> None:
    game = CreaturesGame(players=3)
    runs = [play_game(game, [CreaturesHeuristicBot(7), RandomBot(8), CreaturesHeuristicBot(9)], 4)
            for _ in range(2)]
    assert runs[0] == runs[1]


def position(hands: list[list[str]], piles: dict[str, list[int]], minus: tuple[str, ...] = (),
             totals: list[int] | None = None, reserve: int = 3) -> CreaturesState:
    """A real state with these hands and piles (numbers), seat 0 to move; the
    Reserve gets ``reserve`` of the remaining cards, the rest is set aside."""
    free = {c.label: [] for c in CREATURES}
    for c in CREATURES:
        free[c.label].append(c.id)
    state = CreaturesGame(players=len(hands), first_player=0).new_initial_state(0)
    state.hands = [sorted(free[label].pop() for label in hand) for hand in hands]
    state.piles = [[free[f"{col} {n}"].pop() for n in piles.get(col, [])] for col in COLOUR_KEYS]
    rest = sorted(i for ids in free.values() for i in ids)
    state.reserve, state.aside = rest[:reserve], rest[reserve:]
    state.plus = [0 if col in minus else 1 for col in COLOUR_KEYS]
    state.totals = totals or [0] * len(hands)
    return state


def bot_choice(state: CreaturesState) -> int:
    p = state.current_player()
    return CreaturesHeuristicBot(0).choose(state.view(p), state.legal_actions())


def test_R_C8_heuristic_makes_the_leader_draw() -> None:
    state = position([["red 3", "green 2"], ["blue 2", "blue 3"], ["yellow 2", "yellow 3"]],
                     piles={"red": [3]}, totals=[5, 2, 9])
    state.apply(play(state.hands[0][0]))  # red 3 on red 3
    assert state.decision.kind == "same_number"
    assert bot_choice(state) == make_draw(1)  # the lowest total


def test_R_C8_heuristic_flips_when_that_frees_its_hand() -> None:
    # Its blue cards sit below a "+" blue 6; flipping blue to "-" frees them all.
    hand = ["red 4", "blue 2", "blue 3", "blue 4", "blue 5"]
    for reserve in (3, 0):
        state = position([hand, ["green 2", "green 3"]], piles={"red": [4], "blue": [6]},
                         reserve=reserve)
        state.apply(play(state.hands[0][0]))  # red 4 on red 4
        assert state.decision.kind == "same_number"
        assert bot_choice(state) == flip(1)


def test_R_C6_heuristic_climbs_a_plus_pile_from_low_to_high() -> None:
    state = position([["green 2", "green 3", "green 5"], ["red 2"]], piles={})
    assert bot_choice(state) == play(state.hands[0][0])  # green 2 keeps 3 and 5 playable
    state = position([["green 2", "green 3", "green 5"], ["red 2"]], piles={"green": [6]},
                     minus=("green",))
    assert bot_choice(state) == play(state.hands[0][2])  # green 5 first on a "-" pile


def test_heuristic_beats_random_in_at_least_70_percent_of_300_two_player_games() -> None:
    """Seats rotate; a game counts as won only if the bot is the sole winner."""
    game = make_game("creatures", {"players": 2})
    assert isinstance(game, CreaturesGame)
    n, wins = 300, 0
    for g in range(n):
        seat = g % 2
        bots: list[Bot] = [make_bot("heuristic" if p == seat else "random", "creatures",
                                    1000 * g + p) for p in range(2)]
        result = play_game(game, bots, 50_000 + g)
        wins += result.winners == (seat,)
    assert wins / n >= 0.70, f"heuristic won only {wins}/{n}"
