"""The chronicle (R-G27): each Character's tale in order, their end, the Family
Values; typed narration kept word for word, missing lines narrated; Markdown and
printable HTML with every deck text escaped; ``gloom replay --chronicle``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from gloomtable.cli.main import app
from gloomtable.designer.balance import play_one
from gloomtable.designer.chronicle import (
    ChronicleError,
    build_chronicle,
    chronicle_html,
    chronicle_markdown,
)
from gloomtable.engine.record import GameRecord
from gloomtable.games import make_game

TYPED = "Aunt <b>Agatha</b> & the *cat* were never the same."


@pytest.fixture(scope="module")
def record() -> GameRecord:
    game = make_game("gloom", {"players": 3})
    rec = play_one(game, ["random"] * 3, 7, 0)
    state = game.new_initial_state(rec.seed)
    for i, a in enumerate(rec.actions):  # narrate the first play on a Character by hand
        if any(e.kind == "play" and e.target is not None for e in state.apply(a)):
            rec.narration[i] = TYPED
            break
    return rec


def plays_on_characters(rec: GameRecord) -> list[tuple[int, int, int, int]]:
    game = make_game(rec.game, rec.config)
    state = game.new_initial_state(rec.seed)
    out = []
    for i, a in enumerate(rec.actions):
        out += [(i, e.target, e.player, e.card) for e in state.apply(a)
                if e.kind == "play" and e.target is not None]
    return out


def test_every_play_is_in_its_characters_tale_in_order(record: GameRecord) -> None:
    chron = build_chronicle(record)
    tales = {t.card: t for t in chron.tales}
    plays = plays_on_characters(record)
    assert plays
    for target, tale in tales.items():
        told = [(ln.index, ln.actor) for ln in tale.lines if ln.card is not None and not ln.death
                and ln.text.startswith("Player")]
        expected = [(i, p) for i, t, p, _ in plays if t == target]
        assert told == expected, tale.name
    order = [t.player for t in chron.tales]
    assert order == sorted(order)  # family by family, in seat order


def test_the_ending_matches_the_replayed_game(record: GameRecord) -> None:
    chron = build_chronicle(record)
    game = make_game(record.game, record.config)
    state = game.new_initial_state(record.seed)
    for a in record.actions:
        state.apply(a)
    res = state.result()
    assert chron.family_values == list(res.scores) and chron.winners == list(res.winners)
    final = {ch["card"]: ch for fam in state.view(None)["families"] for ch in fam["characters"]}
    assert {t.card for t in chron.tales} == set(final)
    for t in chron.tales:
        assert (t.self_worth, t.dead) == (final[t.card]["self_worth"], final[t.card]["dead"])
        if t.dead:
            assert t.death and any(ln.death for ln in t.lines)
    assert any(t.dead for t in chron.tales)


def test_typed_narration_is_kept_and_the_rest_is_narrated(record: GameRecord) -> None:
    chron = build_chronicle(record)
    lines = [ln for t in chron.tales for ln in t.lines if ln.card and not ln.death]
    assert lines[0].narration == TYPED or any(ln.narration == TYPED for ln in lines)
    assert sum(1 for ln in lines if ln.narration and ln.narration != TYPED) > len(lines) // 2
    quiet = build_chronicle(record, narrate=False)
    assert [ln.narration for t in quiet.tales for ln in t.lines if ln.narration] == [TYPED]


def test_markdown_and_html_escape_what_people_typed(record: GameRecord) -> None:
    chron = build_chronicle(record)
    md = chronicle_markdown(chron)
    assert md.startswith("# The chronicle of a game of Gloom")
    assert "\\<b\\>Agatha\\</b\\> & the \\*cat\\*" in md and "## Family Values" in md
    html = chronicle_html(chron)
    assert "<b>Agatha" not in html and "&lt;b&gt;Agatha&lt;/b&gt; &amp; the *cat*" in html
    assert "@media print" in html and 'id="family-values"' in html
    for t in chron.tales:
        assert t.name in md


def test_gloom_replay_chronicle_writes_markdown_and_html(record: GameRecord, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    record.save(path)
    runner = CliRunner()
    told = runner.invoke(app, ["replay", str(path), "--chronicle"])
    assert told.exit_code == 0, told.stderr
    assert told.stdout.startswith("# The chronicle") and "Family Value" in told.stdout
    out = tmp_path / "chronicle.html"
    told = runner.invoke(app, ["replay", str(path), "--chronicle", "--format", "html", "--out", str(out)])
    assert told.exit_code == 0, told.stderr
    assert out.read_text(encoding="utf-8").startswith("<!doctype html>")
    bad = runner.invoke(app, ["replay", str(path), "--chronicle", "--format", "pdf"])
    assert bad.exit_code == 2 and "md or html" in bad.stderr


def test_records_that_cannot_be_told_give_a_clear_error(record: GameRecord) -> None:
    unfinished = GameRecord(record.game, record.config, record.seed, record.actions[:20])
    with pytest.raises(ChronicleError, match="before the end"):
        build_chronicle(unfinished)
    assert build_chronicle(unfinished, allow_unfinished=True).over is False
    creatures = GameRecord("creatures", {"players": 2}, 1, [])
    with pytest.raises(ChronicleError, match="Gloom games"):
        build_chronicle(creatures)
