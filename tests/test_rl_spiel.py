"""issue 7: every game is an OpenSpiel Python game that passes OpenSpiel's own
random_sim_test (with serialization) and that OpenSpiel's MCTS and
evaluate_bots run on; issue 21: observation types, resampling at every kind of
decision, a cheap chance model and clones that keep what they know, so that
OpenSpiel's ISMCTS plays whole games. Skipped without the optional ``open_spiel``."""

from __future__ import annotations

import numpy as np
import pytest

from gloomtable.games import make_game
from rl_support import needs_gloomier, scramble_hidden

pyspiel = pytest.importorskip("pyspiel")
spiel = pytest.importorskip("gloomtable.rl.spiel")
from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402

GAMES = [
    ("gloomtable_creatures(players=2)", 3),
    ("gloomtable_creatures(players=4,deals=1000)", 1),
    ("gloomtable_creatures(players=3,deals=7)", 1),
    ("gloomtable_creatures(players=2,deals=1)", 1),
    # Short caps keep a Gloom simulation to a few dozen actions; the cap is a rule
    # of the game (a capped game ends), so nothing is skipped.
    ("gloomtable_gloom(players=3,turn_cap=12,deals=100)", 1),
    pytest.param("gloomtable_gloomier(turn_cap=8,deals=100)", 1, marks=needs_gloomier),
]


def deal(state, seed: int) -> None:
    """Play the chance nodes so that the deal is engine seed ``seed``."""
    radices = state.get_game().digits
    digits = []
    for radix in reversed(radices):
        seed, d = divmod(seed, radix)
        digits.append(d)
    for d in reversed(digits):
        assert state.is_chance_node() and len(state.chance_outcomes()) <= 16
        state.apply_action(d)
    assert not state.is_chance_node()


@pytest.mark.parametrize(("name", "sims"), GAMES)
def test_openspiel_random_sim_test_passes(name: str, sims: int) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=sims, serialize=True, verbose=False)


def test_declared_facts() -> None:
    game = pyspiel.load_game("gloomtable_creatures(players=3)")
    t = game.get_type()
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_distinct_actions() == 57 and game.num_players() == 3
    assert game.max_chance_outcomes() == 16  # the deal's digits, not one node of 65536
    assert game.observation_tensor_size() == 158
    assert game.information_state_tensor_size() == 158 + 57
    assert game.max_game_length() == 4000 + 4  # 2 actions a turn to the cap, and the deal


@pytest.mark.slow
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
    deal(state, 77)
    rng = np.random.default_rng(0)
    for step in range(30):
        state.apply_action(int(rng.choice(state.legal_actions())))
        for p in range(3):
            other = state.clone()
            other.core.engine, moved = scramble_hidden(state.state, p, step)
            other.core.known = {}
            assert moved
            assert other.observation_tensor(p) == state.observation_tensor(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.observation_string(p) == state.observation_string(p)


def test_information_state_string_has_perfect_recall() -> None:
    """Two histories that end in the same observation but passed through different
    ones differ in the information state, not in the observation."""
    game = pyspiel.load_game("gloomtable_creatures(players=2)")
    state = game.new_initial_state()
    deal(state, 5)
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
    deal(state, 42)
    rng = np.random.default_rng(1)
    for _ in range(10):
        state.apply_action(int(rng.choice(state.legal_actions())))
    p = state.current_player()
    sample = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sample.observation_string(p) == state.observation_string(p)
    assert sample.information_state_string(p) == state.information_state_string(p)
    assert sample.state.hands != state.state.hands  # hidden cards dealt anew
    assert sample.legal_actions() == state.legal_actions()
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 20, random_state=rs)
    assert bot.step(state) in state.legal_actions()


def test_the_deal_is_small_chance_nodes_and_the_engines_own_seed() -> None:
    """issue 21: asking for chance outcomes is cheap (at most 16 per node), and deal
    ``d`` is the engine's game with seed ``d`` (records and seeds keep meaning it)."""
    assert spiel.deal_digits(65536) == (16, 16, 16, 16)
    assert np.prod(spiel.deal_digits(1000)) == 1000 and max(spiel.deal_digits(1000)) <= 16
    with pytest.raises(ValueError, match="prime factor"):
        spiel.deal_digits(17)
    for name, engine in (("gloomtable_gloom", "gloom"), ("gloomtable_creatures(players=2)",
                                                         "creatures")):
        game = pyspiel.load_game(name)
        state = game.new_initial_state()
        deal(state, 40_321)
        assert state.deal == 40_321
        fresh = make_game(engine, state.state.game.config_dict()).new_initial_state(40_321)
        assert state.state.view(0) == fresh.view(0) and state.state.view(1) == fresh.view(1)


def observation_types():
    private = pyspiel.PrivateInfoType
    return {
        "public": pyspiel.IIGObservationType(public_info=True, perfect_recall=False,
                                             private_info=private.NONE),
        "public_recall": pyspiel.IIGObservationType(public_info=True, perfect_recall=True,
                                                    private_info=private.NONE),
        "private": pyspiel.IIGObservationType(public_info=False, perfect_recall=False,
                                              private_info=private.SINGLE_PLAYER),
        "full": pyspiel.IIGObservationType(public_info=True, perfect_recall=False,
                                           private_info=private.SINGLE_PLAYER),
    }


def swap_with_next_hand(state, p: int):
    """A copy of ``state`` where ``p`` holds one other card (swapped with the next
    seat's hand): the two differ only in hidden cards, ``p``'s own among them."""
    other = state.clone()
    mine, theirs = other.core.engine.hands[p], other.core.engine.hands[(p + 1) % len(
        other.core.engine.hands)]
    mine[0], theirs[0] = theirs[0], mine[0]
    mine.sort()
    theirs.sort()
    other.core.known = {}
    return other


@pytest.mark.parametrize("name", ["gloomtable_creatures", "gloomtable_gloom",
                                  pytest.param("gloomtable_gloomier", marks=needs_gloomier)])
def test_public_observation_is_the_same_whatever_the_own_hand(name: str) -> None:
    """issue 21: IIGObservationType is honoured: the public-only tensor and string
    do not change when only the observer's own hand does; the private part and the
    full observation do."""
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    deal(state, 9)
    rng = np.random.default_rng(3)
    for _ in range(12):
        state.apply_action(int(rng.choice(state.legal_actions())))
    p = state.current_player()
    other = swap_with_next_hand(state, p)
    assert other.state.hands[p] != state.state.hands[p]
    obs = {kind: make_observation(game, t) for kind, t in observation_types().items()}

    def seen(kind, s):
        obs[kind].set_from(s, p)
        return obs[kind].tensor.copy(), obs[kind].string_from(s, p)

    for kind in ("public", "public_recall"):
        (t1, s1), (t2, s2) = seen(kind, state), seen(kind, other)
        assert np.array_equal(t1, t2) and s1 == s2, kind
        assert str(sorted(state.state.view(p)["hand"], key=str)) not in s1
    assert obs["public"].tensor.size == game.observation_tensor_size()
    assert not obs["public_recall"].dict.keys() - {"observation"}
    for kind in ("private", "full"):
        (t1, s1), (t2, s2) = seen(kind, state), seen(kind, other)
        assert not np.array_equal(t1, t2) and s1 != s2, kind
    hand = game.new_initial_state().get_game().encoder.private_slots.size
    assert obs["private"].tensor.size == hand
    with pytest.raises(ValueError, match="all-players"):
        game.make_py_observer(pyspiel.IIGObservationType(
            perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


RESAMPLED = [("gloomtable_creatures(players=3)", 2), ("gloomtable_gloom(players=4)", 2),
             pytest.param("gloomtable_gloom(players=5)", 1, marks=pytest.mark.slow),
             pytest.param("gloomtable_gloomier(players=4)", 1, marks=[needs_gloomier, pytest.mark.slow])]


@pytest.mark.parametrize(("name", "games"), RESAMPLED)
def test_resample_from_infostate_at_every_decision(name: str, games: int) -> None:
    """issue 21: ISMCTS resamples at every decision, whatever its kind (setup,
    plays, responses, effect choices): the player sees the sample exactly as the
    real state, its information state is the same, the hidden cards moved, and the
    sample plays on to the end."""
    game = pyspiel.load_game(name)
    rng = np.random.default_rng(11)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    kinds: dict[str, int] = {}
    moved = steps = 0
    for g in range(games):
        state = game.new_initial_state()
        deal(state, 100 + g)
        while not state.is_terminal():
            p = state.current_player()
            sample = state.resample_from_infostate(p, sampler)
            assert sample.observation_string(p) == state.observation_string(p)
            assert sample.information_state_string(p) == state.information_state_string(p)
            assert sample.observation_tensor(p) == state.observation_tensor(p)
            assert sample.legal_actions() == state.legal_actions()
            moved += sample.state.hands != state.state.hands
            steps += 1
            decision = state.state.view(p)["decision"]
            kind = decision["kind"] if isinstance(decision, dict) else str(decision)
            kinds[kind] = kinds.get(kind, 0) + 1
            if steps % 25 == 0:  # the sample is a real position: it plays to the end
                while not sample.is_terminal():
                    sample.apply_action(int(rng.choice(sample.legal_actions())))
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert moved > steps * 0.9
    if name.startswith("gloomtable_gloom"):
        assert {"play", "respond"} <= kinds.keys()
        assert len(kinds) >= 4, kinds


def test_clones_keep_what_they_know() -> None:
    """issue 21: a clone answers ``information_state_string`` from what the original
    worked out (no replay of the game), and goes on from there correctly."""
    game = pyspiel.load_game("gloomtable_gloom")
    state = game.new_initial_state()
    deal(state, 4)
    rng = np.random.default_rng(2)
    for _ in range(60):
        state.apply_action(int(rng.choice(state.legal_actions())))
    p = state.current_player()
    key = state.information_state_string(p)
    clone = state.clone()
    clone.get_game().engine_game  # noqa: B018 - the same game object
    replays = []
    real_new = type(clone.state).__init__

    def counting(self, *args, **kw):
        replays.append(1)
        real_new(self, *args, **kw)

    type(clone.state).__init__ = counting
    try:
        assert clone.information_state_string(p) == key
        clone.apply_action(int(rng.choice(clone.legal_actions())))
        nxt = clone.information_state_string(p)
    finally:
        type(clone.state).__init__ = real_new
    assert not replays  # no game was set up again to replay the history
    restored = game.deserialize_state(clone.serialize())
    assert restored.information_state_string(p) == nxt


ISMCTS_GAMES = ["gloomtable_gloom", "gloomtable_creatures",
                pytest.param("gloomtable_gloomier", marks=needs_gloomier)]


@pytest.mark.slow
@pytest.mark.parametrize("name", ISMCTS_GAMES)
def test_openspiel_ismcts_plays_whole_games(name: str) -> None:
    """issue 21: OpenSpiel's own ISMCTSBot plays five whole games (a different seat
    each game, the others random) without an error."""
    from open_spiel.python.algorithms import ismcts

    game = pyspiel.load_game(name)
    rs = np.random.RandomState(0)
    for g in range(5):
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 5, random_state=rs)
        seat = g % game.num_players()
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rs.choice(outcomes, p=probs)))
            elif state.current_player() == seat:
                action = bot.step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
                moves += 1
            else:
                state.apply_action(int(rs.choice(state.legal_actions())))
        assert moves > 0 and sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.slow
def test_versus_seats_openspiel_ismcts_against_the_hard_bot() -> None:
    """The docs' comparison runs: both seatings of one deal, shares summing to the games."""
    from gloomtable.rl.versus import play

    report = play("creatures", 2, seed=3, simulations=3)
    shares = report["win_share"]
    assert report["games"] == 2 and report["simulations"] == 3
    assert shares["openspiel_ismcts"] + shares["hard"] == pytest.approx(1.0)
