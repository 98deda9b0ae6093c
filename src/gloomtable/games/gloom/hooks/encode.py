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

from array import array
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from gloomtable.engine import DecisionKind, Game
from gloomtable.engine.hooks import View
from gloomtable.games.gloom.game import GloomGame
from gloomtable.games.gloom.hooks.observe import FREE_PLAY_KINDS, LIMIT_STEPS, ZONES, GloomObserver
from gloomtable.games.gloom.view import CharacterView, GloomView, gloom_view
from gloomtable.rl.slots import Layout

_TargetBits = tuple[tuple[int, ...], int, bytes]
"""A target's cached encoding: (its slots, a count, its block as bytes)."""

_K = DecisionKind
KINDS = (_K.CHOOSE_FAMILY, _K.CHOOSE_CHARACTER, _K.SET_ASIDE, _K.PLAY, _K.RESPOND, _K.DISCARD,
         _K.MOVE_MODIFIER_FROM, _K.MOVE_MODIFIER_TO, _K.RETURN_MODIFIER, _K.REMOVE_MODIFIER,
         _K.REVIVE, _K.STEAL_FROM, _K.SWAP_HANDS_WITH, _K.SKIP_TURN)
"""Decision kinds with a slot of their own; any other kind sets the ``other`` slot."""
SCORE_SCALE = 100.0
ONE_F32 = array("f", [1.0]).tobytes()
CACHE_LIMIT = 10_000
"""Cached Character encodings kept at most (then the cache starts over)."""


def _deck_facts(game: GloomGame) -> tuple[int, list[int], list[int], list[str], int]:
    """(cards, target ids, story ids, icon names, families) of the game's deck."""
    deck = game.deck
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

    def __init__(self, game: GloomGame) -> None:
        n = self.n = game.num_players
        self.num_cards, targets, stories, icons, families = _deck_facts(game)
        self.icons = {name: i for i, name in enumerate(icons)}
        self.target_slot = {c: i for i, c in enumerate(targets)}
        self.story_slot = {c: i for i, c in enumerate(stories)}
        self.zones = len(ZONES) + n + 1
        self.kinds: dict[str, int] = {k: i for i, k in enumerate(KINDS)}
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
        self.private_slots = np.arange(self.o_card, self.o_target, self.zones, dtype=np.intp)
        """The slots only the observer's own hand decides (each card's ``hand`` zone:
        OpenSpiel's private information); every other slot is public."""
        self.num_scalars = self.size - self.o_scalar
        o = self.o_story
        self._rest_size = self.size - o
        self._r = {"kind": self.o_kind - o, "mine": self.o_mine - o, "dec": self.o_dec - o,
                   "turn": self.o_turn - o, "fam": self.o_fam - o, "over": self.o_over - o,
                   "scalar": self.o_scalar - o}
        """Offsets of the slots after the target blocks, relative to their start."""
        self.free_slot = {k: 1 + i for i, k in enumerate(FREE_PLAY_KINDS)}
        self._orders = [[(me + k) % n for k in range(n)] for me in range(n)]
        """Per viewer: the seats in relative order (viewer first)."""
        config = getattr(game, "config", None)  # a Gloom game's options; other games have none
        self.beginner = bool(config and config.beginner)
        self._zero_blocks = [bytes(4 * self.per_target)] * T
        self.story_lasting = {c.index: any(st.name in LIMIT_STEPS for e in c.effects_when("continuous")
                                           for st in e.steps)
                              for c in game.deck.cards if str(c.type) == "story"}
        """Stories whose continuous effects change their holder's draw limit."""
        self._target_cache: dict[tuple[Any, ...], _TargetBits] = {}
        """Target encodings for :meth:`encode`, by the view's facts that fix them."""
        self._blocks: dict[tuple[Any, ...], bytes] = {}
        self.observe: Callable[[Any, int], np.ndarray] = GloomObserver(self, game.deck.cards).observe
        """``observe(state, seat)``: ``encode(state.view(seat))`` without building the
        view, one public vector kept (:mod:`gloomtable.games.gloom.hooks.observe`): the
        environments' hot path. A test holds the two equal slot by slot."""

    def _base_block(self, dead: bool, live: bool, points: Any, icon_slots: Any,
                    self_worth: int, height: int) -> list[float]:
        """One Character's or Guest's target block, but for the two slots that depend
        on who looks (controller, target of the card being played)."""
        n = self.n
        block = [0.0] * self.per_target
        block[0] = 1.0
        if dead:
            block[n + 2] = 1.0
        b = n + 4
        for i in range(3):
            if points[i] is not None:
                block[b + i] = 1.0
        b += 3
        ni = len(self.icons) + 1
        for i, icon in enumerate(icon_slots):
            if icon == "blank":
                block[b + i * ni] = 1.0
            elif icon in self.icons:
                block[b + i * ni + 1 + self.icons[icon]] = 1.0
        b += 3 * ni
        if live:
            block[b] = 1.0
        vals = (self_worth / 60.0, (points[0] or 0) / 20.0, (points[1] or 0) / 20.0,
                (points[2] or 0) / 20.0, height / 10.0)
        block[b + 1:b + 6] = [_clip(x) for x in vals]
        return block

    def block_bytes(self, dead: bool, live: bool, points: Any, icon_slots: Any,
                     self_worth: int, height: int) -> bytes:
        """:meth:`_base_block` as float32 bytes, shared by every stack that shows the
        same (both encoding paths ask here)."""
        facts = (dead, live, points, icon_slots, self_worth, height)
        block = self._blocks.get(facts)
        if block is None:
            if len(self._blocks) >= CACHE_LIMIT:
                self._blocks.clear()
            block = self._blocks[facts] = array("f", self._base_block(*facts)).tobytes()
        return block

    def zone_offsets(self, stack: Any) -> tuple[tuple[int, ...], int]:
        """Where a stack's cards are marked, but for the controller (add the relative
        seat), and where its top card is marked "stack top"."""
        z, oc = self.zones, self.o_card
        return tuple([oc + x * z + len(ZONES) for x in stack]), oc + stack[-1] * z + 4

    @staticmethod
    def _for_owner(block: bytes, owner: int) -> bytes:
        """``block`` with the controller slot of relative seat ``owner`` set."""
        k = 4 * (1 + owner)
        return block[:k] + ONE_F32 + block[k + 4:]

    def _owned(self, ch: CharacterView, owner: int) -> tuple[tuple[int, ...], int, bytes]:
        """What one Character or Guest view sets as seen from relative seat ``owner``:
        (its cards' zone slots, its target index or -1, its target block)."""
        offs, top = self.zone_offsets(ch["stack"])
        ones = (*[o + owner for o in offs], top)
        t = self.target_slot.get(ch["card"], -1)
        if t < 0:
            return ones, -1, b""
        block = self.block_bytes(ch["dead"], bool(ch["live_effects"]), tuple(ch["points"]),
                                  tuple(ch["icon_slots"]), ch["self_worth"], len(ch["stack"]))
        return ones, t, self._for_owner(block, owner)

    def _assemble(self, cardbits: bytearray, targets: np.ndarray, rest: list[float],
                  target_slot: int) -> np.ndarray:
        """The vector from its regions: per-card zones (0/1 bytes), the target blocks
        (float32, in target order) and everything after them; then the "target of the
        card being played" slot of ``target_slot`` (-1: none)."""
        out = np.empty(self.size, np.float32)
        out[:self.o_target] = np.frombuffer(cardbits, np.uint8)
        out[self.o_target:self.o_story] = targets
        out[self.o_story:] = np.frombuffer(array("f", rest), np.float32)
        if target_slot >= 0:
            out[self.o_target + target_slot * self.per_target + self.n + 3] = 1.0
        return out

    def _rest(self, me: int, stories: Any, kind: str | None, decider: int | None,
              turn_player: int, families_free: Any, over: bool, plays_left: int,
              free_plays: Any, hand_sizes: Any, draw_limits: Any, skips: Any, fv: Any,
              draw_pile: int, turn: int) -> list[float]:
        """The slots after the target blocks: Stories, the decision, then the scalars.
        ``stories`` holds (Story card, controller or -1). Counts are never negative,
        so only Family Values need clipping below."""
        n, r = self.n, self._r
        rest = [0.0] * self._rest_size
        for card, owner in stories:
            s = self.story_slot.get(card)
            if s is not None:
                rest[s * (n + 1) + ((owner - me) % n if owner >= 0 else n)] = 1.0
        if kind is not None:
            rest[r["kind"] + self.kinds.get(kind, len(KINDS))] = 1.0
            if decider == me:
                rest[r["mine"]] = 1.0
            if decider is not None and decider >= 0:
                rest[r["dec"] + (decider - me) % n] = 1.0
        rest[r["turn"] + (turn_player - me) % n] = 1.0
        o = r["fam"]
        for f in families_free:
            rest[o + f] = 1.0
        if over:
            rest[r["over"]] = 1.0
        b = r["scalar"]
        rest[b] = plays_left / 2.0 if plays_left < 2 else 1.0
        for k in free_plays:
            i = self.free_slot.get(k)
            if i is not None:
                rest[b + i] = 1.0 if rest[b + i] else 0.5
        b += 1 + len(FREE_PLAY_KINDS)
        order = self._orders[me]
        for k, q in enumerate(order, b):
            x = hand_sizes[q] / 10.0
            rest[k] = x if x < 1.0 else 1.0
            x = draw_limits[q] / 10.0
            rest[k + n] = x if x < 1.0 else 1.0
            x = skips[q] / 3.0
            rest[k + 2 * n] = x if x < 1.0 else 1.0
            x = fv[q] / SCORE_SCALE
            rest[k + 3 * n] = -1.0 if x < -1.0 else x if x < 1.0 else 1.0
        x = draw_pile / self.num_cards
        rest[b + 4 * n] = x if x < 1.0 else 1.0
        x = turn / 100.0
        rest[b + 4 * n + 1] = x if x < 1.0 else 1.0
        return rest

    def _cached(self, key: tuple[Any, ...], make: Callable[[], _TargetBits]) -> _TargetBits:
        cache = self._target_cache
        hit = cache.get(key)
        if hit is None:
            if len(cache) >= CACHE_LIMIT:
                cache.clear()
            hit = cache[key] = make()
        return hit

    def encode(self, view: View) -> npt.NDArray[np.float32]:
        """The observation of ``view`` (``state.view(seat)``): a new float32 array of
        length :attr:`size`. The reference path: :meth:`observe` must equal it."""
        return self._encode(gloom_view(view))

    def _encode(self, view: GloomView) -> npt.NDArray[np.float32]:
        n, me, z, oc = self.n, view["viewer"], self.zones, self.o_card
        if me is None:
            raise ValueError("an observation is a seat's, and this view has no viewer")
        bits = bytearray(self.o_target)
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
        tv: list[tuple[CharacterView, int]] = []  # (character view, its controller slot)
        stories: list[tuple[int, int]] = []
        for fam in view["families"]:
            k = (fam["player"] - me) % n
            tv += [(ch, k) for ch in fam["characters"]]
            tv += [(g, k) for g in fam.get("guests", ())]
            story = fam["story"]
            if story is not None:
                stories.append((story["card"], fam["player"]))
        middle = view.get("middle") or {}
        tv += [(g, n) for g in middle.get("guests", ())]
        stories += [(s["card"], -1) for s in middle.get("stories", ())]
        blocks = list(self._zero_blocks)
        for ch, owner in tv:
            key = (ch["card"], owner, tuple(ch["stack"]), ch["dead"], bool(ch["live_effects"]),
                   tuple(ch["points"]), tuple(ch["icon_slots"]), ch["self_worth"])
            ones, t, block = self._cached(key, partial(self._owned, ch, owner))
            for i in ones:
                bits[i] = 1
            if t >= 0:
                blocks[t] = block
        decision = view["decision"]
        fv = [0] * n
        for fam in view["families"]:
            fv[fam["player"]] = fam["family_value"]
        rest = self._rest(
            me, stories, decision["kind"] if decision else None,
            decision["player"] if decision else None, view["turn_player"],
            [f["index"] for f in view["families_available"]], view["over"], view["plays_left"],
            view["free_plays"], view["hand_sizes"], view["draw_limits"], view["skips"], fv,
            view["draw_pile"], view["turn"])
        return self._assemble(bits, np.frombuffer(b"".join(blocks), np.float32), rest,
                              -1 if target is None else self.target_slot.get(target, -1))

    @staticmethod
    def score(view: View, seat: int) -> float:
        """The seat's Family Value (lower is better), for the shaped reward."""
        for fam in gloom_view(view)["families"]:
            if fam["player"] == seat:
                return float(fam["family_value"])
        return 0.0


def encoder_for(game: Game) -> GloomEncoder:
    """The encoder of ``game``'s tables (the registry's ``encoder``): its layout is read
    from a Gloom game's deck, so another game is refused by name."""
    if not isinstance(game, GloomGame):
        raise TypeError(f"the Gloom encoder reads a Gloom deck; {game.name!r} has none")
    return GloomEncoder(game)
