"""Gloom's parts for the layers above the rules (issue 33): its bots and their search
(``levels``, ``heuristic``, ``sensible``, ``evaluate``), its RL observation
(``encode``, ``observe``), its texts (``text``), the rules reference's pictures
(``rules_pictures``) and what a lesson step means at its table (``lesson``).

They use the generic machinery (``bots``, ``rl``, ``i18n``, ``learn``), so this package
sits above those layers and below the server (``tests/test_layers.py``); nothing
generic imports it, and the rules modules of ``games/gloom`` never do. The registry
reaches it only through ``games/gloom/entry.py``'s typed loaders, on first use.
Gloomier plays Gloom's rules and shares these parts."""
