"""Decks uploaded in the lobby (issue 34, "Decks at online tables"): checked in the heavy
worker, stored by content key in the table store (both backends, ``db copy`` too),
offered to their uploader, played at tables that name them by key (never a path),
brought back after a restart, and refused whole when hostile (docs/security.md)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from gloom_helpers import HARBOUR_DECK
from gloomtable.server.store_decks import DeckRow
from gloomtable.server.testing import ServerProcess
from gloomtable.server.uploads import KEY, check_upload, upload_key

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SLOW_MACHINE = ["--heavy-timeout", "120"]
"""The worker starts (and imports the checker) at the lowest priority: on a busy
2-core machine its first job may take longer than the default 5 s."""

DECK = HARBOUR_DECK

SPANISH = '''
[set]
name = "El Puerto"
[cards.fell-off-the-pier]
name = "Se cayó del muelle"
'''


def upload(url: str, deck: str = DECK, translations: dict[str, str] | None = None,
           file: str = "harbour.toml") -> httpx.Response:
    return httpx.post(url + "/api/decks", json={"deck": deck, "file": file,
                                                "translations": translations or {}}, timeout=60)


def create(url: str, sets: list[str], game: str = "gloom", seats: list[dict[str, Any]] | None = None
           ) -> httpx.Response:
    return httpx.post(url + "/api/tables", json={
        "game": game, "config": {"sets": sets}, "bot_delay_ms": 0, "seed": 3,
        "seats": seats or [{"kind": "bot", "level": "easy"}] * 3}, timeout=60)


def wait_over(url: str, tid: str, deadline: float = 240.0) -> dict[str, Any]:
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        summary: dict[str, Any] = httpx.get(f"{url}/api/tables/{tid}", timeout=30).json()
        if summary["over"]:
            return summary
        time.sleep(0.3)
    raise AssertionError(f"table {tid} did not finish in {deadline} s")


def test_the_check_in_the_worker_is_plain_values_and_a_content_key() -> None:
    raw = json.dumps({"deck": DECK, "file": "harbour.toml", "translations": {"es": SPANISH}}).encode()
    found = check_upload(raw, ("en", "es", "ru"))
    assert found["ok"] and found["kind"] == "deck" and found["name"] == "The Harbour"
    assert found["names"] == {"en": "The Harbour", "es": "El Puerto"}
    assert KEY.fullmatch(found["key"]) and found["key"] == upload_key("deck", DECK, {"es": SPANISH})
    assert upload_key("deck", DECK, {}) != found["key"]  # the translations are part of the content
    json.dumps(found)  # crosses processes whole


@pytest.mark.parametrize(("body", "says"), [
    (b"not json", "not JSON"),
    (b"[1, 2]", "JSON object"),
    (json.dumps({"deck": 5}).encode(), '"deck" must be'),
    (json.dumps({"deck": DECK, "path": "/etc/passwd"}).encode(), "unknown field 'path'"),
    (json.dumps({"deck": DECK, "translations": {"xx": "a = 1"}}).encode(), "deck.xx.toml: no such language"),
    (json.dumps({"deck": DECK, "translations": {"es": "[[["}}).encode(), "deck.es.toml"),
    (json.dumps({"deck": DECK, "translations": {"es": "cards = 3"}}).encode(), "[cards] must hold"),
    (json.dumps({"deck": "[set\nid="}).encode(), "deck.toml"),
    (json.dumps({"deck": DECK.replace("top = -15", 'top = "-15"'), "file": "h.toml"}).encode(),
     "h.toml: modifiers[0] (id 'fell-off-the-pier'): field points.top"),
    (json.dumps({"deck": "a." * 40 + "b = 1"}).encode(), "parts"),  # past --text-max-key-parts
])
def test_a_hostile_or_broken_upload_is_refused_saying_what_and_where(body: bytes, says: str) -> None:
    found = check_upload(body, ("en", "es", "ru"))
    assert not found["ok"]
    assert any(says in p for p in found["problems"]) or says in found["message"], found


def test_a_translation_naming_what_its_deck_has_not_is_warned_of() -> None:
    bad = SPANISH + '[cards.fell-of-the-pier]\nname = "x"\n[families.nowhere]\nname = "y"\n'
    bad += '[icons.gull]\nname = "z"\n[deaths]\nx = 1\n'
    body = {"deck": DECK, "file": "harbour.toml", "translations": {"es": bad}}
    found = check_upload(json.dumps(body).encode(), ("en", "es"))
    assert found["ok"]
    text = "\n".join(found["warnings"])
    assert "harbour.es.toml: [cards.fell-of-the-pier]: field id: the deck has no card" in text
    assert "[families.nowhere]: field id: the deck has no family 'nowhere'" in text
    assert "harbour.es.toml: [deaths]: field deaths: no such table" in text


def test_each_game_reads_its_own_uploads_and_a_game_without_decks_takes_none(tmp_path: Path) -> None:
    """issue 33: an upload is read by the game whose deck files have its shape (the
    registry's ``decks``); a table of a game with none (Kuhn poker) refuses every upload."""
    from gloomtable.engine import ConfigError
    from gloomtable.games import registry
    from gloomtable.server.store import open_store
    from gloomtable.server.uploads import upload_rows

    assert registry.entry("kuhn").decks is None
    assert registry.entry("gloom").decks is not None and registry.entry("gloomier").decks is not None
    assert [d.kind for d in registry.decks()] == ["deck", "variant"]  # Gloomier shares Gloom's
    zoo = (EXAMPLES / "night-zoo.toml").read_text()
    variant = check_upload(json.dumps({"deck": zoo, "file": "night-zoo.toml"}).encode(), ("en",))
    assert variant["ok"] and variant["kind"] == "variant" and variant["cards"] > 0, variant
    odd = check_upload(json.dumps({"deck": "colours = 1"}).encode(), ("en",))  # no game's shape
    assert not odd["ok"] and odd["message"].startswith("deck.toml: "), odd  # Gloom's reader says why
    store = open_store(tmp_path / "s.db")
    try:
        rows = [DeckRow("up-" + "a" * 20, "deck", "Harbour", json.dumps({"deck": DECK}), "o", 1.0, 1.0),
                DeckRow("up-" + "b" * 20, "variant", "Zoo", json.dumps({"deck": zoo}), "o", 1.0, 1.0)]
        for row in rows:
            store.put_deck(row)
        with pytest.raises(ConfigError, match="is a Gloom deck, not one for kuhn"):
            upload_rows(store, "kuhn", {"sets": [rows[0].key]})
        with pytest.raises(ConfigError, match="is a Crazy Creatures set, not one for kuhn"):
            upload_rows(store, "kuhn", {"sets": [rows[1].key]})
        with pytest.raises(ConfigError, match="is a Crazy Creatures set, not one for gloomier"):
            upload_rows(store, "gloomier", {"sets": [rows[1].key]})
        assert upload_rows(store, "gloomier", {"sets": [rows[0].key]}) == [rows[0]]
    finally:
        store.close()


@pytest.mark.slow
def test_an_uploaded_deck_plays_at_a_table_by_key_and_comes_back_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    with ServerProcess(db, args=["--uploads-per-client", "2", *SLOW_MACHINE]) as server:
        r = upload(server.url, translations={"es": SPANISH})
        assert r.status_code == 201, r.text
        deck = r.json()
        key = deck["key"]
        assert KEY.fullmatch(key) and deck["kind"] == "deck" and deck["names"]["es"] == "El Puerto"
        assert deck["gallery"] == f"/gallery?deck={key}"
        again = upload(server.url, translations={"es": SPANISH})  # the same content: the same row
        assert again.status_code == 201 and again.json()["key"] == key
        assert [d["key"] for d in httpx.get(server.url + "/api/decks").json()["decks"]] == [key]
        assert httpx.get(f"{server.url}/api/decks/{key}").json()["name"] == "The Harbour"
        # not offered to everyone: the shared list of sets is the shipped ones
        assert key not in httpx.get(server.url + "/api/games").json()["gloom_sets"]
        # the per-client limit counts distinct decks
        other = upload(server.url, deck=DECK.replace("The Harbour", "The Harbour II"))
        assert other.status_code == 201, other.text
        third = upload(server.url, deck=DECK.replace("The Harbour", "The Harbour III"))
        assert third.status_code == 429 and third.json()["code"] == "too_many_decks", third.text
        # a key no upload has, or a deck of the other game, is refused
        assert create(server.url, ["classic", "up-" + "0" * 20]).json()["code"] == "bad_table"
        assert create(server.url, [key], game="creatures",
                      seats=[{"kind": "bot"}] * 2).json()["code"] == "bad_table"
        r = create(server.url, ["classic", key])
        assert r.status_code == 201, r.text
        table = r.json()
        assert table["options"]["uploaded_decks"] == [{"key": key, "name": "The Harbour"}]
        cards = httpx.get(f"{server.url}/api/tables/{table['id']}/cards?lang=es").json()
        names = {c.get("name") for c in cards["cards"]}
        assert {"Se cayó del muelle", "The Old Salt"} <= names
        gallery = httpx.get(f"{server.url}/api/gallery/{key}", timeout=60)
        assert gallery.status_code == 200 and "Found a Message in a Bottle" in gallery.text
        summary = wait_over(server.url, table["id"])
        # one waiting for a person stays unfinished, to come back after the restart
        waiting = create(server.url, ["classic", key], seats=[{"kind": "person"}, {"kind": "bot"},
                                                              {"kind": "bot"}]).json()
    with ServerProcess(db, args=SLOW_MACHINE) as server:
        back = httpx.get(f"{server.url}/api/tables/{waiting['id']}/cards").json()
        assert "Fell off the Pier" in {c.get("name") for c in back["cards"]}
        assert create(server.url, ["classic", key]).status_code == 201
        done = httpx.get(f"{server.url}/api/tables/{table['id']}").json()
        assert done["over"] and done["seed"] == summary["seed"]
        listed = httpx.get(server.url + "/api/tables").json()
        assert all("uploaded" in t for t in listed["tables"])


@pytest.mark.slow
def test_a_crazy_creatures_variant_uploads_and_plays(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "tables.db", args=SLOW_MACHINE) as server:
        r = upload(server.url, deck=(EXAMPLES / "night-zoo.toml").read_text(), file="night-zoo.toml")
        assert r.status_code == 201, r.text
        key = r.json()["key"]
        assert r.json()["kind"] == "variant" and r.json()["gallery"] is None
        assert create(server.url, ["classic", key]).json()["code"] == "bad_table"
        t = create(server.url, [key], game="creatures", seats=[{"kind": "bot"}] * 3)
        assert t.status_code == 201, t.text
        assert wait_over(server.url, t.json()["id"])["config"]["sets"] == [key]


@pytest.mark.slow
def test_upload_limits_are_flags(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "tables.db", args=["--upload-max-bytes", "2000", *SLOW_MACHINE]) as server:
        r = upload(server.url, deck=DECK + "#" * 3000)
        assert r.status_code == 413 and r.json()["code"] == "too_large"
        r = httpx.post(server.url + "/api/decks", content=DECK, headers={"Content-Type": "text/plain"})
        assert r.status_code == 415
        bad = upload(server.url, deck=DECK.replace("top = -15", "top = true"))
        assert bad.status_code == 400 and bad.json()["code"] == "bad_deck"
        assert any("points.top" in p for p in bad.json()["problems"])


def test_uploaded_decks_in_the_store_on_both_backends(where: str, tmp_path: Path) -> None:
    from gloomtable.server.copy import copy_tables
    from gloomtable.server.store import open_store

    store = open_store(where)
    try:
        bundle = json.dumps({"file": "h.toml", "deck": DECK, "translations": {}})
        old = DeckRow("up-" + "a" * 20, "deck", "Old", bundle, "o1", 100.0, 100.0)
        new = DeckRow("up-" + "b" * 20, "deck", "New", bundle, "o1", 200.0, time.time())
        assert store.put_deck(old) and store.put_deck(new)
        assert not store.put_deck(new)  # the same key once
        assert [r.key for r in store.owner_decks("o1")] == [new.key, old.key]
        assert store.owner_decks("o2") == []
        got = store.get_deck(old.key)
        assert got is not None and got.bundle == bundle and got.name == "Old"
        # copied to another store (SQLite -> here, or here -> SQLite) with db copy
        other = tmp_path / "other.db"
        report = copy_tables(where, other)
        assert report.deck_rows == 2
        copied = open_store(other)
        try:
            assert {r.key for r in copied.owner_decks("o1")} == {old.key, new.key}
        finally:
            copied.close()
        kept = DeckRow("up-" + "c" * 20, "deck", "Kept", bundle, "o1", 100.0, 100.0)
        store.put_deck(kept)
        from gloomtable.server.store import SeatRow, TableRow
        store.create_table(TableRow("t1", "gloom", {"players": 3, "sets": ["classic", kept.key]}, 1, {},
                                    False, "h", [SeatRow(i, "bot", "easy", f"B{i}", "") for i in range(3)]))
        assert store.expire_decks(150.0) == 1  # the old one, unused since 100; a table names "kept"
        assert store.get_deck(old.key) is None and store.get_deck(new.key) is not None
        assert store.get_deck(kept.key) is not None
    finally:
        store.close()


def test_a_backup_of_a_sqlite_store_carries_its_uploaded_decks(tmp_path: Path) -> None:
    from gloomtable.server.backup import backup
    from gloomtable.server.store import open_store

    store = open_store(tmp_path / "s.db")
    row = DeckRow("up-" + "d" * 20, "deck", "Backed", json.dumps({"deck": DECK}), "o", 1.0, 1.0)
    try:
        store.put_deck(row)
    finally:
        store.close()
    backup(tmp_path / "s.db", tmp_path / "b.db")
    copy = open_store(tmp_path / "b.db")
    try:
        got = copy.get_deck(row.key)
        assert got is not None and got.name == "Backed"
    finally:
        copy.close()
