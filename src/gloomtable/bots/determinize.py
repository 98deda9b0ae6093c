"""Determinisation: a full game state consistent with one player's view.

A search bot may not read the real state, so it samples one: everything its
view shows is copied as shown, and the cards it cannot see (other hands, the
draw pile or Reserve, set-aside cards) are the leftover cards re-dealt at
random into places of the sizes the view gives. Every sample is checked once
per decision: the sampled state's own view for that player must equal the view
the bot got, key by key. Any difference (a decision in the middle of an effect,
a rule or key this module does not know yet, such as one added with a new
expansion) makes :func:`sampler` answer ``None`` and the bot falls back on its
heuristic, so a search never plays from a wrong picture of the table.

This module is the one place in ``bots`` that builds game states from parts;
it starts from the game's own ``new_initial_state`` (so fields it does not set
keep their real starting values) and sets only what a view fixes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from gloomtable.engine import DecisionKind, GloomtableError, Rng, State
from gloomtable.games import make_game, registry
from gloomtable.games.creatures.view import CreaturesView, creatures_view
from gloomtable.games.gloom.view import GloomView, gloom_view

Sampler = Callable[[int], State]
"""seed -> a fresh state consistent with the view the sampler was made from."""

def _game(name: str, config: dict[str, Any]) -> Any:
    return _made(name, json.dumps(config, sort_keys=True))


@lru_cache(maxsize=64)
def _made(name: str, config: str) -> Any:
    """The games views come from, made once each: bounded and thread-safe (the server's
    bot threads share it), keyed by the options as canonical JSON."""
    return make_game(name, json.loads(config))


class Determinizer(NamedTuple):
    """What one game gives this module (the registry's ``determinizer``)."""

    config: Callable[[Mapping[str, Any]], dict[str, Any]]
    """The game's config, as far as a view of it shows."""
    sampler: Callable[[Mapping[str, Any]], Sampler | None]
    """A sampler for a view at its seat's decision, or None."""


def game_for_view(view: Mapping[str, Any]) -> Any:
    """The game a view is from, built from what the view shows (cached). A view that
    names no known game is read as Gloom's; a config its own game refuses, as the
    config of the game whose rules it plays (``GameEntry.package``)."""
    entry = registry.find(view.get("game")) or registry.entry("gloom")
    config = entry.view_config(view)
    try:
        return _game(entry.name, config)
    except GloomtableError:
        if entry.package == entry.name:
            raise
        return _game(entry.package, config)


def sampler(view: Mapping[str, Any]) -> Sampler | None:
    """A sampler for ``view`` (a seat's view at its own decision), or None when
    this position cannot be rebuilt faithfully from a view."""
    try:
        entry = registry.find(view.get("game"))
        if entry is None:
            return None
        make = entry.sampler(view)
        if make is None:
            return None
        first = make(0)
        if not _same_view(first.view(view["viewer"]), view):
            return None
    except (GloomtableError, KeyError, IndexError, TypeError, ValueError, AttributeError):
        return None
    return make


def _same_view(got: Mapping[str, Any], want: Mapping[str, Any]) -> bool:
    return got == want


# --- Gloom (and sets built on it) ----------------------------------------------


def _gloom_sampler(view: GloomView) -> Sampler | None:
    from gloomtable.games.gloom.cards import CardType
    from gloomtable.games.gloom.state import PLAY, Decision

    dec = view.get("decision")
    me = view.get("viewer")
    if view.get("over") or not dec or me is None or dec["kind"] != PLAY or dec["player"] != me:
        return None
    if view.get("in_play") or view.get("playing"):
        return None
    game = game_for_view(view)
    cards = game.deck.cards
    n = view["players"]
    stacks = {ch["card"]: list(ch["stack"]) for fam in view["families"] for ch in fam["characters"]}
    controller = {ch["card"]: fam["player"] for fam in view["families"] for ch in fam["characters"]}
    # Gloomier (R-H): Guests in a family or in the middle, Stories claimed or not.
    middle = view.get("middle") or {}
    guest_views = [g for fam in view["families"] for g in fam.get("guests", [])]
    guest_views += list(middle.get("guests", []))
    guests = [g["card"] for g in guest_views]
    for g in guest_views:
        stacks[g["card"]] = list(g["stack"])
        controller[g["card"]] = g["controller"]
    story_views = [st for fam in view["families"] if (st := fam["story"]) is not None]
    story_views += list(middle.get("stories", []))
    stories = {st["card"]: st["controller"] for st in story_views}
    families = [[ch["card"] for ch in fam["characters"]] for fam in view["families"]]
    if view["hand"] is None:
        return None
    hand = list(view["hand"])
    seen = set(hand) | set(view["discard"])
    for stack in stacks.values():
        seen.update(stack)
    seen.update(stories)
    sides = (CardType.CHARACTER, CardType.GUEST, CardType.STORY)  # never in a hand or a pile
    unknown = [c.index for c in cards if c.type not in sides and c.index not in seen]
    sizes = list(view["hand_sizes"])
    if sum(sizes) - sizes[me] + view["draw_pile"] != len(unknown):
        return None  # some card is somewhere a view does not tell (out of the game?)
    on_table = {c for fam in families for c in fam} | set(guests) | set(stories)
    out = [c.index for c in cards if c.type in sides and c.index not in on_table]
    taken = [-1] * len(game.deck.families)
    for f, fam in enumerate(game.deck.families):
        for p, chars in enumerate(families):
            if chars and cards[chars[0]].family == fam.id:
                taken[f] = p
    available = {fa["index"] for fa in view.get("families_available", [])}
    taken = [-1 if f in available else max(t, 0) for f, t in enumerate(taken)]
    plays_left = view["plays_left"]
    first_player = (view["turn_player"] - (view["turn"] - 1)) % n

    def redeal(s: Any, seed: int) -> Any:
        rng = Rng(seed)
        deal = list(unknown)
        rng.shuffle(deal)
        hands: list[list[int]] = []
        for p in range(n):
            if p == me:
                hands.append(list(hand))
            else:
                hands.append(deal[:sizes[p]])
                deal = deal[sizes[p]:]
        s.hands = hands
        s.draw_pile = deal
        s.rng = rng
        return s

    def build(seed: int) -> Any:
        s = game.new_initial_state(seed)
        s.discard = list(view["discard"])
        s.stacks = {c: list(st) for c, st in stacks.items()}
        s.guests = list(guests)
        s.stories = dict(stories)
        s.controller = dict(controller)
        s.families = [list(f) for f in families]
        s.family_taken = list(taken)
        s.out_of_game = list(out)
        s.limbo = []
        s.free_plays = list(view["free_plays"])
        s.skips = list(view["skips"])
        s.queue = []
        s.cancelled = False
        s.counted_used = 2 - plays_left
        s.turn = view["turn"]
        s.turn_player = view["turn_player"]
        s.first_player = first_player
        s.over = False
        s.capped = False
        s.decision = Decision(me, PLAY)
        return redeal(s, seed)

    template = build(0)
    return lambda seed: redeal(template.clone(), seed)


# --- Crazy Creatures ---------------------------------------------------------------


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

    def redeal(s: Any, seed: int) -> Any:
        rng = Rng(seed)
        pool = list(misfits)
        rng.shuffle(pool)
        hands: list[list[int]] = [[] for _ in range(n)]
        hands[me] = list(hand)
        for p in sorted(passers):
            hands[p] = sorted(pool[:counts[p]])
            pool = pool[counts[p]:]
        dealt = {c for h in hands for c in h}
        deal = [c for c in unknown if c not in dealt]
        rng.shuffle(deal)
        for p in range(n):
            if p != me and p not in passers:
                hands[p] = sorted(deal[:counts[p]])
                deal = deal[counts[p]:]
        s.hands = hands
        s.reserve = deal[:view["reserve_count"]]
        s.aside = sorted(deal[view["reserve_count"]:])
        s.rng = rng
        return s

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
        return redeal(s, seed)

    template = build(0)
    return lambda seed: redeal(template.clone(), seed)


GLOOM = Determinizer(config=lambda view: dict(gloom_view(view)["config"]),
                     sampler=lambda view: _gloom_sampler(gloom_view(view)))
CREATURES = Determinizer(
    config=lambda view: {"players": creatures_view(view)["players"], "rounds": view["rounds"]},
    sampler=lambda view: _creatures_sampler(creatures_view(view)))
