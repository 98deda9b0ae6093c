"""Deck fuzzing (issue 9, part 2): random and broken deck files never crash the
checker or the engine; each gets a clear DeckError (and ``gloom deck check``
exit code 1) naming the file, the card and the field.

Four sources of bad input: the shipped sets with one random mutation (wrong
types, missing or unknown fields, duplicated or deleted cards); decks generated
from random effect primitives (nested requirements, loops of free plays and
returns, absurd sizes), which must either be refused or play to a bounded end;
byte-level damage to the TOML text (malformed TOML, invalid UTF-8, binary
junk); and a list of hand-written absurdities.
"""

from __future__ import annotations

import copy
import json
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from gloom_helpers import card, deck_data
from gloomtable.cli.main import app
from gloomtable.engine import ConfigError, Rng
from gloomtable.games.gloom.cards import CardType
from gloomtable.games.gloom.deck import (
    CARD_TABLES,
    KNOWN_ICONS,
    SHIPPED_SETS,
    Deck,
    DeckError,
    build_deck,
    load_deck,
)
from gloomtable.games.gloom.effects import PRIMITIVES
from gloomtable.games.gloom.game import GloomConfig, GloomGame
from reliability_support import scaled

SETS = {name: resources.files("gloomtable.games.gloom.sets").joinpath(f"{name}.toml").read_text()
        for name in SHIPPED_SETS}
DATA = {name: tomllib.loads(text) for name, text in SETS.items()}
FUZZ = settings(max_examples=scaled(60, 500), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
TALLY: dict[str, int] = {}


def count(key: str) -> None:
    TALLY[key] = TALLY.get(key, 0) + 1


def check_refusal(exc: DeckError, source: str) -> None:
    """A refusal lists problems as readable lines, each naming the deck file."""
    assert exc.source == source
    assert exc.problems and all(isinstance(p, str) and p.strip() for p in exc.problems)
    assert source in str(exc)
    assert "Traceback" not in str(exc)


def play_bounded(deck: Deck, seed: int, max_actions: int = 400) -> int:
    """A deck that validates must play: random legal actions from a seeded start,
    every card in one place after each, no exception. Returns actions taken."""
    families = len(deck.families)
    players = 2 + seed % 3
    try:
        game = GloomGame(GloomConfig(players=players, turn_cap=30, edition=1 + seed % 2), deck=deck)
    except ConfigError as exc:
        assert str(exc)
        assert players > families or not deck.of_type(CardType.CHARACTER)
        return 0
    state = game.new_initial_state(seed)
    rng = Rng(seed)
    everything = set(range(len(deck.cards)))
    n = 0
    while not state.is_over() and n < max_actions:
        legal = state.legal_actions()
        assert legal, "a live game must offer an action"
        state.apply(legal[rng.below(len(legal))])
        assert set(state.locations()) == everything
        n += 1
    if state.is_over():
        state.result()
    return n


# --- 1. one random mutation of a shipped set ----------------------------------------


def paths(node: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [here] if here else []
    if isinstance(node, dict):
        for k, v in node.items():
            out.extend(paths(v, (*here, k)))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.extend(paths(v, (*here, i)))
    return out


JUNK_VALUE = st.one_of(
    st.integers(-(2**70), 2**70), st.floats(allow_nan=True), st.booleans(),
    st.text(max_size=30), st.text(min_size=500, max_size=3000), st.just(""),
    st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
    st.sampled_from(["blank", "immediate", "response", "draw", "classic", "\x00", "\u202e", "<script>"]),
    st.datetimes(),
)


@st.composite
def mutated_sets(draw: st.DrawFn) -> tuple[str, dict[str, Any], tuple[Any, ...], str]:
    name = draw(st.sampled_from(sorted(DATA)))
    data = copy.deepcopy(DATA[name])
    where = draw(st.sampled_from(paths(data)))
    parent = data
    for key in where[:-1]:
        parent = parent[key]
    last = where[-1]
    op = draw(st.sampled_from(["replace", "delete", "unknown-field", "duplicate"]))
    if op == "replace":
        parent[last] = draw(JUNK_VALUE)
    elif op == "delete":
        del parent[last]
    elif op == "unknown-field" and isinstance(parent[last], dict):
        parent[last][draw(st.sampled_from(["colour", "pointz", "Do", "when_"]))] = 1
    elif isinstance(parent, list):
        parent.append(copy.deepcopy(parent[last]))
    else:
        parent[last] = draw(JUNK_VALUE)
        op = "replace"
    return name, data, where, op


def card_named_by(where: tuple[Any, ...], data: dict[str, Any]) -> tuple[str, str | None] | None:
    """The card label a problem in ``where`` should name, if the path is inside a card."""
    if len(where) >= 2 and where[0] in CARD_TABLES and isinstance(where[1], int):
        try:
            key = data[where[0]][where[1]].get("id")
        except (IndexError, KeyError, AttributeError):
            key = None
        return f"{where[0]}[{where[1]}]", key if isinstance(key, str) else None
    return None


@pytest.mark.slow
@FUZZ
@given(mutated_sets())
def test_mutated_shipped_sets_are_refused_clearly_or_play(case: tuple[Any, ...]) -> None:
    name, data, where, op = case
    source = f"fuzz-{name}.toml"
    count("deck mutations tried")
    try:
        deck = build_deck(data, source)
    except DeckError as exc:
        count("deck mutations refused")
        check_refusal(exc, source)
        label = card_named_by(where, data)
        if label is not None and op in ("replace", "unknown-field") and len(where) > 2:
            # A broken field of one card: some problem names that card (or its id).
            text = "\n".join(exc.problems)
            assert label[0] in text or (label[1] is not None and repr(label[1]) in text), (
                f"no problem names {label} in {exc.problems}")
        return
    count("deck mutations accepted and played")
    play_bounded(deck, len(where))


# --- 2. decks built from random effect primitives -------------------------------------


def from_schema(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Valid parameters for a primitive, read from its JSON Schema (so primitives
    added later are fuzzed too); every free string is an icon name."""
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "anyOf" in schema:
        return st.one_of([from_schema(s) for s in schema["anyOf"] if s.get("type") != "null"])
    kind = schema.get("type")
    if kind == "integer":
        return st.integers(schema.get("minimum", -5), schema.get("maximum", 5))
    if kind == "boolean":
        return st.booleans()
    if kind == "object":
        props = schema.get("properties", {})
        required = set(schema.get("required", ()))
        return st.fixed_dictionaries(
            {k: from_schema(v) for k, v in props.items() if k in required},
            optional={k: from_schema(v) for k, v in props.items() if k not in required})
    return st.sampled_from(KNOWN_ICONS)


PARAMS = {name: from_schema(p.adapter.json_schema()) for name, p in PRIMITIVES.items()}
GUEST_ONLY = {"follows"}  # refused on other cards (R-H7); the mutation fuzz covers it
WHENS_FOR = {"modifiers": ["immediate", "continuous", "persistent"],
             "events": ["immediate", "response"], "untimely_deaths": ["immediate", "persistent"]}


def steps_for(when: str, depth: int = 0) -> st.SearchStrategy[list[dict[str, Any]]]:
    names = sorted(n for n, p in PRIMITIVES.items() if when in p.when and n not in GUEST_ONLY)

    @st.composite
    def one(draw: st.DrawFn) -> dict[str, Any]:
        name = draw(st.sampled_from(names))
        step = {name: draw(PARAMS[name])}
        if name == "if_icon":
            step["do"] = draw(steps_for(when, depth + 1)) if depth < 4 else [{"draw": 1}]
        return step

    return st.lists(one(), min_size=1, max_size=3 if depth == 0 else 2)


@st.composite
def random_cards(draw: st.DrawFn, table: str, n: int) -> list[dict[str, Any]]:
    out = []
    for i in range(n):
        effects = []
        for _ in range(draw(st.integers(0, 2))):
            when = draw(st.sampled_from(WHENS_FOR[table]))
            effects.append({"when": when, "do": draw(steps_for(when))})
        slot = st.one_of(st.none(), st.integers(-40, 40))
        points = (None, None, None) if table == "events" else tuple(draw(slot) for _ in range(3))
        icons = tuple(draw(st.one_of(st.none(), st.sampled_from([*KNOWN_ICONS, "blank"])))
                      for _ in range(3))
        out.append(card(f"{table[:3]}-{i}", points=points, icons=icons, effects=effects,
                        persistent_icon=draw(st.booleans())))
    return out


LOOPS = [
    # Each card brings itself back and grants another play: loops a player can choose.
    [{"when": "immediate", "do": [{"return_modifier": "you"}, {"free_play": "modifier"}]}],
    [{"when": "immediate", "do": [{"draw": 10}, {"free_play": "any"}, {"each_other_player_draws": 10}]}],
    [{"when": "immediate", "do": [{"swap_hands": True}, {"free_play": "any"}]}],
    [{"when": "immediate", "do": [{"revive": "any"}, {"free_play": "untimely_death"}]}],
    [{"when": "immediate", "do": [{"skip_turn": "you"}, {"steal": 10}, {"discard": 10}]}],
]


@st.composite
def random_decks(draw: st.DrawFn) -> dict[str, Any]:
    mods = draw(random_cards("modifiers", draw(st.integers(0, 25))))
    if draw(st.booleans()):
        loop = draw(st.sampled_from(LOOPS))
        mods += [card(f"loop-{i}", points=(-5, None, None), effects=loop) for i in range(8)]
    return deck_data(
        modifiers=mods,
        events=draw(random_cards("events", draw(st.integers(0, 8)))),
        deaths=draw(random_cards("untimely_deaths", draw(st.integers(0, 12)))),
        families=draw(st.sampled_from([0, 1, 2, 3, 4, 4, 5, 6])),
        per_family=draw(st.sampled_from([0, 1, 2, 4, 5])),
        fillers=draw(st.sampled_from([0, 1, 10, 40])), set_id="fuzz",
    )


@pytest.mark.slow
@FUZZ
@given(random_decks(), st.integers(0, 2**32))
def test_random_primitive_decks_are_refused_clearly_or_play(data: dict[str, Any], seed: int) -> None:
    count("random decks tried")
    try:
        deck = build_deck(data, "random.toml")
    except DeckError as exc:
        count("random decks refused")
        check_refusal(exc, "random.toml")
        return
    count("random decks accepted and played")
    TALLY["random deck actions"] = TALLY.get("random deck actions", 0) + play_bounded(deck, seed)


# --- 3. damaged files on disk (load_deck and the CLI) --------------------------------


@st.composite
def damaged_files(draw: st.DrawFn) -> bytes:
    raw = SETS[draw(st.sampled_from(sorted(SETS)))].encode()
    kind = draw(st.sampled_from(["truncate", "flip", "insert", "junk", "splice"]))
    at = draw(st.integers(0, len(raw) - 1))
    if kind == "truncate":
        return raw[:at]
    if kind == "flip":
        return raw[:at] + bytes([raw[at] ^ draw(st.integers(1, 255))]) + raw[at + 1:]
    if kind == "insert":
        return raw[:at] + draw(st.sampled_from([b"[", b"]]", b"\"", b"=", b"\n[[modifiers]]\n",
                                                b"\xff\xfe", b"\x00", b"{", b"'''"])) + raw[at:]
    if kind == "splice":
        other = draw(st.integers(0, len(raw) - 1))
        return raw[:at] + raw[other:]
    return draw(st.binary(min_size=0, max_size=2000))


@pytest.mark.slow
@FUZZ
@given(damaged_files())
def test_damaged_deck_files_are_refused_clearly(tmp_path_factory: pytest.TempPathFactory,
                                                blob: bytes) -> None:
    path = tmp_path_factory.mktemp("deck") / "damaged.toml"
    path.write_bytes(blob)
    count("damaged files tried")
    try:
        deck = load_deck(path)
    except DeckError as exc:
        count("damaged files refused")
        check_refusal(exc, str(path))
        return
    count("damaged files accepted and played")
    play_bounded(deck, len(blob))


ABSURD: list[tuple[str, str, list[str]]] = [
    ("empty file", "", ["set"]),
    ("not a table at top", "set = 3\n", ["set"]),
    ("no characters", '[set]\nid = "x"\nname = "X"\n[[families]]\nid = "f"\nname = "F"\n',
     ["family 'f' has no Characters"]),
    ("huge points", SETS["classic"]
     + '\n[[modifiers]]\nid = "big"\nname = "Big"\npoints = { top = 99999999999 }\n',
     ["modifiers[57] (id 'big')", "points.top"]),
    ("long name", SETS["classic"] + f'\n[[modifiers]]\nid = "long"\nname = "{"N" * 5000}"\n',
     ["modifiers[57] (id 'long')", "name"]),
    ("bad id", SETS["classic"] + '\n[[modifiers]]\nid = "../../etc/passwd"\nname = "X"\n',
     ["modifiers[57]", "id"]),
    ("too many effects", SETS["classic"] + '\n[[modifiers]]\nid = "fx"\nname = "Fx"\neffects = ['
     + ", ".join(['{ when = "immediate", do = [{ draw = 1 }] }'] * 7) + "]\n",
     ["modifiers[57] (id 'fx')", "effects"]),
    ("nested if_icon", SETS["classic"] + '\n[[events]]\nid = "deep"\nname = "Deep"\neffects = [{ when = '
     '"immediate", do = [' + '{ if_icon = "murder", do = [' * 6 + "{ draw = 1 }" + "] }" * 6 + "] }]\n",
     ["events[11] (id 'deep')", "nested too deep"]),
    ("a step with two primitives", SETS["classic"] + '\n[[events]]\nid = "two"\nname = "Two"\n'
     'effects = [{ when = "immediate", do = [{ draw = 1, discard = 1 }] }]\n',
     ["events[11] (id 'two')", "exactly one primitive"]),
    ("a step that is a number", SETS["classic"] + '\n[[events]]\nid = "num"\nname = "Num"\n'
     'effects = [{ when = "immediate", do = [3] }]\n', ["events[11]", "do"]),
    ("a key after the last card", SETS["classic"] + '\nmodifiers = "x"\n',
     ["untimely_deaths[19]", "field modifiers: unknown field"]),
    ("2001 modifiers", '[set]\nid = "x"\nname = "X"\n' + "".join(
        f'[[modifiers]]\nid = "m{i}"\nname = "M"\n' for i in range(2001)), ["at most 2000"]),
    ("binary", "\x00\x01\x02\x03", ["not valid TOML"]),
]


@pytest.mark.parametrize(("what", "text", "expected"), ABSURD, ids=[a[0] for a in ABSURD])
def test_absurd_decks_get_a_clear_error(tmp_path: Path, what: str, text: str, expected: list[str]) -> None:
    path = tmp_path / "absurd.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DeckError) as info:
        load_deck(path)
    check_refusal(info.value, str(path))
    message = "\n".join(info.value.problems)
    for part in expected:
        assert part in message, f"{what}: {part!r} not in {message!r}"


def test_unreadable_paths_get_a_clear_error(tmp_path: Path) -> None:
    """A directory, a missing file and invalid UTF-8 are DeckErrors, not OSErrors."""
    bad_utf8 = tmp_path / "latin1.toml"
    bad_utf8.write_bytes(SETS["classic"].encode() + b"\n# caf\xe9\n")
    for path in (tmp_path, tmp_path / "missing.toml", bad_utf8):
        with pytest.raises(DeckError) as info:
            load_deck(path)
        check_refusal(info.value, str(path))


def test_deeply_nested_toml_is_a_deck_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.toml"
    path.write_text("a = " + "[" * 3000 + "]" * 3000 + "\n", encoding="utf-8")
    with pytest.raises(DeckError):
        load_deck(path)


def cli_check(path: Path) -> Any:
    return CliRunner().invoke(app, ["deck", "check", str(path)])


@pytest.mark.slow
@settings(max_examples=scaled(15, 150), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.one_of(damaged_files(), mutated_sets().map(lambda c: json.dumps(c[1], default=str).encode())))
def test_deck_check_cli_exits_1_with_problems_never_a_traceback(
        tmp_path_factory: pytest.TempPathFactory, blob: bytes) -> None:
    """``gloom deck check`` on junk: exit 0 with counts, or exit 1 with the problems."""
    path = tmp_path_factory.mktemp("cli") / "deck.toml"
    path.write_bytes(blob)
    result = cli_check(path)
    count("deck check CLI runs")
    assert result.exit_code in (0, 1), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    if result.exit_code == 1:
        assert "problem" in result.output and str(path) in result.output


@pytest.mark.slow
def test_deck_fuzz_figures(figures: dict[str, Any]) -> None:
    """Reports what the fuzzers above tried (runs last in this file)."""
    figures["fuzz_decks"] = dict(TALLY)
    assert TALLY.get("deck mutations tried", 0) > 0
