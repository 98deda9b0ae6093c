"""issue 7: the PettingZoo AEC environments pass PettingZoo's own api_test and
seed_test as they are, render as text, and pay win shares (or shaped rewards)."""

from __future__ import annotations

import importlib
import warnings

import numpy as np
import pytest

from gloomtable.engine import ConfigError, IllegalActionError
from gloomtable.rl import bench_steps
from rl_support import ENVS, needs_gloomier

with warnings.catch_warnings():
    # pettingzoo.test imports PettingZoo's own classic games through their old,
    # deprecated import path; that note is PettingZoo's, not ours.
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import api_test, render_test, seed_test

# PettingZoo's api_test exempts its own dict-observation games from these two
# notes by name ("leduc_holdem_v4", "chess_v6", ...); a dict of observation and
# action_mask is exactly the classic games' format, so only these may appear.
DICT_OBSERVATION_NOTES = ("Observation is not a NumPy array",
                          "Observation space for each agent probably should be")


def module(name: str):
    return importlib.import_module(f"gloomtable.rl.{name}")


def run_quietly(fn, *args, **kw) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(*args, **kw)
    others = [str(w.message) for w in caught
              if not str(w.message).startswith(DICT_OBSERVATION_NOTES)]
    assert not others, others


@pytest.mark.parametrize("name", ENVS)
def test_pettingzoo_api_test_passes(name: str) -> None:
    cycles = 400 if name == "creatures_v0" else 60
    run_quietly(api_test, module(name).env(), num_cycles=cycles)


@pytest.mark.parametrize("name", ENVS)
def test_pettingzoo_seed_test_passes(name: str) -> None:
    run_quietly(seed_test, module(name).env, num_cycles=40 if name == "creatures_v0" else 10)


def test_api_test_passes_with_two_players_and_shaped_reward() -> None:
    run_quietly(api_test, module("creatures_v0").raw_env(players=2, reward="shaped"),
                num_cycles=300)


def play_out(env, seed: int) -> dict[str, float]:
    """Random legal play to the end; the total reward each agent collected."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(100_000):
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    return totals


def test_rewards_at_the_end_are_the_win_shares() -> None:
    env = module("creatures_v0").raw_env(players=3)
    totals = play_out(env, seed=5)
    assert sum(totals.values()) == pytest.approx(1.0)
    assert set(totals.values()) <= {0.0, 1.0, 0.5, 1 / 3}


def test_shaped_reward_adds_score_improvements_to_the_win_share() -> None:
    win = play_out(module("creatures_v0").raw_env(players=2), seed=9)
    shaped = play_out(module("creatures_v0").raw_env(players=2, reward="shaped"), seed=9)
    assert shaped != win  # same game (same seed and actions), penalties added
    # Crazy Creatures: the shaped part is -(final penalty total) / 100 per seat.
    for agent in win:
        assert shaped[agent] <= win[agent] + 0.03 + 1e-9  # at most one -3 bonus per round


def test_a_game_stopped_by_the_turn_cap_is_truncated_not_terminated() -> None:
    env = module("creatures_v0").raw_env(players=2, turn_cap=6)
    totals = play_out(env, seed=1)
    assert sum(totals.values()) == pytest.approx(1.0)  # capped results still name winners
    env.reset(seed=1)
    for _ in range(12):  # six turns; a same-number decision is part of its turn
        if env.state.is_over():
            break
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.infos[env.agent_selection]["capped"] is True


def test_observation_layout_and_the_mask_follow_the_view() -> None:
    env = module("creatures_v0").raw_env(players=3)
    env.reset(seed=3)
    agent = env.agent_selection
    seat = env.seat_of[agent]
    obs = env.observe(agent)
    view = env.state.view(seat)
    hand = sorted(c["id"] for c in view["hand"])
    assert list(np.flatnonzero(obs["observation"][:48])) == hand  # slot "hand"
    assert list(np.flatnonzero(obs["action_mask"])) == view["legal_actions"]
    other = env.possible_agents[(seat + 1) % 3]
    assert not env.observe(other)["action_mask"].any()  # not their turn


def test_render_ansi_is_the_acting_seats_text() -> None:
    env = module("creatures_v0").env(render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "Crazy Creatures" in text and "Your hand" in text
    assert module("creatures_v0").raw_env().render() is None


@pytest.mark.parametrize("name", ENVS)
def test_pettingzoo_render_test_passes(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """issue 21: PettingZoo's own render_test, over every mode we declare (human, ansi)."""
    env = module(name)
    assert env.env().metadata["render_modes"] == ["human", "ansi"]
    render_test(env.env)
    printed = capsys.readouterr().out
    assert "Your hand" in printed  # "human" printed the acting seat's table


def test_raw_env_refuses_an_illegal_action_and_env_ends_the_game() -> None:
    raw = module("creatures_v0").raw_env()
    raw.reset(seed=2)
    illegal = int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        raw.step(illegal)
    env = module("creatures_v0").env()
    env.reset(seed=2)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        env.step(illegal)
    assert all(env.terminations.values())
    assert min(env.rewards.values()) == -1


def test_bad_options_are_clear_errors() -> None:
    with pytest.raises(ConfigError, match="reward"):
        module("creatures_v0").raw_env(reward="points")
    with pytest.raises(ConfigError, match="render_mode"):
        module("creatures_v0").raw_env(render_mode="rgb_array")
    with pytest.raises(ConfigError, match="2 to 4 players"):
        module("creatures_v0").raw_env(players=7)
    with pytest.raises(ConfigError, match="unknown environment"):
        bench_steps("chess_v6", 0.1, 0)


@needs_gloomier
def test_gloomier_observation_sees_the_middle() -> None:
    env = module("gloomier_v0").raw_env()
    env.reset(seed=4)
    assert env.encoder.layout["stories"].size > 0
    assert env.observe(env.agent_selection)["observation"].any()


def test_bench_steps_measures_steps_per_second() -> None:
    assert bench_steps("creatures_v0", seconds=0.3, seed=0) > 100


def pettingzoo_chain(raw):
    """The three wrappers PettingZoo's classic games use, in their order."""
    from pettingzoo.utils import wrappers

    out = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    out = wrappers.AssertOutOfBoundsWrapper(out)
    return wrappers.OrderEnforcingWrapper(out)


def finish(env) -> list[tuple]:
    """Step the finished agents out, noting what each saw, as a training loop does."""
    seen = []
    for agent in env.agent_iter(50):
        _, reward, term, trunc, _ = env.last()
        seen.append((agent, reward, term, trunc))
        env.step(None)
    return seen


@pytest.mark.parametrize("name", ["gloom_v0", "creatures_v0"])
def test_one_layer_checks_do_what_pettingzoos_three_wrappers_do(name: str) -> None:
    """``env()`` makes PettingZoo's classic checks in one layer (rl/checked.py); on the
    same game and moves, it ends the same way as the standard wrapper chain."""
    ours, theirs = module(name).env(), pettingzoo_chain(module(name).raw_env())
    for env in (ours, theirs):
        with pytest.raises(AttributeError, match="before reset"):
            env.agent_selection  # noqa: B018
        with pytest.raises(Exception, match="reset"):
            env.step(0)
    outcomes = []
    for env in (ours, theirs):
        env.reset(seed=3)
        rng = np.random.default_rng(3)
        for _ in range(25):  # the same legal moves on both
            obs, *_ = env.last()
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
        with pytest.raises(AssertionError, match="action space"):
            env.step(env.action_space(env.agent_selection).n)  # out of range: refused, no change
        obs, *_ = env.last()
        illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
        mover = env.agent_selection
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            env.step(illegal)
        outcomes.append((mover, dict(env.rewards), dict(env.terminations),
                         dict(env.truncations), finish(env), list(env.agents)))
    assert outcomes[0] == outcomes[1]
    mover, rewards, terms, *_ = outcomes[0]
    assert rewards[mover] == -1 and all(terms.values())


def test_bench_measures_gloom_through_pettingzoos_own_wrapper_chain() -> None:
    """issue 21: the headline ratio wraps gloom_v0 exactly as Leduc's env() is wrapped."""
    from pettingzoo.utils.wrappers import BaseWrapper

    from gloomtable.rl.bench import aec_sample, make_env

    def chain(env):
        layers = []
        while isinstance(env, BaseWrapper):
            layers.append(type(env).__name__)
            env = env.env
        return layers, type(env).__name__

    leduc, ours = make_env("leduc_holdem_v4", "pettingzoo"), make_env("gloom_v0", "pettingzoo")
    assert chain(leduc)[0] == chain(ours)[0] == [
        "OrderEnforcingWrapper", "AssertOutOfBoundsWrapper", "TerminateIllegalWrapper"]
    assert chain(make_env("gloom_v0", "raw")) == ([], "GloomtableAECEnv")
    assert aec_sample(ours, 0.05, 1)["steps_per_s"] > 0
    with pytest.raises(ConfigError, match="wrapping"):
        make_env("gloom_v0", "bubble")


def test_paired_bench_alternates_both_envs_and_divides_their_totals() -> None:
    """issue 21: the steady reading of the headline runs gloom_v0 and Leduc in turn,
    slice by slice, and its ratio is the one of the summed steps over summed seconds."""
    from gloomtable.rl import bench

    calls: list[tuple[str, int]] = []
    real = bench.aec_run

    def counted(env, budget_s, seed, clock):
        calls.append((env.unwrapped.metadata["name"], seed))
        return real(env, budget_s, seed, clock)

    ours, theirs = bench.make_env("gloom_v0", "pettingzoo"), bench.make_env("leduc_holdem_v4", "pettingzoo")
    ticks = iter(range(10**6))  # a clock that moves one second a call: every slice is one episode
    bench.aec_run = counted
    try:
        out = bench.paired_sample(ours, theirs, 0.5, seed=3, slices=4, clock=lambda: float(next(ticks)))
    finally:
        bench.aec_run = real
    names = [name for name, _seed in calls]
    assert names == ["gloom_v0", "leduc_holdem_v4", "leduc_holdem_v4", "gloom_v0"] * 2
    assert len({seed for _name, seed in calls}) == 4  # a new game each slice, the same for both
    assert out["ratio"] == pytest.approx(out["ours_steps_per_s"] / out["theirs_steps_per_s"], rel=1e-3)
    assert out["ours_steps_per_s"] > out["theirs_steps_per_s"] > 0  # one Gloom game is longer
    with pytest.raises(ConfigError, match="slices"):
        bench.paired_sample(ours, theirs, 0.1, seed=1, slices=0)


def test_bench_reports_openspiel_call_costs() -> None:
    pytest.importorskip("pyspiel")
    from gloomtable.rl.bench import spiel_costs

    costs = spiel_costs(0.02, seed=1)
    assert set(costs) == {"chance_outcomes_us", "clone_infostate_us"}
    assert all(v > 0 for v in costs.values())


@pytest.mark.parametrize("name", ENVS)
def test_each_public_module_builds_its_own_game(name: str) -> None:
    """The modules share one definition (rl/aec.py, env_module) but keep their own
    names: each builds the game it is named for, raw and wrapped."""
    game = name.removesuffix("_v0")
    raw = module(name).raw_env()
    assert module(name).NAME == raw.metadata["name"] == name
    assert raw.game.name == game
    assert module(name).env().unwrapped.game.name == game
