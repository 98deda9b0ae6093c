"""PettingZoo AEC environment of Gloom (classic set by default; ``sets`` mixes sets).

``env(players=4, reward="win_share", render_mode=None, **options)`` (with
PettingZoo's usual illegal-move, bounds and order wrappers) or ``raw_env(...)``;
options are those of ``make_game("gloom", ...)``. Observation: a dict with
``observation`` (float32, layout from the deck, see ``docs/rl.md``) and
``action_mask`` (int8, the game's action space).
"""

from __future__ import annotations

from gloomtable.rl.aec import env_module

NAME = "gloom_v0"

raw_env, env = env_module("gloom")
