"""Determinisation: sampled states agree with the view and vary only the hidden cards."""

from __future__ import annotations

from gloomtable.bots import bot_action, make_bot
from gloomtable.bots.determinize import sampler
from gloomtable.engine import Rng
from gloomtable.games import make_game
from gloomtable.games.creatures.cards import COLOUR, FITS, NUMBER


def test_gloom_samples_keep_the_view_and_every_card() -> None:
    game = make_game("gloom", {"players": 3})
    state = game.new_initial_state(8)
    rng = Rng(1)
    done = 0
    while not state.is_over() and done < 5:
        p = state.current_player()
        view = state.view(p)
        make = sampler(view)
        if make is not None:
            samples = [make(seed) for seed in range(4)]
            for s in samples:
                assert s.view(p) == view
                assert sorted(s.locations()) == sorted(state.locations())  # same cards, once each
            assert len({repr(s.snapshot()["hands"]) for s in samples}) > 1
            done += 1
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    assert done == 5


def test_creatures_passers_hold_nothing_that_fits() -> None:
    """R-C5: a player who just passed had no card that fits; samples respect it."""
    game = make_game("creatures", {"players": 2})
    bots = [make_bot("medium", "creatures", p) for p in range(2)]
    checked = 0
    for seed in range(30):
        state = game.new_initial_state(seed)
        while not state.is_over() and checked < 3:
            p = state.current_player()
            view = state.view(p)
            if view["passes_in_row"] and len(state.legal_actions()) > 1:
                make = sampler(view)
                assert make is not None
                tops = [m["top"] or 0 for m in view["machines"]]
                plus = [1 if m["side"] == "+" else 0 for m in view["machines"]]
                for k in range(5):
                    other = make(k).snapshot()["hands"][1 - p]
                    assert not any(FITS[plus[COLOUR[c]]][tops[COLOUR[c]]][NUMBER[c]] for c in other)
                checked += 1
            state.apply(bot_action(bots[p], state, state.legal_actions()))
        if checked >= 3:
            break
    assert checked >= 1


def test_positions_a_view_cannot_rebuild_are_refused() -> None:
    """Mid-effect decisions and spectator views give no sampler (the bot falls back)."""
    game = make_game("gloom", {"players": 2})
    state = game.new_initial_state(3)
    assert sampler(state.view(None)) is None
    assert sampler(state.view(state.current_player())) is None  # choosing a family
    assert sampler({"game": "chess"}) is None
