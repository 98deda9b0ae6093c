"""Engine fuzzing (issue 9, part 1): hypothesis state machines drive every game
and every table option through random legal and illegal actions.

After every action: every card is in exactly one place (R-G9, R-G23, R-C1);
each seat's and the spectator's view (and rendering) stays the same when the
cards hidden from it are dealt differently, so no view leaks another hand or
the draw order; no event, as another seat sees it, names a card still hidden
from that seat; Family Values equal an independent recount (R-G25, R-C10).
An illegal action raises only the typed IllegalActionError or
MalformedActionError and changes nothing. At the end of every run the game
record, through JSON, replays to identical snapshots and events at every step.

Short by default; ``HYPOTHESIS_PROFILE=long`` runs the nightly scale.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any, ClassVar

import numpy as np
import pytest
from hypothesis import Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from gloomtable.engine import ConfigError, Event, IllegalActionError, MalformedActionError, Rng, State
from gloomtable.engine.record import GameRecord
from gloomtable.games import make_game
from gloomtable.games.gloom.cards import CardType
from gloomtable.games.gloom.deck import DeckError
from reliability_support import can_play, gloom_set_choices, scaled, valid_players
from test_creatures_properties import (
    ALL_CARDS,
    check_events,
    check_views,
    hands_after,
    permute_hidden,
    recount_round,
    where_is_every_card,
)
from test_gloom_properties import recount_family_value, scramble_hidden

JUNK: list[Any] = [None, "1", "pass", 1.0, 0.0, True, False, [], [1], {}, {"action": 1}, b"\x01",
                   2**70, -(2**70), float("nan"), object()]


def play_off_table_state() -> tuple[Any, int]:
    """A classic 4-player game at its first play, and the action 'play a hand Modifier
    on a Character that is not in play' (one set aside at setup)."""
    game = make_game("gloom", {"players": 4, "first_player": 0})
    state = game.new_initial_state(1)
    while state.decision.kind in ("choose_family", "set_aside"):
        state.apply(state.legal_actions()[0])
    off_table = next(c for c in game.characters if c not in state.stacks)
    hand = state.hands[state.current_player()]
    modifier = next(c for c in hand if state.cards[c].type is CardType.MODIFIER)
    return state, state.codec.play(modifier, off_table)


def _play_off_table_crashes() -> bool:
    state, action = play_off_table_state()
    try:
        state.apply(action)
    except KeyError:
        return True
    except (IllegalActionError, MalformedActionError):
        return False
    return False


PLAY_OFF_TABLE_CRASHES = _play_off_table_crashes()
"""While the bug of test_play_on_a_character_not_in_play_is_illegal is open, the fuzzer
leaves that one input class out (so the suite stays green); once fixed, it is fuzzed."""

REDEALS = {"reshuffle", "round_start", "round_end"}
"""Event kinds after which cards shown earlier in the same action may be hidden again."""


def digest(state: State, events: list[Event]) -> str:
    """A fingerprint of the whole state and the events that led to it."""
    data = {"state": state.snapshot(), "events": [e.to_dict() for e in events]}
    return hashlib.sha1(json.dumps(data, sort_keys=True, default=repr).encode()).hexdigest()


# --- per-game checks ----------------------------------------------------------------


class GloomChecks:
    """Classic Gloom, Gloomier and mixed sets: all run on the Gloom state."""

    def __init__(self, state: Any) -> None:
        self.all_cards = set(range(len(state.cards)))

    def conservation(self, state: Any) -> None:
        where = state.locations()  # raises if a card is in two places
        assert set(where) == self.all_cards, f"cards missing: {sorted(self.all_cards - set(where))}"

    def hidden(self, state: Any) -> dict[int | None, set[int]]:
        pile = set(state.draw_pile)
        out: dict[int | None, set[int]] = {}
        for viewer in (None, *range(state.n)):
            out[viewer] = pile | {c for q in range(state.n) if q != viewer for c in state.hands[q]}
        return out

    def views(self, state: Any, rng: Rng) -> None:
        for viewer in (None, *range(state.n)):
            view = state.view(viewer)
            json.dumps(view)
            other = scramble_hidden(state, viewer, rng)
            assert other.view(viewer) == view, f"view of {viewer} depends on hidden cards"
            assert other.render(viewer) == state.render(viewer), f"render of {viewer} leaks"
            if viewer is not None:
                assert sorted(view["hand"]) == sorted(state.hands[viewer])
                assert view["hand_sizes"] == [len(h) for h in state.hands]
            assert view["draw_pile"] == len(state.draw_pile)

    def scores(self, state: Any) -> None:
        fams = state.view(None)["families"]
        for p in range(state.n):
            assert fams[p]["family_value"] == recount_family_value(state, p), f"player {p}"

    def step(self, state: Any, before: Any, action: int, player: int, events: list[Event]) -> None:
        """Game-specific checks that need the state before the action."""

    def final(self, state: Any) -> None:
        result = state.result()
        fv = [recount_family_value(state, p) for p in range(state.n)]
        assert list(result.scores) == fv
        best = [p for p in range(state.n) if fv[p] == min(fv)]
        assert set(result.winners) <= set(best) and result.winners
        if state.game.config.tiebreak == "share":
            assert list(result.winners) == best
        if not result.capped:
            assert any(fam and all(state.is_dead(c) for c in fam) for fam in state.families)


class CreaturesChecks:
    """Crazy Creatures: reuses the reference checks of test_creatures_properties."""

    def __init__(self, state: Any) -> None:
        self.totals = [0] * state.game.players

    def conservation(self, state: Any) -> None:
        assert where_is_every_card(state) == ALL_CARDS

    def hidden(self, state: Any) -> dict[int | None, set[int]]:
        hidden = set(state.reserve) | set(state.aside)
        return {v: hidden | {c for q, h in enumerate(state.hands) if q != v for c in h}
                for v in (None, *range(state.game.players))}

    def views(self, state: Any, rng: Rng) -> None:
        check_views(state)
        for viewer in range(state.game.players):
            view = state.view(viewer)
            json.dumps(view)
            other = permute_hidden(state, viewer, rng.below(2**32))
            assert other.view(viewer) == view
            assert other.render(viewer) == state.render(viewer)
            assert other.view(None) == state.view(None)

    def scores(self, state: Any) -> None:
        assert state.totals == self.totals

    def step(self, state: Any, before: Any, action: int, player: int, events: list[Event]) -> None:
        check_events(state, events)
        if len(state.round_scores) > len(before.round_scores):
            top = before.reserve[-1] if before.reserve else None
            expected = recount_round(hands_after(before.hands, top, action, player))
            assert state.round_scores[-1] == expected
            for q, pts in enumerate(expected):
                self.totals[q] = max(0, self.totals[q] - 3) if pts == -3 else self.totals[q] + pts

    def final(self, state: Any) -> None:
        result = state.result()
        assert list(result.scores) == self.totals
        assert list(result.winners) == [q for q, t in enumerate(self.totals) if t == min(self.totals)]


# --- the state machine ----------------------------------------------------------------


class EngineFuzz(RuleBasedStateMachine):
    """Random legal and illegal actions on one game; subclasses pick the game."""

    tally: ClassVar[Counter[str]]
    checks_for: ClassVar[type]

    def start(self, name: str, config: dict[str, Any], seed: int) -> None:
        self.game = make_game(name, config)
        self.name = name
        self.seed = seed
        self.state = self.game.new_initial_state(seed)
        self.checks = self.checks_for(self.state)
        self.rng = Rng(seed ^ 0xF0F0)
        self.record = GameRecord(name, self.game.config_dict(), seed)
        self.trail = [digest(self.state, [])]
        self.finished = False
        self.tally["runs"] += 1
        self.check_all()

    # -- actions

    def apply_legal(self, action: int, raw: Any = None) -> None:
        """Apply a legal ``action`` (passed to the engine as ``raw`` if given) and check."""
        state = self.state
        before = state.clone()
        hidden = self.checks.hidden(state)
        player = state.current_player()
        events = state.apply(action if raw is None else raw)
        self.record.actions.append(action)
        self.trail.append(digest(state, events))
        self.tally["legal actions"] += 1
        self.check_events(events, hidden, self.checks.hidden(state))
        self.checks.step(state, before, action, player, events)
        self.check_all()

    def check_events(self, events: list[Event], before: dict[int | None, set[int]],
                     after: dict[int | None, set[int]]) -> None:
        """No event shows a viewer a card that was hidden from it and still is.
        (A reshuffle or a new deal legitimately moves just-shown cards back out of
        sight, so then only the private events are checked.)"""
        reshuffled = any(e.kind in REDEALS for e in events)
        for e in events:
            json.dumps(e.to_dict())
            for viewer, hidden in before.items():
                seen = e.for_player(viewer)
                if (not reshuffled and seen.card is not None and seen.card in hidden
                        and seen.card in after[viewer]):
                    raise AssertionError(f"event {e.kind!r} shows {viewer} hidden card {seen.card}")
                if e.private_to is not None and viewer != e.private_to:
                    assert seen.card is None, f"private {e.kind!r} event shows its card"

    def check_all(self) -> None:
        self.checks.conservation(self.state)
        self.checks.scores(self.state)
        self.checks.views(self.state, self.rng)
        if self.state.is_over():
            assert self.state.legal_actions() == []
            if not self.finished:
                self.finished = True
                self.tally["games finished"] += 1
                self.checks.final(self.state)
                returns = self.state.result().returns()
                assert abs(sum(returns) - 1.0) < 1e-9
        else:
            legal = self.state.legal_actions()
            assert legal and len(set(legal)) == len(legal)
            assert all(type(a) is int and 0 <= a < self.game.num_distinct_actions for a in legal)
            assert 0 <= self.state.current_player() < self.game.num_players

    @precondition(lambda self: not self.state.is_over())
    @rule(pick=st.integers(0, 10**6))
    def act(self, pick: int) -> None:
        legal = self.state.legal_actions()
        self.apply_legal(legal[pick % len(legal)])

    @precondition(lambda self: not self.state.is_over())
    @rule(seed=st.integers(0, 2**32), n=st.integers(1, 60))
    def burst(self, seed: int, n: int) -> None:
        """Many random legal actions in a row, so games reach their end."""
        rng = Rng(seed)
        for _ in range(n):
            if self.state.is_over():
                break
            legal = self.state.legal_actions()
            self.apply_legal(legal[rng.below(len(legal))])

    @rule(bad=st.one_of(st.integers(-(2**40), 2**40), st.integers(-3, 3),
                        st.sampled_from(JUNK)), offset=st.integers(0, 10**6))
    def illegal(self, bad: Any, offset: int) -> None:
        """A wrong action raises only a typed error and changes nothing."""
        state = self.state
        size = self.game.num_distinct_actions
        legal = state.legal_actions()
        if type(bad) is int and 0 <= bad < 4 and size > 4:
            bad = offset % size  # an in-range id, usually not legal now
        if type(bad) is int and bad in legal:
            self.apply_legal(bad)
            return
        if PLAY_OFF_TABLE_CRASHES and self.off_table_play(bad):
            self.tally["known-bug inputs left out"] += 1
            return
        before = state.snapshot()
        views = [state.view(v) for v in (None, *range(self.game.num_players))]
        in_range = type(bad) is int and 0 <= bad < size
        with pytest.raises(IllegalActionError if in_range else MalformedActionError) as info:
            state.apply(bad)
        assert str(info.value)
        if in_range:
            assert [a for a, _ in info.value.legal] == legal
        assert state.snapshot() == before
        assert state.legal_actions() == legal
        assert [state.view(v) for v in (None, *range(self.game.num_players))] == views
        self.tally["illegal actions"] += 1

    def off_table_play(self, action: Any) -> bool:
        """Is ``action`` a Gloom play onto a Character that is not in play?"""
        state = self.state
        if not hasattr(state, "stacks") or type(action) is not int \
                or not 0 <= action < self.game.num_distinct_actions:
            return False
        dec = state.codec.decode(action)
        return dec.kind.name == "PLAY" and dec.target not in state.stacks

    @precondition(lambda self: not self.state.is_over())
    @rule()
    def numpy_integer(self) -> None:
        """An RL agent's numpy integer is either taken as that action or refused
        with a typed error; nothing else."""
        legal = self.state.legal_actions()
        before = self.state.snapshot()
        try:
            self.apply_legal(legal[0], raw=np.int64(legal[0]))
        except (IllegalActionError, MalformedActionError):
            assert self.state.snapshot() == before
            self.tally["illegal actions"] += 1

    @rule(seed=st.integers(0, 2**32), n=st.integers(1, 30))
    def clone_is_independent(self, seed: int, n: int) -> None:
        before = self.state.snapshot()
        copy = self.state.clone()
        assert copy.snapshot() == before
        rng = Rng(seed)
        for _ in range(n):
            if copy.is_over():
                break
            legal = copy.legal_actions()
            copy.apply(legal[rng.below(len(legal))])
        assert self.state.snapshot() == before

    @rule()
    def replay_now(self) -> None:
        self.check_replay()

    @invariant()
    def always_typed(self) -> None:
        assert isinstance(self.state.is_over(), bool)

    def check_replay(self) -> None:
        """The record, through JSON, replays to the same snapshot and events at every step."""
        record = GameRecord.from_json(self.record.to_json())
        game = make_game(record.game, record.config)
        state = game.new_initial_state(record.seed)
        trail = [digest(state, [])]
        for action in record.actions:
            trail.append(digest(state, state.apply(action)))
        assert trail == self.trail, "replay diverged"
        self.tally["replays checked"] += 1

    def teardown(self) -> None:
        if hasattr(self, "state"):
            self.check_replay()


# --- the games and their table options ------------------------------------------------


SETUP_KEYS = ("setup", "draft_size", "stories_guests")


@st.composite
def gloom_configs(draw: st.DrawFn, name: str = "gloom") -> dict[str, Any]:
    """Every Gloom table option; Gloomier (the game) uses its own set unless told."""
    config: dict[str, Any] = {}
    if name == "gloom":
        config["sets"] = list(draw(st.sampled_from(gloom_set_choices())))
    players = draw(st.sampled_from(valid_players(name, config)))
    config.update({
        "players": players,
        "edition": draw(st.sampled_from([1, 2])), "beginner": draw(st.booleans()),
        "tiebreak": draw(st.sampled_from(["share", "fewer_living"])),
        "turn_cap": draw(st.sampled_from([2, 9, 40, 500])),
        "setup": draw(st.sampled_from(["auto", "families", "draft"])),
        "draft_size": draw(st.integers(1, 10)), "stories_guests": draw(st.integers(0, 6)),
    })
    if draw(st.booleans()):
        config["first_player"] = draw(st.integers(0, players - 1))
    if not can_play(name, config):  # a setup this deck cannot seat: the defaults
        config = {k: v for k, v in config.items() if k not in SETUP_KEYS}
    assert can_play(name, config), config
    return config


class GloomFuzz(EngineFuzz):
    tally: ClassVar[Counter[str]] = Counter()
    checks_for = GloomChecks

    @initialize(config=gloom_configs(), seed=st.integers(0, 2**63 - 1))
    def setup(self, config: dict[str, Any], seed: int) -> None:
        self.start("gloom", config, seed)


class CreaturesFuzz(EngineFuzz):
    tally: ClassVar[Counter[str]] = Counter()
    checks_for = CreaturesChecks

    @initialize(players=st.integers(2, 4), rounds=st.sampled_from([None, 1, 2, 5]),
                first=st.booleans(), cap=st.sampled_from([5, 60, 2000]), seed=st.integers(0, 2**63 - 1))
    def setup(self, players: int, rounds: int | None, first: bool, cap: int, seed: int) -> None:
        config: dict[str, Any] = {"players": players, "rounds": rounds, "turn_cap": cap}
        if first:
            config["first_player"] = seed % players
        self.start("creatures", config, seed)


class GloomierFuzz(EngineFuzz):
    tally: ClassVar[Counter[str]] = Counter()
    checks_for = GloomChecks

    @initialize(config=gloom_configs("gloomier"), seed=st.integers(0, 2**63 - 1))
    def setup(self, config: dict[str, Any], seed: int) -> None:
        self.start("gloomier", config, seed)


def run_fuzz(machine: type[EngineFuzz], figures: dict[str, Any], key: str, examples: int) -> None:
    machine.tally.clear()
    # No shrinking: one step can be a burst of 60 checked actions, and shrinking
    # such runs takes many minutes; the failing steps are printed unshrunk.
    run_state_machine_as_test(machine, settings=settings(
        max_examples=examples, stateful_step_count=scaled(40, 60), deadline=None,
        phases=[Phase.explicit, Phase.reuse, Phase.generate]))
    figures[key] = dict(machine.tally)
    assert machine.tally["legal actions"] > 0 and machine.tally["illegal actions"] > 0


@pytest.mark.slow
def test_fuzz_gloom_every_table_option(figures: dict[str, Any]) -> None:
    """Classic (and, once shipped, Gloomier and mixed) sets, 2 to 8 seats where
    valid, both editions, beginner mode, both tiebreaks, small and large caps."""
    run_fuzz(GloomFuzz, figures, "fuzz_engine_gloom", scaled(60, 400))


@pytest.mark.slow
def test_fuzz_crazy_creatures(figures: dict[str, Any]) -> None:
    run_fuzz(CreaturesFuzz, figures, "fuzz_engine_creatures", scaled(60, 600))


@pytest.mark.slow
def test_fuzz_gloomier(figures: dict[str, Any]) -> None:
    run_fuzz(GloomierFuzz, figures, "fuzz_engine_gloomier", scaled(40, 300))


@pytest.mark.parametrize(("name", "config"), [
    ("gloom", {"players": 1}), ("gloom", {"players": 9}), ("gloom", {"players": "four"}),
    ("gloom", {"edition": 3}), ("gloom", {"sets": ["nope"]}), ("gloom", {"colour": "red"}),
    ("gloom", {"players": 3, "first_player": 3}), ("gloom", {"turn_cap": -1}),
    ("gloom", {"sets": []}), ("gloom", {"beginner": "maybe"}),
    ("creatures", {"players": 5}), ("creatures", {"players": True}), ("creatures", {"rounds": 0}),
    ("creatures", {"first_player": 9}), ("creatures", {"turn_cap": 0}), ("creatures", {"extra": 1}),
    ("nosuchgame", {}),
])
def test_bad_table_options_are_config_errors(name: str, config: dict[str, Any]) -> None:
    """A table option that cannot be played is refused with a typed error saying which
    (an unknown set is a DeckError naming it, everything else a ConfigError)."""
    with pytest.raises(DeckError if config.get("sets") else ConfigError) as info:
        make_game(name, config)
    assert str(info.value)


def test_play_on_a_character_not_in_play_is_illegal() -> None:
    state, action = play_off_table_state()
    before = state.snapshot()
    with pytest.raises(IllegalActionError):
        state.apply(action)
    assert state.snapshot() == before


@pytest.mark.parametrize("name", ["gloom", "creatures"])
def test_numpy_integer_actions_are_accepted_by_every_game(name: str) -> None:
    """A numpy integer is the same action as the int it holds, in every game."""
    state = make_game(name, {"players": 2}).new_initial_state(1)
    action = state.legal_actions()[0]
    before = state.clone()
    before.apply(action)
    state.apply(np.int64(action))  # type: ignore[arg-type]
    assert state.snapshot() == before.snapshot()
