"""OpenSpiel's own ISMCTS against our ``hard`` bot, with the same number of
simulations, in two-player games (``docs/rl.md`` reports the figures).

    python -m gloomtable.rl.versus --game creatures --games 20
    python -m gloomtable.rl.versus --game gloom --games 10

Seats alternate game by game; each game is dealt from its own seed, the same
for both seatings' turn. OpenSpiel's bot is ``ISMCTSBot`` with random rollouts
(``RandomRolloutEvaluator(1)``) and as many simulations as the ``hard`` bot has
iterations (``gloomtable.bots.levels``); the ``hard`` bot is what players meet
(its own rollouts, its heuristic prior and gate). Needs ``open_spiel``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from gloomtable.bots.base import bot_action
from gloomtable.bots.ismcts import ISMCTSBot
from gloomtable.bots.levels import make_bot
from gloomtable.games import registry


def hard_iterations(game_name: str) -> int:
    """The ``hard`` bot's search budget in ``game_name``: OpenSpiel's ISMCTS gets as many."""
    bot = make_bot("hard", game_name, 0)
    if not isinstance(bot, ISMCTSBot):
        raise TypeError(f"the hard bot of {game_name} is not a search bot")
    return bot.iterations


def deal_digits_of(game: Any, deal: int) -> list[int]:
    """The chance outcomes that make the deal engine seed ``deal``."""
    digits = []
    for radix in reversed(game.digits):
        deal, digit = divmod(deal, radix)
        digits.append(digit)
    return digits[::-1]


def play(game_name: str, games: int, seed: int = 0, simulations: int | None = None,
         progress: Any = None) -> dict[str, Any]:
    """Win shares of OpenSpiel's ISMCTS and of the ``hard`` bot over ``games`` games."""
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import gloomtable.rl.spiel  # noqa: F401  (registers the games)

    sims = simulations or hard_iterations(game_name)
    game = pyspiel.load_game(f"gloomtable_{game_name}(players=2)")
    rs = np.random.RandomState(seed)
    shares = {"openspiel_ismcts": 0.0, "hard": 0.0}
    started = time.perf_counter()
    for g in range(games):
        spiel_seat = g % 2
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, sims, random_state=rs)
        hard = make_bot("hard", game_name, seed + g)
        state = game.new_initial_state()
        for digit in deal_digits_of(game, seed + g // 2):  # both seatings play the same deal
            state.apply_action(digit)
        while not state.is_terminal():
            if state.current_player() == spiel_seat:
                state.apply_action(bot.step(state))
            else:
                engine = state.state
                state.apply_action(bot_action(hard, engine, engine.legal_actions()))
        returns = state.returns()
        shares["openspiel_ismcts"] += returns[spiel_seat]
        shares["hard"] += returns[1 - spiel_seat]
        if progress is not None:
            progress(f"game {g + 1}/{games}: ISMCTS {shares['openspiel_ismcts']:.1f}, "
                     f"hard {shares['hard']:.1f} ({time.perf_counter() - started:.0f} s)")
    return {"game": game_name, "games": games, "simulations": sims,
            "win_share": {k: round(v / games, 3) for k, v in shares.items()},
            "seconds": round(time.perf_counter() - started, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(registry.names()), default="creatures")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--simulations", type=int, help="default: the hard bot's iterations")
    args = parser.parse_args()
    print(play(args.game, args.games, args.seed, args.simulations, progress=print))


if __name__ == "__main__":
    main()
