"""Every line a game of Kuhn poker tells, as catalogue messages.

Placeholders: ``p``, ``q`` seats (0-based), ``card`` a card's rank (0 Jack, 1 Queen,
2 King), ``n`` a number of chips, ``h`` a hand's number (1-based). ``games/kuhn/parts.py``
says each in the reader's language."""

from __future__ import annotations

from gloomtable.engine.messages import Msg

GAME = "kuhn"

DEALT = Msg(GAME, "Hand {h}: player {p} is dealt {card}")
DEALT_HIDDEN = Msg(GAME, "Hand {h}: player {p} is dealt a card")
CHECK = Msg(GAME, "Player {p} checks")
BET = Msg(GAME, "Player {p} bets a chip")
CALL = Msg(GAME, "Player {p} calls")
FOLD = Msg(GAME, "Player {p} folds")
SHOW = Msg(GAME, "Player {p} shows {card}")
WIN = Msg(GAME, "Player {p} takes the pot of {n} chip", "Player {p} takes the pot of {n} chips")
GAME_END = Msg(GAME, "Game over: player {p} is ahead by {n} chip",
               "Game over: player {p} is ahead by {n} chips")
GAME_TIED = Msg(GAME, "Game over: the players are even")
