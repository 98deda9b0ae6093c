"""A tiny seeded RNG whose whole state is one integer.

Why not :mod:`random`: its state is 2.5 KB (slow to copy for search) and its
shuffle may change between Python versions. SplitMix64 is small, fast enough,
and gives the same sequence on every machine, so a record replays anywhere.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any, TypeVar

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_LIMITS = [0, *(_MASK - (_MASK % n) for n in range(1, 257))]
"""Rejection limits for small bounds (deals, shuffles, a random choice), worked out once."""

T = TypeVar("T")


class Rng:
    """SplitMix64. ``state`` is a plain int, so the RNG serialises trivially."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next_u64(self) -> int:
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling: no modulo bias)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        limit = _LIMITS[n] if n < 257 else _MASK - (_MASK % n)
        while True:  # next_u64 inlined: every random playout step asks this
            self.state = z = (self.state + _GOLDEN) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z < limit:
                return z % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place: the very draws of ``below(i + 1)`` for ``i`` from
        the top down, with :meth:`next_u64` inlined (a deal is the hottest use). A long
        list takes its draws from :func:`_draws` (the same numbers, worked out at once)."""
        m = len(items) - 1
        if _VECTOR_FROM <= m < 256:
            js = _draws(self.state, m)
            if js is not None:
                for i, j in zip(range(m, 0, -1), js, strict=True):
                    items[i], items[j] = items[j], items[i]
                self.state = (self.state + m * _GOLDEN) & _MASK
                return
        z0 = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _LIMITS[n] if n < 257 else _MASK - (_MASK % n)
            while True:
                z0 = z = (z0 + _GOLDEN) & _MASK
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.state = z0

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]

    def __repr__(self) -> str:
        return f"Rng({self.state})"


_VECTOR_FROM = 32
"""Lists of at least this many cards (plus one) are shuffled by :func:`_draws`: below it,
numpy's fixed cost per call is more than SplitMix64's steps in Python."""

_BOUNDS: dict[int, tuple[Any, Any, Any]] = {}
"""``m`` -> (the ``m`` steps ``k * golden``, the bounds ``m + 1`` down to 2, their rejection
limits), as numpy arrays."""


def _draws(state: int, m: int) -> list[int] | None:
    """The ``m`` draws of a shuffle from ``state`` (``below(m + 1)``, ``below(m)``, ...,
    ``below(2)``) in one go: SplitMix64's states are ``state + k * golden``, so numpy
    mixes them all at once, wrapping at 64 bits as the masks do. ``None`` if any draw
    would be rejected (about one shuffle in 10^16): the caller then takes them one by one."""
    import numpy as np  # (here: the engine's import does not pay for numpy)

    bounds = _BOUNDS.get(m)
    if bounds is None:
        bounds = _BOUNDS[m] = (
            np.array([(k * _GOLDEN) & _MASK for k in range(1, m + 1)], dtype=np.uint64),
            np.arange(m + 1, 1, -1, dtype=np.uint64),
            np.array(_LIMITS[m + 1:1:-1], dtype=np.uint64))
    steps, n, limits = bounds
    z = steps + np.uint64(state)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    if (z >= limits).any():
        return None
    out: list[int] = (z % n).tolist()
    return out
