"""Determinisation: a full game state consistent with one player's view.

A search bot may not read the real state, so it samples one: everything its
view shows is copied as shown, and the cards it cannot see (other hands, the
draw pile or Reserve, set-aside cards) are the leftover cards re-dealt at
random into places of the sizes the view gives. Every sample is checked once
per decision: the sampled state's own view for that player must equal the view
the bot got, key by key. Any difference (a decision in the middle of an effect,
a rule or key this module does not know yet, such as one added with a new
expansion) makes :func:`sampler` answer ``None`` and the bot falls back on its
heuristic, so a search never plays from a wrong picture of the table.

Each game builds its own states from a view, in its own package (its registry
entry's ``determinizer``: ``games/gloom/determinize.py``,
``games/creatures/determinize.py``, Kuhn poker's ``resample``); this module only asks
and checks, so no bot writes a game's fields.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gloomtable.engine import GloomtableError, State
from gloomtable.games import registry
from gloomtable.games.views import game_for_view as game_for_view  # re-exported for the bots

Sampler = Callable[[int], State]
"""seed -> a fresh state consistent with the view the sampler was made from."""


def sampler(view: Mapping[str, Any]) -> Sampler | None:
    """A sampler for ``view`` (a seat's view at its own decision), or None when
    this position cannot be rebuilt faithfully from a view."""
    try:
        entry = registry.find(view.get("game"))
        if entry is None:
            return None
        make = entry.sampler(view)
        if make is None:
            return None
        first = make(0)
        if not _same_view(first.view(view["viewer"]), view):
            return None
    except (GloomtableError, KeyError, IndexError, TypeError, ValueError, AttributeError):
        return None
    return make


def _same_view(got: Mapping[str, Any], want: Mapping[str, Any]) -> bool:
    return got == want
