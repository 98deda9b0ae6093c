"""Helpers for the RL tests: which games exist, and hidden-card scrambling."""

from __future__ import annotations

import importlib
import importlib.util
import os
from types import ModuleType

import pytest

from gloomtable.engine import ConfigError, Rng
from gloomtable.games import make_game


def gloomier_available() -> bool:
    try:
        make_game("gloomier", {})
    except ConfigError:
        return False
    return True


needs_gloomier = pytest.mark.skipif(
    not gloomier_available(), reason='make_game("gloomier") is not in this checkout yet')

def needs(module: str, extra: str) -> ModuleType:
    """Import ``module`` for an optional trainer's test, or skip it, naming the
    extra to install. Under CI (the ``CI`` variable set) a missing module fails
    the test instead: .ci/run installs torch and these extras, so CI can never
    pass by skipping them (as the browser tests, tests/browser/conftest.py)."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        why = (f"{module} is not installed ({exc}): pip install torch==2.13.0 "
               f"\"gloomtable[{extra}]\" (docs/rl.md)")
    if os.environ.get("CI"):
        pytest.fail(f"{why}; under CI this test must run", pytrace=False)
    pytest.skip(why, allow_module_level=True)


def installed(module: str, extra: str) -> None:
    """As :func:`needs`, at a module's top, without importing ``module`` (torch and the
    trainers take seconds to import; the suite is collected by every worker): only that
    it is installed. The tests import it themselves."""
    if importlib.util.find_spec(module) is not None:
        return
    why = f"{module} is not installed: pip install torch==2.13.0 \"gloomtable[{extra}]\" (docs/rl.md)"
    if os.environ.get("CI"):
        pytest.fail(f"{why}; under CI this test must run", pytrace=False)
    pytest.skip(why, allow_module_level=True)


ENVS = ["creatures_v0", "gloom_v0", pytest.param("gloomier_v0", marks=needs_gloomier)]


def scramble_hidden(state, viewer: int, seed: int):
    """A copy of ``state`` with every card ``viewer`` cannot see dealt differently
    (other hands keep their sizes; the Reserve, set-aside cards or draw pile too).
    Returns the copy and whether anything actually moved."""
    other = state.clone()
    rng = Rng(seed)
    seats = [q for q in range(len(other.hands)) if q != viewer]
    if hasattr(other, "reserve"):  # Crazy Creatures
        pool = [c for q in seats for c in other.hands[q]] + other.reserve + other.aside
        before = list(pool)
        rng.shuffle(pool)
        for q in seats:
            k = len(other.hands[q])
            other.hands[q], pool = sorted(pool[:k]), pool[k:]
        k = len(other.reserve)
        other.reserve, other.aside = pool[:k], sorted(pool[k:])
        after = [c for q in seats for c in other.hands[q]] + other.reserve + other.aside
    else:  # Gloom, Gloomier
        pool = [c for q in seats for c in other.hands[q]] + other.draw_pile
        before = list(pool)
        rng.shuffle(pool)
        for q in seats:
            k = len(other.hands[q])
            other.hands[q], pool = pool[:k], pool[k:]
        other.draw_pile = pool
        after = [c for q in seats for c in other.hands[q]] + other.draw_pile
    return other, before != after
