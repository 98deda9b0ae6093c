"""Bot-vs-bot simulation: many seeded games, summarised for designers.

Game ``i`` of a run with seed ``S`` uses game seed ``S * 1_000_003 + i`` and bot
seeds derived from it, so any single game can be re-run from its record.

Because a game depends on nothing but its index, a run splits into chunks of
consecutive games that any process may play: ``workers`` processes on this
machine, or a Ray cluster. Outcomes are merged in game order, so the report
(everything but the speed figures) is identical whatever the number of workers."""

from __future__ import annotations

import logging
import math
import os
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_all_start_methods, get_context
from pathlib import Path
from typing import Any

from gloomtable.bots import bot_action, make_bot
from gloomtable.engine import ConfigError, Game
from gloomtable.engine.record import GameRecord
from gloomtable.games import make_game

MAX_WORKERS = 256
TIMING_KEYS = ("games_per_s", "actions_per_s", "workers", "backend")
"""Members of :meth:`SimulationReport.to_dict` that depend on the machine, not the games."""


def game_seed(seed: int, i: int) -> int:
    return seed * 1_000_003 + i


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """What the report keeps of one game (small, so workers send it back cheaply)."""

    actions: int
    rounds: int
    capped: bool
    returns: tuple[float, ...]


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
    workers: int = 1
    backend: str = "serial"
    """``serial`` (this process), ``processes`` (``workers`` of them) or ``ray``."""

    def add(self, outcome: GameOutcome) -> None:
        """Count one game; called in game order, so float sums never depend on workers."""
        self.games += 1
        self.actions += outcome.actions
        self.rounds.append(outcome.rounds)
        self.capped += outcome.capped
        for p, share in enumerate(outcome.returns):
            self.wins[p] += share

    def to_dict(self) -> dict[str, Any]:
        secs = max(self.seconds, 1e-9)
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "games_per_s": round(self.games / secs, 2),
            "actions_per_s": round(self.actions / secs, 1),
            "workers": self.workers,
            "backend": self.backend,
            "mean_actions": round(self.actions / max(self.games, 1), 1),
            "mean_rounds": round(statistics.fmean(self.rounds), 2) if self.rounds else 0.0,
            "median_rounds": statistics.median(self.rounds) if self.rounds else 0,
            "capped": round(self.capped / max(self.games, 1), 4),
            "capped_games": self.capped,
            "win_share_by_seat": [round(w / max(self.games, 1), 4) for w in self.wins],
        }

    def results_dict(self) -> dict[str, Any]:
        """:meth:`to_dict` without the speed figures: what must not change with workers."""
        return {k: v for k, v in self.to_dict().items() if k not in TIMING_KEYS}


def seat_levels(game: Game, bots: list[str] | None) -> list[str]:
    """One bot level per seat: a single level fills every seat."""
    n = game.num_players
    levels = list(bots or ["random"])
    if len(levels) == 1:
        levels = levels * n
    if len(levels) != n:
        raise ConfigError(f"{len(levels)} bot levels for {n} seats: give one level, or one per seat")
    return levels


def play_game(game: Game, game_name: str, levels: list[str], gs: int,
              save_dir: Path | None = None) -> GameOutcome:
    """Play one seeded bot game to the end (and save its record if asked)."""
    n = game.num_players
    state = game.new_initial_state(gs)
    players = [make_bot(levels[p], game_name, gs * 31 + p) for p in range(n)]
    actions: list[int] = []
    while not state.is_over():
        a = bot_action(players[state.current_player()], state, state.legal_actions())
        state.apply(a)
        actions.append(a)
    result = state.result()
    if save_dir is not None:
        GameRecord.of(game, gs, actions).save(save_dir / f"{game_name}-{gs}.json")
    return GameOutcome(len(actions), int(result.details.get("rounds", 0)), bool(result.capped),
                       tuple(result.returns()))


@dataclass(frozen=True, slots=True)
class Chunk:
    """Games ``start .. stop - 1`` of a run: everything a worker needs, picklable."""

    game_name: str
    config: dict[str, Any]
    seed: int
    levels: tuple[str, ...]
    start: int
    stop: int
    save_dir: str | None = None


def play_chunk(chunk: Chunk) -> list[GameOutcome]:
    """Play one chunk (in a worker process, a Ray task, or here)."""
    game = make_game(chunk.game_name, chunk.config)
    save = Path(chunk.save_dir) if chunk.save_dir is not None else None
    return [play_game(game, chunk.game_name, list(chunk.levels), game_seed(chunk.seed, i), save)
            for i in range(chunk.start, chunk.stop)]


def chunks_of(games: int, workers: int, make: Callable[[int, int], Chunk]) -> list[Chunk]:
    """About eight chunks per worker (so a slow chunk does not leave a core idle),
    each of 1 to 200 games."""
    size = max(1, min(200, math.ceil(games / (workers * 8))))
    return [make(i, min(i + size, games)) for i in range(0, games, size)]


def _start_method() -> str:
    """``fork`` where it is safe (POSIX, no other thread running): workers start at
    once and a plain script needs no ``if __name__ == "__main__"`` guard. Otherwise
    ``spawn``, which re-imports the caller's main module in each worker."""
    if "fork" in get_all_start_methods() and threading.active_count() == 1:
        return "fork"
    return "spawn"


def _pool_results(chunks: list[Chunk], workers: int) -> Iterator[list[GameOutcome]]:
    """Chunks played by ``workers`` processes, yielded in chunk order."""
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context(_start_method())) as pool:
        yield from pool.map(play_chunk, chunks)


def _ray_results(chunks: list[Chunk], address: str) -> Iterator[list[GameOutcome]]:
    """Chunks played as Ray tasks on the cluster at ``address`` (``"local"``
    starts a private one-machine cluster), yielded in chunk order."""
    try:
        import ray
    except ImportError:
        raise ConfigError("--ray needs Ray, the 'ray' extra of gloomtable: pip install 'ray>=2.9'") from None
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=address, include_dashboard=False, log_to_driver=False,
                 logging_level=logging.WARNING)
    try:
        task = ray.remote(play_chunk)
        refs = [task.remote(c) for c in chunks]
        for ref in refs:
            yield ray.get(ref)
    finally:
        if started_here:
            ray.shutdown()


def resolve_workers(workers: int) -> int:
    """``0`` means one worker per core; otherwise 1..MAX_WORKERS."""
    if workers == 0:
        return os.cpu_count() or 1
    if not 1 <= workers <= MAX_WORKERS:
        raise ConfigError(f"workers must be 0 (every core) or 1..{MAX_WORKERS}, got {workers}")
    return workers


def simulate(
    game_name: str,
    config: dict[str, Any],
    games: int,
    seed: int,
    bots: list[str] | None = None,
    save_dir: Path | None = None,
    on_game: Callable[[int], None] | None = None,
    workers: int = 1,
    ray_address: str | None = None,
) -> SimulationReport:
    """Play ``games`` seeded games; the same arguments give the same report
    (speed aside) whatever ``workers`` or ``ray_address``."""
    game = make_game(game_name, config)
    levels = seat_levels(game, bots)
    for level in set(levels):
        make_bot(level, game_name, 0)  # fail here, not in a worker
    workers = resolve_workers(workers)
    n = game.num_players
    report = SimulationReport(game_name, n, wins=[0.0] * n, workers=workers)
    if save_dir is not None:
        save_dir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    if workers == 1 and ray_address is None:
        for i in range(games):
            report.add(play_game(game, game_name, levels, game_seed(seed, i), save_dir))
            if on_game is not None:
                on_game(i)
    else:
        report.backend = "ray" if ray_address is not None else "processes"
        spread = max(workers, 16) if ray_address is not None else workers  # a cluster has more cores
        chunks = chunks_of(games, spread, lambda a, b: Chunk(
            game_name, game.config_dict(), seed, tuple(levels), a, b,
            str(save_dir) if save_dir is not None else None))
        results = _ray_results(chunks, ray_address) if ray_address is not None \
            else _pool_results(chunks, workers)
        i = 0
        for outcomes in results:
            for outcome in outcomes:
                report.add(outcome)
                if on_game is not None:
                    on_game(i)
                i += 1
    report.seconds = time.perf_counter() - start
    return report
