"""Train sb3-contrib's MaskablePPO on Crazy Creatures against the random bot.

``gymnasium.make("gloomtable/Creatures-v0")`` has ``action_masks()``, the method
MaskablePPO asks for, so it trains on the environment as it is (no
``ActionMasker``). The policy sees the observation vector; the learner's seat
is drawn at each reset (2 players, shaped reward). Every ``--every`` steps the
policy (deterministic, masked) plays ``--eval`` fresh games against the random
bot, and the win share is printed; at the end a uniformly random player plays
the same seeds, for comparison. ``--figure PATH`` writes the training curve as
an SVG (no plotting library needed).

    pip install "gloomtable[sb3]"                 # sb3-contrib, stable-baselines3 (and torch)
    python examples/sb3_maskable_ppo.py           # 60,000 steps: 21 minutes on a loaded core
    python examples/sb3_maskable_ppo.py --steps 4096 --every 2048 --eval 20   # quick
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import gloomtable.rl  # noqa: F401  (registers gloomtable/Creatures-v0)

ENV_ID = "gloomtable/Creatures-v0"


class VectorObservation(gymnasium.ObservationWrapper):
    """The observation vector alone (the mask reaches the policy through
    ``action_masks()``, which this wrapper passes on)."""

    def __init__(self, env: gymnasium.Env) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        return observation["observation"]

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


def make_env(players: int) -> gymnasium.Env:
    return VectorObservation(gymnasium.make(ENV_ID, players=players, opponents="random",
                                            seat=None, reward="shaped"))


def win_share(choose: Any, games: int, seed: int, players: int) -> float:
    """Mean win share over ``games`` fresh games against the random bot."""
    env = gymnasium.make(ENV_ID, players=players, opponents="random", seat=None).unwrapped
    total = 0.0
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        while True:
            action = choose(obs["observation"], env.action_masks())
            obs, reward, term, trunc, _ = env.step(action)
            if term or trunc:
                total += reward
                break
    return total / games


def svg_curve(points: list[tuple[int, float]], baseline: float, title: str) -> str:
    """A small SVG line chart of (steps, win share), with the random player's share."""
    w, h, left, bottom, top, right = 560, 300, 60, 40, 30, 20
    max_x = max(x for x, _ in points) or 1

    def px(x: float) -> float:
        return left + (w - left - right) * x / max_x

    def py(y: float) -> float:
        return h - bottom - (h - bottom - top) * y

    line = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in points)
    grid = "".join(
        f'<line x1="{left}" x2="{w - right}" y1="{py(v):.1f}" y2="{py(v):.1f}" stroke="#ddd"/>'
        f'<text x="{left - 8}" y="{py(v) + 4:.1f}" text-anchor="end">{v:.1f}</text>'
        for v in (0.0, 0.2, 0.4, 0.6, 0.8, 1.0))
    ticks = "".join(f'<text x="{px(x):.1f}" y="{h - bottom + 16}" text-anchor="middle">'
                    f'{x // 1000}k</text>' for x, _ in points)
    dots = "".join(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="#2b6cb0"/>'
                   for x, y in points)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'font-family="sans-serif" font-size="12">'
        f'<text x="{w / 2}" y="18" text-anchor="middle" font-weight="bold">{title}</text>{grid}'
        f'<line x1="{left}" x2="{w - right}" y1="{py(baseline):.1f}" y2="{py(baseline):.1f}" '
        f'stroke="#c53030" stroke-dasharray="6 4"/>'
        f'<text x="{w - right}" y="{py(baseline) - 6:.1f}" text-anchor="end" fill="#c53030">'
        f'uniformly random player {baseline:.2f}</text>'
        f'<polyline points="{line}" fill="none" stroke="#2b6cb0" stroke-width="2"/>{dots}{ticks}'
        f'<text x="{(w + left) / 2}" y="{h - 6}" text-anchor="middle">training steps</text>'
        f'<text x="14" y="{h / 2}" transform="rotate(-90 14 {h / 2})" text-anchor="middle">'
        f'win share vs the random bot</text></svg>\n')


def main() -> None:
    import torch
    from sb3_contrib import MaskablePPO

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=60_000, help="training steps in all")
    parser.add_argument("--every", type=int, default=10_000, help="evaluate every this many steps")
    parser.add_argument("--eval", type=int, default=200, help="evaluation games each time")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--figure", type=Path, help="write the training curve here (SVG)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    start = time.perf_counter()
    model = MaskablePPO("MlpPolicy", make_env(args.players), n_steps=1024, batch_size=256,
                        learning_rate=3e-4, gamma=0.99, seed=args.seed, device="cpu", verbose=0)

    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    eval_seed = 1_000_000  # fresh deals, never trained on
    curve = [(0, win_share(policy, args.eval, eval_seed, args.players))]
    print(f"steps {0:>7}  win share vs random bot {curve[-1][1]:.3f}", flush=True)
    done = 0
    while done < args.steps:
        chunk = min(args.every, args.steps - done)
        model.learn(chunk, reset_num_timesteps=False)
        done += chunk
        curve.append((done, win_share(policy, args.eval, eval_seed, args.players)))
        print(f"steps {done:>7}  win share vs random bot {curve[-1][1]:.3f}  "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
    rng = np.random.default_rng(args.seed)
    baseline = win_share(lambda _obs, mask: int(rng.choice(np.flatnonzero(mask))),
                         args.eval, eval_seed, args.players)
    print(f"a uniformly random player on the same seeds: {baseline:.3f}")
    if args.figure:
        args.figure.write_text(svg_curve(
            curve, baseline, f"MaskablePPO on Creatures-v0 ({args.players} players)"))
        print(f"figure written to {args.figure}")


if __name__ == "__main__":
    main()
