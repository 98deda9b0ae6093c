"""issue 7: the observation layouts are what docs/rl.md says, slot by slot, and
every write lands in its own slot (values in [-1, 1], one-hots are one-hot)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gloomtable.engine import Rng
from gloomtable.games import make_game
from gloomtable.games.creatures.hooks.encode import CreaturesEncoder
from gloomtable.games.gloom.hooks.encode import GloomEncoder
from gloomtable.rl.slots import Layout
from rl_support import needs_gloomier

ROOKERY = str(Path(__file__).resolve().parents[1] / "examples" / "ashgrove-rookery.toml")


def random_views(name: str, seed: int, players: int | None = None):
    game = make_game(name, {} if players is None else {"players": players})
    state = game.new_initial_state(seed)
    rng = Rng(seed)
    while not state.is_over():
        for p in range(game.num_players):
            yield game, state.view(p)
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])


def contiguous(layout: Layout) -> None:
    end = 0
    for slot in layout.slots:
        assert slot.start == end, slot
        end += slot.size
    assert end == layout.size


def test_creatures_slots_hold_what_they_say() -> None:
    enc = CreaturesEncoder(3)
    contiguous(enc.layout)
    hand, top, cur = enc.layout["hand"], enc.layout["pile_top"], enc.layout["current"]
    for _, view in random_views("creatures", 1, players=3):
        out = enc.encode(view)
        assert out.shape == (enc.size,) and out.dtype == np.float32
        assert out.min() >= -1 and out.max() <= 1
        mine = np.flatnonzero(out[hand.start:hand.start + hand.size])
        assert list(mine) == sorted(c["id"] for c in view["hand"])
        tops = out[top.start:top.start + top.size].reshape(4, 7)
        assert (tops.sum(axis=1) == 1).all()
        assert [int(np.argmax(r)) for r in tops] == [m["top"] or 0 for m in view["machines"]]
        if not view["over"]:
            rel = (view["current_player"] - view["viewer"]) % 3
            assert list(np.flatnonzero(out[cur.start:cur.start + 4])) == [rel]


@pytest.mark.parametrize("name", ["gloom", pytest.param("gloomier", marks=needs_gloomier)])
def test_gloom_target_blocks_stay_in_their_own_slots(name: str) -> None:
    game = make_game(name, {})
    enc = GloomEncoder(game)
    contiguous(enc.layout)
    targets = enc.layout["targets"]
    assert targets.size == len(enc.target_slot) * enc.per_target
    seen_any = False
    for i, (_, view) in enumerate(random_views(name, 2)):
        if i % 7:
            continue
        out = enc.encode(view)
        assert out.shape == (enc.size,) and out.dtype == np.float32
        assert out.min() >= -1 and out.max() <= 1
        shown = {ch["card"] for fam in view["families"]
                 for ch in fam["characters"] + fam.get("guests", [])}
        shown |= {g["card"] for g in (view.get("middle") or {}).get("guests", [])}
        for card, t in enc.target_slot.items():
            base = targets.start + t * enc.per_target
            assert out[base] == (1.0 if card in shown else 0.0)
            owner = out[base + 1:base + 2 + enc.n]
            assert owner.sum() == (1.0 if card in shown else 0.0)
            seen_any |= card in shown
        decision = out[enc.o_kind:enc.o_kind + len(enc.kinds) + 1]
        assert decision.sum() == (0.0 if view["over"] else 1.0)
    assert seen_any


def test_layout_table_lists_every_slot() -> None:
    table = CreaturesEncoder(2).layout.table()
    assert table.count("\n") == len(CreaturesEncoder.layout.slots) + 1
    assert "| 0..47 | 48 | `hand` |" in table


def test_gloom_cache_of_character_encodings_changes_nothing() -> None:
    warm = None
    for i, (game, view) in enumerate(random_views("gloom", 6)):
        warm = warm or GloomEncoder(game)
        if i % 3 == 0:
            np.testing.assert_array_equal(warm.encode(view), GloomEncoder(game).encode(view))
        else:
            warm.encode(view)


@pytest.mark.parametrize("name,config", [
    ("gloom", {"players": 4}), ("gloom", {"players": 2, "beginner": True}),
    pytest.param("gloom", {"players": 5}, marks=pytest.mark.slow),  # the longest: the full run has it
    pytest.param("gloomier", {"players": 3}, marks=needs_gloomier),
    pytest.param("gloom", {"players": 4, "sets": ["classic", "gloomier"]}, marks=needs_gloomier),
    # the richer card language: triggers, moved Characters, shifted Self-Worth, others' limits
    ("gloom", {"players": 3, "sets": ["classic", ROOKERY]}),
])
def test_gloom_observe_from_the_state_equals_encoding_the_view(name: str, config: dict) -> None:
    """The environments' shortcut ``observe(state, seat)`` reads the state directly;
    it must give exactly ``encode(state.view(seat))`` for every seat, at every step
    of whole random games (the view is the hidden-information boundary)."""
    game = make_game(name, config)
    fast, ref = GloomEncoder(game), GloomEncoder(game)
    checked = 0
    for seed in range(3):
        state = game.new_initial_state(seed)
        rng = Rng(seed)
        while True:
            for seat in range(game.num_players):
                np.testing.assert_array_equal(fast.observe(state, seat),
                                              ref.encode(state.view(seat)))
                checked += 1
            if state.is_over():
                break
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
        # A state whose stacks are plain lists (as one rebuilt from a view is) too.
        plain = state.clone()
        plain.stacks = {c: list(st) for c, st in plain.stacks.items()}
        np.testing.assert_array_equal(fast.observe(plain, 0), ref.encode(plain.view(0)))
    assert checked > 300


def test_gloom_observe_follows_the_journal_of_moves_when_it_starts_over(monkeypatch) -> None:
    """The observer reads which stacks changed from the state's journal of board moves;
    a journal kept short (it starts a new list when full, so an endless game does not
    grow it for good) still gives exactly ``encode`` at every step."""
    from gloomtable.games.gloom import seen

    monkeypatch.setattr(seen, "MOVES_KEPT", 3)
    game = make_game("gloom", {"players": 3})
    fast, ref = GloomEncoder(game), GloomEncoder(game)
    state = game.new_initial_state(4)
    rng = Rng(4)
    lists = set()
    while not state.is_over():
        seat = state.current_player()
        np.testing.assert_array_equal(fast.observe(state, seat), ref.encode(state.view(seat)))
        assert len(state.seen.moved) <= 3
        lists.add(id(state.seen.moved))
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    assert len(lists) > 10  # the journal did start over, many times


def test_gloom_observe_follows_two_games_observed_in_turn() -> None:
    """The kept table compares what it encoded by value, not by which state it came
    from: one encoder asked of two games in turn (as one env's encoder is asked of a
    state and its clones) still gives exactly ``encode`` of each."""
    game = make_game("gloom", {"players": 4})
    fast, ref = GloomEncoder(game), GloomEncoder(game)
    states = [game.new_initial_state(11), game.new_initial_state(12)]
    rngs = [Rng(11), Rng(12)]
    for step in range(400):
        for state, rng in zip(states, rngs, strict=True):
            if state.is_over():
                continue
            seat = step % game.num_players
            np.testing.assert_array_equal(fast.observe(state, seat), ref.encode(state.view(seat)))
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
    assert all(s.turn > 0 for s in states)


def test_gloom_observations_handed_out_never_change_afterwards() -> None:
    """The encoder keeps one vector and updates it in place; what it hands out is a
    copy, so an agent that stores observations (a replay buffer) keeps them as they were."""
    from gloomtable.rl.gloom_v0 import raw_env

    env = raw_env()
    env.reset(seed=5)
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    rng = Rng(5)
    for _agent in env.agent_iter():  # one whole game
        obs, _r, term, trunc, _i = env.last()
        kept.append((obs["observation"], obs["observation"].copy()))
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.below(len(legal))]))
    assert len(kept) > 50
    assert len({id(o) for o, _ in kept}) == len(kept)
    for handed, snapshot in kept:
        np.testing.assert_array_equal(handed, snapshot)
    assert not all(np.array_equal(kept[0][1], s) for _, s in kept)  # the game did move on
