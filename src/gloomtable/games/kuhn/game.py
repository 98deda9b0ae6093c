"""Kuhn poker's rules (locale/<lang>/rules/kuhn.md says them for players).

Three cards, Jack < Queen < King. Each hand both players ante a chip and are dealt one
card; the third stays face down. The first player checks or bets a chip; after a check
the other checks (a showdown) or bets; after a bet the other folds or calls (a
showdown), and a check then a bet lets the first player fold or call. A fold gives the
pot to the other player; at a showdown the higher card takes it. The first player
alternates hand by hand; after ``hands`` hands the player ahead on chips wins (even:
both share the win).

Actions: 0 (pass: check, or fold facing a bet) and 1 (bet: bet, or call facing one)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from gloomtable.engine import (
    TERMINAL,
    ConfigError,
    DecisionKind,
    Event,
    GameInfo,
    GameNotOverError,
    IllegalActionError,
    MalformedActionError,
    Pending,
    Result,
    Rng,
)
from gloomtable.engine.protocol import win_share_info
from gloomtable.games.kuhn import messages as m
from gloomtable.games.kuhn.view import RANKS, KuhnView

PASS, BET = 0, 1
NUM_ACTIONS = 2
MAX_HANDS = 1000
"""The most hands a game may ask for (a config is plain data from a table's creator)."""


@dataclass(frozen=True, slots=True)
class KuhnGame:
    """Kuhn poker for two players over ``hands`` hands."""

    name: ClassVar[str] = "kuhn"
    num_players: ClassVar[int] = 2
    num_distinct_actions: ClassVar[int] = NUM_ACTIONS
    hands: int = 1
    first_player: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.hands <= MAX_HANDS:
            raise ConfigError(f"hands must be 1..{MAX_HANDS}, got {self.hands}")
        if self.first_player not in (0, 1):
            raise ConfigError(f"first_player must be 0 or 1, got {self.first_player}")

    @property
    def info(self) -> GameInfo:
        return win_share_info(short_name=self.name, long_name="Kuhn poker", min_num_players=2,
                              max_num_players=2, num_players=2, num_distinct_actions=NUM_ACTIONS,
                              max_game_length=3 * self.hands)

    def config_dict(self) -> dict[str, Any]:
        return {"players": 2, "hands": self.hands, "first_player": self.first_player}

    def new_initial_state(self, seed: int) -> KuhnState:
        state = KuhnState(self, Rng(seed))
        state.deal()
        return state


class KuhnState:
    """One position of a game of Kuhn poker."""

    def __init__(self, game: KuhnGame, rng: Rng) -> None:
        self.game = game
        self.rng = rng
        self.cards = [0, 1, 2]
        """Seat 0's card, seat 1's card, the card nobody sees (this hand)."""
        self.hand_number = 0
        self.history: list[int] = []
        self.bets = [1, 1]
        self.chips = [0, 0]
        self.last_shown: list[int] | None = None
        self.over = False
        self.dealt: list[Event] = []
        """The events of the latest deal, told with the action that ended the hand."""

    # --- the rules ------------------------------------------------------------------

    def first(self) -> int:
        """Who acts first this hand: the configured seat, then turn about."""
        return (self.game.first_player + self.hand_number - 1) % 2

    def deal(self) -> None:
        self.hand_number += 1
        self.rng.shuffle(self.cards)
        self.history = []
        self.bets = [1, 1]
        self.dealt = [Event("deal", m.DEALT, (self.hand_number, p, self.cards[p]), player=p,
                            card=self.cards[p], private_to=p, public_msg=m.DEALT_HIDDEN,
                            public_args=(self.hand_number, p), game=self.game) for p in (0, 1)]

    @property
    def decision(self) -> Pending:
        if self.over:
            return Pending(TERMINAL, DecisionKind.OVER)
        return Pending(self.current_player(), DecisionKind.PLAY)

    def current_player(self) -> int:
        return TERMINAL if self.over else (self.first() + len(self.history)) % 2

    def legal_actions(self) -> list[int]:
        return [] if self.over else [PASS, BET]

    def facing_bet(self) -> bool:
        return BET in self.history

    def apply(self, action: int) -> list[Event]:
        if not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
            raise MalformedActionError(f"action {action!r} is not 0 (pass) or 1 (bet)")
        if self.over:
            raise IllegalActionError(action, "the game is over", [])
        return self.apply_legal(action)

    def apply_legal(self, action: int) -> list[Event]:
        p = self.current_player()
        q = 1 - p
        facing = self.facing_bet()
        self.history.append(action)
        if action == BET:
            self.bets[p] += 1
            events = [Event("call" if facing else "bet", m.CALL if facing else m.BET, (p,), player=p)]
            if facing:
                return events + self._showdown()
            return events
        if facing:  # a fold: the bettor takes the pot
            return [Event("fold", m.FOLD, (p,), player=p), *self._settle(q)]
        events = [Event("check", m.CHECK, (p,), player=p)]
        if len(self.history) == 2:  # check, check
            return events + self._showdown()
        return events

    def _showdown(self) -> list[Event]:
        self.last_shown = self.cards[:2]
        winner = 0 if self.cards[0] > self.cards[1] else 1
        shows = [Event("show", m.SHOW, (p, self.cards[p]), player=p, card=self.cards[p], game=self.game)
                 for p in (0, 1)]
        return shows + self._settle(winner)

    def _settle(self, winner: int) -> list[Event]:
        pot = sum(self.bets)
        loser = 1 - winner
        self.chips[winner] += self.bets[loser]
        self.chips[loser] -= self.bets[loser]
        events = [Event("win", m.WIN, (winner, pot), player=winner, amount=pot)]
        if self.hand_number >= self.game.hands:
            self.over = True
            lead = abs(self.chips[0] - self.chips[1])
            if lead == 0:
                events.append(Event("over", m.GAME_TIED))
            else:
                events.append(Event("over", m.GAME_END, (self._ahead()[0], lead)))
            return events
        self.deal()
        return events + self.dealt

    def _ahead(self) -> list[int]:
        best = max(self.chips)
        return [p for p in (0, 1) if self.chips[p] == best]

    # --- what the clients read --------------------------------------------------------

    def view(self, player: int | None) -> KuhnView:
        out: KuhnView = {
            "game": self.game.name, "players": 2, "viewer": player,
            "card": None if player is None or self.over else self.cards[player],
            "current_player": self.current_player(),
            "decision": str(self.decision.kind), "hand_number": self.hand_number,
            "hands": self.game.hands, "first_player": self.first(), "history": list(self.history),
            "bets": list(self.bets), "chips": list(self.chips),
            "last_shown": None if self.last_shown is None else list(self.last_shown),
            "over": self.over}
        if self.over:
            out["result"] = self.result().to_dict()
        return out

    def is_over(self) -> bool:
        return self.over

    def result(self) -> Result:
        if not self.over:
            raise GameNotOverError("the game is not over")
        return Result(scores=tuple(self.chips), winners=tuple(self._ahead()))

    def action_to_string(self, action: int) -> str:
        facing = self.facing_bet()
        if action == BET:
            return "call" if facing else "bet"
        return "fold" if facing else "check"

    def clone(self) -> KuhnState:
        other = KuhnState(self.game, Rng(self.rng.state))
        other.cards = list(self.cards)
        other.hand_number = self.hand_number
        other.history = list(self.history)
        other.bets = list(self.bets)
        other.chips = list(self.chips)
        other.last_shown = None if self.last_shown is None else list(self.last_shown)
        other.over = self.over
        other.dealt = list(self.dealt)
        return other

    def snapshot(self) -> dict[str, Any]:
        return {"rng": self.rng.state, "cards": list(self.cards), "hand_number": self.hand_number,
                "history": list(self.history), "bets": list(self.bets), "chips": list(self.chips),
                "last_shown": self.last_shown, "over": self.over}

    def render(self, player: int | None) -> str:
        v = self.view(player)
        lines = [f"Kuhn poker, hand {v['hand_number']} of {v['hands']}; chips {v['chips'][0]:+d} / "
                 f"{v['chips'][1]:+d}; pot {sum(v['bets'])}"]
        if v["card"] is not None:
            lines.append(f"Your card: {RANKS[v['card']]}")
        if v["history"]:
            lines.append("This hand: " + ", ".join("bet" if a == BET else "check" for a in v["history"]))
        return "\n".join(lines)

    def resample(self, player: int, seed: int) -> KuhnState:
        """A state ``player`` cannot tell from this one: the two cards it does not see
        (the other hand and the face-down card) dealt anew from ``seed``, and a fresh
        generator, so nothing hidden survives."""
        other = self.clone()
        rng = Rng(seed)
        hidden = [c for c in self.cards if c != self.cards[player]]
        rng.shuffle(hidden)
        other.cards[1 - player], other.cards[2] = hidden
        other.rng = Rng(rng.below(1 << 62) + 1)
        return other


def make(name: str, config: dict[str, Any], decks: object = None) -> KuhnGame:
    """The registry's factory: ``{"players": 2, "hands": n, "first_player": 0|1}``."""
    extra = set(config) - {"players", "hands", "first_player", "sets", "turn_cap"}
    if extra:
        raise ConfigError(f"Kuhn poker takes no option {', '.join(sorted(extra))}")
    if config.get("players", 2) != 2:
        raise ConfigError(f"Kuhn poker is for 2 players, not {config['players']}")
    if config.get("sets"):
        raise ConfigError("Kuhn poker plays no card sets")
    return KuhnGame(hands=int(config.get("hands", 1)), first_player=int(config.get("first_player", 0)))
