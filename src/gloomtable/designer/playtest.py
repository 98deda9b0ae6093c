"""``gloom deck check --simulate N``: quick games at every table size a deck allows,
and why a game stopped at the turn cap.

Each table size plays N games between ``medium`` bots on every core; game ``i``
uses :func:`gloomtable.simulate.game_seed`, as ``gloom simulate`` does, so any
game can be played again. A game that reaches the cap is looked at where it
stopped (:func:`cap_reason`), and the most common reason is the likely one.
"""

from __future__ import annotations

import multiprocessing
import os
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from gloomtable.bots import bot_action, make_bot
from gloomtable.games import make_game
from gloomtable.games.gloom.cards import CardType
from gloomtable.simulate import game_seed

CAPPED_WARN = 0.02
"""A capped share above this is a warning (2%: the issue's line; one game in fifty)."""

REASONS = {
    "deaths-used-up": "every Untimely Death was already on a stack, with no family all "
                      "dead: the deck has too few Deaths for its Characters",
    "modifiers-used-up": "every Modifier already lay on a stack and no living Character "
                         "was below zero, so the Deaths left could never be played: the deck "
                         "runs out of Modifiers (negative ones above all) before a family is "
                         "all dead; add Modifiers, or Deaths so fewer Characters must fall",
    "no-target": "Deaths were left, but no living Character was below zero to take one "
                 "while the Modifiers left stayed in hands",
    "held-back": "Deaths were left and Characters below zero could take them, but the "
                 "players holding them kept them back (each would help someone else)",
}


def cap_reason(state: Any) -> str:
    """Why a Gloom game stopped at the turn cap, from where it stopped (a key of
    :data:`REASONS`)."""
    deaths = state.game.deaths
    on_stacks = {c for stack in state.stacks.values() for c in stack}
    if all(d in on_stacks for d in deaths):
        return "deaths-used-up"
    if not any(state.visible_of(c).self_worth < 0 for c in state.living_characters()):
        mods = [c.index for c in state.cards if c.type is CardType.MODIFIER]
        return "modifiers-used-up" if all(m in on_stacks for m in mods) else "no-target"
    return "held-back"


@dataclass
class SizeResult:
    """N games at one table size."""

    players: int
    games: int = 0
    capped: int = 0
    rounds: list[int] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)

    @property
    def capped_share(self) -> float:
        return self.capped / self.games if self.games else 0.0

    @property
    def mean_rounds(self) -> float:
        return statistics.fmean(self.rounds) if self.rounds else 0.0

    @property
    def seat_shares(self) -> list[float]:
        return [w / self.games if self.games else 0.0 for w in self.wins]

    def likely_reason(self) -> str | None:
        if not self.reasons:
            return None
        key, n = self.reasons.most_common(1)[0]
        return f"{REASONS[key]} ({n} of {self.capped} capped games)"

    def to_dict(self) -> dict[str, Any]:
        return {"players": self.players, "games": self.games, "capped": self.capped,
                "capped_share": round(self.capped_share, 4),
                "mean_rounds": round(self.mean_rounds, 2),
                "win_share_by_seat": [round(s, 4) for s in self.seat_shares],
                "cap_reasons": dict(self.reasons), "likely_reason": self.likely_reason(),
                "warning": self.capped_share > CAPPED_WARN}


def _play(config: dict[str, Any], level: str, seed: int,
          indices: list[int]) -> list[tuple[int, bool, list[float], str | None]]:
    """Worker: play some games; return (rounds, capped, win shares, cap reason) each."""
    game = make_game("gloom", config)
    out = []
    for i in indices:
        gs = game_seed(seed, i)
        state = game.new_initial_state(gs)
        bots = [make_bot(level, "gloom", gs * 31 + p) for p in range(game.num_players)]
        while not state.is_over():
            state.apply(bot_action(bots[state.current_player()], state, state.legal_actions()))
        result = state.result()
        out.append((int(result.details.get("rounds", 0)), bool(result.capped),
                    list(result.returns()), cap_reason(state) if result.capped else None))
    return out


def playtest(sets: Sequence[str], sizes: Sequence[int], games: int, seed: int = 1,
             level: str = "medium", workers: int | None = None,
             on_games: Callable[[int], None] | None = None) -> list[SizeResult]:
    """``games`` games at each table size in ``sizes``, on ``workers`` processes
    (default: every core). Results do not depend on the number of workers."""
    workers = max(1, workers or os.cpu_count() or 1)
    jobs = []
    for n in sizes:
        size = max(1, min(25, games // (workers * 4) or 1))
        jobs += [(n, list(range(s, min(games, s + size)))) for s in range(0, games, size)]
    results: dict[int, list[tuple[int, bool, list[float], str | None]]] = {}

    def config(n: int) -> dict[str, Any]:
        return {"players": n, "sets": list(sets)}

    if workers == 1 or len(jobs) <= 1:
        for k, (n, idx) in enumerate(jobs):
            results[k] = _play(config(n), level, seed, idx)
            if on_games:
                on_games(len(idx))
    else:
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=ctx) as pool:
            futures = {pool.submit(_play, config(n), level, seed, idx): k
                       for k, (n, idx) in enumerate(jobs)}
            for fut in as_completed(futures):
                results[futures[fut]] = fut.result()
                if on_games:
                    on_games(len(jobs[futures[fut]][1]))
    by_size = {n: SizeResult(n, wins=[0.0] * n) for n in sizes}
    for k, (n, _idx) in enumerate(jobs):
        r = by_size[n]
        for rounds, capped, shares, reason in results[k]:
            r.games += 1
            r.rounds.append(rounds)
            r.capped += capped
            for p, s in enumerate(shares):
                r.wins[p] += s
            if reason is not None:
                r.reasons[reason] += 1
    return [by_size[n] for n in sizes]
