"""Four-card hand values (Four Card Poker ranking) and the best four of five or six.

Ranking, high to low (seed 002 table "Rank / Hand"; seed 004 "Hand Rankings";
docs/rules.md HV-1 to HV-4): four of a kind, straight flush, three of a
kind, flush, straight, two pair, one pair, high card. Aces are high except in
A-2-3-4, the lowest straight (four-high). Q-K-A-2 is no straight. Within a
category: the defining ranks, then kickers, high to low. Suits never break ties.

Scalar API (one hand, Python objects):

* :func:`evaluate4` - the :class:`HandValue` of exactly four cards;
* :func:`best_hand` - the best four of 4-7 cards and which four (about 2 µs for
  five :class:`~fourcards.cards.Card` objects: one look-up by the rank multiset,
  plus the suited fours when four or more cards share a suit).

Vectorised API (numpy ``uint8`` card indices, see :mod:`fourcards.cards`):

* :data:`DENSE_RANK_4` - the dense rank (``uint16``, 0 = worst) of each of the
  270,725 four-card hands, indexed by :func:`combo_index` (colex order);
* :func:`best4_of5` / :func:`best4_of6` - dense ranks of many 5- or 6-card hands
  at once (numba, parallel; compiled on first use), shape ``(N, 5)``/``(N, 6)`` -> ``(N,)``;
* :func:`best_hands` - :func:`best_hand` for many hands at once (numpy): value
  codes and the four cards, in display order;
* :func:`dense_to_value` - back from a dense rank to a :class:`HandValue`.

A value's integer :attr:`HandValue.code` is ``category << 16 | r1 << 12 | r2 << 8
| r3 << 4 | r4`` with ranks 2..14 in tie-break order (unused slots 0), so larger
codes are better hands and equal codes are ties.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import total_ordering
from itertools import combinations, combinations_with_replacement
from typing import Any

import numpy as np

from fourcards.cards import FULL_DECK, Card, Rank, parse_cards
from fourcards.errors import CardError

__all__ = [
    "HandCategory",
    "HandValue",
    "evaluate4",
    "best_hand",
    "best_hands",
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

    Method: with the cards sorted high to low, the best four that is not a flush
    and which of the cards make it depend only on the ranks, so they are read
    from a table keyed by the ranks (built once per hand size, on first use).
    Four or more cards of one suit add their suited fours (flushes and straight
    flushes). Equal to trying every four in order (tested on every five-card hand).
    """
    if type(cards) is list or type(cards) is tuple:
        try:
            idx = sorted([c.index for c in cards if type(c) is Card], reverse=True)
        except AttributeError:  # pragma: no cover - a Card subclass without index
            idx = []
        n = len(idx)
        if n != len(cards) or not 4 <= n <= 7 or len(set(idx)) != n:
            idx = sorted((c.index for c in parse_cards(cards, count=(4, 5, 6, 7))), reverse=True)
    else:  # text (one look-up per card: fourcards.cards) or another iterable
        idx = sorted([c.index for c in parse_cards(cards, count=(4, 5, 6, 7))], reverse=True)
    n = len(idx)
    table = _BY_RANKS[n] or _rank_table(n)
    value, order = table[tuple([i >> 2 for i in idx])]
    suits = 0
    for i in idx:
        suits += _SUIT_UNIT[i]
    if suits & 0x44444444:  # four or more cards of one suit: the suited fours may be better
        value, order = _best_suited(idx, suits, value, order)
    deck = FULL_DECK
    a, b, c, d = order
    return value, (deck[idx[a]], deck[idx[b]], deck[idx[c]], deck[idx[d]])


#: ``_SUIT_UNIT[card]``: 1 in the card's suit's byte (suit counts by addition; a count of
#: four or more sets bit 2 of its byte).
_SUIT_UNIT = [1 << ((i & 3) * 8) for i in range(52)]
#: Per hand size (4..7): ranks (high to low, 0 = two) -> (best non-flush value, which four).
_BY_RANKS: list[dict[tuple[int, ...], tuple[HandValue, tuple[int, int, int, int]]] | None] = [None] * 8
#: Suited four ranks (high to low, 0 = two) -> the flush or straight flush value.
_SUITED: dict[tuple[int, int, int, int], HandValue] = {}
_VALUES: dict[int, HandValue] = {}


def _value(code: int) -> HandValue:
    v = _VALUES.get(code)
    if v is None:
        v = _VALUES[code] = HandValue(code)
    return v


def _rank_table(n: int) -> dict[tuple[int, ...], tuple[HandValue, tuple[int, int, int, int]]]:
    """The table of :func:`best_hand` for ``n`` cards (numpy, a few ms; 50,388 entries for 7)."""
    ms = np.array([m for m in combinations_with_replacement(range(12, -1, -1), n)
                   if all(m[i] != m[i + 4] for i in range(n - 4))], dtype=np.int64)
    subs = np.array(list(combinations(range(n), 4)), dtype=np.int64)
    r4 = ms[:, subs]  # (M, S, 4), ranks high to low
    codes = _codes4_numpy((r4 * 4 + np.arange(4)).reshape(-1, 4)).reshape(r4.shape[:2])  # 4 suits: no flush
    first = np.argmax(codes, axis=1)  # the first four (in card order) of the best value
    pos = subs[first]
    _, order = _display_order(np.take_along_axis(ms, pos, axis=1), pos)
    best = codes[np.arange(len(ms)), first]
    table = {}
    for ranks, code, o in zip(ms.tolist(), best.tolist(), order.tolist(), strict=True):
        table[tuple(ranks)] = (_value(code), tuple(o))
    _BY_RANKS[n] = table
    if not _SUITED:
        for four in combinations(range(12, -1, -1), 4):
            _SUITED[four] = _value(int(_codes4_numpy(np.array([four], dtype=np.int64) * 4)[0]))
    return table


def _display_order(ranks: np.ndarray, pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sort four cards (rows of ranks and positions, high to low) for display.

    The largest group of a rank first, then higher ranks, then card order.
    Returns ``(permutation, positions in display order)``.
    """
    group = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
    key = (group * 16 + ranks) * 8 + (7 - pos)
    perm = np.argsort(-key, axis=1, kind="stable")
    return perm, np.take_along_axis(pos, perm, axis=1)


def _best_suited(idx: list[int], suits: int, value: HandValue,
                 order: tuple[int, int, int, int]) -> tuple[HandValue, tuple[int, int, int, int]]:
    """Best of the non-flush choice and the suited fours (four or more cards of one suit)."""
    s = next(k for k in range(4) if (suits >> (8 * k)) & 0xFF >= 4)
    suited = [p for p, i in enumerate(idx) if i & 3 == s]
    for four in combinations(suited, 4):  # card order: the first of equal values wins
        v = _SUITED[tuple(idx[p] >> 2 for p in four)]  # type: ignore[index]
        if v.code > value.code:
            value, order = v, four  # distinct ranks, high to low: already display order
    return value, order


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


def colex_combos(n: int, k: int) -> np.ndarray:
    """Every ``k``-subset of ``0..n-1`` in colex order: row ``i`` (ascending) has colex index ``i``.

    ``(C(n, k), k)`` uint8; numpy, about 60 ms for the 2,598,960 five-card sets.
    """
    rows = np.zeros((1, 0), dtype=np.uint8)
    for j in range(1, k + 1):
        # the j-subsets with largest element e: the (j-1)-subsets of 0..e-1 (a prefix), then e
        sizes = [math.comb(e, j - 1) for e in range(j - 1, n)]
        prefix = np.concatenate([np.arange(s) for s in sizes])
        top = np.repeat(np.arange(j - 1, n, dtype=np.uint8), sizes)
        rows = np.hstack([rows[prefix], top[:, None]])
    return rows


def _value_keys() -> tuple[np.ndarray, np.ndarray]:
    """Codes of every (rank multiset, suited) key of a four-card hand, and the sorted distinct codes.

    A four-card value depends only on the ranks and on whether the four share a suit:
    1,820 multisets of 4 ranks (``sum C(r_i + i, i + 1)`` over ascending ranks) not
    suited, then the same keys + 1,820 suited (only the 715 with distinct ranks occur).
    """
    ms = np.array(list(combinations_with_replacement(range(13), 4)), dtype=np.int64)  # ascending ranks
    n_ms = len(ms)
    idx = BINOM[ms[:, 0], 1] + BINOM[ms[:, 1] + 1, 2] + BINOM[ms[:, 2] + 2, 3] + BINOM[ms[:, 3] + 3, 4]
    table = np.full(2 * n_ms, -1, dtype=np.int64)
    table[idx] = _codes4_numpy(ms * 4 + np.arange(4))  # four suits: never a flush
    distinct = (np.diff(ms, axis=1) > 0).all(axis=1)
    table[n_ms + idx[distinct]] = _codes4_numpy(ms[distinct] * 4)  # one suit
    codes = np.sort(table[table >= 0])  # distinct, ascending (np.unique would import numpy.ma: 10 ms)
    return table, codes[np.concatenate(([True], codes[1:] != codes[:-1]))]


def _build_tables() -> tuple[np.ndarray, np.ndarray]:
    """``(DENSE_RANK_4, DENSE_CODES)``: every four-card set looks up the value of its
    (rank multiset, suited) key (about 20 ms)."""
    table, uniq = _value_keys()
    combos = colex_combos(52, 4)  # row i has colex index i, cards ascending
    ranks = (combos >> 2).astype(np.int64)
    suited = ((combos & 3) == (combos[:, :1] & 3)).all(axis=1)
    key = BINOM[ranks[:, 0], 1] + BINOM[ranks[:, 1] + 1, 2] + BINOM[ranks[:, 2] + 2, 3] + BINOM[ranks[:, 3] + 3, 4]
    key += len(table) // 2 * suited
    dense_of_key = np.searchsorted(uniq, table).astype(np.uint16)
    return dense_of_key[key], uniq.astype(np.int32)


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


#: Number of distinct four-card hand values (2,535).
N_VALUES = 2535
_DENSE: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
_CODES: tuple[np.ndarray, np.ndarray] | None = None
# Built on first use by the module ``__getattr__`` (importing this module stays cheap):
DENSE_RANK_4: np.ndarray
DENSE_CODES: np.ndarray
CATEGORY_OF_DENSE: np.ndarray


def _codes() -> tuple[np.ndarray, np.ndarray]:
    """``(DENSE_CODES, CATEGORY_OF_DENSE)``: the 2,535 values, built on first use (a few ms)."""
    global _CODES
    if _CODES is None:
        codes = _value_keys()[1].astype(np.int32)
        assert len(codes) == N_VALUES
        _CODES = (codes, (codes >> 16).astype(np.uint8))
    return _CODES


def _dense() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(DENSE_RANK_4, DENSE_CODES, CATEGORY_OF_DENSE)``, built on first use (about 20 ms)."""
    global _DENSE
    if _DENSE is None:
        dense, codes = _build_tables()
        small = _codes()
        assert np.array_equal(codes, small[0])
        _DENSE = (dense, *small)
    return _DENSE


def dense_to_value(rank: int) -> HandValue:
    """The :class:`HandValue` of a dense rank from :data:`DENSE_RANK_4`."""
    return HandValue(int(_codes()[0][rank]))


def _as_card_array(hands: np.ndarray, width: int | tuple[int, ...]) -> np.ndarray:
    arr = np.asarray(hands)
    widths = (width,) if isinstance(width, int) else width
    if arr.ndim != 2 or arr.shape[1] not in widths:
        want = " or ".join(str(w) for w in widths)
        raise CardError(f"expected an array of shape (N, {want}), got {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() > 51):
        raise CardError("card indices must lie in 0..51")
    return np.ascontiguousarray(arr, dtype=np.uint8)


def best4_of5(hands: np.ndarray) -> np.ndarray:
    """Dense ranks (``uint16``, shape ``(N,)``) of the best four of each five-card row.

    Args:
        hands: ``(N, 5)`` integer array of distinct card indices per row (any order).
            Rows are not checked for duplicates (that is the caller's contract).

    Raises:
        CardError: wrong shape or an index outside 0..51.

    A numba kernel (parallel): compiled on first use, cached afterwards.
    """
    from fourcards import hand_kernels as hk

    arr = _as_card_array(hands, 5)
    with hk.compiling("the vectorised best-four-of-five evaluator", hk.best4_of5):
        return hk.best4_of5(arr, _dense()[0], BINOM)


def best4_of6(hands: np.ndarray) -> np.ndarray:
    """Dense ranks (``uint16``, shape ``(N,)``) of the best four of each six-card row.

    Same contract as :func:`best4_of5`; used for the dealer's six cards.
    """
    from fourcards import hand_kernels as hk

    arr = _as_card_array(hands, 6)
    with hk.compiling("the vectorised best-four-of-six evaluator", hk.best4_of6):
        return hk.best4_of6(arr, _dense()[0], BINOM)


_SUBSETS4 = {n: np.array(list(combinations(range(n), 4)), dtype=np.int64) for n in range(4, 8)}


def best_hands(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`best_hand` of many hands at once: values and the four cards, in display order.

    Args:
        hands: ``(N, k)`` card indices, ``k`` from 4 to 7, distinct within a row (not
            checked: the caller's contract), any order.

    Returns:
        ``(codes, fours)``: ``(N,) int32`` :attr:`HandValue.code` of each row's best
        four, and ``(N, 4) uint8`` those four cards as :func:`best_hand` lists them
        (the first best four in card order, largest group first, then high to low).

    Raises:
        CardError: wrong shape or a card index outside 0..51.

    Plain numpy (no compilation): about 0.1 µs a hand for large batches.
    """
    arr = _as_card_array(hands, (4, 5, 6, 7)).astype(np.int64)
    n = arr.shape[1]
    dense_rank, dense_codes, _ = _dense()
    s = -np.sort(-arr, axis=1)  # high to low
    subs = _SUBSETS4[n]
    codes = np.stack([dense_codes[dense_rank[BINOM[s[:, d], 1] + BINOM[s[:, c], 2] + BINOM[s[:, b], 3]
                                             + BINOM[s[:, a], 4]]] for a, b, c, d in subs], axis=1)
    first = np.argmax(codes, axis=1)  # the first four in card order with the best value
    pos = subs[first]
    cards = np.take_along_axis(s, pos, axis=1)
    perm, _ = _display_order(cards >> 2, pos)
    fours = np.take_along_axis(cards, perm, axis=1).astype(np.uint8)
    return codes[np.arange(len(s)), first].astype(np.int32), fours


def all_hands(k: int, deck: Sequence[int] | None = None) -> np.ndarray:
    """Every ``k``-card subset of ``deck`` (default: all 52 cards), ``(C(n, k), k)`` uint8.

    Rows are in lexicographic order of positions in ``deck``.
    """
    cards = np.arange(52, dtype=np.uint8) if deck is None else np.asarray(deck, dtype=np.uint8)
    n = len(cards)
    # lexicographic order = colex order of the mirrored positions, read backwards
    positions = (n - 1 - colex_combos(n, k).astype(np.int64))[::-1, ::-1]
    return cards[positions]


def category_counts(dense_ranks: np.ndarray) -> dict[HandCategory, int]:
    """How many of the given dense ranks fall in each category."""
    counts = np.bincount(_codes()[1][dense_ranks], minlength=8)
    return {HandCategory(i): int(counts[i]) for i in range(8)}


def __getattr__(name: str) -> Any:
    """The dense tables, built on first use (:func:`_dense`, :func:`_codes`)."""
    if name == "DENSE_RANK_4":
        return _dense()[0]
    if name == "DENSE_CODES":
        return _codes()[0]
    if name == "CATEGORY_OF_DENSE":
        return _codes()[1]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
