"""One response pause per card, for everyone at once (R-G20, online tables).

The engine asks one player at a time whether they answer a card being played
(bots and RL keep that protocol). A live table instead opens a *window*: every
other seat is shown its own question at the same moment, for one fixed pause
(the table's ``response_pause_ms``), or until every person present has answered.
The answers are then handed to the engine in turn order, so the first responder
after the current player cancels the card and later ones keep theirs.

Each seat's question is found by asking the engine on a copy of the state: let
the card stand for the seat asked, and the next one is asked. Every seat of the
window is shown the same prompt for the same time, whether its hand holds a
response or not; only its own choices differ, and those only it sees.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from gloomtable.engine import DecisionKind, State


def is_respond(state: State) -> bool:
    """Whether ``state`` asks a player to respond to a card being played (Gloom's R-G20):
    the engine's own kind of decision, so any game that asks it gets the window."""
    return not state.is_over() and state.decision.kind == DecisionKind.RESPOND


def pass_action(state: State) -> int:
    """The "let it stand" answer of a respond decision (Gloom's codec ``PASS``)."""
    codec = getattr(getattr(state, "game", None), "codec", None)
    return int(getattr(codec, "PASS", 0))


@dataclass(eq=False)
class ResponseWindow:
    """The open window of the state ``start_id``: who is asked (in turn order), the
    state in which each is asked, what each may answer, and the answers so far."""

    start_id: int
    seats: list[int]
    states: dict[int, State]
    options: dict[int, list[int]]
    stand: int
    ends: float
    """Wall clock (epoch seconds), for pages."""
    ends_mono: float
    pause: float = 0.0
    """Seconds from its opening to ``ends``: the table's one fixed pause."""
    awaited: set[int] = field(default_factory=set)
    """Seats whose person, present now, may still answer from a page."""
    answers: dict[int, tuple[int, str]] = field(default_factory=dict)
    """Seat -> (action, actor): ``person``, ``bot`` or ``stand_in``."""
    done: asyncio.Event = field(default_factory=asyncio.Event)
    present: asyncio.Event = field(default_factory=asyncio.Event)
    """Set while someone it waits for can answer: a window whose people all have no
    page open (a table just resumed) keeps its pause until one comes back."""

    def restart(self) -> None:
        """The pause begins again from now (someone came back to a window that waited)."""
        now = time.monotonic()
        self.ends, self.ends_mono = time.time() + self.pause, now + self.pause

    def answer(self, seat: int, action: int, actor: str) -> None:
        self.answers[seat] = (action, actor)
        self.awaited.discard(seat)
        if not self.awaited:
            self.done.set()

    def answered(self, seat: int) -> bool:
        return seat in self.answers

    def left(self) -> float:
        return max(0.0, self.ends_mono - time.monotonic())


def open_window(state: State, start_id: int, pause_s: float) -> ResponseWindow | None:
    """The window of ``state``'s respond decision: each seat still to be asked, with
    the state it is asked in. None if ``state`` asks nobody to respond."""
    if not is_respond(state):
        return None
    stand = pass_action(state)
    seats: list[int] = []
    states: dict[int, State] = {}
    options: dict[int, list[int]] = {}
    s = state
    while is_respond(s):
        q = s.current_player()
        if q in states:  # never: a window asks each player once
            break
        seats.append(q)
        states[q] = s
        options[q] = list(s.legal_actions())
        if stand not in options[q]:
            break
        s = s.clone()
        s.apply(stand)
    now = time.monotonic()
    return ResponseWindow(start_id, seats, states, options, stand,
                          time.time() + pause_s, now + pause_s, pause=pause_s)
