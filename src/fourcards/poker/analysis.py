"""Exact Four Card Poker mathematics: dealer counts, optimal strategy, house edge, Aces Up.

Everything here is a complete enumeration (no sampling). The method, the
timings and the published figures it reproduces are in ``docs/analysis.md``.

The pay-table-independent core is :func:`exact_counts`: for every player
five-card hand ``P`` and every dealer up card ``u`` the number of dealer
six-card hands (``u`` plus five of the 46 unseen cards, ``C(46,5) = 1,370,754``)
whose best four is *at most* the player's best four (``le``: the player wins or
ties - ties go to the player, the dealer always qualifies) and *strictly below*
it (``lt``). Suit symmetry is used twice: the up card's suit is mapped to clubs
(13 up ranks, weight 4 each), and the player's hands are reduced to orbits under
the 6 permutations of the other three suits (about 6x fewer hands). The counts
are cached on disk (``FOURCARDS_CACHE_DIR`` or ``platformdirs.user_cache_dir``)
so that a pay-table change only recomputes the decisions.

Public API:

* :func:`exact_counts` -> :class:`ExactCounts` (cached, pay-table independent);
* :func:`analyze` -> :class:`GameFigures` (house edge, element of risk, RTP,
  average total bet, decision and outcome frequencies) for any
  :class:`~fourcards.poker.rules.PokerRules` and any strategy;
* :func:`aces_up` -> :class:`AcesUpFigures` (exact return of any Aces Up table);
* :func:`hand_ev` -> :class:`HandEV` (EV of every option for one hand and up card:
  what a trainer needs);
* :func:`count_hand` - the dealer counts of one hand by direct enumeration;
* :func:`par_sheet` -> :class:`ParSheet` (everything above, JSON-ready and as Rich tables).
"""

from __future__ import annotations

import io
import math
import os
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import numba as nb
import numpy as np

from fourcards.cards import Card, Rank, parse_card, parse_cards
from fourcards.errors import CardError, RulesError
from fourcards.hands import (
    BINOM,
    CATEGORY_OF_DENSE,
    DENSE_CODES,
    DENSE_RANK_4,
    N_VALUES,
    HandCategory,
    HandValue,
    dense_to_value,
    sort_small,
)
from fourcards.poker.rules import AcesUpTable, PokerRules
from fourcards.poker.settlement import Settlement, settle

__all__ = [
    "N_DEALER_HANDS",
    "N_PLAYER_UP_PAIRS",
    "ExactCounts",
    "exact_counts",
    "count_hand",
    "cache_dir",
    "HandEV",
    "hand_ev",
    "settle_per_ante",
    "GameFigures",
    "analyze",
    "AcesUpFigures",
    "aces_up",
    "ParSheet",
    "par_sheet",
    "option_name",
]

#: Dealer completions per (player hand, up card): C(46, 5).
N_DEALER_HANDS = 1_370_754
#: Player hands per up card: C(51, 5).
N_HANDS_PER_UP = 2_349_060
#: All five-card hands: C(52, 5).
N_HANDS5 = 2_598_960
#: (player hand, up card) pairs: C(52, 5) x 47.
N_PLAYER_UP_PAIRS = N_HANDS5 * 47
#: Format of the on-disk cache; bump when the layout or the method changes.
CACHE_VERSION = 1

_N2, _N3, _N4 = 1326, 22100, 270725


# ---------------------------------------------------------------------------
# numba kernels
# ---------------------------------------------------------------------------


@nb.njit(cache=True)
def _colex_combos5(out):
    """All 5-subsets of 0..51 in colex order: ``out[i]`` has colex index ``i``."""
    i = 0
    for e in range(4, 52):
        for d in range(3, e):
            for c in range(2, d):
                for b in range(1, c):
                    for a in range(b):
                        out[i, 0] = a
                        out[i, 1] = b
                        out[i, 2] = c
                        out[i, 3] = d
                        out[i, 4] = e
                        i += 1
    return i


@nb.njit(cache=True, inline="always")
def _colex5(s, binom):
    return binom[s[0], 1] + binom[s[1], 2] + binom[s[2], 3] + binom[s[3], 4] + binom[s[4], 5]


@nb.njit(cache=True)
def _orbits(combos, binom, perms):
    """Orbit of every 5-set under the permutations of suits 1..3 (clubs fixed).

    Returns (rep, size): the smallest colex index in the orbit, and the orbit size.
    """
    n = combos.shape[0]
    rep = np.empty(n, np.int32)
    size = np.empty(n, np.uint8)
    s = np.empty(5, np.int64)
    imgs = np.empty(6, np.int64)
    for i in range(n):
        for p in range(6):
            for k in range(5):
                c = combos[i, k]
                s[k] = (c & ~3) | perms[p, c & 3]
            sort_small(s, 5)
            imgs[p] = _colex5(s, binom)
        best = imgs[0]
        distinct = 0
        for p in range(6):
            if imgs[p] < best:
                best = imgs[p]
            new = True
            for q in range(p):
                if imgs[q] == imgs[p]:
                    new = False
                    break
            if new:
                distinct += 1
        rep[i] = best
        size[i] = distinct
    return rep, size


@nb.njit(cache=True, inline="always")
def _subsets(x, binom, buf):
    """Colex indices of the proper subsets of the sorted 5-set ``x`` of sizes 1-4.

    ``buf[0:5]`` singles, ``buf[5:15]`` pairs, ``buf[15:25]`` triples, ``buf[25:30]`` quads.
    """
    k = 0
    for i in range(5):
        buf[k] = x[i]
        k += 1
    for j in range(1, 5):
        bj = binom[x[j], 2]
        for i in range(j):
            buf[k] = x[i] + bj
            k += 1
    for m in range(2, 5):
        bm = binom[x[m], 3]
        for j in range(1, m):
            bj = binom[x[j], 2] + bm
            for i in range(j):
                buf[k] = x[i] + bj
                k += 1
    b10 = x[0]
    b11 = x[1]
    b21 = binom[x[1], 2]
    b22 = binom[x[2], 2]
    b32 = binom[x[2], 3]
    b33 = binom[x[3], 3]
    b43 = binom[x[3], 4]
    b44 = binom[x[4], 4]
    buf[25] = b10 + b21 + b32 + b43  # without x4
    buf[26] = b10 + b21 + b32 + b44  # without x3
    buf[27] = b10 + b21 + b33 + b44  # without x2
    buf[28] = b10 + b22 + b33 + b44  # without x1
    buf[29] = b11 + b22 + b33 + b44  # without x0


@nb.njit(cache=True, inline="always")
def _incl_excl(c0, c1, c2, c3, c4, buf):
    s = c0
    for k in range(5):
        s -= c1[buf[k]]
    for k in range(5, 15):
        s += c2[buf[k]]
    for k in range(15, 25):
        s -= c3[buf[k]]
    for k in range(25, 30):
        s += c4[buf[k]]
    return s


@nb.njit(cache=True, nogil=True)
def _sweep_up_rank(up_rank_index, combos, r5, table4, binom, order_colex, order_orbit,
                   rank_start, n_values, out_le, out_lt):
    """Dealer counts for every canonical player hand against the up card (rank, clubs).

    Sweeps the dealer's dense ranks upwards, keeping for every subset S of at most
    four cards the number of dealer 5-card completions D containing S seen so far
    (R(D) <= r); the count of D disjoint from P follows by inclusion-exclusion.
    """
    u = up_rank_index * 4
    # best four among (three cards + u), by colex index of the triple
    v3 = np.zeros(_N3, np.uint16)
    q = np.empty(4, np.int64)
    for c in range(2, 52):
        for b in range(1, c):
            for a in range(b):
                if a == u or b == u or c == u:
                    continue
                k = 0
                placed = False
                for y in (a, b, c):
                    if not placed and u < y:
                        q[k] = u
                        k += 1
                        placed = True
                    q[k] = y
                    k += 1
                if not placed:
                    q[3] = u
                idx = binom[q[0], 1] + binom[q[1], 2] + binom[q[2], 3] + binom[q[3], 4]
                v3[a + binom[b, 2] + binom[c, 3]] = table4[idx]
    n5 = combos.shape[0]
    dealer = np.empty(n5, np.uint16)
    cnt = np.zeros(n_values + 1, np.int64)
    buf = np.empty(30, np.int64)
    x = np.empty(5, np.int64)
    for i in range(n5):
        has_u = False
        for k in range(5):
            x[k] = combos[i, k]
            if x[k] == u:
                has_u = True
        if has_u:
            dealer[i] = 65535
            continue
        best = r5[i]
        for m in range(2, 5):
            bm = binom[x[m], 3]
            for j in range(1, m):
                bj = binom[x[j], 2] + bm
                for t in range(j):
                    v = v3[x[t] + bj]
                    if v > best:
                        best = v
        dealer[i] = best
        cnt[best + 1] += 1
    for r in range(n_values):
        cnt[r + 1] += cnt[r]
    n_d = cnt[n_values]
    order = np.empty(n_d, np.int32)
    pos = cnt.copy()
    for i in range(n5):
        r = dealer[i]
        if r != 65535:
            order[pos[r]] = i
            pos[r] += 1
    c1 = np.zeros(52, np.int64)
    c2 = np.zeros(_N2, np.int32)
    c3 = np.zeros(_N3, np.int32)
    c4 = np.zeros(_N4, np.uint8)
    c0 = 0
    for r in range(n_values):
        p_lo = rank_start[r]
        p_hi = rank_start[r + 1]
        # player hands of value r: dealer hands strictly below r are in the counters
        for j in range(p_lo, p_hi):
            ci = order_colex[j]
            has_u = False
            for k in range(5):
                x[k] = combos[ci, k]
                if x[k] == u:
                    has_u = True
            if has_u:
                continue
            _subsets(x, binom, buf)
            out_lt[order_orbit[j]] = _incl_excl(c0, c1, c2, c3, c4, buf)
        for t in range(cnt[r], cnt[r + 1]):
            di = order[t]
            for k in range(5):
                x[k] = combos[di, k]
            _subsets(x, binom, buf)
            for k in range(5):
                c1[buf[k]] += 1
            for k in range(5, 15):
                c2[buf[k]] += 1
            for k in range(15, 25):
                c3[buf[k]] += 1
            for k in range(25, 30):
                c4[buf[k]] += 1
            c0 += 1
        for j in range(p_lo, p_hi):
            ci = order_colex[j]
            has_u = False
            for k in range(5):
                x[k] = combos[ci, k]
                if x[k] == u:
                    has_u = True
            if has_u:
                continue
            _subsets(x, binom, buf)
            # the term S = P: the dealer's five hidden cards equal to the player's own
            self_term = 1 if dealer[ci] == r else 0
            out_le[order_orbit[j]] = _incl_excl(c0, c1, c2, c3, c4, buf) - self_term
    return n_d


@nb.njit(cache=True, nogil=True)
def _count_one(player, up, player_rank, table4, binom):
    """(le, lt) for one hand by direct enumeration of the 1,370,754 dealer completions.

    The 46 unseen cards are relabelled 0..45; the best four of every 4-subset and
    of every 3-subset plus the up card are tabulated first (local colex indices),
    so each dealer hand costs 15 look-ups in small tables.
    """
    rest = np.empty(46, np.int64)
    k = 0
    for c in range(52):
        if c == up:
            continue
        hit = False
        for p in range(5):
            if player[p] == c:
                hit = True
        if not hit:
            rest[k] = c
            k += 1
    q = np.empty(4, np.int64)
    v3 = np.empty(binom[46, 3], np.uint16)
    for c in range(2, 46):
        for b in range(1, c):
            for a in range(b):
                m = 0
                placed = False
                for y in (rest[a], rest[b], rest[c]):
                    if not placed and up < y:
                        q[m] = up
                        m += 1
                        placed = True
                    q[m] = y
                    m += 1
                if not placed:
                    q[3] = up
                v3[a + binom[b, 2] + binom[c, 3]] = table4[binom[q[0], 1] + binom[q[1], 2] + binom[q[2], 3]
                                                          + binom[q[3], 4]]
    v4 = np.empty(binom[46, 4], np.uint16)
    for d in range(3, 46):
        for c in range(2, d):
            for b in range(1, c):
                for a in range(b):
                    v4[a + binom[b, 2] + binom[c, 3] + binom[d, 4]] = table4[
                        binom[rest[a], 1] + binom[rest[b], 2] + binom[rest[c], 3] + binom[rest[d], 4]]
    le = 0
    lt = 0
    for e in range(4, 46):
        for d in range(3, e):
            for c in range(2, d):
                # triples and quads not involving a, b
                t_cde = v3[c + binom[d, 2] + binom[e, 3]]
                for b in range(1, c):
                    best_b = t_cde
                    v = v3[b + binom[d, 2] + binom[e, 3]]
                    if v > best_b:
                        best_b = v
                    v = v3[b + binom[c, 2] + binom[e, 3]]
                    if v > best_b:
                        best_b = v
                    v = v3[b + binom[c, 2] + binom[d, 3]]
                    if v > best_b:
                        best_b = v
                    v = v4[b + binom[c, 2] + binom[d, 3] + binom[e, 4]]
                    if v > best_b:
                        best_b = v
                    for a in range(b):
                        best = best_b
                        for t in (v3[a + binom[b, 2] + binom[c, 3]], v3[a + binom[b, 2] + binom[d, 3]],
                                  v3[a + binom[b, 2] + binom[e, 3]], v3[a + binom[c, 2] + binom[d, 3]],
                                  v3[a + binom[c, 2] + binom[e, 3]], v3[a + binom[d, 2] + binom[e, 3]],
                                  v4[a + binom[b, 2] + binom[c, 3] + binom[d, 4]],
                                  v4[a + binom[b, 2] + binom[c, 3] + binom[e, 4]],
                                  v4[a + binom[b, 2] + binom[d, 3] + binom[e, 4]],
                                  v4[a + binom[c, 2] + binom[d, 3] + binom[e, 4]]):
                            if t > best:
                                best = t
                        if best <= player_rank:
                            le += 1
                            if best < player_rank:
                                lt += 1
    return le, lt


@nb.njit(cache=True)
def _accumulate(le, lt, weight, dec, group, n):
    acc = np.zeros((4, 4, 3), np.int64)
    wsum = np.zeros(4, np.int64)
    for ur in range(le.shape[0]):
        for o in range(le.shape[1]):
            w = weight[ur, o]
            if w == 0:
                continue
            k = dec[ur, o]
            wsum[k] += w
            if k > 0:
                g = group[o]
                acc[k, g, 0] += w * lt[ur, o]
                acc[k, g, 1] += w * (le[ur, o] - lt[ur, o])
                acc[k, g, 2] += w * (n - le[ur, o])
    return acc, wsum


@nb.njit(cache=True, parallel=True)
def _best5_all(combos, table4, binom):
    n = combos.shape[0]
    out = np.empty(n, np.uint16)
    for i in nb.prange(n):
        a = np.int64(combos[i, 0])
        b = np.int64(combos[i, 1])
        c = np.int64(combos[i, 2])
        d = np.int64(combos[i, 3])
        e = np.int64(combos[i, 4])
        best = table4[binom[b, 1] + binom[c, 2] + binom[d, 3] + binom[e, 4]]
        v = table4[binom[a, 1] + binom[c, 2] + binom[d, 3] + binom[e, 4]]
        if v > best:
            best = v
        v = table4[binom[a, 1] + binom[b, 2] + binom[d, 3] + binom[e, 4]]
        if v > best:
            best = v
        v = table4[binom[a, 1] + binom[b, 2] + binom[c, 3] + binom[e, 4]]
        if v > best:
            best = v
        v = table4[binom[a, 1] + binom[b, 2] + binom[c, 3] + binom[d, 4]]
        if v > best:
            best = v
        out[i] = best
    return out


# ---------------------------------------------------------------------------
# Base tables (pay-table and up-card independent)
# ---------------------------------------------------------------------------

_SUIT_PERMS = np.array(
    [[0, 1, 2, 3], [0, 1, 3, 2], [0, 2, 1, 3], [0, 2, 3, 1], [0, 3, 1, 2], [0, 3, 2, 1]], dtype=np.int64
)


@dataclass(frozen=True)
class BaseTables:
    """Tables over all 2,598,960 five-card hands, indexed by colex index.

    Attributes:
        combos: ``(C(52,5), 5)`` uint8, the sorted cards of each colex index.
        rank5: dense rank of the player's best four (uint16).
        orbit_of: the orbit (under permutations of diamonds/hearts/spades, clubs
            fixed) of each hand, 0..n_orbits-1 (int32).
        orbit_colex: colex index of each orbit's representative (the smallest).
        orbit_size: hands per orbit (1, 2, 3 or 6), uint8.
        orbit_rank: dense rank of each orbit's hand (uint16).
    """

    combos: np.ndarray
    rank5: np.ndarray
    orbit_of: np.ndarray
    orbit_colex: np.ndarray
    orbit_size: np.ndarray
    orbit_rank: np.ndarray

    @property
    def n_orbits(self) -> int:
        """Number of suit-permutation orbits of the five-card hands (the length of the ``orbit_*`` arrays)."""
        return len(self.orbit_colex)

    def orbit_has_up(self) -> np.ndarray:
        """``(13, n_orbits)`` bool: the orbit's hands hold the up card (rank, clubs)."""
        cards = self.combos[self.orbit_colex]
        out = np.zeros((13, self.n_orbits), dtype=bool)
        for ur in range(13):
            out[ur] = (cards == ur * 4).any(axis=1)
        return out


@cache
def base_tables() -> BaseTables:
    """The (memoised) :class:`BaseTables`; about 0.2 s to build."""
    combos = np.empty((N_HANDS5, 5), dtype=np.uint8)
    _colex_combos5(combos)
    rank5 = _best5_all(combos, DENSE_RANK_4, BINOM)
    rep, size = _orbits(combos, BINOM, _SUIT_PERMS)
    is_rep = rep == np.arange(N_HANDS5, dtype=np.int32)
    orbit_colex = np.flatnonzero(is_rep).astype(np.int32)
    pos = np.cumsum(is_rep, dtype=np.int32) - 1
    orbit_of = pos[rep]
    for arr in (combos, rank5, orbit_of, orbit_colex):
        arr.setflags(write=False)
    orbit_size = size[orbit_colex]
    orbit_size.setflags(write=False)
    orbit_rank = rank5[orbit_colex]
    orbit_rank.setflags(write=False)
    return BaseTables(combos, rank5, orbit_of, orbit_colex, orbit_size, orbit_rank)


# ---------------------------------------------------------------------------
# Exact counts (cached)
# ---------------------------------------------------------------------------


def cache_dir() -> Path:
    """Where the dealer counts are cached: ``$FOURCARDS_CACHE_DIR`` or the user cache dir."""
    env = os.environ.get("FOURCARDS_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("fourcards"))


def _cache_file(directory: Path) -> Path:
    return directory / f"fcp-dealer-counts-v{CACHE_VERSION}.npz"


@dataclass(frozen=True)
class ExactCounts:
    """Dealer counts for every (player hand orbit, up rank); pay-table independent.

    ``le[ur, o]`` / ``lt[ur, o]``: of the 1,370,754 dealer completions against the
    up card of rank ``ur + 2`` in clubs, how many the representative hand of orbit
    ``o`` beats or ties / beats. ``-1`` where the orbit's hands hold the up card.

    Attributes:
        le, lt: ``(13, n_orbits)`` int32.
        valid: ``(13, n_orbits)`` bool.
        weight: ``(13, n_orbits)`` int64 - the number of (hand, up suit mapped to
            clubs) pairs each entry stands for (orbit size, 0 where invalid); it
            sums to 13 x C(51,5) = 30,537,780.
        tables: the :class:`BaseTables`.
        seconds: time it took to compute (0 when loaded from the cache).
        source: ``"computed"``, ``"disk"`` or ``"memory"``.
    """

    le: np.ndarray
    lt: np.ndarray
    valid: np.ndarray
    weight: np.ndarray
    tables: BaseTables
    seconds: float = 0.0
    source: str = "computed"

    def lookup(self, cards: Iterable[Card | str] | str, up: Card | str) -> tuple[int, int]:
        """``(le, lt)`` for one player hand and up card."""
        ur, o = locate(cards, up, self.tables)
        return int(self.le[ur, o]), int(self.lt[ur, o])


def _validate_hand(cards: Iterable[Card | str] | str, up: Card | str) -> tuple[list[Card], Card]:
    hand = parse_cards(cards, count=5)
    upc = parse_card(up)
    if upc in hand:
        raise CardError(f"the up card {upc} is among the player's cards")
    return hand, upc


def map_to_clubs(indices: Sequence[int], up: int) -> list[int]:
    """Card indices with the up card's suit and clubs swapped (the canonical frame)."""
    s = up & 3
    out = []
    for c in indices:
        t = c & 3
        t = 0 if t == s else (s if t == 0 else t)
        out.append((c & ~3) | t)
    return out


def locate(cards: Iterable[Card | str] | str, up: Card | str, tables: BaseTables | None = None) -> tuple[int, int]:
    """``(up rank index 0..12, orbit)`` of a player hand and up card.

    Raises:
        CardError: malformed or duplicate cards, not five cards, or the up card
            among the player's cards.
    """
    hand, upc = _validate_hand(cards, up)
    tables = tables or base_tables()
    mapped = sorted(map_to_clubs([c.index for c in hand], upc.index))
    idx = int(sum(int(BINOM[c, i + 1]) for i, c in enumerate(mapped)))
    return upc.index // 4, int(tables.orbit_of[idx])


def _compute_counts(progress: Callable[[int, int], None] | None, workers: int | None) -> ExactCounts:
    t0 = time.perf_counter()
    tables = base_tables()
    n_orb = tables.n_orbits
    order = np.argsort(tables.orbit_rank, kind="stable").astype(np.int32)
    order_colex = tables.orbit_colex[order]
    rank_start = np.searchsorted(tables.orbit_rank[order], np.arange(N_VALUES + 1)).astype(np.int64)
    le = np.full((13, n_orb), -1, dtype=np.int32)
    lt = np.full((13, n_orb), -1, dtype=np.int32)
    done = 0
    lock = threading.Lock()

    def one(ur: int) -> None:
        nonlocal done
        n_d = _sweep_up_rank(ur, tables.combos, tables.rank5, DENSE_RANK_4, BINOM, order_colex, order,
                             rank_start, N_VALUES, le[ur], lt[ur])
        assert n_d == N_HANDS_PER_UP
        with lock:
            done += 1
            if progress is not None:
                progress(done, 13)

    workers = workers or min(13, os.cpu_count() or 1)
    if workers <= 1:
        for ur in range(13):
            one(ur)
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(one, range(13)))
    return _finish_counts(le, lt, tables, time.perf_counter() - t0, "computed")


def _finish_counts(le: np.ndarray, lt: np.ndarray, tables: BaseTables, seconds: float, source: str) -> ExactCounts:
    valid = ~tables.orbit_has_up()
    weight = np.where(valid, tables.orbit_size.astype(np.int64)[None, :], 0)
    for arr in (le, lt, valid, weight):
        arr.setflags(write=False)
    return ExactCounts(le, lt, valid, weight, tables, seconds, source)


def _check_counts(counts: ExactCounts) -> None:
    """Cheap integrity checks (a corrupt cache is recomputed)."""
    le, lt, valid = counts.le, counts.lt, counts.valid
    if not ((le[valid] >= lt[valid]).all() and (le[valid] <= N_DEALER_HANDS).all()
            and (lt[valid] >= 0).all() and (le[~valid] == -1).all()):
        raise ValueError("dealer counts out of range")
    if int(counts.weight.sum()) != 13 * N_HANDS_PER_UP:
        raise ValueError("weights do not sum to 13 x C(51,5)")


_MEMO: dict[str, ExactCounts] = {}
_MEMO_LOCK = threading.Lock()


def exact_counts(*, use_cache: bool = True, directory: str | os.PathLike[str] | None = None,
                 progress: Callable[[int, int], None] | None = None,
                 workers: int | None = None) -> ExactCounts:
    """The dealer counts for every player hand and up card (see :class:`ExactCounts`).

    Order of look-up: this process's memory, then the disk cache (``directory`` or
    :func:`cache_dir`), else computed (a few seconds; ``progress(done, 13)`` is
    called after each up rank) and written to the disk cache.

    Args:
        use_cache: False forces a fresh computation and leaves memory and disk alone.
        directory: cache directory (default :func:`cache_dir`).
        progress: callback for long runs.
        workers: threads (default: the number of CPUs, at most 13).
    """
    if not use_cache:
        return _compute_counts(progress, workers)
    d = Path(directory) if directory is not None else cache_dir()
    key = str(d.resolve())
    with _MEMO_LOCK:
        if key in _MEMO:
            return _MEMO[key]
        path = _cache_file(d)
        counts = None
        if path.exists():
            try:
                t0 = time.perf_counter()
                with np.load(path) as z:
                    le, lt = z["le"], z["lt"]
                tables = base_tables()
                if le.shape != (13, tables.n_orbits) or lt.shape != le.shape:
                    raise ValueError("shape")
                counts = _finish_counts(le.astype(np.int32, copy=False), lt.astype(np.int32, copy=False),
                                        tables, time.perf_counter() - t0, "disk")
                _check_counts(counts)
            except (OSError, ValueError, KeyError):
                counts = None
        if counts is None:
            counts = _compute_counts(progress, workers)
            _check_counts(counts)
            try:
                d.mkdir(parents=True, exist_ok=True)
                tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp.npz")
                np.savez(tmp, le=counts.le, lt=counts.lt)
                os.replace(tmp, path)
            except OSError:
                pass  # a read-only cache dir only costs time
        _MEMO[key] = counts
        return counts


def counts_cached(directory: str | os.PathLike[str] | None = None) -> bool:
    """Whether :func:`exact_counts` will be fast (in memory or on disk)."""
    d = Path(directory) if directory is not None else cache_dir()
    return str(d.resolve()) in _MEMO or _cache_file(d).exists()


def count_hand(cards: Iterable[Card | str] | str, up: Card | str) -> tuple[int, int]:
    """``(le, lt)`` for one hand by direct enumeration (tens of ms; no cache needed).

    Raises:
        CardError: see :func:`locate`.
    """
    hand, upc = _validate_hand(cards, up)
    idx = np.array(sorted(c.index for c in hand), dtype=np.int64)
    le, lt = _count_one(idx, upc.index, _rank5_of(hand), DENSE_RANK_4, BINOM)
    return int(le), int(lt)


def _rank5_of(hand: Sequence[Card]) -> int:
    """Dense rank of the best four of five cards."""
    from itertools import combinations

    best = 0
    for four in combinations(sorted(c.index for c in hand), 4):
        best = max(best, int(DENSE_RANK_4[sum(int(BINOM[c, i + 1]) for i, c in enumerate(four))]))
    return best


# ---------------------------------------------------------------------------
# Expected values and figures
# ---------------------------------------------------------------------------

_OPTION_NAMES = {0: "fold", 1: "play_1x", 2: "play_2x", 3: "play_3x"}


def option_name(multiple: int) -> str:
    """``0 -> "fold"``, ``k -> "play_kx"``."""
    return _OPTION_NAMES[int(multiple)]


def options(rules: PokerRules) -> tuple[int, ...]:
    """The decision options as play multiples, fold (0) first: ``(0, 1, 2, 3)`` or ``(0, 1, 3)``."""
    return (0, *rules.decision_multiples)


def bonus_pays(rules: PokerRules) -> np.ndarray:
    """Ante bonus pay (to 1) per dense hand rank (int64, length 2,535)."""
    per_cat = np.array(rules.ante_bonus.pays_by_category(), dtype=np.int64)
    return per_cat[CATEGORY_OF_DENSE]


_LOWEST_HAND = dense_to_value(0)
_HIGHEST_HAND = dense_to_value(N_VALUES - 1)


@lru_cache(maxsize=4096)
def settle_per_ante(rules: PokerRules, player: HandValue, multiple: int) -> tuple[Settlement, Settlement, Settlement]:
    """The settlements (:func:`fourcards.poker.settlement.settle`) of an ante of 1 and a play
    bet of ``multiple`` antes (0 = fold) for the hand ``player`` when it beats, ties and
    loses to the dealer's hand - the per-ante outcomes every figure here is built on.

    The win cap is not modelled: the analysis is per unit wagered (``rules.win_cap``
    is ignored). Memoised (the settlements are frozen), so a trainer's
    :func:`hand_ev` costs a few look-ups.
    """
    uncapped = replace(rules, win_cap=None) if rules.win_cap is not None else rules
    play = multiple if multiple else None
    win, tie, lose = (settle(uncapped, player, dealer, ante=1, play=play)
                      for dealer in (_LOWEST_HAND, player, _HIGHEST_HAND))
    return win, tie, lose


def ev_numerators(counts: ExactCounts, rules: PokerRules) -> tuple[tuple[int, ...], np.ndarray]:
    """Exact EVs (in antes) x 1,370,754 of every option for every entry.

    Returns ``(opts, ev)`` with ``ev[i, ur, o]`` the EV numerator of option
    ``opts[i]``: fold ``-N``; play ``k``: ``(1 + k)(2 le - N) + B N`` (ante and play
    bet win even money on a win or tie, lose otherwise; the ante bonus ``B`` is
    paid whenever the player plays). Entries where the hand holds the up card are 0.
    """
    n = N_DEALER_HANDS
    opts = options(rules)
    le = counts.le.astype(np.int64)
    b = bonus_pays(rules)[counts.tables.orbit_rank][None, :]
    ev = np.empty((len(opts), *le.shape), dtype=np.int64)
    margin = 2 * le - n
    for i, k in enumerate(opts):
        ev[i] = -n if k == 0 else (1 + k) * margin + b * n
    ev[:, ~counts.valid] = 0
    return opts, ev


def _frac(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def _pct(x: Fraction | float, digits: int = 4) -> str:
    return f"{float(x) * 100:.{digits}f}%"


@dataclass(frozen=True)
class OutcomeRow:
    """One line of the par sheet's outcome table: a decision, a hand group and a result."""

    option: str
    hand: str
    result: str
    net: int
    probability: Fraction

    @property
    def contribution(self) -> Fraction:
        """This row's share of the expected result, in antes per round: ``net * probability`` (exact)."""
        return self.net * self.probability


@dataclass(frozen=True)
class GameFigures:
    """Exact figures of the ante/play game for one rule set and one strategy.

    All probabilities are over every (player hand, up card) pair and dealer
    completion; money is in antes. ``house_edge`` is per ante (minus the
    expected result), ``element_of_risk`` is per total amount wagered (ante plus
    the average play bet), ``return_to_player = 1 - element_of_risk``.
    ``variance`` / ``standard_deviation``: of one round's net result per ante,
    from the same exact outcome counts (:attr:`outcomes`).
    """

    rules: PokerRules
    strategy: str
    house_edge: Fraction
    average_total_bet: Fraction
    decisions: dict[str, Fraction]
    win: Fraction
    tie: Fraction
    lose: Fraction
    fold: Fraction
    ante_bonus_return: Fraction
    outcomes: tuple[OutcomeRow, ...] = field(default=())

    @property
    def expected_value(self) -> Fraction:
        """The player's expected result per round, in antes (exact; ``-house_edge``)."""
        return -self.house_edge

    @property
    def element_of_risk(self) -> Fraction:
        """House edge per total amount wagered (ante plus the average play bet), exact: ``house_edge / average_total_bet``."""
        return self.house_edge / self.average_total_bet

    @property
    def return_to_player(self) -> Fraction:
        """Return to player per total amount wagered, exact: ``1 - element_of_risk``."""
        return 1 - self.element_of_risk

    @property
    def variance(self) -> Fraction:
        """Variance of one round's net result, in antes squared (exact): ``E[net^2] - E[net]^2``
        over the outcome rows (every decision, hand group and result with its exact probability)."""
        second = sum((r.probability * r.net * r.net for r in self.outcomes), Fraction(0))
        return second - self.expected_value ** 2

    @property
    def standard_deviation(self) -> float:
        """Standard deviation of one round's net result, in antes: ``sqrt(variance)`` (the variance is
        exact; only the square root is a float)."""
        return math.sqrt(self.variance)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``house_edge`` (per ante), ``element_of_risk`` and ``return_to_player`` (per total
        wagered), ``average_total_bet`` (antes), ``standard_deviation`` (of a round's net, in antes),
        probabilities of decisions and outcomes, the outcome rows as floats, and ``exact`` fractions as
        strings for the main figures (``variance`` in antes squared).
        """
        return {
            "strategy": self.strategy,
            "house_edge": float(self.house_edge),
            "element_of_risk": float(self.element_of_risk),
            "return_to_player": float(self.return_to_player),
            "average_total_bet": float(self.average_total_bet),
            "standard_deviation": self.standard_deviation,
            "decisions": {k: float(v) for k, v in self.decisions.items()},
            "frequencies": {"win": float(self.win), "tie": float(self.tie), "lose": float(self.lose),
                            "fold": float(self.fold)},
            "ante_bonus_return": float(self.ante_bonus_return),
            "outcomes": [
                {"option": r.option, "hand": r.hand, "result": r.result, "net": r.net,
                 "probability": float(r.probability), "contribution": float(r.contribution)}
                for r in self.outcomes
            ],
            "exact": {
                "house_edge": _frac(self.house_edge),
                "element_of_risk": _frac(self.element_of_risk),
                "return_to_player": _frac(self.return_to_player),
                "average_total_bet": _frac(self.average_total_bet),
                "variance": _frac(self.variance),
                "decisions": {k: _frac(v) for k, v in self.decisions.items()},
            },
        }


_BONUS_GROUPS = ("", "three of a kind", "straight flush", "four of a kind")


def _lowest_of(category: HandCategory) -> HandValue:
    return dense_to_value(int(np.flatnonzero(CATEGORY_OF_DENSE == category)[0]))


#: A hand of each ante bonus group (the lowest of its category: every dealer
#: outcome is possible against it); the settlement depends only on the group.
_BONUS_GROUP_HANDS = tuple(_lowest_of(c) for c in (HandCategory.PAIR, HandCategory.THREE_OF_A_KIND,
                                                     HandCategory.STRAIGHT_FLUSH, HandCategory.FOUR_OF_A_KIND))


def figures_from_decisions(counts: ExactCounts, rules: PokerRules, decisions: np.ndarray,
                           name: str = "custom") -> GameFigures:
    """Exact :class:`GameFigures` of a strategy given as ``(13, n_orbits)`` play multiples.

    Raises:
        RulesError: a decision is not fold or an allowed play multiple.
    """
    dec = np.asarray(decisions)
    if dec.shape != counts.le.shape:
        raise RulesError(f"a strategy needs decisions of shape {counts.le.shape}, got {dec.shape}")
    valid = counts.valid
    opts = options(rules)
    bad = valid & ~np.isin(dec, opts)
    if bad.any():
        raise RulesError(
            f"strategy {name!r} makes play bets the rules do not allow "
            f"({sorted(set(np.unique(dec[bad]).tolist()))}); allowed: {list(opts)}"
        )
    n = N_DEALER_HANDS
    total_w = int(counts.weight.sum())
    denom = total_w * n
    cat = CATEGORY_OF_DENSE[counts.tables.orbit_rank]
    group = np.zeros(cat.shape, dtype=np.int64)
    group[cat == HandCategory.THREE_OF_A_KIND] = 1
    group[cat == HandCategory.STRAIGHT_FLUSH] = 2
    group[cat == HandCategory.FOUR_OF_A_KIND] = 3
    # acc[k, g, 0..2]: sum of weight x (dealer hands beaten, tied, better) for play k, bonus group g;
    # wsum[k]: sum of weights choosing k (0 = fold)
    acc, wsum = _accumulate(counts.le, counts.lt, counts.weight, np.ascontiguousarray(dec, dtype=np.int64),
                            group, n)
    rows: list[OutcomeRow] = []
    total = 0
    bonus_total = 0
    decisions_p: dict[str, Fraction] = {}
    win = tie = lose = 0
    bet_sum = 0
    fold_w = int(wsum[0])
    for opt in opts:
        decisions_p[option_name(opt)] = Fraction(int(wsum[opt]), total_w)
        bet_sum += opt * int(wsum[opt])
        if opt == 0:
            total -= fold_w * n
            if fold_w:
                rows.append(OutcomeRow("fold", "any", "fold", -1, Fraction(fold_w, total_w)))
            continue
        for gi, gname in enumerate(_BONUS_GROUPS):
            hand = gname or "no ante bonus"
            settled = settle_per_ante(rules, _BONUS_GROUP_HANDS[gi], opt)
            for ri, (res, result) in enumerate(zip(("win", "tie", "lose"), settled, strict=True)):
                s = int(acc[opt, gi, ri])
                if s:
                    rows.append(OutcomeRow(option_name(opt), hand, res, result.net, Fraction(s, denom)))
                    total += result.net * s
                    bonus_total += result.ante_bonus * s
        win += int(acc[opt, :, 0].sum())
        tie += int(acc[opt, :, 1].sum())
        lose += int(acc[opt, :, 2].sum())
    return GameFigures(
        rules=rules,
        strategy=name,
        house_edge=Fraction(-total, denom),
        average_total_bet=1 + Fraction(bet_sum, total_w),
        decisions=decisions_p,
        win=Fraction(win, denom),
        tie=Fraction(tie, denom),
        lose=Fraction(lose, denom),
        fold=Fraction(fold_w, total_w),
        ante_bonus_return=Fraction(bonus_total, denom),
        outcomes=tuple(rows),
    )


def analyze(rules: PokerRules | str = "live", strategy: Any = "optimal", *,
            counts: ExactCounts | None = None,
            progress: Callable[[int, int], None] | None = None) -> GameFigures:
    """Exact figures of the ante/play game under ``strategy``.

    Args:
        rules: a :class:`PokerRules` or a preset name.
        strategy: ``"optimal"``, ``"simple"`` (Shuffle Master's published simple
            strategy), ``"chart"`` (the compact chart of :func:`strategy.optimal_chart`),
            a path to a strategy chart file (CSV), a
            :class:`~fourcards.poker.strategy.Strategy`, a
            :class:`~fourcards.poker.strategy.StrategyChart`, or a
            ``(13, n_orbits)`` array of play multiples.
        counts: the :class:`ExactCounts` (default :func:`exact_counts`).

    Raises:
        RulesError: unknown preset, or a strategy that is not valid for the rules.
    """
    from fourcards.poker import strategy as strat

    rules = _as_rules(rules)
    counts = counts or exact_counts(progress=progress)
    s = strat.get_strategy(strategy, rules, counts=counts)
    return figures_from_decisions(counts, rules, s.decisions, s.name)


def _as_rules(rules: PokerRules | str | None) -> PokerRules:
    from fourcards.poker.rules import get_rules

    if rules is None:
        return get_rules("live")
    if isinstance(rules, str):
        return get_rules(rules)
    return rules


# ---------------------------------------------------------------------------
# One hand: the EV of every option (for a trainer)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HandEV:
    """The exact EV (in antes, Aces Up excluded) of every option for one hand and up card.

    Attributes:
        cards, up: the player's five cards and the dealer's up card.
        hand: the player's best four-card value.
        le, lt: of the 1,370,754 dealer completions, how many the hand beats or
            ties / beats.
        ev: EV per option name (``"fold"``, ``"play_1x"``, ...), exact.
        decision: the optimal option (ties go to the smaller wager).
    """

    cards: tuple[Card, ...]
    up: Card
    hand: Any
    le: int
    lt: int
    ev: dict[str, Fraction]
    decision: str

    @property
    def win_or_tie(self) -> Fraction:
        """Probability that the hand beats or ties the dealer's best four of six (exact, over all completions)."""
        return Fraction(self.le, N_DEALER_HANDS)

    @property
    def tie(self) -> Fraction:
        """Probability that the hand ties the dealer's best four of six (exact; ties go to the player)."""
        return Fraction(self.le - self.lt, N_DEALER_HANDS)

    def ev_lost(self, option: str | int) -> Fraction:
        """EV given up (>= 0, in antes) by choosing ``option`` instead of the optimal one.

        Raises:
            RulesError: an option the rules do not allow.
        """
        name = option_name(option) if isinstance(option, int) else option
        if name not in self.ev:
            raise RulesError(f"{name!r} is not an option here: choose one of {', '.join(self.ev)}")
        return self.ev[self.decision] - self.ev[name]

    def to_dict(self) -> dict[str, Any]:
        """JSON form: cards as ``"Th"``, ``hand`` description, ``decision``, EV per option in antes
        (``ev`` floats, ``ev_exact`` fractions as strings, ``ev_lost``) and dealer completion counts
        (``dealer_hands``, ``win``, ``tie``, ``lose``).
        """
        return {
            "cards": [str(c) for c in self.cards],
            "up": str(self.up),
            "hand": self.hand.describe(),
            "decision": self.decision,
            "ev": {k: float(v) for k, v in self.ev.items()},
            "ev_exact": {k: _frac(v) for k, v in self.ev.items()},
            "ev_lost": {k: float(self.ev_lost(k)) for k in self.ev},
            "dealer_hands": N_DEALER_HANDS,
            "win": self.lt,
            "tie": self.le - self.lt,
            "lose": N_DEALER_HANDS - self.le,
        }


def hand_ev(cards: Iterable[Card | str] | str, up: Card | str, rules: PokerRules | str | None = None, *,
            counts: ExactCounts | None = None) -> HandEV:
    """The EV of every option and the optimal decision for one hand and up card.

    Uses ``counts`` (or the cached :func:`exact_counts` when it is in memory or
    on disk: microseconds) and otherwise enumerates the 1,370,754 dealer hands
    directly (:func:`count_hand`, a fraction of a second). A web trainer should
    call :func:`exact_counts` once at start-up.

    Raises:
        CardError: malformed or duplicate cards, not five cards, the up card among
            the player's cards.
        RulesError: unknown preset.
    """
    rules = _as_rules(rules)
    hand, upc = _validate_hand(cards, up)
    if counts is None and counts_cached():
        counts = exact_counts()
    if counts is not None:
        le, lt = counts.lookup(hand, upc)
    else:
        le, lt = count_hand(hand, upc)
    rank = _rank5_of(hand)
    value = dense_to_value(rank)
    evs: dict[str, Fraction] = {}
    for k in options(rules):
        win, tie, lose = settle_per_ante(rules, value, k)
        evs[option_name(k)] = Fraction(lt * win.net + (le - lt) * tie.net + (N_DEALER_HANDS - le) * lose.net,
                                       N_DEALER_HANDS)
    best = max(evs, key=lambda name: evs[name])  # first maximum: the smaller wager on a tie
    return HandEV(tuple(hand), upc, value, le, lt, evs, best)


# ---------------------------------------------------------------------------
# Aces Up
# ---------------------------------------------------------------------------

_ACES_UP_ROWS = (
    ("four_of_a_kind", "four of a kind"),
    ("straight_flush", "straight flush"),
    ("three_of_a_kind", "three of a kind"),
    ("flush", "flush"),
    ("straight", "straight"),
    ("two_pair", "two pair"),
    ("pair_of_aces", "pair of aces"),
)


@cache
def aces_up_counts() -> dict[str, int]:
    """How many of the 2,598,960 five-card hands make each Aces Up class (and ``"lose"``)."""
    rank5 = base_tables().rank5
    hist = np.bincount(rank5, minlength=N_VALUES)
    cat = CATEGORY_OF_DENSE
    top = (DENSE_CODES >> 12) & 0xF
    out: dict[str, int] = {}
    for key, _ in _ACES_UP_ROWS:
        if key == "pair_of_aces":
            m = (cat == HandCategory.PAIR) & (top == Rank.ACE)
        else:
            m = cat == HandCategory[key.upper()]
        out[key] = int(hist[m].sum())
    out["lose"] = N_HANDS5 - sum(out.values())
    return out


@dataclass(frozen=True)
class AcesUpFigures:
    """Exact return of an Aces Up pay table over all 2,598,960 five-card hands.

    ``hands``: ``(key, label, pays, count)`` per paying class (losing hands last,
    ``pays = -1``). ``return_`` is what a unit bet gets back on average (stake
    included), ``house_edge = 1 - return_``.
    """

    table: AcesUpTable
    hands: tuple[tuple[str, str, int, int], ...]

    @property
    def return_(self) -> Fraction:
        """Expected amount back per unit Aces Up bet, stake included (exact fraction of the bet)."""
        return sum((Fraction(c * (p + 1), N_HANDS5) for _, _, p, c in self.hands if p >= 0), Fraction(0))

    @property
    def house_edge(self) -> Fraction:
        """House edge per unit Aces Up bet, ``1 - return_`` (exact fraction of the bet)."""
        return 1 - self.return_

    @property
    def variance(self) -> Fraction:
        """Variance of the net result of a unit Aces Up bet (wins ``pays``, else loses 1), exact."""
        second = sum((Fraction(c * p * p, N_HANDS5) for _, _, p, c in self.hands), Fraction(0))
        return second - self.house_edge ** 2

    @property
    def standard_deviation(self) -> float:
        """Standard deviation of the net result of a unit Aces Up bet: ``sqrt(variance)``, in units of the bet."""
        return math.sqrt(self.variance)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``table`` (``"50/40/8/5/4/3/1"``), ``return``, ``house_edge`` and
        ``standard_deviation`` per unit bet (also as exact fraction strings, ``variance`` squared
        units), and per hand class its pay, count of the 2,598,960 hands, probability and return
        contribution.
        """
        return {
            "table": str(self.table),
            "return": float(self.return_),
            "house_edge": float(self.house_edge),
            "standard_deviation": self.standard_deviation,
            "exact": {"return": _frac(self.return_), "house_edge": _frac(self.house_edge),
                      "variance": _frac(self.variance)},
            "hands": [
                {"hand": key, "pays": p, "count": c, "probability": c / N_HANDS5,
                 "return": c * (p + 1) / N_HANDS5 if p >= 0 else 0.0}
                for key, _, p, c in self.hands
            ],
        }


def aces_up(table: AcesUpTable | str | None = None) -> AcesUpFigures:
    """Exact Aces Up figures for a pay table (an :class:`AcesUpTable`, a preset name or
    ``"50/40/8/5/4/3/1"``; default the live table).

    Raises:
        RulesError: malformed table or unknown preset.
    """
    from fourcards.poker.rules import parse_aces_up

    if table is None:
        table = AcesUpTable()
    elif isinstance(table, str):
        table = parse_aces_up(table)
    counts = aces_up_counts()
    pays = table.as_dict()
    rows = [(key, label, int(pays[key]), counts[key]) for key, label in _ACES_UP_ROWS]
    rows.append(("lose", "anything else", -1, counts["lose"]))
    return AcesUpFigures(table, tuple(rows))


# ---------------------------------------------------------------------------
# Par sheet
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ParSheet:
    """Everything an operator needs for one rule set (see :func:`par_sheet`).

    ``game`` is the ante/play game under the requested strategy; ``optimal``,
    ``chart`` (the compact chart of :func:`strategy.optimal_chart`) and ``simple``
    (the published simple strategy) are always included for comparison.
    """

    rules: PokerRules
    game: GameFigures
    optimal: GameFigures
    chart: GameFigures
    simple: GameFigures
    aces_up: AcesUpFigures
    aces_up_tables: tuple[AcesUpFigures, ...]
    counts_source: str
    counts_seconds: float
    seconds: float

    def _strategy_rows(self) -> list[tuple[str, GameFigures]]:
        rows = [("optimal", self.optimal), ("chart (by hand class and up card)", self.chart),
                ("simple (published)", self.simple)]
        if self.game.strategy not in ("optimal", "chart", "simple"):
            rows.append((self.game.strategy, self.game))
        return rows

    def to_dict(self) -> dict[str, Any]:
        """JSON form: :meth:`GameFigures.to_dict` of :attr:`game`, plus ``rules``, ``aces_up``,
        ``aces_up_tables``, per-strategy figures (with ``loss_vs_optimal`` in antes) and timings (s).
        """
        d = self.game.to_dict()
        d["rules"] = self.rules.to_dict()
        d["aces_up"] = self.aces_up.to_dict()
        d["aces_up_tables"] = [
            {"table": str(f.table), "return": float(f.return_), "house_edge": float(f.house_edge)}
            for f in self.aces_up_tables
        ]
        d["strategies"] = {
            name: {
                "house_edge": float(f.house_edge),
                "element_of_risk": float(f.element_of_risk),
                "return_to_player": float(f.return_to_player),
                "average_total_bet": float(f.average_total_bet),
                "standard_deviation": f.standard_deviation,
                "loss_vs_optimal": float(f.house_edge - self.optimal.house_edge),
            }
            for name, f in (("optimal", self.optimal), ("chart", self.chart), ("simple", self.simple),
                            (self.game.strategy, self.game))
        }
        d["computation"] = {"dealer_counts": self.counts_source,
                            "dealer_counts_seconds": round(self.counts_seconds, 3),
                            "seconds": round(self.seconds, 3)}
        return d

    def renderables(self) -> list[Any]:
        """Rich renderables (tables) of the sheet, in order."""
        from rich.table import Table

        r, g = self.rules, self.game
        out: list[Any] = []
        head = Table(title=f"Four Card Poker par sheet - rules {r.name!r}", show_header=False)
        head.add_column(justify="left")
        head.add_column(justify="left")
        head.add_row("play bet", r.describe_play_bets())
        head.add_row("ante bonus (quads/SF/trips)", str(r.ante_bonus))
        head.add_row("Aces Up (4K/SF/3K/F/S/2P/AA)", str(r.aces_up))
        head.add_row("strategy", g.strategy)
        head.add_row("ties", "go to the player; the dealer always qualifies")
        out.append(head)

        t = Table(title="Ante and play: exact figures")
        t.add_column("figure")
        t.add_column("value", justify="right")
        t.add_row("house edge (per ante)", _pct(g.house_edge, 5))
        t.add_row("element of risk (per total wagered)", _pct(g.element_of_risk, 5))
        t.add_row("return to player (1 - element of risk)", _pct(g.return_to_player, 5))
        t.add_row("average total bet (antes)", f"{float(g.average_total_bet):.6f}")
        t.add_row("standard deviation (of a round's net, antes)", f"{g.standard_deviation:.6f}")
        t.add_row("ante bonus return (per ante)", _pct(g.ante_bonus_return, 5))
        for k, v in g.decisions.items():
            t.add_row(f"P({k})", f"{float(v):.6f}")
        t.add_row("P(win)", f"{float(g.win):.6f}")
        t.add_row("P(tie, paid to the player)", f"{float(g.tie):.6f}")
        t.add_row("P(lose)", f"{float(g.lose):.6f}")
        out.append(t)

        o = Table(title="Outcomes (per ante)")
        for col in ("decision", "hand", "result", "net", "probability", "return"):
            o.add_column(col, justify="right" if col in ("net", "probability", "return") else "left")
        for row in g.outcomes:
            o.add_row(row.option, row.hand, row.result, f"{row.net:+d}", f"{float(row.probability):.8f}",
                      f"{float(row.contribution):+.6f}")
        o.add_row("total", "", "", "", "1", f"{float(g.expected_value):+.6f}")
        out.append(o)

        s = Table(title="Strategies compared")
        for col in ("strategy", "house edge", "element of risk", "RTP", "avg total bet", "cost vs optimal"):
            s.add_column(col, justify="right" if col != "strategy" else "left")
        for name, f in self._strategy_rows():
            s.add_row(name, _pct(f.house_edge), _pct(f.element_of_risk), _pct(f.return_to_player),
                      f"{float(f.average_total_bet):.4f}", _pct(f.house_edge - self.optimal.house_edge))
        out.append(s)

        a = Table(title=f"Aces Up {self.aces_up.table}: return {_pct(self.aces_up.return_)}, "
                        f"house edge {_pct(self.aces_up.house_edge)}, standard deviation "
                        f"{self.aces_up.standard_deviation:.6f} per unit bet")
        for col in ("hand", "pays", "count", "probability", "return"):
            a.add_column(col, justify="left" if col == "hand" else "right")
        for _, label, p, c in self.aces_up.hands:
            a.add_row(label, f"{p} to 1" if p >= 0 else "loses", f"{c:,}", f"{c / N_HANDS5:.8f}",
                      f"{c * (p + 1) / N_HANDS5:.6f}" if p >= 0 else "0")
        a.add_row("total", "", f"{N_HANDS5:,}", "1", f"{float(self.aces_up.return_):.6f}")
        out.append(a)

        n = Table(title="Aces Up: named pay tables")
        for col in ("table", "return", "house edge"):
            n.add_column(col, justify="right" if col != "table" else "left")
        for named in self.aces_up_tables:
            n.add_row(str(named.table), _pct(named.return_), _pct(named.house_edge))
        out.append(n)
        return out

    def render(self, console: Any) -> None:
        """Print the sheet's tables (:meth:`renderables`) and its timings to a Rich ``console``."""
        for r in self.renderables():
            console.print(r)
        console.print(f"dealer counts: {self.counts_source} ({self.counts_seconds:.2f} s); "
                      f"sheet in {self.seconds:.2f} s")

    def to_text(self, width: int = 110) -> str:
        """The sheet as plain text (for ``--out``)."""
        from rich.console import Console

        buf = io.StringIO()
        self.render(Console(file=buf, width=width, no_color=True, force_terminal=False))
        return buf.getvalue()


def par_sheet(rules: PokerRules | str = "live", strategy: Any = "optimal", *,
              counts: ExactCounts | None = None,
              progress: Callable[[int, int], None] | None = None) -> ParSheet:
    """The full par sheet for a rule set (exact).

    Raises:
        RulesError: unknown preset, a malformed table or an invalid strategy.
    """
    from fourcards.poker import strategy as strat
    from fourcards.poker.rules import ACES_UP_TABLES

    t0 = time.perf_counter()
    rules = _as_rules(rules)
    counts = counts or exact_counts(progress=progress)
    opt = strat.optimal_strategy(rules, counts)
    optimal = figures_from_decisions(counts, rules, opt.decisions, "optimal")
    chart = figures_from_decisions(counts, rules, strat.optimal_chart(rules, counts).strategy(rules, counts).decisions,
                                   "chart")
    simple = figures_from_decisions(counts, rules, strat.simple_strategy(rules).decisions, "simple")
    named = {"optimal": optimal, "chart": chart, "simple": simple}
    if isinstance(strategy, str) and strategy in named:
        game = named[strategy]
    else:
        s = strat.get_strategy(strategy, rules, counts=counts)
        game = figures_from_decisions(counts, rules, s.decisions, s.name)
    tables = tuple(aces_up(t) for t in ACES_UP_TABLES.values())
    return ParSheet(rules, game, optimal, chart, simple, aces_up(rules.aces_up), tables, counts.source,
                    counts.seconds, time.perf_counter() - t0)
