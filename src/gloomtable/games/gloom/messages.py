"""Every line a Gloom game (classic and Gloomier) tells, as catalogue messages.

Placeholders and the values an event passes for them: ``p``, ``q``, ``r`` seats
(0-based), ``card``, ``card2``, ``char``, ``char2`` card indices, ``n`` a count,
``family`` a family's index in the deck, ``freeplay`` a free play's kind (``any``,
``untimely_death``, ``modifier``, ``event``), ``scores`` the Family Values and
``names`` the winners' seats (tuples). ``gloomtable.games.gloom.hooks.text`` says each in
the reader's language.
"""

from __future__ import annotations

from gloomtable.engine.messages import Msg


def _m(msgid: str, plural: str | None = None, **kw: object) -> Msg:
    return Msg("gloom", msgid, plural, **kw)  # type: ignore[arg-type]


RESHUFFLE = _m("The discard pile is shuffled into a new draw pile.")
DRAW = _m("Player {p} draws {card}.")
DRAW_HIDDEN = _m("Player {p} draws a card.")
DISCARD = _m("Player {p} discards {card}.")
FREE_PLAY = _m("Player {p} gains a free play ({freeplay}).")
MOVE = _m("{card} moves from {char} to {char2}.", subject="char2")
RETURN = _m("{card} leaves {char} for player {q}'s hand.", subject="char")
REMOVE = _m("{card} is stripped from {char}.", subject="char")
REVIVE = _m("{char} returns from the grave.", subject="char", gendered=True)
STEAL = _m("Player {p} takes {card} from player {q}.")
STEAL_HIDDEN = _m("Player {p} takes a card from player {q}.")
SWAP = _m("Players {p} and {q} swap hands.")
SKIP = _m("Player {p} will skip their next turn.")
FAMILY = _m("Player {p} takes the family {family}.")
SET_ASIDE = _m("Player {p} sets {card} aside.", subject="card")
SET_ASIDE_FAMILY = _m("Player {p} takes the set-aside Characters as their family.")
CAP = _m("The table's cap of {n} turn is reached: the game ends and is scored as it stands.",
         "The table's cap of {n} turns is reached: the game ends and is scored as it stands.")
SKIPPED = _m("Player {p} skips this turn.")
TURN = _m("Turn {n}: player {p} plays.")
PASS = _m("Player {p} passes.")
FORGO = _m("Player {p} forgoes their free plays.")
DISCARD_HAND = _m("Player {p} discards their hand ({n} card).",
                  "Player {p} discards their hand ({n} cards).")
PLAY_ON = _m("Player {p} plays {card} on {char}.", subject="char")
PLAY = _m("Player {p} plays {card}.")
LET_STAND = _m("Player {p} lets it stand.")
RESPONSE = _m("Player {p} answers with {card}: {card2} is cancelled.")
DEATH = _m("{char} dies: {card}.", subject="char", gendered=True)
GAME_OVER = _m("The game is over. Family Values: {scores}. Winner: {names}.",
               "The game is over. Family Values: {scores}. Winners: {names}.", count="names")
# Gloomier (R-H2, R-H5, R-H7)
CHOOSE = _m("Player {p} chooses {card}.", subject="card")
GUEST_WAITS = _m("Guest {card} waits in the middle.", subject="card", gendered=True)
STORY_WAITS = _m("Story {card} waits in the middle.")
STORY_RETURNED = _m("{card} returns to the middle.")
CLAIM_FROM = _m("Player {p} claims the Story {card} from player {q}.")
CLAIM = _m("Player {p} claims the Story {card}.")
FOLLOW_FROM_MIDDLE = _m("{card} follows {card2} from the middle to player {q}'s family.")
FOLLOW = _m("{card} follows {card2} from player {q}'s family to player {r}'s family.")
# The richer card language (docs/decks.md)
CHANGE_FAMILY = _m("{char} joins player {q}'s family.", subject="char", gendered=True)
MOVE_STACK = _m("The Modifiers on {char} move onto {char2}.", subject="char2")
LOOK_HAND = _m("Player {p} sees {card} in player {q}'s hand.")
LOOK_HAND_HIDDEN = _m("Player {p} looks at a card in player {q}'s hand.")
LOOK_PILE = _m("Player {p} sees {card} on the draw pile.")
LOOK_PILE_HIDDEN = _m("Player {p} looks at a card on the draw pile.")
TAKE_BACK = _m("Player {p} takes {card} back from the discard pile.")
GIVE = _m("Player {p} gives {card} to player {q}.")
GIVE_HIDDEN = _m("Player {p} gives a card to player {q}.")
EXTRA_TURN = _m("Player {p} will take another turn after this one.")
REVERSE = _m("Player {p} reverses the turn order.")
