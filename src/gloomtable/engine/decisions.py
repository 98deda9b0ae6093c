"""The kinds of decision a state can ask a player, of every game, named once.

A ``StrEnum``: each member *is* its string (``DecisionKind.PLAY == "play"``), so
views, records and JSON carry the same text as before, while the games that ask and
the clients that read name one type that a checker and a search can follow.
"""

from __future__ import annotations

from enum import StrEnum


class DecisionKind(StrEnum):
    """What the player to move is deciding (``view["decision"]`` names one)."""

    # Both games: the turn's play (Gloom R-G11, Crazy Creatures R-C5).
    PLAY = "play"
    # Gloom setup (R-G7, R-G8, and the draft of R-H2).
    CHOOSE_FAMILY = "choose_family"
    SET_ASIDE = "set_aside"
    CHOOSE_CHARACTER = "choose_character"
    # Gloom: answer a card being played with a response (R-G20).
    RESPOND = "respond"
    # Gloom: choices an effect asks of its resolver (R-G16).
    DISCARD = "discard"
    MOVE_MODIFIER_FROM = "move_modifier_from"
    MOVE_MODIFIER_TO = "move_modifier_to"
    RETURN_MODIFIER = "return_modifier"
    REMOVE_MODIFIER = "remove_modifier"
    REVIVE = "revive"
    STEAL_FROM = "steal_from"
    SWAP_HANDS_WITH = "swap_hands_with"
    SKIP_TURN = "skip_turn"
    # Gloom: the richer card language's choices (a Character, a player, a card).
    CHOOSE_TARGET = "choose_target"
    CHOOSE_PLAYER = "choose_player"
    CHOOSE_CARD = "choose_card"
    # Crazy Creatures: flip a Machine or make another player draw (R-C8).
    SAME_NUMBER = "same_number"
    # No question is open: the game is over, or (Gloom, inside ``apply``) the engine
    # is resolving. Neither reaches a view's ``decision``.
    OVER = "over"
    RUNNING = "_running"
