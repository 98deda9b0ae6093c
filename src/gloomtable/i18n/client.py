"""One entry point for clients: a game's texts in one language.

``localizer_for(game, lang)`` gives ``event(e)``, ``action(state, a)``,
``action_parts(state, a)``, ``narration(text)``, ``render(state, seat)`` and
``decision(kind)``. Events are rendered from their message and arguments and bots'
narration from its told data in every language, English included (``i18n/events.py``,
``i18n/narration_text.py``); for English the actions and the table are the engine's own
texts, for other languages they are made from the decoded action and the view. A game
without a localizer (a new one) falls back to the engine's English for those."""

from __future__ import annotations

from typing import Any

from gloomtable.engine import Event, Game, State
from gloomtable.games import registry
from gloomtable.i18n.catalog import Translator, translator
from gloomtable.i18n.events import render
from gloomtable.i18n.narration_text import tell


class Localizer:
    """The English pass-through; subclasses of the game formatters translate."""

    def __init__(self, tr: Translator, impl: Any = None, game: Any = None) -> None:
        self.tr = tr
        self.impl = impl
        self.game = game
        self.lang = tr.lang

    def event(self, event: Event) -> str:
        """``event`` in this language, from its message and arguments."""
        return render(event, self.lang)

    def narration(self, text: str) -> str:
        """A line said about a play: a bot's, from its told data, in this language; what a
        person typed, as they wrote it."""
        return tell(self.game, text, self.lang) or text

    def action(self, state: State, action: int) -> str:
        if self.impl is None:
            return state.action_to_string(action)
        return str(self.impl.action(state, action))

    def action_parts(self, state: State, action: int) -> tuple[str, str, int] | None:
        """A play on a Character as (what, on whom, whose seat), or ``None``."""
        if self.impl is not None and hasattr(self.impl, "action_parts"):
            parts: tuple[str, str, int] | None = self.impl.action_parts(state, action)
            return parts
        parts_of = getattr(state, "action_parts", None)
        return parts_of(action) if parts_of is not None else None

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
        return Localizer(tr, game=game)
    entry = registry.find(game.name)
    return Localizer(tr, None if entry is None else entry.localizer(game, tr), game)
