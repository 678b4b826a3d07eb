"""Reinforcement-learning adapters: Gymnasium and PettingZoo environments (extra ``rl``).

* :class:`PokerEnv` - Four Card Poker for one player against the dealer, as a
  Gymnasium environment: one episode is one round; actions fold / play 1x / 2x /
  3x with an action mask (the ``online`` preset masks 2x).
* :class:`PokerVectorEnv` - many rounds at once (a Gymnasium vector environment),
  dealt and settled by the simulator's numba kernels.
* :func:`kind_env` - Four of a Kind as a PettingZoo AEC environment with action
  masks (the integer encoding of spread-limit bets and raises is
  :mod:`fourcards.rl.encoding`); :func:`kind_session_env` - deal after deal, the
  stacks carried over, the button rotating, players busting out.
* :class:`KindVectorEnv` - many Four of a Kind deals at once (numba), every seat
  played by the caller or one seat against opponents; a Gymnasium vector environment
  (:mod:`fourcards.rl.kind_vector`; numpy and numba alone suffice to run it).
* :class:`KindGymEnv` - Four of a Kind from one seat against opponents, one deal an
  episode (Gymnasium ``fourcards/FourOfAKind-v0``; its vector form is :class:`KindVectorEnv`).
* :class:`OpponentPool`, :class:`League` - opponents drawn per deal, a self-play league
  (:mod:`fourcards.rl.opponents`); every Four of a Kind environment takes ``opponents=``.
* :func:`save` / :func:`load` - the agent format: a learner's policy in one file, a bot by
  path (``file:agent.zip``; :mod:`fourcards.rl.agents`).
* :func:`policy_bot` / :func:`poker_policy_bot` - a (tensor, mask) policy as a bot
  plug-in of either game (:mod:`fourcards.rl.bots`); :class:`LearnedKindBot` - the
  Four of a Kind bot learned on :class:`KindVectorEnv` (a table of numbers shipped
  with the package).
* :func:`train_chart` - a tabular learner whose decision chart the exact analysis scores.

The OpenSpiel games are registered by ``import fourcards.openspiel``. Both the
environments and the OpenSpiel games drive the engines through the engine
protocol (:mod:`fourcards.engine`) alone. docs/rl.md has the encodings as tables.

The frameworks come with ``pip install 'fourcards[rl]'``; without them, using a
name of this package raises :class:`~fourcards.extras.MissingExtraError` (an
``ImportError``) naming the ``rl`` extra.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["PokerEnv", "PokerVectorEnv", "kind_env", "KindEnv", "kind_session_env", "KindSessionEnv",
           "KindVectorEnv", "KindGymEnv", "OpponentPool", "League", "save", "load", "policy_bot", "poker_policy_bot",
           "LearnedKindBot", "train_chart", "ChartLearner"]

_WHERE = {
    "PokerEnv": "fourcards.rl.poker",
    "PokerVectorEnv": "fourcards.rl.poker",
    "kind_env": "fourcards.rl.kind",
    "KindEnv": "fourcards.rl.kind",
    "kind_session_env": "fourcards.rl.kind",
    "KindSessionEnv": "fourcards.rl.kind",
    "KindVectorEnv": "fourcards.rl.kind_vector",
    "KindGymEnv": "fourcards.rl.kind_gym",
    "OpponentPool": "fourcards.rl.opponents",
    "League": "fourcards.rl.opponents",
    "save": "fourcards.rl.agents",
    "load": "fourcards.rl.agents",
    "policy_bot": "fourcards.rl.bots",
    "poker_policy_bot": "fourcards.rl.bots",
    "LearnedKindBot": "fourcards.rl.bots",
    "train_chart": "fourcards.rl.learn",
    "ChartLearner": "fourcards.rl.learn",
}


def _register() -> None:
    """Register the Gymnasium ids (:mod:`fourcards.rl.registration`) when Gymnasium is installed."""
    try:
        from fourcards.rl.registration import register_envs

        register_envs()
    except ImportError:  # no rl extra: the names below say so when used
        pass


_register()


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'fourcards.rl' has no attribute {name!r}")
    return getattr(importlib.import_module(_WHERE[name]), name)
