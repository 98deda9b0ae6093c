"""``gloom deck check`` and ``gloom deck schema``: the shipped set passes; broken
copies fail with a message naming the file, the card and the field."""

from __future__ import annotations

import json
import subprocess
from importlib import resources
from pathlib import Path

import pytest

from cli_support import gloom

CLASSIC = resources.files("gloomtable.games.gloom.sets").joinpath("classic.toml").read_text()


def check(path: str) -> subprocess.CompletedProcess[str]:
    return gloom("deck", "check", path)


def test_shipped_set_passes_with_counts_and_families() -> None:
    """R-G1/R-G2: the classic set's counts and families, read from its data."""
    proc = check("classic")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for line in ("characters: 20", "modifiers: 57", "events: 11", "untimely deaths: 20", "families: 4"):
        assert line in out
    for fam in ("Castle Slogar", "Hemlock Hall", "Blackwater Watch", "Dark's Dismal Circus"):
        assert f"{fam}: 5 Characters" in out


def first_card_id(table: str) -> str:
    start = CLASSIC.index(f"[[{table}]]")
    line = next(ln for ln in CLASSIC[start:].splitlines() if ln.startswith("id = "))
    return line.split('"')[1]


def break_first(table: str, old_line_start: str, new_line: str) -> str:
    """Replace the first line starting with ``old_line_start`` after ``[[table]]``."""
    start = CLASSIC.index(f"[[{table}]]")
    lines = CLASSIC[start:].splitlines(keepends=True)
    for i, ln in enumerate(lines):
        if ln.startswith(old_line_start):
            lines[i] = new_line + "\n"
            return CLASSIC[:start] + "".join(lines)
    raise AssertionError(f"no line {old_line_start!r} in {table}")


def append_card(extra: str) -> str:
    return CLASSIC + "\n" + extra


BROKEN = [
    ("unknown-primitive", append_card(
        '[[events]]\nid = "odd-event"\nname = "Odd"\n'
        'effects = [ { when = "immediate", do = [ { drwa = 2 } ] } ]\n'),
     ["events[11] (id 'odd-event')", "effects[0].do[0]", "unknown effect primitive 'drwa'"]),
    ("unknown-icon", append_card(
        '[[modifiers]]\nid = "odd-mod"\nname = "Odd"\nicons = { top = "wombat" }\n'),
     ["modifiers[57] (id 'odd-mod')", "icons.top", "unknown icon 'wombat'"]),
    ("wrong-slot", append_card(
        '[[modifiers]]\nid = "odd-mod"\nname = "Odd"\npoints = { fourth = -5 }\n'),
     ["modifiers[57] (id 'odd-mod')", "points.fourth", "unknown field"]),
    ("duplicate-id", append_card(
        f'[[modifiers]]\nid = "{first_card_id("modifiers")}"\nname = "Twin"\npoints = {{ top = -5 }}\n'),
     [f"card id '{first_card_id('modifiers')}' is used 2 times, at modifiers[0] and modifiers[57]"]),
    ("counts", append_card('[[untimely_deaths]]\nid = "extra-death"\nname = "Extra"\n'),
     ["set.components.untimely_deaths says 20 but the deck has 21"]),
    ("bad-points", append_card(
        '[[modifiers]]\nid = "odd-mod"\nname = "Odd"\npoints = { top = "lots" }\n'),
     ["modifiers[57] (id 'odd-mod')", "points.top", "valid integer"]),
    # item 3 of the designers' issue: data is read strictly, with no coercion
    *((f"wrong-type-{i}", append_card(
        f'[[modifiers]]\nid = "odd-mod"\nname = "Odd"\n{line}\n'),
      ["modifiers[57] (id 'odd-mod')", field, kind])
      for i, (line, field, kind) in enumerate([
          ('points = { top = "-10" }', "points.top", "valid integer"),
          ("points = { top = true }", "points.top", "valid integer"),
          ("points = { top = -7.0 }", "points.top", "valid integer"),
          ('persistent_icon = "yes"', "persistent_icon", "valid boolean"),
          ("persistent_icon = 1", "persistent_icon", "valid boolean")])),
    ("unknown-family", break_first("characters", "family = ", 'family = "nowhere"'),
     ["characters[0]", "field family", "unknown family 'nowhere'"]),
    ("wrong-when", append_card(
        '[[events]]\nid = "odd-event"\nname = "Odd"\n'
        'effects = [ { when = "immediate", do = [ { cancel = "event" } ] } ]\n'),
     ["events[11] (id 'odd-event')", "primitive 'cancel' is for response effects"]),
    ("not-toml", CLASSIC + "\n[[modifiers]\n", ["not valid TOML"]),
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "text", "expected"), BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_copies_fail_naming_file_card_and_field(tmp_path: Path, name: str, text: str,
                                                         expected: list[str]) -> None:
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    proc = check(str(path))
    assert proc.returncode == 1, proc.stdout
    assert str(path) in proc.stderr
    for part in expected:
        assert part in proc.stderr, f"{part!r} not in:\n{proc.stderr}"


def test_missing_file_is_a_clear_error() -> None:
    proc = check("no/such/deck.toml")
    assert proc.returncode == 1
    assert "no such file, and not a shipped set" in proc.stderr


def test_schema_is_json_schema_naming_every_primitive() -> None:
    from gloomtable.games.gloom.effects import PRIMITIVES

    proc = gloom("deck", "schema")
    schema = json.loads(proc.stdout)
    steps = schema["$defs"]["Step"]["oneOf"]
    assert {next(iter(s["required"])) for s in steps} == set(PRIMITIVES)
    assert "modifiers" in schema["properties"]


def test_the_worked_example_in_docs_is_a_valid_deck(tmp_path: Path) -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "decks.md").read_text()
    example = doc.split("```toml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "example.toml"
    path.write_text(example)
    proc = check(str(path))
    assert proc.returncode == 0, proc.stderr
    assert "The Rainy Family: 1 Characters" in proc.stdout
