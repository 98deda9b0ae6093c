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
