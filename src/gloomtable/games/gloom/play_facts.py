"""The game's facts the rules read on every action, again as a class of their own.

:class:`~gloomtable.games.gloom.facts.GloomFacts` works them out once per game; this
holds the same objects, and a state reads them through ``state.facts``. Why twice: the
compiled build (issue 35) compiles this class but not ``GloomFacts`` (pydantic options,
cached properties), and a compiled module reads an attribute of a compiled class
straight from the object but one of a Python class by a generic lookup, several times an
action. In Python the two reads cost the same.
"""

from __future__ import annotations

from collections.abc import Callable

from gloomtable.engine import Event
from gloomtable.games.gloom.cards import Step, Visible


class PlayFacts:
    """What :class:`GloomFacts` says of the game that every play, draw or turn asks (see
    each attribute there). The same objects: nothing here may be changed in place."""

    __slots__ = ("answered_by", "beginner", "deaths", "draw_events", "edition", "event_plays",
                 "has_turn_draw", "immediate", "lasting_cards", "opens_window", "reshuffle_event",
                 "response_steps", "shared_limits", "stack_visible", "triggers", "turn_cap")

    def __init__(self, *, answered_by: tuple[frozenset[int], ...], beginner: bool, deaths: frozenset[int],
                 draw_events: tuple[tuple[Event, ...], ...], edition: int,
                 event_plays: tuple[dict[int, Event], ...], has_turn_draw: bool,
                 immediate: tuple[tuple[tuple[Step, ...], ...], ...], lasting_cards: frozenset[int],
                 opens_window: tuple[bool, ...], reshuffle_event: Event,
                 response_steps: dict[int, tuple[Step, ...]], shared_limits: bool,
                 stack_visible: Callable[[tuple[int, ...]], Visible], triggers: frozenset[str],
                 turn_cap: int) -> None:
        self.answered_by = answered_by
        self.beginner = beginner
        self.deaths = deaths
        self.draw_events = draw_events
        self.edition = edition
        self.event_plays = event_plays
        self.has_turn_draw = has_turn_draw
        self.immediate = immediate
        self.lasting_cards = lasting_cards
        self.opens_window = opens_window
        self.reshuffle_event = reshuffle_event
        self.response_steps = response_steps
        self.shared_limits = shared_limits
        self.stack_visible = stack_visible
        self.triggers = triggers
        self.turn_cap = turn_cap
