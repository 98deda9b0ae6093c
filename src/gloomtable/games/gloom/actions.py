"""The Gloom action space: every decision is one stable small integer.

Layout (N = cards in the deck, C = Characters, F = families)::

    0                    PASS  (a pass play, or declining a response)
    1                    DISCARD_HAND  (2nd edition play)
    2 .. 2+F             CHOOSE_FAMILY f  (setup, R-G7)
    .. +MAX_PLAYERS      CHOOSE_PLAYER p  (effects that name a player)
    .. +N                CHOOSE_CARD c    (effects, set-aside; a Character, a Modifier or a hand card)
    .. +N                RESPOND c        (play response card c, R-G20)
    .. +N                DISCARD_ONE c    (1st edition play, R-G12)
    .. +N                PLAY_EVENT c
    .. +N*T              PLAY c ON target slot t (Modifiers and Untimely Deaths; the
                         targets are the Characters, then the Guests)
    .. +N                CLAIM_STORY c  (R-H5)

Ids depend only on the deck, never on the state, so RL masks stay aligned.
"""

from __future__ import annotations

from enum import IntEnum
from functools import lru_cache
from typing import Final, NamedTuple

MAX_PLAYERS = 8


class Kind(IntEnum):
    PASS = 0
    DISCARD_HAND = 1
    CHOOSE_FAMILY = 2
    CHOOSE_PLAYER = 3
    CHOOSE_CARD = 4
    RESPOND = 5
    DISCARD_ONE = 6
    PLAY_EVENT = 7
    PLAY = 8
    CLAIM_STORY = 9


class Decoded(NamedTuple):
    kind: Kind
    card: int = -1
    target: int = -1  # a Character card index for PLAY
    index: int = -1  # type: ignore[assignment]  # family or player index (shadows tuple.index)


class Codec:
    """Encodes and decodes actions for one deck."""

    PASS: Final = 0
    DISCARD_HAND: Final = 1

    def __init__(self, num_cards: int, characters: list[int], num_families: int) -> None:
        """``characters`` are the play targets: the Characters, then any Guests."""
        self.num_cards = num_cards
        self.characters = characters
        self.char_slot = {c: i for i, c in enumerate(characters)}
        self.num_families = num_families
        self.family_base = 2
        self.player_base = self.family_base + num_families
        self.card_base = self.player_base + MAX_PLAYERS
        self.respond_base = self.card_base + num_cards
        self.discard_one_base = self.respond_base + num_cards
        self.event_base = self.discard_one_base + num_cards
        self.play_base = self.event_base + num_cards
        self.claim_base = self.play_base + num_cards * len(characters)
        self.size = self.claim_base + num_cards
        width = len(characters)
        self.all_plays = [tuple(range(self.play_base + c * width, self.play_base + (c + 1) * width))
                          for c in range(num_cards)]
        """For each card, its play ids on every target slot."""
        self.decoded = tuple([self._decode(a) for a in range(self.size)])
        """What every action id means, worked out once: ids never change for a deck, and
        a tuple made up front is shared by every thread without a lock."""
        self.moves: tuple[tuple[Kind, int, int], ...] = tuple([(d[0], d[1], d[2]) for d in self.decoded])
        """``decoded`` as plain (kind, card, target) tuples, for the play's hot path: Python
        3.11 unpacks a plain tuple at once, a named tuple through an iterator."""

    def choose_family(self, f: int) -> int:
        return self.family_base + f

    def choose_player(self, p: int) -> int:
        return self.player_base + p

    def choose_card(self, c: int) -> int:
        return self.card_base + c

    def respond(self, c: int) -> int:
        return self.respond_base + c

    def discard_one(self, c: int) -> int:
        return self.discard_one_base + c

    def play_event(self, c: int) -> int:
        return self.event_base + c

    def play(self, c: int, character: int) -> int:
        return self.play_base + c * len(self.characters) + self.char_slot[character]

    def claim_story(self, c: int) -> int:
        return self.claim_base + c

    def chosen_card(self, action: int) -> int:
        return action - self.card_base

    def chosen_player(self, action: int) -> int:
        return action - self.player_base

    def decode(self, a: int) -> Decoded:
        """What action ``a`` means."""
        if 0 <= a < self.size:
            return self.decoded[a]
        return self._decode(a)

    def _decode(self, a: int) -> Decoded:
        if a == 0:
            return Decoded(Kind.PASS)
        if a == 1:
            return Decoded(Kind.DISCARD_HAND)
        if a < self.player_base:
            return Decoded(Kind.CHOOSE_FAMILY, index=a - self.family_base)
        if a < self.card_base:
            return Decoded(Kind.CHOOSE_PLAYER, index=a - self.player_base)
        if a < self.respond_base:
            return Decoded(Kind.CHOOSE_CARD, card=a - self.card_base)
        if a < self.discard_one_base:
            return Decoded(Kind.RESPOND, card=a - self.respond_base)
        if a < self.event_base:
            return Decoded(Kind.DISCARD_ONE, card=a - self.discard_one_base)
        if a < self.play_base:
            return Decoded(Kind.PLAY_EVENT, card=a - self.event_base)
        if a >= self.claim_base:
            return Decoded(Kind.CLAIM_STORY, card=a - self.claim_base)
        card, slot = divmod(a - self.play_base, len(self.characters))
        return Decoded(Kind.PLAY, card=card, target=self.characters[slot])


@lru_cache(maxsize=64)
def codec_for(num_cards: int, targets: tuple[int, ...], num_families: int) -> Codec:
    """The codec of a deck's numbers, made once and shared by every game of that deck: it
    works out what each of its (thousands of) ids means up front, which was most of the
    time a game took to make (a table made, resumed or taken over, a replay), and it
    never changes after."""
    return Codec(num_cards, list(targets), num_families)
