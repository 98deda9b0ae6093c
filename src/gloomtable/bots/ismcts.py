"""Information-set Monte Carlo tree search (single-observer ISMCTS), for any game.

Each iteration samples a full state consistent with the bot's view
(:mod:`gloomtable.bots.determinize`), walks one shared tree with UCB, counting
for every child how often it was *available* (Cowling, Powley and Whitehouse
2012), expands one new action, plays a short rollout and scores the end with
the game's evaluation (:mod:`gloomtable.bots.evaluate`): a projected win share
per player, so a decision fits its budget without playing to the end.

Deterministic for a seed: the budget is a number of iterations, chosen so a
decision takes well under 1 s on the project's machine. An optional time limit
(``max_seconds``) exists for interactive use, but it makes results depend on
the machine's load, so the levels leave it off.

When a position cannot be sampled faithfully (a decision in the middle of an
effect, an unknown key in the view), the bot asks its fallback heuristic.
Only decisions with more than one legal action become tree nodes.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from typing import Any

from gloomtable.bots.base import Bot
from gloomtable.bots.determinize import sampler
from gloomtable.engine import Rng, State

Evaluate = Callable[[State], list[float]]
Prior = Callable[[Mapping[str, Any], list[int]], list[int]]
Gate = Callable[[Mapping[str, Any], list[int]], bool]
"""Whether a decision is worth a search (else the fallback heuristic decides)."""
Rollout = Callable[[State, list[int], Rng], "int | None"]
"""A rollout policy: (sampled state, its legal actions, rng) -> one of those
actions, or None to stop the rollout here and evaluate (at a natural break, say).
The search takes it with ``State.apply_legal``, unchecked: it must be one of them."""


def random_rollout(state: State, legal: list[int], rng: Rng) -> int | None:
    return legal[rng.below(len(legal))]


class _Node:
    __slots__ = ("avail", "children", "player", "reward", "visits")

    def __init__(self, player: int) -> None:
        self.player = player  # who chose the action leading here
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0


class ISMCTSBot:
    """Search with ``iterations`` samples per decision; see the module doc."""

    uses_view = True

    def __init__(self, seed: int, evaluate: Evaluate, fallback: Bot, *, iterations: int = 200,
                 rollout_steps: int = 8, exploration: float = 0.7, max_seconds: float | None = None,
                 prior: Prior | None = None, root_width: int = 0, rollout: Rollout | None = None,
                 gate: Gate | None = None, max_depth: int = 0, paired: bool = False,
                 name: str = "ismcts") -> None:
        self.rng = Rng(seed)
        self.evaluate = evaluate
        self.fallback = fallback
        self.iterations = iterations
        self.rollout_steps = rollout_steps
        self.c = exploration
        self.max_seconds = max_seconds
        self.prior = prior
        self.root_width = root_width
        self.rollout = rollout or random_rollout
        self.gate = gate
        self.max_depth = max_depth
        self.paired = paired
        """Flat search with common random numbers: every root action is tried on
        the same sampled states and rollout seeds, so differences between
        actions are not drowned by differences between samples."""
        """Tree nodes below the root (0: unlimited); deeper, the rollout policy plays."""
        self.name = name
        self.last_iterations = 0
        """Iterations the last decision ran (0: the fallback decided)."""

    def choose(self, view: Mapping[str, Any], legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        seed = self.rng.next_u64()
        make = sampler(view) if self.gate is None or self.gate(view, legal) else None
        if make is None:
            self.last_iterations = 0
            return self.fallback.choose(view, legal)
        candidates = legal
        if self.prior is not None and self.root_width:
            candidates = self.prior(view, legal)[: self.root_width]
            if len(candidates) == 1:
                self.last_iterations = 0
                return candidates[0]
        begin = getattr(self.rollout, "begin", None)
        if begin is not None:
            begin(view)
        if self.paired:
            return self._paired(make, candidates, Rng(seed))
        return self._search(make, view["viewer"], candidates, Rng(seed))

    def _paired(self, make: Callable[[int], State], candidates: list[int], rng: Rng) -> int:
        totals = [0.0] * len(candidates)
        rounds = max(1, self.iterations // len(candidates))
        for _ in range(rounds):
            sample_seed = rng.next_u64() & 0x7FFFFFFF
            roll_seed = rng.next_u64()
            for i, a in enumerate(candidates):
                s = make(sample_seed)
                me = s.current_player()
                s.apply(a)
                values = self._rollout(s, Rng(roll_seed))
                totals[i] += values[me]
        self.last_iterations = rounds * len(candidates)
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]

    def _rollout(self, s: State, rng: Rng) -> list[float]:
        steps = 0
        while not s.is_over() and steps < self.rollout_steps:
            a = self.rollout(s, s.legal_actions(), rng)
            if a is None:
                break
            s.apply_legal(a)  # from legal_actions() just above: no need to check it again
            steps += 1
        return s.result().returns() if s.is_over() else self.evaluate(s)

    def _search(self, make: Callable[[int], State], me: int, candidates: list[int], rng: Rng) -> int:
        root = _Node(-1)
        allowed = set(candidates)
        deadline = None if self.max_seconds is None else time.perf_counter() + self.max_seconds
        done = 0
        for it in range(self.iterations):
            if deadline is not None and it % 16 == 15 and time.perf_counter() > deadline:
                break
            self._iterate(make(rng.next_u64() & 0x7FFFFFFF), root, allowed, rng)
            done += 1
        self.last_iterations = done
        best, best_key = candidates[0], (-1, -1.0)
        for a in candidates:  # most visited; mean reward breaks ties; legal order breaks those
            child = root.children.get(a)
            if child is None:
                continue
            key = (child.visits, child.reward / max(child.visits, 1))
            if key > best_key:
                best, best_key = a, key
        return best

    def _iterate(self, s: State, root: _Node, allowed: set[int], rng: Rng) -> None:
        node = root
        path: list[_Node] = []
        first = True
        expanded = False
        while not s.is_over() and not expanded and (not self.max_depth or len(path) < self.max_depth):
            legal = s.legal_actions()
            if first:
                legal = [a for a in legal if a in allowed]
                first = False
            if len(legal) == 1:
                s.apply_legal(legal[0])
                continue
            player = s.current_player()
            untried = [a for a in legal if a not in node.children]
            for a in legal:
                child = node.children.get(a)
                if child is not None:
                    child.avail += 1
            if untried:
                a = untried[rng.below(len(untried))]
                child = _Node(player)
                child.avail = 1
                node.children[a] = child
                expanded = True
            else:
                a = self._select(node, legal)
                child = node.children[a]
            s.apply_legal(a)  # tree moves are drawn from legal_actions() too
            path.append(child)
            node = child
        values = self._rollout(s, rng)
        for n in path:
            n.visits += 1
            n.reward += values[n.player]

    def _select(self, node: _Node, legal: list[int]) -> int:
        best, best_u = legal[0], -math.inf
        for a in legal:
            ch = node.children[a]
            u = ch.reward / ch.visits + self.c * math.sqrt(math.log(max(ch.avail, 1)) / ch.visits)
            if u > best_u:
                best, best_u = a, u
        return best
