"""gloomtable games as OpenSpiel Python games (optional: needs ``open_spiel``).

Importing this module registers ``gloomtable_<name>`` for every registered game
(``gloomtable_gloom``, ``gloomtable_gloomier``, ``gloomtable_creatures``...) with
``pyspiel.register_game``; then
``pyspiel.load_game("gloomtable_creatures(players=2)")`` works and OpenSpiel's
algorithms (MCTS, ISMCTS, evaluate_bots, random_sim_test ...) run on our games.

Chance: the deal is one of ``deals`` equally likely engine seeds, picked by a
few small chance nodes (its digits, at most 16 outcomes each); every later
shuffle and draw follows from that seed inside the engine, so deal ``d`` is
exactly the engine's game with seed ``d``. The engine owns its randomness (so
records replay exactly), which keeps OpenSpiel's history-based serialization
exact; see ``docs/rl.md`` for why and what it means.

Observations honour OpenSpiel's ``IIGObservationType``: public information is
what a spectator's view shows, private information what the player's own view
adds to it (its hand), and perfect recall adds a digest of every such
observation since the deal. All of it comes from views only.
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
from gloomtable.engine.hooks import Encoder
from gloomtable.engine.protocol import Information
from gloomtable.games import make_game, registry
from gloomtable.games.resample import ResampleError, resample

DEFAULT_DEALS = 1 << 16
MAX_DEALS = 1 << 40
MAX_DIGIT = 16
"""The most outcomes a chance node has: a deal is picked digit by digit."""
def _params(name: str) -> dict[str, Any]:
    """The game's OpenSpiel parameters with their defaults (its registry entry's
    ``spiel_params``, plus the number of deals)."""
    return {**registry.entry(name).spiel_params, "deals": DEFAULT_DEALS}

FULL, PUBLIC, PRIVATE, NOTHING = "full", "public", "private", "nothing"
"""What an observation holds: the player's whole view, the public part, the private
part (what its own view adds to a spectator's), or nothing."""


def deal_digits(deals: int) -> tuple[int, ...]:
    """The radices of the chance nodes that pick one of ``deals`` deals: ``deals``
    factored into parts of at most :data:`MAX_DIGIT` (65536 deals: four nodes of 16)."""
    if not 1 <= deals <= MAX_DEALS:
        raise ValueError(f"deals must be 1..{MAX_DEALS}, got {deals}")
    primes, rest, f = [], deals, 2
    while rest > 1 and f <= MAX_DIGIT:
        while rest % f == 0:
            primes.append(f)
            rest //= f
        f += 1
    if rest > 1:
        raise ValueError(f"deals must have no prime factor above {MAX_DIGIT} (a chance node "
                         f"has at most {MAX_DIGIT} outcomes), got {deals}")
    digits: list[int] = []
    for p in sorted(primes, reverse=True):
        for i, d in enumerate(digits):
            if d * p <= MAX_DIGIT:
                digits[i] = d * p
                break
        else:
            digits.append(p)
    return tuple(sorted(digits, reverse=True))


def _config(name: str, params: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """(``make_game`` config, deals) from OpenSpiel parameters."""
    p = {**_params(name), **params}
    deals = int(p.pop("deals"))
    deal_digits(deals)  # a clear error now
    if "rounds" in p and not p["rounds"]:
        p.pop("rounds")  # 0: the rules' number of rounds
    if "sets" not in p:
        pass  # a game that plays no card sets
    elif registry.entry(name).mixes_sets:
        p["sets"] = [s for s in str(p["sets"]).split("+") if s]
    else:  # one set: the shipped one or a variant set file (docs/decks.md)
        p["sets"] = [str(p["sets"])]
    return p, deals


_INFORMATION = {Information.PERFECT: "PERFECT_INFORMATION",
                Information.IMPERFECT: "IMPERFECT_INFORMATION"}


def _game_type(name: str) -> Any:
    """OpenSpiel's facts of the game ``name``, from what the engine's game with the
    default parameters says (:attr:`Game.info`). One change: the engine draws chance
    from its seed inside ``apply``, and here the deal is explicit chance nodes."""
    info = make_game(name, _config(name, {})[0]).info
    gt = pyspiel.GameType
    return gt(
        short_name=f"gloomtable_{name}",
        long_name=f"{info.long_name} (gloomtable)",
        dynamics=getattr(gt.Dynamics, info.dynamics.upper()),
        chance_mode=gt.ChanceMode.EXPLICIT_STOCHASTIC,
        information=getattr(gt.Information, _INFORMATION[info.information]),
        utility=getattr(gt.Utility, info.utility.upper()),
        reward_model=getattr(gt.RewardModel, info.reward_model.upper()),
        min_num_players=info.min_num_players,
        max_num_players=info.max_num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_params(name),
    )


def _encoder_for(game: Game) -> Encoder:
    return registry.entry(game.name).encoder_for(game)


class SpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type hints
    """A gloomtable game as an OpenSpiel game; a subclass per registered game names
    which one (:func:`_register_all`)."""

    game_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        config, deals = _config(self.game_name, dict(params or {}))
        self.engine_game = make_game(self.game_name, config)
        self.deals = deals
        self.digits = deal_digits(deals)
        self.encoder = _encoder_for(self.engine_game)
        facts = self.engine_game.info
        self.max_length = facts.max_game_length + len(self.digits)
        """The engine's bound, and the deal's chance nodes before it."""
        info = pyspiel.GameInfo(
            num_distinct_actions=facts.num_distinct_actions,
            max_chance_outcomes=max(self.digits, default=1),
            num_players=facts.num_players,
            min_utility=facts.min_utility,
            max_utility=facts.max_utility,
            utility_sum=facts.utility_sum,
            max_game_length=self.max_length,
        )
        super().__init__(_GAME_TYPES[self.game_name], info, dict(params or {}))

    def new_initial_state(self) -> SpielState:
        return SpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        return Observer(self, iig_obs_type)


# --- observations from views ---------------------------------------------------


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def observation_string(state: Any, kind: str, player: int) -> str:
    """The ``kind`` observation of ``player`` of an engine state, as canonical JSON."""
    if kind == FULL:
        return _canonical(state.view(player))
    if kind == PUBLIC:
        return _canonical(state.view(None))
    if kind == PRIVATE:
        public = state.view(None)
        return _canonical({k: v for k, v in state.view(player).items() if public.get(k) != v})
    return ""


def public_view(state: Any, player: int) -> dict[str, Any]:
    """The spectator's view, laid out for ``player`` (relative seats from it, no hand):
    what the public-only observation tensor encodes."""
    view = dict(state.view(None))
    view["viewer"] = player
    view["hand"] = []
    return view


def _chain(digest: str, observation: str) -> str:
    return hashlib.blake2b((digest + observation).encode(), digest_size=16).hexdigest()


# --- states ------------------------------------------------------------------------


class _Recall:
    """One player's perfect-recall digest of one kind of observation, after
    ``done`` actions, and an engine state at that point to go on from. Clones
    share the cursor until one of them moves it (then it copies it first)."""

    __slots__ = ("cursor", "digest", "done", "owned")

    def __init__(self, done: int, digest: str, cursor: Any, owned: bool = True) -> None:
        self.done, self.digest, self.cursor, self.owned = done, digest, cursor, owned

    def shared(self) -> _Recall:
        self.owned = False
        return _Recall(self.done, self.digest, self.cursor, False)


class _Core:
    """Everything a :class:`SpielState` knows, in one object so that OpenSpiel's
    ``clone`` (a ``deepcopy`` of each attribute) copies it in one cheap step: the
    engine's own ``clone``, the action list, and what was worked out already (the
    strings asked for at this position, the recall digests)."""

    __slots__ = ("capped", "digits", "engine", "known", "moves", "origin", "recall", "seed")

    def __init__(self) -> None:
        self.digits: list[int] = []  # chance outcomes so far
        self.engine: Any = None  # the engine state, once the deal is complete
        self.seed = -1  # its engine seed
        self.moves: list[int] = []  # actions after the deal
        self.capped = False  # the declared max_game_length was reached: a draw
        self.known: dict[tuple[Any, ...], str] = {}  # strings at this position
        self.recall: dict[tuple[str, int | None], _Recall] = {}
        self.origin: tuple[int, Any] | None = None
        """A resampled state's (move count, engine state) at the sample: digests it
        did not inherit go on from there."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        new = _Core()
        new.digits = list(self.digits)
        new.engine = None if self.engine is None else self.engine.clone()
        new.seed = self.seed
        new.moves = list(self.moves)
        new.capped = self.capped
        new.known = dict(self.known)
        new.recall = {k: r.shared() for k, r in self.recall.items()}
        new.origin = self.origin
        return new

    def __reduce__(self) -> Any:
        """Pickled as the game, the deal and the actions (OpenSpiel pickles a state's
        attributes next to its history and restores both without replaying)."""
        if self.origin is not None:
            raise TypeError("a resampled state is for search only and cannot be pickled")
        game = None if self.engine is None else (self.engine.game.name,
                                                 self.engine.game.config_dict())
        return _rebuilt, (game, self.seed, list(self.digits), list(self.moves), self.capped)


def _rebuilt(game: tuple[str, dict[str, Any]] | None, seed: int, digits: list[int],
             moves: list[int], capped: bool) -> _Core:
    core = _Core()
    core.digits, core.moves, core.capped, core.seed = digits, moves, capped, seed
    if game is not None:
        core.engine = make_game(*game).new_initial_state(seed)
        for a in moves:
            core.engine.apply(a)
    return core


class SpielState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no type hints
    """The deal (chance digits), then the engine state, driven by actions."""

    def __init__(self, game: SpielGame) -> None:
        super().__init__(game)
        self.core = _Core()
        self._deal_if_complete()  # ``deals=1``: no chance node at all

    @property
    def state(self) -> Any:
        """The engine state (``None`` until the deal is complete)."""
        return self.core.engine

    @property
    def deal(self) -> int | None:
        """The engine seed of this deal (``None`` until it is complete)."""
        core, digits = self.core, self.get_game().digits
        if len(core.digits) < len(digits):
            return None
        deal = 0
        for d, radix in zip(core.digits, digits, strict=True):
            deal = deal * radix + d
        return deal

    # -- OpenSpiel API ---------------------------------------------------------
    def current_player(self) -> int:
        engine = self.core.engine
        if engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.core.capped or engine.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(engine.current_player())

    def is_terminal(self) -> bool:
        engine = self.core.engine
        return engine is not None and (self.core.capped or engine.is_over())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        radix = self.get_game().digits[len(self.core.digits)]
        p = 1.0 / radix
        return [(d, p) for d in range(radix)]

    def _legal_actions(self, player: int) -> list[int]:
        engine = self.core.engine
        if self.is_terminal() or player != engine.current_player():
            return []
        return sorted(engine.legal_actions())

    def _apply_action(self, action: int) -> None:
        core = self.core
        core.known = {}
        if core.engine is None:
            core.digits.append(int(action))
            self._deal_if_complete()
            return
        core.moves.append(int(action))
        core.engine.apply(int(action))
        game = self.get_game()
        if len(core.moves) + len(game.digits) >= game.max_length and not core.engine.is_over():
            core.capped = True  # the declared max_game_length is reached: a draw

    def _deal_if_complete(self) -> None:
        game = self.get_game()
        deal = self.deal
        if deal is not None:
            self.core.seed = deal
            self.core.engine = game.engine_game.new_initial_state(deal)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal digit {action}"
        state = self.core.engine or self.get_game().engine_game.new_initial_state(0)
        # OpenSpiel wants distinct strings; two copies of a card read alike.
        return f"{state.action_to_string(action)} (#{action})"

    def returns(self) -> list[float]:
        n = self.get_game().engine_game.num_players
        if not self.is_terminal():
            return [0.0] * n
        if self.core.capped:
            return [1.0 / n] * n
        return list(self.core.engine.result().returns())

    def __str__(self) -> str:
        engine = self.core.engine
        if engine is None:
            return f"deal pending ({len(self.core.digits)} digits)"
        return f"deal {self.deal}, {len(self.core.moves)} actions\n{engine.render(None)}"

    # -- observation helpers ---------------------------------------------------
    def observation_of(self, kind: str, player: int) -> str:
        """The ``kind`` observation string of ``player`` now (kept until the next action)."""
        if self.core.engine is None:
            return "deal pending"
        key = (kind, None if kind == PUBLIC else player)
        text = self.core.known.get(key)
        if text is None:
            text = self.core.known[key] = observation_string(self.core.engine, kind, player)
        return text

    def recall_of(self, kind: str, player: int) -> str:
        """The ``kind`` observation now, then a digest of every such observation
        ``player`` had since the deal (kept until the next action, and by clones)."""
        key = ("recall", kind, None if kind == PUBLIC else player)
        text = self.core.known.get(key)
        if text is None:
            now = self.observation_of(kind, player)
            text = self.core.known[key] = f"{now}|history:{self.recall_digest(kind, player)}"
        return text

    def recall_digest(self, kind: str, player: int) -> str:
        """The digest of every ``kind`` observation of ``player`` since the deal: what
        is already known, carried on through the actions since (views only)."""
        core = self.core
        if core.engine is None:
            return ""
        key = (kind, None if kind == PUBLIC else player)
        rec = core.recall.get(key)
        if rec is None:
            if core.origin is not None:  # a resampled state: its past is not this world's
                done, at = core.origin
                rec = _Recall(done, "sampled", at, owned=False)
            else:
                start = self.get_game().engine_game.new_initial_state(self.deal)
                rec = _Recall(0, _chain("", observation_string(start, kind, player)), start)
            core.recall[key] = rec
        moves = core.moves
        if rec.done < len(moves):
            if not rec.owned:
                rec.cursor, rec.owned = rec.cursor.clone(), True
            cursor, digest = rec.cursor, rec.digest
            for i in range(rec.done, len(moves)):
                cursor.apply(moves[i])
                digest = _chain(digest, observation_string(cursor, kind, player))
            rec.done, rec.digest = len(moves), digest
        return rec.digest

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpielState:
        """A state the player cannot tell from this one, for search (ISMCTS): the
        cards hidden from it dealt anew (:mod:`gloomtable.games.resample`), its
        information states (every kind already asked, and the default) equal to
        this state's. Such a state is for search only: its history still names
        the original deal, and other players' recall starts at the sample."""
        core = self.core
        if core.engine is None or self.is_terminal():
            same: SpielState = self.clone()
            return same
        try:
            engine = resample(core.engine, player_id, int(probability_sampler() * 2**62))
        except ResampleError as exc:
            raise pyspiel.SpielError(str(exc)) from exc
        digests = {key: self.recall_digest(key[0], player_id)
                   for key in {(FULL, player_id), *core.recall}
                   if key[1] in (player_id, None)}
        other: SpielState = self.clone()
        o = other.core
        o.engine = engine
        o.known = {k: v for k, v in core.known.items() if k[-1] in (player_id, None)}
        o.origin = (len(core.moves), engine.clone())
        o.recall = {key: _Recall(len(core.moves), digest, o.origin[1], owned=False)
                    for key, digest in digests.items()}
        return other


class Observer:
    """OpenSpiel's observer interface over our encoders and views, honouring the
    requested ``IIGObservationType`` (public, private, perfect recall).

    Tensor pieces: ``observation`` (the encoder's vector of the player's view, or
    of the spectator's view laid out for the player when only public information
    is asked), ``private`` (the encoder's private slots, when only private
    information is asked), ``own_actions`` (with perfect recall and private
    information: 0.1 per use of each of the player's own past actions)."""

    def __init__(self, game: SpielGame, iig_obs_type: Any = None) -> None:
        public = True if iig_obs_type is None else bool(iig_obs_type.public_info)
        private_info = (pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None
                        else iig_obs_type.private_info)
        if private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("gloomtable games have no all-players observation: a view shows "
                             "one seat's hidden cards at most")
        private = private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.kind = {(True, True): FULL, (True, False): PUBLIC, (False, True): PRIVATE,
                     (False, False): NOTHING}[(public, private)]
        self.recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        self.encoder = game.encoder
        self.private_slots = game.encoder.private_slots
        pieces: list[tuple[str, int]] = []
        if public:
            pieces.append(("observation", self.encoder.size))
        elif private:
            pieces.append(("private", len(self.private_slots)))
        if self.recall and private:
            pieces.append(("own_actions", game.engine_game.num_distinct_actions))
        self.tensor = np.zeros(sum(size for _, size in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[at:at + size]
            at += size

    def _full(self, engine: Any, player: int) -> np.ndarray:
        fast = getattr(self.encoder, "observe", None)  # equal to encoding the view (tested)
        out: np.ndarray = (fast(engine, player) if fast is not None
                           else self.encoder.encode(engine.view(player)))
        return out

    def set_from(self, state: SpielState, player: int) -> None:
        self.tensor.fill(0.0)
        engine = state.core.engine
        if engine is None or not self.tensor.size:
            return
        if self.kind == FULL:
            self.dict["observation"][:] = self._full(engine, player)
        elif self.kind == PUBLIC:
            self.dict["observation"][:] = self.encoder.encode(public_view(engine, player))
        elif self.kind == PRIVATE:
            self.dict["private"][:] = self._full(engine, player)[self.private_slots]
        if "own_actions" in self.dict:  # whose move each was: OpenSpiel's own history
            counts = self.dict["own_actions"]
            for h in state.full_history()[len(state.get_game().digits):]:
                if h.player == player:
                    counts[h.action] = min(counts[h.action] + 0.1, 1.0)

    def string_from(self, state: SpielState, player: int) -> str:
        if self.kind == NOTHING:
            return ""
        return state.recall_of(self.kind, player) if self.recall \
            else state.observation_of(self.kind, player)


def _class_name(name: str) -> str:
    return f"{name.capitalize()}SpielGame"


def _register_all() -> None:
    """One :class:`SpielGame` subclass per registered game, registered as
    ``gloomtable_<name>`` (its facts from :func:`_game_type`)."""
    for entry in registry.entries():
        if _class_name(entry.name) in globals():
            continue
        cls = type(_class_name(entry.name), (SpielGame,), {
            "game_name": entry.name, "__module__": __name__,
            "__doc__": f"{entry.title} as an OpenSpiel game."})
        globals()[cls.__name__] = cls
        _GAME_TYPES[entry.name] = _game_type(entry.name)
        pyspiel.register_game(_GAME_TYPES[entry.name], cls)


_GAME_TYPES: dict[str, Any] = {}
_register_all()
