"""Every line a game of Crazy Creatures tells, as catalogue messages.

Placeholders and the values an event passes for them: ``p``, ``q`` seats (0-based),
``label`` a card's index, ``colour`` a Machine's colour index, ``side`` the side now up
(1: the Growing Machine "+", 0: the Minimalizer "-"), ``n``, ``r`` counts, ``why`` why a
round ended (``passed`` or ``final``), ``shown`` the round's scores and totals (two
tuples), ``names`` the winners' seats (a tuple). ``gloomtable.games.creatures.hooks.text``
says each in the reader's language.
"""

from __future__ import annotations

from gloomtable.engine.messages import Msg


def _m(msgid: str, plural: str | None = None, **kw: object) -> Msg:
    return Msg("creatures", msgid, plural, **kw)  # type: ignore[arg-type]


PASS = _m("Player {p} passes")
PLAY = _m("Player {p} plays {label}")
SAME_NUMBER = _m("Same number: player {p} flips a Machine or makes another player draw")
FLIP = _m("Player {p} flips the {colour} Machine to {side}")
DRAW = _m("Player {p} draws {label} from the Reserve")
DRAW_HIDDEN = _m("Player {p} makes player {q} draw from the Reserve")
OUT = _m("Player {p} has played their last card: every other player takes one final turn")
ROUND_END = _m("Round {n} ends ({why}). {shown}")
GAME_END = _m("Game over: {names} with {n} penalty point", "Game over: {names} with {n} penalty points")
ROUND_START = _m("Round {n}: player {p} starts")
CAPPED = _m("The game stops at the safety cap of {n} turn; round {r} is not scored",
            "The game stops at the safety cap of {n} turns; round {r} is not scored")
