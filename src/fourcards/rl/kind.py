"""Four of a Kind as PettingZoo AEC environments: one deal an episode, or a whole session.

Agents ``player_0 .. player_{n-1}`` are the seats, clockwise (people see seats
1..n). Each agent observes ``{"observation": float32[28 n + 6], "action_mask":
int8[3 + max_bet]}``: the tensor and the integer actions of
:mod:`fourcards.rl.encoding` (docs/rl.md has the tables). The deal's chance steps
(dealt and turned cards) are drawn inside the environment from its seeded
random generator; only the agent to act is selected.

* :class:`KindEnv` (``four_of_a_kind_v0``) - one deal: when it ends every agent gets
  its net chips as its reward (they sum to zero) and is terminated.
* :class:`KindSessionEnv` (``four_of_a_kind_session_v0``) - deal after deal with the
  stacks carried over and the button rotating (rules.md FOAK-1, FOAK-9): at the end of
  each deal every agent gets that deal's net chips; an agent whose stack can no longer
  pay the ante is busted out (terminated); the session ends when fewer players than the
  rules' minimum can ante (everyone terminated) or after ``deals`` deals (truncated).

:func:`kind_env` and :func:`kind_session_env` wrap them in PettingZoo's standard
wrappers (``AssertOutOfBoundsWrapper``, ``OrderEnforcingWrapper``; with
``illegal_reward`` also :class:`IllegalCostsAFold`, PettingZoo's ``TerminateIllegalWrapper`` with
the penalty at least what folding would cost: rewards here are chips).
Render modes: ``"ansi"`` (:meth:`KindEnv.render` returns the table as one line of
text) and ``"human"`` (it is printed after every move; ``render()`` returns ``None``).
``reset(seed=s)`` seeds the cards and each agent's action space (``s + i``), so a run is
reproducible (PettingZoo's ``seed_test``).

The environments drive a :class:`~fourcards.kind.game.Game` through the engine
protocol alone: ``actor``, ``chance_step``/``apply_chance``, ``legal_actions``,
``apply``, ``observation`` and ``returns``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from fourcards.errors import IllegalActionError, RulesError
from fourcards.extras import require
from fourcards.kind.game import Game, can_play
from fourcards.kind.rules import KindRules
from fourcards.rl.encoding import KindActions, kind_string, kind_tensor, kind_tensor_size
from fourcards.rl.opponents import SeatBots, seat_plan
from fourcards.rl.tables import table_rules, table_stacks

require("rl", "fourcards.rl.kind_env")
from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402

__all__ = ["KindEnv", "KindSessionEnv", "IllegalCostsAFold", "kind_env", "kind_session_env", "wrap"]

_RENDER_MODES = ("human", "ansi")


class KindEnv(AECEnv):
    """One deal of Four of a Kind for ``players`` agents (see the module doc).

    Args:
        players: seats (the rules' 4..13).
        stack / stacks: chips per seat (every seat ``stack``, default 40 antes; or one per seat).
        button: the dealer seat (0-based).
        rules: the table's :class:`~fourcards.kind.rules.KindRules`.
        render_mode: ``None``, ``"ansi"`` or ``"human"``.
        opponents: bots or policies in some seats (:mod:`fourcards.rl.opponents`: one spec for every seat
            but ``seat``, or one entry per seat, ``None`` for the learner's; pools drawn per deal). They
            act inside :meth:`step`; the agents are the other seats only (``player_<seat>``).
        seat: the learner's seat when ``opponents`` is one spec (default 0).

    Raises:
        RulesError: a table the rules cannot deal, an unknown render mode, or a bad opponent.
        IllegalActionError: :meth:`step`, :meth:`last` or :meth:`observe` before :meth:`reset`.
    """

    metadata = {"name": "four_of_a_kind_v0", "render_modes": list(_RENDER_MODES), "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, players: int = 4, *, stack: int | None = None, stacks: Any = None, button: int = 0,
                 rules: KindRules | None = None, render_mode: str | None = None, opponents: Any = None,
                 seat: int | None = None) -> None:
        super().__init__()
        self.rules = rules or KindRules()
        self.stacks = table_stacks(players, stack, stacks, self.rules)
        self.button = button
        Game(self.rules, self.stacks, button, cards=())  # validates the table (RulesError)
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise RulesError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        self.render_mode = render_mode
        self.encoder = KindActions(self.rules)
        self.total_chips = sum(self.stacks)
        learners, specs = seat_plan(opponents, players, seat)
        self.opponents = SeatBots(specs)
        self.possible_agents = [f"player_{i}" for i in learners]
        self._seat_of = {a: i for a, i in zip(self.possible_agents, learners, strict=True)}
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

    def _started(self) -> Game:
        if self.game is None:
            raise IllegalActionError("no deal in progress: call reset() first")
        return self.game

    def _run_chance(self) -> None:
        assert self.game is not None
        while not self.game.is_terminal and self.game.actor is None and self.game.chance_step is not None:
            self.game.apply_chance(self._rng)

    def _run_table(self) -> None:
        """Chance, then the opponents' moves (and chance after each) until an agent is to act or the deal ends."""
        assert self.game is not None
        self._run_chance()
        self.opponents.play(self.game, self._run_chance)

    def _player(self, agent: str) -> int:
        return self._seat_of[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": tensor, "action_mask": mask}`` as ``agent`` sees the table.

        Raises:
            IllegalActionError: before :meth:`reset`.
        """
        game = self._started()
        player = self._player(agent)
        view = game.observation(player)
        return {"observation": kind_tensor(view, self.total_chips),
                "action_mask": self.encoder.mask(game.legal_actions(player))}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``(observation, cumulative reward, terminated, truncated, info)`` of the selected agent.

        Raises:
            IllegalActionError: before :meth:`reset`.
        """
        self._started()
        return super().last(observe)

    def _seed(self, seed: int | None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
            self.opponents.seed(seed)
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + i)

    def _begin(self, agents: list[str]) -> None:
        self.agents = agents
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new deal (same stacks and button); ``seed`` seeds the cards and the action spaces."""
        self._seed(seed)
        self.game = Game(self.rules, self.stacks, self.button, cards=())
        self.opponents.deal()
        self._run_table()
        self._begin(list(self.possible_agents))
        if self.game.is_terminal:  # the opponents played the deal out (an agent that sat it out)
            self._deal_over(self.game)
        self._select()
        self._show()

    def _select(self) -> None:
        assert self.game is not None
        actor = self.game.actor
        if actor is not None and f"player_{actor}" in self._seat_of:
            self.agent_selection = f"player_{actor}"
        elif self.agents:
            self.agent_selection = self.agents[0]

    def step(self, action: Any) -> None:
        """The selected agent's action id (``None`` once it is terminated).

        Raises:
            IllegalActionError: before :meth:`reset`, or an id the action mask forbids; nothing changes.
        """
        game = self._started()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        player = self._player(agent)
        try:
            act = self.encoder.action(int(action), game.legal_actions(player))
        except (TypeError, ValueError) as exc:
            raise IllegalActionError(f"{game.seat_label(player)}: {exc}") from None
        self._clear_rewards()
        self._cumulative_rewards[agent] = 0.0
        game.apply(act)
        self._run_table()
        if game.is_terminal:
            self._deal_over(game)
        else:
            self._select()
        self._accumulate_rewards()
        self._show()

    def _deal_over(self, game: Game) -> None:
        """Every agent gets its net chips and is terminated (one deal an episode)."""
        returns = game.returns()
        for a in self.possible_agents:
            i = self._player(a)
            self.rewards[a] = float(returns[i])
            self.terminations[a] = True
            self.infos[a] = {"returns": returns[i]}
        self._select()

    def _show(self) -> None:
        if self.render_mode == "human" and self.game is not None:
            print(kind_string(self.game.observation(None)))

    def render(self) -> str | None:
        """``"ansi"``: the table as a spectator sees it, one line of text; ``"human"``: that line
        printed (returns ``None``); ``None`` without a render mode or before :meth:`reset`."""
        if self.render_mode is None or self.game is None:
            return None
        text = kind_string(self.game.observation(None))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


class KindSessionEnv(KindEnv):
    """A session of Four of a Kind deals for ``players`` agents (see the module doc).

    Args:
        players, stack, stacks, button, rules, render_mode: as :class:`KindEnv` (the stacks and
            the button of the first deal).
        deals: the most deals a session lasts (then every agent still in is truncated);
            ``None``: until fewer than ``rules.min_players`` seats can pay the ante.

    ``infos[agent]`` after a deal: ``{"deal": number (from 1), "returns": that deal's net chips,
    "stack": chips after it}``. The observation's chip amounts stay fractions of all the chips
    at the table (the sum of the first stacks: chips are conserved).

    Raises:
        RulesError: as :class:`KindEnv`, or ``deals`` not a whole number >= 1.
    """

    metadata = {**KindEnv.metadata, "name": "four_of_a_kind_session_v0"}

    def __init__(self, players: int = 4, *, stack: int | None = None, stacks: Any = None, button: int = 0,
                 deals: int | None = None, rules: KindRules | None = None,
                 render_mode: str | None = None, opponents: Any = None, seat: int | None = None) -> None:
        super().__init__(players, stack=stack, stacks=stacks, button=button, rules=rules, render_mode=render_mode,
                         opponents=opponents, seat=seat)
        if deals is not None and (isinstance(deals, bool) or not isinstance(deals, int) or deals < 1):
            raise RulesError(f"deals must be a whole number >= 1 (or None), got {deals!r}")
        self.max_deals = deals
        self.deal_number = 0
        self.session_stacks = list(self.stacks)
        self.session_button = button

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new session from the first stacks and button; ``seed`` as :meth:`KindEnv.reset`."""
        self._seed(seed)
        self.session_stacks = list(self.stacks)
        self.session_button = self.button
        self.deal_number = 0
        self._begin([a for a in self.possible_agents if can_play(self.stacks[self._player(a)], self.rules)])
        self._next_deal()
        self._show()

    def _next_deal(self) -> None:
        """Deal again, or end the session: everyone terminated (too few can ante) or truncated."""
        stacks, rules = self.session_stacks, self.rules
        if self.agents and all(self.terminations[a] for a in self.agents):  # every agent busted (opponents play on)
            return
        if sum(can_play(s, rules) for s in stacks) < rules.min_players:
            for a in self.agents:
                self.terminations[a] = True
            self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]
            return
        if self.max_deals is not None and self.deal_number >= self.max_deals:
            for a in self.agents:
                self.truncations[a] = True
            self.agent_selection = self.agents[0]
            return
        button = self.session_button
        if not can_play(stacks[button], rules):
            from fourcards.kind.game import next_button

            button = next_button(stacks, button, rules)
        self.session_button = button
        self.deal_number += 1
        self.game = Game(rules, list(stacks), button, cards=())
        self.opponents.deal()
        self._run_table()
        if self.game.is_terminal:  # the opponents played the deal out (every agent busted or folded)
            self._deal_over(self.game)
            return
        self._select()

    def _deal_over(self, game: Game) -> None:
        returns = game.returns()
        self.session_stacks = list(game.stacks)
        self.session_button = game.next_button
        for a in self.agents:
            i = self._player(a)
            self.rewards[a] += float(returns[i])  # a deal the opponents played out adds to the step's
            self.infos[a] = {"deal": self.deal_number, "returns": returns[i], "stack": game.stacks[i]}
            if not can_play(game.stacks[i], self.rules):  # busted: it can never ante again
                self.terminations[a] = True
        self._next_deal()
        if any(self.terminations[a] or self.truncations[a] for a in self.agents):
            self._deads_step_first()


class IllegalCostsAFold(wrappers.TerminateIllegalWrapper):
    """PettingZoo's ``TerminateIllegalWrapper`` with rewards in chips: an illegal id ends the episode
    (the deal unsettled, the other agents 0) and costs the agent ``illegal_reward`` or what folding
    at that point would cost - every chip it has put in this deal - whichever is more. So an
    illegal move is never cheaper than a fold (a seat with 15 chips in that plays an illegal check
    gets -15 with ``illegal_reward=-1``, as the fold does)."""

    def __init__(self, env: Any, illegal_reward: float) -> None:
        super().__init__(env, illegal_reward=illegal_reward)
        self._given = float(illegal_reward)

    def step(self, action: Any) -> None:
        """As PettingZoo's, the penalty set from the selected agent's chips in the pot first."""
        base = self.env.unwrapped
        agent = base.agent_selection
        if base.game is not None and not (base.terminations.get(agent) or base.truncations.get(agent)):
            in_pot = base.game.observation(None).seats[base._player(agent)].contributed
            self._illegal_value = min(self._given, -float(in_pot))
        super().step(action)


def wrap(env: KindEnv, illegal_reward: float | None = None) -> Any:
    """``env`` in PettingZoo's standard wrappers: ``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(env))``,
    with :class:`IllegalCostsAFold` (PettingZoo's ``TerminateIllegalWrapper``, the penalty at least a
    fold's cost) innermost when ``illegal_reward`` is given: an illegal id then ends the episode with
    ``min(illegal_reward, -chips the agent has in the pot)`` for the agent instead of raising."""
    inner: Any = env
    if illegal_reward is not None:
        inner = IllegalCostsAFold(inner, illegal_reward=illegal_reward)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(inner))


def kind_env(players: int = 4, *, stack: int | None = None, stacks: Any = None, button: int = 0,
             preset: str = "family", render_mode: str | None = None, illegal_reward: float | None = None,
             opponents: Any = None, seat: int | None = None, **rules: Any) -> Any:
    """Four of a Kind, one deal an episode, as a PettingZoo AEC environment in the standard wrappers.

    Args:
        players: seats (4..13 with the presets).
        stack / stacks: chips per seat.
        button: the dealer seat (0-based).
        preset: ``"family"`` (seed 000), ``"opr903"`` (seed 001) or ``"nickel"``.
        render_mode: ``None``, ``"ansi"`` or ``"human"``.
        illegal_reward: ``None`` (the default: an id the mask forbids raises ``IllegalActionError``
            and changes nothing) or the reward of an agent whose illegal id ends the episode, in
            chips - never less costly than folding at that point (:class:`IllegalCostsAFold`).
        opponents / seat: bots or policies in the other seats (:class:`KindEnv`; :mod:`fourcards.rl.opponents`).
        **rules: :class:`~fourcards.kind.rules.KindRules` fields: ``ante``, ``min_bet``,
            ``max_bet``, ``max_raises``, ``redeal``, ...

    Returns:
        The wrapped :class:`KindEnv` (``.unwrapped`` is the environment itself).

    Raises:
        RulesError: unknown preset or rule, invalid values, or a table that cannot deal.
    """
    return wrap(KindEnv(players, stack=stack, stacks=stacks, button=button, rules=table_rules(preset, **rules),
                        render_mode=render_mode, opponents=opponents, seat=seat), illegal_reward)


def kind_session_env(players: int = 4, *, stack: int | None = None, stacks: Any = None, button: int = 0,
                     deals: int | None = None, preset: str = "family", render_mode: str | None = None,
                     illegal_reward: float | None = None, opponents: Any = None, seat: int | None = None,
                     **rules: Any) -> Any:
    """A session of Four of a Kind deals (:class:`KindSessionEnv`) in the standard wrappers.

    Arguments as :func:`kind_env` (``opponents`` and ``seat`` included), plus ``deals`` (the most deals a
    session lasts, ``None``: until too few players can ante).

    Raises:
        RulesError: as :func:`kind_env`, or a bad ``deals``.
    """
    return wrap(KindSessionEnv(players, stack=stack, stacks=stacks, button=button, deals=deals,
                               rules=table_rules(preset, **rules), render_mode=render_mode, opponents=opponents,
                               seat=seat), illegal_reward)
