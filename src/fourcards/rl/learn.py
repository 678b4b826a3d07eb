"""A simple learner for Four Card Poker whose result the exact analysis scores.

:class:`ChartLearner` is a tabular bandit learner on a coarse state abstraction:
the cell of a round is (the player's hand class, the dealer's up rank) - the
rows and columns of a :class:`~fourcards.poker.strategy.StrategyChart`
(32 hand classes: high card by top rank, pair by rank, two pair ... four of a
kind; 13 up ranks). It explores uniformly among the legal actions, values each
(cell, action) from the rewards seen, and reads off the greedy decision per
cell as a chart. :func:`train_chart` runs it on :class:`~fourcards.rl.PokerVectorEnv`
(or any environment with :class:`~fourcards.rl.PokerEnv`'s encoding).

Because the game's exact counts are known, the learned chart is scored without
sampling error: ``fourcards.poker.analysis.analyze(rules, learner.chart())`` or
``fourcards poker analyze --strategy learned.csv`` gives its house edge, to be
compared with the optimal strategy's (2.7879% of the ante for ``live``) and with
the best chart of the same shape (2.9041%): docs/rl.md "Learning meets exact maths".
numpy only (no deep-learning framework).
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

from fourcards.hands import best4_of5
from fourcards.poker.strategy import HAND_CLASSES, StrategyChart, hand_class_of_rank
from fourcards.rl.poker import ACTIONS, OBS_SIZE

__all__ = ["ChartLearner", "cells_of", "train_chart"]

N_CLASSES = len(HAND_CLASSES)  # 32
N_UP = 13
N_CELLS = N_CLASSES * N_UP


@nb.njit(cache=True)
def _decode(obs, cards, up):  # pragma: no cover - compiled
    """Card indices of each one-hot observation row; False if a row is not five cards and one up card."""
    for i in range(obs.shape[0]):
        n = 0
        u = -1
        for c in range(52):
            if obs[i, c]:
                if n == 5:
                    return False
                cards[i, n] = c
                n += 1
            if obs[i, 52 + c]:
                if u >= 0:
                    return False
                u = c
        if n != 5 or u < 0:
            return False
        up[i] = u
    return True


def cells_of(obs: np.ndarray) -> np.ndarray:
    """The chart cell ``hand_class * 13 + (up rank - 2)`` of each observation (``(N, 104)`` or ``(104,)``).

    Raises:
        ValueError: an observation that is not five player cards and one up card.
    """
    o = np.ascontiguousarray(np.asarray(obs).reshape(-1, OBS_SIZE))
    cards = np.empty((len(o), 5), dtype=np.uint8)
    up = np.empty(len(o), dtype=np.int64)
    if not _decode(o, cards, up):
        raise ValueError("every observation must hold five player cards and one up card")
    return hand_class_of_rank[best4_of5(cards)].astype(np.int64) * N_UP + up // 4


class ChartLearner:
    """Action values per chart cell from uniform exploration; greedy chart.

    Fold is valued by its mean reward. The play bets are valued by a line in the
    multiple, ``Q(cell, play k) = alpha + beta * k``, fitted to every play reward of
    the cell by least squares: a play bet's EV is linear in its size for any hand
    (docs/analysis.md "Definitions": ``(1 + k)(2p - 1) + B``), so the 1x, 2x and 3x
    rounds of a cell all inform the same two numbers instead of three separate
    means (less noise for the same rounds).

    Args:
        allowed: ``int8[4]`` action mask (fold, 1x, 2x, 3x) of the rules.
        seed: seeds the exploration.
    """

    def __init__(self, allowed: np.ndarray, seed: int | None = None) -> None:
        self.allowed = np.flatnonzero(np.asarray(allowed))
        self.total = np.zeros((N_CELLS, len(ACTIONS)))
        self.visits = np.zeros((N_CELLS, len(ACTIONS)), dtype=np.int64)
        self.rng = np.random.default_rng(seed)

    def explore(self, cells: np.ndarray) -> np.ndarray:
        """One action per cell in ``cells``, uniform over the allowed ones."""
        return self.allowed[self.rng.integers(0, len(self.allowed), len(cells))]

    def update(self, cells: np.ndarray, actions: np.ndarray, rewards: np.ndarray) -> None:
        """Add the rewards (chips) of ``actions`` taken in ``cells``."""
        key = np.asarray(cells, dtype=np.int64) * len(ACTIONS) + np.asarray(actions, dtype=np.int64)
        size, shape = self.total.size, self.total.shape
        self.total += np.bincount(key, weights=np.asarray(rewards, np.float64), minlength=size).reshape(shape)
        self.visits += np.bincount(key, minlength=size).reshape(shape)

    @property
    def values(self) -> np.ndarray:
        """``(416, 4)`` action values per cell (chips); ``-inf`` where not allowed or never tried."""
        v = np.full(self.total.shape, -np.inf)
        n = self.visits.astype(np.float64)
        if 0 in self.allowed:
            v[:, 0] = np.where(n[:, 0] > 0, self.total[:, 0] / np.maximum(n[:, 0], 1), -np.inf)
        plays = self.allowed[self.allowed > 0]
        if len(plays):
            k = plays.astype(np.float64)
            w = n[:, plays]
            y = self.total[:, plays] / np.maximum(w, 1)
            sw = w.sum(axis=1)
            mk = (w * k).sum(axis=1) / np.maximum(sw, 1)
            my = (w * y).sum(axis=1) / np.maximum(sw, 1)
            sxx = (w * (k - mk[:, None]) ** 2).sum(axis=1)
            beta = np.where(sxx > 0, (w * (k - mk[:, None]) * (y - my[:, None])).sum(axis=1)
                            / np.where(sxx > 0, sxx, 1), 0.0)
            alpha = my - beta * mk
            v[:, plays] = np.where(sw[:, None] > 0, alpha[:, None] + beta[:, None] * k, -np.inf)
        return v

    def decisions(self) -> np.ndarray:
        """``(416,)`` greedy action per cell (fold where nothing was tried)."""
        v = self.values
        best = np.argmax(v, axis=1)
        best[~np.isfinite(v).any(axis=1)] = 0
        return best

    def chart(self, name: str = "learned") -> StrategyChart:
        """The greedy decisions as a chart (rows: hand classes, columns: up ranks 2..A)."""
        return StrategyChart(name, self.decisions().reshape(N_CLASSES, N_UP).astype(np.uint8))


def train_chart(env: Any, episodes: int, seed: int | None = None) -> ChartLearner:
    """Train a :class:`ChartLearner` on ``episodes`` rounds of ``env``.

    Args:
        env: a :class:`~fourcards.rl.PokerVectorEnv` (``num_envs`` rounds a step) or a
            :class:`~fourcards.rl.PokerEnv` (one round a step).
        episodes: rounds to play (rounded up to whole batches).
        seed: seeds the environment's deals and the exploration.

    Returns:
        The learner; ``learner.chart()`` is the learned strategy chart.
    """
    vector = hasattr(env, "num_envs")
    mask = env.mask if vector else env.action_space.allowed
    learner = ChartLearner(mask, seed)
    if vector:
        obs, _ = env.reset(seed=seed)
        for _ in range(-(-episodes // env.num_envs)):
            cells = cells_of(obs)
            actions = learner.explore(cells)
            obs, rewards, _, _, _ = env.step(actions)
            learner.update(cells, actions, rewards)
        return learner
    obs, _ = env.reset(seed=seed)
    for _ in range(episodes):
        cell = cells_of(obs)
        action = learner.explore(cell)
        _, reward, _, _, _ = env.step(int(action[0]))
        learner.update(cell, action, np.array([reward]))
        obs, _ = env.reset()
    return learner
