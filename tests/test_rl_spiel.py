"""issue 7: every game is an OpenSpiel Python game that passes OpenSpiel's own
random_sim_test (with serialization) and that OpenSpiel's MCTS and
evaluate_bots run on. Skipped without the optional ``open_spiel``."""

from __future__ import annotations

import numpy as np
import pytest

from rl_support import needs_gloomier, scramble_hidden

pyspiel = pytest.importorskip("pyspiel")
spiel = pytest.importorskip("gloomtable.rl.spiel")
from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402

GAMES = [
    ("gloomtable_creatures(players=2)", 3),
    ("gloomtable_creatures(players=4,deals=1000)", 1),
    # Short caps keep a Gloom simulation to a few dozen actions; the cap is a rule
    # of the game (a capped game ends), so nothing is skipped.
    ("gloomtable_gloom(players=3,turn_cap=12,deals=100)", 1),
    pytest.param("gloomtable_gloomier(turn_cap=8,deals=100)", 1, marks=needs_gloomier),
]


@pytest.mark.parametrize(("name", "sims"), GAMES)
def test_openspiel_random_sim_test_passes(name: str, sims: int) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=sims, serialize=True, verbose=False)


def test_declared_facts() -> None:
    game = pyspiel.load_game("gloomtable_creatures(players=3)")
    t = game.get_type()
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_distinct_actions() == 57 and game.num_players() == 3
    assert game.max_chance_outcomes() == spiel.DEFAULT_DEALS
    assert game.observation_tensor_size() == 158
    assert game.information_state_tensor_size() == 158 + 57
    assert game.max_game_length() == 4000


def test_mcts_beats_the_uniform_random_bot() -> None:
    game = pyspiel.load_game("gloomtable_creatures(players=2,rounds=1,deals=1000)")
    rng = np.random.RandomState(0)
    bots = [mcts.MCTSBot(game, 2.0, 30, mcts.RandomRolloutEvaluator(1, rng), random_state=rng),
            pyspiel.make_uniform_random_bot(1, 1)]
    returns = [evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)[0]
               for _ in range(6)]
    assert np.mean(returns) > 0.5


def test_tensors_and_strings_ignore_hidden_cards() -> None:
    game = pyspiel.load_game("gloomtable_creatures(players=3)")
    state = game.new_initial_state()
    state.apply_action(77)  # the deal
    rng = np.random.default_rng(0)
    for step in range(30):
        state.apply_action(int(rng.choice(state.legal_actions())))
        for p in range(3):
            other = state.clone()
            other.held.state, moved = scramble_hidden(state.held.state, p, step)
            assert moved
            assert other.observation_tensor(p) == state.observation_tensor(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.observation_string(p) == state.observation_string(p)


def test_information_state_string_has_perfect_recall() -> None:
    """Two histories that end in the same observation but passed through different
    ones differ in the information state, not in the observation."""
    game = pyspiel.load_game("gloomtable_creatures(players=2)")
    state = game.new_initial_state()
    state.apply_action(5)
    s1 = state.clone()
    assert s1.information_state_string(0).startswith(s1.observation_string(0))
    s1.apply_action(s1.legal_actions()[0])
    assert s1.information_state_string(0) != state.information_state_string(0)
    restored = game.deserialize_state(s1.serialize())
    assert restored.information_state_string(0) == s1.information_state_string(0)


def test_ismcts_resamples_hidden_cards_consistently_and_plays() -> None:
    from open_spiel.python.algorithms import ismcts

    game = pyspiel.load_game("gloomtable_creatures(players=3,rounds=1)")
    state = game.new_initial_state()
    state.apply_action(42)
    rng = np.random.default_rng(1)
    for _ in range(10):
        state.apply_action(int(rng.choice(state.legal_actions())))
    p = state.current_player()
    sample = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sample.observation_string(p) == state.observation_string(p)
    assert sample.information_state_string(p) == state.information_state_string(p)
    assert sample.held.state.hands != state.held.state.hands  # hidden cards dealt anew
    assert sample.legal_actions() == state.legal_actions()
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 20, random_state=rs)
    assert bot.step(state) in state.legal_actions()
