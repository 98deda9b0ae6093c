"""Issue 23: a Character's grammatical gender is deck data (optional, masculine when unset),
so Spanish and Russian lines about a Character can agree with it."""

from __future__ import annotations

from pathlib import Path

import pytest

from gloomtable.games.gloom.cards import Card, CardType
from gloomtable.games.gloom.deck import DeckError, load_deck


def _by_key(deck_name: str) -> dict[str, Card]:
    return {c.key: c for c in load_deck(deck_name).cards}


def test_shipped_characters_and_guests_say_their_gender() -> None:
    classic, gloomier = _by_key("classic"), _by_key("gloomier")
    assert classic["professor-helena-slogar"].gender == "feminine"
    assert classic["lord-slogar"].gender == "masculine"
    assert classic["percival-and-prudence"].gender == "plural"
    assert gloomier["mrs-tattersall-whisk"].gender == "feminine"  # a Guest (back side)
    assert gloomier["the-poisoned-port"].gender is None  # a Story has none
    for deck in (classic, gloomier):
        for card in deck.values():
            if card.type in (CardType.CHARACTER, CardType.GUEST):
                assert card.gender in ("feminine", "masculine", "plural"), card


def _deck_without_genders(tmp_path: Path, gender_line: str = "") -> Path:
    src = (Path(__file__).parents[1] / "src/gloomtable/games/gloom/sets/classic.toml").read_text(
        encoding="utf-8")
    src = "\n".join(line for line in src.split("\n") if not line.startswith("gender = "))
    src = src.replace('id = "lord-slogar"\n', f'id = "lord-slogar"\n{gender_line}', 1)
    path = tmp_path / "no_genders.toml"
    path.write_text(src.replace('id = "classic"', 'id = "no-genders"', 1), encoding="utf-8")
    return path


def test_gender_is_optional(tmp_path: Path) -> None:
    deck = load_deck(_deck_without_genders(tmp_path))
    assert all(c.gender is None for c in deck.cards)


def test_an_unknown_gender_is_refused_with_its_place(tmp_path: Path) -> None:
    with pytest.raises(DeckError) as info:
        load_deck(_deck_without_genders(tmp_path, 'gender = "neuter"\n'))
    assert "gender" in str(info.value)


@pytest.mark.parametrize(("lang", "woman", "man"), [("es", "(Invitada)", "(Invitado)"),
                                                    ("ru", "(Гостья)", "(Гость)")])
def test_a_guests_mark_agrees_with_the_guest(lang: str, woman: str, man: str) -> None:
    """Issue 32: a woman Guest on the terminal table was marked "(Invitado)" / "(Гость)"."""
    from gloomtable.games import make_game
    from gloomtable.games.gloom.hooks.text import GloomLocalizer
    from gloomtable.i18n.catalog import translator

    game = make_game("gloomier", {"players": 3})
    loc = GloomLocalizer(game, translator(lang))
    guests = [c for c in game.deck.cards if c.type.value == "guest"]
    for gender, mark in (("feminine", woman), ("masculine", man)):
        card = next(c for c in guests if c.gender == gender)
        line = loc._character_lines({"card": card.index, "guest": True, "dead": False, "icons": [],
                                     "self_worth": 0, "points": [None, None, None], "stack": [card.index],
                                     "live_effects": []})  # type: ignore[typeddict-item]
        assert mark in line, line
