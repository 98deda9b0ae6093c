"""``gloom deck check`` reads a deck's translation files too (issue 34, item 3): a
translation that names a card or family its deck has not, misspells a key, or has a
table no reader looks at gets a warning naming the file, the table and the key, with
the nearest right name; a translation that is not TOML is an error. The shipped
sets' own translations pass clean."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cli_support import gloom

DECK = '''
[set]
id = "harbour"
name = "The Harbour"
[[families]]
id = "harbour"
name = "The Harbourmasters"
[[characters]]
id = "old-salt"
name = "The Old Salt"
family = "harbour"
[[characters]]
id = "net-mender"
name = "The Net Mender"
family = "harbour"
[[characters]]
id = "gull-keeper"
name = "The Gull Keeper"
family = "harbour"
[[characters]]
id = "tide-clerk"
name = "The Tide Clerk"
family = "harbour"
[[characters]]
id = "lamp-boy"
name = "The Lamp Boy"
family = "harbour"
[[modifiers]]
id = "fell-off-the-pier"
name = "Fell off the Pier"
points = { top = -15 }
'''


def check(tmp_path: Path, translation: str | None, *extra: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "harbour.toml").write_text(DECK)
    if translation is not None:
        (tmp_path / "harbour.es.toml").write_text(translation)
    # mixed with the classic set, as it is meant to be played: the deck alone seats no table
    return gloom("deck", "check", f"classic,{tmp_path / 'harbour.toml'}", *extra)


@pytest.mark.parametrize(("translation", "says"), [
    ('[cards.fell-of-the-pier]\nname = "Se cayó"\n',
     "harbour.es.toml: [cards.fell-of-the-pier]: field id: the deck has no card 'fell-of-the-pier', so "
     "this es text never shows (did you mean 'fell-off-the-pier'?)"),
    ('[cards.fell-off-the-pier]\nnmae = "Se cayó"\n',
     "harbour.es.toml: [cards.fell-off-the-pier]: field nmae: no reader looks at 'nmae' here; the keys "
     "are name, text, flavour, gender, cases (did you mean 'name'?)"),
    ('[families.harbor]\nname = "Los del puerto"\n',
     "[families.harbor]: field id: the deck has no family 'harbor'"),
    ('[icons.gull]\nname = "gaviota"\n',
     "harbour.es.toml: [icons.gull]: field id: the deck has no icon of its own 'gull', so this es text "
     "never shows"),
    ('[deaths.x]\nname = "x"\n',
     "harbour.es.toml: [deaths]: field deaths: no such table in a Gloom translation; its tables are set, "
     "families, cards, icons"),
    ('[set]\nnmae = "El Puerto"\n', "[set]: field nmae: no reader looks at 'nmae'"),
])
def test_each_translation_mistake_gets_its_warning(tmp_path: Path, translation: str, says: str) -> None:
    done = check(tmp_path, translation)
    assert done.returncode == 0, done.stdout + done.stderr
    assert says in done.stdout, done.stdout
    assert "0 error(s), 1 warning(s)" in done.stdout, done.stdout
    assert check(tmp_path, translation, "--strict").returncode == 1  # --strict fails on it


def test_a_translation_that_is_not_toml_is_an_error(tmp_path: Path) -> None:
    done = check(tmp_path, "[cards\nname = 1\n")
    out = done.stdout.replace(str(tmp_path) + "/", "")
    assert done.returncode == 1 and "error: harbour.es.toml" in out, out


def test_a_right_translation_and_the_shipped_sets_pass_clean(tmp_path: Path) -> None:
    good = ('[set]\nname = "El Puerto"\n[families.harbour]\nname = "Los del puerto"\n'
            '[cards.fell-off-the-pier]\nname = "Se cayó del muelle"\nname_plural = "Se cayeron"\n')
    done = check(tmp_path, good)
    assert done.returncode == 0 and "0 error(s), 0 warning(s)" in done.stdout, done.stdout
    shipped = gloom("deck", "check", "--strict", "classic,gloomier")
    assert shipped.returncode == 0 and "0 error(s), 0 warning(s)" in shipped.stdout, shipped.stdout
