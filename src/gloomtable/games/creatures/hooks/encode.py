"""The observation vector of Crazy Creatures, built from one seat's view only.

Seats are relative: slot ``k`` of a per-seat block is the seat ``k`` places
after the viewer (``k = 0`` is the viewer), so a policy learned in one seat
plays every seat. Blocks are sized for 4 seats whatever the table, so one
network fits 2, 3 and 4 players. Every value lies in ``[-1, 1]``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gloomtable.engine import DecisionKind, Game
from gloomtable.engine.hooks import View
from gloomtable.games.creatures.view import CreaturesView, creatures_view
from gloomtable.rl.slots import Layout

NUM_CARDS = 48
NUM_COLOURS = 4
MAX_SEATS = 4
TOP_VALUES = 7  # empty pile, then numbers 1..6
TOTAL_SCALE = 100.0
"""Penalty totals are divided by this (and clipped to 1)."""


def _layout() -> Layout:
    lay = Layout()
    # binary and one-hot slots first (set through one list of indices) ...
    lay.add("hand", NUM_CARDS, "1 if Creature card id i is in my hand")
    lay.add("played", NUM_CARDS, "1 if card id i lies in a pile this round (piles are public)")
    lay.add("pile_top", NUM_COLOURS * TOP_VALUES,
            "per colour (red, blue, green, yellow): one-hot of the top number, slot 0 = empty pile")
    lay.add("machine_plus", NUM_COLOURS, "per colour: 1 if its Machine shows + (Growing), 0 if -")
    lay.add("seated", MAX_SEATS, "per relative seat: 1 if that seat exists at this table")
    lay.add("current", MAX_SEATS, "one-hot relative seat of the player to act (all 0 once over)")
    lay.add("closer", MAX_SEATS, "one-hot relative seat that emptied its hand first this round")
    lay.add("decision", 2, "one-hot: choosing a card to play; the same-number decision (R-C8)")
    lay.add("over", 1, "1 once the game is over")
    # ... then the scalars, contiguous, written with one slice assignment.
    lay.add("hand_counts", MAX_SEATS,
            "per relative seat: cards in hand / 20 (12 dealt, up to 8 more by forced draws)")
    lay.add("totals", MAX_SEATS, "per relative seat: penalty total / 100 (clipped at 1)")
    lay.add("reserve", 1, "Reserve cards left / 8")
    lay.add("aside", 1, "cards set aside unseen / 48")
    lay.add("passes", 1, "consecutive passes / 4 (clipped at 1)")
    lay.add("final_turns", 1, "final turns left / 3 (0 unless a player is out)")
    lay.add("round", 2, "rounds played / rounds; rounds left / rounds")
    lay.add("my_penalty", 1, "penalty points in my hand / 30 (clipped at 1)")
    return lay


LAYOUT = _layout()
SIZE = LAYOUT.size
_O = {s.name: s.start for s in LAYOUT.slots}
_HAND, _PLAYED, _TOP, _PLUS = _O["hand"], _O["played"], _O["pile_top"], _O["machine_plus"]
_SEATED, _CUR, _CLOSER, _DEC, _OVER = (_O["seated"], _O["current"], _O["closer"], _O["decision"],
                                       _O["over"])
_SCALARS = _O["hand_counts"]
_NUM_SCALARS = SIZE - _SCALARS
_TOP_INDEX = [[_TOP + c * TOP_VALUES + t for t in range(TOP_VALUES)] for c in range(NUM_COLOURS)]


class CreaturesEncoder:
    """Encodes a Crazy Creatures view (``view(seat)``) into a float32 vector."""

    layout = LAYOUT
    size = SIZE
    score_scale = TOTAL_SCALE
    """The shaped reward divides score changes by this."""

    def __init__(self, num_players: int) -> None:
        self.n = num_players
        hand = LAYOUT["hand"]
        self.private_slots = np.array(
            [*range(hand.start, hand.start + hand.size), LAYOUT["my_penalty"].start], np.intp)
        """The slots only the observer's own hand decides (OpenSpiel's private
        information); every other slot is public."""
        self._seated = list(range(_SEATED, _SEATED + num_players))

    def encode(self, view: View) -> npt.NDArray[np.float32]:
        """The observation of ``view``: a new float32 array of length :attr:`size`.

        The binary slots are set in a ``bytearray`` converted at once, and the
        scalars in one slice: far cheaper than many numpy item writes."""
        return self._encode(creatures_view(view))

    def _encode(self, view: CreaturesView) -> npt.NDArray[np.float32]:
        n = self.n
        me = view["viewer"]
        if me is None:
            raise ValueError("an observation is a seat's, and this view has no viewer")
        bits = bytearray(SIZE)
        pen = 0
        for card in view["hand"]:
            bits[_HAND + card["id"]] = 1
            pen += card["penalty"]
        for i in self._seated:
            bits[i] = 1
        for c, m in enumerate(view["machines"]):
            for played in m["pile"]:
                bits[_PLAYED + played["id"]] = 1
            bits[_TOP_INDEX[c][m["top"] or 0]] = 1
            if m["side"] == "+":
                bits[_PLUS + c] = 1
        cur = view["current_player"]
        over = view["over"]
        if not over and cur >= 0:
            bits[_CUR + (cur - me) % n] = 1
            bits[_DEC + (view["decision"] == DecisionKind.SAME_NUMBER)] = 1
        closer = view["closer"]
        if closer is not None:
            bits[_CLOSER + (closer - me) % n] = 1
        if over:
            bits[_OVER] = 1
        out = np.frombuffer(bits, np.uint8).astype(np.float32)
        counts, totals = view["hand_counts"], view["totals"]
        sc = [0.0] * _NUM_SCALARS
        for k in range(n):
            q = (me + k) % n
            sc[k] = counts[q] / 20.0
            sc[MAX_SEATS + k] = min(totals[q] / TOTAL_SCALE, 1.0)
        rounds = view["rounds"]
        done = len(view["round_scores"])
        sc[2 * MAX_SEATS:] = (
            view["reserve_count"] / 8.0, view["aside_count"] / 48.0,
            min(view["passes_in_row"] / 4.0, 1.0),
            (view["final_turns_left"] or 0) / 3.0 if closer is not None else 0.0,
            done / rounds, (rounds - done) / rounds, min(pen / 30.0, 1.0))
        out[_SCALARS:] = sc
        return out

    @staticmethod
    def score(view: View, seat: int) -> float:
        """The seat's penalty total (lower is better), for the shaped reward."""
        return float(creatures_view(view)["totals"][seat])


def encoder_for(game: Game) -> CreaturesEncoder:
    """The encoder of ``game``'s tables (the registry's ``encoder``)."""
    return CreaturesEncoder(game.num_players)
