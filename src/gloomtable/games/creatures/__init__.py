"""Crazy Creatures of Dr. Gloom (RULES.md part C): shed your Creatures onto the
piles beside the Machines; the lowest penalty total after the rounds wins.

The rules are ``game.py`` (:class:`CreaturesGame`) and ``state.py``; this module
imports nothing, so the registry finding ``entry.py`` loads no rules (nor the cards)
until a Crazy Creatures game is built."""
