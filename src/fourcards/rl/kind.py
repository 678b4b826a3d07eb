"""Four of a Kind as a PettingZoo AEC environment (one episode is one deal).

Agents ``player_0 .. player_{n-1}`` are the seats, clockwise (people see seats
1..n). Each agent observes ``{"observation": float32[28 n + 6], "action_mask":
int8[3 + max_bet]}``: the tensor and the integer actions of
:mod:`fourcards.rl.encoding` (docs/rl.md has the tables). The deal's chance steps
(dealt and turned cards) are drawn inside the environment from its seeded
random generator; only the agent to act is selected. When the deal ends every
agent gets its net chips as its reward (they sum to zero) and is terminated.

The environment drives a :class:`~fourcards.kind.game.Game` through the engine
protocol alone: ``actor``, ``chance_step``/``apply_chance``, ``legal_actions``,
``apply``, ``observation`` and ``returns``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from fourcards.errors import IllegalActionError, RulesError
from fourcards.extras import require
from fourcards.kind.game import Game
from fourcards.kind.rules import KindRules
from fourcards.rl.encoding import KindActions, kind_string, kind_tensor, kind_tensor_size
from fourcards.rl.tables import table_rules, table_stacks

require("rl", "fourcards.rl.kind_env")
from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402

__all__ = ["KindEnv", "kind_env"]


class KindEnv(AECEnv):
    """One deal of Four of a Kind for ``players`` agents (see the module doc).

    Args:
        players: seats (the rules' 4..13).
        stack / stacks: chips per seat (every seat ``stack``, default 40 antes; or one per seat).
        button: the dealer seat (0-based).
        rules: the table's :class:`~fourcards.kind.rules.KindRules`.
        render_mode: ``None`` or ``"ansi"``.

    Raises:
        RulesError: a table the rules cannot deal.
    """

    metadata = {"name": "four_of_a_kind_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, players: int = 4, *, stack: int | None = None, stacks: Any = None, button: int = 0,
                 rules: KindRules | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        self.rules = rules or KindRules()
        self.stacks = table_stacks(players, stack, stacks, self.rules)
        self.button = button
        Game(self.rules, self.stacks, button, cards=())  # validates the table (RulesError)
        if render_mode not in (None, "ansi"):
            raise RulesError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.encoder = KindActions(self.rules)
        self.total_chips = sum(self.stacks)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        size = kind_tensor_size(players)
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(self.encoder.num_actions,), dtype=np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.encoder.num_actions) for a in self.possible_agents}
        self.game: Game | None = None
        self._rng = random.Random()

    def observation_space(self, agent: str) -> spaces.Space:
        """The agent's observation space: ``Dict(observation, action_mask)``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(3 + max_bet)`` (docs/rl.md)."""
        return self.action_spaces[agent]

    # -------------------------------------------------------------- protocol

    def _run_chance(self) -> None:
        assert self.game is not None
        while not self.game.is_terminal and self.game.actor is None and self.game.chance_step is not None:
            self.game.apply_chance(self._rng)

    def _player(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": tensor, "action_mask": mask}`` as ``agent`` sees the table."""
        assert self.game is not None
        player = self._player(agent)
        view = self.game.observation(player)
        return {"observation": kind_tensor(view, self.total_chips),
                "action_mask": self.encoder.mask(self.game.legal_actions(player))}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new deal (same stacks and button); ``seed`` seeds the cards."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.game = Game(self.rules, self.stacks, self.button, cards=())
        self._run_chance()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        assert self.game is not None
        actor = self.game.actor
        if actor is not None:
            self.agent_selection = self.possible_agents[actor]
        elif self.agents:
            self.agent_selection = self.agents[0]

    def step(self, action: Any) -> None:
        """The selected agent's action id (``None`` once it is terminated).

        Raises:
            IllegalActionError: an id the action mask forbids; nothing changes.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game is not None
        player = self._player(agent)
        try:
            act = self.encoder.action(int(action), self.game.legal_actions(player))
        except (TypeError, ValueError) as exc:
            raise IllegalActionError(f"{self.game.seat_label(player)}: {exc}") from None
        self._cumulative_rewards[agent] = 0.0
        self.game.apply(act)
        self._run_chance()
        if self.game.is_terminal:
            returns = self.game.returns()
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = float(returns[i])
                self.terminations[a] = True
                self.infos[a] = {"returns": returns[i]}
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str | None:
        """``"ansi"``: one line for the table as a spectator sees it."""
        if self.render_mode is None or self.game is None:
            return None
        return kind_string(self.game.observation(None))

    def close(self) -> None:
        """Nothing to release."""


def kind_env(players: int = 4, *, stack: int | None = None, stacks: Any = None, button: int = 0,
             preset: str = "family", render_mode: str | None = None, **rules: Any) -> KindEnv:
    """Four of a Kind as a PettingZoo AEC environment (see the module doc).

    Args:
        players: seats (4..13 with the presets).
        stack / stacks: chips per seat.
        button: the dealer seat (0-based).
        preset: ``"family"`` (seed 000), ``"opr903"`` (seed 001) or ``"nickel"``.
        render_mode: ``None`` or ``"ansi"``.
        **rules: :class:`~fourcards.kind.rules.KindRules` fields: ``ante``, ``min_bet``,
            ``max_bet``, ``max_raises``, ``redeal``, ...

    Raises:
        RulesError: unknown preset or rule, invalid values, or a table that cannot deal.
    """
    return KindEnv(players, stack=stack, stacks=stacks, button=button, rules=table_rules(preset, **rules),
                   render_mode=render_mode)
