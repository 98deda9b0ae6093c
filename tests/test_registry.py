"""issue 20: one registry of games (``games/registry.py``). Every game gives its factory,
bots, RL encoder, presenter and texts there, and no caller branches on a game's name:
a new game is one entry, not an edit in every layer."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar

import pytest

from gloomtable.bots.base import bot_action
from gloomtable.bots.levels import make_bot
from gloomtable.engine import ConfigError
from gloomtable.games import make_game, registry
from gloomtable.games.creatures.game import CreaturesGame

PKG = Path(__file__).resolve().parents[1] / "src" / "gloomtable"
REGISTRY = PKG / "games" / "registry.py"


def _literals(node: ast.AST) -> Iterator[ast.Constant]:
    """The string constants ``node`` is or holds (a tuple, list or set display)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node
    elif isinstance(node, ast.Tuple | ast.List | ast.Set):
        for elt in node.elts:
            yield from _literals(elt)


def name_branches(source: str, names: frozenset[str]) -> list[tuple[int, str]]:
    """(line, what) for every place ``source`` tells games apart by a name in ``names``:
    a comparison (``==``, ``!=``, ``in``, ``not in``) with the name as a literal, a
    ``match`` case on it, or a dict display keyed by it (a switch table)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                found.extend((c.lineno, f"compares with {c.value!r}") for c in _literals(side)
                             if c.value in names)
        elif isinstance(node, ast.MatchValue):
            found.extend((c.lineno, f"matches {c.value!r}") for c in _literals(node.value)
                         if c.value in names)
        elif isinstance(node, ast.Dict):
            found.extend((c.lineno, f"switches on {c.value!r} as a dict key")
                         for k in node.keys if k is not None for c in _literals(k) if c.value in names)
    return found


def test_no_module_branches_on_a_game_name() -> None:
    """Outside the registry, nothing compares, matches or keys a dict on a game's name;
    callers ask the registry (``registry.entry(name).bots``, ``entry.mixes_sets``...)."""
    names = frozenset(registry.names())
    bad = [f"{path.relative_to(PKG)}:{line}: {what}"
           for path in sorted(PKG.rglob("*.py")) if path != REGISTRY
           for line, what in name_branches(path.read_text(encoding="utf-8"), names)]
    assert not bad, "ask the registry instead:\n" + "\n".join(bad)


def test_the_page_names_no_game() -> None:
    """The page's scripts hold no game's name at all: the server tells them which board
    draws a table (``board``), which games have a lesson and which rules reference each
    game reads (``/api/games``), all from the registry."""
    names = "|".join(sorted(registry.names()))
    quoted = re.compile(rf"""["'`]({names})["'`]""")
    bad = [f"{path.relative_to(PKG)}:{n}: {line.strip()}"
           for path in sorted((PKG / "web").glob("*.js"))
           for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if quoted.search(line)]
    assert not bad, "let the server say it, from the registry:\n" + "\n".join(bad)


def test_the_page_loads_the_board_its_entry_names() -> None:
    """issue 33: a table's board comes from the registry (``board``, sent in the table's
    ``welcome``); each board script exports its board as the module's default, and no
    page script imports one by name, so adding a game's board touches no shared script."""
    boards = {e.board for e in registry.entries() if e.board is not None}
    assert boards, "the shipped games name their boards"
    for board in boards:
        script = (PKG / "web" / board).read_text(encoding="utf-8")
        assert re.search(r"^export default \w+;$", script, re.M), board
    named = re.compile(r"""from\s+["']\./(""" + "|".join(re.escape(b) for b in sorted(boards)) + ")")
    bad = [f"{path.name}:{n}: {line.strip()}" for path in sorted((PKG / "web").glob("*.js"))
           for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if named.search(line)]
    assert not bad, "load the board the server names (table.js loadBoard):\n" + "\n".join(bad)


@pytest.mark.parametrize("source", [
    'if game == "gloom": pass',
    'if "creatures" != view["game"]: pass',
    'ok = name in ("gloom", "gloomier")',
    'match name:\n    case "creatures": pass',
    'TITLES = {"gloomier": "Gloomier"}',
])
def test_the_search_finds_each_kind_of_branch(source: str) -> None:
    assert name_branches(source, frozenset(registry.names())) != []


def test_the_search_leaves_other_strings_alone() -> None:
    names = frozenset(registry.names())
    assert name_branches('make_game("gloom", {"game": "creatures"}); x = y == "classic"', names) == []


@dataclass(frozen=True, slots=True)
class CrittersGame(CreaturesGame):
    """A tiny real game under a new name: Crazy Creatures' rules, its own entry."""

    name: ClassVar[str] = "critters"


def _critters(name: str, config: dict[str, object], decks: object = None) -> CrittersGame:
    game = CreaturesGame.from_dict(dict(config))
    return CrittersGame(players=game.players, rounds=game.rounds, first_player=game.first_player,
                        turn_cap=game.turn_cap, sets=game.sets)


def test_a_new_game_is_one_entry() -> None:
    """Registering an entry is all it takes: ``make_game`` builds it, and the bot
    levels, the narration and the lobby's seat range find it, with no code changed
    anywhere else."""
    from gloomtable.bots.narration import narrate
    from gloomtable.server.games import seat_range

    entry = replace(registry.entry("creatures"), name="critters", title="Critters",
                    factory=registry.Hook.of(_critters))
    with pytest.raises(ConfigError, match="critters"):
        make_game("critters", {})
    with registry.registered(entry):
        game = make_game("critters", {"players": 2})
        assert isinstance(game, CrittersGame) and game.name == "critters"
        state = game.new_initial_state(5)
        bots = [make_bot("medium", "critters", seed) for seed in range(2)]
        told = 0
        for _ in range(400):
            if state.is_over():
                break
            view = state.view(state.current_player())
            action = bot_action(bots[state.current_player()], state, state.legal_actions())
            told += narrate("critters", view, action, 1) is not None
            state.apply(action)
        assert state.is_over() and told > 0
        assert seat_range("critters") == (2, 4)
        assert registry.entry("critters").title == "Critters"
    with pytest.raises(ConfigError, match="critters"):
        make_game("critters", {})
    assert seat_range("critters") is None


def test_an_unknown_game_names_the_known_ones() -> None:
    known = ", ".join(registry.names())
    assert known.startswith("gloom, gloomier, creatures")  # the shipped games first
    with pytest.raises(ConfigError, match=f"unknown game 'chess'; known games: {known}$"):
        make_game("chess", {})


def test_a_name_is_registered_once() -> None:
    with pytest.raises(ValueError, match="gloom"), registry.registered(registry.entry("gloom")):
        pass


ENTRY_MODULES = sorted((PKG / "games").glob("*/entry.py"))


def string_wiring(source: str, allowed_in: frozenset[str] = frozenset()) -> list[tuple[int, str]]:
    """(line, what) for every place ``source`` reaches a part by its name as a string:
    ``importlib.import_module``, ``__import__``, a ``getattr`` with a literal name (not a
    dunder: ``__qualname__`` names a part for messages), a
    ``cast`` (a part typed by assertion, not checked), a ``Hook.named``; outside the
    functions named in ``allowed_in`` (the registry's package discovery)."""
    found: list[tuple[int, str]] = []

    def walk(node: ast.AST, where: str | None) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            where = node.name
        if isinstance(node, ast.Call) and where not in allowed_in:
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name in ("import_module", "__import__", "cast", "named"):
                found.append((node.lineno, f"calls {name}"))
            elif (name == "getattr" and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
                  and not str(node.args[1].value).startswith("__")):  # a dunder is no part
                found.append((node.lineno, f"getattr(..., {node.args[1].value!r})"))
        for child in ast.iter_child_nodes(node):
            walk(child, where)

    walk(ast.parse(source), None)
    return found


def test_no_part_is_named_by_a_string() -> None:
    """issue 33: every hook is given as the part or as a typed loader that imports it, so
    mypy checks it against its Protocol; the registry imports by name only to find the
    games' ``entry`` modules, and ``Hook``'s API holds no ``Any``."""
    assert len(ENTRY_MODULES) >= 3, ENTRY_MODULES
    bad = [f"{path.relative_to(PKG)}:{line}: {what}"
           for path in [REGISTRY, *ENTRY_MODULES]
           for line, what in string_wiring(path.read_text(encoding="utf-8"),
                                           frozenset({"_entries_of"}) if path == REGISTRY else frozenset())]
    assert not bad, "give the part (Hook.of) or a typed loader (Hook(_load)):\n" + "\n".join(bad)
    assert not hasattr(registry.Hook, "named")
    hook = next(n for n in ast.walk(ast.parse(REGISTRY.read_text(encoding="utf-8")))
                if isinstance(n, ast.ClassDef) and n.name == "Hook")
    assert not [n.lineno for n in ast.walk(hook) if isinstance(n, ast.Name) and n.id == "Any"]


@pytest.mark.parametrize("source", [
    'm = importlib.import_module("gloomtable.bots.levels")',
    'm = __import__("gloomtable")',
    'bot = getattr(m, "gloom_bot")',
    'bots = cast(BotFactory, part)',
    'bots = Hook.named("gloomtable.bots.levels", "gloom_bot")',
])
def test_the_string_wiring_search_finds_each_kind(source: str) -> None:
    assert string_wiring(source) != []
    assert string_wiring(f"def _entries_of():\n    {source}", frozenset({"_entries_of"})) == []


@pytest.mark.slow
def test_finding_and_building_the_games_loads_no_upper_layer() -> None:
    """The registry finds every game without loading its rules or numpy, and building and
    dealing every game loads no bot, RL, text, lesson or server code: the hooks are
    imported on first use only."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from gloomtable.games import make_game, registry\n"
        "names = registry.names()\n"
        "found = sorted(m for m in sys.modules if m == 'numpy' or m.startswith('gloomtable.games.')\n"
        "               and m.count('.') > 2 and not m.endswith('.entry'))\n"
        "print(' '.join(found) or '-')\n"
        "for n in names:\n"
        "    make_game(n, {}).new_initial_state(1)\n"
        "upper = ('gloomtable.bots', 'gloomtable.rl', 'gloomtable.i18n', 'gloomtable.learn',\n"
        "         'gloomtable.server', 'gloomtable.designer')\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith(upper)\n"
        "                        or (m.startswith('gloomtable.games.') and '.hooks' in m))) or '-')\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         timeout=120).stdout.splitlines()
    assert out == ["-", "-"], out


@pytest.mark.parametrize("name", registry.names())
def test_every_entry_point_resolves_and_answers(name: str) -> None:
    """Each entry point imports and does its job on a real table of the game."""
    from gloomtable.engine import Rng
    from gloomtable.games.catalogue import catalogue
    from gloomtable.i18n.catalog import translator
    from gloomtable.i18n.web import localize_catalogue, localize_state
    from gloomtable.learn.script import Expect

    entry = registry.entry(name)
    for field_name, hook in entry.hooks().items():
        assert hook.get() is not None, f"{name}.{field_name}: {hook.where}"
    game = entry.make({})
    assert game.name == name and entry.players[0] <= game.num_players <= entry.players[1]
    state = game.new_initial_state(3)
    seat = state.current_player()
    view = state.view(seat)
    legal = state.legal_actions()
    assert entry.bot("medium", 0) is not None and entry.bot("no-such-level", 0) is None
    assert entry.view_config(view) is not None
    made = entry.sampler(view)
    assert made is None or made(1).view(seat) == view
    assert len(entry.encoder_for(game).encode(view)) > 0
    assert all("kind" in entry.present(state, a) for a in legal)
    assert entry.localizer(game, translator("es")) is not None
    page = localize_state(game, "es", {"view": dict(view), "choices": [], "log": []})
    assert page["view"].keys() == view.keys() and page["view"] is not view
    faces = catalogue(game)
    assert localize_catalogue(game, faces, "es").keys() == faces.keys()
    entry.narrate(view, legal[0], Rng(1))  # a line or None, never an error
    from gloomtable.rl.aec import raw_env_for

    assert raw_env_for(name).possible_agents
    if entry.lesson_matcher is not None:
        fits = entry.lesson_match(state, Expect(kind="pass"))
        assert all(isinstance(fits(a), bool) for a in legal)
    assert isinstance(entry.sets(), tuple) and isinstance(entry.schema().get("properties"), dict)
    if entry.card_texts is not None:
        assert entry.deck_texts(game, "es").name(0)
    if entry.decks is not None:  # its deck files at the server, shared by the games on one deck language
        from gloomtable.engine.hooks import Decks

        decks = entry.decks.get()
        assert isinstance(decks, Decks) and decks in registry.decks()
        offered = decks.offered()
        assert offered and set(offered) <= set(entry.sets())
        assert all(decks.set_names(offered)[s]["en"] for s in offered)


def _small(name: str) -> dict[str, object]:
    """The config of a short game of ``name``: fewest seats, a low turn cap where it has one."""
    entry = registry.entry(name)
    config: dict[str, object] = {"players": entry.players[0]}
    if "turn_cap" in entry.spiel_params:
        config["turn_cap"] = 60
    return config


@pytest.mark.slow
@pytest.mark.parametrize("name", registry.names())
def test_every_game_plays_everywhere(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """issue 33: every registered game (the example game ``kuhn`` among them, with no
    code outside its package) plays in the terminal, against every bot level, in
    PettingZoo, Gymnasium and OpenSpiel (a random game, a sampled state at every
    decision), and has its page's choices and texts in every language."""
    import gymnasium
    import numpy as np

    from gloomtable.bots.levels import seat_bots
    from gloomtable.cli.terminal import play_terminal
    from gloomtable.rl.aec import env_for
    from gloomtable.server.present import choices

    entry = registry.entry(name)
    config = _small(name)
    game = make_game(name, config)
    play_terminal(game, 5, 0, "medium", None, lang="es")  # bots only: the terminal prints it all
    assert capsys.readouterr().out.strip()
    for level in ("random", "easy", "medium", "hard"):  # every level, seat by seat
        state = game.new_initial_state(7)
        bots = seat_bots(level, name, 7, list(range(game.num_players)))
        for _ in range(2000):
            if state.is_over():
                break
            legal = state.legal_actions()
            assert all(c["text"] for c in choices(name, state, legal))
            state.apply(bot_action(bots[state.current_player()], state, legal))
    env = env_for(name, **config)  # PettingZoo
    env.reset(seed=3)
    for agent in env.agent_iter(max_iter=3000):
        _obs, _r, term, trunc, _info = env.last()
        mask = env.observe(agent)["action_mask"]
        env.step(None if term or trunc else int(np.flatnonzero(mask)[0]))
    gym_env = gymnasium.make(f"gloomtable/{entry.env_id}", opponents="random", **config)
    obs, _info = gym_env.reset(seed=1)
    for _ in range(3000):
        action = int(np.flatnonzero(obs["action_mask"])[0])
        obs, _r, term, trunc, _info = gym_env.step(action)
        if term or trunc:
            break
    assert term or trunc
    pyspiel = pytest.importorskip("pyspiel")
    import gloomtable.rl.spiel  # noqa: F401  registers every game

    spiel = pyspiel.load_game(f"gloomtable_{name}")
    pyspiel.random_sim_test(spiel, num_sims=1, serialize=True, verbose=False)
    state = spiel.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = np.random.default_rng(2)
    for _ in range(300):
        if state.is_terminal():
            break
        if not state.is_chance_node():
            p = state.current_player()
            assert state.resample_from_infostate(p, sampler).observation_string(p) == \
                state.observation_string(p)
        state.apply_action(int(rng.choice(state.legal_actions())))
