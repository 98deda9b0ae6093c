"""A Gymnasium environment: the learner holds one seat, bots hold the others.

``gymnasium.make("gloomtable/Creatures-v0", opponents=["random", "heuristic"])``
(ids registered by ``import gloomtable.rl``). Opponents are
``gloomtable.bots.levels.make_bot(level, game, seed)`` bots, which see only their
own views. The observation is the learner's PettingZoo observation (a dict of
``observation`` and ``action_mask``); the mask is also in ``info``.

An illegal action ends the episode at once with reward ``-1`` (and
``info["illegal_action"]``, -1 otherwise), as PettingZoo's ``TerminateIllegalWrapper`` does,
because random agents and Gymnasium's checker sample from the whole space.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from gloomtable.bots.base import bot_action
from gloomtable.bots.levels import make_bot
from gloomtable.engine import ConfigError
from gloomtable.games import registry
from gloomtable.rl.aec import RENDER_MODES, GloomtableAECEnv, raw_env_for, render_text
from gloomtable.rl.infos import empty_result, result_fields

GAMES = {e.env_id: e.name for e in registry.entries()}
"""Gymnasium id (under ``gloomtable/``) -> game, one per registered game."""
ILLEGAL_REWARD = -1.0
NO_ILLEGAL_ACTION = -1
"""``info["illegal_action"]`` when the learner's last action was legal."""
MAX_OPPONENT_MOVES = 1_000_000
"""A bound on bot moves between two learner moves; the games' turn caps end far sooner."""


def _aec_for(game: str, **kw: Any) -> GloomtableAECEnv:
    if registry.find(game) is None:
        raise ConfigError(f"unknown game {game!r}; known: {', '.join(GAMES.values())}")
    return raw_env_for(game, **kw)


class SeatEnv(gymnasium.Env):
    """One seat of a gloomtable game against bots (see the module doc).

    ``seat``: the learner's seat, or ``None`` for a seat drawn at each reset.
    ``opponents``: one level for every other seat, or a list with one per seat.
    Other keywords (``players``, ``reward``, game options) go to the game.
    """

    # gymnasium.Env declares ``metadata`` as an attribute with a class default, so not a ClassVar here
    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 1}  # noqa: RUF012

    def __init__(self, game: str = "creatures", opponents: str | list[str] = "random",
                 seat: int | None = 0, render_mode: str | None = None, **kw: Any) -> None:
        self.aec = _aec_for(game, render_mode=render_mode, **kw)
        self.game_name = game
        n = len(self.aec.possible_agents)
        levels = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(levels) != n - 1:
            raise ConfigError(f"{game} with {n} players needs {n - 1} opponents, got {len(levels)}")
        for level in levels:
            make_bot(level, game, 0)  # a clear ConfigError now for an unknown level
        if seat is not None and not 0 <= seat < n:
            raise ConfigError(f"seat must be 0..{n - 1} or None, got {seat}")
        self.levels = levels
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.render_mode = render_mode
        agent = self.aec.possible_agents[0]
        self.observation_space = self.aec.observation_space(agent)
        self.action_space = self.aec.action_space(agent)
        self.bots: dict[int, Any] = {}
        self._ended = True

    def _play_bots(self) -> None:
        """Bots move until it is the learner's turn or the game is over."""
        state = self.aec.state
        for _ in range(MAX_OPPONENT_MOVES):
            if state.is_over() or state.current_player() == self.seat:
                return
            p = state.current_player()
            state.apply(bot_action(self.bots[p], state, state.legal_actions()))
        raise RuntimeError(f"bots made {MAX_OPPONENT_MOVES} moves without the learner's turn")

    def _observe(self, illegal: int = NO_ILLEGAL_ACTION) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """The learner's observation and an info of the same keys and shapes at every
        step (``gloomtable.rl.infos``, plus ``action_mask``, ``seat``, ``illegal_action``)."""
        self.aec._legal = None
        state = self.aec.state
        obs = self.aec.observe(self.aec.possible_agents[self.seat])
        info: dict[str, Any] = {"action_mask": obs["action_mask"], "seat": self.seat,
                                "illegal_action": illegal}
        info.update(result_fields(state.result()) if state.is_over()
                    else empty_result(len(self.aec.possible_agents)))
        return obs, info

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        if self.fixed_seat is None:
            self.seat = int(rng.integers(len(self.aec.possible_agents)))
        self.aec.reset(seed=int(rng.integers(0, 2**63 - 1)))
        others = [q for q in range(len(self.aec.possible_agents)) if q != self.seat]
        self.bots = {q: make_bot(level, self.game_name, int(rng.integers(0, 2**63 - 1)))
                     for q, level in zip(others, self.levels, strict=True)}
        self._score = self._my_score()
        self._play_bots()
        self._ended = self.aec.state.is_over()
        return self._observe()

    def _my_score(self) -> float:
        return float(self.aec.encoder.score(self.aec.state.view(None), self.seat))

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        state = self.aec.state
        if self._ended:
            raise gymnasium.error.ResetNeeded("the episode is over: call reset()")
        a = int(action)
        if a not in state.legal_actions():
            self._ended = True
            obs, info = self._observe(illegal=a)
            return obs, ILLEGAL_REWARD, True, False, info
        state.apply_legal(a)  # the mask check above is the legality check
        self._play_bots()
        reward = 0.0
        if self.aec.reward_kind == "shaped":
            score = self._my_score()
            reward += (self._score - score) / self.aec.encoder.score_scale
            self._score = score
        terminated = truncated = False
        if state.is_over():
            self._ended = True
            result = state.result()
            reward += result.returns()[self.seat]
            truncated = result.capped
            terminated = not result.capped
        obs, info = self._observe()
        return obs, float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner now, as a bool array over the action space
        (the method sb3-contrib's ``MaskablePPO`` looks for). All False once the
        game is over (the same mask as ``obs["action_mask"]``)."""
        mask = np.zeros(self.aec.num_actions, np.bool_)
        state = self.aec.state
        if not state.is_over() and state.current_player() == self.seat:
            mask[self.aec.legal_actions()] = True
        return mask

    def render(self) -> str | None:
        """The table as the learner sees it: returned (``"ansi"``) or printed (``"human"``)."""
        if self.render_mode is None:
            return None
        return render_text(self.render_mode, self.aec.state.render(self.seat))

    def close(self) -> None:
        """Nothing to release."""


def register_envs() -> None:
    """Register ``gloomtable/<Game>-v0`` with Gymnasium (once per process)."""
    for env_id, game in GAMES.items():
        full = f"gloomtable/{env_id}"
        if full not in gymnasium.registry:
            gymnasium.register(id=full, entry_point="gloomtable.rl.gym_env:SeatEnv",
                               kwargs={"game": game})
