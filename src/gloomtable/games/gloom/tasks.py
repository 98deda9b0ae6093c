"""The engine's small values: decisions, effect tasks and the names of the phases.

Tasks and decisions are plain tuples, so a state copies and compares cheaply and an
effect that needs a choice simply waits for the answer (see :mod:`effects`).
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from gloomtable.engine import DecisionKind, Event
from gloomtable.games.gloom.actions import MAX_PLAYERS
from gloomtable.games.gloom.cards import Step


class Ctx(NamedTuple):
    """Who resolves an effect, for which card, on which Character (R-G16)."""

    resolver: int
    card: int
    target: int  # Character card index, or -1 (Events)
    icons_at_play: tuple[str, ...]  # the target's icons when the card was played (R-G21)


class Task(NamedTuple):
    step: str
    ctx: Ctx
    param: Any
    data: tuple[int, ...] = ()
    sub: tuple[Step, ...] = ()


class Decision(NamedTuple):
    """A question for one player. ``options`` is empty for the main play
    decision, whose legal actions are computed from the state."""

    player: int
    kind: DecisionKind
    options: tuple[int, ...] = ()
    task: Task | None = None


# Phases: the kinds of the engine's own decisions (effects ask their own kinds), as
# module names the hot paths read without an attribute lookup on the enum.
SETUP_FAMILY: Final = DecisionKind.CHOOSE_FAMILY
SETUP_ASIDE: Final = DecisionKind.SET_ASIDE
SETUP_DRAFT: Final = DecisionKind.CHOOSE_CHARACTER
UNCONTROLLED: Final = -1  # a Guest or Story in the middle (R-H6)
PLAY: Final = DecisionKind.PLAY
RESPOND: Final = DecisionKind.RESPOND
OVER: Final = DecisionKind.OVER
RUNNING: Final = DecisionKind.RUNNING  # no question is open: the engine is resolving

# The decisions without options, made once: every action passes through the first two.
RUNNING_FOR: Final = tuple(Decision(p, RUNNING) for p in range(MAX_PLAYERS))
PLAY_FOR: Final = tuple(Decision(p, PLAY) for p in range(MAX_PLAYERS))
FAMILY_FOR: Final = tuple(Decision(p, SETUP_FAMILY) for p in range(MAX_PLAYERS))

# The engine's own steps on the task queue (beside the effect primitives).
FINISH_PLAY: Final = "_finish_play"
ASK_RESPONSES: Final = "_respond"
DISCARD_EVENT: Final = "_discard_event"
FOLLOW: Final = "_follow"
DRAW_UP: Final = "_draw_up"

# The hottest paths read these named tuples' fields by position (``d[1]`` for ``d.kind``,
# ``task[1]`` for ``task.ctx``): Python 3.11 reads a named tuple's field by name through a
# slow, generic lookup, and unpacks a tuple subclass through an iterator.
#
# The hottest named tuples (events, tasks, decisions) are built with tuple.__new__ straight:
# a NamedTuple's own __new__ is one more Python call, and every action makes several.
# Each is built with every field, in the order these checks pin down.
new: Final = tuple.__new__
# The classes built that way, as Final names too: a compiled module reads a Final name
# of another compiled module straight from it, but a class that is not a native one (a
# named tuple; a class of a module left as Python) by a lookup in its own namespace on
# every use. (In Python the two are the same name.)
TASK: Final = Task
CTX: Final = Ctx
DECISION: Final = Decision
EVENT: Final = Event
assert Event._fields == ("kind", "msg", "args", "player", "card", "target", "amount", "private_to",
                         "public_msg", "public_args", "game")
assert Task._fields == ("step", "ctx", "param", "data", "sub")
assert Ctx._fields == ("resolver", "card", "target", "icons_at_play")
assert Decision._fields == ("player", "kind", "options", "task")
