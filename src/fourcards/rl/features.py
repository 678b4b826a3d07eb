"""Features of a Four Card Poker decision for neural learners: the hand as a player reads it.

:func:`poker_features` (encoding ``"hand-v1"``) turns five cards and the dealer's up card into
``float32[N, 63]`` - what made MaskablePPO reach the optimal strategy's house edge where the one-hot
cards of :class:`~fourcards.rl.PokerEnv` did not (docs/rl.md "Deep RL that reaches the optimum"):

======  ==================================================================================
offset  content
======  ==================================================================================
0       the strength of the best four-card hand: its rank among the 2,535 four-card hand
        values (:func:`fourcards.hands.best4_of5`), over 2,534 (0 the weakest, 1 four aces)
1-32    one-hot hand class (:data:`fourcards.poker.strategy.HAND_CLASSES`: high card by top
        rank, pair by rank, two pair, straight, flush, three of a kind, straight flush, four
        of a kind): the rows of a strategy chart
33-45   one-hot rank of the dealer's up card, 2..A
46-49   one-hot number of the player's cards of the up card's rank, 0..3 (cards the dealer
        cannot have)
50-62   the player's cards per rank, 2..A, over 4
======  ==================================================================================

The features read ranks and the hand's value only, never suits, so a policy on them plays
suit-relabelled deals alike and :func:`fourcards.poker.policy.score_policy` scores it exactly
once per suit pattern (``symmetric=True``). :func:`policy_of` turns a trained model (anything with
Stable-Baselines3's ``predict``) into such a policy, in either encoding. numpy and the package's
hand kernels only.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fourcards.errors import RulesError
from fourcards.hands import N_VALUES, best4_of5
from fourcards.poker.strategy import HAND_CLASSES, hand_class_of_rank

__all__ = ["POKER_FEATURES", "POKER_FEATURE_SIZE", "ENCODINGS", "poker_features", "onehot_cards", "poker_observation",
           "policy_of"]

#: The name of the encoding, kept in agent files (a change gets a new name).
POKER_FEATURES = "hand-v1"
_CLASS, _UP, _MATCH, _RANKS = 1, 1 + len(HAND_CLASSES), 1 + len(HAND_CLASSES) + 13, 1 + len(HAND_CLASSES) + 17
#: Length of :func:`poker_features`' rows.
POKER_FEATURE_SIZE = _RANKS + 13


def poker_features(cards: np.ndarray, up: np.ndarray) -> np.ndarray:
    """``float32[N, 63]``: the features of each row of ``cards`` (``(N, 5)`` card indices) against ``up``
    (``(N,)`` card indices); layout in the module doc."""
    c = np.ascontiguousarray(np.asarray(cards, dtype=np.uint8).reshape(-1, 5))
    u = np.asarray(up, dtype=np.int64).reshape(-1)
    n = len(c)
    dense = best4_of5(c).astype(np.int64)
    out = np.zeros((n, POKER_FEATURE_SIZE), dtype=np.float32)
    rows = np.arange(n)
    out[:, 0] = dense / (N_VALUES - 1)
    out[rows, _CLASS + hand_class_of_rank[dense]] = 1.0
    up_rank = u >> 2
    out[rows, _UP + up_rank] = 1.0
    ranks = c.astype(np.int64) >> 2
    out[rows, _MATCH + (ranks == up_rank[:, None]).sum(axis=1)] = 1.0
    per_rank = np.bincount((rows[:, None] * 13 + ranks).ravel(), minlength=n * 13).reshape(n, 13)
    out[:, _RANKS:] = per_rank * 0.25
    return out


def onehot_cards(cards: np.ndarray, up: np.ndarray) -> np.ndarray:
    """``int8[N, 104]``: :class:`~fourcards.rl.PokerEnv`'s observation of each row (encoding ``"onehot"``)."""
    c = np.asarray(cards, dtype=np.int64).reshape(-1, 5)
    obs = np.zeros((len(c), 104), dtype=np.int8)
    rows = np.arange(len(c))
    obs[rows[:, None], c] = 1
    obs[rows, 52 + np.asarray(up, dtype=np.int64).reshape(-1)] = 1
    return obs


#: Poker observation encodings: ``onehot`` (PokerEnv's ``int8[104]``) and ``hand-v1`` (:mod:`fourcards.rl.features`).
ENCODINGS = ("onehot", POKER_FEATURES)


def poker_observation(features: str, cards: np.ndarray, up: np.ndarray) -> np.ndarray:
    """The observations of ``cards`` (``(N, 5)``) against ``up`` (``(N,)``) in encoding ``features``.

    Raises:
        RulesError: an unknown encoding.
    """
    if features == "onehot":
        return onehot_cards(cards, up)
    if features == POKER_FEATURES:
        return poker_features(cards, up)
    raise RulesError(f"unknown observation encoding {features!r}: use {', '.join(ENCODINGS)}")


def policy_of(model: Any, rules: Any = "live", features: str | None = None) -> Any:
    """A vectorised policy (``cards (N, 5), up (N,) -> decisions``, :mod:`fourcards.poker.policy`)
    playing ``model``'s deterministic action under the rules' mask, for exact scoring.

    ``features``: the model's observation encoding (default: ``"hand-v1"`` for a model that sees
    63 numbers, else ``"onehot"``). A ``hand-v1`` policy reads no suits: the result says so
    (``suit_symmetric``), and :func:`~fourcards.poker.policy.score_policy` then asks it once per suit
    pattern, exactly.
    """
    from fourcards.poker.exact.figures import options
    from fourcards.poker.rules import as_rules

    if features is None:
        shape = getattr(getattr(model, "observation_space", None), "shape", None)
        features = POKER_FEATURES if shape == (POKER_FEATURE_SIZE,) else "onehot"
    allowed = set(options(as_rules(rules)))
    mask = np.array([k in allowed for k in range(4)])
    encoding = features

    def policy(cards: np.ndarray, up: np.ndarray) -> np.ndarray:
        out = np.empty(len(cards), dtype=np.int64)
        for lo in range(0, len(cards), 1 << 16):
            c, u = cards[lo:lo + (1 << 16)], up[lo:lo + (1 << 16)]
            obs = poker_observation(encoding, c, u)
            masks = np.tile(mask, (len(c), 1))
            try:
                actions, _ = model.predict(obs, deterministic=True, action_masks=masks)
            except TypeError:  # a model without masks
                actions, _ = model.predict(obs, deterministic=True)
            out[lo:lo + len(c)] = actions
        return out

    policy.vectorized = True  # type: ignore[attr-defined]
    policy.suit_symmetric = features == POKER_FEATURES  # type: ignore[attr-defined]
    return policy
