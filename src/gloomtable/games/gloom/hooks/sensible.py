"""A sensible Gloom player, from the view alone: it sinks its own Characters,
lifts its opponents', kills its own when they are low enough and spares
opponents' low Characters, and cancels Deaths that would help an opponent. On a
locked table (every Modifier on a stack) it plays its Deaths and stops cancelling,
as the medium bot does, so that games finish (docs/balance.md).

It is the yardstick for game length in docs/balance.md; the bots issue grows
stronger players on the same interface."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gloomtable.engine import DecisionKind, Rng
from gloomtable.games.gloom.actions import Codec, Kind
from gloomtable.games.gloom.cards import Card, CardType, visible
from gloomtable.games.gloom.game import GloomGame
from gloomtable.games.gloom.hooks.heuristic import locked_death, table_locked
from gloomtable.games.gloom.view import CharacterView, GloomView, gloom_view


class GloomSensibleBot:
    name = "sensible"
    uses_view = True

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)
        self._game: GloomGame | None = None

    def _setup(self, view: GloomView) -> tuple[GloomGame, Codec]:
        if self._game is None:
            self._game = GloomGame.from_dict(view["config"])
        return self._game, self._game.codec

    def choose(self, view: Mapping[str, Any], legal: list[int]) -> int:
        return self._choose(gloom_view(view), legal)

    def _choose(self, view: GloomView, legal: list[int]) -> int:
        game, codec = self._setup(view)
        cards = game.deck.cards
        me = view["viewer"]
        assert me is not None, "a bot decides for a seat"
        chars = {ch["card"]: ch for fam in view["families"] for ch in fam["characters"]}
        guests = [g for fam in view["families"] for g in fam["guests"]]
        for guest in [*guests, *view["middle"]["guests"]]:  # Gloomier
            chars.setdefault(guest["card"], guest)
        kind: str = view["decision"]["kind"] if view["decision"] else ""
        locked = table_locked(view, chars.values(), cards)
        best, best_score = legal[0], float("-inf")
        for a in legal:
            score = self._score(a, kind, view, me, chars, cards, codec, locked) + self.rng.below(100) / 1000
            if score > best_score:
                best, best_score = a, score
        return best

    def _score(self, a: int, kind: str, view: GloomView, me: int, chars: dict[int, CharacterView],
               cards: tuple[Card, ...], codec: Codec, locked: bool) -> float:
        dec = codec.decode(a)
        if kind == DecisionKind.RESPOND and locked:  # a cancelled play only keeps a locked table going
            return -5.0 if dec.kind is Kind.RESPOND else 0.0
        if kind == DecisionKind.RESPOND:
            playing = view["playing"]
            target = None if playing is None else playing["target"]
            if dec.kind is Kind.RESPOND and target is not None:
                # Cancel what helps an opponent: their Death, or a misfortune on their Character.
                return 5.0 if chars[target]["controller"] != me else -5.0
            if dec.kind is Kind.RESPOND:
                return 1.0 if playing is None or playing["player"] != me else -5.0
            return 0.0
        if kind == DecisionKind.DISCARD and dec.kind is Kind.CHOOSE_CARD:
            return -self._card_worth(cards[dec.card])
        if dec.kind is Kind.PLAY:
            card, ch = cards[dec.card], chars[dec.target]
            stack = [cards[i] for i in ch["stack"]]
            before: int = ch["self_worth"]
            after = visible([*stack, card]).self_worth
            mine = ch["controller"] == me
            if card.type is CardType.UNTIMELY_DEATH:
                value = self._death_score(view, me, ch, after, mine)
                return locked_death(value) if locked else value
            delta = after - before
            return (-delta if mine else 0.7 * delta) / 5 + (0.5 if card.effects else 0)
        if dec.kind is Kind.PLAY_EVENT:
            return 2.5 if cards[dec.card].effects_when("immediate") else -1.0
        if dec.kind is Kind.DISCARD_HAND:
            worth = [self._card_worth(cards[c]) for c in view["hand"] or ()]
            if view["draw_pile"] == 0 and len(view["discard"]) < 5:
                return 0.5  # the table is stuck: recycle cards through the discard pile
            return 0.5 if max(worth, default=0) < 1 else -3.0
        if dec.kind is Kind.DISCARD_ONE:
            return 0.2 - self._card_worth(cards[dec.card]) / 5
        return 0.0

    def _death_score(self, view: GloomView, me: int, ch: CharacterView, after: int,
                     mine: bool) -> float:
        fam = next((f for f in view["families"] if f["player"] == ch["controller"]), None)
        if fam is None:  # a Guest nobody controls
            return -1.0
        living = [c for c in fam["characters"] if not c["dead"]]
        ends = len(living) == 1
        values = [f["family_value"] for f in view["families"]]
        values[ch["controller"]] += after
        if ends:
            return 50.0 if values[me] == min(values) else -50.0
        if mine:
            # Low enough, or the cards are running out: time to bury them.
            late = 2.0 if view["draw_pile"] < 20 else 0.0
            return (-after / 3 if after <= -15 else -after / 10 - 1) + late
        return after / 5 - 1

    @staticmethod
    def _card_worth(card: Card) -> float:
        pts = sum(abs(p) for p in card.points if p is not None) / 5
        return pts + (1.0 if card.effects else 0.0) + (3 if card.type is CardType.UNTIMELY_DEATH else 0)
