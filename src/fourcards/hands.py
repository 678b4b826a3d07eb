"""Four-card hand values (Four Card Poker ranking) and the best four of five or six.

Ranking, high to low (seed 002 table "Rank / Hand"; seed 004 "Hand Rankings";
DESIGN.md "Four-card hand ranking"): four of a kind, straight flush, three of a
kind, flush, straight, two pair, one pair, high card. Aces are high except in
A-2-3-4, the lowest straight (four-high). Q-K-A-2 is no straight. Within a
category: the defining ranks, then kickers, high to low. Suits never break ties.

Scalar API (one hand, Python objects):

* :func:`evaluate4` - the :class:`HandValue` of exactly four cards;
* :func:`best_hand` - the best four of 4-7 cards and which four.

Vectorised API (numpy ``uint8`` card indices, see :mod:`fourcards.cards`):

* :data:`DENSE_RANK_4` - the dense rank (``uint16``, 0 = worst) of each of the
  270,725 four-card hands, indexed by :func:`combo_index` (colex order);
* :func:`best4_of5` / :func:`best4_of6` - dense ranks of many 5- or 6-card hands
  at once (numba, parallel), shape ``(N, 5)``/``(N, 6)`` -> ``(N,)``;
* :func:`dense_to_value` - back from a dense rank to a :class:`HandValue`.

A value's integer :attr:`HandValue.code` is ``category << 16 | r1 << 12 | r2 << 8
| r3 << 4 | r4`` with ranks 2..14 in tie-break order (unused slots 0), so larger
codes are better hands and equal codes are ties.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import total_ordering
from itertools import combinations

import numba as nb
import numpy as np

from fourcards.cards import Card, Rank, parse_cards
from fourcards.errors import CardError

__all__ = [
    "HandCategory",
    "HandValue",
    "evaluate4",
    "best_hand",
    "combo_index",
    "DENSE_RANK_4",
    "DENSE_CODES",
    "CATEGORY_OF_DENSE",
    "best4_of5",
    "best4_of6",
    "dense_to_value",
    "all_hands",
    "category_counts",
]


class HandCategory(IntEnum):
    """Four-card hand categories, worst (0) to best (7)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    STRAIGHT = 3
    FLUSH = 4
    THREE_OF_A_KIND = 5
    STRAIGHT_FLUSH = 6
    FOUR_OF_A_KIND = 7

    @property
    def label(self) -> str:
        """Human name: ``"three of a kind"``."""
        return self.name.lower().replace("_", " ")

    @property
    def key(self) -> str:
        """Machine name used in JSON: ``"three_of_a_kind"``."""
        return self.name.lower()


@total_ordering
@dataclass(frozen=True, slots=True)
class HandValue:
    """The value of a four-card hand; compares with ``<`` / ``==`` (ties equal).

    Attributes:
        code: ``category << 16 | r1 << 12 | r2 << 8 | r3 << 4 | r4`` (see module doc).
    """

    code: int

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.code < other.code

    @property
    def category(self) -> HandCategory:
        """The hand category, taken from the top bits of :attr:`code` (``code >> 16``)."""
        return HandCategory(self.code >> 16)

    @property
    def ranks(self) -> tuple[Rank, ...]:
        """Defining ranks then kickers, high to low (straights: the high card)."""
        out = []
        for shift in (12, 8, 4, 0):
            r = (self.code >> shift) & 0xF
            if r:
                out.append(Rank(r))
        return tuple(out)

    @property
    def name(self) -> str:
        """Category label, e.g. ``"three of a kind"``."""
        return self.category.label

    def describe(self) -> str:
        """A readable description, e.g. ``"three of a kind, nines"``."""
        c, r = self.category, self.ranks
        if c in (HandCategory.FOUR_OF_A_KIND, HandCategory.THREE_OF_A_KIND, HandCategory.PAIR):
            return f"{c.label}, {r[0].plural}"
        if c is HandCategory.TWO_PAIR:
            return f"two pair, {r[0].plural} and {r[1].plural}"
        if c in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH):
            return f"{c.label}, {r[0].noun} high"
        return f"{c.label}, {r[0].noun} high"

    def __str__(self) -> str:
        return self.describe()


def _code(cat: int, *ranks: int) -> int:
    r = list(ranks) + [0] * (4 - len(ranks))
    return (cat << 16) | (r[0] << 12) | (r[1] << 8) | (r[2] << 4) | r[3]


def _code4_py(cards: Sequence[Card]) -> int:
    """Reference (slow, obviously-correct) four-card evaluator used for tables and tests."""
    ranks = sorted((int(c.rank) for c in cards), reverse=True)
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    flush = len({c.suit for c in cards}) == 1
    distinct = len(counts) == 4
    straight_high = 0
    if distinct:
        if ranks[0] - ranks[3] == 3:
            straight_high = ranks[0]
        elif ranks == [14, 4, 3, 2]:
            straight_high = 4
    if groups[0][1] == 4:
        return _code(7, groups[0][0])
    if straight_high and flush:
        return _code(6, straight_high)
    if groups[0][1] == 3:
        return _code(5, groups[0][0], groups[1][0])
    if flush:
        return _code(4, *ranks)
    if straight_high:
        return _code(3, straight_high)
    if groups[0][1] == 2 and groups[1][1] == 2:
        return _code(2, groups[0][0], groups[1][0])
    if groups[0][1] == 2:
        return _code(1, groups[0][0], groups[1][0], groups[2][0])
    return _code(0, *ranks)


def evaluate4(cards: Iterable[Card | str] | str) -> HandValue:
    """The value of exactly four distinct cards.

    Raises:
        CardError: malformed or duplicate cards, or not exactly four.
    """
    parsed = parse_cards(cards, count=4)
    return HandValue(_code4_py(parsed))


def best_hand(cards: Iterable[Card | str] | str) -> tuple[HandValue, tuple[Card, ...]]:
    """The best four-card hand among 4 to 7 distinct cards, and which four.

    The player's hand is the best four of five, the dealer's the best four of six
    (seed 002 "Each player keeps their best four cards..."). When several fours
    tie, the one listed is the first in card order, ranks high to low.

    Returns:
        ``(value, four_cards)`` with the four cards in display order: the
        largest group of a rank first, then high to low (``9 9 9 K``).

    Raises:
        CardError: malformed or duplicate cards, or fewer than 4 / more than 7.
    """
    parsed = parse_cards(cards, count=(4, 5, 6, 7))
    best: tuple[int, tuple[Card, ...]] | None = None
    for four in combinations(sorted(parsed, reverse=True), 4):
        code = int(DENSE_CODES[DENSE_RANK_4[combo_index(sorted(c.index for c in four))]])
        if best is None or code > best[0]:
            best = (code, four)
    assert best is not None
    chosen = best[1]
    counts = {r: sum(c.rank == r for c in chosen) for r in {c.rank for c in chosen}}
    ordered = tuple(sorted(chosen, key=lambda c: (counts[c.rank], c.rank, c.index), reverse=True))
    return HandValue(best[0]), ordered


# ---------------------------------------------------------------------------
# Tables and vectorised evaluation
# ---------------------------------------------------------------------------

#: ``BINOM[n, k]`` = C(n, k) for n <= 52, k <= 7 (int64).
BINOM = np.zeros((53, 8), dtype=np.int64)
for _n in range(53):
    BINOM[_n, 0] = 1
    for _k in range(1, 8):
        BINOM[_n, _k] = BINOM[_n - 1, _k - 1] + BINOM[_n - 1, _k] if _n else 0


def combo_index(sorted_cards: Sequence[int]) -> int:
    """Colex index of a set of card indices given in increasing order.

    ``sum(C(c_i, i + 1))``: a bijection from k-subsets of 0..51 onto
    ``0 .. C(52, k) - 1``.
    """
    return int(sum(BINOM[c, i + 1] for i, c in enumerate(sorted_cards)))


def _build_tables() -> tuple[np.ndarray, np.ndarray]:
    codes = np.empty(int(BINOM[52, 4]), dtype=np.int32)
    # Vectorised build of all 270,725 codes (pure numpy, ~0.1 s).
    combos = np.array(list(combinations(range(52), 4)), dtype=np.int64)
    idx = BINOM[combos[:, 0], 1] + BINOM[combos[:, 1], 2] + BINOM[combos[:, 2], 3] + BINOM[combos[:, 3], 4]
    codes[idx] = _codes4_numpy(combos)
    uniq = np.unique(codes)
    dense = np.searchsorted(uniq, codes).astype(np.uint16)
    return dense, uniq.astype(np.int32)


def _codes4_numpy(combos: np.ndarray) -> np.ndarray:
    """Codes of many four-card hands (rows of card indices, any order)."""
    ranks = np.sort(combos // 4 + 2, axis=1)[:, ::-1]  # high to low
    suits = combos % 4
    r0, r1, r2, r3 = ranks[:, 0], ranks[:, 1], ranks[:, 2], ranks[:, 3]
    flush = (suits == suits[:, :1]).all(axis=1)
    distinct = (r0 != r1) & (r1 != r2) & (r2 != r3)
    wheel = distinct & (r0 == 14) & (r1 == 4) & (r2 == 3) & (r3 == 2)
    straight = distinct & ((r0 - r3 == 3) | wheel)
    high = np.where(wheel, 4, r0)
    quads = (r0 == r3)
    trips_hi = (r0 == r2) & ~quads  # XXXY
    trips_lo = (r1 == r3) & ~quads  # YXXX
    two_pair = (r0 == r1) & (r2 == r3) & ~quads
    pair01 = (r0 == r1) & ~trips_hi & ~quads & ~two_pair
    pair12 = (r1 == r2) & ~trips_hi & ~trips_lo & ~quads
    pair23 = (r2 == r3) & ~trips_lo & ~quads & ~two_pair

    def code(cat, a, b=0, c=0, d=0):
        return (cat << 16) | (a << 12) | (b << 8) | (c << 4) | d

    out = code(0, r0, r1, r2, r3)
    out = np.where(pair01, code(1, r0, r2, r3), out)
    out = np.where(pair12, code(1, r1, r0, r3), out)
    out = np.where(pair23, code(1, r2, r0, r1), out)
    out = np.where(two_pair, code(2, r0, r2), out)
    out = np.where(straight & ~flush, code(3, high), out)
    out = np.where(flush & ~straight, code(4, r0, r1, r2, r3), out)
    out = np.where(trips_hi, code(5, r0, r3), out)
    out = np.where(trips_lo, code(5, r1, r0), out)
    out = np.where(straight & flush, code(6, high), out)
    out = np.where(quads, code(7, r0), out)
    return out.astype(np.int32)


DENSE_RANK_4, DENSE_CODES = _build_tables()
#: Number of distinct four-card hand values (2,535).
N_VALUES = len(DENSE_CODES)
#: ``CATEGORY_OF_DENSE[r]`` = category (0..7) of dense rank ``r``.
CATEGORY_OF_DENSE = (DENSE_CODES >> 16).astype(np.uint8)


def dense_to_value(rank: int) -> HandValue:
    """The :class:`HandValue` of a dense rank from :data:`DENSE_RANK_4`."""
    return HandValue(int(DENSE_CODES[rank]))


@nb.njit(cache=True, inline="always")
def _idx4(a, b, c, d, binom):
    return binom[a, 1] + binom[b, 2] + binom[c, 3] + binom[d, 4]


@nb.njit(cache=True, inline="always")
def sort_small(a, n):
    """Sort ``a[:n]`` in place (insertion sort; numba helper for 4-7 card rows)."""
    for i in range(1, n):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


@nb.njit(cache=True, inline="always")
def _sort_small(h, out):
    n = h.shape[0]
    for i in range(n):
        out[i] = h[i]
    sort_small(out, n)


@nb.njit(cache=True, parallel=True)
def _best4_of5(hands, table, binom):
    n = hands.shape[0]
    res = np.empty(n, dtype=np.uint16)
    for i in nb.prange(n):
        s = np.empty(5, dtype=np.int64)
        _sort_small(hands[i], s)
        a, b, c, d, e = s[0], s[1], s[2], s[3], s[4]
        best = table[_idx4(b, c, d, e, binom)]
        v = table[_idx4(a, c, d, e, binom)]
        if v > best:
            best = v
        v = table[_idx4(a, b, d, e, binom)]
        if v > best:
            best = v
        v = table[_idx4(a, b, c, e, binom)]
        if v > best:
            best = v
        v = table[_idx4(a, b, c, d, binom)]
        if v > best:
            best = v
        res[i] = best
    return res


@nb.njit(cache=True, parallel=True)
def _best4_of6(hands, table, binom):
    n = hands.shape[0]
    res = np.empty(n, dtype=np.uint16)
    for i in nb.prange(n):
        s = np.empty(6, dtype=np.int64)
        _sort_small(hands[i], s)
        best = np.uint16(0)
        for x in range(6):
            for y in range(x + 1, 6):
                # the four cards other than s[x], s[y], in increasing order
                k = 0
                q = np.empty(4, dtype=np.int64)
                for z in range(6):
                    if z != x and z != y:
                        q[k] = s[z]
                        k += 1
                v = table[_idx4(q[0], q[1], q[2], q[3], binom)]
                if v > best:
                    best = v
        res[i] = best
    return res


def _as_card_array(hands: np.ndarray, width: int) -> np.ndarray:
    arr = np.asarray(hands)
    if arr.ndim != 2 or arr.shape[1] != width:
        raise CardError(f"expected an array of shape (N, {width}), got {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() > 51):
        raise CardError("card indices must lie in 0..51")
    return arr.astype(np.uint8, copy=False)


def best4_of5(hands: np.ndarray) -> np.ndarray:
    """Dense ranks (``uint16``, shape ``(N,)``) of the best four of each five-card row.

    Args:
        hands: ``(N, 5)`` integer array of distinct card indices per row (any order).
            Rows are not checked for duplicates (that is the caller's contract).

    Raises:
        CardError: wrong shape or an index outside 0..51.
    """
    return _best4_of5(_as_card_array(hands, 5), DENSE_RANK_4, BINOM)


def best4_of6(hands: np.ndarray) -> np.ndarray:
    """Dense ranks (``uint16``, shape ``(N,)``) of the best four of each six-card row.

    Same contract as :func:`best4_of5`; used for the dealer's six cards.
    """
    return _best4_of6(_as_card_array(hands, 6), DENSE_RANK_4, BINOM)


@nb.njit(cache=True)
def _all_combos(n, k, out):
    idx = np.arange(k)
    row = 0
    while True:
        for j in range(k):
            out[row, j] = idx[j]
        row += 1
        i = k - 1
        while i >= 0 and idx[i] == n - k + i:
            i -= 1
        if i < 0:
            break
        idx[i] += 1
        for j in range(i + 1, k):
            idx[j] = idx[j - 1] + 1
    return row


def all_hands(k: int, deck: Sequence[int] | None = None) -> np.ndarray:
    """Every ``k``-card subset of ``deck`` (default: all 52 cards), ``(C(n, k), k)`` uint8.

    Rows are in lexicographic order of positions in ``deck``.
    """
    cards = np.arange(52, dtype=np.uint8) if deck is None else np.asarray(deck, dtype=np.uint8)
    n = len(cards)
    out = np.empty((int(BINOM[n, k]), k), dtype=np.uint8)
    _all_combos(n, k, out)
    return cards[out]


def category_counts(dense_ranks: np.ndarray) -> dict[HandCategory, int]:
    """How many of the given dense ranks fall in each category."""
    counts = np.bincount(CATEGORY_OF_DENSE[dense_ranks], minlength=8)
    return {HandCategory(i): int(counts[i]) for i in range(8)}
