"""docs/decks.md: its worked example deck (Character, continuous Modifier,
response Event, Guest, Story) is valid and mixes with the classic set; its
table lists every registered effect primitive."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from gloomtable.cli.main import app
from gloomtable.designer.guide import describe, primitive_table
from gloomtable.games.gloom.effects import PRIMITIVES
from gloomtable.simulate import simulate

DOC = (Path(__file__).resolve().parents[1] / "docs" / "decks.md").read_text(encoding="utf-8")


def mirewood() -> str:
    parts = [b.split("```", 1)[0] for b in DOC.split("```toml\n")[1:]]
    return "".join(p for p in parts if p.startswith("# mirewood.toml\n"))


def test_the_worked_example_parts_make_a_valid_deck(tmp_path: Path) -> None:
    text = mirewood()
    for part in ("[set]", "[characters.back]", 'type = "guest"', 'type = "story"',
                 'when = "continuous"', 'when = "response"', "[[untimely_deaths]]"):
        assert part in text, part
    path = tmp_path / "mirewood.toml"
    path.write_text(text, encoding="utf-8")
    checked = CliRunner().invoke(app, ["deck", "check", str(path)])
    assert checked.exit_code == 0, checked.stderr
    for line in ("guests: 1", "stories: 1", "Mirewood Manor: 5 Characters"):
        assert line in checked.stdout


def test_the_worked_example_mixes_with_the_classic_set(tmp_path: Path) -> None:
    """R-H10: five players, four classic families and Mirewood; games finish."""
    path = tmp_path / "mirewood.toml"
    path.write_text(mirewood(), encoding="utf-8")
    report = simulate("gloom", {"players": 5, "sets": ["classic", str(path)]}, 3, 1)
    assert report.games == 3


def test_the_primitive_table_lists_every_registered_primitive() -> None:
    missing = [name for name in PRIMITIVES if f"| `{name}` |" not in DOC]
    assert not missing, (f"docs/decks.md lacks {missing}: paste the output of "
                         "`python -m gloomtable.designer.guide` over its table")
    assert primitive_table().count("\n") == len(PRIMITIVES) + 1


def test_parameters_are_described_in_a_designers_words() -> None:
    assert describe({"type": "integer", "minimum": 1, "maximum": 10}) == "1..10"
    assert describe({"enum": ["you", "other"], "type": "string"}) == '"you" or "other"'
    assert describe({"type": "object", "required": ["icon"], "properties": {
        "icon": {"type": "string"}, "n": {"type": "integer", "minimum": -3, "maximum": 3, "default": 1}}}
    ) == "{ icon = text, n = -3..3 (default 1) }"
