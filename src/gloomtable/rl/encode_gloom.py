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
from gloomtable.games.gloom.state import BASE_DRAW_LIMIT
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
        self.beginner = bool(getattr(game, "config", None) and game.config.beginner)
        self._zero_blocks = [bytes(4 * self.per_target)] * T
        self.story_lasting = {c.index: bool(c.effects_when("continuous")) for c in game.deck.cards
                              if str(c.type) == "story"}  # type: ignore[attr-defined]
        """Stories whose continuous effects may change their holder's draw limit."""
        self._target_cache: dict[tuple[Any, ...], Any] = {}
        """Target encodings for :meth:`encode`, by the view's facts that fix them."""
        self._visible_cache: dict[tuple[int, int, bool], Any] = {}
        """The same for :meth:`observe`, by the stack's memoised ``Visible`` (kept in
        the value, so its id cannot be reused while the entry lives), owner, target."""

    def _entry(self, card: int, stack: Any, owner: int, is_target: bool, dead: bool, live: bool,
               points: Any, icon_slots: Any, self_worth: int) -> tuple[tuple[int, ...], int, bytes]:
        """What one Character or Guest sets: (its cards' zone slots, its target index or
        -1, its target block as float32 bytes). Both encoding paths call this."""
        n, z, oc = self.n, self.zones, self.o_card
        zone = len(ZONES) + owner
        ones = [oc + c * z + zone for c in stack]
        ones.append(oc + stack[-1] * z + 4)
        t = self.target_slot.get(card)
        if t is None:
            return tuple(ones), -1, b""
        block = [0.0] * self.per_target
        block[0] = block[1 + owner] = 1.0
        if dead:
            block[n + 2] = 1.0
        if is_target:
            block[n + 3] = 1.0
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
                (points[2] or 0) / 20.0, len(stack) / 10.0)
        block[b + 1:b + 6] = [_clip(x) for x in vals]
        return tuple(ones), t, np.asarray(block, np.float32).tobytes()

    def _assemble(self, cardbits: bytearray, blocks: list[bytes], rest: list[float]) -> np.ndarray:
        """The vector from its three regions: per-card zones (0/1 bytes), the target
        blocks (float32 bytes, in target order) and everything after them."""
        out = np.empty(self.size, np.float32)
        out[:self.o_target] = np.frombuffer(cardbits, np.uint8)
        out[self.o_target:self.o_story] = np.frombuffer(b"".join(blocks), np.float32)
        out[self.o_story:] = rest
        return out

    def _rest(self, me: int, stories: list[tuple[int, int]], kind: str | None, decider: int | None,
              turn_player: int, families_free: Any, over: bool, plays_left: int,
              free_plays: Any, hand_sizes: Any, draw_limits: Any, skips: Any, fv: Any,
              draw_pile: int, turn: int) -> list[float]:
        """The slots after the target blocks: Stories, the decision, then the scalars.
        ``stories`` holds (Story card, controller or -1)."""
        n, o = self.n, self.o_story
        rest = [0.0] * (self.size - o)
        for card, owner in stories:
            s = self.story_slot.get(card)
            if s is not None:
                rest[s * (n + 1) + ((owner - me) % n if owner >= 0 else n)] = 1.0
        if kind is not None:
            rest[self.o_kind - o + self.kinds.get(kind, len(KINDS))] = 1.0
            if decider == me:
                rest[self.o_mine - o] = 1.0
            if decider is not None and decider >= 0:
                rest[self.o_dec - o + (decider - me) % n] = 1.0
        rest[self.o_turn - o + (turn_player - me) % n] = 1.0
        for f in families_free:
            rest[self.o_fam - o + f] = 1.0
        if over:
            rest[self.o_over - o] = 1.0
        b = self.o_scalar - o
        rest[b] = _clip(plays_left / 2.0)
        for k in free_plays:
            if k in FREE_PLAY_KINDS:
                i = b + 1 + FREE_PLAY_KINDS.index(k)
                rest[i] = min(1.0, rest[i] + 0.5)
        b += 1 + len(FREE_PLAY_KINDS)
        for k in range(n):
            q = (me + k) % n
            rest[b + k] = _clip(hand_sizes[q] / 10.0)
            rest[b + n + k] = _clip(draw_limits[q] / 10.0)
            rest[b + 2 * n + k] = _clip(skips[q] / 3.0)
            rest[b + 3 * n + k] = _clip(fv[q] / SCORE_SCALE)
        rest[b + 4 * n] = _clip(draw_pile / self.num_cards)
        rest[b + 4 * n + 1] = _clip(turn / 100.0)
        return rest

    def _cached(self, key: tuple[Any, ...], make: Any) -> tuple[tuple[int, ...], int, bytes]:
        cache = self._target_cache
        hit = cache.get(key)
        if hit is None:
            if len(cache) >= CACHE_LIMIT:
                cache.clear()
            hit = cache[key] = make()
        return hit

    def encode(self, view: dict[str, Any]) -> np.ndarray:
        """The observation of ``view`` (``state.view(seat)``): a new float32 array of
        length :attr:`size`. The reference path: :meth:`observe` must equal it."""
        n, me, z, oc = self.n, view["viewer"], self.zones, self.o_card
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
        tv: list[tuple[dict[str, Any], int]] = []  # (character view, its controller slot)
        stories: list[tuple[int, int]] = []
        for fam in view["families"]:
            k = (fam["player"] - me) % n
            tv += [(ch, k) for ch in fam["characters"]]
            tv += [(g, k) for g in fam.get("guests", ())]
            if fam.get("story") is not None:
                stories.append((fam["story"]["card"], fam["player"]))
        middle = view.get("middle") or {}
        tv += [(g, n) for g in middle.get("guests", ())]
        stories += [(s["card"], -1) for s in middle.get("stories", ())]
        blocks = list(self._zero_blocks)
        for ch, owner in tv:
            is_target = target is not None and target == ch["card"]
            key = (ch["card"], owner, tuple(ch["stack"]), ch["dead"], bool(ch["live_effects"]),
                   is_target, tuple(ch["points"]), tuple(ch["icon_slots"]), ch["self_worth"])
            ones, t, block = self._cached(key, lambda ch=ch, owner=owner, it=is_target: self._entry(
                ch["card"], ch["stack"], owner, it, ch["dead"], bool(ch["live_effects"]),
                ch["points"], ch["icon_slots"], ch["self_worth"]))
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
        return self._assemble(bits, blocks, rest)

    def observe(self, state: Any, seat: int) -> np.ndarray:
        """``encode(state.view(seat))`` without building the view: the environments'
        hot path. It reads exactly what that view shows (the seat's own hand, the
        table, counts), and a test holds the two equal position by position."""
        from gloomtable.games.gloom.view import stack_facts

        n, z, oc = self.n, self.zones, self.o_card
        bits = bytearray(self.o_target)
        for c in state.hands[seat]:
            bits[oc + c * z] = 1
        for c in state.discard:
            bits[oc + c * z + 1] = 1
        for c in state.limbo:
            bits[oc + c * z + 2] = 1
        d = state.decision
        over = state.over
        target = -2
        if d.kind == "respond" and d.task is not None:
            ctx = d.task.ctx
            bits[oc + ctx.card * z + 3] = 1
            target = ctx.target
        elif d.kind == "choose_character" and not over:
            codec = state.codec
            for a in d.options:
                bits[oc + codec.chosen_card(a) * z + 5] = 1
        blocks = list(self._zero_blocks)
        controller, visible_of = state.controller, state.visible_of
        beginner = self.beginner
        cache = self._visible_cache
        fv = [0] * n  # Family Values (R-G25), summed on the way: members are the stacks' controllers
        lasting = [False] * n  # whether any live lasting effect could move a draw limit
        for c, stack in state.stacks.items():
            p = controller[c]
            owner = (p - seat) % n if p >= 0 else n
            v = stack.vis or visible_of(c)
            key = (id(v), owner, c == target)
            hit = cache.get(key)
            if hit is None or hit[0] is not v:
                _text, live, dead = stack_facts(v)
                entry = self._entry(c, stack, owner, c == target, dead,
                                    bool(live) and not beginner, v.points, v.icon_slots,
                                    v.self_worth)
                if len(cache) >= CACHE_LIMIT:
                    cache.clear()
                hit = cache[key] = (v, dead, *entry)
            for i in hit[2]:
                bits[i] = 1
            if hit[3] >= 0:
                blocks[hit[3]] = hit[4]
            if p >= 0:
                if hit[1]:
                    fv[p] += v.self_worth
                elif v.lasting_steps:
                    lasting[p] = True
        for story, p in state.stories.items():
            if p >= 0 and self.story_lasting.get(story):
                lasting[p] = True
        # Nothing lasting: the base limit (what ``draw_limit`` returns without held steps).
        limits = [state.draw_limit(q) if lasting[q] and not beginner else BASE_DRAW_LIMIT
                  for q in range(n)]
        rest = self._rest(
            seat, list(state.stories.items()), None if over else d.kind,
            None if over else d.player, state.turn_player,
            [f for f, taken in enumerate(state.family_taken) if taken < 0], over,
            max(0, 2 - state.counted_used), state.free_plays, [len(h) for h in state.hands],
            limits, state.skips, fv, len(state.draw_pile), state.turn)
        return self._assemble(bits, blocks, rest)

    @staticmethod
    def score(view: dict[str, Any], seat: int) -> float:
        """The seat's Family Value (lower is better), for the shaped reward."""
        for fam in view["families"]:
            if fam["player"] == seat:
                return float(fam["family_value"])
        return 0.0
