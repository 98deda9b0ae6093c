"""Whole-game properties of Crazy Creatures.

Seeded random games (2 to 4 players) are played in plain loops (fast and
reproducible: a failure names its seed): 200 in the suite, 1,000 in the soak
(``scripts/soak.py``); hypothesis drives smaller random checks of clone,
snapshot, illegal actions and hidden information.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from delta_support import check_patch
from gloomtable.engine import Event, IllegalActionError, Rng
from gloomtable.engine.record import GameRecord, replay
from gloomtable.games import make_game
from gloomtable.games.creatures.actions import DRAW_BASE, FLIP_BASE, NUM_ACTIONS, PASS
from gloomtable.games.creatures.cards import LABEL
from gloomtable.games.creatures.game import CreaturesGame
from gloomtable.games.creatures.state import CreaturesState
from gloomtable.i18n.events import render
from scale import scaled

N_GAMES = scaled(200, 1000)
CHUNKS = 10
ALL_CARDS = list(range(48))


# --- an independent reading of the rules, by card-id arithmetic -----------------
# Card ids are colour * 12 + (number - 1) * 2 + copy (documented in creatures.toml).


def colour_of(card: int) -> int:
    return card // 12


def number_of(card: int) -> int:
    return (card % 12) // 2 + 1


def penalty_of(card: int) -> int:
    return {1: 0, 6: 0, 2: 1, 5: 1, 3: 2, 4: 2}[number_of(card)]


def reference_legal(s: CreaturesState) -> list[int]:
    """R-C5..R-C8 read straight from RULES.md."""
    if s.over:
        return []
    n, p = s.game.players, s.current
    if s.pending:
        flips = [FLIP_BASE + c for c in range(4)]
        return flips + ([DRAW_BASE + q for q in range(n) if q != p] if s.reserve else [])
    plays = []
    for card in s.hands[p]:
        pile = s.piles[colour_of(card)]
        num = number_of(card)
        if not pile:
            ok = True
        else:
            top = number_of(pile[-1])
            dna = num in (1, 6) and top in (1, 6)
            ok = dna or (num >= top if s.plus[colour_of(card)] else num <= top)
        if ok:
            plays.append(1 + card)
    return sorted(plays) or [PASS]


def where_is_every_card(s: CreaturesState) -> list[int]:
    return sorted([*(c for h in s.hands for c in h), *(c for p in s.piles for c in p),
                   *s.reserve, *s.aside])


def hidden_from(s: CreaturesState, viewer: int | None) -> set[int]:
    """Card ids ``viewer`` must not learn: other hands, the Reserve, set aside."""
    hidden = set(s.reserve) | set(s.aside)
    for q, hand in enumerate(s.hands):
        if q != viewer:
            hidden.update(hand)
    return hidden


def card_ids_in(view: dict[str, Any]) -> set[int]:
    """Every int stored under a key ``id`` or ``card`` anywhere in a view
    (a generic walk, so a card id added to the view anywhere is caught)."""
    out: set[int] = set()
    stack: list[Any] = [view]
    while stack:
        node = stack.pop()
        if type(node) is dict:
            for key, value in node.items():
                kind = type(value)
                if kind is int:
                    if key == "id" or key == "card":
                        out.add(value)
                elif kind is dict or kind is list:
                    stack.append(value)
        else:
            stack.extend(v for v in node if type(v) is dict or type(v) is list)
    return out


def check_views(s: CreaturesState, shown: dict[int | None, Any] | None = None) -> None:
    """No view shows a hidden card; with ``shown`` (each viewer's last view), nor does
    the patch a page with deltas gets from it (server/deltas.py)."""
    for viewer in (None, *range(s.game.players)):
        view = s.view(viewer)
        leaked = card_ids_in(view) & hidden_from(s, viewer)
        assert not leaked, f"view of {viewer} shows hidden cards {sorted(leaked)}"
        if shown is not None:
            if viewer in shown:
                ops = check_patch(shown[viewer], view)
                leaked = card_ids_in({"values": [op["value"] for op in ops if "value" in op]}) \
                    & hidden_from(s, viewer)
                assert not leaked, f"the patch of {viewer} shows hidden cards {sorted(leaked)}"
            shown[viewer] = view
        own = {c["id"] for c in view.get("hand", ())}
        assert own == (set(s.hands[viewer]) if viewer is not None else set())
        assert ("legal_actions" in view) == (viewer == s.current_player())


def check_events(s: CreaturesState, events: list[Event]) -> None:
    """No event, as another seat sees it, names a card hidden from that seat."""
    for e in events:
        for viewer in (None, *range(s.game.players)):
            seen = e.for_player(viewer)
            if e.private_to is not None and viewer != e.private_to:
                assert seen.card is None
                assert e.card is None or LABEL[e.card] not in render(seen, "en")
            if seen.card is not None and e.kind == "draw":
                assert viewer == e.private_to


def recount_round(hands: list[list[int]]) -> list[int]:
    """R-C10: penalty per card left, or -3 for an empty hand."""
    return [sum(penalty_of(c) for c in h) if h else -3 for h in hands]


def hands_after(hands: list[list[int]], reserve_top: int | None, action: int,
                player: int) -> list[list[int]]:
    out = [h[:] for h in hands]
    if 1 <= action <= 48:
        out[player].remove(action - 1)
    elif action >= DRAW_BASE:
        assert reserve_top is not None
        out[action - DRAW_BASE].append(reserve_top)
    return out


def play_checked_game(seed: int, views_every: int = 1) -> None:
    """One random game with every property checked after every action."""
    players = 2 + seed % 3
    game = make_game("creatures", {"players": players})
    state = game.new_initial_state(seed)
    rng = Rng(seed ^ 0x5EED)
    actions: list[int] = []
    totals = [0] * players
    step = 0
    shown: dict[int | None, Any] = {}
    while not state.is_over():
        legal = state.legal_actions()
        assert legal == reference_legal(state), f"seed {seed} step {step}"
        action = legal[rng.below(len(legal))]
        player = state.current_player()
        before = [h[:] for h in state.hands]
        top = state.reserve[-1] if state.reserve else None
        rounds_before = len(state.round_scores)
        events = state.apply(action)
        actions.append(action)
        step += 1
        assert where_is_every_card(state) == ALL_CARDS, f"seed {seed} step {step}"
        check_events(state, events)
        if step % views_every == 0:
            check_views(state, shown)
        if len(state.round_scores) > rounds_before:
            expected = recount_round(hands_after(before, top, action, player))
            assert state.round_scores[-1] == expected, f"seed {seed} step {step}"
            for q, pts in enumerate(expected):
                totals[q] = max(0, totals[q] - 3) if pts == -3 else totals[q] + pts
            assert state.totals == totals
    result = state.result()
    assert not result.capped
    assert len(state.round_scores) == players
    assert list(result.scores) == totals
    assert list(result.winners) == [q for q in range(players) if totals[q] == min(totals)]
    record = GameRecord("creatures", game.config_dict(), seed, actions)
    replayed = replay(make_game("creatures", record.config), record)
    assert replayed.snapshot() == state.snapshot(), f"seed {seed} does not replay"


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_R_C1_R_C5_R_C10_properties_over_random_games(chunk: int) -> None:
    """Over N_GAMES games (200 in the suite, 1,000 in the soak): every Creature in
    exactly one place after every action (R-C1, R-C3); legal actions equal an
    independent reading of R-C5..R-C8; views and events never show another hand, the
    Reserve or the set-aside cards; round penalties and totals equal a recount (R-C10,
    R-C11); the record replays to an identical snapshot."""
    size = N_GAMES // CHUNKS
    for seed in range(chunk * size, (chunk + 1) * size):
        play_checked_game(seed)


# --- hypothesis: smaller random checks --------------------------------------------


def random_state(players: int, seed: int, steps: int, picks: list[int]) -> CreaturesState:
    state = CreaturesGame(players=players).new_initial_state(seed)
    for i in range(steps):
        if state.is_over():
            break
        legal = state.legal_actions()
        state.apply(legal[picks[i % len(picks)] % len(legal)])
    return state


state_args = dict(
    players=st.integers(2, 4), seed=st.integers(0, 2**63), steps=st.integers(0, 400),
    picks=st.lists(st.integers(0, 1000), min_size=1, max_size=20),
)


@settings(max_examples=60, deadline=None)
@given(**state_args)
def test_R_C5_R_C8_illegal_actions_raise_and_change_nothing(
        players: int, seed: int, steps: int, picks: list[int]) -> None:
    """Every id outside ``legal_actions()`` raises IllegalActionError (with the
    legal list) and leaves the state as it was; every legal id applies."""
    state = random_state(players, seed, steps, picks)
    legal = state.legal_actions()
    before = state.snapshot()
    for action in range(NUM_ACTIONS):
        if action in legal:
            state.clone().apply(action)
            continue
        with pytest.raises(IllegalActionError) as info:
            state.apply(action)
        assert [a for a, _ in info.value.legal] == legal
        assert state.snapshot() == before


@settings(max_examples=60, deadline=None)
@given(**state_args, more=st.integers(1, 50))
def test_clone_and_snapshot_are_independent_and_json(
        players: int, seed: int, steps: int, picks: list[int], more: int) -> None:
    state = random_state(players, seed, steps, picks)
    before = state.snapshot()
    assert json.loads(json.dumps(before)) == before
    copy = state.clone()
    assert copy.snapshot() == before
    rng = Rng(seed)
    for _ in range(more):
        if copy.is_over():
            break
        legal = copy.legal_actions()
        copy.apply(legal[rng.below(len(legal))])
    assert state.snapshot() == before


def permute_hidden(state: CreaturesState, viewer: int, seed: int) -> CreaturesState:
    """The same position as ``viewer`` knows it, with the hidden cards dealt differently."""
    other = state.clone()
    seats = [q for q in range(state.game.players) if q != viewer]
    pool = [c for q in seats for c in other.hands[q]] + other.reserve + other.aside
    Rng(seed).shuffle(pool)
    for q in seats:
        k = len(other.hands[q])
        other.hands[q], pool = sorted(pool[:k]), pool[k:]
    k = len(other.reserve)
    other.reserve, other.aside = pool[:k], sorted(pool[k:])
    return other


@settings(max_examples=80, deadline=None)
@given(**state_args, shuffle_seed=st.integers(0, 2**32))
def test_views_depend_only_on_what_the_seat_may_know(
        players: int, seed: int, steps: int, picks: list[int], shuffle_seed: int) -> None:
    """Dealing the hidden cards differently never changes a seat's view (nor the
    spectator's), so nothing about other hands or the Reserve can leak."""
    state = random_state(players, seed, steps, picks)
    for viewer in range(players):
        other = permute_hidden(state, viewer, shuffle_seed)
        assert other.view(viewer) == state.view(viewer)
        assert other.render(viewer) == state.render(viewer)
        assert other.view(None) == state.view(None)
