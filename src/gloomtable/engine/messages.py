"""Messages: what an event says, as a catalogue entry and typed arguments.

An engine never writes a sentence. It names a :class:`Msg` (declared once, at import)
and passes the values its placeholders stand for: seats (``p``, ``q``, ``r``: 0-based),
card indices (``card``, ``char``), counts (``n``) and a few game-specific keys. The
sentence is made only when someone reads the event, in their language, by
``gloomtable.i18n.events`` from the same catalogue for English as for every other
language (see ``docs/i18n.md``). An action that makes two events pays for two tuples,
not for two formatted strings.

The msgid is the English text with its placeholders (``"Player {p} draws {card}."``):
the gettext catalogues already key their translations by it, and a reader of the code
sees what the line says.
"""

from __future__ import annotations

import re

_PLACEHOLDER = re.compile(r"\{(\w+)\}")

REGISTRY: list[Msg] = []
"""Every message declared, in the order modules declare them (read by extraction and
by the tests that pin a template per message)."""


class Msg:
    """One message of the catalogue.

    ``plural``: the English plural of a count message, whose count is the placeholder
    ``count`` (an integer, or a tuple counted by its length). ``subject``: the
    placeholder naming the Character the line is about (card names in the line agree
    with its gender). ``gendered``: the line's own words change
    with that gender (catalogue contexts ``feminine`` / ``plural``). ``game``: the game
    whose readers know this message's argument kinds. ``fields`` are the placeholder
    names in order of first appearance: an event's ``args`` hold their values in that
    order."""

    __slots__ = ("count", "fields", "game", "gendered", "msgid", "plural", "subject")

    def __init__(self, game: str, msgid: str, plural: str | None = None, *, count: str = "n",
                 subject: str | None = None, gendered: bool = False) -> None:
        self.game = game
        self.msgid = msgid
        self.plural = plural
        self.count = count if plural is not None else None
        self.subject = subject
        self.gendered = gendered
        self.fields = tuple(dict.fromkeys(_PLACEHOLDER.findall(msgid)))
        if plural is not None and tuple(dict.fromkeys(_PLACEHOLDER.findall(plural))) != self.fields:
            raise ValueError(f"{msgid!r}: the plural has other placeholders than the singular")
        if plural is not None and count not in self.fields:
            raise ValueError(f"{msgid!r}: the count {{{count}}} is not a placeholder")
        if subject is not None and subject not in self.fields:
            raise ValueError(f"{msgid!r}: the subject {{{subject}}} is not a placeholder")
        REGISTRY.append(self)

    def __repr__(self) -> str:
        return f"Msg({self.msgid!r})"

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        """Pickled (search workers, multiprocessing) by its id: the same object back."""
        return by_id, (self.game, self.msgid)


def by_id(game: str, msgid: str) -> Msg:
    """The declared message of ``game`` with this msgid (``KeyError`` if none)."""
    import importlib

    importlib.import_module(f"gloomtable.games.{game}.messages")  # declares them once
    for m in REGISTRY:
        if m.msgid == msgid and m.game == game:
            return m
    raise KeyError(f"{game}: no message {msgid!r}")
