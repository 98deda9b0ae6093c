"""What ends a search rollout: a projected win share per player.

A game won by the lowest score projects a score per player (its own evaluation, in its
package's hooks: ``games/<game>/hooks/evaluate.py``) and turns the gaps into shares with
a logistic curve: against each other player, ``1 / (1 + exp((mine - theirs) / scale))``,
averaged.
"""

from __future__ import annotations

import math


def shares(projected: list[float], scale: float) -> list[float]:
    """Lower projected score, higher share; every share in (0, 1)."""
    n = len(projected)
    if n < 2:
        return [1.0] * n
    out = []
    for p in range(n):
        total = 0.0
        for q in range(n):
            if q != p:
                x = max(-50.0, min(50.0, (projected[p] - projected[q]) / scale))
                total += 1.0 / (1.0 + math.exp(x))
        out.append(total / (n - 1))
    return out
