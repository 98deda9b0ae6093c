"""The engine's kept table facts under threads: the server runs bot searches in
worker threads while its event loop plays other tables, and every Stack change
anywhere moves the one shared ``Stack.changes``. Each thread's legal moves must
still be exactly what a state with nothing kept gives (R-G11, R-G23: plays go on
living Characters; an Untimely Death only on negative Self-Worth)."""

from __future__ import annotations

import sys
import threading

from gloomtable.engine import Rng
from gloomtable.games import make_game


def fresh_legal(state) -> list[int]:
    """Legal actions worked out from scratch: plain-list stacks keep no facts."""
    copy = state.clone()
    copy.stacks = {c: list(s) for c, s in copy.stacks.items()}
    return copy.legal_actions()


def play(seed: int, checked: list[int], failures: list[str]) -> None:
    game = make_game("gloom", {"players": 4})
    for g in range(2):
        state = game.new_initial_state(seed * 100 + g)
        rng = Rng(seed * 100 + g)
        while not state.is_over():
            legal = state.legal_actions()
            if state.decision.kind == "play":
                want = fresh_legal(state)
                checked[0] += 1
                if legal != want:
                    failures.append(f"seed {seed}, game {g}, turn {state.turn}: {legal} != {want}")
                    return
            state.apply(legal[rng.below(len(legal))])


def test_kept_table_facts_stay_true_while_other_threads_change_stacks() -> None:
    checked = [0]
    failures: list[str] = []
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads often: many interleavings
    try:
        threads = [threading.Thread(target=play, args=(seed, checked, failures)) for seed in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert not failures, failures[0]
    assert checked[0] > 100
