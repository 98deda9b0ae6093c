"""Crazy Creatures' told lines: a line of story for a play (the registry's
``narrator``), and how such a line reads in each language (its ``teller``, which
``i18n/narration_text.py`` asks). A told line is data: the template's group and place
and typed values (a card, a colour's index, a Machine's side, seats), said in the
reader's language, English included (``docs/i18n.md``)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from gloomtable.engine import Game, Rng
from gloomtable.engine.hooks import Translating
from gloomtable.games.creatures.view import CreaturesView, creatures_view
from gloomtable.i18n.narration_text import seat_of

TEMPLATES: dict[str, tuple[str, ...]] = {
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



def _pick(rng: Rng, key: str, **fields: int | str | None) -> str:
    """The told line as data: the template's group and place, and the typed values."""
    return json.dumps({"told": key, "i": rng.below(len(TEMPLATES[key])), **fields}, separators=(",", ":"))


def _narrate(view: CreaturesView, action: int, rng: Rng) -> str | None:
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


def narrate_creatures(view: Mapping[str, Any], action: int, rng: Rng) -> str | None:
    """A line for a Crazy Creatures action (the registry's ``narrator``)."""
    return _narrate(creatures_view(view), action, rng)


# --- said in the reader's language ------------------------------------------------------


def _values(game: Game | None, tr: Translating, data: Mapping[str, Any]) -> dict[str, str]:
    from gloomtable.games.creatures.cards import CREATURE_SET, CREATURES
    from gloomtable.games.creatures.hooks.card_texts import CreatureTexts

    card_set = getattr(game, "card_set", CREATURE_SET)
    keys = [c.key for c in card_set.colours]
    texts = CreatureTexts(card_set, tr.lang)
    english = tr.lang == "en"
    out: dict[str, str] = {"actor": seat_of(tr, data.get("actor")), "victim": seat_of(tr, data.get("victim"))}
    if "label" in data:
        c = CREATURES[int(data["label"])]
        out["label"] = c.label if english else f"{texts.colour(c.colour_key)} {c.number}"
    if "colour" in data:
        key = keys[int(data["colour"])]
        spec = card_set.colours[int(data["colour"])]
        out["colour"] = key if english else texts.machine_colour(key)
        out["creature"] = spec.creature if english else texts.creature(key)
    if "number" in data:
        out["number"] = str(int(data["number"]))
    if "machine" in data:
        side = "minus" if data["machine"] == "minus" else "plus"
        out["machine"] = (card_set.minus if side == "minus" else card_set.plus).name if english \
            else texts.machine(side)
    return out


class _Teller:
    """Crazy Creatures' told lines in the reader's language (the registry's ``teller``)."""

    templates = TEMPLATES

    def messages(self) -> Iterator[str]:
        for group in TEMPLATES.values():
            yield from group

    def values(self, game: Game | None, tr: Translating, data: Mapping[str, Any]) -> dict[str, str]:
        return _values(game, tr, data)


TELLER = _Teller()
