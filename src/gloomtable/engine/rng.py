"""A tiny seeded RNG whose whole state is one integer.

Why not :mod:`random`: its state is 2.5 KB (slow to copy for search) and its
shuffle may change between Python versions. SplitMix64 is small, fast enough,
and gives the same sequence on every machine, so a record replays anywhere.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

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
        the top down, with :meth:`next_u64` inlined (a deal is the hottest use)."""
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
