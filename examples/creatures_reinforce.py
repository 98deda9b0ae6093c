"""Learn to play Crazy Creatures with REINFORCE, NumPy only, then beat the random bot.

The policy is linear and softmax over the legal actions (the ``action_mask``):
``logits = W @ observation + b``. It trains against the random bot in the
Gymnasium environment ``gloomtable/Creatures-v0`` (2 players), with the
shaped reward (penalty points avoided, then the win share), and is evaluated
on fresh seeds against the random bot next to a random player on the same seeds.

    .venv/bin/python examples/creatures_reinforce.py            # about 1-3 minutes
    .venv/bin/python examples/creatures_reinforce.py --episodes 300 --eval 100   # quick

Nothing is downloaded; the only dependencies are NumPy and gloomtable.
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np

import gloomtable.rl  # noqa: F401  (registers gloomtable/Creatures-v0)


class LinearPolicy:
    """Softmax over legal actions of ``W @ x + b``."""

    def __init__(self, obs_size: int, num_actions: int, rng: np.random.Generator) -> None:
        self.W = rng.normal(0.0, 0.01, (num_actions, obs_size))
        self.b = np.zeros(num_actions)
        self.rng = rng

    def probs(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.W @ x + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, x: np.ndarray, mask: np.ndarray, greedy: bool = False) -> int:
        p = self.probs(x, mask)
        return int(np.argmax(p)) if greedy else int(self.rng.choice(len(p), p=p))


def play_episode(env: gymnasium.Env, policy: LinearPolicy | None, seed: int,
                 greedy: bool = False) -> tuple[list, float, float]:
    """One game; ``policy=None`` plays uniformly at random. Returns the trajectory
    [(x, mask, action, reward)], the total reward and the learner's win share."""
    obs, info = env.reset(seed=seed)
    traj = []
    total = 0.0
    rng = np.random.default_rng(seed)
    for _ in range(10_000):  # a game has far fewer decisions; bounded anyway
        x, mask = obs["observation"].astype(np.float64), obs["action_mask"]
        if policy is None:
            legal = np.flatnonzero(mask)
            a = int(legal[rng.integers(len(legal))])
        else:
            a = policy.act(x, mask, greedy)
        obs, r, term, trunc, info = env.step(a)
        traj.append((x, mask, a, r))
        total += r
        if term or trunc:
            break
    share = float(info["win_share"][info["seat"]])
    return traj, total, share


def train(policy: LinearPolicy, env: gymnasium.Env, episodes: int, lr: float, seed: int) -> None:
    baseline = 0.0
    start = time.perf_counter()
    recent: list[float] = []
    for ep in range(episodes):
        traj, _, share = play_episode(env, policy, seed + ep)
        rewards = np.array([t[3] for t in traj])
        returns = np.cumsum(rewards[::-1])[::-1]  # return-to-go, undiscounted
        for (x, mask, a, _), g in zip(traj, returns, strict=True):
            adv = g - baseline
            p = policy.probs(x, mask)
            grad = -p
            grad[a] += 1.0
            policy.W += lr * adv * np.outer(grad, x)
            policy.b += lr * adv * grad
        baseline += 0.05 * (returns[0] - baseline)
        recent.append(share)
        if (ep + 1) % max(1, episodes // 10) == 0:
            print(f"episode {ep + 1:5d}: win share over the last {len(recent)} games "
                  f"{np.mean(recent):.3f}  ({time.perf_counter() - start:.0f} s)")
            recent = []


def evaluate(env: gymnasium.Env, policy: LinearPolicy | None, games: int, seed: int) -> float:
    return float(np.mean([play_episode(env, policy, seed + i, greedy=True)[2]
                          for i in range(games)]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=2000)
    ap.add_argument("--eval", type=int, default=500, help="evaluation games")
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--versus", default="random",
                    help="comma-separated bot levels to evaluate against, e.g. random,easy")
    args = ap.parse_args()
    env = gymnasium.make("gloomtable/Creatures-v0", players=2, opponents="random",
                         seat=None, reward="shaped")
    rng = np.random.default_rng(args.seed)
    size = env.observation_space["observation"].shape[0]
    policy = LinearPolicy(size, env.action_space.n, rng)
    t0 = time.perf_counter()
    train(policy, env, args.episodes, args.lr, args.seed)
    trained = time.perf_counter() - t0
    print(f"trained {args.episodes} episodes in {trained:.0f} s")
    eval_seed = 10_000_000 + args.seed
    for level in args.versus.split(","):
        opponent = gymnasium.make("gloomtable/Creatures-v0", players=2, opponents=level,
                                  seat=None)
        random_share = evaluate(opponent, None, args.eval, eval_seed)
        learned_share = evaluate(opponent, policy, args.eval, eval_seed)
        print(f"against the {level} bot over {args.eval} games (same seeds): win share of "
              f"a random player {random_share:.3f}, of the learned policy {learned_share:.3f}")


if __name__ == "__main__":
    main()
