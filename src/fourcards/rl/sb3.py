"""Stable-Baselines3 over Four Card Poker's vector environment, with action masks (extra ``sb3``).

:class:`PokerSB3VecEnv` is an SB3 ``VecEnv`` of ``num_envs`` rounds of
:class:`~fourcards.rl.PokerVectorEnv` (dealt and settled by the numba kernels): one step decides
every round, its rewards are the chips won (in antes with the default ante of 1), every episode
lasts one step (``dones`` all true, ``infos[i]["terminal_observation"]`` the decided round), and
``env_method("action_masks")`` gives each round's mask - what ``sb3_contrib``'s MaskablePPO asks
for (``online`` masks 2x). A Gymnasium vector environment is not an SB3 one; this is the adapter.

:func:`policy_of` turns a trained model into a vectorised policy that
:func:`fourcards.poker.policy.score_policy` scores exactly over every deal.

``pip install 'fourcards[sb3]'`` brings stable-baselines3 and sb3-contrib (and PyTorch): the
extra is kept out of ``all`` and ``test``; without it importing this module raises
:class:`~fourcards.extras.MissingExtraError`. docs/rl.md "Stable-Baselines3".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from fourcards.extras import require
from fourcards.rl.encoding import OBS_SIZE
from fourcards.rl.poker import PokerVectorEnv

require("sb3", "fourcards.rl.sb3")
from gymnasium import spaces  # noqa: E402
from stable_baselines3.common.vec_env import VecEnv  # noqa: E402

__all__ = ["PokerSB3VecEnv", "policy_of"]


class PokerSB3VecEnv(VecEnv):
    """An SB3 ``VecEnv`` over :class:`~fourcards.rl.PokerVectorEnv` (see the module doc).

    Args:
        num_envs: rounds a step.
        rules, ante, aces_up: as :class:`~fourcards.rl.PokerVectorEnv`.
        seed: the deals' seed (``seed()`` sets it for the next ``reset``).
    """

    def __init__(self, num_envs: int, rules: Any = "live", *, ante: int = 1, aces_up: int = 0,
                 seed: int | None = None) -> None:
        self.env = PokerVectorEnv(num_envs, rules, ante=ante, aces_up=aces_up)
        self.render_mode = None
        self._next_seed = seed
        self._actions: np.ndarray | None = None
        self._obs: np.ndarray | None = None
        super().__init__(num_envs, spaces.Box(0, 1, shape=(OBS_SIZE,), dtype=np.int8), spaces.Discrete(4))

    def reset(self) -> np.ndarray:
        """Deal ``num_envs`` rounds: their observations ``int8[num_envs, 104]``."""
        obs, _ = self.env.reset(seed=self._next_seed)
        self._next_seed = None
        self._obs = obs
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        """Keep the decisions for :meth:`step_wait`."""
        self._actions = np.asarray(actions).astype(np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """Settle every round, deal the next: ``(obs, rewards float32, dones, infos)``.

        Raises:
            IllegalActionError: an action the mask forbids (naming the round); nothing changes.
        """
        assert self._actions is not None, "step_async first"
        obs, rewards, done, _, info = self.env.step(self._actions)
        final = info["final_obs"]
        infos = [{"terminal_observation": final[i], "TimeLimit.truncated": False} for i in range(self.num_envs)]
        self._obs = obs
        return obs, rewards.astype(np.float32), done, infos

    def action_masks(self) -> np.ndarray:
        """``bool[num_envs, 4]``: the legal decisions of every round."""
        return self.env.action_masks()

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """The seed of the deals from the next ``reset`` on."""
        self._next_seed = seed
        return [seed] * self.num_envs

    def close(self) -> None:
        """Nothing to release."""

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """The attribute of every round (``action_masks`` is the bound method, as SB3 expects)."""
        if attr_name == "render_mode":
            return [None for _ in self._get_indices(indices)]
        value = getattr(self, attr_name) if attr_name == "action_masks" else getattr(self.env, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Set an attribute of the underlying vector environment."""
        setattr(self.env, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
                   ) -> list[Any]:
        """``action_masks``: one mask per round; another method: called once, its result for each round."""
        picked = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in picked]
        result = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [result for _ in picked]

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        """No round is wrapped."""
        return [False for _ in self._get_indices(indices)]


def policy_of(model: Any, rules: Any = "live") -> Any:
    """A vectorised policy (``cards (N, 5), up (N,) -> decisions``, :mod:`fourcards.poker.policy`)
    playing ``model``'s deterministic action under the rules' mask, for exact scoring."""
    from fourcards.poker.exact.figures import options
    from fourcards.poker.rules import as_rules as _as_rules

    allowed = set(options(_as_rules(rules)))
    mask = np.array([k in allowed for k in range(4)])

    def policy(cards: np.ndarray, up: np.ndarray) -> np.ndarray:
        out = np.empty(len(cards), dtype=np.int64)
        for lo in range(0, len(cards), 1 << 16):
            c, u = cards[lo:lo + (1 << 16)], up[lo:lo + (1 << 16)]
            obs = np.zeros((len(c), OBS_SIZE), dtype=np.int8)
            rows = np.arange(len(c))[:, None]
            obs[rows, c.astype(np.int64)] = 1
            obs[rows[:, 0], 52 + u.astype(np.int64)] = 1
            masks = np.tile(mask, (len(c), 1))
            try:
                actions, _ = model.predict(obs, deterministic=True, action_masks=masks)
            except TypeError:  # a model without masks
                actions, _ = model.predict(obs, deterministic=True)
            out[lo:lo + len(c)] = actions
        return out

    policy.vectorized = True  # type: ignore[attr-defined]
    return policy
