"""The ``easy`` and ``medium`` Gloom bots on a locked table (the cause of stalled 5-player games).

Once every Modifier lies on a stack, Self-Worth can change only through Events and
the game ends only through Untimely Deaths (R-G11, R-G24). A player holding a Death
that would end the game for someone else used to hold it for ever; with everyone
doing the same, the table passed until the turn cap. The position is built on a
small deck file and played through the real game and the real bot.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.gloom_helpers import cid, kill, pass_setup, put_on, set_hand

from gloomtable.bots import bot_action, make_bot
from gloomtable.games import make_game
from gloomtable.games.gloom.actions import Kind
from gloomtable.simulate import simulate
from scale import scaled

DECK = """
[set]
id = "locked"
name = "Locked"

[[families]]
id = "a"
name = "The As"

[[families]]
id = "b"
name = "The Bs"

[[characters]]
id = "a0"
name = "A Zero"
family = "a"

[[characters]]
id = "a1"
name = "A One"
family = "a"

[[characters]]
id = "b0"
name = "B Zero"
family = "b"

[[characters]]
id = "b1"
name = "B One"
family = "b"

[[modifiers]]
id = "sank"
name = "Sank"
points = { top = -10 }

[[modifiers]]
id = "slipped"
name = "Slipped"
points = { middle = -5 }

[[untimely_deaths]]
id = "death-0"
name = "Death Zero"

[[untimely_deaths]]
id = "death-1"
name = "Death One"
"""


def position(tmp_path: Path, modifier_on_stack: bool):
    """Player 0 holds a Death; player 1's last living Character is below zero, so
    that Death would end the game with player 1 winning (R-G24, R-G26)."""
    path = tmp_path / "locked.toml"
    path.write_text(DECK, encoding="utf-8")
    game = make_game("gloom", {"players": 2, "sets": [str(path)], "first_player": 0})
    s = pass_setup(game.new_initial_state(0))
    b0, b1 = s.families[1]
    kill(s, b1, "death-0")
    put_on(s, b0, "sank")
    if modifier_on_stack:
        put_on(s, b0, "slipped")
        set_hand(s, 0, ["death-1"])
    else:  # "Slipped" is still in player 0's hand: the table is not locked
        set_hand(s, 0, ["death-1", "slipped"])
    return s, b0


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_bot_ends_a_locked_table_with_a_death_even_for_an_opponent(tmp_path, level):
    """R-G24: with every Modifier on a stack nothing else can end the game."""
    s, b0 = position(tmp_path, modifier_on_stack=True)
    assert s.visible_of(b0).self_worth == -15 and s.decision.kind == "play"
    a = bot_action(make_bot(level, "gloom", 0), s, s.legal_actions())
    dec = s.codec.decode(a)
    assert (dec.kind, dec.card, dec.target) == (Kind.PLAY, cid(s, "death-1"), b0)
    s.apply(a)
    while not s.is_over() and s.decision.kind == "respond":
        s.apply(s.legal_actions()[0])
    assert s.is_over() and s.result().winners == (1,)


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_bot_does_not_hand_over_the_game_while_play_goes_on(tmp_path, level):
    s, _ = position(tmp_path, modifier_on_stack=False)
    a = bot_action(make_bot(level, "gloom", 0), s, s.legal_actions())
    dec = s.codec.decode(a)
    assert not (dec.kind is Kind.PLAY and dec.card == cid(s, "death-1"))


@pytest.mark.slow
@pytest.mark.parametrize("level", ["easy", "medium"])
def test_five_player_classic_games_seldom_reach_the_cap(level):
    """Before the locked-table rule about one 5-player game in eight stalled (0.13 of
    300 with easy bots, 0.14 of 1,000 with medium ones). The suite plays 60 games (that
    bug would cap about 8 of them; one is allowed), the soak (``scripts/soak.py``) 300."""
    games = scaled(60, 300)
    report = simulate("gloom", {"players": 5}, games=games, seed=1, bots=[level])
    assert report.capped <= max(1, games // 100), (report.capped, games)


def test_medium_bot_discards_a_hand_it_cannot_play_instead_of_passing(tmp_path):
    """R-G11 (2nd edition): discarding the whole hand is a play; with only Deaths in
    hand and nobody below zero, passing would wait for ever (two such hands stalled
    2-player games), while the discard refills the hand at the draw (R-G14)."""
    path = tmp_path / "locked.toml"
    path.write_text(DECK, encoding="utf-8")
    game = make_game("gloom", {"players": 2, "sets": [str(path)], "first_player": 0})
    s = pass_setup(game.new_initial_state(0))
    set_hand(s, 0, ["death-0", "death-1"])
    assert s.draw_pile  # the Modifiers wait there
    assert {s.codec.decode(a).kind for a in s.legal_actions()} == {Kind.PASS, Kind.DISCARD_HAND}
    a = bot_action(make_bot("medium", "gloom", 0), s, s.legal_actions())
    assert s.codec.decode(a).kind is Kind.DISCARD_HAND
