"""The build backend: setuptools' own, plus mypy (whose mypyc compiles) among the build
requirements when ``GLOOMTABLE_COMPILE=1`` asks for the compiled build (setup.py). A
plain ``pip install .`` needs only setuptools, as before.

The compiled build type-checks the whole program before compiling, so the packages whose
types the compiled modules see (pydantic for the config models and the mypy plugin in
pyproject.toml, numpy for the shuffle) are build requirements then too; taking the
project's own dependencies gives them exactly as a plain install resolves them."""

from __future__ import annotations

import os
import tomllib
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (every hook not overridden here)

MYPY = "mypy==2.4.1"
"""The mypyc the compiled build's figures were measured with (docs/bench.md)."""


def _compile_requires() -> list[str]:
    if os.environ.get("GLOOMTABLE_COMPILE") != "1":
        return []
    with open("pyproject.toml", "rb") as f:
        dependencies: list[str] = tomllib.load(f)["project"]["dependencies"]
    return [MYPY, *dependencies]


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [*_setuptools.get_requires_for_build_wheel(config_settings), *_compile_requires()]


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [*_setuptools.get_requires_for_build_editable(config_settings), *_compile_requires()]
