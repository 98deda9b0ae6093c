"""The optional compiled build (issue 35): the list of modules mypyc compiles is one list
(``gloomtable.compiled``) that setup.py and ``gloom bench`` both read, and a suite run
against the compiled build really runs compiled code. The whole suite is the compiled
build's test (README, "Speed"): run it from the compiled build's environment with
``GLOOMTABLE_EXPECT_COMPILED=1`` and this module fails unless every listed module was
loaded from an extension module."""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import runpy
from pathlib import Path
from typing import Any

import pytest

from gloomtable.bench.build import engine_build
from gloomtable.compiled import COMPILED, LEFT_OUT
from gloomtable.engine import MalformedActionError
from gloomtable.games import make_game

ROOT = Path(__file__).resolve().parents[1]


def test_the_list_names_modules_of_the_package_once() -> None:
    assert len(set(COMPILED)) == len(COMPILED)
    assert not set(COMPILED) & set(LEFT_OUT)
    for name in (*COMPILED, *LEFT_OUT):
        assert importlib.util.find_spec(name) is not None, name
    for name in COMPILED:
        assert (ROOT / "src" / Path(*name.split("."))).with_suffix(".py").is_file(), name


def test_setup_compiles_the_listed_modules() -> None:
    """setup.py reads the list by path (the package cannot be imported while it builds)."""
    listed = runpy.run_path(str(ROOT / "src" / "gloomtable" / "compiled.py"))["COMPILED"]
    assert listed == COMPILED
    assert "compiled.py" in (ROOT / "setup.py").read_text()


@pytest.mark.skipif(os.environ.get("GLOOMTABLE_EXPECT_COMPILED") != "1",
                    reason="GLOOMTABLE_EXPECT_COMPILED=1: the suite runs against the compiled build")
def test_the_compiled_build_is_the_one_imported() -> None:
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for name in COMPILED:
        assert str(importlib.import_module(name).__file__).endswith(suffixes), name
    assert engine_build() == {"engine": "compiled", "compiled": list(COMPILED)}


@pytest.mark.parametrize("name", ["gloom", "creatures"])
@pytest.mark.parametrize("action", ["0", 1.0, None, True, [0]])
def test_a_malformed_action_is_malformed_in_either_build(name: str, action: Any) -> None:
    """A compiled method checks its arguments' declared types on the way in: ``apply``
    takes any object, so that what is not an action is refused as malformed (not with a
    TypeError), as in the pure build."""
    state = make_game(name, {"players": 3}).new_initial_state(1)
    with pytest.raises(MalformedActionError):
        state.apply(action)
