"""Both games answer one engine protocol, and their declared facts hold in play
(docs/architecture.md, "The engine protocol").

``tests/test_types.py`` runs ``mypy --strict`` over this module too, so the typed
assignments in :func:`_meets_the_protocol` are checked statically: a game or state
that drifted from :class:`~gloomtable.engine.protocol.Game` / ``State`` (a method
where the protocol has a property, another return type) fails the suite."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gloomtable.engine import (
    TERMINAL,
    DecisionKind,
    DeckGame,
    Game,
    GameInfo,
    GameNotOverError,
    GloomtableError,
    OpenDecision,
    Rng,
    State,
)
from gloomtable.games import make_game
from gloomtable.games.creatures.game import CreaturesGame
from gloomtable.games.creatures.state import CreaturesState
from gloomtable.games.gloom.facts import ACTIONS_PER_TURN
from gloomtable.games.gloom.game import GloomGame
from gloomtable.games.gloom.state import GloomState


def _meets_the_protocol(g: GloomGame, c: CreaturesGame, gs: GloomState, cs: CreaturesState) -> None:
    """Never run: mypy checks that each assignment type-checks."""
    games: list[Game] = [g, c]
    states: list[State] = [gs, cs]
    decisions: list[OpenDecision] = [gs.decision, cs.decision]
    infos: list[GameInfo] = [g.info, c.info]
    decked: DeckGame = g  # a Gloom game is played from a deck of printed cards
    assert games and states and decisions and infos and decked


ROOKERY = str(Path(__file__).resolve().parents[1] / "examples" / "ashgrove-rookery.toml")
"""The deck of the richer card language (triggers, choices): a longer declared turn."""

CASES: list[tuple[str, dict[str, Any]]] = [
    ("gloom", {"players": 3}),
    ("gloom", {"players": 5, "sets": ["classic", ROOKERY]}),
    ("gloom", {"players": 5, "edition": 1}),
    ("gloom", {"players": 4, "turn_cap": 2}),
    ("gloomier", {"players": 4}),
    ("gloomier", {"players": 2, "turn_cap": 3}),
    ("creatures", {"players": 2}),
    ("creatures", {"players": 4}),
    ("creatures", {"players": 3, "turn_cap": 7}),
]
IDS = [f"{name}-{'-'.join(f'{k}{v}' if k != 'sets' else 'rookery' for k, v in cfg.items())}"
       for name, cfg in CASES]


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_both_games_answer_one_protocol(name: str, config: dict[str, Any]) -> None:
    game = make_game(name, config)
    state = game.new_initial_state(3)
    assert isinstance(game, Game) and isinstance(state, State)
    assert not callable(state.decision), "decision is a property in every game"
    assert state.decision.player == state.current_player()
    assert state.decision.kind in DecisionKind
    with pytest.raises(GameNotOverError, match="not over"):
        state.result()
    assert issubclass(GameNotOverError, ValueError) and issubclass(GameNotOverError, GloomtableError)
    rng = Rng(5)
    while not state.is_over():
        legal = state.legal_actions()
        assert state.decision.player == state.current_player() != TERMINAL
        state.apply(legal[rng.below(len(legal))])
    assert (state.decision.player, state.decision.kind) == (TERMINAL, DecisionKind.OVER)
    assert state.view(None)["decision"] is None
    state.result()


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_only_the_gloom_games_are_played_from_a_deck(name: str, config: dict[str, int]) -> None:
    """The one test the catalogue, the chronicle, the balance report and records use."""
    game = make_game(name, config)
    assert isinstance(game, DeckGame) == (name != "creatures")
    if isinstance(game, DeckGame):
        assert len(game.deck.cards) > 0 and game.deck.families and game.deck.id
        assert set(game.deck_copies) == set(game.config_dict()["sets"])


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_random_playouts_keep_to_the_declared_facts(name: str, config: dict[str, int]) -> None:
    game = make_game(name, config)
    info = game.info
    assert info.short_name == game.name and info.num_players == game.num_players
    assert info.min_num_players <= info.num_players <= info.max_num_players
    assert info.num_distinct_actions == game.num_distinct_actions
    longest_turn = 0
    for seed in range(12):
        state = game.new_initial_state(seed)
        rng = Rng(seed)
        actions = 0
        turn, in_turn = -1, 0
        while not state.is_over():
            legal = state.legal_actions()
            assert legal and all(0 <= a < info.num_distinct_actions for a in legal)
            state.apply(legal[rng.below(len(legal))])
            actions += 1
            if isinstance(state, GloomState):
                in_turn = in_turn + 1 if state.turn == turn else 1
                turn = state.turn
                longest_turn = max(longest_turn, in_turn)
        assert actions <= info.max_game_length, f"seed {seed}: {actions} actions"
        returns = state.result().returns()
        assert len(returns) == info.num_players
        assert all(info.min_utility <= r <= info.max_utility for r in returns)
        assert info.utility_sum is not None and sum(returns) == pytest.approx(info.utility_sum)
    assert longest_turn <= getattr(game, "actions_per_turn", ACTIONS_PER_TURN)
