"""A designer's Gloom deck at online tables: ``gloom serve --sets mine.toml`` registers
it by its set id, a table mixes it with the classic set by that id (never a path), the
table's cards and the gallery show it, and the record carries the deck's text (R-H10)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from gloom_helpers import HARBOUR_DECK
from gloomtable.engine.record import GameRecord
from gloomtable.games import replay_record
from gloomtable.server.testing import ServerProcess, free_port

DECK = HARBOUR_DECK


def serve(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gloomtable.cli.main", "serve", "--db", str(db),
                           "--port", str(free_port()), *args], capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_a_gloom_deck_from_serve_sets_plays_at_a_table_by_id(tmp_path: Path) -> None:
    deck = tmp_path / "harbour.toml"
    deck.write_text(DECK)
    with ServerProcess(tmp_path / "tables.db", args=["--sets", str(deck)]) as server:
        info = httpx.get(server.url + "/api/games").json()
        assert "harbour" in info["gloom_sets"]
        assert info["set_names"]["harbour"]["en"] == "The Harbour"
        for sets in ([str(deck)], ["classic", str(deck)], ["classic", "nowhere"]):
            r = httpx.post(server.url + "/api/tables", json={
                "game": "gloom", "config": {"sets": sets}, "seats": [{"kind": "bot"}] * 2})
            assert r.status_code == 400 and r.json()["code"] == "bad_table", r.text
        r = httpx.post(server.url + "/api/tables", json={
            "game": "gloom", "config": {"sets": ["classic", "harbour"]}, "bot_delay_ms": 0,
            "seats": [{"kind": "bot", "level": "easy"}] * 3, "seed": 4})
        assert r.status_code == 201, r.text
        table = r.json()
        cards = httpx.get(f"{server.url}/api/tables/{table['id']}/cards").json()
        names = {c.get("name") for c in cards["cards"].values()} if isinstance(cards.get("cards"), dict) \
            else {c.get("name") for c in cards.get("cards", [])}
        assert {"Fell off the Pier", "The Old Salt"} <= names, sorted(n for n in names if n)[:5]
        gallery = httpx.get(server.url + "/api/gallery/harbour", timeout=30)
        assert gallery.status_code == 200, gallery.text
        assert "Found a Message in a Bottle" in gallery.text
        assert httpx.get(server.url + "/api/gallery/nowhere").status_code == 404
    # the record of such a game carries the deck's text, so it replays without the server
    from gloomtable.games import make_game
    game = make_game("gloom", {"players": 3, "sets": ["classic", str(deck)]})
    rec = GameRecord.of(game, 4, [])
    assert rec.decks[str(deck)]["text"] == DECK
    replay_record(rec)


@pytest.mark.slow
def test_serve_sets_with_a_broken_gloom_deck_says_so_with_the_checkers_messages(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(DECK.replace("points = { top = -15 }", 'points = { top = "-15" }'))
    proc = serve(tmp_path / "t.db", "--sets", str(bad))
    assert proc.returncode == 2
    assert f"--sets: {bad} is not a playable Gloom deck (1 problem(s)" in proc.stderr
    assert "modifiers[0] (id 'fell-off-the-pier'): field points.top: Input should be a valid integer" \
        in proc.stderr
    clash = tmp_path / "clash.toml"
    clash.write_text(DECK.replace('id = "harbour"\nname = "The Harbour"', 'id = "classic"\nname = "X"'))
    proc = serve(tmp_path / "t.db", "--sets", str(clash))
    assert proc.returncode == 2 and "'classic' is a shipped set's id" in proc.stderr
