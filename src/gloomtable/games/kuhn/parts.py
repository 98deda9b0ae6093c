"""Every part the layers above ask of Kuhn poker, written against the Protocols of
``engine/hooks.py`` and nothing else: bots, sampled states for search, the RL encoder,
the page's choices and the texts in every language. ``entry.py`` names them."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from gloomtable.engine import Game, Rng, State
from gloomtable.engine.hooks import Bot, Sampler, Translating, View
from gloomtable.games.kuhn.game import BET, PASS, KuhnGame, KuhnState
from gloomtable.games.kuhn.view import KuhnView, kuhn_view


def N_(message: str) -> str:
    """Marks a text for message extraction; translated where it is shown."""
    return message


JACK, QUEEN, KING = 0, 1, 2

# --- bots -------------------------------------------------------------------------------


class KuhnBot:
    """A Kuhn poker player of one level, from its view only.

    ``medium``: always bets and calls with the King, folds the Jack to a bet and bluffs
    with it a third of the time, checks the Queen and calls a bet with it a third of the
    time. ``hard``: one of the game's equilibrium strategies (Kuhn, 1950; here the one
    that bets the Jack first a third of the time). ``easy``: ``medium`` with a random
    move three times in ten."""

    uses_view = True
    quick = True
    """A look at one card and the bets (a server asks it on the event loop)."""

    def __init__(self, level: str, seed: int) -> None:
        self.name = level
        self.rng = Rng(seed)

    def _chance(self, numerator: int, denominator: int) -> bool:
        return self.rng.below(denominator) < numerator

    def choose(self, view: View, legal: list[int]) -> int:
        v = kuhn_view(view)
        if self.name == "easy" and self._chance(3, 10):
            return legal[self.rng.below(len(legal))]
        card, history = v["card"], v["history"]
        if card is None:
            return legal[0]
        if self.name == "hard":
            return BET if self._chance(*_equilibrium(card, history)) else PASS
        facing = BET in history
        if card == KING:
            return BET
        if card == QUEEN:
            return BET if facing and self._chance(1, 3) else PASS
        return PASS if facing else (BET if self._chance(1, 3) else PASS)


def _equilibrium(card: int, history: list[int]) -> tuple[int, int]:
    """The chance (numerator, denominator) of betting or calling, by the card and the
    hand so far, in the equilibrium with alpha = 1/3."""
    if not history:  # first to act
        return {JACK: (1, 3), QUEEN: (0, 1), KING: (1, 1)}[card]
    if history == [PASS, BET]:  # the first player, facing a bet after checking
        return {JACK: (0, 1), QUEEN: (2, 3), KING: (1, 1)}[card]
    if history == [BET]:  # the second player, facing a bet
        return {JACK: (0, 1), QUEEN: (1, 3), KING: (1, 1)}[card]
    return {JACK: (1, 3), QUEEN: (0, 1), KING: (1, 1)}[card]  # the second, after a check


def bots(level: str, seed: int) -> Bot | None:
    """The registry's ``bots``: easy, medium and hard (``random`` is every game's own)."""
    return KuhnBot(level, seed) if level in ("easy", "medium", "hard") else None


# --- sampled states for search ----------------------------------------------------------


class KuhnDeterminizer:
    """States a seat cannot tell from the real one: the position its view shows, and
    the cards it does not see dealt by :meth:`KuhnState.resample`, the one way this game
    deals hidden cards anew (a bot's search and OpenSpiel's ``resample_from_infostate``)."""

    def config(self, view: View) -> dict[str, Any]:
        v = kuhn_view(view)
        first = (v["first_player"] - (v["hand_number"] - 1)) % 2
        return {"players": 2, "hands": v["hands"], "first_player": first}

    def sampler(self, view: View) -> Sampler | None:
        v = kuhn_view(view)
        me = v["viewer"]
        if v["over"] or me is None or v["current_player"] != me or v["card"] is None:
            return None
        c = self.config(v)
        state = KuhnGame(hands=c["hands"], first_player=c["first_player"]).new_initial_state(0)
        state.hand_number = v["hand_number"]
        state.history = list(v["history"])
        state.bets = list(v["bets"])
        state.chips = list(v["chips"])
        state.last_shown = None if v["last_shown"] is None else list(v["last_shown"])
        rest = [c for c in (JACK, QUEEN, KING) if c != v["card"]]
        state.cards = [0, 0, 0]
        state.cards[me], state.cards[1 - me], state.cards[2] = v["card"], rest[0], rest[1]
        state.dealt = []

        def sample(seed: int) -> State:
            return state.resample(me, seed)

        return sample


    def resample(self, state: State, player: int, seed: int) -> State:
        if not isinstance(state, KuhnState):
            raise TypeError(f"not a Kuhn poker state: {type(state).__name__}")
        return state.resample(player, seed)


def narrator(view: View, action: int, rng: Rng) -> str | None:
    """Kuhn poker's bots tell no stories about their plays."""
    return None


# --- the RL observation -----------------------------------------------------------------


class KuhnEncoder:
    """A view as 12 floats: the own card (3, one-hot), this hand's actions (3 slots of
    pass/bet), whether this seat acts first, the chips lead (scaled) and the share of
    hands left."""

    size = 12
    score_scale = 2.0
    """The most chips a hand moves."""

    def __init__(self, game: Game) -> None:
        self.private_slots: npt.NDArray[np.intp] = np.array([0, 1, 2], np.intp)

    def encode(self, view: View) -> npt.NDArray[np.float32]:
        v = kuhn_view(view)
        out = np.zeros(self.size, np.float32)
        if v["card"] is not None:
            out[v["card"]] = 1.0
        for i, a in enumerate(v["history"][:3]):
            out[3 + 2 * i + a] = 1.0
        me = v["viewer"] if v["viewer"] is not None else 0
        out[9] = 1.0 if v["first_player"] == me else 0.0
        out[10] = max(-1.0, min(1.0, (v["chips"][me] - v["chips"][1 - me]) / (2.0 * v["hands"])))
        out[11] = (v["hands"] - v["hand_number"]) / v["hands"]
        return out

    def score(self, view: View, seat: int) -> float:
        """Lower is better, as every game's shaped reward reads it: the chips lost."""
        return float(-kuhn_view(view)["chips"][seat])


def encoder(game: Game) -> KuhnEncoder:
    return KuhnEncoder(game)


# --- the page's choices, and the texts --------------------------------------------------


def present(state: State, action: int) -> dict[str, Any]:
    """A choice's kind: check, bet, fold or call (the page draws them as buttons)."""
    return {"kind": state.action_to_string(action)}


ACTIONS = {"check": N_("Check"), "bet": N_("Bet a chip"), "fold": N_("Fold"), "call": N_("Call")}
CARD_NAMES = (N_("the Jack"), N_("the Queen"), N_("the King"))
DECISION = N_("check or bet, fold or call")


class KuhnTexts:
    """Kuhn poker's actions, decision and table in one language."""

    def __init__(self, game: Game, tr: Translating) -> None:
        self.tr = tr

    def action(self, state: State, action: int) -> str:
        return self.tr.gettext(ACTIONS[state.action_to_string(action)])

    def decision(self, kind: str) -> str:
        return self.tr.gettext(DECISION)

    def render(self, view: View, player: int | None) -> str:
        v: KuhnView = kuhn_view(view)
        _ = self.tr.gettext
        lines = [_("Kuhn poker, hand {h} of {n}").format(h=v["hand_number"], n=v["hands"]),
                 _("Chips: player 1 {a:+d}, player 2 {b:+d}; in the pot: {pot}").format(
                     a=v["chips"][0], b=v["chips"][1], pot=sum(v["bets"]))]
        if v["card"] is not None:
            lines.append(_("Your card: {card}").format(card=_(CARD_NAMES[v["card"]])))
        if v["history"]:
            moves = ", ".join(_(N_("bet")) if a == BET else _(N_("check")) for a in v["history"])
            lines.append(_("This hand: {moves}").format(moves=moves))
        return "\n".join(lines)

    def localize_catalogue(self, catalogue: dict[str, Any]) -> dict[str, Any]:
        return catalogue

    def localize_view(self, view: dict[str, Any]) -> None:
        """The view holds no names, only numbers: nothing to translate."""


class KuhnVoice:
    """How Kuhn poker's event messages say their arguments in one language."""

    def __init__(self, game: Game | None, tr: Translating) -> None:
        self.tr = tr

    def gender(self, value: Any) -> str | None:
        return None

    def value(self, kind: str, value: Any, gender: str | None) -> str:
        if kind in ("p", "q"):
            return str(value + 1)
        if kind in ("n", "h"):
            return str(value)
        if kind == "card":
            return self.tr.gettext(CARD_NAMES[value])
        raise KeyError(f"a Kuhn poker line has no placeholder kind {kind!r}")


def set_ids() -> tuple[str, ...]:
    """Kuhn poker plays no card sets: its three cards are the game."""
    return ()


def deck_schema() -> dict[str, Any]:
    """No deck files: a schema that takes none."""
    return {"type": "object", "properties": {}, "additionalProperties": False}
