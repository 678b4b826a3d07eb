"""Stable-Baselines3 over both games' vector environments, with action masks (extra ``sb3``).

:class:`PokerSB3VecEnv` is an SB3 ``VecEnv`` of ``num_envs`` rounds of
:class:`~fourcards.rl.PokerVectorEnv` (dealt and settled by the numba kernels): one step decides
every round, its rewards are the chips won (in antes with the default ante of 1; times
``reward_scale``), every episode lasts one step (``dones`` all true,
``infos[i]["terminal_observation"]`` the decided round), and ``env_method("action_masks")`` gives
each round's mask - what ``sb3_contrib``'s MaskablePPO asks for (``online`` masks 2x). Its
observations are the one-hot cards (``features="onehot"``) or the hand as a player reads it
(``"hand-v1"``, :mod:`fourcards.rl.features`).

:class:`KindSB3VecEnv` is the same over :class:`~fourcards.rl.KindVectorEnv` with opponents: one
learner seat per deal, the other seats played inside the environment (:mod:`fourcards.rl.opponents`),
a step per learner decision, the learner's net chips when a deal ends.

A Gymnasium vector environment is not an SB3 one; these are the adapters. :func:`policy_of` turns a
trained model into a vectorised policy that :func:`fourcards.poker.policy.score_policy` scores
exactly over every deal; :func:`frozen_policy` copies a model's network as a policy on the tensors
(an opponent, a league snapshot); :class:`SelfPlayCallback` puts such snapshots in a
:class:`~fourcards.rl.opponents.League` while a model learns.

``pip install 'fourcards[sb3]'`` brings stable-baselines3 and sb3-contrib (and PyTorch): the
extra is kept out of ``all`` and ``test``; without it importing this module raises
:class:`~fourcards.extras.MissingExtraError`. docs/rl.md "Stable-Baselines3".
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import numpy as np

from fourcards.errors import RulesError
from fourcards.extras import require
from fourcards.rl.encoding import OBS_SIZE
from fourcards.rl.features import ENCODINGS, POKER_FEATURE_SIZE, poker_features, poker_observation, policy_of
from fourcards.rl.kind_vector import KindVectorEnv
from fourcards.rl.opponents import League
from fourcards.rl.poker import PokerVectorEnv

require("sb3", "fourcards.rl.sb3")
import torch  # noqa: E402
from gymnasium import spaces  # noqa: E402
from stable_baselines3.common.callbacks import BaseCallback  # noqa: E402
from stable_baselines3.common.vec_env import VecEnv  # noqa: E402

__all__ = ["PokerSB3VecEnv", "KindSB3VecEnv", "policy_of", "frozen_policy", "SelfPlayCallback", "poker_observation"]

class _OverOneVectorEnv(VecEnv):
    """SB3's per-environment calls answered for one vector environment ``self.env`` whose
    sub-environments are its rounds or deals: an attribute or method result is the vector
    environment's, the same for each; ``action_masks`` one mask per sub-environment."""

    env: Any

    def action_masks(self) -> np.ndarray:
        """One mask per sub-environment, shape ``(num_envs, n_actions)`` bool (each subclass's own)."""
        raise NotImplementedError

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """The attribute for each sub-environment (``action_masks`` is the bound method, as SB3 expects)."""
        if attr_name == "render_mode":
            return [None for _ in self._get_indices(indices)]
        value = getattr(self, attr_name) if attr_name == "action_masks" else getattr(self.env, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Set an attribute of the underlying vector environment."""
        setattr(self.env, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
                   ) -> list[Any]:
        """``action_masks``: one mask per sub-environment; another method: called once, its result
        for each."""
        picked = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in picked]
        result = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [result for _ in picked]

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        """No sub-environment is wrapped."""
        return [False for _ in self._get_indices(indices)]


class PokerSB3VecEnv(_OverOneVectorEnv):
    """An SB3 ``VecEnv`` over :class:`~fourcards.rl.PokerVectorEnv` (see the module doc).

    Args:
        num_envs: rounds a step.
        rules, ante, aces_up: as :class:`~fourcards.rl.PokerVectorEnv`.
        seed: the deals' seed (``seed()`` sets it for the next ``reset``).
        features: the observation: ``"onehot"`` (default, ``int8[104]``, :class:`~fourcards.rl.PokerEnv`'s) or
            ``"hand-v1"`` (``float32[63]``, :func:`fourcards.rl.features.poker_features`).
        reward_scale: the rewards are the chips won times this (default 1).

    Raises:
        RulesError: as :class:`~fourcards.rl.PokerVectorEnv`, or an unknown encoding.
    """

    def __init__(self, num_envs: int, rules: Any = "live", *, ante: int = 1, aces_up: int = 0,
                 seed: int | None = None, features: str = "onehot", reward_scale: float = 1.0) -> None:
        self.env = PokerVectorEnv(num_envs, rules, ante=ante, aces_up=aces_up)
        if features not in ENCODINGS:
            raise RulesError(f"unknown observation encoding {features!r}: use {', '.join(ENCODINGS)}")
        self.features = features
        self.reward_scale = float(reward_scale)
        self.render_mode = None
        self._next_seed = seed
        self._actions: np.ndarray | None = None
        self._obs: np.ndarray | None = None
        space = (spaces.Box(0, 1, shape=(OBS_SIZE,), dtype=np.int8) if features == "onehot"
                 else spaces.Box(0.0, 1.0, shape=(POKER_FEATURE_SIZE,), dtype=np.float32))
        super().__init__(num_envs, space, spaces.Discrete(4))

    def _observe(self, obs: np.ndarray) -> np.ndarray:
        if self.features == "onehot":
            return obs
        cards = self.env.cards
        return poker_features(cards[:, :5], cards[:, 10])

    def reset(self) -> np.ndarray:
        """Deal ``num_envs`` rounds: their observations (``int8[num_envs, 104]`` or ``float32[num_envs, 63]``)."""
        obs, _ = self.env.reset(seed=self._next_seed)
        self._next_seed = None
        self._obs = self._observe(obs)
        return self._obs

    def step_async(self, actions: np.ndarray) -> None:
        """Keep the decisions for :meth:`step_wait`."""
        self._actions = np.asarray(actions).astype(np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """Settle every round, deal the next: ``(obs, rewards float32, dones, infos)``.

        Raises:
            IllegalActionError: an action the mask forbids (naming the round); nothing changes.
        """
        assert self._actions is not None, "step_async first"
        final = self._obs
        obs, rewards, done, _, info = self.env.step(self._actions)
        assert final is not None
        infos = [{"terminal_observation": final[i], "TimeLimit.truncated": False} for i in range(self.num_envs)]
        self._obs = self._observe(obs)
        return self._obs, (rewards * self.reward_scale).astype(np.float32), done, infos

    def action_masks(self) -> np.ndarray:
        """``bool[num_envs, 4]``: the legal decisions of every round."""
        return self.env.action_masks()

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """The seed of the deals from the next ``reset`` on."""
        self._next_seed = seed
        return [seed] * self.num_envs

    def close(self) -> None:
        """Nothing to release."""


class KindSB3VecEnv(_OverOneVectorEnv):
    """An SB3 ``VecEnv`` of Four of a Kind from one seat against opponents, over
    :class:`~fourcards.rl.KindVectorEnv` (see the module doc): ``float32[28 n + 6]`` observations, ``3 +
    max_bet`` actions with ``action_masks()``, a step per learner decision, rewards the learner's net chips
    (times ``reward_scale``) when a deal ends, ``infos[i]["terminal_observation"]`` the deal's last tensor.

    Args:
        num_envs: deals played side by side.
        players: seats.
        opponents: the other seats (default ``"random"``; :mod:`fourcards.rl.opponents`: names, bots,
            policies, pools, a :class:`~fourcards.rl.opponents.League`).
        seat: the learner's seat (default 0).
        seed: the deals' seed (``seed()`` sets it for the next ``reset``).
        reward_scale: the rewards are the chips won times this (default 1).
        **table: :class:`~fourcards.rl.KindVectorEnv`'s ``stack``, ``stacks``, ``button``, ``rules``, ``threads``.

    Raises:
        RulesError: as :class:`~fourcards.rl.KindVectorEnv`.
    """

    def __init__(self, num_envs: int, players: int = 4, *, opponents: Any = "random", seat: int | None = None,
                 seed: int | None = None, reward_scale: float = 1.0, **table: Any) -> None:
        self.env = KindVectorEnv(num_envs, players, opponents=opponents, seat=seat, **table)
        self.reward_scale = float(reward_scale)
        self.render_mode = None
        self._next_seed = seed
        self._actions: np.ndarray | None = None
        super().__init__(num_envs, self.env.single_observation_space, self.env.single_action_space)

    def reset(self) -> np.ndarray:
        """Deal every table; the learner's observations ``float32[num_envs, 28 n + 6]``."""
        obs, _ = self.env.reset(seed=self._next_seed)
        self._next_seed = None
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        """Keep the learner's ids for :meth:`step_wait`."""
        self._actions = np.asarray(actions).astype(np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """The learner's moves, the opponents' answers: ``(obs, rewards float32, dones, infos)``.

        Raises:
            IllegalActionError: an id the mask forbids (naming the deal); nothing changes.
        """
        assert self._actions is not None, "step_async first"
        obs, rewards, done, _, info = self.env.step(self._actions)
        final = info["final_obs"]
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(done).tolist():
            infos[i] = {"terminal_observation": final[i], "TimeLimit.truncated": False}
        return obs, (rewards * self.reward_scale).astype(np.float32), done, infos

    def action_masks(self) -> np.ndarray:
        """``bool[num_envs, 3 + max_bet]``: the learner's legal ids in every deal."""
        return self.env.action_masks()

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """The seed of the deals from the next ``reset`` on."""
        self._next_seed = seed
        return [seed] * self.num_envs

    def close(self) -> None:
        """Stop the environment's threads."""
        self.env.close()


def frozen_policy(model: Any, name: str = "snapshot") -> Any:
    """A copy of ``model``'s network, frozen, as a batch policy on the tensors: ``policy(obs[k, d],
    masks[k, a]) -> ids[k]`` (``vectorized``), its deterministic action under the mask. An opponent spec
    (:mod:`fourcards.rl.opponents`) and what :class:`SelfPlayCallback` puts in a league."""
    net = model.policy_class(model.observation_space, model.action_space, model.lr_schedule, **model.policy_kwargs)
    net.load_state_dict(copy.deepcopy(model.policy.state_dict()))
    net.set_training_mode(False)
    for p in net.parameters():
        p.requires_grad_(False)

    def policy(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        x = np.asarray(obs, dtype=np.float32)
        with torch.no_grad():
            try:
                actions, _ = net.predict(x, deterministic=True, action_masks=np.asarray(masks, dtype=bool))
            except TypeError:  # a policy without masks
                actions, _ = net.predict(x, deterministic=True)
        return np.asarray(actions, dtype=np.int64)

    policy.vectorized = True  # type: ignore[attr-defined]
    policy.__name__ = name
    return policy


class SelfPlayCallback(BaseCallback):
    """Puts a snapshot of the learning model (:func:`frozen_policy`) into ``league`` every ``every`` steps
    (environment steps, all deals counted): the opponents it plays draw it from their next deals on.

    Raises:
        RulesError: ``every`` < 1.
    """

    def __init__(self, league: League, every: int, verbose: int = 0) -> None:
        super().__init__(verbose)
        if isinstance(every, bool) or not isinstance(every, int) or every < 1:
            raise RulesError(f"every must be a whole number of steps >= 1, got {every!r}")
        self.league, self.every = league, every
        self._next = every

    def _on_step(self) -> bool:
        if self.num_timesteps >= self._next:
            self._next += self.every
            name = self.league.add(frozen_policy(self.model, f"snapshot-{self.num_timesteps}"),
                                   f"snapshot-{self.num_timesteps}")
            if self.verbose:
                print(f"self-play: {name} joins the league")
        return True
