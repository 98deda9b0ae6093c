"""``gloom deck check``: one test per error and warning class, each on a small deck file.

Errors mean the deck cannot be played as written; warnings that it can, but will
likely go wrong. Every finding names the file, the card (or the deck's table) and
the field, and says what to change; ``--strict`` turns warnings into errors.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cli_support import gloom
from gloomtable.designer.check import Finding, check_decks
from gloomtable.games.gloom.deck import DeckError, load_deck


def deck_text(families: tuple[int, ...] = (3, 3), negatives: int = 8, positives: int = 2,
              deaths: int = 5, extra: str = "", backs: dict[int, str] | None = None,
              icons: str = "") -> str:
    """A small deck file, free of findings with the defaults: 2 families of 3,
    8 Modifiers sinking a Character, 2 lifting one, an Event and 5 Deaths."""
    out = [f'[set]\nid = "small"\nname = "Small"\n{icons}\n']
    for f in range(len(families)):
        out.append(f'[[families]]\nid = "fam{f}"\nname = "Family {f}"\n')
    k = 0
    for f, size in enumerate(families):
        for _ in range(size):
            out.append(f'[[characters]]\nid = "c{k}"\nname = "Character {k}"\nfamily = "fam{f}"\n')
            if backs and k in backs:
                out.append(backs[k])
            k += 1
    for i in range(negatives):
        slot = ("top", "middle", "bottom")[i % 3]
        out.append(f'[[modifiers]]\nid = "neg{i}"\nname = "Sank {i}"\npoints = {{ {slot} = -10 }}\n')
    for i in range(positives):
        out.append(f'[[modifiers]]\nid = "pos{i}"\nname = "Rose {i}"\npoints = {{ middle = 10 }}\n')
    out.append('[[events]]\nid = "ev"\nname = "News"\ntext = "Draw a card."\n'
               'effects = [ { when = "immediate", do = [ { draw = 1 } ] } ]\n')
    for i in range(deaths):
        out.append(f'[[untimely_deaths]]\nid = "death{i}"\nname = "Death {i}"\n')
    out.append(extra)
    return "\n".join(out)


def write(tmp_path: Path, text: str, name: str = "small.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def findings(path: Path) -> list[Finding]:
    return check_decks([load_deck(path)])


def only(found: list[Finding], code: str) -> Finding:
    hits = [f for f in found if f.code == code]
    assert len(hits) == 1, [f.line() for f in found]
    return hits[0]


def check_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return gloom("deck", "check", *args)


def test_the_small_deck_and_the_shipped_sets_have_no_findings(tmp_path: Path) -> None:
    assert findings(write(tmp_path, deck_text())) == []
    for shipped in (["classic"], ["gloomier"], ["classic", "gloomier"]):
        assert check_decks([load_deck(s) for s in shipped]) == []


# --- errors the deck file cannot even be loaded with (R-G19) ------------------------------


def test_error_persistent_effect_with_nothing_to_keep_it_alive(tmp_path: Path) -> None:
    """R-G19: the default region is the persistent icon, which this card does not print."""
    path = write(tmp_path, deck_text(extra=(
        '[[modifiers]]\nid = "ghost-limit"\nname = "Ghost Limit"\ntext = "Draw limit +1."\n'
        'effects = [ { when = "persistent", do = [ { draw_limit = 1 } ] } ]\n')))
    with pytest.raises(DeckError) as exc:
        load_deck(path)
    (problem,) = exc.value.problems
    assert "modifiers[10] (id 'ghost-limit')" in problem
    assert "field persistent_requires" in problem and "nothing to keep it alive" in problem
    assert "persistent_icon = true" in problem  # what to change
    proc = check_cli(str(path))
    assert proc.returncode == 1
    assert f"{path}: modifiers[10] (id 'ghost-limit'): field persistent_requires" in proc.stderr


def test_error_listed_region_the_card_does_not_print(tmp_path: Path) -> None:
    """R-G19: ``portrait`` is listed, but the card prints no portrait."""
    path = write(tmp_path, deck_text(extra=(
        '[[modifiers]]\nid = "half-kept"\nname = "Half Kept"\npersistent_icon = true\n'
        'persistent_requires = ["persistent_icon", "portrait"]\ntext = "Draw limit +1."\n'
        'effects = [ { when = "persistent", do = [ { draw_limit = 1 } ] } ]\n')))
    with pytest.raises(DeckError) as exc:
        load_deck(path)
    (problem,) = exc.value.problems
    assert "modifiers[10] (id 'half-kept'): field persistent_requires" in problem
    assert "'portrait', a region the card does not print" in problem
    assert "portrait = true" in problem
    fixed = path.read_text().replace('persistent_icon = true\n', 'persistent_icon = true\nportrait = true\n')
    assert findings(write(tmp_path, fixed, "fixed.toml")) == []


# --- errors found in the deck as a whole ---------------------------------------------------


def test_error_story_whose_requirement_no_card_can_meet(tmp_path: Path) -> None:
    """R-H5: three lanterns needed, and one Modifier in the deck prints a lantern."""
    story = ('[characters.back]\ntype = "story"\nid = "lantern-tale"\nname = "The Lantern Tale"\n'
             'requires = { lantern = 3 }\ntext = "Draw limit +1."\n'
             'effects = [ { when = "continuous", do = [ { draw_limit = 1 } ] } ]\n')
    lantern = '[[modifiers]]\nid = "lit"\nname = "Lit"\nicons = { top = "lantern" }\n'
    path = write(tmp_path, deck_text(families=(8,), negatives=9, deaths=7, backs={7: story},
                                     extra=lantern, icons='icons = ["lantern"]'))
    f = only(findings(path), "story-unreachable")
    assert f.severity == "error" and f.source == str(path)
    assert f.where == "characters[7] (id 'c7'), its back (id 'lantern-tale')"
    assert f.field == "requires.lantern"
    assert "at most 1" in f.message and "lower it to 1 or fewer" in f.message


def test_error_response_that_can_answer_nothing(tmp_path: Path) -> None:
    """R-G20: a response cancelling Events, in a deck whose only Event is itself."""
    text = deck_text().replace(
        'text = "Draw a card."\neffects = [ { when = "immediate", do = [ { draw = 1 } ] } ]',
        'text = "Cancel an Event."\neffects = [ { when = "response", do = [ { cancel = "event" } ] } ]')
    f = only(findings(write(tmp_path, text)), "response-answers-nothing")
    assert f.severity == "error"
    assert (f.where, f.field) == ("events[0] (id 'ev')", "effects[0].do (cancel = 'event')")
    assert "can never be played" in f.message and "check the mix" in f.message


def test_error_no_character_can_go_below_zero(tmp_path: Path) -> None:
    """R-G11: a Death needs a Character below zero; no Modifier prints negative points."""
    f = only(findings(write(tmp_path, deck_text(negatives=0, positives=6))), "never-below-zero")
    assert f.severity == "error" and (f.where, f.field) == ("[[modifiers]]", "points")
    assert "give some Modifiers negative points" in f.message


def test_error_too_few_deaths_for_any_game_to_end(tmp_path: Path) -> None:
    """R-G24: families of 3 and two Deaths: no family can ever be all dead."""
    f = only(findings(write(tmp_path, deck_text(deaths=2))), "cannot-end")
    assert f.severity == "error" and f.field == "count"
    assert "add at least 1" in f.message


def test_warning_deck_that_seats_no_table_alone(tmp_path: Path) -> None:
    """R-G7, R-H10: one family cannot seat two players taking whole families; it
    can still be mixed with another set, so this is a warning."""
    path = write(tmp_path, deck_text(families=(5,)))
    f = only(findings(path), "no-table")
    assert f.severity == "warning" and "meant only to be mixed" in f.message
    assert check_decks([load_deck("classic"), load_deck(path)]) == []


# --- warnings -----------------------------------------------------------------------------


def test_warning_fewer_deaths_than_a_game_can_take(tmp_path: Path) -> None:
    """R-G24: 6 Characters in 2 families can take 5 Deaths before one family is all dead."""
    f = only(findings(write(tmp_path, deck_text(deaths=4))), "too-few-deaths")
    assert f.severity == "warning"
    assert (f.where, f.field) == ("[[untimely_deaths]]", "count")
    assert "up to 5" in f.message and "add 1 more" in f.message


def test_warning_families_of_unequal_size(tmp_path: Path) -> None:
    f = only(findings(write(tmp_path, deck_text(families=(3, 4), deaths=6))), "unequal-families")
    assert f.severity == "warning" and f.field == "characters"
    assert "'fam0' has 3 Characters and 'fam1' has 4" in f.message


def test_warning_self_worth_range_a_family_cannot_reach_below_zero(tmp_path: Path) -> None:
    f = only(findings(write(tmp_path, deck_text(negatives=4))), "self-worth-range")
    assert f.severity == "warning" and (f.where, f.field) == ("[[modifiers]]", "points")
    assert "only 4 Modifiers print negative points, for 6 Characters" in f.message


# --- the command ---------------------------------------------------------------------------


def test_check_separates_errors_from_warnings_and_strict_fails_on_warnings(tmp_path: Path) -> None:
    path = write(tmp_path, deck_text(deaths=4))
    proc = check_cli(str(path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"warning: {path}: [[untimely_deaths]]: field count: 4 Untimely Deaths" in proc.stdout
    assert "0 error(s), 1 warning(s)" in proc.stdout
    strict = check_cli("--strict", str(path))
    assert strict.returncode == 1
    assert "--strict: warnings count as errors" in strict.stdout
    broken = write(tmp_path, deck_text(deaths=2), "broken.toml")
    proc = check_cli(str(broken))
    assert proc.returncode == 1
    assert f"error: {broken}: [[untimely_deaths]]: field count:" in proc.stdout


@pytest.mark.parametrize(("step", "field", "does"), [
    ('{ if_icon = "gull", do = [ { draw = 2 } ] }', "effects[0].do[0] (if_icon = 'gull')", "happen"),
    ('{ draw_per_icon = "gull" }', "effects[0].do[0] (draw_per_icon = 'gull')", "draw a card"),
])
def test_warning_a_step_waits_for_an_icon_no_card_prints(tmp_path: Path, step: str, field: str,
                                                         does: str) -> None:
    """R-G21: a condition on an icon the deck never prints can never be met."""
    path = write(tmp_path, deck_text(icons='icons = ["gull"]', extra=(
        '[[events]]\nid = "gulls"\nname = "Gulls"\ntext = "Gulls."\n'
        f'effects = [ {{ when = "immediate", do = [ {step} ] }} ]\n')))
    hit = only(findings(path), "icon-never-shows")
    assert hit.severity == "warning"
    line = hit.line()
    assert "events[1] (id 'gulls')" in line and field in line
    assert f"so it can never {does}" in line and "add cards printing 'gull'" in line
    # once a card prints the icon, the warning goes
    printed = write(tmp_path, deck_text(icons='icons = ["gull"]', extra=(
        '[[events]]\nid = "gulls"\nname = "Gulls"\ntext = "Gulls."\n'
        f'effects = [ {{ when = "immediate", do = [ {step} ] }} ]\n'
        '[[modifiers]]\nid = "gull-mod"\nname = "Fed the Gulls"\nicons = { top = "gull" }\n')),
        "printed.toml")
    assert not [f for f in findings(printed) if f.code == "icon-never-shows"]


def test_warning_unequal_families_say_what_setup_deals_at_each_table_size(tmp_path: Path) -> None:
    """R-G7, R-G8: at 4 and 5 players each family sets one Character aside, so families of
    4 and 5 are dealt as 3 and 4; the warning says so."""
    text = deck_text(families=(4, 5, 5, 5), negatives=20, deaths=18)
    f = only(findings(write(tmp_path, text)), "unequal-families")
    assert "'fam0' has 4 Characters and 'fam1' has 5" in f.message
    assert "2 players 4 to 5" in f.message and "4 players 3 to 4" in f.message
