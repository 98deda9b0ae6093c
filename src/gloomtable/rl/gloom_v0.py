"""PettingZoo AEC environment of Gloom (classic set by default; ``sets`` mixes sets).

``env(players=4, reward="win_share", render_mode=None, **options)`` (with
PettingZoo's usual illegal-move, bounds and order wrappers) or ``raw_env(...)``;
options are those of ``make_game("gloom", ...)``. Observation: a dict with
``observation`` (float32, layout from the deck, see ``docs/rl.md``) and
``action_mask`` (int8, the game's action space).
"""

from __future__ import annotations

from typing import Any

from gloomtable.rl.aec import GloomtableAECEnv, raw_env_for, wrapped

NAME = "gloom_v0"


def raw_env(**kw: Any) -> GloomtableAECEnv:
    """The unwrapped environment (raises on an illegal action)."""
    return raw_env_for("gloom", **kw)


def env(**kw: Any) -> Any:
    """The environment as PettingZoo's classic games wrap theirs."""
    return wrapped(raw_env(**kw))
