"""The balance report's numbers: simulate a deck on every core, replay each game
record into :class:`~gloomtable.designer.facts.GameFacts`, and sum them up.

Game ``i`` uses the seed :func:`gloomtable.simulate.game_seed` gives, like
``gloom simulate``, so any game in a report can be replayed from its record.
:func:`figures` is a pure function of the facts, so a test (or a sceptical
designer) can recount every figure from the same records.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from gloomtable.bots import bot_action, make_bot
from gloomtable.designer.facts import GameFacts, analyse
from gloomtable.designer.playtest import CAPPED_WARN, REASONS
from gloomtable.engine import CardDeck, ConfigError, DeckGame, Game
from gloomtable.engine.record import GameRecord
from gloomtable.games import make_game
from gloomtable.simulate import game_seed
from gloomtable.tournament import wilson

FORMAT = "gloomtable-balance/1"
PILE_TYPES = ("modifier", "event", "untimely_death")
"""Cards that are shuffled into the draw pile, drawn and played: the per-card
table's rows (Characters, Guests and Stories never come from a hand)."""
ALPHA = 0.05
MIN_GROUP = 20
"""A card's win-share difference is tested only when at least this many
player-games played it and this many did not (the z-test needs a sample)."""


@dataclass
class BalanceRun:
    """What was simulated, and every game's record and facts."""

    sets: list[str]
    players: int
    games: int
    seed: int
    bots: list[str]
    config: dict[str, Any]
    records: list[GameRecord] = field(default_factory=list)
    facts: list[GameFacts] = field(default_factory=list)


def balance_config(sets: Sequence[str], players: int, turn_cap: int | None = None) -> dict[str, Any]:
    config: dict[str, Any] = {"players": players, "sets": list(sets)}
    if turn_cap is not None:
        config["turn_cap"] = turn_cap
    return config


def deck_of(game: Game) -> CardDeck:
    """The deck a Gloom game was built from; a game without one has nothing to report on."""
    if not isinstance(game, DeckGame):
        raise ConfigError(f"{game.name} has no deck of Gloom cards to report on")
    return game.deck


def play_one(game: Game, levels: list[str], seed: int, i: int) -> GameRecord:
    """Play game ``i`` of a run between bots and return its record."""
    gs = game_seed(seed, i)
    state = game.new_initial_state(gs)
    n = game.num_players
    bots = [make_bot(levels[p], game.name, gs * 31 + p) for p in range(n)]
    actions: list[int] = []
    while not state.is_over():
        a = bot_action(bots[state.current_player()], state, state.legal_actions())
        state.apply(a)
        actions.append(a)
    return GameRecord.of(game, gs, actions)


def _play_chunk(config: dict[str, Any], levels: list[str], seed: int,
                indices: list[int]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Worker: play and analyse some games; plain dicts travel between processes."""
    game = make_game("gloom", config)
    out = []
    for i in indices:
        record = play_one(game, levels, seed, i)
        out.append((record.to_dict(), analyse(game, record).to_dict()))
    return out


def run_balance(
    sets: Sequence[str],
    players: int,
    games: int,
    seed: int = 1,
    bots: Sequence[str] = ("random",),
    workers: int | None = None,
    turn_cap: int | None = None,
    on_games: Callable[[int], None] | None = None,
) -> BalanceRun:
    """Simulate ``games`` games in ``workers`` processes (default: every core).
    ``on_games(k)`` is called as each batch of ``k`` games finishes."""
    if games < 1:
        raise ConfigError("--games must be at least 1")
    config = balance_config(sets, players, turn_cap)
    game = make_game("gloom", config)  # fails fast on a bad deck or table
    levels = list(bots) or ["random"]
    if len(levels) == 1:
        levels = levels * players
    if len(levels) != players:
        raise ConfigError(f"{len(levels)} bot levels for {players} seats: give one, or one per seat")
    for level in set(levels):
        make_bot(level, "gloom", 0)
    workers = max(1, workers or os.cpu_count() or 1)
    run = BalanceRun(list(sets), players, games, seed, levels, game.config_dict())
    size = max(1, min(20, games // (workers * 4) or 1))
    chunks = [list(range(s, min(games, s + size))) for s in range(0, games, size)]
    results: dict[int, list[tuple[dict[str, Any], dict[str, Any]]]] = {}
    if workers == 1:
        for k, chunk in enumerate(chunks):
            results[k] = _play_chunk(config, levels, seed, chunk)
            if on_games:
                on_games(len(chunk))
    else:
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=min(workers, len(chunks)), mp_context=ctx) as pool:
            futures = {pool.submit(_play_chunk, config, levels, seed, chunk): k
                       for k, chunk in enumerate(chunks)}
            for fut in as_completed(futures):
                k = futures[fut]
                results[k] = fut.result()
                if on_games:
                    on_games(len(chunks[k]))
    for k in range(len(chunks)):
        for rec, facts in results[k]:
            run.records.append(GameRecord.from_dict(rec))
            run.facts.append(GameFacts.from_dict(facts))
    return run


# --- statistics -----------------------------------------------------------------


def two_proportion(a: list[float], b: list[float]) -> tuple[float, float]:
    """Mean difference a - b of win shares and its two-sided p-value: a pooled
    two-proportion z-test (a win share is a win counted fractionally for ties).
    Pooling keeps the test honest when one group won every game it played."""
    na, nb = len(a), len(b)
    diff = sum(a) / na - sum(b) / nb
    pooled = (sum(a) + sum(b)) / (na + nb)
    se = math.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb))
    if se == 0:
        return diff, 1.0
    return diff, math.erfc(abs(diff / se) / math.sqrt(2))


def _histogram(values: list[int]) -> list[list[int]]:
    return [[v, c] for v, c in sorted(Counter(values).items())]


def _seat_shares(shares_by_game: list[list[float]], n: int) -> list[dict[str, Any]]:
    games = len(shares_by_game)
    out = []
    for s in range(n):
        total = sum(g[s] for g in shares_by_game)
        lo, hi = wilson(total, games)
        out.append({"seat": s + 1, "share": total / games if games else 0.0, "ci95": [lo, hi]})
    return out


def figures(run: BalanceRun, deck: Any) -> dict[str, Any]:
    """Every figure of the report, as plain JSON-ready data."""
    facts = run.facts
    n, g = run.players, len(facts)
    by_position = [[f.win_shares[(f.first_player + k) % n] for k in range(n)] for f in facts]
    rounds = [f.rounds for f in facts]
    fvs = [v for f in facts for v in f.family_values]
    winning = [f.family_values[w] for f in facts for w in range(n) if f.win_shares[w] > 0]
    played_sets = [[f.played_by(p) for p in range(n)] for f in facts]
    cards = []
    for card in deck.cards:
        if card.type.value not in PILE_TYPES:
            continue
        c = card.index
        plays = [p for f in facts for p in f.plays if p.card == c]
        deltas = [p.delta for p in plays if p.delta is not None]
        played: list[float] = []
        not_played: list[float] = []
        for f, sets in zip(facts, played_sets, strict=True):
            for p in range(n):
                (played if c in sets[p] else not_played).append(f.win_shares[p])
        entry: dict[str, Any] = {
            "index": c, "id": card.key, "name": card.name, "type": card.type.value,
            "drawn": sum(f.drawn.get(c, 0) for f in facts),
            "played": len(plays),
            "on_own": sum(1 for p in plays if p.owner is not None and p.owner == p.player),
            "on_other": sum(1 for p in plays if p.owner is not None and p.owner != p.player),
            "on_nobody": sum(1 for p in plays if p.owner is None),
            "cancelled": sum(1 for p in plays if p.cancelled),
            "landed": len(deltas),
            "mean_self_worth_effect": statistics.fmean(deltas) if deltas else None,
            "player_games_played": len(played),
            "win_share_played": statistics.fmean(played) if played else None,
            "win_share_not_played": statistics.fmean(not_played) if not_played else None,
            "win_share_difference": None, "p_value": None, "clear": False,
        }
        if len(played) >= MIN_GROUP and len(not_played) >= MIN_GROUP:
            diff, p_value = two_proportion(played, not_played)
            entry["win_share_difference"] = diff
            entry["p_value"] = p_value
        cards.append(entry)
    backs = []
    for card in deck.cards:
        if card.type.value not in ("guest", "story"):
            continue
        c = card.index
        claimed = [f.win_shares[p] for f in facts for p in range(n) if [c, p] in f.claims]
        backs.append({
            "index": c, "id": card.key, "name": card.name, "type": card.type.value,
            "claims": sum(1 for f in facts for cl in f.claims if cl[0] == c),
            "follows": sum(f.follows.get(c, 0) for f in facts),
            "player_games_claimed": len(claimed),
            "win_share_claimed": statistics.fmean(claimed) if claimed else None,
        })
    capped = sum(1 for f in facts if f.capped)
    reasons = Counter(f.cap_reason for f in facts if f.cap_reason)
    cap_warning = None
    if g and capped / g > CAPPED_WARN:
        key, k = reasons.most_common(1)[0] if reasons else ("", 0)
        cap_warning = (f"{capped / g:.1%} of games stopped at the turn cap (more than "
                       f"{CAPPED_WARN:.0%}); likely reason: "
                       f"{REASONS.get(key, 'unknown')} ({k} of {capped} capped games)")
    tested = [e for e in cards if e["p_value"] is not None]
    threshold = ALPHA / max(1, len(tested))
    for e in tested:
        e["clear"] = e["p_value"] < threshold
    return {
        "format": FORMAT,
        "deck": {"sets": run.sets, "id": deck.id, "name": deck.name},
        "config": run.config,
        "players": n,
        "games": g,
        "seed": run.seed,
        "bots": run.bots,
        "capped_games": capped,
        "capped_share": capped / g if g else 0.0,
        "cap_reasons": dict(reasons),
        "cap_warning": cap_warning,
        "win_share_by_seat": _seat_shares([f.win_shares for f in facts], n),
        "win_share_by_turn_order": _seat_shares(by_position, n),
        "rounds": {
            "mean": statistics.fmean(rounds) if rounds else 0.0,
            "median": statistics.median(rounds) if rounds else 0,
            "min": min(rounds, default=0), "max": max(rounds, default=0),
            "histogram": _histogram(rounds),
        },
        "family_values": {
            "mean": statistics.fmean(fvs) if fvs else 0.0,
            "winning_mean": statistics.fmean(winning) if winning else 0.0,
            "histogram": _histogram(fvs),
        },
        "clear_threshold": threshold,
        "cards": cards,
        "guests_and_stories": backs,
    }
