"""A line of story for a play, so a game log reads like a tale of woe.

:func:`narrate` takes the view the player saw *before* the play (any seat's
view, or a spectator's) and the action, and picks one of our own templates
for the card's name and the target Character's name and state as that view
shows them. The seed picks among templates, so a record replays with the very
same lines. Non-plays (passes, setup choices, discards) get ``None``.

A told line is stored as data, not as a sentence: a compact JSON object naming the
template (``told``: its group, ``i``: its place) and typed values (card indices,
seats, a mood's index, a colour's index, a Machine's side), which
``gloomtable.i18n.narration_text`` says in the reader's language, English included,
so nothing is ever parsed back from English (``docs/i18n.md``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from gloomtable.engine import GloomtableError, Rng
from gloomtable.games import registry
from gloomtable.games.creatures.view import CreaturesView, creatures_view
from gloomtable.games.gloom.view import GloomView, gloom_view

# --- Gloom -------------------------------------------------------------------

_MOOD = (  # (highest Self-Worth, phrase), first match wins
    (-20, "beyond all hope"),
    (-10, "sunk deep in misery"),
    (-1, "already in debt to fate"),
    (0, "neither happy nor sad"),
    (9, "still far too cheerful"),
    (1000, "disgracefully content"),
)

_GLOOM = {  # Modifier and Death names are past-tense deeds: "Was Pursued by Geese"
    "sink_own": (
        "{char}, {mood}, {deed}.",
        "Then {char}, {mood}, {deed}; the family quietly approves.",
        "As if being {mood} were not enough, {char} {deed}.",
        "{char} {deed}. {mood_cap} before, and worse now.",
    ),
    "lift_other": (
        "{char}, {mood}, {deed}, to a rival's cruel delight.",
        "Cruelly, {char} {deed}; happiness is a terrible burden.",
        "{char}, {mood}, {deed}. Nobody at that table asked for it.",
    ),
    "lift_own": (
        "{char}, {mood}, {deed}, for reasons of long strategy.",
        "Against all custom, {char} {deed}.",
    ),
    "sink_other": (
        "{char}, {mood}, {deed}; an odd kindness from a rival.",
        "A rival sees to it that {char} {deed}.",
    ),
    "death_own": (
        "{char}, {mood}, {deed}, and that was the end.",
        "And so {char}, {mood}, {deed}. Rest, at last.",
        "{char} {deed}: {mood} to the very last.",
    ),
    "death_other": (
        "{char}, {mood}, {deed} before their time; a cruel mercy.",
        "A rival hurries {char} into the grave: {char} {deed}.",
    ),
    "event": (
        "{actor} plays {card}: the whole house shudders.",
        "{card}! {actor} stirs up trouble for everyone.",
    ),
    "respond": (
        "Not so fast: {actor} answers with {card}.",
        "{card}! {actor} will not have it.",
    ),
    "guest": (
        "{card} comes to stay with {char}, {mood}.",
        "{char}, {mood}, finds {card} on the doorstep.",
    ),
    "story": (
        "{actor} begins a new chapter: {card}.",
        "{card} is told, and the tale grows darker.",
    ),
    "other": (
        "{actor} plays {card} on {char}.",
    ),
}


def _mood(self_worth: int) -> int:
    """The index in ``_MOOD`` of how ``self_worth`` reads."""
    for i, (top, _phrase) in enumerate(_MOOD):
        if self_worth <= top:
            return i
    return len(_MOOD) - 1


@lru_cache(maxsize=16)
def _gloom_game(name: str, config_json: str) -> Any:
    from gloomtable.games import make_game

    return make_game(name, json.loads(config_json))


def _actor(view: GloomView) -> int | None:
    """The seat making the play (``None``: unknown, told as "someone")."""
    dec = view["decision"]
    p = view["viewer"] if dec is None else dec["player"]
    return None if p is None else int(p)


def _narrate_gloom(view: GloomView, action: int, rng: Rng) -> str | None:
    from gloomtable.games.gloom.actions import Kind
    from gloomtable.games.gloom.cards import CardType, visible

    name = view.get("game") or "gloom"
    try:
        game = _gloom_game(name, json.dumps(view["config"], sort_keys=True))
    except (GloomtableError, KeyError, TypeError):
        game = _gloom_game("gloom", json.dumps(view.get("config") or {}, sort_keys=True))
    codec, cards = game.codec, game.deck.cards
    if not 0 <= action < codec.size:
        return None
    dec = codec.decode(action)
    actor = _actor(view)
    if dec.kind is Kind.RESPOND:
        return _pick(rng, "respond", card=dec.card, actor=actor)
    if dec.kind is Kind.PLAY_EVENT:
        card = cards[dec.card]
        key = "story" if card.type is CardType.STORY else "event"
        return _pick(rng, key, card=dec.card, actor=actor)
    if dec.kind is not Kind.PLAY:
        return None
    card = cards[dec.card]
    chars = {ch["card"]: ch for fam in view["families"] for ch in fam["characters"]}
    guests = [g for fam in view["families"] for g in fam["guests"]]
    for guest in [*guests, *view["middle"]["guests"]]:
        chars.setdefault(guest["card"], guest)
    ch = chars.get(dec.target)
    worth = int(ch["self_worth"]) if ch else 0
    fields: dict[str, int | None] = {"card": dec.card, "char": dec.target, "mood": _mood(worth),
                                     "actor": actor}
    dec_view = view["decision"]
    me = view["viewer"] if dec_view is None else dec_view["player"]
    own = ch is not None and ch["controller"] == me
    if card.type is CardType.UNTIMELY_DEATH:
        return _pick(rng, "death_own" if own else "death_other", **fields)
    if card.type is CardType.GUEST:
        return _pick(rng, "guest", **fields)
    if card.type is CardType.MODIFIER and ch is not None:
        stack = [cards[i] for i in ch["stack"]]
        delta = visible([*stack, card]).self_worth - visible(stack).self_worth
        if delta <= 0:
            return _pick(rng, "sink_own" if own else "sink_other", **fields)
        return _pick(rng, "lift_own" if own else "lift_other", **fields)
    return _pick(rng, "other", **fields)


def _deed(name: str, gender: str | None = None) -> str:
    """A card's name as the end of a sentence: "Was Pursued by Geese" -> "was pursued by
    geese", and "were ..." for a Character of ``plural`` gender (twins)."""
    words = [w if w.isupper() and len(w) > 1 else w.lower() for w in name.split()]
    if gender == "plural" and words[:1] == ["was"]:
        words[0] = "were"
    return " ".join(words)


def _pick(rng: Rng, key: str, **fields: int | str | None) -> str:
    """The told line as data: the template's group and place, and the typed values."""
    options = _GLOOM[key] if key in _GLOOM else _CREATURES[key]
    return json.dumps({"told": key, "i": rng.below(len(options)), **fields}, separators=(",", ":"))


TEMPLATES: dict[str, tuple[str, ...]] = {}
"""Every template by its group, both games (filled below)."""


# --- Crazy Creatures ---------------------------------------------------------

_CREATURES = {
    "play": (
        "{actor} sends a {label} {creature} scrambling onto the {colour} pile.",
        "{actor}'s {label} {creature} climbs aboard and looks pleased with itself.",
        "{actor} feeds a {label} {creature} to the {machine}.",
    ),
    "same": (
        "Another {number}! {actor}'s {creature} lands on its twin, and the lab rumbles.",
        "{actor} matches the {number} exactly; Dr. Gloom takes notes.",
    ),
    "last": (
        "{actor} plays a last {label} {creature} and empties their hand.",
    ),
    "flip": (
        "{actor} throws the lever: the {colour} Machine turns to the {machine}.",
        "Sparks fly as {actor} flips the {colour} Machine to the {machine}.",
    ),
    "draw": (
        "{actor} shoves a stray Creature from the Reserve at {victim}.",
        "{victim} must take a Creature from the Reserve, courtesy of {actor}.",
    ),
}


TEMPLATES.update(_GLOOM)
TEMPLATES.update(_CREATURES)


def _narrate_creatures(view: CreaturesView, action: int, rng: Rng) -> str | None:
    from gloomtable.games.creatures.actions import DRAW_BASE, FLIP_BASE, NUM_ACTIONS, PLAY_BASE
    from gloomtable.games.creatures.cards import COLOUR, NUMBER

    p = view.get("current_player", view.get("viewer"))
    actor = None if p is None else int(p)
    machines = view.get("machines") or []
    if PLAY_BASE <= action < FLIP_BASE:
        card = action - PLAY_BASE
        col = COLOUR[card]
        m = machines[col] if col < len(machines) else None
        fields: dict[str, int | str | None] = {
            "actor": actor, "label": card, "creature": col, "colour": col, "number": NUMBER[card],
            "machine": "minus" if m and m["side"] == "-" else "plus"}
        counts = view.get("hand_counts") or []
        if p is not None and p < len(counts) and counts[p] == 1:
            return _pick(rng, "last", **fields)
        if m is not None and m["top"] == NUMBER[card]:
            return _pick(rng, "same", **fields)
        return _pick(rng, "play", **fields)
    if FLIP_BASE <= action < DRAW_BASE:
        col = action - FLIP_BASE
        side = machines[col]["side"] if col < len(machines) else "+"
        return _pick(rng, "flip", actor=actor, colour=col, machine="minus" if side == "+" else "plus")
    if DRAW_BASE <= action < NUM_ACTIONS:
        return _pick(rng, "draw", actor=actor, victim=action - DRAW_BASE)
    return None


def narrate(game: str, view: Mapping[str, Any], action: int, seed: int) -> str | None:
    """One story line for ``action`` taken from the position ``view`` shows, or
    None for a non-play (a pass, a setup choice, a discard) or an unknown game.
    Never raises on odd input: narration must not break a game."""
    rng = Rng(seed * 7919 + action)
    try:
        entry = registry.find(game)
        return None if entry is None else entry.narrate(view, action, rng)
    except (GloomtableError, KeyError, IndexError, TypeError, ValueError):
        return None


def narrate_gloom(view: Mapping[str, Any], action: int, rng: Rng) -> str | None:
    """A line for a Gloom or Gloomier play (the registry's ``narrator``)."""
    return _narrate_gloom(gloom_view(view), action, rng)


def narrate_creatures(view: Mapping[str, Any], action: int, rng: Rng) -> str | None:
    """A line for a Crazy Creatures action (the registry's ``narrator``)."""
    return _narrate_creatures(creatures_view(view), action, rng)
