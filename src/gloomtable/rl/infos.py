"""Infos of one fixed shape at every step, for trainers that fix a field's shape
at its first insert (Tianshou's replay buffers, vector environments' stacking).

Every ``info`` holds the same keys from ``reset`` on: ``over`` and ``capped``
(booleans), and per seat, in seat order, ``winners`` (``int8``, 1 for each winner,
so a shared win is two 1s, never a longer list), ``win_share`` (``float32``,
``Result.returns()``) and ``scores`` (``int64``, the result's scores). Before
the end they are zeros; at the end they hold the result.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gloomtable.engine import Result


def empty_result(players: int) -> dict[str, Any]:
    """The result fields before the game ends: all zeros, the shapes of the end's."""
    return {"over": False, "capped": False,
            "winners": np.zeros(players, np.int8),
            "win_share": np.zeros(players, np.float32),
            "scores": np.zeros(players, np.int64)}


def result_fields(result: Result) -> dict[str, Any]:
    """The result fields of a finished game (one entry per seat in each array)."""
    n = len(result.scores)
    winners = np.zeros(n, np.int8)
    winners[list(result.winners)] = 1
    return {"over": True, "capped": bool(result.capped), "winners": winners,
            "win_share": np.asarray(result.returns(), np.float32),
            "scores": np.asarray(result.scores, np.int64)}
