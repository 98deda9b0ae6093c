"""The action encoding of Crazy Creatures: stable small integers (RL masks,
records) with a readable form (logs, the terminal client).

====================  ==========  ==========================================
action id             meaning     when it is legal
====================  ==========  ==========================================
``0``                 pass        no Creature in hand fits any pile (R-C5)
``1 .. 48``           play card   ``action - 1`` is the Creature's card id
``49 .. 52``          flip        the Machine of colour ``action - 49``
                                  (red, blue, green, yellow); only as the
                                  same-number decision (R-C8)
``53 .. 56``          make draw   seat ``action - 53`` draws one card from the
                                  Reserve; same-number decision, another
                                  player, Reserve not empty (R-C8)
====================  ==========  ==========================================

The space is always 57 actions, whatever the number of players, so one mask
shape fits every table. Seats are 0-based in data; readable texts say
"player N" with N = seat + 1, as people count.
"""

from __future__ import annotations

from typing import Final

from gloomtable.engine import MalformedActionError
from gloomtable.games.creatures.cards import COLOUR_KEYS, LABEL, NUM_COLOURS, NUM_CREATURES

MAX_PLAYERS: Final = 4
PASS: Final = 0
PLAY_BASE: Final = 1
FLIP_BASE: Final = PLAY_BASE + NUM_CREATURES  # 49
DRAW_BASE: Final = FLIP_BASE + NUM_COLOURS  # 53
NUM_ACTIONS: Final = DRAW_BASE + MAX_PLAYERS  # 57


def play(card: int) -> int:
    """The action that plays Creature ``card``."""
    return PLAY_BASE + card


def flip(colour: int) -> int:
    """The action that flips the Machine of ``colour`` (0 red .. 3 yellow)."""
    return FLIP_BASE + colour


def make_draw(seat: int) -> int:
    """The action that makes ``seat`` draw one card from the Reserve."""
    return DRAW_BASE + seat


def describe(action: int) -> str:
    """The readable form, e.g. ``play red 4``, ``flip blue Machine``,
    ``make player 2 draw``. Raises :class:`MalformedActionError` if out of range."""
    if action == PASS:
        return "pass"
    if PLAY_BASE <= action < FLIP_BASE:
        return f"play {LABEL[action - PLAY_BASE]}"
    if FLIP_BASE <= action < DRAW_BASE:
        return f"flip {COLOUR_KEYS[action - FLIP_BASE]} Machine"
    if DRAW_BASE <= action < NUM_ACTIONS:
        return f"make player {action - DRAW_BASE + 1} draw"
    raise MalformedActionError(f"action {action!r} is not a Crazy Creatures action "
                               f"(0..{NUM_ACTIONS - 1})")
