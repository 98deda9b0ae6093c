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
from typing import TYPE_CHECKING

from gloomtable.engine import Event
from gloomtable.games.gloom.cards import Step, Visible

if TYPE_CHECKING:
    from gloomtable.games.gloom.facts import GloomFacts


class PlayFacts:
    """What :class:`GloomFacts` says of the game that every play, draw or turn asks (see
    each attribute there). The same objects: nothing here may be changed in place."""

    __slots__ = ("answered_by", "beginner", "deaths", "draw_events", "edition", "event_plays",
                 "has_turn_draw", "immediate", "lasting_cards", "opens_window", "reshuffle_event",
                 "response_steps", "shared_limits", "stack_visible", "triggers", "turn_cap")

    def __init__(self, facts: GloomFacts) -> None:
        self.answered_by: tuple[frozenset[int], ...] = facts.answered_by
        self.beginner: bool = facts.beginner
        self.deaths: frozenset[int] = facts.deaths
        self.draw_events: tuple[tuple[Event, ...], ...] = facts.draw_events
        self.edition: int = facts.edition
        self.event_plays: tuple[dict[int, Event], ...] = facts.event_plays
        self.has_turn_draw: bool = facts.has_turn_draw
        self.immediate: tuple[tuple[tuple[Step, ...], ...], ...] = facts.immediate
        self.lasting_cards: frozenset[int] = facts.lasting_cards
        self.opens_window: tuple[bool, ...] = facts.opens_window
        self.reshuffle_event: Event = facts.reshuffle_event
        self.response_steps: dict[int, tuple[Step, ...]] = facts.response_steps
        self.shared_limits: bool = facts.shared_limits
        self.stack_visible: Callable[[tuple[int, ...]], Visible] = facts.stack_visible
        self.triggers: frozenset[str] = facts.triggers
        self.turn_cap: int = facts.turn_cap
