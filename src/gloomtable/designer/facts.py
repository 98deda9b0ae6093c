"""What happened in one Gloom game, recovered by replaying its record.

The balance report is built from these facts and nothing else, so every figure
in it can be recounted from the same records. Only the public engine API is
used: ``state.apply`` events say which card was drawn or played, by whom and on
which Character; ``state.view(None)`` (what a spectator sees) says whose that
Character is and its Self-Worth before and after the card lands.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from gloomtable.designer.playtest import cap_reason
from gloomtable.engine import Game
from gloomtable.engine.errors import ReplayError
from gloomtable.engine.record import GameRecord
from gloomtable.games.gloom.view import CharacterView, GloomView, gloom_view

STACK_NEUTRAL = frozenset({
    "draw", "turn", "pass", "reshuffle", "discard", "discard_hand", "skipped", "free_play",
})
"""Event kinds that never change a stack. After any other event the spectator
view is read again, so Self-Worth figures never come from a stale view."""

PLAY_KINDS = ("play", "response")
"""Events that put a card from a hand into play (a response is played too)."""


@dataclass
class Play:
    """One card played: by ``player`` on Character ``target`` (None for Events and
    responses) whose controller was ``owner``; ``delta`` is the target's Self-Worth
    once the card lies on its stack minus just before the play (None if the card
    never landed there: an Event, a response, or a cancelled play)."""

    index: int
    card: int
    player: int
    target: int | None = None
    owner: int | None = None
    delta: int | None = None
    cancelled: bool = False


@dataclass
class GameFacts:
    seed: int
    players: int
    first_player: int
    rounds: int
    turns: int
    capped: bool
    family_values: list[int]
    win_shares: list[float]
    drawn: dict[int, int] = field(default_factory=dict)
    plays: list[Play] = field(default_factory=list)
    claims: list[list[int]] = field(default_factory=list)
    """Stories claimed (R-H5), as [story card, player], in order."""
    follows: dict[int, int] = field(default_factory=dict)
    """How often each Guest followed a card into another family (R-H7)."""
    cap_reason: str | None = None
    """Why a capped game stopped (a key of :data:`gloomtable.designer.playtest.REASONS`)."""

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["drawn"] = {str(k): v for k, v in sorted(self.drawn.items())}
        d["follows"] = {str(k): v for k, v in sorted(self.follows.items())}
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameFacts:
        data = dict(d)
        data["drawn"] = {int(k): v for k, v in d["drawn"].items()}
        data["plays"] = [Play(**p) for p in d["plays"]]
        data["follows"] = {int(k): v for k, v in d.get("follows", {}).items()}
        data["claims"] = [list(c) for c in d.get("claims", [])]
        return cls(**data)

    def played_by(self, player: int) -> set[int]:
        return {p.card for p in self.plays if p.player == player}


def characters_in(view: GloomView) -> dict[int, CharacterView]:
    """Every Character-like entry of a Gloom view by card index: family members, then
    the Guests a family holds, then the Guests in the middle (Gloomier)."""
    out: dict[int, CharacterView] = {}
    for fam in view["families"]:
        for ch in (*fam["characters"], *fam["guests"]):
            out.setdefault(ch["card"], ch)
    for ch in view["middle"]["guests"]:
        out.setdefault(ch["card"], ch)
    return out


def analyse(game: Game, record: GameRecord) -> GameFacts:
    """Replay ``record`` and return its facts. The record must reach the end."""
    state = game.new_initial_state(record.seed)
    n = game.num_players
    first = state.current_player()
    drawn: Counter[int] = Counter()
    for p in range(n):
        drawn.update(gloom_view(state.view(p))["hand"] or [])
    chars = characters_in(gloom_view(state.view(None)))
    plays: list[Play] = []
    claims: list[list[int]] = []
    follows: Counter[int] = Counter()
    pending: dict[int, tuple[Play, int]] = {}  # card -> (play, Self-Worth before)
    for i, action in enumerate(record.actions):
        if state.is_over():
            raise ReplayError(i, "the game was already over")
        try:
            events = state.apply(action)
        except Exception as exc:  # an engine error names the action; keep the index
            raise ReplayError(i, str(exc)) from exc
        dirty = False
        for ev in events:
            if ev.kind == "draw" and ev.card is not None:
                drawn[ev.card] += 1
            elif ev.kind == "claim" and ev.card is not None and ev.player is not None:
                claims.append([ev.card, ev.player])
            elif ev.kind == "follow" and ev.card is not None:
                follows[ev.card] += 1
            elif ev.kind in PLAY_KINDS and ev.card is not None and ev.player is not None:
                target = ev.target if ev.kind == "play" else None
                info = chars.get(target) if target is not None else None
                play = Play(i, ev.card, ev.player, target,
                            None if info is None else info.get("controller"))
                plays.append(play)
                if info is not None:
                    pending[ev.card] = (play, int(info["self_worth"]))
                if ev.kind == "response" and ev.target is not None:
                    cancelled = next((q for q in reversed(plays) if q.card == ev.target), None)
                    if cancelled is not None:
                        cancelled.cancelled = True
                    pending.pop(ev.target, None)
            if ev.kind not in STACK_NEUTRAL:
                dirty = True
        if dirty or pending:
            view = gloom_view(state.view(None))
            chars = characters_in(view)
            for card, (play, before) in list(pending.items()):
                info = chars.get(play.target) if play.target is not None else None
                if info is not None and card in info.get("stack", []):
                    play.delta = int(info["self_worth"]) - before
                    del pending[card]
                elif card not in view["in_play"]:
                    del pending[card]  # it went elsewhere before it could be seen landing
    if not state.is_over():
        raise ReplayError(len(record.actions), "the record stops before the end of the game")
    result = state.result()
    return GameFacts(
        seed=record.seed, players=n, first_player=first,
        rounds=int(result.details.get("rounds", 0)), turns=int(result.details.get("turns", 0)),
        capped=bool(result.capped), family_values=list(result.scores),
        win_shares=result.returns(), drawn=dict(drawn), plays=plays, claims=claims,
        follows=dict(follows), cap_reason=cap_reason(state) if result.capped else None,
    )
