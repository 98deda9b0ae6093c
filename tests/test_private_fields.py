"""issue 33: no upper layer touches a game's non-public members. The layers above the
games (bots, rl, server, learn, i18n), and a game's own hooks (``games/<game>/hooks``,
upper-layer code in its package), read a game through its protocol, its view and the
hooks it registers (``engine/hooks.py``); a name the rules keep to themselves (``_x``)
is theirs to change. This walks their syntax trees and fails, naming file and line, on
an attribute access (or a ``getattr``/``setattr``/``hasattr`` with a literal name) of a
private member that some class of ``games/`` defines."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "src" / "gloomtable"
UPPER = ("bots", "rl", "server", "learn", "i18n")


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def game_private_members(sources: list[str]) -> frozenset[str]:
    """Every non-public member a class of the games defines: a method, a class-level
    field, a slot or an attribute it sets on ``self``."""
    found: set[str] = set()
    for source in sources:
        for cls in (n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ClassDef)):
            for node in ast.walk(cls):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _private(node.name):
                    found.add(node.name)
                elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                    found.add(node.target.id)
                elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                      and node.value.id == "self" and isinstance(node.ctx, ast.Store)):
                    found.add(node.attr)
                elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                    found.add(node.value)  # a slot's name (and other strings: filtered below)
    return frozenset(n for n in found if _private(n) and n.isidentifier())


def private_uses(source: str, members: frozenset[str]) -> list[tuple[int, str]]:
    """(line, what) for every reach into ``members`` from outside: ``x._m`` on anything
    but ``self``/``cls``, and ``getattr(x, "_m")``, ``setattr``, ``hasattr``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in members:
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append((node.lineno, f"reads or writes .{node.attr}"))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "setattr", "hasattr", "delattr") and len(node.args) >= 2
              and isinstance(node.args[1], ast.Constant) and node.args[1].value in members):
            found.append((node.lineno, f"{node.func.id}(..., {node.args[1].value!r})"))
    return found


def _upper_part(path: Path) -> bool:
    """A game's parts for the layers above (``games/<game>/hooks/``, its ``entry.py``):
    upper-layer code that lives in the game's package (``tests/test_layers.py``)."""
    parts = path.relative_to(PKG / "games").parts
    return len(parts) > 1 and parts[1] in ("hooks", "entry.py")


def test_no_upper_layer_touches_a_games_private_members() -> None:
    """The generic layers, and a game's own hooks too: its bots, encoder and texts read
    the rules through the protocol, the view and public names like any upper layer, so
    the rules' private members stay the rules' to change (issue 33)."""
    games = sorted((PKG / "games").rglob("*.py"))
    members = game_private_members([p.read_text(encoding="utf-8") for p in games if not _upper_part(p)])
    assert members, "the games define private members; the walk must find some"
    hooks = [p for p in games if _upper_part(p)]
    assert len(hooks) > 10, "the shipped games' hooks are walked too"
    upper = [p for layer in UPPER for p in sorted((PKG / layer).rglob("*.py"))] + hooks
    bad = [f"{path.relative_to(PKG)}:{line}: {what}"
           for path in upper for line, what in private_uses(path.read_text(encoding="utf-8"), members)]
    assert not bad, "ask the game (its protocol, view or hooks) instead:\n" + "\n".join(bad)


@pytest.mark.parametrize("source", [
    "state._legal = None",
    "x = s.game._cache",
    'v = getattr(state, "_legal")',
    'setattr(state, "_legal", [])',
])
def test_the_walk_finds_each_kind_of_reach(source: str) -> None:
    members = game_private_members(["class S:\n    def f(self):\n        self._legal = 1\n"
                                    "class G:\n    _cache: int = 0\n"])
    assert private_uses(source, members) != []


def test_the_walk_leaves_a_class_its_own_members() -> None:
    members = game_private_members(["class S:\n    def f(self):\n        self._legal = 1\n"])
    assert private_uses("class E:\n    def g(self):\n        self._legal = 2\n", members) == []
    assert private_uses("state.legal_actions()", members) == []
