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
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    TypeAdapter,
    create_model,
    model_validator,
)

from gloomtable.engine import DecisionKind
from gloomtable.games.gloom import effect_handlers as H
from gloomtable.games.gloom import step_hooks as hooks
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


class WorthPerIcon(BaseModel):
    """``n`` Self-Worth for each ``icon`` this Character shows."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    icon: str
    n: int = Field(ge=-10, le=10)


Which = Literal["any", "yours", "others"]
"""Which living Characters a step may pick: any, the resolver's own, or anyone else's."""
PlayersFilter = Literal["each_other", "left", "right", "chosen_other", "target_owner"]


class IconCount(BaseModel):
    """At least ``at_least`` visible ``icon`` on the target, your family, or the table."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    icon: str
    at_least: int = Field(1, ge=1, le=30)
    whose: Literal["target", "yours", "table"] = "target"


class CardCount(BaseModel):
    """At least ``at_least`` cards in the discard pile, dead Characters, or cards on the target."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    where: Literal["discard", "dead", "on_target"]
    at_least: int = Field(ge=1, le=100)


class Condition(BaseModel):
    """Tests that must all hold (at least one): the target's Self-Worth, the resolver's
    hand size, a count of icons or cards, and who owns the target."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    self_worth_at_most: int | None = Field(None, ge=-100, le=100)
    self_worth_at_least: int | None = Field(None, ge=-100, le=100)
    hand_at_most: int | None = Field(None, ge=0, le=30)
    hand_at_least: int | None = Field(None, ge=0, le=30)
    icons: IconCount | None = None
    cards: CardCount | None = None
    target_owner: Literal["you", "other"] | None = None

    @model_validator(mode="after")
    def _some_test(self) -> Condition:
        if all(v is None for v in self.__dict__.values()):
            raise ValueError("name at least one test")
        return self


TriggerEvent = Literal["death", "played_on", "turn_start", "turn_end"]


class Trigger(BaseModel):
    """A table event a lasting effect waits for, and whose: ``this`` Character, one of
    ``yours``, one of the ``others``, or ``any``; ``card`` and ``icon`` narrow
    ``played_on`` to a type of card or a card printing an icon."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    event: TriggerEvent
    whose: Literal["this", "yours", "others", "any"] = "any"
    card: Literal["modifier", "untimely_death"] | None = None
    icon: str | None = None

    @model_validator(mode="after")
    def _narrowing(self) -> Trigger:
        if (self.card is not None or self.icon is not None) and self.event != "played_on":
            raise ValueError("'card' and 'icon' narrow only the 'played_on' event")
        return self

    def matches(self, card: Card) -> bool:
        """Whether a card played on a Character is one this trigger waits for."""
        if self.card is not None and card.type.value != self.card:
            return False
        return self.icon is None or self.icon in card.icons


@dataclass(frozen=True)
class Primitive:
    """One word of the card language: its TOML key, the effect kinds it may appear in,
    its parameter type, what it means, and the typed hooks the rules call it by (so no
    module outside this one compares a primitive's name)."""

    name: str
    when: frozenset[str]
    param: Any  # a type pydantic understands
    doc: str
    handler: Handler | None = None
    nests: bool = False
    """Takes a ``do`` list of steps (``if_icon``, ``only_if``, ``for_players``, ``on``)."""
    icons: Callable[[Any], tuple[str, ...]] | None = None
    """The icons the parameter names (the checker asks that each is a known one)."""
    limit: Callable[[Board, int, Any], int] | None = None
    """What a lasting step adds to its holder's draw limit (R-G14)."""
    others_limit: Callable[[Any], int] | None = None
    """What a lasting step adds to every other player's draw limit."""
    turn_draw: Callable[[Any], int] | None = None
    """Cards a lasting step draws its holder at the start of each of their turns."""
    cancels: Callable[[Any], str] | None = None
    """The card type a response step cancels (R-G20)."""
    follows: Callable[[Any, Card], bool] | None = None
    """Whether a Guest's step follows ``card`` (R-H7)."""
    worth: Callable[[Any, tuple[str, ...]], int] | None = None
    """What a lasting step adds to the Self-Worth of its stack, given the icons it shows."""
    trigger: Callable[[Any], str] | None = None
    """The table event a lasting step waits for (see :mod:`rules.triggers`)."""

    @property
    def adapter(self) -> TypeAdapter[Any]:
        """The parameter's validator (and JSON Schema)."""
        return _adapter(self.name)

    @property
    def model(self) -> type[BaseModel]:
        """The step's own pydantic model: ``{ <name> = param }``, with ``do`` if it nests."""
        return _model(self.name)


_ADAPTERS: dict[str, TypeAdapter[Any]] = {}
_MODELS: dict[str, type[BaseModel]] = {}


def _adapter(name: str) -> TypeAdapter[Any]:
    if name not in _ADAPTERS:
        _ADAPTERS[name] = TypeAdapter(PRIMITIVES[name].param)
    return _ADAPTERS[name]


class StepModel(BaseModel):
    """The base of every step's model: strict, unknown keys refused."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


def _model(name: str) -> type[BaseModel]:
    if name not in _MODELS:
        prim = PRIMITIVES[name]
        fields: dict[str, Any] = {name: (prim.param, Field(description=prim.doc))}
        if prim.nests:
            fields["do"] = (list[dict[str, Any]], Field(min_length=1, max_length=12))
        title = "".join(w.capitalize() for w in name.split("_"))
        _MODELS[name] = create_model(title, __base__=StepModel, **fields)
    return _MODELS[name]


def step_key(item: Any) -> str | None:
    """The discriminator of a step: the one key that is not ``do`` (its primitive)."""
    if isinstance(item, dict):
        names = [k for k in item if k != "do"]
        if len(names) == 1:
            return str(names[0])
    return None


def step_union() -> Any:
    """Every step as one discriminated union (by its primitive's key)."""
    members = tuple(Annotated[PRIMITIVES[n].model, Tag(n)] for n in PRIMITIVES)
    return Annotated[Union[members], Discriminator(step_key)]  # noqa: UP007


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


def _ask_if_any(state: Board, task: Task, kind: DecisionKind, options: list[int]) -> None:
    """Ask the resolver to choose among ``options``, if there are any (else the step does
    nothing). Each handler below works its options out only when it asks: the answer
    comes back to the same handler, which then acts on it."""
    if options:
        state.ask(task.ctx.resolver, kind, options, task)


def _topped(state: Board) -> list[int]:
    """The living Characters with a Modifier on top, as choices."""
    codec = state.codec
    return [codec.choose_card(c) for c in state.living_characters() if state.top_modifier(c) >= 0]


def _move_modifier(state: Board, task: Task, choice: int | None) -> None:
    """Move the top Modifier of one living Character onto another (R-G17: no re-trigger)."""
    codec = state.codec
    if not task.data:
        if choice is None:
            sources = _topped(state)
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
    if choice is None:
        _ask_if_any(state, task, DecisionKind.RETURN_MODIFIER, _topped(state))
        return
    char = state.codec.chosen_card(choice)
    owner = state.controller[char]
    # An uncontrolled Guest's Modifier goes to the resolver (nobody else could take it).
    to = task.ctx.resolver if task.param == "you" or owner < 0 else owner
    state.return_top_modifier(char, to, task.ctx.resolver)


def _remove_modifier(state: Board, task: Task, choice: int | None) -> None:
    """Discard the top Modifier of a living Character."""
    if choice is None:
        _ask_if_any(state, task, DecisionKind.REMOVE_MODIFIER, _topped(state))
        return
    state.remove_top_modifier(state.codec.chosen_card(choice), task.ctx.resolver)


def _revive(state: Board, task: Task, choice: int | None) -> None:
    """Bring a dead Character back: its Untimely Death goes to the discard pile."""
    codec = state.codec
    p = task.ctx.resolver
    if choice is None:
        options = [codec.choose_card(c) for c in state.dead_characters()
                   if task.param == "any" or state.controller[c] == p]
        _ask_if_any(state, task, DecisionKind.REVIVE, options)
        return
    state.revive(codec.chosen_card(choice), p)


def _other_players(state: Board, p: int) -> list[int]:
    return [q for q in state.turn_order_from(p) if q != p]


def _steal(state: Board, task: Task, choice: int | None) -> None:
    """Take ``param`` random cards from another player's hand."""
    codec = state.codec
    p = task.ctx.resolver
    if choice is None:
        options = [codec.choose_player(q) for q in _other_players(state, p) if state.hands[q]]
        _ask_if_any(state, task, DecisionKind.STEAL_FROM, options)
        return
    state.steal(p, codec.chosen_player(choice), task.param)


def _swap_hands(state: Board, task: Task, choice: int | None) -> None:
    codec = state.codec
    p = task.ctx.resolver
    if choice is None:
        _ask_if_any(state, task, DecisionKind.SWAP_HANDS_WITH,
                    [codec.choose_player(q) for q in _other_players(state, p)])
        return
    state.swap_hands(p, codec.chosen_player(choice))


def _skip_turn(state: Board, task: Task, choice: int | None) -> None:
    codec = state.codec
    p = task.ctx.resolver
    if task.param == "you":
        state.skip_next_turn(p, p)
        return
    if choice is None:
        _ask_if_any(state, task, DecisionKind.SKIP_TURN,
                    [codec.choose_player(q) for q in _other_players(state, p)])
        return
    state.skip_next_turn(codec.chosen_player(choice), p)


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


def _one(x: Any) -> tuple[str, ...]:
    return (x,)


def _icon_of(x: Any) -> tuple[str, ...]:
    return (x.icon,)


def _follow_icons(x: Any) -> tuple[str, ...]:
    return () if x.icon is None else (x.icon,)


def _cond_icons(x: Any) -> tuple[str, ...]:
    return () if x.icons is None else (x.icons.icon,)


def _limit(s: Board, p: int, n: Any) -> int:
    return int(n)


def _limit_per_icon(s: Board, p: int, x: Any) -> int:
    return int(x.n * s.count_icons(p, x.icon))


def _worth(x: Any, icons: tuple[str, ...]) -> int:
    return int(x.n * icons.count(x.icon))


def _follows(x: Any, card: Card) -> bool:
    return bool(x.triggered_by(card))


def _event_of(x: Any) -> str:
    return str(x.event)


def _ident(x: Any) -> Any:
    return x


RICH_HANDLERS = frozenset({
    H.move_character, H.move_this, H.move_stack, H.look_at_hand, H.look_at_draw_pile,
    H.take_card, H.give_card, H.take_from_discard, H.extra_turn, H.reverse_order,
    H.for_players, H.only_if})
"""The handlers of the richer card language (``effect_handlers``)."""
LASTING = frozenset({"continuous", "persistent"})
IMMEDIATE = frozenset({"immediate"})

PRIMITIVES: dict[str, Primitive] = {
    p.name: p
    for p in (
        Primitive("draw", IMMEDIATE, Count, "You draw N cards.", _draw),
        Primitive("discard", IMMEDIATE, Count,
                  "You discard N cards of your choice from your hand.", _discard),
        Primitive("draw_per_icon", IMMEDIATE, str,
                  "You draw one card per visible ICON among your living Characters.",
                  _draw_per_icon, icons=_one),
        Primitive("each_other_player_draws", IMMEDIATE, Count,
                  "Every other player draws N cards.", _each_other_player_draws),
        Primitive("free_play", IMMEDIATE, FreePlayKind,
                  "You may make one extra play of that kind this turn (R-G13).", _free_play),
        Primitive("move_modifier", IMMEDIATE, Literal["top"],
                  "Move the top Modifier of a living Character onto another.", _move_modifier),
        Primitive("return_modifier", IMMEDIATE, Literal["you", "controller"],
                  "Put the top Modifier of a living Character into your hand ('you') or "
                  "its controller's hand ('controller').", _return_modifier),
        Primitive("remove_modifier", IMMEDIATE, Literal["top"],
                  "Discard the top Modifier of a living Character.", _remove_modifier),
        Primitive("revive", IMMEDIATE, Literal["yours", "any"],
                  "Bring a dead Character (yours, or anyone's) back to life.", _revive),
        Primitive("steal", IMMEDIATE, Count,
                  "Take N random cards from another player's hand.", _steal),
        Primitive("swap_hands", IMMEDIATE, Literal[True],
                  "Swap hands with another player.", _swap_hands),
        Primitive("skip_turn", IMMEDIATE, Literal["you", "other"],
                  "You, or another player you choose, skip the next turn.", _skip_turn),
        Primitive("if_icon", IMMEDIATE, str,
                  "Character requirement (R-G21): the steps in 'do' happen only if the "
                  "Character showed ICON when the card was played.", _if_icon,
                  nests=True, icons=_one),
        Primitive("move_character", IMMEDIATE, Which,
                  "Move a living Character (any, one of yours, or another player's) with its "
                  "stack to another player's family; its family must keep a living Character.",
                  H.move_character),
        Primitive("move_this", IMMEDIATE, Literal[True],
                  "Modifiers only: this card moves on to another living Character you choose "
                  "(it does not trigger again, R-G17).", H.move_this),
        Primitive("move_stack", IMMEDIATE, Which,
                  "Every Modifier on a living Character (any, yours, or another player's) moves, "
                  "in order, onto another living Character.", H.move_stack),
        Primitive("look_at_hand", IMMEDIATE, Literal[True],
                  "You look at another player's hand (only you see it).", H.look_at_hand),
        Primitive("look_at_draw_pile", IMMEDIATE, Annotated[int, Field(ge=1, le=5)],
                  "You look at the top N cards of the draw pile; they stay where they are.",
                  H.look_at_draw_pile),
        Primitive("take_card", IMMEDIATE, Annotated[int, Field(ge=1, le=3)],
                  "Choose another player and take N cards of your choice from their hand.",
                  H.take_card),
        Primitive("give_card", IMMEDIATE, Annotated[int, Field(ge=1, le=3)],
                  "Give N cards of your choice from your hand to another player you choose.",
                  H.give_card),
        Primitive("take_from_discard", IMMEDIATE,
                  Literal["any", "modifier", "event", "untimely_death"],
                  "Take a card of that type (or any) from the discard pile into your hand.",
                  H.take_from_discard),
        Primitive("extra_turn", IMMEDIATE, Literal[True],
                  "On your own turn: you play again after this turn (every other player skips "
                  "their next turn once).", H.extra_turn),
        Primitive("reverse_order", IMMEDIATE, Literal[True],
                  "The turn order reverses: play passes the other way from now on.",
                  H.reverse_order),
        Primitive("for_players", IMMEDIATE, PlayersFilter,
                  "The steps in 'do' are resolved by each other player, the player to your left "
                  "or right, the target's controller, or one other player you choose.",
                  H.for_players, nests=True),
        Primitive("only_if", IMMEDIATE, Condition,
                  "The steps in 'do' happen only if every test holds: the target's Self-Worth, "
                  "your hand size, a count of icons or cards, who owns the target.",
                  H.only_if, nests=True, icons=_cond_icons),
        Primitive("draw_limit", LASTING, Delta,
                  "Your draw limit changes by N while this effect holds.", limit=_limit),
        Primitive("draw_limit_per_icon", LASTING, PerIcon,
                  "Your draw limit changes by N for each visible ICON in your family while "
                  "this effect holds.", icons=_icon_of, limit=_limit_per_icon),
        Primitive("draw_limit_others", LASTING, Delta,
                  "Every other player's draw limit changes by N while this effect holds.",
                  others_limit=_ident),
        Primitive("turn_draw", LASTING, Annotated[int, Field(ge=1, le=3)],
                  "At the start of each of your turns, draw N cards while this effect holds.",
                  turn_draw=_ident),
        Primitive("worth_per_icon", LASTING, WorthPerIcon,
                  "This Character's Self-Worth changes by N for each ICON it shows, while this "
                  "effect holds (points that change).", icons=_icon_of, worth=_worth),
        Primitive("on", LASTING, Trigger,
                  "A trigger: whenever EVENT happens (a Character dies, a card is played on a "
                  "Character, a turn starts or ends) to this Character, yours, others' or "
                  "any, the steps in 'do' are resolved by this card's controller.",
                  nests=True, icons=_follow_icons,
                  trigger=_event_of),
        Primitive("follows", frozenset({"persistent"}), Follows,
                  "Guests only (R-H7): after a card of that type, or printing that icon, "
                  "resolves on a Character, this Guest joins that Character's family with "
                  "all its Modifiers.", follows=_follows),
        Primitive("cancel", frozenset({"response"}),
                  Literal["event", "untimely_death", "modifier"],
                  "Cancel a card of that type as another player plays it (R-G20); any "
                  "immediate steps after it are resolved by the responder.", cancels=_ident),
    )
}

LIMITS = {n: p.limit for n, p in PRIMITIVES.items() if p.limit is not None}
"""Lasting steps that change their holder's draw limit, by name (R-G14)."""
FOLLOWS = {n: p.follows for n, p in PRIMITIVES.items() if p.follows is not None}
"""Guest steps: whether one follows a card (R-H7)."""
hooks.OTHERS_LIMITS.update({n: p.others_limit for n, p in PRIMITIVES.items()
                            if p.others_limit is not None})
hooks.TURN_DRAWS.update({n: p.turn_draw for n, p in PRIMITIVES.items() if p.turn_draw is not None})
hooks.CANCELS.update({n: p.cancels for n, p in PRIMITIVES.items() if p.cancels is not None})
hooks.WORTHS.update({n: p.worth for n, p in PRIMITIVES.items() if p.worth is not None})
hooks.REVERSES.add("reverse_order")
hooks.RICH.update(n for n, p in PRIMITIVES.items() if p.handler in RICH_HANDLERS or p.trigger)
hooks.TRIGGERS.update({n: p.trigger for n, p in PRIMITIVES.items() if p.trigger is not None})
OTHERS_LIMITS, TURN_DRAWS, CANCELS = hooks.OTHERS_LIMITS, hooks.TURN_DRAWS, hooks.CANCELS
WORTHS, TRIGGERS = hooks.WORTHS, hooks.TRIGGERS


def step_icons(name: str, param: Any) -> tuple[str, ...]:
    """The icons a step's parameter names."""
    hook = PRIMITIVES[name].icons
    return () if hook is None else hook(param)


def allowed_in(name: str, when: str) -> bool:
    """Whether a primitive may appear in an effect of kind ``when``: its own kinds, and
    any immediate primitive after a response's ``cancel``."""
    prim = PRIMITIVES[name]
    return when in prim.when or (when == "response" and "immediate" in prim.when)
