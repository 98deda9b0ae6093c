"""Bot narration in the reader's language, English included.

A bot's told line is data (``bots/narration.py``): the template's group and place and
typed values (card indices, seats, a mood, a colour, a Machine's side). Here it is made
into a sentence when someone reads it: the template is the msgid, each value said in
that language (a Character by its name, any other card as a quoted title in the form
agreeing with the Character, a deed in that form). What people type is not told data
and is shown as they wrote it; so is a line some older record kept as English text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from gloomtable.bots import narration as bot
from gloomtable.i18n.catalog import Translator, translator
from gloomtable.i18n.grammar import close_appositions, seat
from gloomtable.i18n.markers import N_

MOODS = tuple(phrase for _, phrase in bot._MOOD)
"""The bots' moods (how a Character's Self-Worth reads), each a catalogue message."""

INNER_TITLE = N_("\u2018{title}\u2019")
"""A title inside a narration, which the page shows in quotes (“…” in Spanish, „…“ in
Russian)."""

LIMIT = 400
"""The longest text read as told data; anything longer is a person's words."""


def gloom_templates() -> list[str]:
    return [msg for msgs in bot._GLOOM.values() for msg in msgs]


def creatures_templates() -> list[str]:
    return [msg for msgs in bot._CREATURES.values() for msg in msgs]


def messages() -> Iterable[str]:
    """Every narration text to translate (read by ``gloomtable.i18n.extract``)."""
    yield from gloom_templates()
    yield from creatures_templates()
    yield from MOODS


def told(text: str | None) -> dict[str, Any] | None:
    """The told data in ``text``, or ``None`` for anything else (a person's words)."""
    if not text or len(text) > LIMIT or not text.startswith('{"told":'):
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    group, i = data.get("told"), data.get("i")
    if not isinstance(group, str) or group not in bot.TEMPLATES or not isinstance(i, int):
        return None
    if not 0 <= i < len(bot.TEMPLATES[group]):
        return None
    return data


def _seat(tr: Translator, value: Any) -> str:
    """A seat with the forms the language's templates ask for (``{victim:dat}``)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 64:
        return seat(tr.lang, tr.gettext("Player {n}").format(n=value + 1), value + 1)
    return seat(tr.lang, tr.gettext("someone"), None)


def _gloom_values(game: Any, tr: Translator, data: dict[str, Any]) -> dict[str, str]:
    from gloomtable.i18n.cards import GloomTexts

    deck = game.deck
    cards = deck.cards
    english = tr.lang == "en"
    texts = None if english else GloomTexts(deck, tr.lang)

    def index(key: str) -> int:
        value = data.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < len(cards):
            raise ValueError(f"{key}: no card {value!r}")
        return value

    out: dict[str, str] = {"actor": _seat(tr, data.get("actor"))}
    gender = None
    if "char" in data:
        c = index("char")
        gender = getattr(cards[c], "gender", None) if texts is None else texts.gender(c)
        out["char"] = cards[c].name if texts is None else texts.person(c)
    if "card" in data:
        c = index("card")
        if texts is None:
            out["card"] = cards[c].name
            out["deed"] = bot._deed(cards[c].name, gender)
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


def _creatures_values(game: Any, tr: Translator, data: dict[str, Any]) -> dict[str, str]:
    from gloomtable.games.creatures.cards import CREATURE_SET, CREATURES
    from gloomtable.i18n.cards import CreatureTexts

    card_set = getattr(game, "card_set", CREATURE_SET)
    keys = [c.key for c in card_set.colours]
    texts = CreatureTexts(card_set, tr.lang)
    english = tr.lang == "en"
    out: dict[str, str] = {"actor": _seat(tr, data.get("actor")), "victim": _seat(tr, data.get("victim"))}
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


def tell(game: Any, text: str | None, lang: str) -> str | None:
    """``text`` as a reader of ``lang`` reads it: told data made into the sentence of its
    template; anything else (a person's words, an older record's English line) as it is."""
    data = told(text)
    if data is None:
        return text
    tr = translator(lang)
    template = bot.TEMPLATES[data["told"]][data["i"]]
    try:
        values = (_gloom_values(game, tr, data) if hasattr(game, "deck")
                  else _creatures_values(game, tr, data))
        return close_appositions(tr.gettext(template).format(**values), values.values())
    except (KeyError, IndexError, TypeError, ValueError):
        return text
