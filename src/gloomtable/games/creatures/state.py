"""CreaturesState: one position of a game of Crazy Creatures, advanced by actions.

The whole state is plain ints and lists of card ids (see ``__slots__``), so
``clone`` is a handful of list copies and ``snapshot`` is JSON as it stands.
Action ids are documented in :mod:`gloomtable.games.creatures.actions`.

Where the rulebook is silent we decided (and tests pin):

- Turn order is by seat, ``seat + 1`` next ("clockwise"), and the player "left
  of" seat ``s`` is ``s + 1``, so start players rotate ``s -> s + 1`` (R-C4).
- The same-number decision (R-C8) belongs to the player who played, and
  happens before anything else, also when that play emptied their hand or
  came in a final turn. It is part of their turn, not a turn of its own.
- "Any other player" includes a player whose hand is empty, even the one who
  ended the round: a forced draw during the final turns gives them a card but
  no further turn; the -3 (R-C10) goes only to hands empty when the round ends.
- Final turns (R-C9): after the closer's turn, each other player takes exactly
  one turn in seat order; playing out in a final turn does not add turns.
- "Every player in a row has passed" (R-C9): as many consecutive passes as
  there are players, with no play between them.
- The turn cap counts plays and passes over the whole game. Reaching it ends
  the game at once with ``capped=True``; the round in progress is not scored.
"""

from __future__ import annotations

import operator
from bisect import insort
from typing import TYPE_CHECKING, Any, Final

import gloomtable.games.creatures.messages as M
from gloomtable.engine import (
    TERMINAL,
    DecisionKind,
    Event,
    GameNotOverError,
    IllegalActionError,
    MalformedActionError,
    Pending,
    Result,
    Rng,
)
from gloomtable.games.creatures.actions import (
    DRAW_BASE,
    FLIP_BASE,
    MAX_PLAYERS,
    NUM_ACTIONS,
    PASS,
    PLAY_BASE,
    describe,
)
from gloomtable.games.creatures.cards import (
    COLOUR,
    COLOUR_KEYS,
    CREATURE_SET,
    FITS,
    LABEL,
    NUM_COLOURS,
    NUM_CREATURES,
    NUMBER,
)
from gloomtable.games.creatures.table import CreaturesTable

if TYPE_CHECKING:
    from gloomtable.games.creatures.view import CreaturesView

RESERVE_SIZE: Final = 8
"""Cards put face down as the Reserve each round (R-C3)."""


PLAYING: Final = DecisionKind.PLAY
SAME_NUMBER: Final = DecisionKind.SAME_NUMBER
"""Pending decision kinds (R-C5 and R-C8)."""
_DECISIONS: Final = tuple(tuple(Pending(p, kind) for p in range(MAX_PLAYERS))
                          for kind in (PLAYING, SAME_NUMBER))
_OVER: Final = Pending(TERMINAL, DecisionKind.OVER)

_FLIPS: Final = [FLIP_BASE + c for c in range(NUM_COLOURS)]


def _spans() -> tuple[tuple[int, int], ...]:
    """Per colour, the card ids ``start..end`` of its Creatures (the set lists each
    colour's Creatures together, so one slice covers a colour)."""
    spans = []
    for k in range(NUM_COLOURS):
        ids = [c for c in range(NUM_CREATURES) if COLOUR[c] == k]
        if ids != list(range(ids[0], ids[-1] + 1)):
            raise AssertionError(f"the Creatures of colour {k} are not consecutive card ids")
        spans.append((ids[0], ids[-1] + 1))
    return tuple(spans)


_SPAN: Final = _spans()
_SLICE: Final = tuple(slice(start, end) for start, end in _SPAN)
"""Per colour, the slice of ``CreaturesState.fit`` its Creatures hold (``_SPAN``)."""
# apply_legal and legal_actions write ``card + 1`` and test ``a``; _deal lays four piles
if PLAY_BASE != 1 or PASS != 0 or NUM_COLOURS != 4:
    raise AssertionError("Crazy Creatures' play ids are card + 1, pass is 0, and there are 4 colours")
_FIT: Final[tuple[tuple[tuple[tuple[bool, ...], ...], ...], ...]] = tuple(
    tuple(tuple(tuple(FITS[plus][top][NUMBER[c]] for c in range(*_SPAN[k])) for top in range(7))
          for plus in (0, 1)) for k in range(NUM_COLOURS))
"""``_FIT[colour][plus][top]``: for each Creature of that colour, in card order,
whether it fits that pile (R-C6/R-C7): the slice of ``CreaturesState.fit`` to write
when the pile or its Machine changes."""
_FRESH_FIT: Final = [f for k in range(NUM_COLOURS) for f in _FIT[k][1][0]]
"""``CreaturesState.fit`` at a deal: every pile empty, every "+" Machine up (R-C3)."""
_DEALS_AHEAD: Final = 3
"""At most this many later rounds' deals are shuffled with the first round's (``Rng.shuffle``'s
``ahead``): the game's generator draws for nothing but the deals once the start player is
drawn (R-C3, R-C4)."""
_SIGN: Final = ("-", "+")
_COLOUR: Final = COLOUR
_NUMBER: Final = NUMBER
"""The card tables the moves read, as this module's constants: a compiled build reads a
constant of its own directly, a name imported from a module it does not compile by a
lookup in the module's namespace."""

# The events of plays, passes and flips, built once: an Event is immutable, so
# every game shares these instead of building ~one per action (docs/bench.md).
_SEATS: Final = range(MAX_PLAYERS)
_PASS_EVENT: Final = [Event("pass", M.PASS, (p,), player=p) for p in _SEATS]
_PLAY_EVENT: Final = [[Event("play", M.PLAY, (p, card), player=p, card=card)
                       for card in range(NUM_CREATURES)] for p in _SEATS]
_SAME_EVENT: Final = [[Event("same_number", M.SAME_NUMBER, (p,), player=p, card=card)
                       for card in range(NUM_CREATURES)] for p in _SEATS]
_FLIP_EVENT: Final = [[[Event("flip", M.FLIP, (p, c, side), player=p, amount=c) for side in (0, 1)]
                       for c in range(NUM_COLOURS)] for p in _SEATS]
_OUT_EVENT: Final = [Event("out", M.OUT, (p,), player=p) for p in _SEATS]
_DRAW_EVENT: Final = [[[Event("draw", M.DRAW, (q, card), player=p, target=q, card=card, private_to=q,
                              public_msg=M.DRAW_HIDDEN, public_args=(p, q))
                        for card in range(NUM_CREATURES)] for q in _SEATS] for p in _SEATS]
"""``[player][target][card]``: a draw made by a same-number decision (R-C8)."""


class CreaturesState:
    """A mutable game position; only :meth:`apply` moves it forward."""

    __slots__ = (
        "_piles", "_plus", "aside", "capped", "closer", "current", "final_left", "fit", "game",
        "hands", "over", "passes", "pending", "players", "reserve", "rng", "round", "round_scores",
        "start_player", "totals", "turn_cap", "turns",
    )

    game: CreaturesTable
    players: int  # the game's, and
    turn_cap: int  # the game's: read on every turn, so kept here too
    rng: Rng
    hands: list[list[int]]  # per seat, sorted card ids
    _piles: list[list[int]]  # per colour, bottom first (``piles``)
    _plus: list[int]  # per colour: 1 = "+" Growing Machine up, 0 = "-" Minimalizer up (``plus``)
    fit: list[bool]  # per card id: does it fit its colour's pile now (kept from the two above)
    reserve: list[int]  # face down, top = last
    aside: list[int]  # out of this round, unseen
    round: int  # 0-based
    start_player: int
    current: int
    pending: bool  # the same-number decision (R-C8) is waiting for ``current``
    passes: int  # consecutive passes (R-C9)
    closer: int  # seat whose hand emptied first this round, or -1
    final_left: int  # final turns still to take once closer >= 0
    totals: list[int]
    round_scores: list[list[int]]  # per finished round: each seat's penalty, or -3
    turns: int  # plays and passes so far, for the cap
    over: bool
    capped: bool

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(cls, game: CreaturesTable, seed: int) -> CreaturesState:
        """The first round dealt; the start player is drawn first if not configured."""
        s = CreaturesState.__new__(CreaturesState)  # (not cls.__new__: mypyc cannot compile it)
        s.game = game
        s.players = n = game.players
        s.turn_cap = game.turn_cap
        s.rng = Rng(seed)
        s.start_player = game.first_player if game.first_player is not None else s.rng.below(n)
        s.round = 0
        s.totals = [0] * n
        s.round_scores = []
        s.turns = 0
        s.over = False
        s.capped = False
        s._deal(min(game.num_rounds - 1, _DEALS_AHEAD))
        return s

    def _deal(self, ahead: int = 0) -> None:
        """R-C3: Machines "+", shuffle all 48, deal, 8 to the Reserve, rest aside.
        ``ahead``: the later rounds' deals to shuffle with this one (the first deal's)."""
        deck = list(range(NUM_CREATURES))
        self.rng.shuffle(deck, ahead)
        n, h = self.players, self.game.hand_size
        hands: list[list[int]] = []
        for i in range(n):  # (a loop: a comprehension makes a function every call)
            hands.append(sorted(deck[i * h:(i + 1) * h]))
        self.hands = hands
        self.reserve = deck[n * h:n * h + RESERVE_SIZE]
        self.aside = sorted(deck[n * h + RESERVE_SIZE:])
        self._piles = [[], [], [], []]  # NUM_COLOURS
        self._plus = [1, 1, 1, 1]
        self.fit = _FRESH_FIT[:]  # what _refit works out for empty piles
        self.current = self.start_player
        self.pending = False
        self.passes = 0
        self.closer = -1
        self.final_left = 0

    # --------------------------------------------------- the piles and what fits
    @property
    def piles(self) -> list[list[int]]:
        """Per colour, its pile of Creatures, bottom first."""
        return self._piles

    @piles.setter
    def piles(self, piles: list[list[int]]) -> None:  # a table set up by hand (tests, search)
        self._piles = piles
        self._refit()

    @property
    def plus(self) -> list[int]:
        """Per colour: 1 while its "+" Machine shows, 0 while the "-" one does."""
        return self._plus

    @plus.setter
    def plus(self, plus: list[int]) -> None:
        self._plus = plus
        self._refit()

    def _refit(self) -> None:
        """``fit`` worked out afresh from the piles and the Machines."""
        if not hasattr(self, "_plus") or not hasattr(self, "_piles"):
            return  # half set up by hand: the other setter refits
        fit = self.fit = [False] * NUM_CREATURES
        for k, pile in enumerate(self._piles):
            start, end = _SPAN[k]
            fit[start:end] = _FIT[k][self._plus[k]][NUMBER[pile[-1]] if pile else 0]

    # ---------------------------------------------------------------- queries
    def current_player(self) -> int:
        return TERMINAL if self.over else self.current

    def is_over(self) -> bool:
        return self.over

    def can_play(self, card: int) -> bool:
        """R-C6/R-C7: does Creature ``card`` fit its colour's pile right now?"""
        pile = self.piles[COLOUR[card]]
        return FITS[self.plus[COLOUR[card]]][NUMBER[pile[-1]] if pile else 0][NUMBER[card]]

    def playable(self, seat: int) -> list[int]:
        """The cards of ``seat``'s hand that fit a pile now (sorted ids)."""
        fit = self.fit
        return [c for c in self.hands[seat] if fit[c]]

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        if self.pending:  # R-C8: flip any Machine, or make another player draw
            if not self.reserve:
                return _FLIPS[:]
            me = self.current
            return _FLIPS + [DRAW_BASE + q for q in range(self.players) if q != me]
        fit = self.fit
        plays = []  # a loop, not a comprehension: Python 3.11 makes a function for that
        for c in self.hands[self.current]:
            if fit[c]:
                plays.append(c + 1)  # PLAY_BASE + c
        return plays or [PASS]  # R-C5: pass only when nothing fits

    @property
    def decision(self) -> Pending:
        """Who decides what now: a ``play`` or a ``same_number`` (R-C8) decision of the
        current player, or ``over``. A property, as Gloom's decision is."""
        return _OVER if self.over else _DECISIONS[self.pending][self.current]

    def penalties(self, seat: int) -> int:
        """R-C10: the penalty points in ``seat``'s hand right now."""
        return sum(self.game.penalty[c] for c in self.hands[seat])

    # ------------------------------------------------------------------ moves
    def apply(self, action: object) -> list[Event]:
        """Check ``action`` (malformed or illegal ones raise), then take it. (``object``,
        not ``int``: a compiled build checks an argument's type on the way in, and a
        malformed action must raise MalformedActionError, not TypeError.)"""
        return self.apply_legal(self._check(action))

    def apply_legal(self, a: int) -> list[Event]:
        """Take ``a``, which the caller took from :meth:`legal_actions` of this very
        position, without checking it again (the engine protocol's trusted path)."""
        p = self.current
        if self.pending:
            return self._decide(p, a)
        if a:  # R-C5: the Creature goes on its colour's pile (inlined: the commonest move)
            card = a - 1  # PLAY_BASE
            hand = self.hands[p]
            hand.remove(card)
            k = _COLOUR[card]
            pile = self._piles[k]
            number = _NUMBER[card]
            same = _NUMBER[pile[-1]] == number if pile else False
            pile.append(card)
            self.fit[_SLICE[k]] = _FIT[k][self._plus[k]][number]
            self.passes = 0
            if same:  # R-C8: the same-number decision is part of this turn
                self.pending = True
                return [_PLAY_EVENT[p][card], _SAME_EVENT[p][card]]
            events = [_PLAY_EVENT[p][card]]
            if hand and self.closer < 0:  # the usual end of a turn, as _end_turn does it
                turns = self.turns = self.turns + 1
                if turns < self.turn_cap:
                    self.current = (p + 1) % self.players
                    return events
                self.turns -= 1  # _end_turn counts it and caps the game
        else:  # PASS
            self.passes += 1
            events = [_PASS_EVENT[p]]
        self._end_turn(p, events)
        return events

    def _check(self, action: Any) -> int:
        """Malformed (not an action at all) versus illegal (not now, and why)."""
        if type(action) is int and 0 <= action < NUM_ACTIONS:  # the common case, fast
            reason = self._illegal_reason(action)
            if reason is None:
                return action
        if isinstance(action, bool):
            raise MalformedActionError(f"action must be an integer id, got {action!r}")
        try:
            a = operator.index(action)
        except TypeError:
            raise MalformedActionError(
                f"action must be an integer id, got {type(action).__name__} {action!r}"
            ) from None
        if not 0 <= a < NUM_ACTIONS:
            raise MalformedActionError(f"action {a} is out of range 0..{NUM_ACTIONS - 1}")
        reason = self._illegal_reason(a)
        if reason is not None:
            raise IllegalActionError(a, reason, [(x, self.action_to_string(x))
                                                 for x in self.legal_actions()])
        return a

    def _illegal_reason(self, a: int) -> str | None:
        """``None`` if ``a`` is legal now, else why not (in the rulebook's words)."""
        if self.over:
            return "the game is over"
        p = self.current
        if self.pending:
            if FLIP_BASE <= a < DRAW_BASE:
                return None
            if a >= DRAW_BASE:
                target = a - DRAW_BASE
                if target >= self.players:
                    return f"there is no player {target + 1} at this table"
                if target == p:
                    return "you must make another player draw, not yourself (R-C8)"
                if not self.reserve:
                    return "the Reserve is empty, so you must flip a Machine (R-C8)"
                return None
            return ("you played the same number as the card you covered: first flip a "
                    "Machine or make another player draw (R-C8)")
        if a == PASS:
            return None if not self.playable(p) else "you must play a Creature if you can (R-C5)"
        if a >= FLIP_BASE:
            return "flips and draws are only chosen after a same-number play (R-C8)"
        card = a - PLAY_BASE
        if card not in self.hands[p]:
            return f"{LABEL[card]} (card {card}) is not in your hand"
        if not self.can_play(card):
            c = COLOUR[card]
            top = self.piles[c][-1]
            return (f"{LABEL[card]} does not fit the {COLOUR_KEYS[c]} pile: top {NUMBER[top]}, "
                    f"Machine shows {_SIGN[self.plus[c]]} (R-C6, R-C7)")
        return None

    def _decide(self, p: int, a: int) -> list[Event]:
        """R-C8: resolve the same-number decision, then the turn ends. A flip event
        carries the Machine's colour index in ``amount``; a draw event is private
        to the drawer (others read only who drew)."""
        self.pending = False
        if a < DRAW_BASE:
            c = a - FLIP_BASE
            plus = self._plus[c] = self._plus[c] ^ 1
            pile = self._piles[c]
            self.fit[_SLICE[c]] = _FIT[c][plus][_NUMBER[pile[-1]] if pile else 0]
            flip = _FLIP_EVENT[p][c][plus]
            # a variant's Machines have their own names: its flip line is told with its set
            events = [flip if self.game.card_set is CREATURE_SET else flip._replace(game=self.game)]
        else:
            target = a - DRAW_BASE
            card = self.reserve.pop()
            insort(self.hands[target], card)
            events = [_DRAW_EVENT[p][target][card]]
        self._end_turn(p, events)
        return events

    def _end_turn(self, p: int, events: list[Event]) -> None:
        """R-C9: hand out (final turns), all passed, or the next player's turn."""
        self.turns += 1
        n = self.players
        if self.closer < 0:
            if not self.hands[p]:
                self.closer = p
                self.final_left = n - 1
                events.append(_OUT_EVENT[p])
            elif self.passes >= n:
                self._end_round(events, "passed")
                self._check_cap(events)
                return
        else:
            self.final_left -= 1
            if self.final_left == 0:
                self._end_round(events, "final")
                self._check_cap(events)
                return
        self.current = (p + 1) % n
        self._check_cap(events)

    def _end_round(self, events: list[Event], why: str) -> None:
        """R-C10 scoring, then the next round (R-C3, R-C4) or the game's end (R-C11)."""
        scores = []
        penalty = self.game.penalty
        for q, hand in enumerate(self.hands):
            if hand:
                pen = sum(map(penalty.__getitem__, hand))
                self.totals[q] += pen
                scores.append(pen)
            else:
                self.totals[q] = max(0, self.totals[q] - 3)
                scores.append(-3)
        self.round_scores.append(scores)
        shown = (tuple(scores), tuple(self.totals))
        events.append(Event("round_end", M.ROUND_END, (self.round + 1, why, shown)))
        self.round += 1
        if self.round >= self.game.num_rounds:
            self.over = True
            res = self.result()
            events.append(Event("game_end", M.GAME_END, (res.winners, min(self.totals))))
            return
        self.start_player = (self.start_player + 1) % self.players
        self._deal()
        events.append(Event("round_start", M.ROUND_START, (self.round + 1, self.start_player),
                            player=self.start_player))

    def _check_cap(self, events: list[Event]) -> None:
        if not self.over and self.turns >= self.turn_cap:
            self.over = True
            self.capped = True
            events.append(Event("capped", M.CAPPED, (self.turn_cap, self.round + 1)))

    # ---------------------------------------------------------------- results
    def result(self) -> Result:
        """R-C11: the lowest total wins; ties share the win."""
        if not self.over:
            raise GameNotOverError("the game is not over yet: no result")
        best = min(self.totals)
        return Result(
            scores=tuple(self.totals),
            winners=tuple(q for q, t in enumerate(self.totals) if t == best),
            capped=self.capped,
            details={"round_scores": [list(r) for r in self.round_scores],
                     "rounds": len(self.round_scores), "turns": self.turns},
        )

    def action_to_string(self, action: int) -> str:
        return describe(action)

    # ------------------------------------------------------------ the outside
    def view(self, player: int | None) -> CreaturesView:
        from gloomtable.games.creatures.view import make_view

        return make_view(self, player)

    def render(self, player: int | None) -> str:
        from gloomtable.games.creatures.view import render

        return render(self, player)

    def clone(self) -> CreaturesState:
        s = CreaturesState.__new__(CreaturesState)
        s.game = self.game
        s.players = self.players
        s.turn_cap = self.turn_cap
        s.rng = Rng(self.rng.state)
        s.hands = [h[:] for h in self.hands]
        s._piles = [p[:] for p in self._piles]
        s._plus = self._plus[:]
        s.fit = self.fit[:]
        s.reserve = self.reserve[:]
        s.aside = self.aside[:]
        s.round = self.round
        s.start_player = self.start_player
        s.current = self.current
        s.pending = self.pending
        s.passes = self.passes
        s.closer = self.closer
        s.final_left = self.final_left
        s.totals = self.totals[:]
        s.round_scores = self.round_scores[:]  # inner lists are never changed
        s.turns = self.turns
        s.over = self.over
        s.capped = self.capped
        return s

    def snapshot(self) -> dict[str, Any]:
        """Everything, hidden cards and the RNG included (for replay identity)."""
        return {
            "game": "creatures", "config": self.game.config_dict(), "rng": self.rng.state,
            "round": self.round, "start_player": self.start_player, "current": self.current,
            "pending": self.pending, "passes": self.passes, "closer": self.closer,
            "final_left": self.final_left, "hands": [h[:] for h in self.hands],
            "piles": [p[:] for p in self.piles], "plus": self.plus[:],
            "reserve": self.reserve[:], "aside": self.aside[:], "totals": self.totals[:],
            "round_scores": [r[:] for r in self.round_scores], "turns": self.turns,
            "over": self.over, "capped": self.capped,
        }

    def __repr__(self) -> str:
        return (f"<CreaturesState round {self.round + 1}/{self.game.num_rounds} "
                f"player {self.current + 1} {self.decision.kind} turns={self.turns}>")
