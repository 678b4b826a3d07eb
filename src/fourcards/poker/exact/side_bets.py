"""Exact return of any side bet on the player's, the dealer's or both final hands
(:class:`~fourcards.poker.side_bets.SideBet`): :func:`side_bet_figures` -> :class:`SideBetFigures`
(the bet and its :class:`~fourcards.poker.exact.returns.ReturnTable`). Part of the exact analysis
(docs/analysis.md "Side bets").

What a side bet needs beyond the dealer counts is the joint distribution of the two final hands'
categories over every deal: :func:`joint_categories` ``J[c, d]``, the (player five cards, dealer
six cards) pairs of disjoint sets whose best fours have categories ``c`` and ``d``. By
inclusion-exclusion over the cards the player holds::

    J[c, d] = sum over k = 0..5 of (-1)^k sum over k-card sets T of G_c(T) H_d(T)

with ``G_c(T)`` the five-card hands of category ``c`` holding ``T`` and ``H_d(T)`` the six-card
hands of category ``d`` holding ``T``. One compiled pass over the C(52, 6) six-card hands
(:func:`fourcards.poker.side_bet_kernels.dealer_six_sweep`) counts ``H`` for every four-card
``T`` and the five-card term directly; the smaller sets follow by summing up (a three-card set
lies in 3 of a six-card hand's four-card subsets that hold it, and so on), ``G`` likewise from the
2,598,960 five-card hands. Within one category the winner is the dealer counts' business: the
hands of category ``c`` that beat or tie the dealer's are ``le``'s, so the outcome (the player
wins or ties / loses) of every cell is exact too. About 5-10 s of CPU the first time (two
threads); the integer tables are then cached beside the dealer counts.

Combinations are counted over every deal like the base game's return tables (the player's five
cards, the up card, the dealer's five others: :data:`~fourcards.poker.exact.tables.N_DEALS`).
"""

from __future__ import annotations

import json
import math
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from fourcards.hands import (
    BINOM,
    CATEGORY_OF_DENSE,
    DENSE_CODES,
    DENSE_RANK_4,
    N_VALUES,
    HandCategory,
    colex_combos,
)
from fourcards.poker.exact.counts import ExactCounts, exact_counts
from fourcards.poker.exact.figures import class_sums
from fourcards.poker.exact.returns import ReturnRow, ReturnTable
from fourcards.poker.exact.tables import N_DEALER_HANDS, N_DEALS, base_tables
from fourcards.poker.side_bets import PAY_KEYS, SideBet

__all__ = ["JointCategories", "joint_categories", "SideBetFigures", "side_bet_figures", "CACHE_VERSION"]

#: Bump when the method or the cached file's layout changes.
CACHE_VERSION = 1
_N6 = math.comb(52, 6)
_DEALER_SETS = math.comb(47, 6)  # a dealer's six cards, once the player's five are out
_CATS = [HandCategory(c).key for c in range(8)]
_LOCK = threading.Lock()


def _kernels() -> Any:
    from fourcards import native

    return native.load("fourcards.poker.side_bet_kernels", "the side bet kernels")


@dataclass(frozen=True)
class JointCategories:
    """The two final hands' categories over every (player five, dealer six) pair of disjoint sets.

    Attributes:
        joint: ``(8, 8)`` int64, ``joint[c, d]``: pairs with the player's best four of category ``c``
            and the dealer's of category ``d`` (:class:`~fourcards.hands.HandCategory` values); they
            add up to C(52, 5) x C(47, 6).
        dealer_dense: ``(2,535,)`` int64: six-card hands by the dense rank of their best four (they
            add up to C(52, 6)).
        seconds: time to compute (0 when read from the cache).
    """

    joint: np.ndarray
    dealer_dense: np.ndarray
    seconds: float = 0.0


def _sweep(workers: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(h4, j5, dense6)`` of :func:`~fourcards.poker.side_bet_kernels.dealer_six_sweep` over every six-card
    hand, split by top card among ``workers`` threads (the kernel releases the GIL)."""
    k = _kernels()
    cat5 = np.ascontiguousarray(CATEGORY_OF_DENSE[base_tables().rank5], dtype=np.uint8)
    cat = np.ascontiguousarray(CATEGORY_OF_DENSE, dtype=np.uint8)
    n = max(1, min(workers or os.cpu_count() or 1, 8))
    # split the top cards 5..51 into n ranges of about equal work (C(f, 5) hands under top card f)
    work = np.array([math.comb(f, 5) for f in range(52)], dtype=np.float64)
    cum = np.cumsum(work)
    edges = [5, *(int(np.searchsorted(cum, cum[-1] * i / n)) + 1 for i in range(1, n)), 52]
    edges = sorted(set(min(max(e, 5), 52) for e in edges))
    parts = [(lo, hi) for lo, hi in zip(edges, edges[1:]) if hi > lo]

    def one(part: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        h4 = np.zeros((math.comb(52, 4), 8), dtype=np.int32)
        j5 = np.zeros((8, 8), dtype=np.int64)
        dense6 = np.zeros(N_VALUES, dtype=np.int64)
        seen = k.dealer_six_sweep(part[0], part[1], DENSE_RANK_4, cat, BINOM, cat5, h4, j5, dense6)
        return h4, j5, dense6, int(seen)

    if len(parts) == 1:
        results = [one(parts[0])]
    else:
        with ThreadPoolExecutor(max_workers=len(parts)) as pool:
            results = list(pool.map(one, parts))
    h4 = sum((r[0].astype(np.int64) for r in results[1:]), results[0][0].astype(np.int64))
    j5 = sum((r[1] for r in results[1:]), results[0][1])
    dense6 = sum((r[2] for r in results[1:]), results[0][2])
    if sum(r[3] for r in results) != _N6:  # pragma: no cover - a broken split
        raise RuntimeError("the six-card sweep missed hands")
    return h4, j5, dense6


def _subset_index(sets: np.ndarray, drop: int) -> np.ndarray:
    """Colex index of each row of ``sets`` (sorted cards) without its column ``drop``."""
    cols = [c for c in range(sets.shape[1]) if c != drop]
    return sum(BINOM[sets[:, c].astype(np.int64), i + 1] for i, c in enumerate(cols))


def _sum_down(upper: np.ndarray, k: int, divisor: int) -> np.ndarray:
    """From a table over (k+1)-card sets to one over k-card sets: each k-set gets the sum over the
    (k+1)-sets holding it, divided by ``divisor`` (how often a hand holding the k-set is counted)."""
    if k == 0:
        out = upper.sum(axis=0, keepdims=True)
    else:
        sets = colex_combos(52, k + 1)
        out = np.zeros((math.comb(52, k), upper.shape[1]), dtype=np.int64)
        for drop in range(k + 1):
            np.add.at(out, _subset_index(sets, drop), upper)
    if (out % divisor).any():  # pragma: no cover - a counting error
        raise RuntimeError(f"the {k}-card sums are not multiples of {divisor}")
    return out // divisor


def _five_card_fours() -> np.ndarray:
    """``G4[T, c]``: the five-card hands of category ``c`` holding the four cards ``T``."""
    t = base_tables()
    cat5 = CATEGORY_OF_DENSE[t.rank5].astype(np.int64)
    combos = t.combos
    g4 = np.zeros(math.comb(52, 4) * 8, dtype=np.int64)
    for drop in range(5):
        g4 += np.bincount(_subset_index(combos, drop) * 8 + cat5, minlength=len(g4))
    return g4.reshape(-1, 8)


def _joint_from_tables(h4: np.ndarray, j5: np.ndarray) -> np.ndarray:
    """``J[c, d]`` by inclusion-exclusion (module doc) from the six-card hands' four-card table ``h4``
    and five-card term ``j5``."""
    g = _five_card_fours()
    h = h4.astype(np.int64)
    joint = -j5.astype(np.int64)  # k = 5: (-1)^5 sum over the player's five cards of H_d(P)
    sign = 1
    for k in (4, 3, 2, 1, 0):
        term = g.T @ h
        joint = joint + sign * term
        if k:
            g = _sum_down(g, k - 1, 5 - (k - 1))
            h = _sum_down(h, k - 1, 6 - (k - 1))
        sign = -sign
    return joint


def _cache_path() -> Any:
    from fourcards.poker.exact.cache import cache_dir

    return cache_dir() / f"fcp-side-bet-categories-v{CACHE_VERSION}.json"


def joint_categories(*, use_cache: bool = True, workers: int | None = None) -> JointCategories:
    """The :class:`JointCategories` (module doc): computed once (seconds), then read from the cache
    directory of the dealer counts (a small JSON file; a file that fails the checks is recomputed)."""
    with _LOCK:
        return _joint(use_cache, workers)


@cache
def _memo() -> dict[str, JointCategories]:
    return {}


def _check(j: JointCategories) -> None:
    t = base_tables()  # the five-card hands by category, from their orbits (no full build)
    count5 = np.bincount(CATEGORY_OF_DENSE[t.orbit_rank], weights=t.orbit_size, minlength=8).astype(np.int64)
    cat6 = np.bincount(CATEGORY_OF_DENSE, weights=j.dealer_dense, minlength=8).astype(np.int64)
    if j.joint.shape != (8, 8) or j.dealer_dense.shape != (N_VALUES,) or int(j.dealer_dense.sum()) != _N6:
        raise ValueError("bad side bet tables")
    if not (np.array_equal(j.joint.sum(axis=1), count5 * _DEALER_SETS)
            and np.array_equal(j.joint.sum(axis=0), cat6 * math.comb(46, 5)) and (j.joint >= 0).all()):
        raise ValueError("the joint categories do not add up to the hands of each side")


def _joint(use_cache: bool, workers: int | None) -> JointCategories:
    memo = _memo()
    if use_cache and "joint" in memo:
        return memo["joint"]
    path = _cache_path()
    if use_cache:
        try:
            data = json.loads(path.read_text())
            j = JointCategories(np.array(data["joint"], dtype=np.int64), np.array(data["dealer_dense"], dtype=np.int64))
            _check(j)
            memo["joint"] = j
            return j
        except (OSError, ValueError, KeyError, TypeError):
            pass
    t0 = time.perf_counter()
    h4, j5, dense6 = _sweep(workers)
    j = JointCategories(_joint_from_tables(h4, j5), dense6, time.perf_counter() - t0)
    _check(j)
    if use_cache:
        memo["joint"] = j
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps({"joint": j.joint.tolist(), "dealer_dense": j.dealer_dense.tolist()}))
            os.replace(tmp, path)
        except OSError:
            pass
    return j


def categories_cached() -> bool:
    """Whether :func:`joint_categories` will read its tables from memory or the cache (no sweep)."""
    return "joint" in _memo() or _cache_path().exists()


# ---------------------------------------------------------------------------
# a side bet's return table
# ---------------------------------------------------------------------------

#: The hand class (:data:`fourcards.poker.exact.strategy.HAND_CLASSES`) -> category; class 25 is a pair of aces.
_CATEGORY_OF_CLASS = [0] * 13 + [1] * 13 + [2, 3, 4, 5, 6, 7]
_PAIR_OF_ACES_CLASS = 25


def _player_cells(counts: ExactCounts, aces: bool) -> list[tuple[str, str, str, int]]:
    """``(player key, dealer key, outcome, deals)`` by the player's hand class and the outcome, from the
    dealer counts alone (the dealer's key is ``"*"``). ``aces``: keep a pair of aces apart."""
    sums = class_sums(counts)
    out: dict[tuple[str, str], int] = {}
    for c in range(32):
        w, _, wle = (int(v) for v in sums[c].sum(axis=0))
        if not w:
            continue
        key = "pair_of_aces" if aces and c == _PAIR_OF_ACES_CLASS else _CATS[_CATEGORY_OF_CLASS[c]]
        # entries stand for a quarter of the (hand, up card) pairs: the up card's suit is mapped to clubs
        out[(key, "win")] = out.get((key, "win"), 0) + 4 * wle
        out[(key, "lose")] = out.get((key, "lose"), 0) + 4 * (w * N_DEALER_HANDS - wle)
    return [(p, "*", o, n) for (p, o), n in out.items() if n]


def _dealer_cells(j: JointCategories, aces: bool) -> list[tuple[str, str, str, int]]:
    """``("*", dealer key, "any", deals)`` by the dealer's hand alone (a pair of aces apart with ``aces``)."""
    per_set = 6 * math.comb(46, 5)  # each dealer six: its up card, then every player five of the 46 others
    top = (DENSE_CODES >> 12) & 0xF
    out: dict[str, int] = {}
    for r in np.flatnonzero(j.dealer_dense):
        cat = int(CATEGORY_OF_DENSE[r])
        key = "pair_of_aces" if aces and cat == HandCategory.PAIR and int(top[r]) == 14 else _CATS[cat]
        out[key] = out.get(key, 0) + int(j.dealer_dense[r]) * per_set
    return [("*", d, "any", n) for d, n in out.items()]


def _joint_cells(j: JointCategories, counts: ExactCounts) -> list[tuple[str, str, str, int]]:
    """``(player category, dealer category, outcome, deals)``: the joint categories split by the outcome
    (within one category, by the dealer counts: module doc)."""
    sums = class_sums(counts)
    le_by_cat = [0] * 8
    for c in range(32):
        le_by_cat[_CATEGORY_OF_CLASS[c]] += 4 * int(sums[c, :, 2].sum())  # pairs (hand, up card, five others)
    joint = j.joint.astype(object) * 6  # (player five, dealer six) -> deals: 6 up cards in the six
    out = []
    for c in range(8):
        below = sum(joint[c, d] for d in range(c))
        same_wins = le_by_cat[c] - below  # hands of category c beating or tying a dealer's of category c
        if not 0 <= same_wins <= joint[c, c]:  # pragma: no cover - counts and joint tables disagree
            raise RuntimeError("the joint categories and the dealer counts disagree")
        for d in range(8):
            if d < c:
                out.append((_CATS[c], _CATS[d], "win", int(joint[c, d])))
            elif d > c:
                out.append((_CATS[c], _CATS[d], "lose", int(joint[c, d])))
            else:
                out.append((_CATS[c], _CATS[d], "win", int(same_wins)))
                out.append((_CATS[c], _CATS[d], "lose", int(joint[c, c] - same_wins)))
    return [cell for cell in out if cell[3]]


_RANK = {k: i for i, k in enumerate(PAY_KEYS)}  # best first
_LABEL = {"four_of_a_kind": "four of a kind", "straight_flush": "straight flush", "three_of_a_kind": "three of a kind",
          "flush": "flush", "straight": "straight", "two_pair": "two pair", "pair_of_aces": "pair of aces",
          "pair": "pair", "high_card": "high card"}


@dataclass(frozen=True)
class SideBetFigures:
    """A side bet and its exact return table (per unit bet, over every deal: ``table.deals`` =
    :data:`~fourcards.poker.exact.tables.N_DEALS`); ``table.expected_value`` is its return per unit
    bet minus 1, ``table.house_edge`` its house edge."""

    bet: SideBet
    table: ReturnTable

    @property
    def return_(self) -> Any:
        """What a unit bet gets back on average, stake included (exact)."""
        return 1 + self.table.expected_value

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``bet`` (:meth:`SideBet.to_dict`), ``return`` (stake included) and the return table
        (:meth:`ReturnTable.to_dict`: rows, house edge, hit frequency, SD, volatility index, hold intervals)."""
        return {"bet": self.bet.to_dict(), "return": float(self.return_), **self.table.to_dict()}


def side_bet_figures(bet: SideBet, *, counts: ExactCounts | None = None,
                     progress: Callable[[int, int], None] | None = None) -> SideBetFigures:
    """The exact :class:`SideBetFigures` of ``bet``: every deal's final hands, each cell paid by the
    bet's table (:meth:`SideBet.settle`'s rule), one row per paying hand and one for everything that
    loses. A bet on the player's hand alone needs only the dealer counts (fast); any other needs the
    :func:`joint_categories` (seconds the first time, then cached)."""
    aces = "pair_of_aces" in bet.table
    if bet.hand == "player":
        cells = _player_cells(counts or exact_counts(progress=progress), aces)
        if bet.when == "any":
            cells = [(p, d, "any", n) for p, d, _, n in cells]
    elif bet.hand == "dealer" and bet.when == "any":
        cells = _dealer_cells(joint_categories(), aces)
    else:
        cells = _joint_cells(joint_categories(), counts or exact_counts(progress=progress))
    pays = bet.table
    paid: dict[str, int] = {}
    lost = 0
    for p, d, outcome, n in cells:
        if (bet.when == "player_wins" and outcome == "lose") or (bet.when == "player_loses" and outcome == "win"):
            lost += n
            continue
        if bet.hand == "player":
            key = p
        elif bet.hand == "dealer":
            key = d
        else:  # the lower of the two categories (within a category the hands' values do not matter here)
            key = min(p, d, key=lambda k: _CATS.index(k))
        if key in pays:
            paid[key] = paid.get(key, 0) + n
        else:
            lost += n
    when = {"any": "", "player_wins": ", the player wins or ties", "player_loses": ", the player loses"}[bet.when]
    rows = [ReturnRow(_LABEL[k] + when, pays[k], paid[k], 1) for k in sorted(paid, key=_RANK.__getitem__)]
    rows.append(ReturnRow("anything else (loses)", -1, lost, 1))
    whose = {"player": "the player's hand", "dealer": "the dealer's hand", "both": "the lower of the two hands"}
    title = f"Side bet {bet.name} (pays on {whose[bet.hand]})"
    return SideBetFigures(bet, ReturnTable(f"side_bet:{bet.name}", title, "side bet", N_DEALS, tuple(rows)))
