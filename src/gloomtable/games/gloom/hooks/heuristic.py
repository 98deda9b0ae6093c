"""The ``medium`` Gloom player: a sensible person's judgement, from the view alone.

Every legal action gets a score; the best one is played (the seeded RNG breaks
ties). What it weighs:

- *Modifiers*: the change in a Character's Self-Worth as the cardinal rule
  shows it (covered points count, not printed ones). Sinking its own Characters
  is good, lifting opponents' nearly as good; the reverse is bad. Cards with an
  immediate effect and icons that our later cards can use add a little.
- *Untimely Deaths*: its own Characters die when their Self-Worth is low
  enough, or sooner when the draw pile is running out; opponents' Characters
  are killed while they are still high (their value is banked cheaply). A Death
  that ends the game is played only when it wins it: it races to the end when
  ahead and delays when behind.
- *Responses* are kept for what matters: a Death or a big swing that helps an
  opponent; small cancellations are not worth the card.
- *A stuck hand*: when no card in hand can be played, it discards (the whole
  hand, or in the 1st edition one card) rather than pass, so the hand refills
  at the draw; two players each holding only Deaths nobody can take used to
  pass until the turn cap.
- *A locked table*: once every Modifier lies on a stack, Self-Worth can change
  only through Events, so the game ends only through Deaths. Holding Deaths back
  then stalls the table for good (most 5-player stalls were exactly this:
  everyone holding Deaths that would hand someone else the win). On a locked
  table the bot plays any Death it can (its own first, then the opponents' it
  least minds banking, ending the game last and only then if it wins or can do
  no better) and stops cancelling plays, so the game finishes.
- *Effect choices*: harm goes to the leader (the opponent with the lowest
  projected Family Value); a Modifier is removed or moved where it helps most.
- *Gloomier*: Guests and other cards played on a Character are weighed like
  Modifiers by the Self-Worth they show; unknown kinds of card or decision get
  a neutral score, so new keys in the view never break it.

:meth:`GloomHeuristicBot.rank` orders legal actions best first; the ``hard``
bot searches only among the first few of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gloomtable.bots.determinize import game_for_view
from gloomtable.engine import DecisionKind, Rng
from gloomtable.games.gloom.actions import Kind
from gloomtable.games.gloom.cards import Card, CardType, visible
from gloomtable.games.gloom.view import CharacterView, GloomView, gloom_view

OWN_DEATH_AT = -15
"""Self-Worth at or below which burying one's own Character is clearly right."""
LIFT_WEIGHT = 0.8
"""Lifting an opponent's Character, against sinking one's own."""
RESPOND_MIN = 8
"""Smallest Self-Worth swing worth spending a response on."""
HARMFUL_CHOICES = (DecisionKind.STEAL_FROM, DecisionKind.SWAP_HANDS_WITH, DecisionKind.SKIP_TURN)
LOCKED_DEATH = 4.5
"""On a locked table, added to every Death so it beats Events (2.0) and passing."""
LONG_GAME_ROUNDS = 30
"""Rounds after which a table whose piles hold no Modifier counts as locked: a
Modifier may still wander between a hand and a stack (Return to Sender), but a
game this long (the median is 8 to 9 rounds) is not going anywhere by waiting."""


def table_locked(view: GloomView, chars: Iterable[CharacterView], cards: tuple[Card, ...]) -> bool:
    """Every Modifier of the deck lies on some stack (nothing but Events can change a
    Self-Worth any more, and only Deaths can end the game), or the game has gone on
    very long and no Modifier is left to draw. ``chars``: the views of every stack."""
    placed = {i for ch in chars for i in ch["stack"]}
    mods = [c.index for c in cards if c.type is CardType.MODIFIER]
    if all(m in placed for m in mods):
        return True
    if view["round"] < LONG_GAME_ROUNDS or view["draw_pile"]:
        return False
    discard = set(view["discard"])
    return not any(m in discard for m in mods)


def locked_death(value: float) -> float:
    """A Death's worth on a locked table: above any Event and passing whatever it
    costs (better any Death than a table that never ends), still ranked by ``value``."""
    if value <= 0:
        return LOCKED_DEATH + max(-2.0, min(0.0, value / 30))  # still above 2.0
    return value + LOCKED_DEATH


class GloomHeuristicBot:
    name = "heuristic"
    uses_view = True

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, view: Mapping[str, Any], legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        scores = self.scores(view, legal)
        best = max(scores)
        ties = [a for a, s in zip(legal, scores, strict=True) if s >= best - 1e-9]
        return ties[0] if len(ties) == 1 else ties[self.rng.below(len(ties))]

    def rank(self, view: Mapping[str, Any], legal: list[int]) -> list[int]:
        """Legal actions, best first (ties in legal order: deterministic)."""
        scores = self.scores(view, legal)
        order = sorted(range(len(legal)), key=lambda i: (-scores[i], i))
        return [legal[i] for i in order]

    # --- scoring ---------------------------------------------------------------

    def scores(self, view: Mapping[str, Any], legal: list[int]) -> list[float]:
        t = _Table(gloom_view(view))
        t.stuck_hand = t.kind == DecisionKind.PLAY and not any(
            t.codec.decode(a).kind in (Kind.PLAY, Kind.PLAY_EVENT, Kind.CLAIM_STORY) for a in legal)
        return [t.score(a) for a in legal]


class _Table:
    """One decision's reading of the view."""

    def __init__(self, view: GloomView) -> None:
        game = game_for_view(view)
        self.view = view
        self.codec = game.codec
        self.cards: tuple[Card, ...] = game.deck.cards
        me = view["viewer"]
        assert me is not None, "a bot decides for a seat"
        self.me: int = me
        self.chars: dict[int, CharacterView] = {ch["card"]: ch for fam in view["families"]
                                                for ch in fam["characters"]}
        guests = [g for fam in view["families"] for g in fam["guests"]]
        for guest in [*guests, *view["middle"]["guests"]]:  # Gloomier
            self.chars.setdefault(guest["card"], guest)
        decision = view["decision"]
        self.kind: str = "" if decision is None else decision["kind"]
        self.values = self._projected()
        others = [p for p in range(len(self.values)) if p != self.me]
        self.leader = min(others, key=lambda p: (self.values[p], p)) if others else self.me
        self.ahead = all(self.values[self.me] < self.values[p] for p in others)
        self.late = view["draw_pile"] < 15
        self.locked = table_locked(self.view, self.chars.values(), game.deck.cards)
        self.stuck_hand = False
        """No card in hand can be played now: passing only waits for a change that,
        if every hand is stuck alike, never comes; a discard refills the hand."""

    def _projected(self) -> list[float]:
        n = self.view["players"]
        vals = [0.0] * n
        for fam in self.view["families"]:
            p = fam["player"]
            if 0 <= p < n:
                living = sum(min(0, c["self_worth"]) for c in fam["characters"] if not c["dead"])
                vals[p] = fam["family_value"] + 0.6 * living
        return vals

    def worth_after(self, char: int, extra: Card) -> tuple[int, int]:
        ch = self.chars[char]
        stack = [self.cards[i] for i in ch["stack"]]
        return ch["self_worth"], visible([*stack, extra]).self_worth

    def mine(self, char: int) -> bool:
        owner = self.chars[char]["controller"]
        return owner == self.me

    def score(self, a: int) -> float:
        dec = self.codec.decode(a)
        if self.kind == DecisionKind.RESPOND:
            return self._respond(dec.kind)
        if dec.kind is Kind.PLAY and dec.target in self.chars:
            card = self.cards[dec.card]
            if card.type is CardType.UNTIMELY_DEATH:
                return self._death(dec.card, dec.target)
            return self._modifier(card, dec.target)
        if dec.kind is Kind.PLAY_EVENT:
            card = self.cards[dec.card]
            return 2.0 if card.effects_when("immediate") else 0.3
        if dec.kind is Kind.CHOOSE_PLAYER:
            q = dec.index
            if self.kind in HARMFUL_CHOICES:
                return 1.0 if q == self.leader else 0.0
            return 0.0
        if dec.kind is Kind.CHOOSE_CARD:
            return self._choose_card(dec.card)
        if dec.kind is Kind.DISCARD_HAND:
            hand = [self._card_worth(self.cards[c]) for c in self.view["hand"] or ()]
            if self.stuck_hand and (self.view["draw_pile"] or self.view["discard"]):
                return 0.5
            if self.view["draw_pile"] == 0 and len(self.view["discard"]) < 5:
                return 0.5
            return 0.4 if max(hand, default=0) < 1.2 else -3.0
        if dec.kind is Kind.DISCARD_ONE:
            if self.stuck_hand:  # 1st edition: let the least useful card go
                return 0.5 - self._card_worth(self.cards[dec.card]) / 50
            return 0.2 - self._card_worth(self.cards[dec.card]) / 5
        if dec.kind is Kind.CHOOSE_FAMILY:
            return 0.0
        return 0.0  # pass, and anything new

    def _modifier(self, card: Card, target: int) -> float:
        before, after = self.worth_after(target, card)
        delta = after - before
        owner = self.chars[target]["controller"]
        value: float
        if owner == self.me:
            value = -delta
        elif owner < 0:
            value = 0.0
        else:
            value = LIFT_WEIGHT * delta
            if owner == self.leader:
                value *= 1.15
        if card.effects_when("immediate"):
            value += 1.5
        return value / 5

    def _death(self, card: int, target: int) -> float:
        value = self._death_value(card, target)
        return locked_death(value) if self.locked else value

    def _death_value(self, card: int, target: int) -> float:
        _, after = self.worth_after(target, self.cards[card])
        owner = self.chars[target]["controller"]
        if owner < 0:
            return -1.0
        fam = [c for c in self.chars.values() if c["controller"] == owner]
        living = [c for c in fam if not c["dead"]]
        if len(living) == 1:  # this Death ends the game (R-G24)
            final = [0.0] * len(self.values)
            for f in self.view["families"]:
                final[f["player"]] = f["family_value"]
            final[owner] += after
            best = min(final)
            if final[self.me] == best:
                return 60.0 if final.count(best) == 1 else 10.0
            return -60.0
        if owner == self.me:
            late = 2.0 if self.late else 0.0
            if after <= OWN_DEATH_AT:
                return 4.0 - after / 5 + late
            return -after / 10 - 1.0 + late + (1.0 if self.ahead and after < -5 else 0.0)
        # An opponent's Character, banked while still high.
        return (after + 8) / 6 - (0.5 if self.ahead else 0.0)

    def _respond(self, kind: Kind) -> float:
        playing = self.view["playing"]
        if kind is not Kind.RESPOND:
            return 0.0
        if self.locked:  # a cancelled play only keeps a locked table going
            return -1.0
        if playing is None:
            return -1.0
        card, target = self.cards[playing["card"]], playing["target"]
        if target is None or target not in self.chars:
            return 1.0 if playing["player"] != self.me and card.effects else -2.0
        mine = self.mine(target)
        if card.type is CardType.UNTIMELY_DEATH:
            _, after = self.worth_after(target, card)
            # Their Death banks their value: cancel it if it is a big one.
            return (3.0 + abs(after) / 10) if not mine and after <= -10 else -2.0
        before, after = self.worth_after(target, card)
        delta = after - before
        harm = delta if mine else -delta  # positive: this play hurts us
        return 2.0 + harm / 10 if harm >= RESPOND_MIN else -2.0

    def _choose_card(self, c: int) -> float:
        card = self.cards[c]
        if self.kind == DecisionKind.DISCARD:
            return -self._card_worth(card)
        if c in self.chars:  # a Character: its top Modifier moves or goes
            ch = self.chars[c]
            stack = [self.cards[i] for i in ch["stack"]]
            if self.kind in (DecisionKind.REMOVE_MODIFIER, DecisionKind.RETURN_MODIFIER,
                             DecisionKind.MOVE_MODIFIER_FROM) and len(stack) > 1:
                worth: int = ch["self_worth"]
                delta = visible(stack[:-1]).self_worth - worth
                owner = ch["controller"]
                return -delta if owner == self.me else delta
            if self.kind == DecisionKind.REVIVE:
                return 1.0 if ch["controller"] != self.me else -1.0
            if self.kind == DecisionKind.MOVE_MODIFIER_TO:
                return 1.0 if ch["controller"] == self.me else -1.0
        return 0.0

    @staticmethod
    def _card_worth(card: Card) -> float:
        pts = sum(abs(p) for p in card.points if p is not None) / 5
        return pts + (1.0 if card.effects else 0.0) + (3 if card.type is CardType.UNTIMELY_DEATH else 0)
