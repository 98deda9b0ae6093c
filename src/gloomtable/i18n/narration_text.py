"""Bot narration in the reader's language, English included.

A bot's told line is data (``bots/narration.py``, each game's own narrator): the
template's group and place and typed values (card indices, seats, a mood, a colour, a
Machine's side). Here it is made into a sentence when someone reads it: the template
is the msgid, and the game's *teller* (its registry entry's ``teller``:
``games/<game>/hooks/narration.py`` for the shipped games) says each value in that
language. What people type is not told data and is shown as they wrote it; so is a
line some older record kept as English text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from gloomtable.engine.hooks import Teller, Translating
from gloomtable.games import registry
from gloomtable.i18n.catalog import translator
from gloomtable.i18n.grammar import close_appositions, seat
from gloomtable.i18n.markers import N_

INNER_TITLE = N_("\u2018{title}\u2019")
"""A title inside a narration, which the page shows in quotes (“…” in Spanish, „…“ in
Russian)."""

LIMIT = 400
"""The longest text read as told data; anything longer is a person's words."""


def tellers() -> list[Teller]:
    """Every registered game's teller, once each (Gloomier shares Gloom's)."""
    out: list[Teller] = []
    for entry in registry.entries():
        if entry.teller is not None and all(entry.teller.get() is not t for t in out):
            out.append(entry.teller.get())
    return out


def messages() -> Iterable[str]:
    """Every narration text to translate (read by ``gloomtable.i18n.extract``)."""
    for teller in tellers():
        yield from teller.messages()


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
    if not isinstance(group, str) or not isinstance(i, int) or isinstance(i, bool):
        return None
    return data


def seat_of(tr: Translating, value: Any) -> str:
    """A seat with the forms the language's templates ask for (``{victim:dat}``)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 64:
        return seat(tr.lang, tr.gettext("Player {n}").format(n=value + 1), value + 1)
    return seat(tr.lang, tr.gettext("someone"), None)


def _teller(game: Any, group: str) -> Teller | None:
    """The teller of ``game``'s lines; for no game (or one the registry does not know),
    the one whose templates hold ``group``."""
    entry = registry.find(getattr(game, "name", None))
    if entry is not None and entry.teller is not None:
        return entry.teller.get()
    return next((t for t in tellers() if group in t.templates), None)


def tell(game: Any, text: str | None, lang: str) -> str | None:
    """``text`` as a reader of ``lang`` reads it: told data made into the sentence of its
    template; anything else (a person's words, an older record's English line) as it is."""
    data = told(text)
    if data is None:
        return text
    teller = _teller(game, data["told"])
    group = None if teller is None else teller.templates.get(data["told"])
    if teller is None or group is None or not 0 <= data["i"] < len(group):
        return text
    tr = translator(lang)
    try:
        values = teller.values(game, tr, data)
        return close_appositions(tr.gettext(group[data["i"]]).format(**values), values.values())
    except (KeyError, IndexError, TypeError, ValueError):
        return text
