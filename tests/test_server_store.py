"""The server's parts without a process: the SQLite store, option checks, name
cleaning, the card catalogue and the choices, and replay on resume."""

from __future__ import annotations

from pathlib import Path

import pytest

from gloomtable.engine.errors import ConfigError
from gloomtable.games import make_game
from gloomtable.server.errors import ServerError
from gloomtable.server.lobby import Lobby, check_sets
from gloomtable.server.options import TableOptions, clean_name, parse_table_spec, table_options
from gloomtable.server.present import catalogue, choices
from gloomtable.server.store import SeatRow, StaleActionError, TableRow, open_store
from gloomtable.server.table import LiveTable


def row(tid: str = "t1", actions: list[int] | None = None) -> TableRow:
    seats = [SeatRow(0, "person", "random", "Ada", "tok0"), SeatRow(1, "person", "random", "Bo", "tok1")]
    return TableRow(tid, "gloom", {"players": 2}, 7, {"spectators": True}, True, "host", seats)


def test_store_round_trip_and_order(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s.db")
    store.create_table(row())
    game = make_game("gloom", {"players": 2})
    state = game.new_initial_state(7)
    for i in range(5):
        a = state.legal_actions()[0]
        state.apply(a)
        store.append_action("t1", i, a, state.current_player(), "person", "once" if i == 2 else None, False)
    store.update_seat("t1", 1, name="Bea", claimed=True)
    store.close()
    again = open_store(tmp_path / "s.db")
    loaded = again.load("t1")
    assert loaded is not None and len(loaded.actions) == 5 and loaded.narration == {2: "once"}
    assert loaded.seats[1].name == "Bea" and loaded.seats[1].claimed
    assert again.unfinished_ids() == ["t1"]
    with pytest.raises(StaleActionError):  # an index is appended once, never twice
        again.append_action("t1", 4, 0, 0, "person", None, False)
    assert len(again.load("t1").actions) == 5  # the failed transaction left nothing behind
    again.close()


def test_a_record_that_no_longer_replays_marks_the_table_broken(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s.db")
    r = row()
    r.actions, r.actors = [10**6], [(0, "person")]
    table = LiveTable.open(r, store)
    assert table.broken and "#0" in table.broken
    assert table.summary()["broken"] == table.broken
    store.close()


def test_resume_replays_the_stored_actions(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s.db")
    store.create_table(row())
    game = make_game("gloom", {"players": 2})
    state = game.new_initial_state(7)
    for i in range(4):
        a = state.legal_actions()[-1]
        state.apply(a)
        store.append_action("t1", i, a, 0, "person", None, False)
    lobby = Lobby(store)
    assert lobby.resume_all() == 1
    assert lobby.get("t1").state.view(0) == state.view(0)
    with pytest.raises(ServerError) as err:
        lobby.get("nope")
    assert err.value.code == "not_found" and err.value.status == 404
    store.close()


def test_table_options_are_checked() -> None:
    with pytest.raises(ConfigError, match="seats"):
        parse_table_spec({"seats": [{"kind": "person"}]})
    with pytest.raises(ConfigError, match="level"):
        parse_table_spec({"seats": [{"kind": "bot", "level": "godlike"}] * 2})
    with pytest.raises(ConfigError, match="turn_timer"):
        parse_table_spec({"seats": [{}, {}], "turn_timer": -1})
    spec = parse_table_spec({"seats": [{}, {"kind": "bot"}]})
    assert spec.bot_delay_ms == 700 and spec.seats[0].kind == "person"


def test_table_options_have_their_defaults_in_the_model_alone(tmp_path: Path) -> None:
    """issue 33: what a table stores is every field of TableOptions, and a stored table
    that lacks some (made before they existed) reads the model's defaults for them."""
    spec = parse_table_spec({"seats": [{}, {}], "bot_delay_ms": 50, "absent_after": 5})
    stored = table_options(spec)
    assert list(stored) == list(TableOptions.model_fields)
    assert TableOptions.stored(stored).model_dump() == stored
    assert TableOptions.stored({}).model_dump() == TableOptions().model_dump()
    store = open_store(tmp_path / "s.db")
    old = row()
    old.options = {"spectators": False, "bot_delay_ms": 50, "open_seats": [1]}
    store.create_table(old)
    table = LiveTable.open(store.load("t1"), store)
    s = table.settings
    assert (s.spectators, s.bot_delay_ms) == (False, 50)
    assert (s.absent_after, s.turn_timer, s.on_timeout, s.replace_absent) == (20.0, 0, "bot", False)
    assert (s.rated, s.rated_bots, s.talk) == (True, False, True)
    assert (s.spectator_talk, s.talk_in_record) == (False, False)
    assert table.response_pause == 2.5 and table.is_open_seat(1) and not table.is_open_seat(0)
    assert table.options == old.options  # the stored dict itself is as it was
    store.close()


@pytest.mark.parametrize("sets", [["/etc/passwd"], ["../classic"], "classic", [], [3]])
def test_only_shipped_sets_may_be_named(sets: object) -> None:
    with pytest.raises(ServerError) as err:
        check_sets({"sets": sets})
    assert err.value.code == "bad_table"
    check_sets({"sets": ["classic"]})


def test_names_lose_control_characters_and_length() -> None:
    assert clean_name("  Ada\x00\x1b[31m  Lovelace \n") == "Ada [31m Lovelace"
    assert clean_name("x" * 100) == "x" * 40
    assert clean_name("<script>alert(1)</script>") == "<script>alert(1)</script>"  # escaped by the page


def test_catalogue_and_choices_describe_gloom() -> None:
    game = make_game("gloom", {"players": 3})
    cat = catalogue(game)
    assert len(cat["cards"]) == len(game.deck.cards) and len(cat["families"]) == 4
    state = game.new_initial_state(1)
    while state.view(None)["decision"]["kind"] != "play":
        state.apply(state.legal_actions()[0])
    items = choices("gloom", state, state.legal_actions())
    plays = [c for c in items if c["kind"] == "play"]
    assert plays and all("card" in c and "target" in c for c in plays)
    assert {c["action"] for c in items} == set(state.legal_actions())


def test_choices_describe_creatures() -> None:
    game = make_game("creatures", {"players": 3})
    state = game.new_initial_state(1)
    items = choices("creatures", state, state.legal_actions())
    assert {c["kind"] for c in items} <= {"play", "pass", "flip", "make_draw"}
    assert catalogue(game) == {}
