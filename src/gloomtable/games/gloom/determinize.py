"""Gloom's determinizer (the registry's ``determinizer``): a full state consistent with
one seat's view at its own play, for a bot's search (``bots/determinize.py`` checks
every sample against the view). Everything the view shows is copied as shown; the
cards it cannot see (other hands, the draw pile) are the leftover cards re-dealt at
random into places of the sizes the view gives. It starts from the game's own
``new_initial_state`` (so fields it does not set keep their real starting values) and
sets only what a view fixes: the game's own package is where its state is built."""

from __future__ import annotations

from typing import Any

from gloomtable.engine import Rng, State
from gloomtable.engine.hooks import Sampler
from gloomtable.games.gloom.state import GloomState
from gloomtable.games.gloom.view import GloomView, gloom_view
from gloomtable.games.views import ViewDeterminizer, game_for_view


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
        s.direction = view.get("direction", 1)
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
    return lambda seed: resample(template, me, seed)


def resample(state: State, player: int, seed: int) -> State:
    """Gloom's one way to deal anew what ``player`` cannot see: every card in another
    hand or the draw pile, in card order, shuffled from ``seed`` and dealt back into the
    other hands (seat by seat, each its own size) and the draw pile; the state's
    generator is the shuffle's own from there. A search's samples (above) and OpenSpiel's
    ``resample_from_infostate`` (``games/resample.py``) both come from here."""
    if not isinstance(state, GloomState):
        raise TypeError(f"not a Gloom state: {type(state).__name__}")
    s = state.clone()
    n = len(s.hands)
    rng = Rng(seed)
    deal = sorted([c for p in range(n) if p != player for c in s.hands[p]] + list(s.draw_pile))
    rng.shuffle(deal)
    hands: list[list[int]] = []
    for p in range(n):
        if p == player:
            hands.append(list(s.hands[p]))
        else:
            size = len(s.hands[p])
            hands.append(deal[:size])
            deal = deal[size:]
    s.hands = hands
    s.draw_pile = deal
    s.rng = rng
    return s


GLOOM = ViewDeterminizer(config=lambda view: dict(gloom_view(view)["config"]),
                         sampler=lambda view: _gloom_sampler(gloom_view(view)), resample=resample)
