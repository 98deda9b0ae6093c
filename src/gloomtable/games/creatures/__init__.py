"""Crazy Creatures of Dr. Gloom (RULES.md part C): shed your Creatures onto the
piles beside the Machines; the lowest penalty total after the rounds wins."""

from gloomtable.games.creatures.game import CreaturesGame
from gloomtable.games.creatures.state import CreaturesState

__all__ = ["CreaturesGame", "CreaturesState"]
