"""Gloom's told lines: a line of story for a play, so a game log reads like a tale of
woe (the registry's ``narrator``), and how such a line reads in each language (its
``teller``, which ``i18n/narration_text.py`` asks).

:func:`narrate_gloom` takes the view the player saw *before* the play (any seat's view,
or a spectator's) and the action, and picks one of our own templates for the card's
name and the target Character's name and state as that view shows them. The seed picks
among templates, so a record replays with the very same lines. Non-plays (passes,
setup choices, discards) get ``None``. A told line is stored as data, not as a sentence:
a compact JSON object naming the template (``told``: its group, ``i``: its place) and
typed values (card indices, seats, a mood's index), which :data:`TELLER` says in the
reader's language, English included (``docs/i18n.md``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any

from gloomtable.engine import Game, GloomtableError, Rng
from gloomtable.engine.hooks import Translating
from gloomtable.games.gloom.cards import Deck
from gloomtable.games.gloom.view import GloomView, gloom_view
from gloomtable.i18n.narration_text import INNER_TITLE, seat_of

_MOOD = (  # (highest Self-Worth, phrase), first match wins
    (-20, "beyond all hope"),
    (-10, "sunk deep in misery"),
    (-1, "already in debt to fate"),
    (0, "neither happy nor sad"),
    (9, "still far too cheerful"),
    (1000, "disgracefully content"),
)

# Modifier and Death names are past-tense deeds: "Was Pursued by Geese"
TEMPLATES: dict[str, tuple[str, ...]] = {
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


MOODS = tuple(phrase for _, phrase in _MOOD)
"""The moods (how a Character's Self-Worth reads), each a catalogue message."""


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


def _narrate(view: GloomView, action: int, rng: Rng) -> str | None:
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


def deed(name: str, gender: str | None = None) -> str:
    """A card's name as the end of a sentence: "Was Pursued by Geese" -> "was pursued by
    geese", and "were ..." for a Character of ``plural`` gender (twins)."""
    words = [w if w.isupper() and len(w) > 1 else w.lower() for w in name.split()]
    if gender == "plural" and words[:1] == ["was"]:
        words[0] = "were"
    return " ".join(words)


def _pick(rng: Rng, key: str, **fields: int | str | None) -> str:
    """The told line as data: the template's group and place, and the typed values."""
    return json.dumps({"told": key, "i": rng.below(len(TEMPLATES[key])), **fields}, separators=(",", ":"))


def narrate_gloom(view: Mapping[str, Any], action: int, rng: Rng) -> str | None:
    """A line for a Gloom or Gloomier play (the registry's ``narrator``)."""
    return _narrate(gloom_view(view), action, rng)


# --- said in the reader's language ------------------------------------------------------


def _values(game: Game | None, tr: Translating, data: Mapping[str, Any]) -> dict[str, str]:
    from gloomtable.games.gloom.hooks.card_texts import GloomTexts

    deck: Deck | None = getattr(game, "deck", None)  # a Gloom game's, or a stand-in's with one
    if deck is None:
        raise TypeError("a Gloom line names cards of its game's deck")
    cards = deck.cards
    english = tr.lang == "en"
    texts = None if english else GloomTexts(deck, tr.lang)

    def index(key: str) -> int:
        value = data.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < len(cards):
            raise ValueError(f"{key}: no card {value!r}")
        return value

    out: dict[str, str] = {"actor": seat_of(tr, data.get("actor"))}
    gender = None
    if "char" in data:
        c = index("char")
        gender = getattr(cards[c], "gender", None) if texts is None else texts.gender(c)
        out["char"] = cards[c].name if texts is None else texts.person(c)
    if "card" in data:
        c = index("card")
        if texts is None:
            out["card"] = cards[c].name
            out["deed"] = deed(cards[c].name, gender)
        else:
            name = texts.name(c, gender)
            out["card"] = (texts.person(c) if texts.is_person(c)
                           else tr.gettext(INNER_TITLE).format(title=name))
            out["deed"] = name[:1].lower() + name[1:]
    if "mood" in data:
        m = data["mood"]
        if not isinstance(m, int) or not 0 <= m < len(MOODS):
            raise ValueError(f"no mood {m!r}")
        mood = tr.gettext(MOODS[m])
        out["mood"], out["mood_cap"] = mood, mood[:1].upper() + mood[1:]
    return out


class _Teller:
    """Gloom's told lines in the reader's language (the registry's ``teller``)."""

    templates = TEMPLATES

    def messages(self) -> Iterator[str]:
        for group in TEMPLATES.values():
            yield from group
        yield from MOODS

    def values(self, game: Game | None, tr: Translating, data: Mapping[str, Any]) -> dict[str, str]:
        return _values(game, tr, data)


TELLER = _Teller()
