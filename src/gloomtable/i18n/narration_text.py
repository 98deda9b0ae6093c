"""Bot narration in the reader's language.

Bots tell each play in English from the templates of ``bots/narration.py`` (a line is
stored once and shown to everyone). Like the engine's lines, a bot's line is recognised
by its template and told again in the reader's language: the template is the msgid, the
Character's name, the card (as a quoted title or, for a deed, in the form agreeing with
the Character), the mood and the seats are put back in that language. What people type
matches no template and is shown as they wrote it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from gloomtable.bots import narration as bot
from gloomtable.i18n.catalog import Translator
from gloomtable.i18n.recognise import T, Template, alternation

MOODS = tuple(phrase for _, phrase in bot._MOOD)
"""The bots' moods (how a Character's Self-Worth reads), each a catalogue message."""


def gloom_templates() -> list[Template]:
    return [T(msg, subject="char" if "{char}" in msg else None)
            for msgs in bot._GLOOM.values() for msg in msgs]


def creatures_templates() -> list[Template]:
    return [T(msg) for msgs in bot._CREATURES.values() for msg in msgs]


def messages() -> Iterable[str]:
    """Every narration text to translate (read by ``gloomtable.i18n.extract``)."""
    for t in [*gloom_templates(), *creatures_templates()]:
        yield t.msgid
    yield from MOODS


def seat_kind(tr: Translator) -> tuple[str, Callable[[str], str]]:
    """"Player 2" / "someone" as the line's subject, in the reader's language."""
    def convert(value: str) -> str:
        m = re.fullmatch(r"Player (\d+)", value)
        return tr.gettext("Player {n}").format(n=m.group(1)) if m else tr.gettext("someone")
    return r"Player \d+|someone", convert


def mood_kinds(tr: Translator) -> dict[str, tuple[str, Callable[[str], str]]]:
    caps = {m[:1].upper() + m[1:]: m for m in MOODS}

    def cap(value: str) -> str:
        text = tr.gettext(caps[value])
        return text[:1].upper() + text[1:]
    return {"mood": (alternation(MOODS), tr.gettext), "mood_cap": (alternation(caps), cap)}


def deed_kind(deck: Any, texts: Any) -> tuple[str, Callable[[str, str | None], str]]:
    """A card's name as the end of a sentence, in the form agreeing with the Character."""
    index_of = {bot._deed(c.name, g): c.index for c in deck.cards for g in ("plural", None)}

    def convert(value: str, gender: str | None = None) -> str:
        name = str(texts.name(index_of[value], gender))
        return name[:1].lower() + name[1:]
    return alternation(index_of), convert
