"""Crazy Creatures' determinizer (the registry's ``determinizer``): a full state
consistent with one seat's view at its own turn, for a bot's search. The cards it
cannot see (other hands, the Reserve, the set-aside cards) are re-dealt at random,
and the players who passed since the last play hold nothing that fits now (R-C5)."""

from __future__ import annotations

from typing import Any

from gloomtable.engine import DecisionKind, Rng, State
from gloomtable.engine.hooks import Sampler
from gloomtable.games.creatures.state import CreaturesState
from gloomtable.games.creatures.view import CreaturesView, creatures_view
from gloomtable.games.views import ViewDeterminizer, game_for_view


def _creatures_sampler(view: CreaturesView) -> Sampler | None:
    from gloomtable.games.creatures.cards import COLOUR, FITS, NUM_CREATURES, NUMBER

    me = view.get("viewer")
    if view.get("over") or me is None or view.get("current_player") != me:
        return None
    n = view["players"]
    game = game_for_view(view)
    hand = [c["id"] for c in view["hand"]]
    piles = [[c["id"] for c in m["pile"]] for m in view["machines"]]
    seen = set(hand)
    for pile in piles:
        seen.update(pile)
    unknown = [c for c in range(NUM_CREATURES) if c not in seen]
    counts = list(view["hand_counts"])
    if sum(counts) - counts[me] + view["reserve_count"] + view["aside_count"] != len(unknown):
        return None

    # The players who passed since the last play hold nothing that fits now (R-C5).
    tops = [m["top"] or 0 for m in view["machines"]]
    plus = [1 if m["side"] == "+" else 0 for m in view["machines"]]
    passers = {(me - k) % n for k in range(1, min(view["passes_in_row"], n - 1) + 1)}
    misfits = [c for c in unknown if not FITS[plus[COLOUR[c]]][tops[COLOUR[c]]][NUMBER[c]]]
    if sum(counts[p] for p in passers) > len(misfits):
        return None

    def build(seed: int) -> Any:
        s = game.new_initial_state(seed)
        s.piles = [list(p) for p in piles]
        s.plus = [1 if m["side"] == "+" else 0 for m in view["machines"]]
        s.round = view["round"] - 1
        s.start_player = view["start_player"]
        s.current = me
        s.pending = view["decision"] == DecisionKind.SAME_NUMBER
        s.passes = view["passes_in_row"]
        s.closer = -1 if view["closer"] is None else view["closer"]
        s.final_left = view["final_turns_left"] or 0
        s.totals = list(view["totals"])
        s.round_scores = [list(r) for r in view["round_scores"]]
        s.turns = view["turns"]
        s.over = False
        s.capped = False
        _deal(s, me, list(hand), counts, unknown, misfits, passers, view["reserve_count"], seed)
        return s

    template = build(0)
    return lambda seed: resample(template, me, seed)


def resample(state: State, player: int, seed: int) -> State:
    """Crazy Creatures' one way to deal anew what ``player`` cannot see (the other
    hands, the Reserve, the set-aside cards): the players who passed since the last play
    get only cards that fit no pile now (R-C5), the others any, each hand its own size
    and kept sorted. A search's samples (above) and OpenSpiel's
    ``resample_from_infostate`` (``games/resample.py``) both come from here."""
    from gloomtable.games.creatures.cards import COLOUR, FITS, NUMBER

    if not isinstance(state, CreaturesState):
        raise TypeError(f"not a Crazy Creatures state: {type(state).__name__}")
    s = state.clone()
    me, n = player, len(s.hands)
    counts = [len(h) for h in s.hands]
    unknown = sorted([c for p in range(n) if p != me for c in s.hands[p]] + list(s.reserve) + list(s.aside))
    tops = [NUMBER[p[-1]] if p else 0 for p in s.piles]
    plus = list(s.plus)
    passers = {(me - k) % n for k in range(1, min(s.passes, n - 1) + 1)}
    misfits = [c for c in unknown if not FITS[plus[COLOUR[c]]][tops[COLOUR[c]]][NUMBER[c]]]
    _deal(s, me, list(s.hands[me]), counts, unknown, misfits, passers, len(s.reserve), seed)
    return s


def _deal(s: Any, me: int, hand: list[int], counts: list[int], unknown: list[int], misfits: list[int],
          passers: set[int], reserve_count: int, seed: int) -> None:
    """Deal ``unknown`` into ``s``: the passers' hands from the cards that fit nowhere,
    the other hands, the Reserve and the set-aside cards from the rest (R-C5). One deal
    for the search's template and for every resample, so both draw the same way."""
    rng = Rng(seed)
    pool = list(misfits)
    rng.shuffle(pool)
    hands: list[list[int]] = [[] for _ in range(len(counts))]
    hands[me] = hand
    for p in sorted(passers):
        hands[p] = sorted(pool[:counts[p]])
        pool = pool[counts[p]:]
    dealt = {c for h in hands for c in h}
    deal = [c for c in unknown if c not in dealt]
    rng.shuffle(deal)
    for p in range(len(counts)):
        if p != me and p not in passers:
            hands[p] = sorted(deal[:counts[p]])
            deal = deal[counts[p]:]
    s.hands = hands
    s.reserve = deal[:reserve_count]
    s.aside = sorted(deal[reserve_count:])
    s.rng = rng


CREATURES = ViewDeterminizer(
    config=lambda view: {"players": creatures_view(view)["players"], "rounds": view["rounds"]},
    sampler=lambda view: _creatures_sampler(creatures_view(view)), resample=resample)
