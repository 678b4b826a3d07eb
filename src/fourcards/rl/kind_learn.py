"""Learning a Four of a Kind bot on :class:`~fourcards.rl.kind_vector.KindVectorEnv` (numba).

The learned bot (:class:`fourcards.rl.bots.LearnedKindBot`) is a table: one *action class*
per *cell* of a few features of the position, the cells and classes below. This module
computes the features in numba over the batched environment's arrays, plays a ``pots``-like
opponent there, and runs the training and the duplicate-deal evaluation; the bot computes
the very same features from an :class:`~fourcards.kind.observation.Observation`
(:func:`fourcards.rl.bots.kind_features`; a test checks they agree).

**Features** of the seat to act ``s`` (``e`` = its exact expected share of the pot among the
active seats, :func:`~fourcards.kind.odds.exact_odds`, read from :func:`odds_table`):

* ``edge`` - ``e * n_able`` (``n_able``: active seats with chips behind; 0 if ``s`` has none or
  nobody can answer), in :data:`EDGE_BINS`: what ``pots`` bets on (``edge >= 1``);
* ``ratio`` - facing a bet of ``c`` chips: the chips ``s`` expects from the pot once it has
  called, ``p_high * (P - P // 2) + p_low * (P // 2)`` with ``P`` the pot after the call, over
  ``c`` (:data:`RATIO_BINS`; ``pots`` calls when it is >= 1); not facing a bet: its own cells;
* ``wagers`` - full bets and raises made this round (0..3, capped);
* ``crowd`` - active seats: 2, 3, 4, 5-6, 7 or more;
* ``race`` - the most cards an active seat holds (1, 2, 3).

(``pots`` prices side pots exactly; these features ignore them: they matter only with all-in
seats.) **Classes**: 0 fold, 1 check or call, 2 bet or raise the minimum, 3 the maximum; a
class that is not legal falls back to check/call (:func:`class_action`).

**Training** (:func:`train`): Monte Carlo policy iteration against ``pots``-like seats. The
table starts as ``pots``'s own decisions (:func:`pots_table`); each iteration plays deals
with the learner in half the seats (exploring a random class with probability ``explore``),
estimates every (cell, class)'s chips won from that decision to the end of the deal, and
switches a cell to another class only where that class is better by ``z`` standard errors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from fourcards.cards import Rank
from fourcards.jit import nb
from fourcards.kind.holdings import Holding
from fourcards.kind.odds import exact_odds
from fourcards.rl import kind_vector as kv

__all__ = ["EDGE_BINS", "RATIO_BINS", "N_CELLS", "N_CLASSES", "odds_table", "pots_table", "cell_index",
           "TrainResult", "train", "duplicate_match"]

#: ``edge`` bucket = how many of these it reaches (0..10).
EDGE_BINS = np.array([0.25, 0.5, 0.75, 0.9, 1.0, 1.1, 1.25, 1.5, 2.0, 3.0])
#: ``ratio`` bucket = 1 + how many of these it reaches (1..10); 0 = no bet to face.
RATIO_BINS = np.array([0.5, 0.75, 0.9, 1.0, 1.1, 1.25, 1.5, 2.0, 3.0])
_N_EDGE, _N_RATIO, _N_WAGERS, _N_CROWD, _N_RACE = len(EDGE_BINS) + 1, len(RATIO_BINS) + 2, 4, 5, 3
#: Cells of the table.
N_CELLS = _N_EDGE * _N_RATIO * _N_WAGERS * _N_CROWD * _N_RACE
#: Action classes: fold, check/call, bet/raise the minimum, the maximum.
N_CLASSES = 4
FOLD, PASSIVE, WAGER_MIN, WAGER_MAX = range(4)
_MAX_SEATS = 8


def cell_index(edge: float, ratio: float | None, wagers: int, crowd: int, race: int) -> int:
    """The cell of a position's features (``ratio`` ``None``: no bet to face); see the module doc."""
    e = int(np.searchsorted(EDGE_BINS, edge, side="right"))
    r = 0 if ratio is None else 1 + int(np.searchsorted(RATIO_BINS, ratio, side="right"))
    c = {2: 0, 3: 1, 4: 2}.get(crowd, 3 if crowd <= 6 else 4)
    return (((e * _N_RATIO + r) * _N_WAGERS + min(wagers, 3)) * _N_CROWD + c) * _N_RACE + (min(race, 3) - 1)


def _cells() -> np.ndarray:
    """``(N_CELLS, 5)``: (edge bucket, ratio bucket, wagers, crowd bucket, race - 1) of every cell."""
    grid = np.indices((_N_EDGE, _N_RATIO, _N_WAGERS, _N_CROWD, _N_RACE)).reshape(5, -1).T
    return grid


def pots_table() -> np.ndarray:
    """``uint8[N_CELLS]``: ``pots``'s class in every cell (max wager at ``edge >= 1``, else call at
    ``ratio >= 1`` or fold; check with no bet to face)."""
    g = _cells()
    edge_ok = g[:, 0] >= int(np.searchsorted(EDGE_BINS, 1.0, side="right"))
    facing = g[:, 1] > 0
    call_ok = g[:, 1] >= 1 + int(np.searchsorted(RATIO_BINS, 1.0, side="right"))
    out = np.where(edge_ok, WAGER_MAX, np.where(~facing | call_ok, PASSIVE, FOLD))
    return out.astype(np.uint8)


def odds_table(max_players: int = _MAX_SEATS) -> tuple[np.ndarray, np.ndarray]:
    """``(p_high, p_low)``, float64 ``[rows, max_players]``: the exact odds (:func:`exact_odds`) of every
    position of 2..``max_players`` active seats holding 1-3 cards, the seats in rank order; row
    ``offset(n) + sum((count_k - 1) * 3**k)`` with ``offset(n) = sum(3**m for m < n)``."""
    rows = sum(3 ** m for m in range(max_players + 1))
    ph = np.zeros((rows, max_players))
    pl = np.zeros((rows, max_players))
    for n in range(2, max_players + 1):
        off = sum(3 ** m for m in range(n))
        for idx in range(3 ** n):
            counts = [(idx // 3 ** k) % 3 + 1 for k in range(n)]
            odds = exact_odds([Holding(Rank(2 + k), c) for k, c in enumerate(counts)])
            ph[off + idx, :n] = [o.high for o in odds]
            pl[off + idx, :n] = [o.low for o in odds]
    return ph, pl


@nb.njit(cache=True, nogil=True)
def _bucket(x, bins):  # pragma: no cover - compiled
    k = 0
    for b in bins:
        if x >= b:
            k += 1
    return k


@nb.njit(cache=True, nogil=True)
def _odds_of(i, n, seat, rank, count, indeal, folded, ph, pl):  # pragma: no cover - compiled
    """``(p_high, p_low, active seats)`` of ``seat`` in deal ``i`` from the table."""
    order = np.empty(n, np.int64)
    m = 0
    for r in range(13):  # the active seats in rank order
        for x in range(n):
            if indeal[i, x] and not folded[i, x] and rank[i, x] == r:
                order[m] = x
                m += 1
    if m == 1:
        return 1.0, 0.0, 1
    off = 0
    p = 1
    for _ in range(m):
        off += p
        p *= 3
    idx = 0
    p = 1
    k_seat = 0
    for k in range(m):
        idx += (count[i, order[k]] - 1) * p
        p *= 3
        if order[k] == seat:
            k_seat = k
    return ph[off + idx, k_seat], pl[off + idx, k_seat], m


@nb.njit(cache=True, nogil=True)
def _features(i, n, rules, st, ph, pl, edge_bins, ratio_bins):  # pragma: no cover - compiled
    """``(cell, edge, ratio)`` of deal ``i``'s seat to act (ratio -1: no bet to face)."""
    (stack, contrib, stake, indeal, folded, need, mayraise, rank, count, owner, deck, ndeck, phase, level,
     wagers, actor, button, deals, rng) = st
    s = actor[i]
    hi, lo, m = _odds_of(i, n, s, rank, count, indeal, folded, ph, pl)
    able = 0
    race = 1
    pot = 0
    for x in range(n):
        if indeal[i, x] and not folded[i, x]:
            if stack[i, x] > 0:
                able += 1
            race = max(race, count[i, x])
        pot += contrib[i, x]
    edge = 0.0
    if stack[i, s] > 0 and able >= 2:
        edge = (hi + lo) / 2.0 * able
    to_call = level[i] - stake[i, s]
    ratio = -1.0
    rb = 0
    if to_call > 0:
        c = min(to_call, stack[i, s])
        after = pot + c
        take = hi * (after - after // 2) + lo * (after // 2)
        ratio = take / c
        rb = 1 + _bucket(ratio, ratio_bins)
    eb = _bucket(edge, edge_bins)
    crowd = 0 if m <= 2 else (1 if m == 3 else (2 if m == 4 else (3 if m <= 6 else 4)))
    cell = (((eb * 11 + rb) * 4 + min(wagers[i], 3)) * 5 + crowd) * 3 + (min(race, 3) - 1)
    return cell, edge, ratio


@nb.njit(cache=True, nogil=True)
def _class_id(mask, cls):  # pragma: no cover - compiled
    """The action id of class ``cls`` given the legal ``mask`` (see :func:`fourcards.rl.bots.class_action`)."""
    lo = -1
    hi = -1
    for a in range(3, mask.shape[0]):
        if mask[a]:
            if lo < 0:
                lo = a
            hi = a
    if cls == 3 and hi >= 0:
        return hi
    if cls == 2 and lo >= 0:
        return lo
    if cls == 0 and mask[0]:
        return 0
    return 1 if mask[1] else 2


@nb.njit(cache=True, nogil=True)
def _pots_class(edge, ratio):  # pragma: no cover - compiled
    if edge >= 1.0:
        return 3
    if ratio < 0.0 or ratio >= 1.0:
        return 1
    return 0


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
