"""Crazy Creatures' colour, Creature and Machine names in one language: the shipped
set's translation files (``games/creatures/creatures.<lang>.toml``) over its English.
Read by the game's texts and narration."""

from __future__ import annotations

from typing import Any

from gloomtable.games.creatures.cards import SETS_PACKAGE, SHIPPED_SET, CreatureSet
from gloomtable.i18n.cards import read_translation


class CreatureTexts:
    """Colour, Creature and Machine names of Crazy Creatures in one language."""

    def __init__(self, creature_set: CreatureSet, lang: str) -> None:
        self.set = creature_set
        data: dict[str, Any] = {}
        if lang != "en":
            data = read_translation(f"{SHIPPED_SET}.toml", lang, SETS_PACKAGE)
        self.data = data

    def colour(self, key: str) -> str:
        return self.data.get("colours", {}).get(key, {}).get("name") or key

    def machine_colour(self, key: str) -> str:
        """The colour as it agrees with the Machine in the catalogue's Machine lines
        (Spanish: feminine, «la Máquina roja»; Russian: feminine accusative, «красную
        Машину»), the ``machine`` field of ``[colours.<key>]``; else the plain colour."""
        return self.data.get("colours", {}).get(key, {}).get("machine") or self.colour(key)

    @property
    def variant(self) -> bool:
        """A variant set from a deck file names its own Creatures and Machines, in
        its own words: the shipped catalogue's translations are not for it."""
        return getattr(self.set, "id", SHIPPED_SET) != SHIPPED_SET

    def creature(self, key: str) -> str:
        for spec in self.set.colours:
            if spec.key == key:
                if self.variant:
                    return str(spec.creature)
                return str(self.data.get("colours", {}).get(key, {}).get("creature") or spec.creature)
        return key

    def machine(self, side: str) -> str:
        """``side`` is ``plus`` or ``minus``."""
        english = (self.set.plus if side == "plus" else self.set.minus).name
        if self.variant:
            return str(english)
        return str(self.data.get("machine", {}).get(side, {}).get("name") or english)
