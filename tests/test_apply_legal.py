"""The trusted path (``State.apply_legal``) and the checked one (``State.apply``).

Rollouts, searches and environments that checked a mask take an action they got
from ``legal_actions`` and skip the check (issue 35); everyone else keeps ``apply``,
which still tells a malformed action from an illegal one. Both must play the very
same game."""

from __future__ import annotations

import pytest

from gloomtable.engine import IllegalActionError, MalformedActionError, Rng, State
from gloomtable.games import make_game

GAMES = [("gloom", {"players": 4}), ("gloomier", {"players": 4}), ("creatures", {"players": 3}),
         ("gloom", {"players": 2, "beginner": True})]


@pytest.mark.parametrize(("name", "config"), GAMES, ids=[f"{g}-{c['players']}" for g, c in GAMES])
def test_apply_legal_plays_the_same_game_as_apply(name: str, config: dict) -> None:
    game = make_game(name, config)
    for seed in range(6):
        checked, trusted = game.new_initial_state(seed), game.new_initial_state(seed)
        rng = Rng(seed)
        while not checked.is_over():
            legal = checked.legal_actions()
            assert trusted.legal_actions() == legal
            a = legal[rng.below(len(legal))]
            assert checked.apply(a) == trusted.apply_legal(a)
            assert checked.current_player() == trusted.current_player()
        assert trusted.is_over()
        assert checked.snapshot() == trusted.snapshot()
        assert checked.result() == trusted.result()


def _position(name: str, config: dict, steps: int) -> State:
    state = make_game(name, config).new_initial_state(3)
    rng = Rng(3)
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply_legal(legal[rng.below(len(legal))])
    return state


@pytest.mark.parametrize(("name", "config"), GAMES[:3], ids=[g for g, _ in GAMES[:3]])
def test_apply_still_checks_everything_else(name: str, config: dict) -> None:
    state = _position(name, config, 25)
    before = state.snapshot()
    size = make_game(name, config).num_distinct_actions
    for bad in ("0", 1.5, True, None, -1, size, 10**9):
        with pytest.raises(MalformedActionError):
            state.apply(bad)  # type: ignore[arg-type]  # what a stranger may send
    legal = set(state.legal_actions())
    illegal = next(a for a in range(size) if a not in legal)
    with pytest.raises(IllegalActionError) as info:
        state.apply(illegal)
    assert info.value.action == illegal and info.value.legal  # says what is legal instead
    assert state.snapshot() == before  # a refused action changes nothing
