"""Which build of the engine a bench ran: the pure-Python package, or one whose rules
modules were compiled to extension modules (a mypyc build, issue 35). Figures of the two
differ by a factor, so every report says which it measured."""

from __future__ import annotations

import importlib
import importlib.machinery
from typing import Any

from gloomtable.compiled import COMPILED

ENGINE_MODULES = COMPILED
"""The modules a playout spends its time in: the ones a compiled build compiles
(:mod:`gloomtable.compiled`)."""


def engine_build() -> dict[str, Any]:
    """``{"engine": "pure" | "compiled", "compiled": [...]}``: ``compiled`` names the
    modules of :data:`ENGINE_MODULES` loaded from an extension module (``.so``, ``.pyd``)
    rather than from Python source; the build is compiled if any is."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    compiled = [name for name in ENGINE_MODULES
                if str(getattr(importlib.import_module(name), "__file__", "")).endswith(suffixes)]
    return {"engine": "compiled" if compiled else "pure", "compiled": compiled}
