"""Checks that a state's patch (server/deltas.py) shows only what the full view shows,
shared by the leak tests of each game and the server's delta tests."""

from __future__ import annotations

import copy
from typing import Any

import jsonpatch
import jsonpointer

from gloomtable.server.deltas import diff


def check_patch(old: Any, new: Any) -> list[dict[str, Any]]:
    """The patch from ``old`` to ``new``: applied by the ``jsonpatch`` library (not our
    code) it gives ``new``; every value it carries is exactly what ``new`` holds at that
    path (so it names no card the full view does not); ``remove`` carries nothing."""
    ops = diff(old, new)
    got = jsonpatch.apply_patch(copy.deepcopy(old), ops)
    assert got == new and type(got) is type(new)
    for op in ops:
        assert op["op"] in ("add", "remove", "replace"), op
        if op["op"] == "remove":
            assert set(op) == {"op", "path"}
            continue
        shown = jsonpointer.resolve_pointer(new, op["path"])
        assert shown == op["value"] and type(shown) is type(op["value"]), op
    return ops
