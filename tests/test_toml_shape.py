"""The shape check in front of ``tomllib`` (``gloomtable.engine.tomlshape``, issue 29
row 1): it lets every TOML form through that a deck, translation or lesson may use,
and refuses long dotted keys, many keys and deep nesting with the line, before
``tomllib`` spends quadratic time on them (docs/security.md, "Bounded parsing")."""

from __future__ import annotations

import time
import tomllib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest

from gloomtable.engine.textdata import TextDataError, load_toml, set_text_limits, text_limits
from gloomtable.engine.tomlshape import ShapeError, TextLimits, check_toml_shape

SRC = Path(__file__).resolve().parents[1] / "src" / "gloomtable"

VALID = [
    'a = """x""""\nb = 1\n',
    "a = '''x''''\nb = '''\nline\n'''\n",
    'a = """\nsay "hi" and ""twice""\n"""\n',
    "a = 1979-05-27 07:32:00Z\nb = 1.5e3 # a comment\nc = 07:32:00.999\nd = -inf\ne = 0x1F\n",
    "a = [ 1,\n # a comment\n 2, ]\nb = [\n]\n",
    'a = {x.y = 1, "q.r" = [ {z = 1} ], s = "a.b.c.d.e.f.g.h.i.j"}\n',
    '[[t . "u"]]\nk = 1\n[[t . "u"]]\nk = 2\n',
    "[a]\n'b'.c = true\n\"d.e\" = 'f.g.h.i.j.k.l.m.n'\n",
    'a = "\\"quoted\\" \\u00e9"\r\nb = 2\r\n',
    "# only a comment\n\n\n",
    "",
    "a.b.c.d.e.f.g.h = 1\n",  # 8 parts: the most allowed
    "[a.b.c.d]\ne.f.g.h = 1\n",
    "a = " + "[" * 32 + "]" * 32 + "\n",
]


@pytest.mark.parametrize("text", VALID)
def test_every_toml_form_goes_through(text: str) -> None:
    assert load_toml(text) == tomllib.loads(text)


def shipped_toml() -> Iterator[Path]:
    yield from sorted(SRC.rglob("*.toml"))


def test_every_shipped_file_goes_through() -> None:
    files = list(shipped_toml())
    assert len(files) >= 10
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert load_toml(text) == tomllib.loads(text), path
    assert (resources.files("gloomtable.games.gloom.sets") / "classic.toml").is_file()


@pytest.mark.parametrize(("text", "says"), [
    ("a" + ".a" * 8 + " = 1\n", "a key of more than 8 parts at line 1"),
    ("x = 1\n[a.b.c.d.e]\nf.g.h.i = 1\n",
     "a key of more than 8 parts at line 3 (with the 5 of its table header)"),
    ("[" + "a." * 20 + "b]\n", "a key of more than 8 parts at line 1"),
    ("[[" + "a." * 20 + "b]]\n", "a key of more than 8 parts at line 1"),
    ("t = {" + "a." * 20 + "b = 1}\n", "a key of more than 8 parts at line 1"),
    ("a = [\n" + "[" * 32 + "]" * 32 + "]\n", "nested too deeply at line 2"),
    ("a = " + "{b = " * 33 + "1" + "}" * 33 + "\n", "nested too deeply at line 1"),
    ("a b c\n\nx" + ".x" * 10 + " = 1\n", "line 3 has 10 dots"),  # not TOML, then a bomb
])
def test_pathological_shapes_are_refused_with_their_line(text: str, says: str) -> None:
    with pytest.raises(TextDataError) as err:
        load_toml(text)
    assert str(err.value).startswith("not valid TOML: " + says), str(err.value)


def test_the_limits_can_be_set() -> None:
    """``set_text_limits`` (what ``gloom serve --text-max-*`` calls) holds later reads to them."""
    default = text_limits()
    try:
        set_text_limits(TextLimits(max_key_parts=3, max_keys=2, max_nesting=1))
        assert load_toml("a.b.c = 1\n") == {"a": {"b": {"c": 1}}}
        with pytest.raises(TextDataError, match="more than 3 parts at line 1"):
            load_toml("a.b.c.d = 1\n")
        with pytest.raises(TextDataError, match="more than 2 keys"):
            load_toml("a = 1\nb = 2\nc = 3\n")
        with pytest.raises(TextDataError, match="nested too deeply"):
            load_toml("a = [[1]]\n")
    finally:
        set_text_limits(default)
    with pytest.raises(ValueError, match="max_keys must be at least 1"):
        TextLimits(max_keys=0)


def test_the_bomb_is_refused_in_linear_time() -> None:
    """A 2 MB key of a million parts: refused in a fraction of a second (``tomllib``
    alone: about 1 GB at 16,000 parts)."""
    text = "a" + ".a" * 1_000_000 + " = 1\n"
    start = time.process_time()
    with pytest.raises(ShapeError):
        check_toml_shape(text, TextLimits())
    assert time.process_time() - start < 0.5
