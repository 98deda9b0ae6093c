"""Bot-vs-bot simulation: many seeded games, summarised for designers.

Game ``i`` of a run with seed ``S`` uses game seed ``S * 1_000_003 + i`` and bot
seeds derived from it, so any single game can be re-run from its record."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gloomtable.bots import bot_action, make_bot
from gloomtable.engine.record import GameRecord
from gloomtable.games import make_game


def game_seed(seed: int, i: int) -> int:
    return seed * 1_000_003 + i


@dataclass
class SimulationReport:
    game: str
    players: int
    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    rounds: list[int] = field(default_factory=list)
    capped: int = 0
    wins: list[float] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        secs = max(self.seconds, 1e-9)
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "games_per_s": round(self.games / secs, 2),
            "actions_per_s": round(self.actions / secs, 1),
            "mean_actions": round(self.actions / max(self.games, 1), 1),
            "mean_rounds": round(statistics.fmean(self.rounds), 2) if self.rounds else 0.0,
            "median_rounds": statistics.median(self.rounds) if self.rounds else 0,
            "capped": round(self.capped / max(self.games, 1), 4),
            "capped_games": self.capped,
            "win_share_by_seat": [round(w / max(self.games, 1), 4) for w in self.wins],
        }


def simulate(
    game_name: str,
    config: dict[str, Any],
    games: int,
    seed: int,
    bots: list[str] | None = None,
    save_dir: Path | None = None,
    on_game: Callable[[int], None] | None = None,
) -> SimulationReport:
    game = make_game(game_name, config)
    n = game.num_players
    levels = bots or ["random"] * n
    if len(levels) == 1:
        levels = levels * n
    report = SimulationReport(game_name, n, wins=[0.0] * n)
    if save_dir is not None:
        save_dir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    for i in range(games):
        gs = game_seed(seed, i)
        state = game.new_initial_state(gs)
        players = [make_bot(levels[p], game_name, gs * 31 + p) for p in range(n)]
        actions: list[int] = []
        while not state.is_over():
            a = bot_action(players[state.current_player()], state, state.legal_actions())
            state.apply(a)
            actions.append(a)
        result = state.result()
        report.games += 1
        report.actions += len(actions)
        report.rounds.append(int(result.details.get("rounds", 0)))
        report.capped += result.capped
        for p, share in enumerate(result.returns()):
            report.wins[p] += share
        if save_dir is not None:
            GameRecord(game_name, game.config_dict(), gs, actions).save(
                save_dir / f"{game_name}-{gs}.json")
        if on_game is not None:
            on_game(i)
    report.seconds = time.perf_counter() - start
    return report
