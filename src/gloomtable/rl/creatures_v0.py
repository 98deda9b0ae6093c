"""PettingZoo AEC environment of Crazy Creatures of Dr. Gloom.

``env(players=3, reward="win_share", render_mode=None, **options)`` (with
PettingZoo's usual illegal-move, bounds and order wrappers) or ``raw_env(...)``;
options are those of ``make_game("creatures", ...)``. Observation: a dict with
``observation`` (float32, see ``docs/rl.md``) and ``action_mask`` (int8, 57).
"""

from __future__ import annotations

from gloomtable.rl.aec import env_module

NAME = "creatures_v0"

raw_env, env = env_module("creatures")
