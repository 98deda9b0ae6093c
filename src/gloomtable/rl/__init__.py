"""Reinforcement-learning interfaces: PettingZoo AEC environments
(:mod:`gloom_v0`, :mod:`gloomier_v0`, :mod:`creatures_v0`), Gymnasium
environments ``gloomtable/Gloom-v0``, ``gloomtable/Gloomier-v0`` and
``gloomtable/Creatures-v0`` (registered on import), OpenSpiel games
(:mod:`gloomtable.rl.spiel`, optional) and :func:`bench_steps`.

Every observation is built from a seat's ``view`` only; see ``docs/rl.md``.
"""

from gloomtable.rl.bench import bench_steps
from gloomtable.rl.gym_env import register_envs

register_envs()

__all__ = ["bench_steps", "register_envs"]
