"""What one seat may see (DESIGN "Hidden information"): own hand in full, other
hands as counts, the draw pile as a count; the table and discard pile in full.

The view is plain JSON-ready data, typed as :class:`GloomView` and its parts: every
key a client reads is checked by mypy, and at run time it stays a dict (no cost on
the RL path, which builds one per step)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict, cast

from gloomtable.engine import DecisionKind, ResultView
from gloomtable.games.gloom.cards import Card, CardType, Region, Visible
from gloomtable.games.gloom.rules.board import Board
from gloomtable.games.gloom.rules.plays import legal_actions
from gloomtable.games.gloom.rules.scoring import family_value, result
from gloomtable.games.gloom.rules.turn import draw_limit
from gloomtable.games.gloom.tasks import RESPOND, SETUP_DRAFT

_TEXT = int(Region.TEXT)


def _has(card: Card, when: str) -> bool:
    return any(e.when == when for e in card.effects)


def stack_facts(v: Visible) -> tuple[int | None, tuple[int, ...], bool]:
    """(card whose text shows, cards whose continuous (text showing) or persistent
    effects hold, dead) of a stack, worked out once per stack (every view and
    observation asks for them, and a new stack is made on nearly every play)."""
    if v.view_facts is None:
        stack, shown = v.stack, v.shown_by
        text = shown[_TEXT]
        dead = stack[-1].type is CardType.UNTIMELY_DEATH
        live: list[int] = []
        if not dead:
            if text >= 0 and _has(stack[text], "continuous"):
                live.append(stack[text].index)
            live += [c.index for c in v.persistent_cards() if _has(c, "persistent")]
        v.view_facts = (stack[text].index if text >= 0 else None, tuple(live), dead)
    facts: tuple[int | None, tuple[int, ...], bool] = v.view_facts
    return facts


class CharacterView(TypedDict):
    """A Character or a Guest on the table, with what shows on its stack (R-G4)."""

    card: int
    name: str
    stack: list[int]
    """Card indices, bottom first."""
    self_worth: int
    points: list[int | None]
    """The visible point value of each region, top to bottom (None: none shows)."""
    icon_slots: list[str | None]
    icons: list[str]
    text_from: int | None
    """The card whose text shows on the stack."""
    live_effects: list[int]
    """Cards whose continuous or persistent effects hold (none for beginners, R-G22)."""
    dead: bool
    controller: int
    """The seat it belongs to, or -1 (a Guest in the middle, R-H6)."""
    guest: bool


class StoryView(TypedDict):
    card: int
    name: str
    text: str
    requires: dict[str, int]
    """Icon -> how many a family must show to claim it (R-H5)."""
    controller: int


class DecisionView(TypedDict):
    player: int
    kind: DecisionKind


class PlayingView(TypedDict):
    """The card being played, while the others may answer it (R-G20)."""

    card: int
    target: int | None
    player: int


class FamilyOption(TypedDict):
    index: int
    id: str
    name: str


class CharacterOption(TypedDict):
    card: int
    name: str


class FamilyView(TypedDict):
    player: int
    family_value: int
    characters: list[CharacterView]
    guests: list[CharacterView]
    story: StoryView | None


class MiddleView(TypedDict):
    """What no family holds yet (Gloomier, R-H6)."""

    guests: list[CharacterView]
    stories: list[StoryView]


class GloomView(TypedDict):
    """Everything one seat (or a spectator: ``viewer`` None) may see of a Gloom game."""

    game: str
    viewer: int | None
    players: int
    direction: NotRequired[int]
    """1, or -1 once the turn order is reversed; only in games whose deck can reverse it."""
    turn: int
    round: int
    turn_player: int
    decision: DecisionView | None
    plays_left: int
    free_plays: list[str]
    hand: list[int] | None
    hand_sizes: list[int]
    draw_limits: list[int]
    draw_pile: int
    discard: list[int]
    in_play: list[int]
    playing: PlayingView | None
    config: dict[str, Any]
    skips: list[int]
    families_available: list[FamilyOption]
    characters_available: list[CharacterOption]
    families: list[FamilyView]
    middle: MiddleView
    legal_actions: list[int]
    over: bool
    result: ResultView | None


def gloom_view(view: Mapping[str, Any]) -> GloomView:
    """A view from the engine protocol (``State.view``) as the Gloom view it is, for a
    client that knows its game is Gloom or Gloomier; another game's view is refused."""
    if "families" not in view or "middle" not in view:
        raise TypeError(f"not a view of a Gloom game: {view.get('game')!r}")
    return cast(GloomView, view)


def character_view(state: Board, c: int) -> CharacterView:
    v = state.visible_of(c)
    text_from, live, dead = stack_facts(v)
    return {
        "card": c,
        "name": state.cards[c].name,
        "stack": list(state.stacks[c]),
        "self_worth": v.self_worth,
        "points": list(v.points),
        "icon_slots": list(v.icon_slots),
        "icons": list(v.icons),
        "text_from": text_from,
        "live_effects": [] if state.game.config.beginner else list(live),
        "dead": dead,
        "controller": state.controller[c],
        "guest": state.cards[c].type is CardType.GUEST,
    }


def story_view(state: Board, s: int) -> StoryView:
    card = state.cards[s]
    return {"card": s, "name": card.name, "text": card.text,
            "requires": dict(card.requires), "controller": state.stories[s]}


def _playing(state: Board) -> PlayingView | None:
    """The card being played and its target while a response window is open."""
    d = state.decision
    if d.kind != RESPOND or d.task is None:
        return None
    ctx = d.task.ctx
    return {"card": ctx.card, "target": None if ctx.target < 0 else ctx.target,
            "player": state.turn_player}


def build_view(state: Board, viewer: int | None) -> GloomView:
    d = state.decision
    deciding = viewer is not None and not state.over and d.player == viewer
    view: GloomView = {
        "game": state.game.name,
        "viewer": viewer,
        "players": state.n,
        "turn": state.turn,
        "round": state.rounds,
        "turn_player": state.turn_player,
        "decision": None if state.over else {"player": d.player, "kind": d.kind},
        "plays_left": max(0, 2 - state.counted_used),
        "free_plays": list(state.free_plays),
        "hand": sorted(state.hands[viewer]) if viewer is not None else None,
        "hand_sizes": [len(h) for h in state.hands],
        "draw_limits": [draw_limit(state, p) for p in range(state.n)],
        "draw_pile": len(state.draw_pile),
        "discard": list(state.discard),
        "in_play": list(state.limbo),
        "playing": _playing(state),
        "config": state.game.config_dict(),
        "skips": list(state.skips),
        "families_available": [
            {"index": f, "id": fam.id, "name": fam.name}
            for f, fam in enumerate(state.game.deck.families) if state.family_taken[f] < 0
        ],
        "characters_available": [
            {"card": c, "name": state.name(c)}
            for c in (state.codec.chosen_card(a) for a in d.options)
        ] if d.kind == SETUP_DRAFT and not state.over else [],
        "families": [
            {"player": p, "family_value": family_value(state, p),
             "characters": [character_view(state, c) for c in fam],
             "guests": [character_view(state, g) for g in state.guests
                        if state.controller[g] == p],
             "story": None if state.story_of(p) < 0 else story_view(state, state.story_of(p))}
            for p, fam in enumerate(state.families)
        ],
        "middle": {
            "guests": [character_view(state, g) for g in state.guests if state.controller[g] < 0],
            "stories": [story_view(state, s) for s, owner in state.stories.items() if owner < 0],
        },
        "legal_actions": legal_actions(state) if deciding else [],
        "over": state.over,
        "result": result(state).to_dict() if state.over else None,
    }
    if state.game.reverses:
        view["direction"] = state.direction
    return view
