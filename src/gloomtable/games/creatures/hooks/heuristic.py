"""A rule-of-thumb Crazy Creatures bot: sees only its view and the legal actions.

What it weighs, in order of how much it usually matters:

- *Stuck cards*: a card that fits no pile now costs its penalty (R-C10) plus a
  turn it cannot spend. Every choice is scored by the stuck cost of the hand
  it leaves, so the bot climbs "+" piles from low to high and "-" piles from
  high to low, which keeps its own next plays open.
- *Shedding*: among plays that leave equally good hands, drop the 3s and 4s
  (2 penalty points) before the 2s and 5s, and those before 1s and 6s.
- *DNA escapes*: 1s and 6s cost nothing at the end and can always go on a DNA
  top (R-C7), so they are kept to reset a blocked pile, and spent early only
  when the reset is worth more than the escape, or to go out.
- *The leader*: the other player with the lowest total (fewest cards breaking
  ties). Same-number decisions (R-C8) make the leader draw, unless flipping a
  Machine frees more of the bot's hand or blocks more of the leader's likely
  hand (estimated from the cards the bot has not seen) than a draw is worth.

It reads the view with the game's card tables (pure data), never the state.
Weights were tuned by simulation against the random bot (2- and 4-player).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gloomtable.engine import DecisionKind, Rng
from gloomtable.games.creatures.actions import DRAW_BASE, FLIP_BASE, PASS, PLAY_BASE
from gloomtable.games.creatures.cards import (
    COLOUR,
    DNA_NUMBERS,
    FITS,
    NUM_CREATURES,
    NUMBER,
    PENALTY,
    SHIPPED_SET,
)
from gloomtable.games.creatures.view import CreaturesView, creatures_view

STUCK_WEIGHT = 0.5
"""Cost of a stuck card on top of its penalty: the turn it cannot be played in."""
FIT_WEIGHT = 0.25
"""Share of its penalty a card that still fits costs (it may get stuck later)."""
DNA_KEEP = 2.5
"""What keeping a 1 or 6 as an escape is worth (0.6 -> 88%, 2.5 -> 91% wins)."""
DRAW_VALUE = 2.5
"""What making another player draw is worth (their extra card and penalty)."""
BLOCK_WEIGHT = 0.5
"""A stuck card in the leader's hand, weighed against one in ours."""
GO_OUT = 100.0
"""Playing the last card ends the round on our terms (R-C9, R-C10)."""


def penalties_of(view: CreaturesView) -> tuple[int, ...]:
    """The penalty points of the view's set by card id: a variant deck file costs
    its own (R-C10); a set this process cannot find counts as the shipped one."""
    name = view["set"]
    if name == SHIPPED_SET:
        return PENALTY
    from gloomtable.games.creatures.cards import CreatureSetError, set_named

    try:
        return set_named(name).penalty
    except CreatureSetError:
        return PENALTY


def stuck_cost(hand: list[int], tops: list[int], plus: list[int],
               penalty: tuple[int, ...] = PENALTY) -> float:
    """How bad a hand is for its holder, given pile tops and Machine sides."""
    cost = 0.0
    for c in hand:
        col = COLOUR[c]
        if FITS[plus[col]][tops[col]][NUMBER[c]]:
            cost += FIT_WEIGHT * penalty[c]
        else:
            cost += penalty[c] + STUCK_WEIGHT
    return cost


@dataclass(slots=True)
class Reading:
    """What the bot makes of its view for one decision."""

    hand: list[int]
    tops: list[int]  # per colour, 0 = empty pile
    plus: list[int]  # per colour, 1 = "+"
    reserve: int
    leader: int
    leader_cards: int
    unseen: list[int]  # neither in our hand nor on a pile
    penalty: tuple[int, ...] = PENALTY  # by card id, of the table's set

    @classmethod
    def of(cls, view: CreaturesView) -> Reading:
        machines = view["machines"]
        hand = [c["id"] for c in view["hand"]]
        seen = set(hand)
        for m in machines:
            seen.update(c["id"] for c in m["pile"])
        me, totals, counts = view["viewer"], view["totals"], view["hand_counts"]
        assert me is not None, "a bot decides for a seat"
        n = len(counts)
        others = [(me + k) % n for k in range(1, n)]  # ties: next in turn order
        leader = min(others, key=lambda q: (totals[q], counts[q]))
        return cls(
            hand=hand, tops=[m["top"] or 0 for m in machines],
            plus=[1 if m["side"] == "+" else 0 for m in machines],
            reserve=view["reserve_count"], leader=leader, leader_cards=counts[leader],
            unseen=[c for c in range(NUM_CREATURES) if c not in seen],
            penalty=penalties_of(view),
        )

    def leader_cost(self, tops: list[int], plus: list[int]) -> float:
        """Expected stuck cost of the leader's hand: any unseen card is equally
        likely to be one of theirs (all the view tells us)."""
        if not self.unseen or not self.leader_cards:
            return 0.0
        return (stuck_cost(self.unseen, tops, plus, self.penalty) * self.leader_cards
                / len(self.unseen))


class CreaturesHeuristicBot:
    """Sheds high-penalty cards, keeps its own piles open, keeps DNA escapes,
    and uses same-number decisions against the leader."""

    name = "heuristic"
    uses_view = True
    quick = True
    """Some 50 us a decision, 0.2 ms at worst (a server asks it on the event loop)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, view: Mapping[str, Any], legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        v = creatures_view(view)
        r = Reading.of(v)
        if v["decision"] == DecisionKind.SAME_NUMBER:
            return self._decide(r, legal)
        return self._play(r, legal)

    def _play(self, r: Reading, legal: list[int]) -> int:
        """The play leaving the best hand (R-C5: passing is never a choice here)."""
        best: list[int] = []
        best_score = float("inf")
        for a in legal:
            if a == PASS:
                continue
            card = a - PLAY_BASE
            col, num = COLOUR[card], NUMBER[card]
            rest = [c for c in r.hand if c != card]
            tops = r.tops[:]
            tops[col] = num
            score = (stuck_cost(rest, tops, r.plus, r.penalty)
                     - BLOCK_WEIGHT * r.leader_cost(tops, r.plus))
            if num in DNA_NUMBERS and len(rest) > 1:
                score += DNA_KEEP
            if r.tops[col] == num:  # R-C8: a same-number play earns a decision
                score -= DRAW_VALUE if r.reserve else DRAW_VALUE / 2
            if not rest:
                score -= GO_OUT
            score -= 0.01 * r.penalty[card]
            if score < best_score - 1e-9:
                best, best_score = [a], score
            elif score <= best_score + 1e-9:
                best.append(a)
        return best[0] if len(best) == 1 else best[self.rng.below(len(best))]

    def _decide(self, r: Reading, legal: list[int]) -> int:
        """R-C8: the best flip, unless making the leader draw is worth more."""
        mine, theirs = stuck_cost(r.hand, r.tops, r.plus, r.penalty), r.leader_cost(r.tops, r.plus)
        best_flip, best_gain = legal[0], float("-inf")
        for a in legal:
            if FLIP_BASE <= a < DRAW_BASE:
                plus = r.plus[:]
                plus[a - FLIP_BASE] ^= 1
                gain = (mine - stuck_cost(r.hand, r.tops, plus, r.penalty)
                        + BLOCK_WEIGHT * (r.leader_cost(r.tops, plus) - theirs))
                if gain > best_gain:
                    best_flip, best_gain = a, gain
        draw = DRAW_BASE + r.leader
        if draw not in legal or best_gain > DRAW_VALUE:
            return best_flip
        return draw


def quick_choice(view: CreaturesView, legal: list[int]) -> int:
    """A fast version of the heuristic for search rollouts: its own hand only
    (no reading of the leader's likely cards), about ten times cheaper."""
    if len(legal) == 1:
        return legal[0]
    machines = view["machines"]
    hand = [c["id"] for c in view["hand"]]
    tops = [m["top"] or 0 for m in machines]
    plus = [1 if m["side"] == "+" else 0 for m in machines]
    penalty = penalties_of(view)
    if view["decision"] == DecisionKind.SAME_NUMBER:
        me = view["viewer"]
        assert me is not None, "a bot decides for a seat"
        totals = view["totals"]
        n = len(totals)
        others = [(me + k) % n for k in range(1, n)]
        leader = min(others, key=lambda q: totals[q])
        if DRAW_BASE + leader in legal:
            return DRAW_BASE + leader
        best, best_cost = legal[0], float("inf")
        for a in legal:
            if FLIP_BASE <= a < DRAW_BASE:
                flipped = plus[:]
                flipped[a - FLIP_BASE] ^= 1
                cost = stuck_cost(hand, tops, flipped, penalty)
                if cost < best_cost:
                    best, best_cost = a, cost
        return best
    best, best_score = legal[0], float("inf")
    for a in legal:
        if a == PASS:
            continue
        card = a - PLAY_BASE
        col, num = COLOUR[card], NUMBER[card]
        rest = [c for c in hand if c != card]
        new_tops = tops[:]
        new_tops[col] = num
        score = stuck_cost(rest, new_tops, plus, penalty) - 0.01 * penalty[card]
        if num in DNA_NUMBERS and len(rest) > 1:
            score += DNA_KEEP
        if tops[col] == num:
            score -= DRAW_VALUE
        if not rest:
            score -= GO_OUT
        if score < best_score:
            best, best_score = a, score
    return best
