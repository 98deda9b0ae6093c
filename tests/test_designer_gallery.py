"""The gallery page's parts that need no browser: the table's renderer inlined
whole, the deck's faces as JSON, clear errors for a bad deck or a clash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gloomtable.cli.main import app
from gloomtable.designer.gallery import (
    WEB_DIR,
    GalleryError,
    bundle,
    gallery_data,
    gallery_data_from_text,
    served_page,
    standalone_page,
)
from gloomtable.designer.starter import write_starter
from gloomtable.games.gloom.deck import DeckError


def test_the_standalone_page_inlines_the_tables_own_renderer() -> None:
    js = bundle()
    cards_js = (WEB_DIR / "cards.js").read_text(encoding="utf-8")
    assert "function stackSVG(" in js and "function cardSVG(" in js and "class Gallery" in js
    body = cards_js.split("export function cardLayer", 1)[1].split("\n}\n", 1)[0]
    assert body in js  # the very code the table draws with
    assert "\nimport " not in js and "\nexport " not in js


def test_a_name_clash_between_modules_fails_loudly(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text("export function draw() {}\n")
    (tmp_path / "b.js").write_text('import { draw } from "./a.js";\nexport const draw = 1;\n')
    with pytest.raises(GalleryError, match=r"draw is declared in both a\.js and b\.js"):
        bundle(("a.js", "b.js"), tmp_path)


def test_faces_go_in_as_json_that_cannot_end_the_script(tmp_path: Path) -> None:
    deck = write_starter("Rainy Day", tmp_path).read_text()
    data = gallery_data_from_text(deck.replace('name = "Aunt Drizzle"', 'name = "Aunt </script><b>"'))
    page = standalone_page(data)
    raw = page.split('id="gallery-data">', 1)[1].split("</script>", 1)[0]
    assert json.loads(raw)["cards"][0]["name"] == "Aunt </script><b>"
    assert page.count("</script>") == 2  # the data block and the module, nothing from the deck


def test_mixed_sets_and_bad_decks() -> None:
    data = gallery_data(["classic", "gloomier"])
    types = {c["type"] for c in data["cards"]}
    assert {"character", "modifier", "event", "untimely_death", "guest", "story"} <= types
    assert all(len(c["prints"]) == 9 for c in data["cards"])
    with pytest.raises(DeckError, match="not valid TOML"):
        gallery_data_from_text("[set\n")
    page = served_page()  # the served page loads the gallery from a file (no inline script)
    assert 'src="/static/gallery_page.js"' in page and "<script>" not in page


def test_gloom_deck_gallery_writes_a_file_or_lists_the_problems(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    made = runner.invoke(app, ["deck", "gallery", "classic"])
    assert made.exit_code == 0, made.stderr
    assert (tmp_path / "classic-gallery.html").read_text(encoding="utf-8").startswith("<!doctype html>")
    bad = runner.invoke(app, ["deck", "gallery", "no/such.toml"])
    assert bad.exit_code == 1 and "no such file" in bad.stderr
