"""issue 21: sb3-contrib's MaskablePPO trains on gloomtable/Creatures-v0 as it is
(``action_masks()``, no ActionMasker), through ``examples/sb3_maskable_ppo.py``.
Skipped without the optional ``[sb3]`` extra, except under CI, which installs it
(.ci/run) and fails here if it is missing."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from rl_support import installed

installed("sb3_contrib", "sb3")
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "sb3_maskable_ppo.py"


def load_example():
    spec = importlib.util.spec_from_file_location("sb3_maskable_ppo", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_maskable_ppo_trains_and_only_plays_legal_actions() -> None:
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    example = load_example()
    env = example.make_env(2)
    assert is_masking_supported(env)  # found without an ActionMasker
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, seed=0, device="cpu")
    model.learn(256)
    vec = model.get_env()
    obs = vec.reset()
    for _ in range(60):
        masks = get_action_masks(vec)
        action, _ = model.predict(obs, action_masks=masks, deterministic=True)
        assert masks[0][int(action[0])]  # the chosen action is legal
        obs, _, _, _ = vec.step(action)

    def policy(o: np.ndarray, mask: np.ndarray) -> int:
        return int(model.predict(o, action_masks=mask, deterministic=True)[0])

    share = example.win_share(policy, 4, 123, 2)
    assert 0.0 <= share <= 1.0
    svg = example.svg_curve([(0, 0.5), (256, share)], 0.5, "test")
    assert svg.startswith("<svg") and "polyline" in svg
