"""PettingZoo's three classic-game checks in one wrapper layer.

PettingZoo wraps its classic games in ``TerminateIllegalWrapper``,
``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``. Each layer forwards
every attribute it does not hold through ``__getattr__``, and a step reads a
dozen of them, so the chain costs about 25 microseconds a step: more than
Leduc Hold'em's whole game, and a third of ours. :class:`CheckedEnv` makes the
same checks with the same outcomes (an illegal move ends the episode for
everyone and costs its agent ``illegal_reward``; an action outside the space
fails an assertion; calls before ``reset`` are refused) in one layer that
reads the environment directly. It is an ``OrderEnforcingWrapper``, so
``agent_iter`` keeps PettingZoo's own ordering checks, and
``tests/test_rl_pettingzoo.py`` holds its behaviour equal to the chain's.
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper


def _before_reset(name: str) -> AttributeError:
    return AttributeError(f"{name} cannot be accessed before reset")


def _after_reset(name: str) -> property:
    """The wrapped environment's attribute ``name``, refused before ``reset``."""

    def get(self: CheckedEnv) -> Any:
        if not self._has_reset:
            raise _before_reset(name)
        return getattr(self.env, name)

    return property(get, doc=f"The environment's ``{name}`` (after reset).")


class CheckedEnv(OrderEnforcingWrapper):  # type: ignore[misc]  # pettingzoo ships no type hints
    """Illegal-move termination, bounds assertion and call-order checks over a
    :class:`~gloomtable.rl.aec.GloomtableAECEnv` (see the module doc)."""

    def __init__(self, env: Any, illegal_reward: float = -1) -> None:
        super().__init__(env)
        self._illegal_value = float(illegal_reward)
        self._terminated = False  # ended by an illegal move

    # The attributes a step loop reads, straight from the environment (no
    # ``__getattr__`` fallback), and refused before reset as OrderEnforcing does.
    agent_selection = _after_reset("agent_selection")
    agents = _after_reset("agents")
    terminations = _after_reset("terminations")
    truncations = _after_reset("truncations")
    rewards = _after_reset("rewards")
    infos = _after_reset("infos")

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        rewards: dict[str, float] = self.env._cumulative_rewards
        return rewards

    @property
    def possible_agents(self) -> list[str]:
        agents: list[str] = self.env.possible_agents
        return agents

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._terminated = False
        super().reset(seed=seed, options=options)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise _before_reset("agent_selection")
        last: tuple[Any, float, bool, bool, dict[str, Any]] = self.env.last(observe)
        return last

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        env = self.env
        if not env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
            return
        self._has_updated = True
        agent = env.agent_selection
        done = env.terminations[agent] or env.truncations[agent]
        in_space = (type(action) is int and 0 <= action < env.num_actions) or (
            action is not None and env.action_spaces[agent].contains(action))
        assert (action is None and done) or in_space, "action is not in action space"
        if done:
            env.step(action)  # the environment retires a finished agent (``_was_dead_step``)
        elif not env.is_legal(int(action)):
            EnvLogger.warn_on_illegal_move()
            env._cumulative_rewards[agent] = 0
            env.terminations = dict.fromkeys(env.agents, True)
            env.truncations = dict.fromkeys(env.agents, True)
            env.rewards = dict.fromkeys(env.truncations, 0)
            env.rewards[agent] = self._illegal_value
            env._accumulate_rewards()
            env._deads_step_first()
            self._terminated = True
        else:
            env.step(action)
