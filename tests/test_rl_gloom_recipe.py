"""issue 37: the recipe that learns 2-player Gloom (``examples/gloom_maskable_ppo.py``,
docs/rl.md "A recipe that learns Gloom"), shortened to a few thousand steps: it
runs, only plays legal actions, and improves on a fixed seed. It needs torch and
sb3-contrib (the ``sb3`` extra): skipped without them, except under CI, which
installs them (.ci/run) and fails here if they are missing. The shaping test
needs neither."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from rl_support import needs

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "gloom_maskable_ppo.py"


def load_example():
    spec = importlib.util.spec_from_file_location("gloom_maskable_ppo", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_the_shortened_recipe_runs_and_improves_on_a_fixed_seed() -> None:
    needs("torch", "sb3")
    needs("sb3_contrib", "sb3")
    example = load_example()
    args = example.parser().parse_args(
        ["--steps", "4096", "--every", "4096", "--eval", "40", "--envs", "2", "--n-steps", "256",
         "--batch", "128", "--lr", "1e-3", "--pool", '{"random": 1}', "--seed", "0"])
    lines: list[str] = []
    result = example.train(args, progress=lines.append)
    curve = result["curve"]
    assert [p["steps"] for p in curve] == [0, 4096]
    assert curve[-1]["random"] > curve[0]["random"]  # 0.575 -> 0.6375 on this seed
    assert all(0.0 <= p[level] <= 1.0 for p in curve for level in ("random", "medium"))
    assert len(lines) == 3 and "uniformly random player" in lines[-1]
    model = result["model"]
    env = example.make_env({"random": 1.0}, 1.0, seed=5)
    obs, _ = env.reset(seed=5)
    for _ in range(200):  # the trained policy, masked, only ever plays legal actions
        mask = env.action_masks()
        action = int(model.predict(obs, action_masks=mask, deterministic=True)[0])
        assert mask[action]
        obs, _, term, trunc, _ = env.step(action)
        if term or trunc:
            obs, _ = env.reset()
    svg = example.svg_curves(result, "test")
    assert svg.startswith("<svg") and svg.count("<polyline") == 2


def test_gap_shaping_sums_to_the_change_of_the_family_value_gap() -> None:
    example = load_example()
    env = example.make_env({"random": 1.0}, 0.5, seed=2)
    shaping = env.env  # VectorObservation -> GapShaping
    assert type(shaping).__name__ == "GapShaping"
    env.reset(seed=2)
    start, total, rng = shaping.gap, 0.0, np.random.default_rng(2)
    while True:
        _obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        total += reward
        if term or trunc:
            break
    win = float(info["win_share"][info["seat"]])
    assert total == pytest.approx(win + 0.5 * (shaping.gap - start) / 100, abs=1e-9)
