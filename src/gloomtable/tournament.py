"""Bot tournaments: seat-rotated matches, win shares with 95% intervals, Elo.

Who plays game ``i``: the tables are every choice of ``players`` bots from the
list (one table if the list is shorter: its bots fill the seats in turn).
Game ``i`` is at table ``i % T`` with its seats rotated by ``(i // T) % P``, so
a run of ``N`` games, ``N`` a multiple of ``T * P``, gives every bot every seat
equally often at every table. Game ``i`` uses game seed ``S * 1_000_003 + i``
and bot seeds derived from it, so the outcome of every game depends only on
its index: results are identical whatever the number of worker processes.

Win share: a bot's wins (a shared win counts as its fraction) over the seats it
took. Its 95% interval is Wilson's score interval. Rating: Elo, fitted by
maximum likelihood (Bradley-Terry) to the pairwise results of all games (in a
game, a bot beats another seated there if its win share is larger, half a win
if equal), with one virtual draw per pair so a clean sweep stays finite, and
centred on 1500.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from gloomtable.bots import bot_action, make_bot
from gloomtable.engine import ConfigError
from gloomtable.games import make_game

RATING_NAME = "Elo (Bradley-Terry fit of pairwise results, mean 1500)"
Z95 = 1.959963984540054


def game_seed(seed: int, i: int) -> int:
    return seed * 1_000_003 + i


def tables(bots: list[str], players: int) -> list[tuple[str, ...]]:
    """The line-ups that take turns at the table (see the module doc)."""
    if len(bots) <= players:
        return [tuple(bots[s % len(bots)] for s in range(players))]
    return list(combinations(bots, players))


def seating(bots: list[str], players: int, i: int) -> tuple[str, ...]:
    """Which bot sits in each seat in game ``i``."""
    ts = tables(bots, players)
    table = ts[i % len(ts)]
    r = (i // len(ts)) % players
    return table[r:] + table[:r]


def wilson(wins: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (fractional wins allowed)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo(names: list[str], score: dict[tuple[str, str], float],
        count: dict[tuple[str, str], float], rounds: int = 2000) -> dict[str, float]:
    """Bradley-Terry strengths by the MM algorithm (Hunter 2004), on the Elo scale.

    ``score[a, b]``: points ``a`` took from ``b`` (1 a win, 0.5 a draw);
    ``count[a, b]``: games between them. One virtual draw is added per pair."""
    s: dict[tuple[str, str], float] = {}
    c: dict[tuple[str, str], float] = {}
    for a in names:
        for b in names:
            if a != b:
                s[a, b] = score.get((a, b), 0.0) + 0.5
                c[a, b] = count.get((a, b), count.get((b, a), 0.0)) + 1.0
    g = {a: 1.0 for a in names}
    for _ in range(rounds):
        new = {}
        for a in names:
            wins = sum(s[a, b] for b in names if b != a)
            den = sum(c[a, b] / (g[a] + g[b]) for b in names if b != a)
            new[a] = wins / den if den > 0 else g[a]
        mean_log = sum(math.log(v) for v in new.values()) / len(new)
        new = {a: v / math.exp(mean_log) for a, v in new.items()}
        delta = max(abs(new[a] - g[a]) for a in names)
        g = new
        if delta < 1e-12:
            break
    return {a: 1500 + 400 * math.log10(g[a]) for a in names}


def play_one(game_name: str, config: dict[str, Any], bots: list[str], players: int, seed: int,
             i: int) -> tuple[tuple[str, ...], list[float], bool]:
    """Game ``i`` of a run: its seating, each seat's win share, whether it was capped."""
    game = make_game(game_name, config)
    seats = seating(bots, players, i)
    gs = game_seed(seed, i)
    state = game.new_initial_state(gs)
    agents = [make_bot(level, game_name, gs * 31 + p) for p, level in enumerate(seats)]
    limit = 1_000_000
    while not state.is_over() and limit:
        state.apply(bot_action(agents[state.current_player()], state, state.legal_actions()))
        limit -= 1
    result = state.result()
    return seats, result.returns(), result.capped


def _play_chunk(args: tuple[str, dict[str, Any], list[str], int, int, list[int]]
                ) -> list[tuple[int, tuple[str, ...], list[float], bool]]:
    game_name, config, bots, players, seed, indices = args
    return [(i, *play_one(game_name, config, bots, players, seed, i)) for i in indices]


@dataclass
class TournamentReport:
    game: str
    players: int
    seed: int
    bots: list[str]
    games: int = 0
    capped: int = 0
    seats: dict[str, int] = field(default_factory=dict)
    wins: dict[str, float] = field(default_factory=dict)
    pair_score: dict[tuple[str, str], float] = field(default_factory=dict)
    pair_count: dict[tuple[str, str], float] = field(default_factory=dict)

    def add(self, seats: tuple[str, ...], returns: list[float], capped: bool) -> None:
        self.games += 1
        self.capped += capped
        for name, share in zip(seats, returns, strict=True):
            self.seats[name] = self.seats.get(name, 0) + 1
            self.wins[name] = self.wins.get(name, 0.0) + share
        for s, t in combinations(range(len(seats)), 2):
            a, b = seats[s], seats[t]
            if a == b:
                continue
            pa = 1.0 if returns[s] > returns[t] else 0.5 if returns[s] == returns[t] else 0.0
            self.pair_score[a, b] = self.pair_score.get((a, b), 0.0) + pa
            self.pair_score[b, a] = self.pair_score.get((b, a), 0.0) + 1.0 - pa
            self.pair_count[a, b] = self.pair_count.get((a, b), 0.0) + 1
            self.pair_count[b, a] = self.pair_count.get((b, a), 0.0) + 1

    def to_dict(self) -> dict[str, Any]:
        ratings = elo(self.bots, self.pair_score, self.pair_count)
        out: dict[str, Any] = {}
        for name in self.bots:
            n = self.seats.get(name, 0)
            w = self.wins.get(name, 0.0)
            lo, hi = wilson(w, n)
            out[name] = {"win_share": round(w / n, 4) if n else 0.0,
                         "ci95": [round(lo, 4), round(hi, 4)],
                         "rating": round(ratings[name], 1), "seats": n, "wins": round(w, 2)}
        pairwise = {f"{a} vs {b}": round(self.pair_score[a, b] / self.pair_count[a, b], 4)
                    for a, b in combinations(self.bots, 2) if self.pair_count.get((a, b))}
        return {"bots": out, "rating": RATING_NAME, "game": self.game, "players": self.players,
                "games": self.games, "seed": self.seed, "capped_games": self.capped,
                "pairwise": pairwise}


def run_tournament(game_name: str, config: dict[str, Any], bots: list[str], games: int, seed: int,
                   workers: int = 1, on_game: Callable[[int], None] | None = None) -> TournamentReport:
    """Play ``games`` seat-rotated games; ``on_game(done)`` after each (for a progress bar)."""
    if len(set(bots)) != len(bots):
        raise ConfigError(f"each bot may be listed once, got {','.join(bots)}")
    if not bots:
        raise ConfigError("name at least one bot, e.g. --bots random,medium")
    if games < 1:
        raise ConfigError(f"--games must be at least 1, got {games}")
    if workers < 1:
        raise ConfigError(f"--workers must be at least 1, got {workers}")
    game = make_game(game_name, config)
    players = game.num_players
    for level in bots:
        make_bot(level, game_name, 0)  # an unknown level fails here, before any game
    report = TournamentReport(game_name, players, seed, list(bots))
    results: dict[int, tuple[tuple[str, ...], list[float], bool]] = {}
    if workers == 1:
        for i in range(games):
            results[i] = play_one(game_name, config, bots, players, seed, i)
            if on_game:
                on_game(i + 1)
    else:
        import multiprocessing

        size = max(1, min(8, games // (workers * 8)))
        chunks = [list(range(k, min(k + size, games))) for k in range(0, games, size)]
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
            jobs = [(game_name, config, bots, players, seed, c) for c in chunks]
            for chunk in pool.map(_play_chunk, jobs):
                for i, seats, returns, capped in chunk:
                    results[i] = (seats, returns, capped)
                if on_game:
                    on_game(len(results))
    for i in range(games):  # in index order, so sums are identical for any worker count
        report.add(*results[i])
    return report
