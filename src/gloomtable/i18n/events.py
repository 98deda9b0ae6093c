"""Events read in a language: a message and its arguments made into a line.

The engine names a :class:`~gloomtable.engine.messages.Msg` and passes typed values;
here, and only when someone reads the event, its catalogue entry is looked up in the
reader's language (plural by the count, a context by the subject's gender) and each
value is said the way that game's :class:`Voice` says it. English is rendered the same
way from the English catalogue, so there is no English text to parse back.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from gloomtable.engine import Event, Msg
from gloomtable.engine.hooks import Voice as Voice  # re-exported: what a game's voice is
from gloomtable.games import registry
from gloomtable.i18n.catalog import translator
from gloomtable.i18n.grammar import close_appositions
from gloomtable.i18n.markers import GENDER_CONTEXTS


class MessageError(TypeError):
    """An event that is not a catalogue message with its arguments."""


def fill(voice: Voice, msg: Msg, args: tuple[Any, ...]) -> str:
    """``msg`` with ``args`` in ``voice``'s language."""
    if not isinstance(msg, Msg):
        raise MessageError(f"an event carries {msg!r}, not a catalogue message (engine/messages.py)")
    if len(args) != len(msg.fields):
        raise MessageError(f"{msg.msgid!r} takes {len(msg.fields)} arguments "
                           f"{msg.fields}, got {len(args)}: {args!r}")
    values = dict(zip(msg.fields, args, strict=True))
    gender = voice.gender(values[msg.subject]) if msg.subject is not None else None
    out = {name: voice.value(name.rstrip("0123456789"), v, gender) for name, v in values.items()}
    tr = voice.tr
    context = gender if msg.gendered and gender in GENDER_CONTEXTS else None
    if msg.plural is not None and msg.count is not None:
        n = values[msg.count]
        pattern = tr.ngendered(context, msg.msgid, msg.plural, len(n) if isinstance(n, tuple) else n)
    else:
        pattern = tr.gendered(context, msg.msgid)
    return close_appositions(pattern.format(**out), out.values())


@lru_cache(maxsize=128)
def voice(game: Any, family: str, lang: str) -> Voice:
    """The voice of ``game`` (``None``: arguments that need no deck) in ``lang``;
    ``family`` is the registered game that declared the message.

    **Decision:** one voice per (game, language) for the process, so a card keeps the
    form it was last told in across lines (see ``GloomVoice``), as one reader would."""
    entry = registry.find(family)
    if entry is None:
        raise MessageError(f"no game {family!r} declares voices for its messages")
    found: Voice = entry.voice_for(game, translator(lang))
    return found


def render(event: Event, lang: str) -> str:
    """``event`` in ``lang`` (English for an unknown language)."""
    msg = event.msg
    if not isinstance(msg, Msg):
        raise MessageError(f"event {event.kind!r} carries {msg!r}, not a catalogue message")
    return fill(voice(event.game, msg.game, translator(lang).lang), msg, event.args)
