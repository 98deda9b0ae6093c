"""A fingerprint of seeded Gloom games: run it before and after an engine change.

SHA-256 over every legal list, every bot move (of the level named), the view of
every seat and of a spectator, every event as each seat and a spectator sees it,
and each game's final snapshot and result. An optimisation that keeps the games
identical keeps the printed digests identical. Usage::

    PYTHONHASHSEED=0 PYTHONPATH=src python scripts/engine_fingerprint.py [--quick]
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

from gloomtable.bots.base import RandomBot
from gloomtable.engine import Event
from gloomtable.games import make_game, registry

# (name, config, bot level, games)
WORKLOADS: list[tuple[str, dict[str, Any], str, int]] = [
    ("gloom", {"players": 4}, "random", 40),
    ("gloom", {"players": 3}, "sensible", 20),
    ("gloom", {"players": 4}, "heuristic", 10),
    ("gloom", {"players": 5, "sets": ["classic", "gloomier"]}, "random", 20),
    ("gloomier", {"players": 4}, "random", 20),
    ("gloom", {"players": 2, "beginner": True}, "random", 10),
    ("gloom", {"players": 4, "edition": 1}, "random", 10),
    ("gloom", {"players": 3}, "hard", 1),
]


def _plain(value: Any) -> Any:
    """What JSON cannot hold, as stable text (never an object's address)."""
    msgid = getattr(value, "msgid", None)
    if msgid is not None:
        return msgid
    text = repr(value)
    if " at 0x" in text:
        raise TypeError(f"no stable form for {text}")
    return text


def _dump(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, default=_plain).encode()


def _event(e: Event) -> tuple[Any, ...]:
    """Every field of an event but the game it names (an object, not data)."""
    return tuple(e._replace(game=None))


def fingerprint(name: str, config: dict[str, Any], level: str, games: int) -> str:
    game = make_game(name, config)
    h = hashlib.sha256()
    n = config["players"]
    seats: list[int | None] = [*range(n), None]
    for g in range(games):
        state = game.new_initial_state(1000 + g)
        bots = [RandomBot(g * 10 + p) if level == "random" else registry.entry(name).bot(level, g * 10 + p)
                for p in range(n)]
        while not state.is_over():
            for v in seats:
                h.update(_dump(state.view(v)))
            legal = state.legal_actions()
            h.update(_dump(legal))
            p = state.current_player()
            bot = bots[p]
            view = state.view(p) if bot.uses_view else {}
            a = bot.choose(view, legal) if len(legal) > 1 else legal[0]
            h.update(_dump(a))
            for e in state.apply(a):
                for v in seats:
                    h.update(_dump(_event(e.for_player(v))))
        for v in seats:
            h.update(_dump(state.view(v)))
        h.update(_dump(state.snapshot()))
        h.update(_dump(repr(state.result())))
    return h.hexdigest()


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    for name, config, level, games in WORKLOADS:
        if quick and level == "hard":
            continue
        print(f"{name} {config} {level} x{games}: {fingerprint(name, config, level, games)}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
