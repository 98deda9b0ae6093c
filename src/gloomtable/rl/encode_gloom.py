"""The observation vector of Gloom and Gloomier, built from one seat's view only.

The layout depends on the deck (its cards, Characters, Guests, Stories, story
icons) and the number of seats, never on the state, so it is fixed for a game
config. Seats are relative: block ``k`` of a per-seat slot is the seat ``k``
places after the viewer (``k = 0`` is the viewer). Every value lies in
``[-1, 1]`` (larger magnitudes are scaled down and clipped).

The deck facts (card types, icons) are read from the game value once; every
per-step value comes from ``view(seat)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gloomtable.engine import Game
from gloomtable.rl.slots import Layout

KINDS = ("choose_family", "choose_character", "set_aside", "play", "respond", "discard",
         "move_modifier_from", "move_modifier_to", "return_modifier", "remove_modifier", "revive",
         "steal_from", "swap_hands_with", "skip_turn")
"""Decision kinds with a slot of their own; any other kind sets the ``other`` slot."""
FREE_PLAY_KINDS = ("modifier", "untimely_death", "any")
ZONES = ("hand", "discard", "in_play", "being_played", "stack_top", "draft_pool")
"""Per-card zones besides "in a stack of relative seat k" and "in a stack in the middle"."""
SCORE_SCALE = 100.0
CACHE_LIMIT = 10_000
"""Cached Character encodings kept at most (then the cache starts over)."""


def _deck_facts(game: Game) -> tuple[int, list[int], list[int], list[str], int]:
    """(cards, target ids, story ids, icon names, families) of the game's deck."""
    deck = game.deck  # type: ignore[attr-defined]  # a Gloom game value declares its deck
    cards = deck.cards
    # The order of the action space: every Character, then every Guest.
    targets = ([c.index for c in cards if str(c.type) == "character"]
               + [c.index for c in cards if str(c.type) == "guest"])
    stories = [c.index for c in cards if str(c.type) == "story"]
    icons = sorted({i for c in cards for i in c.icons if i and i != "blank"})
    return len(cards), targets, stories, icons, len(deck.families)


def _clip(x: float) -> float:
    return -1.0 if x < -1.0 else 1.0 if x > 1.0 else x


class GloomEncoder:
    """Encodes a Gloom or Gloomier view (``view(seat)``) into a float32 vector."""

    score_scale = SCORE_SCALE
    """The shaped reward divides Family Value changes by this."""

    def __init__(self, game: Game) -> None:
        n = self.n = game.num_players
        self.num_cards, targets, stories, icons, families = _deck_facts(game)
        self.icons = {name: i for i, name in enumerate(icons)}
        self.target_slot = {c: i for i, c in enumerate(targets)}
        self.story_slot = {c: i for i, c in enumerate(stories)}
        self.zones = len(ZONES) + n + 1
        self.kinds = {k: i for i, k in enumerate(KINDS)}
        lay = self.layout = Layout()
        N, T, S = self.num_cards, len(targets), len(stories)
        self.per_target = 1 + n + 1 + 1 + 1 + 3 + (len(icons) + 1) * 3 + 1 + 5
        # Binary and one-hot slots.
        self.o_card = lay.add("card_zone", N * self.zones,
                              f"per card id: one-hot zone: {', '.join(ZONES)}, then in a stack "
                              f"controlled by relative seat 0..{n - 1}, then in a stack in the middle")
        self.o_target = lay.add(
            "targets", T * self.per_target,
            "per Character, then per Guest (the action space's target order): shown, controller one-hot "
            f"(relative seat 0..{n - 1}, middle), dead, target of the card being played, "
            f"3 point slots printed, 3 icon slots one-hot over blank+{'/'.join(icons)}, "
            "has live effects, then scalars: Self-Worth/60, 3 point values/20, stack height/10")
        self.o_story = lay.add("stories", S * (n + 1),
                               "per Story: controller one-hot (relative seat 0..n-1, middle)")
        self.o_kind = lay.add("decision_kind", len(KINDS) + 1,
                              f"one-hot decision kind: {', '.join(KINDS)}, other")
        self.o_mine = lay.add("deciding", 1, "1 if I am the one to decide now")
        self.o_dec = lay.add("decider", n, "one-hot relative seat of the deciding player")
        self.o_turn = lay.add("turn_player", n, "one-hot relative seat whose turn it is")
        self.o_fam = lay.add("families_available", families, "1 if family f is still to be chosen")
        self.o_over = lay.add("over", 1, "1 once the game is over")
        # Scalars.
        self.o_scalar = lay.add("plays_left", 1, "counted plays left this turn / 2")
        lay.add("free_plays", len(FREE_PLAY_KINDS),
                f"free plays granted, by kind ({', '.join(FREE_PLAY_KINDS)}) / 2")
        lay.add("hand_sizes", n, "per relative seat: cards in hand / 10")
        lay.add("draw_limits", n, "per relative seat: draw limit / 10")
        lay.add("skips", n, "per relative seat: turns to skip / 3")
        lay.add("family_values", n, "per relative seat: Family Value / 100")
        lay.add("draw_pile", 1, "cards in the draw pile / deck size")
        lay.add("turn", 1, "turns played / 100")
        self.size = lay.size
        self.num_scalars = self.size - self.o_scalar
        self._target_cache: dict[tuple[Any, ...], tuple[list[int], tuple[int, ...],
                                                      tuple[float, ...]]] = {}

    def _target_entry(self, ch: dict[str, Any], owner: int,
                      is_target: bool) -> tuple[list[int], tuple[int, ...], tuple[float, ...]]:
        """What one Character or Guest view sets: (binary slots, scalar slots, values).
        Cached by the view's own facts, since most stacks do not change in a step."""
        n, z, oc = self.n, self.zones, self.o_card
        stack = ch["stack"]
        zone = len(ZONES) + owner
        ones = [oc + c * z + zone for c in stack]
        ones.append(oc + stack[-1] * z + 4)
        t = self.target_slot.get(ch["card"])
        if t is None:
            return ones, (), ()
        base = self.o_target + t * self.per_target
        ones += [base, base + 1 + owner]
        if ch["dead"]:
            ones.append(base + n + 2)
        if is_target:
            ones.append(base + n + 3)
        b = base + n + 4
        pts = ch["points"]
        ones += [b + i for i in range(3) if pts[i] is not None]
        b += 3
        ni = len(self.icons) + 1
        for i, icon in enumerate(ch["icon_slots"]):
            if icon == "blank":
                ones.append(b + i * ni)
            elif icon in self.icons:
                ones.append(b + i * ni + 1 + self.icons[icon])
        b += 3 * ni
        if ch["live_effects"]:
            ones.append(b)
        b += 1
        vals = (ch["self_worth"] / 60.0, (pts[0] or 0) / 20.0, (pts[1] or 0) / 20.0,
                (pts[2] or 0) / 20.0, len(stack) / 10.0)
        return ones, (b, b + 1, b + 2, b + 3, b + 4), tuple(_clip(x) for x in vals)

    def encode(self, view: dict[str, Any]) -> np.ndarray:
        """The observation of ``view``: a new float32 array of length :attr:`size`.

        Binary slots are set in a ``bytearray`` converted at once; the few
        scalars are written with one indexed assignment, then clipped."""
        n, me, z, oc = self.n, view["viewer"], self.zones, self.o_card
        bits = bytearray(self.size)
        for c in view["hand"] or ():
            bits[oc + c * z] = 1
        for c in view["discard"]:
            bits[oc + c * z + 1] = 1
        for c in view["in_play"]:
            bits[oc + c * z + 2] = 1
        playing = view.get("playing")
        target = None
        if playing:
            bits[oc + playing["card"] * z + 3] = 1
            target = playing.get("target")
        for x in view.get("characters_available", ()):
            bits[oc + x["card"] * z + 5] = 1
        tv: list[tuple[dict[str, Any], int]] = []  # (character view, its controller slot)
        story_slot, o_story = self.story_slot, self.o_story
        for fam in view["families"]:
            k = (fam["player"] - me) % n
            tv += [(ch, k) for ch in fam["characters"]]
            tv += [(g, k) for g in fam.get("guests", ())]
            story = fam.get("story")
            if story is not None and story["card"] in story_slot:
                bits[o_story + story_slot[story["card"]] * (n + 1) + k] = 1
        middle = view.get("middle") or {}
        tv += [(g, n) for g in middle.get("guests", ())]
        for story in middle.get("stories", ()):
            if story["card"] in story_slot:
                bits[o_story + story_slot[story["card"]] * (n + 1) + n] = 1
        sidx: list[int] = []
        svals: list[float] = []
        cache = self._target_cache
        for ch, owner in tv:
            stack = ch["stack"]
            is_target = target is not None and target == ch["card"]
            key = (ch["card"], owner, tuple(stack), ch["dead"], bool(ch["live_effects"]), is_target,
                   tuple(ch["points"]), tuple(ch["icon_slots"]), ch["self_worth"])
            hit = cache.get(key)
            if hit is None:
                hit = cache[key] = self._target_entry(ch, owner, is_target)
                if len(cache) > CACHE_LIMIT:
                    cache.clear()
                    cache[key] = hit
            for i in hit[0]:
                bits[i] = 1
            sidx += hit[1]
            svals += hit[2]
        decision = view["decision"]
        if decision is not None:
            bits[self.o_kind + self.kinds.get(decision["kind"], len(KINDS))] = 1
            if decision["player"] == me:
                bits[self.o_mine] = 1
            if decision["player"] is not None and decision["player"] >= 0:
                bits[self.o_dec + (decision["player"] - me) % n] = 1
        bits[self.o_turn + (view["turn_player"] - me) % n] = 1
        for f in view["families_available"]:
            bits[self.o_fam + f["index"]] = 1
        if view["over"]:
            bits[self.o_over] = 1
        out = np.frombuffer(bits, np.uint8).astype(np.float32)
        sc = [0.0] * self.num_scalars
        sc[0] = view["plays_left"] / 2.0
        for kind in view["free_plays"]:
            if kind in FREE_PLAY_KINDS:
                sc[1 + FREE_PLAY_KINDS.index(kind)] += 0.5
        b = 1 + len(FREE_PLAY_KINDS)
        hs, dl, sk = view["hand_sizes"], view["draw_limits"], view["skips"]
        fv = [0] * n
        for fam in view["families"]:
            fv[fam["player"]] = fam["family_value"]
        for k in range(n):
            q = (me + k) % n
            sc[b + k] = hs[q] / 10.0
            sc[b + n + k] = dl[q] / 10.0
            sc[b + 2 * n + k] = sk[q] / 3.0
            sc[b + 3 * n + k] = fv[q] / SCORE_SCALE
        sc[b + 4 * n] = view["draw_pile"] / self.num_cards
        sc[b + 4 * n + 1] = view["turn"] / 100.0
        out[self.o_scalar:] = [_clip(x) for x in sc]
        if sidx:
            out[np.fromiter(sidx, np.intp, len(sidx))] = np.fromiter(svals, np.float32, len(svals))
        return out

    @staticmethod
    def score(view: dict[str, Any], seat: int) -> float:
        """The seat's Family Value (lower is better), for the shaped reward."""
        for fam in view["families"]:
            if fam["player"] == seat:
                return float(fam["family_value"])
        return 0.0
