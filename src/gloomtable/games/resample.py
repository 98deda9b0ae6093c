"""A state one player cannot tell from the real one, for search (OpenSpiel's
``resample_from_infostate``, which ISMCTS calls at every decision).

The cards hidden from the player (other hands, the draw pile; in Crazy Creatures
also the Reserve and the set-aside cards) are gathered, shuffled and dealt back
into the same places with the same sizes, and the state's random generator is
seeded afresh, so nothing the player cannot see survives from the real state:
not the other hands, not the order of the pile, not a future shuffle. Everything
else (the table, the discard pile, the decision being taken and the effect
behind it) is the real state's, which is why this works at every kind of
decision, in the middle of an effect too, without rebuilding a position from a
view. The player's view of the result is checked against its view of the real
state, key by key; a position where a card it sees sits in one of those places
(a rule showing a hand, say) is dealt again with the draw pile alone, and if
that still shows a difference, it is refused (:class:`ResampleError`), never
answered with the real hidden cards.

The deal is the game's own (its registry entry's ``determinizer.resample``, the one
its search samples are dealt with too); if the player's view of it differs (a card it
sees sits in a hand, say), the hidden piles alone are dealt again here.

What this does not know: which hidden card a player learnt earlier (a card it
passed to another hand, say), so the sample is consistent with the player's view
now, not with everything it remembers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gloomtable.engine import GloomtableError, Rng
from gloomtable.games import registry


class ResampleError(GloomtableError):
    """No state could be sampled that shows the player the same view."""


Zones = list[tuple[Callable[[Any], list[int]], Callable[[Any, list[int]], None]]]


def _zones(state: Any, player: int, with_hands: bool) -> Zones:
    """(read, write) pairs of the places hidden from ``player``."""
    entry = registry.entry(state.game.name)
    zones: Zones = []
    if with_hands:
        for q in range(len(state.hands)):
            if q != player:
                zones.append((_hand_reader(q), _hand_writer(q, "hands" in entry.sorted_zones)))
    for name in entry.hidden_piles:  # Gloom: the draw pile; Creatures: the Reserve, the set-aside
        zones.append((_pile_reader(name), _pile_writer(name, name in entry.sorted_zones)))
    return zones


def _pile_reader(name: str) -> Callable[[Any], list[int]]:
    def read(s: Any) -> list[int]:
        pile: list[int] = getattr(s, name)
        return pile

    return read


def _pile_writer(name: str, keep_sorted: bool) -> Callable[[Any, list[int]], None]:
    def write(s: Any, cards: list[int]) -> None:
        setattr(s, name, sorted(cards) if keep_sorted else cards)

    return write


def _hand_reader(q: int) -> Callable[[Any], list[int]]:
    def read(s: Any) -> list[int]:
        hand: list[int] = s.hands[q]
        return hand

    return read


def _hand_writer(q: int, keep_sorted: bool) -> Callable[[Any, list[int]], None]:
    def write(s: Any, cards: list[int]) -> None:
        s.hands[q] = sorted(cards) if keep_sorted else cards

    return write


def _redeal(state: Any, zones: Zones, seed: int) -> Any:
    other = state.clone()
    rng = Rng(seed)
    parts = [list(read(other)) for read, _ in zones]
    pool = [c for part in parts for c in part]
    rng.shuffle(pool)
    for (_, write), part in zip(zones, parts, strict=True):
        write(other, pool[:len(part)])
        pool = pool[len(part):]
    other.rng = Rng(rng.below(1 << 62) + 1)
    return other


def resample(state: Any, player: int, seed: int) -> Any:
    """A fresh engine state that ``player`` sees exactly as it sees ``state``, with
    everything hidden from it dealt anew from ``seed`` (see the module doc)."""
    want = state.view(player)
    entry = registry.entry(state.game.name)
    other = entry.determinizer.get().resample(state, player, seed)  # the game's own deal
    if other.view(player) == want:
        return other
    if entry.hidden_piles:  # a hand the player sees (a rule showing it): deal the piles alone
        other = _redeal(state, _zones(state, player, False), seed)
        if other.view(player) == want:
            return other
    raise ResampleError(f"no resample of this position shows player {player} the same view")
