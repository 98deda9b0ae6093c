"""What a Gloom table is before play: the table options and the facts its deck declares.

The rules read these facts (which cards kill, which answer, which last) on every
action; they are worked out once per game here, below the rules and the state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cached_property, lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

import gloomtable.games.gloom.messages as M
from gloomtable.engine import ConfigError, Event, GameInfo
from gloomtable.engine.protocol import win_share_info
from gloomtable.games import registry
from gloomtable.games.gloom.actions import MAX_PLAYERS, codec_for
from gloomtable.games.gloom.cards import Card, CardType, Deck, Step, Visible, visible
from gloomtable.games.gloom.play_facts import PlayFacts
from gloomtable.games.gloom.step_hooks import CANCELS, OTHERS_LIMITS, REVERSES, RICH, TRIGGERS, TURN_DRAWS
from gloomtable.games.gloom.tasks import new

ACTIONS_PER_TURN = 20
RICH_ACTIONS_PER_TURN = 3 * ACTIONS_PER_TURN
"""The bound for a deck that uses triggers, responses that do more than cancel or the
choices of the richer card language (each other player discarding, chosen cards...)."""
"""Most actions of one turn: two plays, free plays, the responses to each and the
choices their effects ask (a declared bound, checked by random playouts in the tests)."""
UNCAPPED_LENGTH = 20_000
"""The declared length of a game without a turn cap."""


class GloomConfig(BaseModel):
    """Table options. Unknown keys are an error, so a typo never goes unnoticed."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    players: int = Field(4, ge=2, le=MAX_PLAYERS)
    sets: tuple[str, ...] = ("classic",)
    edition: Literal[1, 2] = 2
    """2: a play may discard the whole hand; 1: discard exactly one card (R-G12)."""
    beginner: bool = False
    """Ignore every card effect (R-G22)."""
    turn_cap: int = Field(500, ge=0, le=1_000_000)
    """Safety cap on turns for simulations; 0 = none. Hitting it is reported."""
    tiebreak: Literal["share", "fewer_living"] = "share"
    """R-G26: ties share the win, or fewer living Characters break them."""
    first_player: int | None = Field(None, ge=0, lt=MAX_PLAYERS)
    setup: Literal["auto", "families", "draft"] = "auto"
    """How families form: "families" (R-G7: take a whole family), "draft" (R-H2: each
    player chooses Characters one at a time from the pool), or "auto": draft whenever
    the deck has double-sided Characters, else families."""
    draft_size: int = Field(4, ge=1, le=10)
    """Characters each player chooses in a draft (R-H2: 4)."""
    stories_guests: int = Field(2, ge=0, le=6)
    """How many reverse sides go to the middle after a draft (R-H2: 2; 1 or 0 to simplify)."""

    @model_validator(mode="after")
    def _first_player_seated(self) -> GloomConfig:
        if self.first_player is not None and self.first_player >= self.players:
            raise ValueError(f"first_player {self.first_player} but only {self.players} seats")
        return self


def cancelled_types(response_card: Card) -> frozenset[str]:
    """R-G20: the card types (their values) ``response_card`` may cancel as they are played."""
    return frozenset(hook(step.param) for effect in response_card.effects if effect.when == "response"
                     for step in effect.steps if (hook := CANCELS.get(step.name)) is not None)


def answerable_types(cards: list[Card]) -> frozenset[CardType]:
    """Card types some response card of the deck can cancel (R-G20 windows)."""
    out: set[CardType] = set()
    for card in cards:
        for effect in card.effects:
            if effect.when == "response":
                out.update(CardType(CANCELS[s.name](s.param)) for s in effect.steps
                           if s.name in CANCELS)
    return frozenset(out)


def _steps(sts: tuple[Step, ...]) -> Iterator[Step]:
    """Every step of ``sts``, nested ones (``if_icon``) included."""
    for st in sts:
        yield st
        yield from _steps(st.steps)


class GloomFacts:
    """A table's options and deck, and what follows from them (OpenSpiel's game facts)."""

    # The facts the rules read on every action are slots. Python 3.11 reads an attribute
    # kept in an instance ``__dict__`` by a slow, generic lookup once that dict exists
    # (and a cached_property makes it exist); a slot is read by a fast, specialised one.
    # The rest (cached properties, a subclass's own attributes) go in ``__dict__``.
    __slots__ = ("__dict__", "__weakref__", "actions_per_turn", "answerable", "answered_by", "answers",
                 "beginner", "codec", "config", "deaths", "deck", "draw_events", "edition", "event_plays",
                 "has_turn_draw", "immediate", "lasting_cards", "name", "opens_window", "play_facts",
                 "reshuffle_event", "response_steps", "reverses", "shared_limits", "stack_visible",
                 "triggers", "turn_cap")

    def __init__(self, config: GloomConfig, deck: Deck, name: str) -> None:
        self.name = name
        self.config = config
        self.deck = deck
        nf = len(self.deck.families)
        n = self.config.players
        if self.drafting:
            need = n * self.config.draft_size
            if need > len(self.characters):
                raise ConfigError(f"{n} players choosing {self.config.draft_size} Characters each "
                                  f"need {need}; the deck {self.deck.id} has {len(self.characters)}")
        elif not (n <= nf or (n == 5 and nf == 4)):
            raise ConfigError(f"{n} players need {n} families (or 4 for 5 players, R-G8); "
                              f"the deck {self.deck.id} has {nf}")
        self.codec = codec_for(len(self.deck.cards), tuple(self.targets), nf)
        cards = self.deck.cards

        def shows(stack: tuple[int, ...]) -> Visible:
            return visible([cards[i] for i in stack])

        self.stack_visible: Callable[[tuple[int, ...]], Visible] = lru_cache(maxsize=16384)(shows)
        """Stack (card indices) -> what shows (R-G4). Shared by every state of the game and
        every thread, so bounded and thread-safe by construction (``functools.lru_cache``);
        a state keeps its own stacks' in :class:`~gloomtable.games.gloom.seen.Seen`."""

        # What the rules read on every action, worked out here once as plain attributes:
        # a cached_property (or a pydantic field) is read by a slower, generic lookup.
        self.beginner = config.beginner
        """Ignore every card effect (R-G22): the table option, read by every play."""
        self.edition = config.edition
        """The rulebook's edition (R-G11, R-G12): the table option, read by every play decision."""
        self.turn_cap = config.turn_cap
        """The table's cap on turns (0: none): the option, read by every turn."""
        present = {c.type for c in cards}
        cancels = [(r.index, cancelled_types(r)) for r in cards]
        self.answers: dict[CardType, frozenset[int]] = {
            t: frozenset(i for i, types in cancels if t.value in types) if t in present else frozenset()
            for t in CardType}
        """For each card type, the response cards that may cancel it (R-G20)."""
        self.answered_by: tuple[frozenset[int], ...] = tuple([self.answers[c.type] for c in cards])
        """``answers`` by card: the response cards that may cancel each card (asked of
        every seat in every response window)."""
        self.answerable: frozenset[CardType] = answerable_types(list(cards))
        """Card types a response in this deck can answer: only these open a window."""
        self.opens_window: tuple[bool, ...] = tuple([
            c.type in self.answerable and not self.beginner for c in cards])
        """Whether playing each card opens a response window (R-G20; none in the beginner
        game, R-G22), asked by every play."""
        self.immediate: tuple[tuple[tuple[Step, ...], ...], ...] = tuple([
            tuple([e.steps for e in c.effects if e.when == "immediate"]) for c in cards])
        """Each card's immediate effects (their steps, in printed order), which it
        resolves once it lands (R-G15)."""
        self.deaths: frozenset[int] = frozenset(
            c.index for c in cards if c.type is CardType.UNTIMELY_DEATH)
        """Untimely Death card indices: a stack with one on top is dead (R-G23)."""
        self.lasting_cards: frozenset[int] = frozenset(
            c.index for c in cards if any(e.when in ("continuous", "persistent") for e in c.effects))
        """Cards with a continuous or persistent effect: a stack without one of them has
        no lasting effect to show (R-G18, R-G19), whatever shows on it."""
        self.has_turn_draw: bool = any(st.name in TURN_DRAWS for c in cards for e in c.effects
                                       for st in _steps(e.steps))
        """Whether any card of the deck draws at the start of a turn (skips a scan if not)."""
        self.triggers: frozenset[str] = frozenset() if self.beginner else frozenset(
            TRIGGERS[st.name](st.param) for c in cards for e in c.effects for st in e.steps
            if st.name in TRIGGERS)
        """The table events some trigger of the deck waits for (none: nothing is looked at)."""
        self.shared_limits: bool = any(st.name in OTHERS_LIMITS for c in cards for e in c.effects
                                       for st in e.steps)
        """Whether a card changes other players' draw limits (else a limit is its holder's own)."""
        self.actions_per_turn: int = RICH_ACTIONS_PER_TURN if any(
            st.name in RICH for c in cards for e in c.effects for st in _steps(e.steps)
        ) or any(e.when == "response" and len(e.steps) > 1 for c in cards for e in c.effects
                 ) else ACTIONS_PER_TURN
        """Most actions of one turn (:data:`ACTIONS_PER_TURN`, or more for a deck using the
        richer card language): the declared game length follows it."""
        self.reverses: bool = any(st.name in REVERSES for c in cards for e in c.effects
                                  for st in _steps(e.steps))
        """Whether a card can reverse the turn order (only then does a view say which way)."""
        self.response_steps: dict[int, tuple[Step, ...]] = {
            c.index: steps for c in cards for e in c.effects if e.when == "response"
            for steps in (tuple(st for st in e.steps if st.name not in CANCELS),) if steps}
        """Response card -> the steps its responder resolves once it has cancelled (R-G20)."""
        self.draw_events: tuple[tuple[Event, ...], ...] = tuple(
            tuple(Event("draw", M.DRAW, (p, c), p, c, private_to=p, public_msg=M.DRAW_HIDDEN,
                        public_args=(p,), game=self) for c in range(len(cards)))
            for p in range(n))
        """``draw_events[p][c]``: player ``p`` draws card ``c`` (the card only for ``p``'s
        eyes). Events are immutable, so every state of the game shares these: a draw is
        the commonest event after a play."""
        event, play = CardType.EVENT, M.PLAY  # (an enum member read off its class is slow)
        event_cards = [c.index for c in cards if c.type is event]
        self.event_plays: tuple[dict[int, Event], ...] = tuple(
            {c: new(Event, ("play", play, (p, c), p, c, None, None, None, None, (), self))
             for c in event_cards}
            for p in range(n))
        """``event_plays[p][c]``: player ``p`` plays the Event ``c``, shared likewise."""
        self.reshuffle_event = Event("reshuffle", M.RESHUFFLE, game=self)
        """The discard pile is shuffled into a new draw pile (R-G9): the same event every
        time, shared likewise (a game reshuffles a dozen times)."""
        self.play_facts = PlayFacts(answered_by=self.answered_by, beginner=self.beginner, deaths=self.deaths,
            draw_events=self.draw_events, edition=self.edition, event_plays=self.event_plays,
            has_turn_draw=self.has_turn_draw, immediate=self.immediate, lasting_cards=self.lasting_cards,
            opens_window=self.opens_window, reshuffle_event=self.reshuffle_event,
            response_steps=self.response_steps, shared_limits=self.shared_limits,
            stack_visible=self.stack_visible, triggers=self.triggers, turn_cap=self.turn_cap)
        """The facts above that the rules read on every action, as the compiled build
        reads them fastest (:mod:`~gloomtable.games.gloom.play_facts`): ``state.facts``."""

    def config_dict(self) -> dict[str, Any]:
        return self.config.model_dump(mode="json")

    @cached_property
    def characters(self) -> list[int]:
        return [c.index for c in self.deck.cards if c.type is CardType.CHARACTER]

    @cached_property
    def guests(self) -> list[int]:
        return [c.index for c in self.deck.cards if c.type is CardType.GUEST]

    @cached_property
    def draw_pile_cards(self) -> tuple[int, ...]:
        """What the draw pile holds before the first shuffle, in deck order (R-G9):
        everything but the Characters, Guests and Stories, which never go in it (R-H10)."""
        drawn = (CardType.MODIFIER, CardType.EVENT, CardType.UNTIMELY_DEATH)
        return tuple(c.index for c in self.deck.cards if c.type in drawn)

    @cached_property
    def targets(self) -> list[int]:
        """Everything a Modifier or an Untimely Death may land on: Characters and Guests."""
        return self.characters + self.guests

    @cached_property
    def back_of(self) -> dict[int, int]:
        """Character -> the Guest or Story on its reverse side (R-H1)."""
        keys = self.card_by_key
        return {c.index: keys[c.back_key] for c in self.deck.cards if c.back_key}

    @cached_property
    def drafting(self) -> bool:
        """Whether families form by draft (R-H2) rather than whole families (R-G7)."""
        if self.config.setup != "auto":
            return self.config.setup == "draft"
        return bool(self.back_of)

    @cached_property
    def card_by_key(self) -> dict[str, int]:
        return {c.key: c.index for c in self.deck.cards}

    @property
    def num_players(self) -> int:
        return self.config.players

    @cached_property
    def info(self) -> GameInfo:
        """The game's facts, OpenSpiel style. Seats: as many as the deck can give a
        family (R-G7, R-G8: a fifth on four families; R-H2: ``draft_size`` Characters
        each). Length: every setup choice, then at most ``actions_per_turn`` a turn
        up to the turn cap (a declared bound the RL adapters hold games to)."""
        nf = len(self.deck.families)
        seats = len(self.characters) // self.config.draft_size if self.drafting \
            else (5 if nf == 4 else nf)
        setup = nf + self.config.players + len(self.characters)
        cap = self.config.turn_cap
        return win_share_info(
            short_name=self.name, long_name=registry.title_of(self.name),
            min_num_players=2, max_num_players=min(seats, MAX_PLAYERS),
            num_players=self.config.players, num_distinct_actions=self.codec.size,
            max_game_length=setup + self.actions_per_turn * cap if cap else UNCAPPED_LENGTH)

    @property
    def num_distinct_actions(self) -> int:
        return self.codec.size
