"""The bench's playout loop, for counting instructions under callgrind.

Instruction counts do not depend on how busy the machine is, so a before/after
of an engine change reads the same on every run. Ten warm-up games (not counted)
fill the game's memos; then ``GAMES`` games are played inside ``eval``, and
callgrind collects only that call. ``GAME`` is ``gloom`` (4 players, the
default) or ``creatures`` (3 players, Crazy Creatures' default table), as
``PlayoutBench`` plays them::

    PYTHONHASHSEED=0 PYTHONPATH=src valgrind --tool=callgrind \\
        --toggle-collect=builtin_eval python scripts/playout_instructions.py 30
    PYTHONHASHSEED=0 PYTHONPATH=src valgrind --tool=callgrind \\
        --toggle-collect=builtin_eval python scripts/playout_instructions.py 100 creatures
"""

from __future__ import annotations

import sys

from gloomtable.engine import Rng
from gloomtable.games import make_game

PLAYERS = {"gloom": 4, "creatures": 3}
"""The table each game's playout bench uses."""

name = sys.argv[2] if len(sys.argv) > 2 else "gloom"
game = make_game(name, {"players": PLAYERS[name]})
rng = Rng(1)


def loop(games: int) -> int:
    """Random playouts as ``PlayoutBench`` plays them; the actions taken."""
    actions = 0
    for g in range(games):
        state = game.new_initial_state(1_000_003 + g)
        while not state.is_over():
            legal = state.legal_actions()
            state.apply_legal(legal[rng.below(len(legal))])
            actions += 1
    return actions


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    loop(10)
    print(eval("loop(n)"))  # callgrind collects only inside eval
