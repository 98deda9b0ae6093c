"""The optional compiled build (issue 35): which modules mypyc compiles, and why the
others near them are left as Python. ``setup.py`` reads this file by path (it imports
nothing), and ``gloom bench`` (:mod:`gloomtable.bench.build`) asks these modules whether
they were loaded from extension modules. The pure-Python package is the default; the
compiled one is built with ``GLOOMTABLE_COMPILE=1 pip install .`` (README, "Speed")."""

COMPILED = (
    # Gloom: the table, its state and protocol, the rules, the effect primitives, the
    # game's facts the rules read on every action (``play_facts``)
    "gloomtable.games.gloom.actions",
    "gloomtable.games.gloom.cards",
    "gloomtable.games.gloom.effect_handlers",
    "gloomtable.games.gloom.play_facts",
    "gloomtable.games.gloom.seen",
    "gloomtable.games.gloom.state",
    "gloomtable.games.gloom.tasks",
    "gloomtable.games.gloom.rules.board",
    "gloomtable.games.gloom.rules.lasting",
    "gloomtable.games.gloom.rules.plays",
    "gloomtable.games.gloom.rules.resolving",
    "gloomtable.games.gloom.rules.responses",
    "gloomtable.games.gloom.rules.scoring",
    "gloomtable.games.gloom.rules.setup",
    "gloomtable.games.gloom.rules.stories",
    "gloomtable.games.gloom.rules.triggers",
    "gloomtable.games.gloom.rules.turn",
    # Crazy Creatures: the state and its action ids
    "gloomtable.games.creatures.actions",
    "gloomtable.games.creatures.state",
)
"""The modules compiled: the ones a playout spends its time in."""

LEFT_OUT = {
    "gloomtable.engine.rng": "64-bit SplitMix64: compiled, below() and shuffle() ran no faster",
    "gloomtable.engine.protocol": "the protocol's dataclasses and Protocols: nothing hot",
    "gloomtable.engine.hooks": "per-game upper-layer hooks, read once per game",
    "gloomtable.games.gloom.effects": "pydantic models (mypyc does not compile them)",
    "gloomtable.games.gloom.facts": "pydantic config; per game (what every action reads: play_facts)",
    "gloomtable.games.gloom.view": "views: per seat and message, not in a playout",
    "gloomtable.games.gloom.game": "per game, not per action",
    "gloomtable.games.creatures.cards": "pydantic set schema, read once",
    "gloomtable.games.creatures.game": "per game, not per action",
}
"""Modules near the compiled ones that stay Python, and why."""
