"""The seeded RNG: a shuffle's draws worked out at once (numpy for a long list, Python's
integers side by side for a shorter one) are the very draws one at a time, so every
seeded deal and reshuffle stays as it was."""

from __future__ import annotations

import pytest

from gloomtable.engine import rng as rng_module
from gloomtable.engine.rng import Rng


def _one_by_one(seed: int, items: list[int]) -> int:
    """Fisher-Yates by ``below(i + 1)`` from the top down, as the rule reads."""
    r = Rng(seed)
    for i in range(len(items) - 1, 0, -1):
        j = r.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return r.state


@pytest.mark.parametrize("length", [0, 1, 2, 4, 5, 6, 7, 9, 16, 31, 32, 33, 88, 108, 200, 256, 257, 400])
def test_shuffle_is_below_from_the_top_down(length: int) -> None:
    for k in range(60):
        seed = (k * 0x9E3779B97F4A7C15 + length) & ((1 << 64) - 1)
        expected = list(range(length))
        state = _one_by_one(seed, expected)
        got = list(range(length))
        r = Rng(seed)
        r.shuffle(got)
        assert got == expected
        assert r.state == state


@pytest.mark.parametrize(("batch", "memo", "length", "rejecting"), [
    ("_draws", "_BOUNDS", 88, 50),  # a deal's long shuffle, by numpy
    ("_packed_draws", "_PACKS", 20, 10),  # a reshuffle's short one (R-G9), side by side
])
def test_a_rejected_draw_takes_the_draws_one_by_one(monkeypatch: pytest.MonkeyPatch, batch: str, memo: str,
                                                    length: int, rejecting: int) -> None:
    """A draw at or above its rejection limit (about one shuffle in 10^16) makes the
    batch give up, and the shuffle still makes the one-by-one draws."""
    monkeypatch.setattr(rng_module, memo, {})
    limits = list(rng_module._LIMITS)
    limits[rejecting] = 1 << 62  # a quarter of all draws of below(rejecting) are rejected now
    monkeypatch.setattr(rng_module, "_LIMITS", limits)
    batches: list[bool] = []
    draws = getattr(rng_module, batch)

    def spy(*args: int) -> list[int] | None:
        out: list[int] | None = draws(*args)
        batches.append(out is not None)
        return out

    monkeypatch.setattr(rng_module, batch, spy)
    for seed in range(40):
        expected = list(range(length))
        state = _one_by_one(seed, expected)
        got = list(range(length))
        r = Rng(seed)
        r.shuffle(got)
        assert (got, r.state) == (expected, state)
    assert False in batches and True in batches


@pytest.mark.parametrize("length", [33, 48, 88])
@pytest.mark.parametrize("ahead", [1, 3])
def test_shuffles_worked_out_ahead_are_the_very_shuffles_that_follow(length: int, ahead: int) -> None:
    """``shuffle(items, ahead)`` keeps the next shuffles' draws; the shuffles that take
    them deal as they would one by one, and a generator that draws anything else
    first never meets them (R-C3: Crazy Creatures deals every round from one generator)."""
    for k in range(20):
        seed = (k * 0x9E3779B97F4A7C15 + length + ahead) & ((1 << 64) - 1)
        r, expected_state = Rng(seed), seed
        for _ in range(ahead + 1):
            expected = list(range(length))
            expected_state = _one_by_one(expected_state, expected)
            got = list(range(length))
            r.shuffle(got, ahead)
            assert (got, r.state) == (expected, expected_state)
        r = Rng(seed)
        r.shuffle(list(range(length)), ahead)
        clone = Rng(r.state)  # a clone (a search's copy of the game) takes the kept draws first
        taken = list(range(length))
        clone.shuffle(taken)
        left = list(range(length))
        r.shuffle(left)  # and the game itself draws them again, the same
        assert (taken, clone.state) == (left, r.state)
        other = Rng(seed)
        other.shuffle(list(range(length)), ahead)
        other.below(5)  # a draw between: the kept shuffle is not this one's
        state = other.state
        expected = list(range(length))
        expected_state = _one_by_one(state, expected)
        got = list(range(length))
        other.shuffle(got)
        assert (got, other.state) == (expected, expected_state)
