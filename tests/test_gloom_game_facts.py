"""What a Gloom game works out from its deck once, and shares: the response cards that
may cancel each card type (R-G20) and the action codec. Making a game was 14 ms for the
classic deck and 50 ms for two sets mixed, almost all of it these two, paid on every
table made, resumed or taken over and every replay; now the codec is made once a deck
and the answers from each card's own list of what it cancels."""

from __future__ import annotations

import pytest

from gloomtable.games import make_game
from gloomtable.games.gloom.cards import CardType
from gloomtable.games.gloom.facts import GloomFacts
from gloomtable.games.gloom.game import GloomGame
from gloomtable.games.gloom.play_facts import PlayFacts
from gloomtable.games.gloom.step_hooks import CANCELS

CONFIGS = [("gloom", {"players": 4}), ("gloom", {"players": 4, "edition": 1, "beginner": True}),
           ("gloomier", {"players": 5}), ("gloom", {"players": 4, "sets": ["classic", "gloomier"]})]


@pytest.mark.parametrize(("name", "config"), CONFIGS)
def test_each_type_is_answered_by_the_responses_that_cancel_a_card_of_it(name: str,
                                                                         config: dict[str, object]) -> None:
    """R-G20, read card by card: a response card answers a card type when one of its
    response steps cancels that type and the deck holds a card of it."""
    game = make_game(name, config)
    assert isinstance(game, GloomGame)
    cards = game.deck.cards
    for t in CardType:
        expected = {r.index for r in cards for played in cards if played.type is t
                    for effect in r.effects if effect.when == "response"
                    for step in effect.steps
                    if step.name in CANCELS and CANCELS[step.name](step.param) == t.value}
        assert game.answers[t] == expected, t
    assert game.answered_by == tuple(game.answers[c.type] for c in cards)
    assert any(game.answers.values()), "the deck has responses"


def test_games_of_one_deck_share_their_codec_and_others_do_not() -> None:
    one, two = make_game("gloom", {"players": 4}), make_game("gloom", {"players": 3, "edition": 1})
    mixed = make_game("gloom", {"players": 4, "sets": ["classic", "gloomier"]})
    assert isinstance(one, GloomGame) and isinstance(two, GloomGame) and isinstance(mixed, GloomGame)
    assert one.codec is two.codec
    assert mixed.codec is not one.codec and mixed.codec.size > one.codec.size


def test_events_made_once_by_field_position_equal_the_ones_made_by_name() -> None:
    """The shared events built by field position (a speed path: tasks.new) are the very
    events the named constructor makes, so a field added to Event cannot shift them."""
    from gloomtable.engine import Event
    from gloomtable.games.gloom import messages as M
    from gloomtable.games.gloom.rules.turn import _turn_event

    game = make_game("gloom", {"players": 4})
    assert isinstance(game, GloomGame)
    events = [c.index for c in game.deck.cards if c.type is CardType.EVENT]
    assert events
    for p in range(4):
        for c in events:
            assert game.event_plays[p][c] == Event("play", M.PLAY, (p, c), p, c, game=game)
    assert _turn_event(7, 2) == Event("turn", M.TURN, (7, 2), 2)
    assert game.reshuffle_event == Event("reshuffle", M.RESHUFFLE, game=game)


@pytest.mark.parametrize(("name", "config"), CONFIGS)
def test_the_facts_the_rules_read_every_action_are_the_games_own(name: str,
                                                                  config: dict[str, object]) -> None:
    """``state.facts`` (``play_facts.PlayFacts``, a class the compiled build compiles) holds
    the very objects the game worked out, so the rules read through it what they would
    read on the game; every state and its clones share the one copy."""
    game = make_game(name, config)
    assert isinstance(game, GloomGame)
    facts = game.play_facts
    names = [n for n in dir(PlayFacts) if not n.startswith("_")]  # (a compiled class has no __slots__)
    assert "deaths" in names and "triggers" in names
    assert set(names) <= set(GloomFacts.__slots__)
    for attr in names:
        mine, games = getattr(facts, attr), getattr(game, attr)
        if isinstance(mine, int):  # (the compiled class keeps an int unboxed: equal, a new object)
            assert mine == games and type(mine) is type(games), attr
        else:
            assert mine is games, attr
    state = game.new_initial_state(7)
    assert state.facts is facts
    assert state.clone().facts is facts
