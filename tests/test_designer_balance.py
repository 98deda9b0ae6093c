"""``gloom balance``: the report's figures agree with a recount from the very
game records the run played (saved with ``--records``)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import pytest
from typer.testing import CliRunner

from gloomtable.cli.main import app
from gloomtable.designer.balance import two_proportion, wilson
from gloomtable.engine.record import GameRecord
from gloomtable.games import make_game
from gloomtable.simulate import game_seed

GLOOM = [sys.executable, "-m", "gloomtable.cli.main"]
GAMES = 12


def recount(records: list[GameRecord]) -> dict:
    """Replay every record with nothing but the engine protocol, counting as a
    person with the game log would: who drew, played and won what."""
    drawn: Counter[int] = Counter()
    played: Counter[int] = Counter()
    own: Counter[int] = Counter()
    other: Counter[int] = Counter()
    nobody: Counter[int] = Counter()
    cancelled: Counter[int] = Counter()
    delta_sum: Counter[int] = Counter()
    landed: Counter[int] = Counter()
    shares = []
    rounds = []
    fvs = []
    share_if_played: dict[int, list[float]] = {}
    for rec in records:
        game = make_game(rec.game, rec.config)
        state = game.new_initial_state(rec.seed)
        n = game.num_players
        for p in range(n):
            drawn.update(state.view(p)["hand"])
        waiting: dict[int, tuple[int, int]] = {}  # card -> (target, Self-Worth before)
        who_played: list[set[int]] = [set() for _ in range(n)]
        view = state.view(None)
        for action in rec.actions:
            before = {ch["card"]: ch for fam in view["families"] for ch in fam["characters"]}
            events = state.apply(action)
            view = state.view(None)
            after = {ch["card"]: ch for fam in view["families"] for ch in fam["characters"]}
            for ev in events:
                if ev.kind == "draw":
                    drawn[ev.card] += 1
                if ev.kind in ("play", "response"):
                    played[ev.card] += 1
                    who_played[ev.player].add(ev.card)
                    if ev.kind == "play" and ev.target is not None:
                        owner = before[ev.target]["controller"]
                        (own if owner == ev.player else other)[ev.card] += 1
                        waiting[ev.card] = (ev.target, before[ev.target]["self_worth"])
                    else:
                        nobody[ev.card] += 1
                if ev.kind == "response":
                    cancelled[ev.target] += 1
                    waiting.pop(ev.target, None)
            for card, (target, sw) in list(waiting.items()):
                if card in after[target]["stack"]:
                    delta_sum[card] += after[target]["self_worth"] - sw
                    landed[card] += 1
                    del waiting[card]
                elif card not in view["in_play"]:
                    del waiting[card]
        assert state.is_over()
        res = state.result()
        shares.append(res.returns())
        rounds.append(res.details["rounds"])
        fvs.extend(res.scores)
        for p in range(n):
            for card in who_played[p]:
                share_if_played.setdefault(card, []).append(res.returns()[p])
    return {"drawn": drawn, "played": played, "own": own, "other": other, "nobody": nobody,
            "cancelled": cancelled, "delta_sum": delta_sum, "landed": landed, "shares": shares,
            "rounds": rounds, "fvs": fvs, "share_if_played": share_if_played}


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, str, list[GameRecord]]:
    tmp = tmp_path_factory.mktemp("balance")
    out, recs = tmp / "report.html", tmp / "records"
    proc = subprocess.run([*GLOOM, "balance", "classic", "--players", "4", "--games", str(GAMES),
                           "--workers", "2", "--seed", "5", "--out", str(out), "--json",
                           "--records", str(recs)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    fig = json.loads(proc.stdout)
    records = [GameRecord.load(p) for p in sorted(recs.glob("*.json"))]
    return fig, out.read_text(encoding="utf-8"), records


@pytest.fixture(scope="module")
def rc(report) -> dict:
    return recount(report[2])


@pytest.mark.slow
def test_the_run_played_the_seeded_games_it_says(report) -> None:
    fig, _, records = report
    assert fig["games"] == GAMES == len(records)
    assert sorted(r.seed for r in records) == [game_seed(5, i) for i in range(GAMES)]
    assert fig["players"] == 4 and fig["bots"] == ["random"] * 4


@pytest.mark.slow
def test_game_figures_match_a_recount(report, rc) -> None:
    fig, _, _ = report
    for seat, row in enumerate(fig["win_share_by_seat"]):
        share = sum(s[seat] for s in rc["shares"]) / GAMES
        assert row["share"] == pytest.approx(share)
        assert row["ci95"][0] <= share <= row["ci95"][1]
        assert row["ci95"] == pytest.approx(list(wilson(share * GAMES, GAMES)))
    assert sum(r["share"] for r in fig["win_share_by_turn_order"]) == pytest.approx(1.0)
    assert fig["rounds"]["histogram"] == [[v, c] for v, c in sorted(Counter(rc["rounds"]).items())]
    assert fig["family_values"]["histogram"] == [[v, c] for v, c in sorted(Counter(rc["fvs"]).items())]
    assert fig["rounds"]["mean"] == pytest.approx(sum(rc["rounds"]) / GAMES)


@pytest.mark.slow
def test_card_figures_match_a_recount(report, rc) -> None:
    fig, _, _ = report
    cards = {c["index"]: c for c in fig["cards"]}
    assert len(cards) == 57 + 11 + 20  # every card but the Characters
    assert sum(c["played"] for c in cards.values()) == sum(rc["played"].values()) > 0
    for i, c in cards.items():
        assert c["drawn"] == rc["drawn"][i], c["name"]
        assert c["played"] == rc["played"][i], c["name"]
        assert (c["on_own"], c["on_other"], c["on_nobody"]) == (rc["own"][i], rc["other"][i],
                                                                rc["nobody"][i]), c["name"]
        assert c["cancelled"] == rc["cancelled"][i], c["name"]
        assert c["landed"] == rc["landed"][i], c["name"]
        if rc["landed"][i]:
            assert c["mean_self_worth_effect"] == pytest.approx(rc["delta_sum"][i] / rc["landed"][i])
        if c["type"] == "event":
            assert c["on_own"] == c["on_other"] == 0
        won = rc["share_if_played"].get(i)
        assert c["win_share_played"] == (pytest.approx(sum(won) / len(won)) if won else None)
    modifiers = [c for c in cards.values() if c["type"] == "modifier" and c["landed"]]
    assert any(c["mean_self_worth_effect"] < 0 for c in modifiers)


@pytest.mark.slow
def test_the_html_report_is_self_contained_with_charts_and_the_same_figures(report) -> None:
    fig, html, _ = report
    assert html.startswith("<!doctype html>")
    assert html.count("<svg") >= 4  # two win-share charts, two histograms (+ card bars)
    assert "http://" not in html and "https://" not in html and "<link" not in html
    embedded = html.split('<script type="application/json" id="figures">', 1)[1].split("</script>")[0]
    assert json.loads(embedded.replace("<\\/", "</")) == fig
    for card in fig["cards"][:5]:
        assert card["name"].replace("'", "&#x27;") in html


def test_a_clear_difference_needs_evidence() -> None:
    """The flag's test: a lucky handful is not clear; hundreds of games are."""
    diff, p = two_proportion([1.0] * 3, [0.25] * 40)
    assert diff == pytest.approx(0.75) and p > 1e-4
    _, p_big = two_proportion([1.0] * 150 + [0.0] * 50, [1.0] * 50 + [0.0] * 150)
    assert p_big < 1e-10


def test_bad_input_is_a_clear_error() -> None:
    runner = CliRunner()
    bad = runner.invoke(app, ["balance", "no/such/deck.toml", "--games", "2", "--json"])
    assert bad.exit_code == 2 and "no such file" in bad.stderr
    bad = runner.invoke(app, ["balance", "classic", "--games", "2", "--players", "9", "--json"])
    assert bad.exit_code == 2 and "players" in bad.stderr
    bad = runner.invoke(app, ["balance", "classic", "--games", "2"])
    assert bad.exit_code == 2 and "--out" in bad.stderr


def test_guests_and_stories_are_counted_from_the_events() -> None:
    """R-H5, R-H7: Story claims and Guest follows in a Gloomier run, recounted."""
    from gloomtable.designer.balance import deck_of, figures, run_balance

    run = run_balance(["gloomier"], 4, 4, seed=2, workers=1)
    fig = figures(run, deck_of(make_game("gloom", run.config)))
    claims: Counter[int] = Counter()
    follows: Counter[int] = Counter()
    for rec in run.records:
        state = make_game(rec.game, rec.config).new_initial_state(rec.seed)
        for a in rec.actions:
            for ev in state.apply(a):
                if ev.kind == "claim":
                    claims[ev.card] += 1
                elif ev.kind == "follow":
                    follows[ev.card] += 1
    backs = {b["index"]: b for b in fig["guests_and_stories"]}
    assert len(backs) == 20 and {b["type"] for b in backs.values()} == {"guest", "story"}
    assert {i: b["claims"] for i, b in backs.items() if b["claims"]} == dict(claims)
    assert {i: b["follows"] for i, b in backs.items() if b["follows"]} == dict(follows)
    assert all(c["type"] in ("modifier", "event", "untimely_death") for c in fig["cards"])
