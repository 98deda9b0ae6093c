"""A deck's own icons carry a glyph and translated names (issue 34, item 3):
``set.glyphs`` gives the character the table draws for each icon the deck adds, a
translation's ``[icons.<id>] name`` its name in that language; the catalogue a table
and the gallery read carries both. A glyph for an icon the deck does not add is an
error naming the field; an ``[icons]`` entry for an icon it has not, a warning."""

from __future__ import annotations

import json

import pytest

from gloomtable.designer.check_translations import translation_findings
from gloomtable.games import make_game
from gloomtable.games.catalogue import deck_catalogue
from gloomtable.games.gloom.deck import DeckError, parse_deck
from gloomtable.i18n.web import localize_catalogue
from gloomtable.server.store_decks import DeckRow
from gloomtable.server.uploads import register_row, upload_key

DECK = '''
[set]
id = "harbour"
name = "The Harbour"
icons = ["gull", "anchor"]
glyphs = { gull = "\u2655", anchor = "\u2693" }
[[families]]
id = "harbour"
name = "The Harbourmasters"
[[characters]]
id = "old-salt"
name = "The Old Salt"
family = "harbour"
[[modifiers]]
id = "fed-the-gulls"
name = "Fed the Gulls"
points = { top = -10 }
icons = { top = "gull" }
'''
SPANISH = '[icons.gull]\nname = "gaviota"\n[icons.anchor]\nname = "ancla"\n'


def test_glyphs_and_translated_names_reach_the_catalogue() -> None:
    key = upload_key("deck", DECK, {"es": SPANISH})
    register_row(DeckRow(key, "deck", "The Harbour",
                         json.dumps({"deck": DECK, "translations": {"es": SPANISH}}), "o", 1.0, 1.0))
    game = make_game("gloom", {"players": 3, "sets": ["classic", key]})
    faces = deck_catalogue(game.deck)
    assert faces["icons"] == {"gull": {"glyph": "\u2655", "name": "gull"},
                              "anchor": {"glyph": "\u2693", "name": "anchor"}}
    spanish = localize_catalogue(game, faces, "es")
    assert spanish["icons"]["gull"] == {"glyph": "\u2655", "name": "gaviota"}
    assert spanish["icons"]["anchor"]["name"] == "ancla"
    assert "icons" not in deck_catalogue(make_game("gloom", {"players": 3}).deck)  # built-in only


def test_a_glyph_for_an_icon_the_deck_does_not_add_is_an_error() -> None:
    with pytest.raises(DeckError) as err:
        parse_deck(DECK.replace('anchor = "\u2693"', 'duck = "d"'), "h.toml")
    assert any(p.startswith("set: field glyphs.duck: 'duck' is not an icon this deck adds (set.icons: "
                            "gull, anchor)") for p in err.value.problems), err.value.problems
    with pytest.raises(DeckError, match=r"glyphs\.gull"):
        parse_deck(DECK.replace('gull = "\u2655"', 'gull = "abc"'), "h.toml")


def test_an_icon_translation_for_an_icon_the_deck_has_not_is_warned_of() -> None:
    deck = parse_deck(DECK, "h.toml")
    found = translation_findings(deck, "es", {"icons": {"gul": {"name": "x"}, "gull": {"nmae": "y"}}},
                                 "h.es.toml")
    lines = [f.line() for f in found]
    assert any("[icons.gul]: field id: the deck has no icon of its own 'gul'" in x and "'gull'" in x
               for x in lines), lines
    assert any("[icons.gull]: field nmae: no reader looks at 'nmae'" in x for x in lines), lines
