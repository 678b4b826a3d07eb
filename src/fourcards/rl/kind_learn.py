"""Learning a Four of a Kind bot on :class:`~fourcards.rl.kind_vector.KindVectorEnv` (numba).

The learned bot (:class:`fourcards.rl.bots.LearnedKindBot`) is a table: one *action class* per
*cell* of a few features of the position (the cells, classes and features:
:mod:`fourcards.rl.kind_features`). This module plays a ``pots``-like opponent on the batched
environment's arrays and runs the training and the duplicate-deal evaluation.

**Training** (:func:`train`): Monte Carlo policy iteration against ``pots``-like seats. The
table starts as ``pots``'s own decisions (:func:`~fourcards.rl.kind_features.pots_table`); each
iteration plays deals with the learner in half the seats (exploring a random class with
probability ``explore``), estimates every (cell, class)'s chips won from that decision to the
end of the deal, and switches a cell to another class only where that class is better by ``z``
standard errors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from fourcards.jit import nb
from fourcards.rl import kind_vector as kv
from fourcards.rl.kind_features import (  # noqa: F401 - the features' names, kept importable from here
    EDGE_BINS,
    N_CELLS,
    N_CLASSES,
    RATIO_BINS,
    _class_id,
    _features,
    _pots_class,
    cell_index,
    odds_table,
    pots_table,
)

__all__ = ["EDGE_BINS", "RATIO_BINS", "N_CELLS", "N_CLASSES", "odds_table", "pots_table", "cell_index",
           "TrainResult", "train", "duplicate_match"]


@nb.njit(cache=True, nogil=True)
def _run(max_deals, n, rules, stacks0, seed, st, masks, ph, pl, edge_bins, ratio_bins, table, learner_even,
         explore, xrng, dup, stats, results, rec_cell, rec_cls, rec_stack, rec_seat):  # pragma: no cover
    """Play every deal until each environment has finished ``max_deals`` deals.

    Learner seats (the even seats where ``learner_even[i]``, else the odd ones) use ``table``
    (a random class with probability ``explore``, drawn from ``xrng``, never from the cards'
    streams); the others play ``pots``-like. Each learner decision's chips won from then to the
    end of its deal go into ``stats[cell * 4 + class]`` (count, sum, sum of squares);
    ``results[i]`` sums the learner seats' net chips. With ``dup`` the second half of the
    environments deals the first half's cards (duplicate deals)."""
    b = masks.shape[0]
    half = b // 2
    log = np.zeros((b, 1), np.int64)
    nlog = np.zeros(b, np.int64)
    stack = st[0]
    phase = st[12]
    actor = st[15]
    nrec = np.zeros(b, np.int64)
    finished = np.zeros(b, np.int64)
    for i in range(b):
        while finished[i] < max_deals:
            s = actor[i]
            mine = (s % 2 == 0) == learner_even[i]
            cell, edge, ratio = _features(i, n, rules, st, ph, pl, edge_bins, ratio_bins)
            if mine:
                if explore > 0.0 and (kv._next(xrng[i]) >> np.uint64(11)) * (1.0 / 9007199254740992.0) < explore:
                    cls = kv._below(xrng[i], 4)
                else:
                    cls = table[cell]
                if nrec[i] < rec_cell.shape[1]:
                    k = nrec[i]
                    rec_cell[i, k] = cell
                    rec_cls[i, k] = cls
                    rec_stack[i, k] = stack[i, s]
                    rec_seat[i, k] = s
                    nrec[i] += 1
            else:
                cls = _pots_class(edge, ratio)
            a = _class_id(masks[i], cls)
            kv._apply(i, n, rules, st, a, log, nlog)
            if phase[i] == kv._FINISHED:
                for k in range(nrec[i]):
                    g = float(stack[i, rec_seat[i, k]] - rec_stack[i, k])
                    c = rec_cell[i, k] * 4 + rec_cls[i, k]
                    stats[c, 0] += 1.0
                    stats[c, 1] += g
                    stats[c, 2] += g * g
                for x in range(n):
                    if (x % 2 == 0) == learner_even[i]:
                        results[i] += stack[i, x] - stacks0[x]
                nrec[i] = 0
                finished[i] += 1
                off = -half if (dup and i >= half) else 0
                kv._new_deal(i, off, n, rules, stacks0, -1, seed, st, log, nlog, log, nlog)
            kv._legal(i, n, rules, st, masks[i])


@dataclass
class TrainResult:
    """What :func:`train` did: the final ``table`` and, per iteration, the table size trained on,
    the learner decisions seen and the cells switched."""

    table: np.ndarray
    history: list[dict[str, Any]]


def _setup(players: int, envs: int, seed: int, dup: bool) -> kv.KindVectorEnv:
    env = kv.KindVectorEnv(envs, players)
    env.reset(seed=seed)
    if dup:  # the second half deals the first half's cards
        half = envs // 2
        st = env._state.arrays()
        for i in range(half, envs):
            st[17][i] = 0
            kv._new_deal(i, -half, players, env._rules, env._stacks0, -1, np.uint64(seed), st, env._log, env._nlog,
                         env._alog, env._nalog)
            kv._legal(i, players, env._rules, st, env._masks[i])
    return env


def _play(table: np.ndarray, players: int, deals: int, envs: int, seed: int, *, explore: float, dup: bool,
          odds: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    env = _setup(players, envs, seed, dup)
    b = env.num_envs
    learner_even = (np.arange(b) < b // 2) if dup else (np.arange(b) % 2 == 0)
    xrng = np.zeros((b, 4), np.uint64)
    for i in range(b):
        kv._seed_stream(np.uint64(seed ^ 0x51ED), i, 0, xrng[i])
    stats = np.zeros((N_CELLS * N_CLASSES, 3))
    results = np.zeros(b, np.int64)
    rec = [np.zeros((b, 256), np.int64) for _ in range(4)]
    ph, pl = odds
    _run(deals, players, env._rules, env._stacks0, np.uint64(seed), env._state.arrays(), env._masks, ph, pl,
         EDGE_BINS, RATIO_BINS, np.ascontiguousarray(table, dtype=np.int64), learner_even, float(explore), xrng,
         dup, stats, results, *rec)
    return stats, results


def duplicate_match(table: np.ndarray, players: int, deals: int, *, envs: int = 2048, seed: int = 1,
                    odds: tuple[np.ndarray, np.ndarray] | None = None) -> dict[str, float]:
    """The table against ``pots``-like seats in the batched env over duplicate deals: ``envs // 2`` deal
    streams of ``deals`` deals each, every deal played twice with the same cards, the learner in the
    even seats, then in the odd ones.

    Returns:
        ``{"deals", "mean", "low", "high"}``: the learner's chips per deal per seat and its 95%
        interval (over the deal streams, independent).
    """
    _, results = _play(table, players, deals, envs, seed, explore=0.0, dup=True,
                       odds=odds or odds_table(players))
    half = len(results) // 2
    per = (results[:half] + results[half:2 * half]) / (deals * players)
    mean, se = float(per.mean()), float(per.std(ddof=1) / np.sqrt(half))
    return {"deals": half * deals, "mean": mean, "low": mean - 1.96 * se, "high": mean + 1.96 * se}


def train(players: tuple[int, ...] = (4, 8), iterations: int = 8, deals: int = 64, envs: int = 4096, *,
          explore: float = 0.15, z: float = 3.0, seed: int = 0, table: np.ndarray | None = None,
          progress: Any = None) -> TrainResult:
    """Monte Carlo policy iteration of the table against ``pots``-like seats (see the module doc).

    Args:
        players: table sizes trained on, in turn (one size per iteration, cycling).
        iterations: improvement rounds.
        deals: deals per environment per round; envs: environments per round.
        explore: the probability of a random class at a learner decision.
        z: a cell switches to another class only when it is better by ``z`` standard errors.
        seed: seeds every round (round ``k`` uses ``seed + k``).
        table: the starting table (default :func:`pots_table`).
        progress: ``progress(dict)`` after each round.
    """
    table = (pots_table() if table is None else np.asarray(table, dtype=np.uint8)).copy()
    odds = {n: odds_table(n) for n in set(players)}
    history = []
    for k in range(iterations):
        n = players[k % len(players)]
        stats, _ = _play(table, n, deals, envs, seed + k, explore=explore, dup=False, odds=odds[n])
        count = stats[:, 0].reshape(N_CELLS, N_CLASSES)
        mean = stats[:, 1].reshape(N_CELLS, N_CLASSES) / np.maximum(count, 1)
        var = stats[:, 2].reshape(N_CELLS, N_CLASSES) / np.maximum(count, 1) - mean ** 2
        se = np.sqrt(np.maximum(var, 0) / np.maximum(count, 1))
        cur = table.astype(np.int64)
        rows = np.arange(N_CELLS)
        mean_cur, se_cur = mean[rows, cur], se[rows, cur]
        ok = count >= 30
        gain = np.where(ok, mean - mean_cur[:, None] - z * np.sqrt(se ** 2 + se_cur[:, None] ** 2), -np.inf)
        gain[~ok[rows, cur]] = -np.inf
        best = np.argmax(gain, axis=1)
        switch = gain[rows, best] > 0
        table[switch] = best[switch]
        entry = {"iteration": k, "players": n, "switched": int(switch.sum()),
                 "decisions": int(count.sum())}
        history.append(entry)
        if progress is not None:
            progress(entry)
    return TrainResult(table, history)
