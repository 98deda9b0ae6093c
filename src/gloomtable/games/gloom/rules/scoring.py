"""Death, the end of the game and scoring.

Rules: R-G23 (a Character is dead while an Untimely Death is on top, see
:meth:`board.Board.is_dead`), R-G24 (the game ends the instant the last living
Character of any family dies), R-G25 (Family Value: the Self-Worth of a family's
dead Characters), R-G26 (the lowest Family Value wins; ties share the win or go to
fewer living Characters), R-H3 (only the chosen Characters end the game), R-H9
(dead Guests count for the family they joined).
"""

from __future__ import annotations

import gloomtable.games.gloom.messages as M
from gloomtable.engine import TERMINAL, GameNotOverError, Result
from gloomtable.games.gloom.rules.board import Board
from gloomtable.games.gloom.tasks import OVER, Decision

_OVER = Decision(TERMINAL, OVER)
"""Nobody is asked anything: the game is over."""


def family_value(s: Board, p: int) -> int:
    """R-G25, R-H9: the Self-Worth of ``p``'s dead Characters and dead Guests."""
    deaths, stacks = s.facts.deaths, s.stacks
    return sum([s.self_worth(c) for c in s.members(p) if stacks[c][-1] in deaths])


def result(s: Board) -> Result:
    """R-G26: the scores and the winners of a finished game."""
    if not s.over:
        raise GameNotOverError("the game is not over yet")
    fv = tuple(family_value(s, p) for p in range(s.n))
    best = min(fv)
    winners = [p for p in range(s.n) if fv[p] == best]
    if len(winners) > 1 and s.game.config.tiebreak == "fewer_living":
        living = {p: len(s.living_of(p)) for p in winners}
        fewest = min(living.values())
        winners = [p for p in winners if living[p] == fewest]
    return Result(fv, tuple(winners), s.capped, {"turns": s.turn, "rounds": s.rounds})


def check_end(s: Board) -> bool:
    """R-G24: the game ends the instant the last living Character of any family dies."""
    stacks, deaths = s.stacks, s.facts.deaths
    for fam in s.families:
        for c in fam:
            if stacks[c][-1] not in deaths:
                break  # someone in this family lives
        else:
            if fam:
                end_game(s)
                return True
    return False


def end_game(s: Board) -> None:
    """The game is over: cards in play go to the discard pile, and the result is news."""
    s.over = True
    s.queue.clear()
    s.discard.extend(s.limbo)
    s.limbo.clear()
    s.decision = _OVER
    res = result(s)
    s.emit("game_over", M.GAME_OVER, (res.scores, res.winners))
