"""A Gloom position: the table (:mod:`rules.board`) with the engine protocol.

Every choice is a pending decision for exactly one player, answered by an integer
action (see :mod:`actions`). Effects run as a stack of small tuple tasks (see
:mod:`tasks` and :mod:`effects`), so a state copies and compares cheaply and an
effect that needs a choice simply waits for the answer. The rules themselves live
in :mod:`rules`, one module per rulebook section; this module only holds the
fields' start, the copy, and the dispatch of an action to the rule it answers.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any

from gloomtable.engine import TERMINAL, Event, IllegalActionError, MalformedActionError, Result, Rng
from gloomtable.games.gloom import describe
from gloomtable.games.gloom.cards import Step
from gloomtable.games.gloom.render import render_text
from gloomtable.games.gloom.rules import lasting, plays, scoring, setup, stories, turn
from gloomtable.games.gloom.rules.board import Board
from gloomtable.games.gloom.rules.plays import is_legal as _is_legal
from gloomtable.games.gloom.rules.plays import legal_actions as _legal_actions
from gloomtable.games.gloom.rules.plays import legal_plays as _legal_plays
from gloomtable.games.gloom.rules.plays import play as _play
from gloomtable.games.gloom.rules.resolving import resume as _resume
from gloomtable.games.gloom.rules.resolving import run as _run
from gloomtable.games.gloom.rules.responses import respond as _respond
from gloomtable.games.gloom.rules.turn import BASE_DRAW_LIMIT
from gloomtable.games.gloom.seen import Seen
from gloomtable.games.gloom.tasks import (
    PLAY,
    RESPOND,
    RUNNING_FOR,
    SETUP_ASIDE,
    SETUP_DRAFT,
    SETUP_FAMILY,
    Decision,
)
from gloomtable.games.gloom.view import GloomView, build_view

if TYPE_CHECKING:
    from gloomtable.games.gloom.facts import GloomFacts

__all__ = ["BASE_DRAW_LIMIT", "PLAY", "Decision", "GloomState"]

# The rules every action calls, imported by name: one global read each in Python, and
# a direct call of the compiled function in the compiled build (where a module global
# set to a function is read from the module's namespace and called generically).


def _as_action(action: object) -> int:
    """An action that is not a plain ``int`` as one: numpy integers too, as RL code
    sends them; ``bool`` and anything else are malformed."""
    if isinstance(action, bool):
        raise MalformedActionError(f"an action is an integer, got {action!r}")
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise MalformedActionError(f"an action is an integer, got {action!r}") from None


def _refusal(s: GloomState, action: int) -> IllegalActionError:
    """Why ``action`` is refused, with the legal actions named. (Its own function: a
    comprehension in ``apply`` would make ``self`` a closure cell on every action.)"""
    return IllegalActionError(action, plays.illegal_reason(s, action),
                              [(a, s.action_to_string(a)) for a in s.legal_actions()])


def _decision_text(d: Decision) -> str:
    """``repr(d)`` with the kind as its plain string, as snapshots have always read."""
    return f"Decision(player={d.player!r}, kind={str(d.kind)!r}, options={d.options!r}, task={d.task!r})"


class GloomState(Board):
    """One position of a Gloom game. Mutated by :meth:`apply`; :meth:`clone` to branch."""

    __slots__ = ()

    def __new__(cls, *args: object) -> GloomState:
        """A bare instance, so that :meth:`clone` can fill one in without ``__init__``.
        (Spelled out for the compiled build, whose classes make an instance only through
        their own ``__new__``; in Python it is ``object.__new__``.)"""
        return object.__new__(cls)

    def __init__(self, game: GloomFacts, seed: int) -> None:
        self.game = game
        self.facts = game.play_facts
        self.cards = game.deck.cards
        self.codec = game.codec
        self.n = n = game.config.players
        self.rng = Rng(seed)
        self.hands = [[] for _ in range(n)]
        self.discard = []
        self.stacks = {}
        self.seen = Seen(self.stacks)
        self.controller = {}
        self.families = [[] for _ in range(n)]
        self.guests = []
        self.stories = {}
        self.family_taken = [-1] * len(game.deck.families)
        self.out_of_game = []
        self.limbo = []
        self.free_plays = []
        self.skips = [0] * n
        self.direction = 1
        self.queue = []
        self.cancelled = False
        self.counted_used = 0
        self.turn = 0
        self.over = False
        self.capped = False
        self.events = []
        setup.deal(self)

    # --- protocol -----------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.over else self.decision.player

    def is_over(self) -> bool:
        return self.over

    # The rules' functions, as methods. (Methods that call them, not the functions set
    # in the class body: a compiled function does not bind as a method.)

    def legal_actions(self) -> list[int]:
        # The two commonest questions answered here as plays.legal_actions answers them,
        # one call less: the play decision by its rule, a response by its options.
        d = self.decision
        kind = d[1]  # (d.kind: by position, see tasks.py)
        if not self.over:
            if kind is PLAY:
                return _legal_plays(self, d[0])
            if kind is RESPOND:
                return list(d[2])
        return _legal_actions(self)

    def is_legal(self, action: int) -> bool:
        return _is_legal(self, action)

    def result(self) -> Result:
        return scoring.result(self)

    def apply(self, action: object) -> list[Event]:
        # (``object``, not ``int``: a compiled build checks an argument's declared type on
        # the way in, and a malformed action must raise MalformedActionError, not TypeError)
        action = action if type(action) is int else _as_action(action)
        if not 0 <= action < self.codec.size:
            raise MalformedActionError(
                f"action {action} is outside this game's action space 0..{self.codec.size - 1}")
        if self.over:
            raise IllegalActionError(action, "the game is over", [])
        if not _is_legal(self, action):
            raise _refusal(self, action)
        return self.apply_legal(action)

    def apply_legal(self, action: int) -> list[Event]:
        """Take ``action``, which the caller took from :meth:`legal_actions` of this very
        position, without checking it again (the engine protocol's trusted path)."""
        self.events = []
        d = self.decision
        p, kind = d[0], d[1]  # (d.player, d.kind: by position, see tasks.py)
        self.decision = running = RUNNING_FOR[p]
        # The commonest kinds first: a play, then the answers to it.
        if kind is PLAY:
            _play(self, action)
        elif kind is RESPOND:
            task = d[3]  # (d.task)
            assert task is not None
            _respond(self, p, task, action)
        elif kind is SETUP_FAMILY:
            setup.choose_family(self, p, action - self.codec.family_base)
        elif kind is SETUP_ASIDE:
            setup.set_aside(self, p, self.codec.chosen_card(action))
        elif kind is SETUP_DRAFT:
            setup.draft(self, p, self.codec.chosen_card(action))
        else:
            assert d.task is not None
            _resume(self, d.task, action)
        if self.decision is running:  # else the answer asked the next question: nothing to run
            _run(self)
        return self.events

    def clone(self) -> GloomState:
        new = GloomState.__new__(GloomState)
        new.game = self.game
        new.facts = self.facts
        new.cards = self.cards
        new.codec = self.codec
        new.n = self.n
        new.rng = Rng(self.rng.state)
        new.hands = [list(h) for h in self.hands]
        new.discard = list(self.discard)
        new.draw_pile = list(self.draw_pile)
        stacks = new.stacks = {c: list(s) for c, s in self.stacks.items()}
        new.seen = self.seen.copy_for(self.stacks, stacks)
        new.controller = dict(self.controller)
        new.families = [list(f) for f in self.families]
        new.guests = list(self.guests)
        new.stories = dict(self.stories)
        new.family_taken = list(self.family_taken)
        new.out_of_game = list(self.out_of_game)
        new.limbo = list(self.limbo)
        new.free_plays = list(self.free_plays)
        new.skips = list(self.skips)
        new.direction = self.direction
        new.queue = list(self.queue)
        new.cancelled = self.cancelled
        new.counted_used = self.counted_used
        new.turn = self.turn
        new.over = self.over
        new.capped = self.capped
        new.first_player = self.first_player
        new.turn_player = self.turn_player
        new.decision = self.decision
        new.events = []
        return new

    def snapshot(self) -> dict[str, Any]:
        """The full state as plain data (for replay-identity checks and debugging); the
        turn order's direction only once it was reversed."""
        snap = {
            "rng": self.rng.state, "hands": self.hands, "discard": self.discard,
            "draw_pile": self.draw_pile, "stacks": {str(c): s for c, s in self.stacks.items()},
            "controller": {str(c): p for c, p in self.controller.items()},
            "families": self.families, "guests": self.guests,
            "stories": {str(c): p for c, p in self.stories.items()},
            "out_of_game": self.out_of_game, "limbo": self.limbo,
            "free_plays": self.free_plays, "skips": self.skips,
            "queue": [repr(t) for t in self.queue], "cancelled": self.cancelled,
            "counted_used": self.counted_used, "turn": self.turn, "over": self.over,
            "capped": self.capped, "turn_player": self.turn_player,
            "decision": _decision_text(self.decision),
        }
        if self.direction != 1:
            snap["direction"] = self.direction
        return snap

    def view(self, viewer: int | None) -> GloomView:
        return build_view(self, viewer)

    def render(self, player: int | None) -> str:
        return render_text(self, player)

    def action_to_string(self, action: int) -> str:
        return describe.action_to_string(self, action)

    def action_parts(self, action: int) -> tuple[str, str, int] | None:
        return describe.action_parts(self, action)

    def describe_card(self, c: int) -> str:
        return describe.describe_card(self, c)

    def locations(self) -> dict[int, str]:
        return describe.locations(self)

    # --- the rules others ask by name ----------------------------------------------

    def held_steps(self, p: int) -> list[Step]:
        return list(lasting.held_steps(self, p))  # (a copy: the rule's list may be kept)

    def draw_limit(self, p: int) -> int:
        return turn.draw_limit(self, p)

    def family_value(self, p: int) -> int:
        return scoring.family_value(self, p)

    def can_claim(self, p: int, story: int) -> bool:
        return stories.can_claim(self, p, story)
