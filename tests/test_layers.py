"""DESIGN 'Layers': the engine and the games never import a client, the server,
storage or a UI library, so they stay pure and every client can use them; every
subpackage imports only its own layer or the layers below (docs/architecture.md
'Layers'), and no two subpackages import each other, directly or round a circle."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "src" / "gloomtable"
FORBIDDEN = ("gloomtable.cli", "gloomtable.server", "gloomtable.web", "gloomtable.bots",
             "gloomtable.rl", "sqlite3", "rich", "typer", "fastapi", "starlette", "uvicorn",
             "random", "time", "socket")
UPPER_MAY = ("gloomtable.bots", "gloomtable.rl")
"""What a game's hooks may import of :data:`FORBIDDEN`: the generic bots and RL."""


@cache
def parsed(path: Path) -> ast.Module:
    """A module's syntax tree, parsed once for every check of this file."""
    return ast.parse(path.read_text())


def imports_of(path: Path) -> set[str]:
    tree = parsed(path)
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


def _upper_part(path: Path) -> bool:
    """A game's parts for the layers above (``games/<game>/hooks/``, and its
    ``entry.py`` that names them): they may use the bots and RL machinery."""
    parts = path.relative_to(PKG).parts
    return parts[0] == "games" and len(parts) > 2 and (parts[2] == "hooks" or parts[2] == "entry.py")


def test_engine_and_games_import_no_client_storage_or_clock() -> None:
    """The rules stay pure; a game's hooks may use the bots and RL frameworks but never a
    client, the server, storage or the clock either."""
    bad = []
    hooks = 0
    for folder in ("engine", "games"):
        for path in (PKG / folder).rglob("*.py"):
            if path.name == "__init__.py" and folder == "games":
                continue  # the registry only imports game packages
            upper = _upper_part(path)
            hooks += upper
            forbidden = [f for f in FORBIDDEN if f not in UPPER_MAY] if upper else FORBIDDEN
            for mod in imports_of(path):
                if any(mod == f or mod.startswith(f + ".") for f in forbidden):
                    bad.append(f"{path.relative_to(PKG)} imports {mod}")
    assert not bad, bad
    assert hooks, "the shipped games' hooks were found (games/<game>/hooks/)"


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
        for node in ast.walk(parsed(path)):
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


def test_the_games_have_no_import_cycle() -> None:
    """Every game's modules, and the registry over them, import in one direction."""
    cycle = _cycle(_import_graph(PKG / "games"))
    assert cycle is None, " -> ".join(cycle or [])


SUBPACKAGES = sorted(p.name for p in PKG.iterdir() if (p / "__init__.py").exists())


@pytest.mark.parametrize("sub", SUBPACKAGES)
def test_no_subpackage_has_an_import_cycle_inside(sub: str) -> None:
    """Within every subpackage too, modules import one way (the store's rows apart from
    the protocol that opens a backend, the cluster reading the lobby through a Protocol,
    ``make_bot`` beside the levels it builds, the CLI's shared helpers in ``cli/common``)."""
    cycle = _cycle(_import_graph(PKG / sub))
    assert cycle is None, " -> ".join(cycle or [])


GAME_PACKAGES = tuple(f"games.{p.name}" for p in sorted((PKG / "games").iterdir())
                      if (p / "__init__.py").is_file())
"""Every game's package (``games.gloom``, ``games.creatures``, a new game's): its rules,
layer 1."""
GAME_HOOKS = tuple(f"{g}.hooks" for g in GAME_PACKAGES)
"""Every game's parts for the layers above (``games.gloom.hooks``: its bots, encoder,
texts, lesson matcher; its ``entry`` module counts here too): above the generic
frameworks they use, below the server."""

LAYERS: tuple[tuple[str, ...], ...] = (
    ("engine", "compiled"),
    ("games", *GAME_PACKAGES),
    ("bots",),
    ("rl", "learn", "designer", "i18n", "simulate", "tournament"),
    GAME_HOOKS,
    ("server",),
    ("bench", "cli", "gloomtable"),
)
"""The package bottom to top (docs/architecture.md draws it). A subpackage imports its
own layer or those below, never one above; within a layer, no cycle (checked below)."""
TIER = {unit: i for i, layer in enumerate(LAYERS) for unit in layer}


def _unit(module: str) -> str:
    """The subpackage a module belongs to: ``gloomtable.server.app`` -> ``server``; a
    game's package counts on its own (``games.gloom``), its hooks and entry on their
    own above it (``games.gloom.hooks``), the registry is ``games``."""
    parts = module.split(".")[1:]
    if not parts:
        return "gloomtable"
    if parts[0] == "games" and len(parts) > 1 and (PKG / "games" / parts[1]).is_dir():
        if len(parts) > 2 and parts[2] in ("hooks", "entry"):
            return f"games.{parts[1]}.hooks"
        return f"games.{parts[1]}"
    return parts[0]


def _unit_graph(graph: dict[str, set[str]]) -> tuple[dict[str, set[str]], dict[tuple[str, str], str]]:
    """Subpackage -> the subpackages it imports, and one module import behind each edge."""
    units: dict[str, set[str]] = {}
    why: dict[tuple[str, str], str] = {}
    for mod, found in graph.items():
        a = _unit(mod)
        units.setdefault(a, set())
        for other in found:
            b = _unit(other)
            if a != b:
                units[a].add(b)
                why.setdefault((a, b), f"{mod} imports {other}")
    return units, why


def _upward(units: dict[str, set[str]], why: dict[tuple[str, str], str]) -> list[str]:
    """Every import of a higher layer (or of a subpackage no layer names)."""
    bad = []
    for a, found in sorted(units.items()):
        for b in sorted(found):
            if a not in TIER or b not in TIER:
                bad.append(f"{a} or {b} is in no layer of LAYERS ({why[(a, b)]})")
            elif TIER[b] > TIER[a]:
                bad.append(f"{a} (layer {TIER[a]}) imports {b} (layer {TIER[b]}): {why[(a, b)]}")
    return bad


def test_every_subpackage_is_in_a_layer() -> None:
    units = {_unit(m) for m in _import_graph(PKG)}
    assert units <= set(TIER), f"add {sorted(units - set(TIER))} to LAYERS"


def test_no_subpackage_imports_a_layer_above_it() -> None:
    """engine <- games <- bots <- rl/learn/designer/i18n/simulate/tournament <- each
    game's hooks <- server <- bench/cli: a function-body or ``TYPE_CHECKING`` import
    counts too."""
    bad = _upward(*_unit_graph(_import_graph(PKG)))
    assert not bad, "\n".join(bad)


def test_only_its_own_game_imports_a_games_hooks() -> None:
    """Nothing generic reads a game's hooks (the server and the CLI neither: they ask
    the registry); only the game's own hooks and entry import them."""
    units, why = _unit_graph(_import_graph(PKG))
    bad = [why[(a, b)] for a, found in sorted(units.items()) for b in sorted(found)
           if b.endswith(".hooks") and a != b]
    assert not bad, "ask the registry instead:\n" + "\n".join(bad)


def test_a_games_hooks_sit_above_the_frameworks_and_below_the_server() -> None:
    assert "games.gloom.hooks" in GAME_HOOKS and "games.creatures.hooks" in GAME_HOOKS
    assert _unit("gloomtable.games.gloom.hooks.levels") == "games.gloom.hooks"
    assert _unit("gloomtable.games.gloom.entry") == "games.gloom.hooks"
    assert _unit("gloomtable.games.gloom.state") == "games.gloom"
    for generic in ("bots", "rl", "learn", "i18n"):
        assert TIER[generic] < TIER["games.gloom.hooks"] < TIER["server"]
    units, why = _unit_graph({"gloomtable.bots.levels": {"gloomtable.games.gloom.hooks.levels"},
                              "gloomtable.games.gloom.state": {"gloomtable.games.gloom.hooks.text"},
                              "gloomtable.games.gloom.hooks.levels": {"gloomtable.bots.ismcts"}})
    assert _upward(units, why) == [
        "bots (layer 2) imports games.gloom.hooks (layer 4): gloomtable.bots.levels imports "
        "gloomtable.games.gloom.hooks.levels",
        "games.gloom (layer 1) imports games.gloom.hooks (layer 4): gloomtable.games.gloom.state "
        "imports gloomtable.games.gloom.hooks.text"]


GENERIC = ("server", "bots", "rl", "learn", "i18n")
"""The layers written against the registry and the Protocols of ``engine/hooks.py``
only (issue 33): they import ``games`` itself (the registry, the views, the
catalogue), never one game's package or hooks."""
GAME_IMPORTS_ALLOWED: dict[str, str] = {}
"""``module imports game module`` -> why it may. None is left: a game's deck files,
card texts, responses and boards all come through the registry."""


def _game_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a game's package (rules, hooks or entry) by a :data:`GENERIC` layer."""
    return sorted(f"{mod} imports {other}" for mod, found in graph.items() if _unit(mod) in GENERIC
                  for other in found if _unit(other).startswith("games."))


def test_the_generic_layers_import_no_game() -> None:
    """issue 33: adding a game touches its own package, its translations and its board
    script, nothing else; so the server, bots, RL, lessons and translations name no
    game's package, and ask the registry's entry instead (a function-body import counts)."""
    bad = [line for line in _game_imports(_import_graph(PKG)) if line not in GAME_IMPORTS_ALLOWED]
    assert not bad, "ask the registry instead:\n" + "\n".join(bad)
    stale = set(GAME_IMPORTS_ALLOWED) - set(_game_imports(_import_graph(PKG)))
    assert not stale, f"no longer imported, drop from GAME_IMPORTS_ALLOWED: {sorted(stale)}"


def test_the_game_import_check_finds_one() -> None:
    graph = {"gloomtable.server.uploads": {"gloomtable.games.gloom.deck", "gloomtable.games.registry"},
             "gloomtable.i18n.cards": {"gloomtable.games.creatures"},
             "gloomtable.bots.narration": {"gloomtable.games.kuhn.entry", "gloomtable.games.views"},
             "gloomtable.designer.check": {"gloomtable.games.gloom.deck"}}
    assert _game_imports(graph) == [
        "gloomtable.bots.narration imports gloomtable.games.kuhn.entry",
        "gloomtable.i18n.cards imports gloomtable.games.creatures",
        "gloomtable.server.uploads imports gloomtable.games.gloom.deck"]


def test_no_import_cycle_between_subpackages() -> None:
    units, why = _unit_graph(_import_graph(PKG))
    cycle = _cycle(units)
    assert cycle is None, " -> ".join(cycle or []) + ": " + "; ".join(
        why[(a, b)] for a, b in zip(cycle or [], (cycle or [])[1:], strict=False))


def test_the_layer_check_finds_an_upward_import() -> None:
    graph = {"gloomtable.engine.rng": {"gloomtable.server.app"}, "gloomtable.server.app": set()}
    units, why = _unit_graph(graph)
    assert units == {"engine": {"server"}, "server": set()}
    assert _upward(units, why) == [
        "engine (layer 0) imports server (layer 5): gloomtable.engine.rng imports gloomtable.server.app"]
    assert _upward(*_unit_graph({"gloomtable.server.app": {"gloomtable.engine"}})) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
