"""Gymnasium ids of the environments, registered by ``import fourcards.rl`` (docs/rl.md "Gymnasium").

* ``fourcards/FourCardPoker-v0`` - :class:`fourcards.rl.poker.PokerEnv` (one round an
  episode: it ends by termination, never by a time limit), with
  :class:`~fourcards.rl.poker.PokerVectorEnv` as its vector entry point
  (``gymnasium.make_vec("fourcards/FourCardPoker-v0", num_envs=4096)``).
* ``fourcards/FourOfAKind-v0`` - :class:`fourcards.rl.kind_gym.KindGymEnv` (one deal an episode
  from the learner's seat, opponents in the others), with
  :class:`~fourcards.rl.kind_vector.KindVectorEnv` as its vector entry point
  (:func:`fourcards.rl.kind_gym.make_vector`).

The entry points are text, so registering imports nothing but Gymnasium. Gymnasium
1.x loads no plug-ins by itself: ``import fourcards.rl`` first, or name the module in
the id, ``gymnasium.make("fourcards.rl:fourcards/FourCardPoker-v0")``. The package
also declares this function under the ``gymnasium.envs`` entry-point group, which
Gymnasium 0.26-0.29 read at import (``pyproject.toml``).

Naming: an id's version goes up (``-v1``) when its observation, action or reward
encoding changes; the old id keeps the old encoding.
"""

from __future__ import annotations

__all__ = ["POKER_ENV_ID", "KIND_ENV_ID", "register_envs"]

#: ``gymnasium.make(POKER_ENV_ID, rules="online")``: :class:`fourcards.rl.poker.PokerEnv`.
POKER_ENV_ID = "fourcards/FourCardPoker-v0"
#: ``gymnasium.make(KIND_ENV_ID, players=4, opponents="pots")``: :class:`fourcards.rl.kind_gym.KindGymEnv`.
KIND_ENV_ID = "fourcards/FourOfAKind-v0"


def register_envs() -> None:
    """Register the ids above with Gymnasium (once; later calls do nothing).

    Raises:
        ImportError: Gymnasium is not installed (the ``rl`` extra).
    """
    import gymnasium as gym

    if POKER_ENV_ID not in gym.registry:
        gym.register(id=POKER_ENV_ID, entry_point="fourcards.rl.poker:PokerEnv",
                     vector_entry_point="fourcards.rl.poker:PokerVectorEnv")
    if KIND_ENV_ID not in gym.registry:
        gym.register(id=KIND_ENV_ID, entry_point="fourcards.rl.kind_gym:KindGymEnv",
                     vector_entry_point="fourcards.rl.kind_gym:make_vector")
