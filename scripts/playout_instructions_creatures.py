"""The bench's Crazy Creatures playout loop, for counting instructions under callgrind.

The sibling of ``playout_instructions.py`` (Gloom): the same loop as ``PlayoutBench``
plays at Crazy Creatures' default table (3 players). Ten warm-up games (not counted);
then ``GAMES`` games are played inside ``eval``, and callgrind collects only that call::

    PYTHONHASHSEED=0 PYTHONPATH=src valgrind --tool=callgrind \\
        --toggle-collect=builtin_eval python scripts/playout_instructions_creatures.py 100
"""

from __future__ import annotations

import sys

from gloomtable.engine import Rng
from gloomtable.games import make_game

game = make_game("creatures", {"players": 3})
rng = Rng(1)


def loop(games: int) -> int:
    """Random 3-player playouts as ``PlayoutBench`` plays them; the actions taken."""
    actions = 0
    for g in range(games):
        state = game.new_initial_state(1_000_003 + g)
        while not state.is_over():
            legal = state.legal_actions()
            state.apply_legal(legal[rng.below(len(legal))])
            actions += 1
    return actions


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    loop(10)
    print(eval("loop(n)"))  # callgrind collects only inside eval
