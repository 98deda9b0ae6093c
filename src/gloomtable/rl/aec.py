"""One PettingZoo AEC environment class serving every gloomtable game.

The environment drives an engine :class:`~gloomtable.engine.State` through the
protocol only, and builds each agent's observation from ``state.view(seat)``
alone (never from the state), so no hidden card can reach an agent.

Rewards come at the end: each agent's win share (``Result.returns()``: 1/k for
each of k tied winners, else 0). With ``reward="shaped"`` every step also pays
each agent the improvement of its own score (Family Value in Gloom, penalty
total in Crazy Creatures; lower is better in both) divided by the encoder's
``score_scale``; the win share still comes on top at the end.

Infos have one fixed shape at every step (:mod:`gloomtable.rl.infos`): the
result's fields, zeros until the game ends.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from gloomtable.engine import ConfigError, Game, State
from gloomtable.engine.hooks import EncoderFactory
from gloomtable.games import make_game, registry
from gloomtable.rl.infos import empty_result, result_fields

REWARDS = ("win_share", "shaped")
RENDER_MODES = ["human", "ansi"]
"""``"human"`` prints the table (the terminal client's text), ``"ansi"`` returns it."""
SHORT_MASK = 4
"""Action masks of at most this many legal actions are kept and copied, not rebuilt."""
SEED_BOUND = 2**63 - 1


class GloomtableAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type hints
    """AEC environment over ``make_game(game_name, config)``; see the module doc."""

    def __init__(self, game_name: str, env_name: str, encoder_for: EncoderFactory,
                 render_mode: str | None = None, reward: str = "win_share", **config: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ConfigError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        if reward not in REWARDS:
            raise ConfigError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
        self.metadata = {"render_modes": list(RENDER_MODES), "name": env_name, "is_parallelizable": False,
                         "render_fps": 1}
        self.render_mode = render_mode
        self.reward_kind = reward
        self.game: Game = make_game(game_name, config)
        self.encoder = encoder_for(self.game)
        self._observe = getattr(self.encoder, "observe", None)
        """``encoder.observe(state, seat)``, an encoder's shortcut for
        ``encoder.encode(state.view(seat))`` (held equal to it by a test), if it has one."""
        n = self.game.num_players
        self.num_actions = self.game.num_distinct_actions
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        size = self.encoder.size
        self.observation_spaces = {a: gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-1.0, 1.0, (size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.num_actions,), np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.num_actions)
                              for a in self.possible_agents}
        self._seeds = np.random.default_rng()
        self._masks: dict[tuple[int, ...], bytearray] = {}
        self.state: State = self.game.new_initial_state(0)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` makes this and every following game reproducible."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.state = self.game.new_initial_state(int(self._seeds.integers(0, SEED_BOUND)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        # The same keys and shapes at every step (gloomtable.rl.infos), so buffers that
        # fix a field's shape at the first insert take every step of every game.
        self.infos: dict[str, dict[str, Any]] = {a: empty_result(len(self.possible_agents))
                                                 for a in self.agents}
        self._legal: list[int] | None = None
        self._scores = self._public_scores() if self.reward_kind == "shaped" else None
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def _public_scores(self) -> list[float]:
        """Every seat's score as the public (spectator) view shows it."""
        view = self.state.view(None)
        return [self.encoder.score(view, q) for q in range(len(self.possible_agents))]

    def legal_actions(self) -> list[int]:
        """The legal actions of the agent to move (cached until the next step)."""
        if self._legal is None:
            self._legal = [] if self.state.is_over() else self.state.legal_actions()
        return self._legal

    def is_legal(self, action: int) -> bool:
        """Whether the agent to move may play ``action`` now."""
        return action in self.legal_actions()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.seat_of[agent]
        state = self.state
        fast = self._observe
        obs = fast(state, seat) if fast is not None else self.encoder.encode(state.view(seat))
        if state.is_over() or state.current_player() != seat:
            return {"observation": obs, "action_mask": np.zeros(self.num_actions, np.int8)}
        legal = self.legal_actions()
        if len(legal) <= SHORT_MASK:  # mostly "let it stand": the same few masks again and again
            key = tuple(legal)
            bits = self._masks.get(key)
            if bits is None:
                if len(self._masks) >= 4096:
                    self._masks.clear()
                bits = self._masks[key] = self._mask_bits(legal)
            bits = bytearray(bits)
        else:
            bits = self._mask_bits(legal)
        return {"observation": obs, "action_mask": np.frombuffer(bits, np.int8)}

    def _mask_bits(self, legal: list[int]) -> bytearray:
        bits = bytearray(self.num_actions)
        for a in legal:
            bits[a] = 1
        return bits

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        state = self.state
        state.apply(int(action))  # an illegal action raises IllegalActionError, unchanged
        self._legal = None
        if self._scores is None and not state.is_over():
            # Win-share rewards stay zero until the end: ``rewards`` holds the zeros
            # reset() put there, and adding them to the cumulative rewards is a no-op.
            self.agent_selection = self.possible_agents[state.current_player()]
            return
        rewards = dict.fromkeys(self.agents, 0.0)
        if self._scores is not None:
            scores = self._public_scores()
            scale = self.encoder.score_scale
            for a in self.agents:
                q = self.seat_of[a]
                rewards[a] = (self._scores[q] - scores[q]) / scale
            self._scores = scores
        if self.state.is_over():
            result = self.state.result()
            for a, share in zip(self.possible_agents, result.returns(), strict=True):
                rewards[a] += share
            ended = self.truncations if result.capped else self.terminations
            fields = result_fields(result)
            for a in self.agents:
                ended[a] = True
                self.infos[a] = dict(fields)
        else:
            self.agent_selection = self.possible_agents[self.state.current_player()]
        self.rewards = rewards
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as the agent to move sees it: returned (``render_mode="ansi"``)
        or printed (``"human"``, which returns ``None`` as Gymnasium's convention asks)."""
        if self.render_mode is None:
            return None
        return render_text(self.render_mode, self.state.render(self.seat_of[self.agent_selection]))

    def close(self) -> None:
        """Nothing to release: no window, no process."""


def render_text(mode: str, text: str) -> str | None:
    """``text`` for ``"ansi"``; printed for ``"human"`` (a text game's window is the terminal)."""
    if mode == "human":
        print(text, flush=True)
        return None
    return text


def wrapped(e: GloomtableAECEnv) -> Any:
    """``e`` with the checks PettingZoo's classic games get from their wrappers: an
    illegal move ends the episode with reward -1, out-of-range actions assert, the
    call order is checked (all three in one layer, see :mod:`gloomtable.rl.checked`)."""
    from gloomtable.rl.checked import CheckedEnv

    return CheckedEnv(e, illegal_reward=-1)


def raw_env_for(game: str, **kw: Any) -> GloomtableAECEnv:
    """The unwrapped environment of any registered game (``<game>_v0``, observed by its
    registry entry's encoder): a new game gets one with no code here."""
    entry = registry.entry(game)
    return GloomtableAECEnv(entry.name, f"{entry.name}_v0", entry.encoder_for, **kw)


def env_for(game: str, **kw: Any) -> Any:
    """:func:`raw_env_for` as PettingZoo's classic games wrap theirs."""
    return wrapped(raw_env_for(game, **kw))


def env_module(game: str) -> tuple[Callable[..., GloomtableAECEnv], Callable[..., Any]]:
    """``raw_env`` and ``env`` of a PettingZoo module (``gloom_v0``, ...): the modules
    name their game and nothing else, so the one definition is here."""

    def raw_env(**kw: Any) -> GloomtableAECEnv:
        """The unwrapped environment (raises on an illegal action)."""
        return raw_env_for(game, **kw)

    def env(**kw: Any) -> Any:
        """The environment as PettingZoo's classic games wrap theirs."""
        return env_for(game, **kw)

    return raw_env, env
