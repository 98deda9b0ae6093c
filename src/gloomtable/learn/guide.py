"""Running a lesson: the real engine, the lesson's bots, and the learner's seat.

:class:`Guide` is what the terminal (``gloom learn``) and the page drive: it says
the current step, which legal actions fit it (to highlight them), and takes the
learner's action, applying it only when it fits and otherwise explaining why not.
Bots play the other seats with the lesson's fixed seeds, so every run of a lesson
meets the same states: the lesson test can promise each step is reachable.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gloomtable.bots import Bot, bot_action, make_bot
from gloomtable.engine import Event, Game, GloomtableError, State
from gloomtable.games import make_game, registry
from gloomtable.learn.script import Expect, Lesson, LessonError, Step

LEARNER = 0
"""The learner always sits first: lessons are written from seat 0's point of view."""

def N_(message: str) -> str:
    """Marks an English text for the catalogues; clients translate it when they show it."""
    return message


MAX_FREE_ACTIONS = 400
"""A free-play stretch or the play to the end longer than this is a broken lesson."""


@dataclass
class Outcome:
    """What became of one of the learner's actions."""

    done: bool
    """The action fitted the step and was played."""
    why: str = ""
    """English: why it was not taken (the step's own words, or a reminder)."""
    events: list[Event] = field(default_factory=list)


SUGGESTER_SEED = 100
"""Added to the lesson's ``bot_seed`` (and the move number) for the bot that suggests
the learner's free moves: the same in the terminal, the page and the tests."""


class StepTracker:
    """Where a learner is in a lesson, whoever drives the game (the terminal's
    :class:`Guide`, or a table on the server whose bots play on their own timers)."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.index = 0

    @property
    def step(self) -> Step | None:
        """The step being taught, or ``None`` once the steps are done."""
        return self.lesson.steps[self.index] if self.index < len(self.lesson.steps) else None

    def fitting(self, state: State) -> list[int]:
        """The learner's legal actions that do what the step asks (to highlight)."""
        step = self.step
        if step is None or step.expect is None or state.is_over() or state.current_player() != LEARNER:
            return []
        test = matcher(self.lesson.game, state, step.expect)
        return [a for a in state.legal_actions() if test(a)]

    def free(self, state: State) -> bool:
        """The learner decides, the step waits for an action, and none fits yet."""
        step = self.step
        return (step is not None and step.expect is not None and not state.is_over()
                and state.current_player() == LEARNER and not self.fitting(state))

    def next(self) -> bool:
        """Go on from a step that only asks to look; ``False`` if this step waits for an action."""
        step = self.step
        if step is None or step.expect is not None:
            return False
        self.index += 1
        return True

    def judge(self, state: State, action: int) -> tuple[str | None, bool]:
        """(why the learner may not play ``action`` now or ``None``, whether it does the step).
        ``action`` must be legal: the engine's own checks come first."""
        step = self.step
        if step is None:
            return None, False
        if step.expect is None:
            return N_("Read this step first, then go on."), False
        if matcher(self.lesson.game, state, step.expect)(action):
            return None, True
        if self.free(state) or len(state.legal_actions()) == 1:
            return None, False
        return step.wrong or N_("Not quite: this step asks for something else. "
                                "The highlighted choices are the ones it asks for."), False

    def played(self, did_step: bool) -> None:
        """Note an action the learner made (``did_step`` from :meth:`judge`)."""
        if did_step:
            self.index += 1

    def replayed(self, state: State, action: int, seat: int) -> None:
        """Follow a stored action (a restarted server rebuilding a lesson table): the
        learner read every step before acting, so read steps before it are passed."""
        if seat != LEARNER:
            return
        while self.next():
            pass
        self.played(self.judge(state, action)[1])

    def suggest(self, state: State, moves: int) -> int:
        """The move a demo learner makes: the first that fits, else a ``medium`` bot's
        choice seeded by the move number (the same however often it is asked)."""
        fitting = self.fitting(state)
        if fitting:
            return fitting[0]
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        bot = make_bot("medium", self.lesson.game, self.lesson.bot_seed + SUGGESTER_SEED + moves)
        return bot_action(bot, state, legal)

    def message(self, state: State) -> dict[str, Any]:
        """The lesson's part of a table message, for the learner's page (English msgids)."""
        step = self.step
        free = self.free(state)
        out: dict[str, Any] = {
            "id": self.lesson.id, "title": self.lesson.title, "step": self.index,
            "steps": len(self.lesson.steps), "done": step is None, "end": self.lesson.end,
        }
        if step is not None:
            out.update({
                "step_id": step.id, "say": step.free_play if free and step.free_play else step.say,
                "highlight": list(step.highlight), "read": step.expect is None, "free": free,
                "fitting": self.fitting(state),
            })
        return out


class Guide:
    """One learner's run through one lesson in this process: the engine, the lesson's
    bots and the learner's seat (the terminal's ``gloom learn``, the tests)."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        try:
            self.game: Game = make_game(lesson.game, lesson.config)
        except Exception as exc:  # a deck or config the engine refuses: say which lesson
            raise LessonError(f"lesson {lesson.id!r}: its table cannot be set up: {exc}") from None
        self.state: State = self.game.new_initial_state(lesson.seed)
        self.bots = lesson_bots(lesson)
        self.track = StepTracker(lesson)
        self.actions: list[int] = []
        """Every action played, the learner's and the bots' (a record's actions)."""
        self.log: list[Event] = []
        self._advance()

    # -- where we are ---------------------------------------------------------------
    @property
    def step(self) -> Step | None:
        """The step being taught, or ``None`` once the steps are done."""
        return self.track.step

    @property
    def index(self) -> int:
        return self.track.index

    @property
    def free(self) -> bool:
        """True while the learner plays freely, waiting for the step's action to be possible."""
        return self.track.free(self.state)

    @property
    def finished(self) -> bool:
        """The game is over, or every step is done and the lesson does not play to the end."""
        return self.state.is_over() or (self.step is None and not self.lesson.play_to_end)

    def missed(self) -> list[str]:
        """Ids of the steps the game ended before (a learner's free turns can end it early)."""
        return [s.id for s in self.lesson.steps[self.index:]] if self.state.is_over() else []

    def fitting(self) -> list[int]:
        """The learner's legal actions that do what the step asks (to highlight)."""
        return self.track.fitting(self.state)

    # -- the learner's moves ------------------------------------------------------------
    def next(self) -> None:
        """Go on from a step that only asks to look (``expect`` unset)."""
        if not self.track.next():
            raise LessonError("this step waits for an action, not for 'next'")
        self._advance()

    def act(self, action: int) -> Outcome:
        """Play ``action`` for the learner if it is legal and fits the step."""
        if self.state.is_over() or self.state.current_player() != LEARNER:
            return Outcome(False, N_("It is not your decision yet: the others are still playing."))
        if action not in self.state.legal_actions():
            return Outcome(False, _illegal_reason(self.state, action))
        why, did_step = self.track.judge(self.state, action)
        if why is not None:
            return Outcome(False, why)
        events = self._apply(action)
        self.track.played(did_step)
        self._advance()
        return Outcome(True, events=events)

    def auto_action(self) -> int:
        """The action a demo learner takes (see :meth:`StepTracker.suggest`)."""
        return self.track.suggest(self.state, len(self.actions))

    # -- everyone else ------------------------------------------------------------------
    def _apply(self, action: int) -> list[Event]:
        events = self.state.apply(action)
        self.actions.append(action)
        self.log.extend(events)
        return events

    def _advance(self, limit: int = MAX_FREE_ACTIONS * 4) -> None:
        """Let the bots play until the learner has something to do."""
        for _ in range(limit):
            if self.state.is_over():
                return
            player = self.state.current_player()
            legal = self.state.legal_actions()
            if player != LEARNER:
                self._apply(bot_action(self.bots[player], self.state, legal))
                continue
            step = self.step
            if step is not None and step.expect is None:
                return  # a step to read
            if len(legal) == 1 and not self.fitting():
                self._apply(legal[0])  # a lone "let it stand" or pass: no forced click
                continue
            if self.free and step is not None and step.free_play is None:
                assert step.expect is not None
                raise LessonError(
                    f"lesson {self.lesson.id!r}, step {step.id!r} ({self.index + 1}): no legal "
                    f"action fits its expect ({describe(step.expect)}) when it comes")
            return
        raise LessonError(f"lesson {self.lesson.id!r}: the bots played {limit} moves in a row")


def lesson_bots(lesson: Lesson) -> dict[int, Bot]:
    """The lesson's bots by seat, seeded from the lesson so every run meets the same game."""
    return {seat: make_bot(level, lesson.game, lesson.bot_seed + seat)
            for seat, level in enumerate(lesson.bots, start=1)}


def _illegal_reason(state: State, action: int) -> str:
    """The engine's own reason for refusing ``action`` (tried on a copy)."""
    try:
        state.clone().apply(action)
    except GloomtableError as exc:
        return str(exc)
    return N_("That move is not allowed here.")


def describe(expect: Expect) -> str:
    """An expectation in a few English words, for error messages."""
    parts: list[str] = [expect.kind]
    if expect.card:
        parts.append(f"card={expect.card}")
    for name in ("target", "points"):
        if getattr(expect, name) != "any":
            parts.append(f"{name}={getattr(expect, name)}")
    parts += [name for name in ("covers", "effect", "negative_target") if getattr(expect, name)]
    return ", ".join(parts)


# -- what an action is --------------------------------------------------------------------
def matcher(game: str, state: State, expect: Expect) -> Callable[[int], bool]:
    """A test of the learner's actions against ``expect`` in ``state``, a table of
    ``game`` (its registry entry's ``lesson_matcher`` reads the expectation)."""
    if expect.kind == "any":
        return lambda _a: True
    return registry.entry(game).lesson_match(state, expect)
