"""Kuhn poker, the small example game (issue 33): a whole game in one package.

Its rules (``game.py``), its view (``view.py``), every part the layers above ask of a
game (``parts.py``: bots, sampled states, RL encoder, choices, texts) and its registry
entry (``entry.py``, found by the registry on its own). docs/architecture.md 'Adding a
game' walks through it; nothing outside this package, its translations and its rules
reference names it."""
