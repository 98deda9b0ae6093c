"""A tiny seeded RNG whose whole state is one integer.

Why not :mod:`random`: its state is 2.5 KB (slow to copy for search) and its
shuffle may change between Python versions. SplitMix64 is small, fast enough,
and gives the same sequence on every machine, so a record replays anywhere.
"""

from __future__ import annotations

import struct
from collections.abc import MutableSequence
from operator import mod
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

    def shuffle(self, items: MutableSequence[T], ahead: int = 0) -> None:
        """Fisher-Yates, in place: the very draws of ``below(i + 1)`` for ``i`` from
        the top down, with :meth:`next_u64` inlined (a deal is the hottest use). A list of
        5 to 32 takes its draws from :func:`_packed_draws`, a longer one from :func:`_draws`
        (the same numbers, worked out at once).

        ``ahead``: how many more shuffles of the same length the caller expects to ask
        of this generator next, with no other draw between (a game's later deals, when
        nothing else draws: Crazy Creatures' rounds). Their draws come from the same
        batch and are kept (:data:`_KEPT`) under the state each starts from, which only
        those shuffles reach; asked anything else, the generator never meets them."""
        m = len(items) - 1
        if _PACKED_FROM <= m < 256:
            state = self.state
            if m < _VECTOR_FROM:
                js = _packed_draws(state, m)
            else:
                js = _KEPT.pop((state, m), None) if _KEPT else None
                if js is None:
                    js = _draws(state, m, ahead)
            if js is not None:
                for i, j in zip(range(m, 0, -1), js, strict=True):
                    items[i], items[j] = items[j], items[i]
                self.state = (state + m * _GOLDEN) & _MASK
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
numpy's fixed cost per call is more than :func:`_packed_draws` costs."""
_PACKED_FROM = 4
"""Lists of ``_PACKED_FROM + 1`` to ``_VECTOR_FROM`` cards are shuffled by
:func:`_packed_draws`; shorter ones draw one by one (a few draws cost less than its setup)."""

_PACKS: dict[int, tuple[Any, ...]] = {}
"""``m`` -> what :func:`_packed_draws` needs for ``m`` draws, worked out once."""


def _packed_draws(state: int, m: int) -> list[int] | None:
    """The ``m`` draws of a shuffle from ``state``, as :func:`_draws` gives them, with
    Python's own integers: the ``m`` states ``state + k * golden`` side by side in one
    integer, 128 bits apart (room for a 64-bit product), so each step of SplitMix64 is
    one operation on all of them, and masking each lane to 64 bits after the steps that
    carry is the masking of every state. A reshuffle of Gloom's discard pile (R-G9,
    often 5 to 30 cards) costs from 0.87 (6 cards) to 0.48 (32 cards) of the draws one by
    one, in instructions. ``None`` if a draw would be rejected: the caller then takes them one
    by one."""
    pack = _PACKS.get(m)
    if pack is None:
        ones = sum(1 << (128 * k) for k in range(m))
        pack = _PACKS[m] = (
            ones, sum(((k * _GOLDEN) & _MASK) << (128 * (k - 1)) for k in range(1, m + 1)),
            _MASK * ones, struct.Struct("<" + "Q8x" * m).unpack, range(m + 1, 1, -1),
            _LIMITS[m + 1:1:-1], min(_LIMITS[2:m + 2]), 16 * m)
    ones, steps, lanes, unpack, bounds, limits, lowest, size = pack
    z = (state * ones + steps) & lanes
    z = (z ^ (z >> 30)) & lanes
    z = (z * 0xBF58476D1CE4E5B9) & lanes
    z = (z ^ (z >> 27)) & lanes
    z = (z * 0x94D049BB133111EB) & lanes
    zs = unpack((z ^ (z >> 31)).to_bytes(size, "little"))  # each lane's low 8 bytes
    if max(zs) >= lowest and any(map(int.__ge__, zs, limits)):
        return None
    return list(map(mod, zs, bounds))


_BOUNDS: dict[tuple[int, int], tuple[Any, ...]] = {}
"""``(m, ahead)`` -> (the steps ``k * golden`` of the batch's draws, their bounds: ``m + 1``
down to 2 once per shuffle, their rejection limits, as numpy arrays; the lowest of those
limits; then numpy's ``uint64`` scalars SplitMix64 mixes with, made once, not per call)."""

_KEPT: dict[tuple[int, int], list[int]] = {}
"""Draws worked out ahead (``Rng.shuffle``'s ``ahead``) by the ``(state, length - 1)`` their
shuffle starts from; taken once. A pure function's values: any generator at that state
may take them, and a game that stops early leaves a few behind (:data:`_KEPT_MOST`)."""
_KEPT_MOST = 1024
"""Past this many kept shuffles the memo starts again, so unused ones cannot pile up."""


def _draws(state: int, m: int, ahead: int = 0) -> list[int] | None:
    """The ``m`` draws of a shuffle from ``state`` (``below(m + 1)``, ``below(m)``, ...,
    ``below(2)``) in one go: SplitMix64's states are ``state + k * golden``, so numpy
    mixes them all at once, wrapping at 64 bits as the masks do. With ``ahead``, the
    draws of that many more shuffles of the same length after it, each kept in
    :data:`_KEPT` under its own starting state. ``None`` if any draw would be rejected
    (about one shuffle in 10^16): the caller then takes them one by one, and nothing is
    kept."""
    import numpy as np  # (here: the engine's import does not pay for numpy)

    bounds = _BOUNDS.get((m, ahead))
    if bounds is None:
        bounds = _BOUNDS[m, ahead] = (
            np.array([(k * _GOLDEN) & _MASK for k in range(1, m * (ahead + 1) + 1)], dtype=np.uint64),
            np.tile(np.arange(m + 1, 1, -1, dtype=np.uint64), ahead + 1),
            np.tile(np.array(_LIMITS[m + 1:1:-1], dtype=np.uint64), ahead + 1),
            min(_LIMITS[2:m + 2]),
            *map(np.uint64, (30, 0xBF58476D1CE4E5B9, 27, 0x94D049BB133111EB, 31)))
    steps, n, limits, lowest, s30, mul1, s27, mul2, s31 = bounds
    z = steps + np.uint64(state)  # in place from here: one array and one temporary
    t = z >> s30
    z ^= t
    z *= mul1
    np.right_shift(z, s27, out=t)
    z ^= t
    z *= mul2
    np.right_shift(z, s31, out=t)
    z ^= t
    if int(z.max()) >= lowest and (z >= limits).any():  # (the max alone, but near a limit)
        return None
    np.remainder(z, n, out=z)
    out: list[int] = z.tolist()
    if not ahead:
        return out
    if len(_KEPT) >= _KEPT_MOST:
        _KEPT.clear()
    for k in range(1, ahead + 1):
        _KEPT[(state + k * m * _GOLDEN) & _MASK, m] = out[k * m:(k + 1) * m]
    return out[:m]
