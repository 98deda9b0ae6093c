"""Train sb3-contrib's MaskablePPO to play 2-player Gloom on one CPU core.

The recipe (docs/rl.md, "A recipe that learns Gloom"): the learner holds a seat
drawn at each reset of ``gloomtable/Gloom-v0`` and meets, game by game, an
opponent drawn from a pool of the project's bots (``random``, ``easy``,
``medium``; ``--pool``). The reward is the win share at the end plus, unless
``--shaping 0``, a zero-sum shaping: each step pays ``shaping`` times the change
of the gap between the opponent's Family Value and the learner's, over 100 (in
Gloom lower is better, so making your family miserable and the other's happy
both pay). Every ``--every`` steps the policy (deterministic, masked) plays
``--eval`` fresh games against ``random`` and against ``medium``; at the end a
uniformly random player plays the same seeds. ``--minutes`` bounds the run.

    pip install torch==2.13.0 "gloomtable[sb3]"
    nice -n 10 python examples/gloom_maskable_ppo.py --steps 600000 --minutes 50 \\
        --curve gloom_ppo.json --figure gloom_ppo.svg
    python examples/gloom_maskable_ppo.py --steps 4096 --every 4096 --eval 20    # quick
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import gloomtable.rl  # noqa: F401  (registers gloomtable/Gloom-v0)

ENV_ID = "gloomtable/Gloom-v0"
POOL = {"random": 0.4, "easy": 0.3, "medium": 0.3}
EVAL_SEED = 1_000_000
"""Evaluation deals start here: fresh games, never trained on."""


class PoolOpponents(gymnasium.Wrapper):
    """At each reset, the opponent's level is drawn from ``pool`` (level: weight)."""

    def __init__(self, env: gymnasium.Env, pool: dict[str, float], seed: int) -> None:
        super().__init__(env)
        self.levels = list(pool)
        weights = np.asarray([pool[k] for k in self.levels], np.float64)
        self.weights = weights / weights.sum()
        self.rng = np.random.default_rng(seed)

    def reset(self, **kw: Any) -> tuple[Any, dict[str, Any]]:
        self.env.unwrapped.levels = [str(self.rng.choice(self.levels, p=self.weights))]
        return self.env.reset(**kw)


class GapShaping(gymnasium.Wrapper):
    """Adds ``coef * (change of opponent's score - learner's score) / 100`` each step.

    Scores are Family Values from the public view (lower is better). The shaping
    sums to ``coef * (final gap - initial gap) / 100`` over a game: a hint
    towards what wins, never a reward for dawdling.
    """

    def __init__(self, env: gymnasium.Env, coef: float) -> None:
        super().__init__(env)
        self.coef = coef
        self.gap = 0.0

    def _gap(self) -> float:
        seat_env = self.env.unwrapped
        view = seat_env.aec.state.view(None)
        score = seat_env.aec.encoder.score
        me = seat_env.seat
        return float(score(view, 1 - me) - score(view, me))

    def reset(self, **kw: Any) -> tuple[Any, dict[str, Any]]:
        out = self.env.reset(**kw)
        self.gap = self._gap()
        return out

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        obs, reward, term, trunc, info = self.env.step(action)
        gap = self._gap()
        reward = float(reward) + self.coef * (gap - self.gap) / 100.0
        self.gap = gap
        return obs, reward, term, trunc, info


class VectorObservation(gymnasium.ObservationWrapper):
    """The observation vector alone; the mask reaches MaskablePPO through ``action_masks()``."""

    def __init__(self, env: gymnasium.Env) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        return observation["observation"]

    def action_masks(self) -> np.ndarray:
        mask: np.ndarray = self.env.unwrapped.action_masks()
        return mask


def make_env(pool: dict[str, float], shaping: float, seed: int) -> gymnasium.Env:
    env: gymnasium.Env = gymnasium.make(ENV_ID, players=2, opponents="random", seat=None)
    env = PoolOpponents(env, pool, seed)
    if shaping:
        env = GapShaping(env, shaping)
    return VectorObservation(env)


def win_share(choose: Any, level: str, games: int, seed: int = EVAL_SEED) -> float:
    """Mean win share of ``choose(obs, mask) -> action`` over ``games`` games against ``level``."""
    env = gymnasium.make(ENV_ID, players=2, opponents=level, seat=None).unwrapped
    total = 0.0
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        while True:
            obs, reward, term, trunc, _ = env.step(choose(obs["observation"], env.action_masks()))
            if term or trunc:
                total += reward
                break
    return total / games


def uniform_player(seed: int) -> Any:
    rng = np.random.default_rng(seed)
    return lambda _obs, mask: int(rng.choice(np.flatnonzero(mask)))


def build_model(args: argparse.Namespace) -> Any:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    pool = dict(POOL) if args.pool is None else json.loads(args.pool)
    vec = DummyVecEnv([lambda i=i: make_env(pool, args.shaping, args.seed + i)
                       for i in range(args.envs)])
    return MaskablePPO("MlpPolicy", vec, n_steps=args.n_steps, batch_size=args.batch,
                       n_epochs=args.epochs, learning_rate=args.lr, gamma=0.995, gae_lambda=0.95,
                       ent_coef=args.ent, policy_kwargs={"net_arch": [256, 256]},
                       seed=args.seed, device="cpu", verbose=0)


def train(args: argparse.Namespace, progress: Any = print) -> dict[str, Any]:
    """Train, evaluating every ``args.every`` steps; returns the curve and the baselines."""
    import torch

    torch.set_num_threads(1)
    start = time.perf_counter()
    model = build_model(args)

    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    def evaluate(done: int) -> dict[str, float]:
        point = {"steps": done, "seconds": round(time.perf_counter() - start, 1),
                 "random": win_share(policy, "random", args.eval),
                 "medium": win_share(policy, "medium", args.eval)}
        progress(f"steps {done:>8}  vs random {point['random']:.3f}  vs medium {point['medium']:.3f}"
                 f"  ({point['seconds']:.0f} s)")
        return point

    curve = [evaluate(0)]
    done = 0
    deadline = start + 60 * args.minutes
    while done < args.steps and time.perf_counter() < deadline:
        chunk = min(args.every, args.steps - done)
        model.learn(chunk, reset_num_timesteps=False)
        done = int(model.num_timesteps)
        curve.append(evaluate(done))
    baseline = {level: win_share(uniform_player(args.seed), level, args.eval)
                for level in ("random", "medium")}
    progress(f"a uniformly random player on the same seeds: vs random {baseline['random']:.3f}, "
             f"vs medium {baseline['medium']:.3f}")
    if args.save:
        model.save(args.save)
    return {"curve": curve, "uniform_player": baseline, "model": model,
            "args": {k: v for k, v in vars(args).items() if not isinstance(v, Path)}}


def svg_curves(result: dict[str, Any], title: str) -> str:
    """An SVG chart of the win share against random and medium, with the uniform player's."""
    w, h, left, bottom, top, right = 600, 320, 60, 40, 30, 20
    curve = result["curve"]
    max_x = max(p["steps"] for p in curve) or 1
    colours = {"random": "#2b6cb0", "medium": "#2f855a"}

    def px(x: float) -> float:
        return left + (w - left - right) * x / max_x

    def py(y: float) -> float:
        return h - bottom - (h - bottom - top) * y

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
             f'font-family="sans-serif" font-size="12">',
             f'<text x="{w / 2}" y="18" text-anchor="middle" font-weight="bold">{title}</text>']
    for v in (0.0, 0.2, 0.4, 0.6, 0.8, 1.0):
        parts.append(f'<line x1="{left}" x2="{w - right}" y1="{py(v):.1f}" y2="{py(v):.1f}" '
                     f'stroke="#ddd"/><text x="{left - 8}" y="{py(v) + 4:.1f}" '
                     f'text-anchor="end">{v:.1f}</text>')
    for i, (level, colour) in enumerate(colours.items()):
        base = result["uniform_player"][level]
        points = " ".join(f"{px(p['steps']):.1f},{py(p[level]):.1f}" for p in curve)
        parts.append(f'<line x1="{left}" x2="{w - right}" y1="{py(base):.1f}" y2="{py(base):.1f}" '
                     f'stroke="{colour}" stroke-dasharray="6 4"/>'
                     f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>'
                     f'<text x="{left + 10}" y="{top + 16 + 16 * i}" fill="{colour}">vs {level} '
                     f'(dashed: a uniform player, {base:.2f})</text>')
    for x in sorted({p["steps"] for p in curve})[:: max(1, len(curve) // 8)]:
        parts.append(f'<text x="{px(x):.1f}" y="{h - bottom + 16}" text-anchor="middle">'
                     f'{x // 1000}k</text>')
    parts.append(f'<text x="{(w + left) / 2}" y="{h - 6}" text-anchor="middle">training steps</text>'
                 f'<text x="14" y="{h / 2}" transform="rotate(-90 14 {h / 2})" '
                 f'text-anchor="middle">win share</text></svg>\n')
    return "".join(parts)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--steps", type=int, default=600_000, help="training steps in all")
    p.add_argument("--minutes", type=float, default=55.0, help="stop training after this long")
    p.add_argument("--every", type=int, default=50_000, help="evaluate every this many steps")
    p.add_argument("--eval", type=int, default=200, help="evaluation games per opponent")
    p.add_argument("--pool", help='opponent weights as JSON, default {"random": 0.4, "easy": 0.3, '
                                  '"medium": 0.3}')
    p.add_argument("--shaping", type=float, default=1.0, help="coefficient of the gap shaping, 0: off")
    p.add_argument("--envs", type=int, default=4, help="environments stepped in turn (DummyVecEnv)")
    p.add_argument("--n-steps", type=int, default=512, help="rollout length per environment")
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--ent", type=float, default=0.01, help="entropy coefficient")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--curve", type=Path, help="write the curve here (JSON)")
    p.add_argument("--figure", type=Path, help="write the curve here (SVG)")
    p.add_argument("--save", type=Path, help="save the trained model here (.zip)")
    return p


def main() -> None:
    args = parser().parse_args()
    result = train(args)
    if args.curve:
        args.curve.write_text(json.dumps({k: v for k, v in result.items() if k != "model"}, indent=1))
    if args.figure:
        args.figure.write_text(svg_curves(result, "MaskablePPO on Gloom-v0 (2 players)"))


if __name__ == "__main__":
    main()
