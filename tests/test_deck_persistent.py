"""R-G19 as refined: a persistent effect holds while ANY region its card names shows.

The deck is built through the real schema; positions are arranged by moving cards
between zones and checked through the public view (draw limits, live effects).
"""

from __future__ import annotations

from tests.gloom_helpers import card, char_view, draw_limits, make_deck, pers, put_on, start

# A persistent effect kept alive by its persistent icon OR its illustration.
TWO_REGIONS = card("two-regions", points=(-5, None, None), persistent_icon=True, portrait=True,
                   persistent_requires=["persistent_icon", "portrait"],
                   effects=[pers({"draw_limit": 1})])
# Covers only the persistent icon; only the illustration; plain text plate.
ICON_COVER = card("icon-cover", persistent_icon=True)
PORTRAIT_COVER = card("portrait-cover", portrait=True)
DECK = make_deck([TWO_REGIONS, ICON_COVER, PORTRAIT_COVER], families=2, per_family=2)


def test_R_G19_effect_holds_while_any_named_region_shows_and_ends_when_all_are_covered():
    s = start(DECK)
    a = s.families[0][0]
    base = draw_limits(s)[0]
    put_on(s, a, "two-regions")
    assert draw_limits(s)[0] == base + 1
    put_on(s, a, "icon-cover")  # the persistent icon is covered, the illustration shows
    assert draw_limits(s)[0] == base + 1
    assert s.game.card_by_key["two-regions"] in char_view(s, a)["live_effects"]
    put_on(s, a, "portrait-cover")  # now both are covered: the effect ends
    assert draw_limits(s)[0] == base
    assert s.game.card_by_key["two-regions"] not in char_view(s, a)["live_effects"]


def test_R_G19_either_region_alone_keeps_the_effect():
    s = start(DECK)
    a = s.families[0][0]
    base = draw_limits(s)[0]
    put_on(s, a, "two-regions", "portrait-cover")  # illustration covered, icon shows
    assert draw_limits(s)[0] == base + 1
    put_on(s, a, "icon-cover")
    assert draw_limits(s)[0] == base
