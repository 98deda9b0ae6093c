"""One entry point for clients: a game's texts in one language.

``localizer_for(game, lang)`` gives ``event(e)``, ``action(state, a)``,
``render(state, seat)`` and ``decision(kind)``. Events are rendered from their message
and arguments in every language, English included (``i18n/events.py``); for English the
actions and the table are the engine's own texts. A game without a localizer (a new
one) falls back to the engine's English for those."""

from __future__ import annotations

from typing import Any

from gloomtable.engine import Event, Game, State
from gloomtable.games import registry
from gloomtable.i18n.catalog import Translator, translator
from gloomtable.i18n.events import render


class Localizer:
    """The English pass-through; subclasses of the game formatters translate."""

    def __init__(self, tr: Translator, impl: Any = None) -> None:
        self.tr = tr
        self.impl = impl
        self.lang = tr.lang

    def event(self, event: Event) -> str:
        """``event`` in this language, from its message and arguments."""
        return render(event, self.lang)

    def narration(self, text: str) -> str:
        """A line said about a play: a bot's, from its template, in this language; what a
        person typed, as they wrote it."""
        told = getattr(self.impl, "narration", None)
        return str(told.format(text)) if told is not None else text

    def action(self, state: State, action: int) -> str:
        text = state.action_to_string(action)
        return self.impl.actions.format(text) if self.impl is not None else text

    def action_text(self, english: str) -> str:
        return self.impl.actions.format(english) if self.impl is not None else english

    def render(self, state: State, player: int | None) -> str:
        if self.impl is None:
            return state.render(player)
        return str(self.impl.render(state.view(player), player))

    def decision(self, kind: str) -> str:
        if self.impl is None:
            return kind.replace("_", " ")
        return str(self.impl.decision(kind))


def localizer_for(game: Game, lang: str) -> Localizer:
    tr = translator(lang)
    if tr.lang == "en":
        return Localizer(tr)
    entry = registry.find(game.name)
    return Localizer(tr) if entry is None else Localizer(tr, entry.localizer(game, tr))
