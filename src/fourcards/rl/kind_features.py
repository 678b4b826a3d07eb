"""The features of the learned Four of a Kind bot, in numba over the batched environment's arrays and in Python.

The learned bot (:class:`fourcards.rl.bots.LearnedKindBot`) plays a table: one *action class* per
*cell* of a few features of the position. This module defines the cells and classes, computes
the features in numba from :class:`~fourcards.rl.kind_vector.KindVectorEnv`'s arrays (:func:`_features`,
for training and for ``learned`` opponents in the batched environment) and gives the cell of
features computed from an observation (:func:`cell_index`, used by :func:`fourcards.rl.bots.kind_features`;
a test checks the two agree). numpy and numba only.

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
class that is not legal falls back to check/call (:func:`fourcards.rl.bots.class_action`).
"""

from __future__ import annotations

import numpy as np

from fourcards.cards import Rank
from fourcards.jit import nb
from fourcards.kind.holdings import Holding
from fourcards.kind.odds import exact_odds

__all__ = ["EDGE_BINS", "RATIO_BINS", "N_CELLS", "N_CLASSES", "FOLD", "PASSIVE", "WAGER_MIN", "WAGER_MAX",
           "MAX_SEATS", "odds_table", "pots_table", "cell_index"]

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
#: Most seats :func:`odds_table` and the numba features serve (the ``learned`` bot plays any table in Python).
MAX_SEATS = 8


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


def odds_table(max_players: int = MAX_SEATS) -> tuple[np.ndarray, np.ndarray]:
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
