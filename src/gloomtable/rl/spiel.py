"""gloomtable games as OpenSpiel Python games (optional: needs ``open_spiel``).

Importing this module registers ``gloomtable_gloom``, ``gloomtable_gloomier``
and ``gloomtable_creatures`` with ``pyspiel.register_game``; then
``pyspiel.load_game("gloomtable_creatures(players=2)")`` works and OpenSpiel's
algorithms (MCTS, evaluate_bots, random_sim_test ...) run on our games.

Chance: one explicit chance node at the root picks the deal, one of ``deals``
equally likely engine seeds (default 65536); every later shuffle and draw
follows from that seed inside the engine. The engine owns its randomness (so
records replay exactly), which lets OpenSpiel's history-based serialization
and cloning stay exact; a chance node per drawn card would need the engine to
take draws from outside. See ``docs/rl.md`` for why and what it means.

Observation tensors and strings come from ``view(player)`` only. The
information-state string is perfect recall (the player's observation now plus
a digest of every observation it had since the deal); the information-state
tensor is the observation tensor plus counts of the player's own past actions.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the optional extra
    raise ImportError("gloomtable.rl.spiel needs OpenSpiel: pip install open_spiel") from exc

from gloomtable.engine import Game
from gloomtable.games import make_game
from gloomtable.rl.encode_creatures import CreaturesEncoder
from gloomtable.rl.encode_gloom import GloomEncoder

DEFAULT_DEALS = 1 << 16
MAX_DEALS = 1 << 20
"""The root chance node lists every deal, so their number stays modest."""
ACTIONS_PER_TURN = {"creatures": 2, "gloom": 20, "gloomier": 20}
"""Bounds on actions per counted turn, for ``max_game_length`` (Creatures: a play
and a same-number decision; Gloom: plays, responses and effect choices)."""
UNCAPPED_LENGTH = 20_000

_PARAMS: dict[str, dict[str, Any]] = {
    "creatures": {"players": 3, "rounds": 0, "turn_cap": 2000, "deals": DEFAULT_DEALS},
    "gloom": {"players": 4, "sets": "classic", "edition": 2, "beginner": False,
              "turn_cap": 500, "deals": DEFAULT_DEALS},
    "gloomier": {"players": 4, "sets": "gloomier", "stories_guests": 2, "turn_cap": 500,
                 "deals": DEFAULT_DEALS},
}
_LONG = {"creatures": "Crazy Creatures of Dr. Gloom (gloomtable)", "gloom": "Gloom (gloomtable)",
         "gloomier": "Gloomier: A Night at Hemlock Hall (gloomtable)"}


def _config(name: str, params: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """(``make_game`` config, deals) from OpenSpiel parameters."""
    p = {**_PARAMS[name], **params}
    deals = int(p.pop("deals"))
    if not 1 <= deals <= MAX_DEALS:
        raise ValueError(f"deals must be 1..{MAX_DEALS}, got {deals}")
    if name == "creatures":
        if not p["rounds"]:
            p.pop("rounds")
    else:
        p["sets"] = [s for s in str(p["sets"]).split("+") if s]
    return p, deals


def _game_type(name: str) -> Any:
    counts = {"creatures": (2, 4), "gloom": (2, 5), "gloomier": (2, 5)}[name]
    return pyspiel.GameType(
        short_name=f"gloomtable_{name}",
        long_name=_LONG[name],
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        min_num_players=counts[0],
        max_num_players=counts[1],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_PARAMS[name],
    )


def _encoder_for(game: Game) -> Any:
    return CreaturesEncoder(game.num_players) if game.name == "creatures" else GloomEncoder(game)


class SpielGame(pyspiel.Game):
    """A gloomtable game as an OpenSpiel game; the subclasses name which one."""

    game_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        config, deals = _config(self.game_name, dict(params or {}))
        self.engine_game = make_game(self.game_name, config)
        self.deals = deals
        self.encoder = _encoder_for(self.engine_game)
        cap = config["turn_cap"]
        self.max_length = ACTIONS_PER_TURN[self.game_name] * cap if cap else UNCAPPED_LENGTH
        info = pyspiel.GameInfo(
            num_distinct_actions=self.engine_game.num_distinct_actions,
            max_chance_outcomes=deals,
            num_players=self.engine_game.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=self.max_length,
        )
        super().__init__(_game_type(self.game_name), info, dict(params or {}))

    def new_initial_state(self) -> SpielState:
        return SpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self, perfect_recall=recall)


class CreaturesSpielGame(SpielGame):
    game_name = "creatures"


class GloomSpielGame(SpielGame):
    game_name = "gloom"


class GloomierSpielGame(SpielGame):
    game_name = "gloomier"


class _Held:
    """Holds an engine state for OpenSpiel's ``clone`` (a ``deepcopy`` of the Python
    state): copying uses the engine's own cheap ``clone``."""

    __slots__ = ("state",)

    def __init__(self, state: Any) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.state.clone())


class _Cache(dict):
    """A per-state cache that a clone starts empty."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Cache:
        return _Cache()

    def __reduce__(self) -> tuple[type, tuple[()]]:
        return _Cache, ()


class SpielState(pyspiel.State):
    """The root chance node (the deal), then the engine state, driven by actions."""

    def __init__(self, game: SpielGame) -> None:
        super().__init__(game)
        self.deal: int | None = None
        self.held: _Held | None = None
        self.moves: list[tuple[int, int]] = []  # (player, action) after the deal
        self.length_capped = False
        self.recall_cache = _Cache()
        self.origin: tuple[int, dict[int, str], _Held] | None = None
        """For a resampled state (ISMCTS): the move count, the digests and the engine
        state it was sampled at; observations before it are the original's."""

    @property
    def state(self) -> Any:
        """The engine state (``None`` before the deal)."""
        return None if self.held is None else self.held.state

    # -- OpenSpiel API ---------------------------------------------------------
    def current_player(self) -> int:
        if self.held is None:
            return pyspiel.PlayerId.CHANCE
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.held.state.current_player()

    def is_terminal(self) -> bool:
        return self.held is not None and (self.length_capped or self.held.state.is_over())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deals = self.get_game().deals
        p = 1.0 / deals
        return [(d, p) for d in range(deals)]

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal() or player != self.held.state.current_player():
            return []
        return sorted(self.held.state.legal_actions())

    def _apply_action(self, action: int) -> None:
        if self.held is None:
            self.deal = int(action)
            self.held = _Held(self.get_game().engine_game.new_initial_state(self.deal))
            return
        state = self.held.state
        self.moves.append((state.current_player(), int(action)))
        state.apply(int(action))
        if len(self.moves) + 1 >= self.get_game().max_length and not state.is_over():
            self.length_capped = True  # the declared max_game_length is reached: a draw

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        state = self.state or self.get_game().engine_game.new_initial_state(0)
        # OpenSpiel wants distinct strings; two copies of a card read alike.
        return f"{state.action_to_string(action)} (#{action})"

    def returns(self) -> list[float]:
        n = self.get_game().engine_game.num_players
        if not self.is_terminal():
            return [0.0] * n
        if self.length_capped:
            return [1.0 / n] * n
        return self.held.state.result().returns()

    def __str__(self) -> str:
        if self.held is None:
            return "deal pending"
        return f"deal {self.deal}, {len(self.moves)} actions\n{self.held.state.render(None)}"

    # -- observation helpers ---------------------------------------------------
    def view_string(self, player: int) -> str:
        """The player's view as canonical JSON (the observation string)."""
        if self.held is None:
            return "deal pending"
        return json.dumps(self.held.state.view(player), sort_keys=True, separators=(",", ":"))

    def recall_digest(self, player: int) -> str:
        """A digest of every observation ``player`` had since the deal, computed by
        replaying the actions (views only) and cached for this state."""
        if self.held is None:
            return ""
        if player in self.recall_cache:
            done, digest, cursor = self.recall_cache[player]
        elif self.origin is not None:
            done, digests, base = self.origin
            digest, cursor = digests.get(player, "sampled"), base.state.clone()
        else:
            done, cursor = 0, self.get_game().engine_game.new_initial_state(self.deal)
            digest = _chain("", cursor.view(player))
        for _, action in self.moves[done:]:
            cursor.apply(action)
            digest = _chain(digest, cursor.view(player))
        self.recall_cache[player] = (len(self.moves), digest, cursor)
        return digest

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpielState:
        """A state the player cannot tell from this one: the cards hidden from it
        dealt anew, consistently with its view (for ISMCTS). Such a state is for
        search only: its history still names the original deal."""
        from gloomtable.bots.determinize import sampler

        if self.held is None or self.is_terminal():
            return self.clone()
        make = sampler(self.held.state.view(player_id))
        if make is None:
            raise pyspiel.SpielError(f"cannot resample this position of {self.get_game()}")
        other = self.clone()
        other.held = _Held(make(int(probability_sampler() * 2**62)))
        other.origin = (len(self.moves), {player_id: self.recall_digest(player_id)},
                        _Held(other.held.state.clone()))
        other.recall_cache = _Cache()
        return other


def _chain(digest: str, view: dict[str, Any]) -> str:
    data = digest + json.dumps(view, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(data.encode(), digest_size=16).hexdigest()


class Observer:
    """OpenSpiel's observer interface over our encoders (views only)."""

    def __init__(self, game: SpielGame, perfect_recall: bool) -> None:
        self.encoder = game.encoder
        self.recall = perfect_recall
        self.num_actions = game.engine_game.num_distinct_actions
        size = self.encoder.size + (self.num_actions if perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[:self.encoder.size]}
        if perfect_recall:
            self.dict["own_actions"] = self.tensor[self.encoder.size:]

    def set_from(self, state: SpielState, player: int) -> None:
        self.tensor.fill(0.0)
        if state.state is None:
            return
        fast = getattr(self.encoder, "observe", None)  # equal to encoding the view (tested)
        self.dict["observation"][:] = (fast(state.state, player) if fast is not None
                                       else self.encoder.encode(state.state.view(player)))
        if self.recall:
            counts = self.dict["own_actions"]
            for p, a in state.moves:
                if p == player:
                    counts[a] = min(counts[a] + 0.1, 1.0)

    def string_from(self, state: SpielState, player: int) -> str:
        if not self.recall:
            return state.view_string(player)
        return f"{state.view_string(player)}|history:{state.recall_digest(player)}"


for _cls in (CreaturesSpielGame, GloomSpielGame, GloomierSpielGame):
    pyspiel.register_game(_game_type(_cls.game_name), _cls)
