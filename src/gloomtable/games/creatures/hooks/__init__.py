"""Crazy Creatures' parts for the layers above the rules (issue 33): its bots and
their search (``levels``, ``heuristic``, ``evaluate``), its RL observation
(``encode``), its texts (``text``) and what a lesson step means at its table
(``lesson``).

They use the generic machinery (``bots``, ``rl``, ``i18n``, ``learn``), so this package
sits above those layers and below the server (``tests/test_layers.py``); nothing
generic imports it, and the rules modules of ``games/creatures`` never do. The
registry reaches it only through ``games/creatures/entry.py``'s typed loaders."""
