"""PettingZoo AEC environment of Gloomier: A Night at Hemlock Hall (Gloom with Stories and Guests).

``env(players=4, reward="win_share", render_mode=None, **options)`` (with
PettingZoo's usual illegal-move, bounds and order wrappers) or ``raw_env(...)``;
options are those of ``make_game("gloomier", ...)``. Observation: a dict with
``observation`` (float32, layout from the deck, see ``docs/rl.md``) and
``action_mask`` (int8, the game's action space).
"""

from __future__ import annotations

from typing import Any

from gloomtable.rl.aec import GloomtableAECEnv, raw_env_for, wrapped

NAME = "gloomier_v0"


def raw_env(**kw: Any) -> GloomtableAECEnv:
    """The unwrapped environment (raises on an illegal action)."""
    return raw_env_for("gloomier", **kw)


def env(**kw: Any) -> Any:
    """The environment as PettingZoo's classic games wrap theirs."""
    return wrapped(raw_env(**kw))
