"""A Crazy Creatures set's problems read as a Gloom deck's do (issue 34, item 3): a
count of problems over one line each, naming the file, the entry (its index and its
key or value, as a Gloom card's id), the field and what is wrong, a misspelt field
called unknown; one set file per mistake, through ``gloom deck check`` (run in this
process, tests/cli_support.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_support import gloom
from gloomtable.games.creatures.cards import CreatureSetError, parse_set_text

ZOO = (Path(__file__).resolve().parents[1] / "examples" / "night-zoo.toml").read_text()


@pytest.mark.parametrize(("old", "new", "says"), [
    ('copies = 2', 'copies = 9', "zoo.toml: field copies: Input should be less than or equal to 4"),
    ('copies = 2', 'copies = "2"', "zoo.toml: field copies: Input should be a valid integer"),
    ('creature = "Emberwolf"', 'creature = 7', "zoo.toml: colours[0] (key 'red'): field creature: "
     "Input should be a valid string"),
    ('creature = "Moonsquid"', 'creatur = "Moonsquid"', "zoo.toml: colours[1] (key 'blue'): field creatur: "
     "unknown field (check the spelling)"),
    ('penalty = 3', 'penalty = "3"', "zoo.toml: numbers[1] (value 2): field penalty: Input should be a valid "
     "integer"),
    ('copies = 2', 'copies = 3', "zoo.toml: field copies: colours x numbers x copies must make 48 Creatures, "
     "got 4 x 6 x 3 = 72"),
    ('name = "Swelling Lamp"', 'nmae = "Swelling Lamp"', "zoo.toml: field machine.plus.nmae: unknown field"),
])
def test_each_mistake_is_told_as_a_gloom_decks_are(tmp_path: Path, old: str, new: str, says: str) -> None:
    assert old in ZOO
    bad = ZOO.replace(old, new, 1)
    with pytest.raises(CreatureSetError) as err:
        parse_set_text(bad, "zoo.toml")
    assert err.value.problems and str(err.value).startswith(
        f"{len(err.value.problems)} problem(s) in Crazy Creatures set zoo.toml:\n"), str(err.value)
    assert says in str(err.value), str(err.value)
    path = tmp_path / "zoo.toml"
    path.write_text(bad)
    done = gloom("deck", "check", str(path))
    assert done.returncode == 1
    assert says.replace("zoo.toml", str(path)) in done.stdout + done.stderr, done.stdout + done.stderr
