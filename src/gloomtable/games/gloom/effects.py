"""Effect primitives: the vocabulary deck files build card effects from.

Each primitive has a name (the TOML key), the kinds of effect it may appear in
(``immediate``, ``continuous``, ``persistent``, ``response``), a pydantic
parameter type (so deck files are validated and the JSON Schema is derived
from it), and, for immediate ones, a handler that the engine runs.

A handler is ``handler(state, task, choice)``. It either finishes or asks one
player a question with ``state.ask(...)``, passing a copy of ``task`` whose
``data`` records how far it got; the engine calls it again with the chosen
action. Tasks are plain tuples, so states stay cheap to copy and compare.

To add a primitive: write the handler below, register it in ``PRIMITIVES``
with its parameter type, and use it in a deck. Nothing else changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from gloomtable.engine import DecisionKind
from gloomtable.games.gloom.cards import Card
from gloomtable.games.gloom.tasks import Task

if TYPE_CHECKING:
    from gloomtable.games.gloom.rules.board import Board


Handler = Callable[["Board", Task, "int | None"], None]

Count = Annotated[int, Field(ge=1, le=10)]
Delta = Annotated[int, Field(ge=-5, le=5)]
FreePlayKind = Literal["modifier", "untimely_death", "any"]


class Follows(BaseModel):
    """What a Guest follows (R-H7): a card type, or a story icon on the played card."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    card: Literal["modifier", "untimely_death"] | None = None
    icon: str | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> Follows:
        if (self.card is None) == (self.icon is None):
            raise ValueError("give exactly one of 'card' or 'icon'")
        return self

    def triggered_by(self, card: Card) -> bool:
        if self.card is not None:
            return card.type.value == self.card
        return self.icon in card.icons


class PerIcon(BaseModel):
    """``n`` for each visible ``icon`` in your family."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    icon: str
    n: int = Field(1, ge=-3, le=3)


@dataclass(frozen=True)
class Primitive:
    name: str
    when: frozenset[str]
    param: Any  # a type pydantic understands
    doc: str
    handler: Handler | None = None

    @property
    def adapter(self) -> TypeAdapter[Any]:
        return _adapter(self.name)


_ADAPTERS: dict[str, TypeAdapter[Any]] = {}


def _adapter(name: str) -> TypeAdapter[Any]:
    if name not in _ADAPTERS:
        _ADAPTERS[name] = TypeAdapter(PRIMITIVES[name].param)
    return _ADAPTERS[name]


# --- immediate handlers -----------------------------------------------------

def _draw(state: Board, task: Task, choice: int | None) -> None:
    state.draw(task.ctx.resolver, task.param)


def _draw_per_icon(state: Board, task: Task, choice: int | None) -> None:
    n = state.count_icons(task.ctx.resolver, task.param)
    if n:
        state.draw(task.ctx.resolver, n)


def _discard(state: Board, task: Task, choice: int | None) -> None:
    """The resolver discards ``param`` cards of their choice, one decision each."""
    p = task.ctx.resolver
    done = task.data[0] if task.data else 0
    if choice is not None:
        state.discard_from_hand(p, state.codec.chosen_card(choice))
        done += 1
    if done < task.param and state.hands[p]:
        options = [state.codec.choose_card(c) for c in sorted(state.hands[p])]
        state.ask(p, DecisionKind.DISCARD, options, task._replace(data=(done,)))


def _free_play(state: Board, task: Task, choice: int | None) -> None:
    """R-G13: only on the granting player's own turn."""
    if task.ctx.resolver == state.turn_player:
        state.grant_free_play(task.param)


def _choose_then(
    state: Board, task: Task, choice: int | None, kind: DecisionKind, options: list[int],
    finish: Callable[[int], None],
) -> None:
    if choice is None:
        if options:
            state.ask(task.ctx.resolver, kind, options, task)
        return
    finish(choice)


def _move_modifier(state: Board, task: Task, choice: int | None) -> None:
    """Move the top Modifier of one living Character onto another (R-G17: no re-trigger)."""
    codec = state.codec
    if not task.data:
        sources = [codec.choose_card(c) for c in state.living_characters() if state.top_modifier(c) >= 0]
        if choice is None:
            if sources and len(state.living_characters()) > 1:
                state.ask(task.ctx.resolver, DecisionKind.MOVE_MODIFIER_FROM, sources, task)
            return
        src = codec.chosen_card(choice)
        dests = [codec.choose_card(c) for c in state.living_characters() if c != src]
        state.ask(task.ctx.resolver, DecisionKind.MOVE_MODIFIER_TO, dests, task._replace(data=(src,)))
        return
    assert choice is not None
    state.move_top_modifier(task.data[0], codec.chosen_card(choice), task.ctx.resolver)


def _return_modifier(state: Board, task: Task, choice: int | None) -> None:
    """Take the top Modifier of a living Character back into a hand."""
    codec = state.codec
    options = [codec.choose_card(c) for c in state.living_characters() if state.top_modifier(c) >= 0]

    def finish(action: int) -> None:
        char = codec.chosen_card(action)
        owner = state.controller[char]
        # An uncontrolled Guest's Modifier goes to the resolver (nobody else could take it).
        to = task.ctx.resolver if task.param == "you" or owner < 0 else owner
        state.return_top_modifier(char, to, task.ctx.resolver)

    _choose_then(state, task, choice, DecisionKind.RETURN_MODIFIER, options, finish)


def _remove_modifier(state: Board, task: Task, choice: int | None) -> None:
    """Discard the top Modifier of a living Character."""
    codec = state.codec
    options = [codec.choose_card(c) for c in state.living_characters() if state.top_modifier(c) >= 0]
    _choose_then(state, task, choice, DecisionKind.REMOVE_MODIFIER, options,
                 lambda a: state.remove_top_modifier(codec.chosen_card(a), task.ctx.resolver))


def _revive(state: Board, task: Task, choice: int | None) -> None:
    """Bring a dead Character back: its Untimely Death goes to the discard pile."""
    codec = state.codec
    p = task.ctx.resolver
    options = [codec.choose_card(c) for c in state.dead_characters()
               if task.param == "any" or state.controller[c] == p]
    _choose_then(state, task, choice, DecisionKind.REVIVE, options,
                 lambda a: state.revive(codec.chosen_card(a), p))


def _other_players(state: Board, p: int) -> list[int]:
    return [q for q in state.turn_order_from(p) if q != p]


def _steal(state: Board, task: Task, choice: int | None) -> None:
    """Take ``param`` random cards from another player's hand."""
    codec = state.codec
    p = task.ctx.resolver
    options = [codec.choose_player(q) for q in _other_players(state, p) if state.hands[q]]
    _choose_then(state, task, choice, DecisionKind.STEAL_FROM, options,
                 lambda a: state.steal(p, codec.chosen_player(a), task.param))


def _swap_hands(state: Board, task: Task, choice: int | None) -> None:
    codec = state.codec
    p = task.ctx.resolver
    options = [codec.choose_player(q) for q in _other_players(state, p)]
    _choose_then(state, task, choice, DecisionKind.SWAP_HANDS_WITH, options,
                 lambda a: state.swap_hands(p, codec.chosen_player(a)))


def _skip_turn(state: Board, task: Task, choice: int | None) -> None:
    codec = state.codec
    p = task.ctx.resolver
    if task.param == "you":
        state.skip_next_turn(p, p)
        return
    options = [codec.choose_player(q) for q in _other_players(state, p)]
    _choose_then(state, task, choice, DecisionKind.SKIP_TURN, options,
                 lambda a: state.skip_next_turn(codec.chosen_player(a), p))


def _each_other_player_draws(state: Board, task: Task, choice: int | None) -> None:
    for q in _other_players(state, task.ctx.resolver):
        state.draw(q, task.param)


def _if_icon(state: Board, task: Task, choice: int | None) -> None:
    """R-G21: the nested steps happen only if the Character showed the icon when
    the card was played (for an Event: if any of the resolver's living
    Characters shows it)."""
    ctx = task.ctx
    if ctx.target >= 0:
        ok = task.param in ctx.icons_at_play
    else:
        ok = state.count_icons(ctx.resolver, task.param) > 0
    if ok:
        state.push_steps(ctx, task.sub)


PRIMITIVES: dict[str, Primitive] = {
    p.name: p
    for p in (
        Primitive("draw", frozenset({"immediate"}), Count, "You draw N cards.", _draw),
        Primitive("discard", frozenset({"immediate"}), Count,
                  "You discard N cards of your choice from your hand.", _discard),
        Primitive("draw_per_icon", frozenset({"immediate"}), str,
                  "You draw one card per visible ICON among your living Characters.",
                  _draw_per_icon),
        Primitive("each_other_player_draws", frozenset({"immediate"}), Count,
                  "Every other player draws N cards.", _each_other_player_draws),
        Primitive("free_play", frozenset({"immediate"}), FreePlayKind,
                  "You may make one extra play of that kind this turn (R-G13).", _free_play),
        Primitive("move_modifier", frozenset({"immediate"}), Literal["top"],
                  "Move the top Modifier of a living Character onto another.", _move_modifier),
        Primitive("return_modifier", frozenset({"immediate"}), Literal["you", "controller"],
                  "Put the top Modifier of a living Character into your hand ('you') or "
                  "its controller's hand ('controller').", _return_modifier),
        Primitive("remove_modifier", frozenset({"immediate"}), Literal["top"],
                  "Discard the top Modifier of a living Character.", _remove_modifier),
        Primitive("revive", frozenset({"immediate"}), Literal["yours", "any"],
                  "Bring a dead Character (yours, or anyone's) back to life.", _revive),
        Primitive("steal", frozenset({"immediate"}), Count,
                  "Take N random cards from another player's hand.", _steal),
        Primitive("swap_hands", frozenset({"immediate"}), Literal[True],
                  "Swap hands with another player.", _swap_hands),
        Primitive("skip_turn", frozenset({"immediate"}), Literal["you", "other"],
                  "You, or another player you choose, skip the next turn.", _skip_turn),
        Primitive("if_icon", frozenset({"immediate"}), str,
                  "Character requirement (R-G21): the steps in 'do' happen only if the "
                  "Character showed ICON when the card was played.", _if_icon),
        Primitive("draw_limit", frozenset({"continuous", "persistent"}), Delta,
                  "Your draw limit changes by N while this effect holds."),
        Primitive("draw_limit_per_icon", frozenset({"continuous", "persistent"}), PerIcon,
                  "Your draw limit changes by N for each visible ICON in your family while "
                  "this effect holds."),
        Primitive("turn_draw", frozenset({"continuous", "persistent"}),
                  Annotated[int, Field(ge=1, le=3)],
                  "At the start of each of your turns, draw N cards while this effect holds."),
        Primitive("follows", frozenset({"persistent"}), Follows,
                  "Guests only (R-H7): after a card of that type, or printing that icon, "
                  "resolves on a Character, this Guest joins that Character's family with "
                  "all its Modifiers."),
        Primitive("cancel", frozenset({"response"}),
                  Literal["event", "untimely_death", "modifier"],
                  "Cancel a card of that type as another player plays it (R-G20)."),
    )
}

WHENS = ("immediate", "continuous", "persistent", "response")
