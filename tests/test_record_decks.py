"""A saved game is self-contained (issue 20): a record carries the decks it was played
with. Replaying after the deck file changed plays the recorded deck; a shipped set that
changed, or a record whose copy was edited, stops the replay with an error that says the
deck changed. Never a silently different game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gloomtable.engine import Rng
from gloomtable.engine.record import GameRecord, RecordFormatError
from gloomtable.games import make_game, replay_record
from gloomtable.games.gloom.deck import read_set
from gloomtable.games.gloom.game import DeckChangedError, GloomGame, sha256

CHANGES = [  # three card values of the classic set, each made 5 points worse
    ('id = "swallowed-a-suspicious-oyster"\nname = "Swallowed a Suspicious Oyster"\npoints = { top = -15 }',
     'id = "swallowed-a-suspicious-oyster"\nname = "Swallowed a Suspicious Oyster"\npoints = { top = -20 }'),
    ('points = { top = -10, middle = -5 }\nicons = { bottom = "duck" }',
     'points = { top = -15, middle = -5 }\nicons = { bottom = "duck" }'),
    ('points = { top = -10, bottom = -5 }\nicons = { middle = "goblet" }',
     'points = { top = -10, bottom = -10 }\nicons = { middle = "goblet" }'),
]


def play_out(game: GloomGame, seed: int) -> tuple[list[int], tuple[int, ...]]:
    """A seeded random game to its end: its actions and scores."""
    state = game.new_initial_state(seed)
    rng = Rng(seed)
    actions = []
    while not state.is_over():
        legal = state.legal_actions()
        actions.append(legal[rng.below(len(legal))])
        state.apply(actions[-1])
    return actions, state.result().scores


@pytest.fixture
def deck_file(tmp_path: Path) -> Path:
    path = tmp_path / "my-deck.toml"
    path.write_text(read_set("classic")[1], encoding="utf-8")
    return path


def test_a_record_replays_its_own_deck_after_the_file_changed(deck_file: Path, tmp_path: Path) -> None:
    game = make_game("gloom", {"players": 3, "sets": [str(deck_file)]})
    actions, scores = play_out(game, 7)
    saved = tmp_path / "game.json"
    GameRecord.of(game, 7, actions).save(saved)
    text = deck_file.read_text(encoding="utf-8")
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["decks"] == {str(deck_file): {"sha256": sha256(text), "text": text}}

    for old, new in CHANGES:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    deck_file.write_text(text, encoding="utf-8")
    # the changed file is another game: the same seed and actions score otherwise or stop
    changed = make_game("gloom", {"players": 3, "sets": [str(deck_file)]})
    assert changed.deck_copies[str(deck_file)]["sha256"] != data["decks"][str(deck_file)]["sha256"]
    assert play_out(changed, 7) != (actions, scores)

    # the record replays the deck it carries, to the same end
    final = replay_record(GameRecord.load(saved))
    assert final.result().scores == scores
    # and so it does with the file gone
    deck_file.unlink()
    assert replay_record(GameRecord.load(saved)).result().scores == scores


def test_an_edited_copy_in_the_record_is_refused(deck_file: Path) -> None:
    game = make_game("gloom", {"players": 3, "sets": [str(deck_file)]})
    actions, _ = play_out(game, 3)
    record = GameRecord.of(game, 3, actions)
    old, new = CHANGES[0]
    record.decks[str(deck_file)]["text"] = record.decks[str(deck_file)]["text"].replace(old, new)
    with pytest.raises(DeckChangedError, match="does not match its SHA-256"):
        replay_record(GameRecord.from_json(record.to_json()))


def test_a_shipped_set_that_changed_stops_the_replay() -> None:
    game = make_game("gloomier", {"players": 4})
    actions, _ = play_out(game, 5)
    record = GameRecord.of(game, 5, actions)
    assert set(record.decks) == {"gloomier"} and "text" not in record.decks["gloomier"]
    assert replay_record(record).is_over()
    record.decks["gloomier"]["sha256"] = sha256("another version of the set")
    with pytest.raises(DeckChangedError, match="'gloomier' changed since this game was recorded"):
        replay_record(record)


def test_records_without_decks_still_replay_and_bad_decks_fields_are_refused() -> None:
    game = make_game("gloom", {"players": 2})
    actions, scores = play_out(game, 1)
    plain = GameRecord(game.name, game.config_dict(), 1, actions)
    assert "decks" not in plain.to_dict()
    assert replay_record(GameRecord.from_json(plain.to_json())).result().scores == scores
    data = GameRecord.of(game, 1, actions).to_dict()
    for bad in ([], {"classic": "abc"}, {"classic": {"text": "x"}}, {"classic": {"sha256": "a", "x": "y"}}):
        with pytest.raises(RecordFormatError, match="decks"):
            GameRecord.from_dict({**data, "decks": bad})
