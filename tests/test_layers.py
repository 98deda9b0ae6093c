"""DESIGN 'Layers': the engine and the games never import a client, the server,
storage or a UI library, so they stay pure and every client can use them."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "src" / "gloomtable"
FORBIDDEN = ("gloomtable.cli", "gloomtable.server", "gloomtable.web", "gloomtable.bots",
             "gloomtable.rl", "sqlite3", "rich", "typer", "fastapi", "starlette", "uvicorn",
             "random", "time", "socket")


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


def test_engine_and_games_import_no_client_storage_or_clock() -> None:
    bad = []
    for folder in ("engine", "games"):
        for path in (PKG / folder).rglob("*.py"):
            if path.name == "__init__.py" and folder == "games":
                continue  # the registry only imports game packages
            for mod in imports_of(path):
                if any(mod == f or mod.startswith(f + ".") for f in FORBIDDEN):
                    bad.append(f"{path.relative_to(PKG)} imports {mod}")
    assert not bad, bad


def _module_name(path: Path) -> str:
    parts = path.relative_to(PKG.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_graph(folder: Path) -> dict[str, set[str]]:
    """Module -> the modules of ``folder`` it imports, anywhere in it (a function body
    or ``if TYPE_CHECKING`` too: a cycle there is still a circle to read around)."""
    mods = {_module_name(p): p for p in folder.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for mod, path in mods.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            found.update(n for n in names if n in mods and n != mod)
        graph[mod] = found
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (as the modules around it), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                return [*path[path.index(n):], n]
            if n not in state and (found := visit(n)):
                return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def test_the_gloom_engine_has_no_import_cycle() -> None:
    """issue 20: the rules by section, the table below them and the state above, so a
    module is read without reading around a circle."""
    cycle = _cycle(_import_graph(PKG / "games" / "gloom"))
    assert cycle is None, " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
