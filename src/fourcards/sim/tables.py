"""Tables and seeds of the Four Card Poker Monte Carlo (numpy only; the kernels are compiled).

Everything here works on card indices (``(rank - 2) * 4 + suit``, see
:mod:`fourcards.cards`) and whole chips (``int64``). The kernels that use these
tables are in :mod:`fourcards.sim.kernels`; the public entry points in
:mod:`fourcards.sim.poker`.

Hand values: a four-card hand's dense rank (as in :data:`fourcards.hands.DENSE_RANK_4`)
depends only on its sorted ranks and whether it is a flush, so :data:`VALUE4_BY_RANKS`
is a 57,122-entry ``uint16`` table (114 KB, cache-resident) indexed by
``((r0 * 13 + r1) * 13 + r2) * 13 + r3 + 28561 * flush`` with ``r0 <= r1 <= r2 <= r3``
in ``0..12``. The best non-flush four of five (six) cards depends only on their
rank multiset: :data:`BEST4_OF_5_RANKS` / :data:`BEST4_OF_6_RANKS`.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

import numpy as np

from fourcards.hands import BINOM, CATEGORY_OF_DENSE, DENSE_CODES, DENSE_RANK_4, all_hands

__all__ = [
    "VALUE4_BY_RANKS",
    "PCLASS_OF_DENSE",
    "N_PCLASS",
    "PCLASS_NAMES",
    "BEST4_OF_5_RANKS",
    "BEST4_OF_6_RANKS",
    "AMBIGUOUS",
    "tables",
    "chunk_state",
]

_R4 = 28561  # 13 ** 4
#: Marks a (player dense rank, up rank) cell of the small decision table whose hands
#: do not all share one decision (the kernels then read the full table).
AMBIGUOUS = 255


def _build_value_table() -> np.ndarray:
    combos = all_hands(4).astype(np.int64)  # rows ascending card index
    idx = BINOM[combos[:, 0], 1] + BINOM[combos[:, 1], 2] + BINOM[combos[:, 2], 3] + BINOM[combos[:, 3], 4]
    dense = DENSE_RANK_4[idx]
    r = combos >> 2
    s = combos & 3
    flush = (s == s[:, :1]).all(axis=1)
    key = ((r[:, 0] * 13 + r[:, 1]) * 13 + r[:, 2]) * 13 + r[:, 3] + _R4 * flush
    tab = np.zeros(2 * _R4, dtype=np.uint16)
    tab[key] = dense
    if not np.array_equal(tab[key], dense):  # pragma: no cover - a table invariant
        raise AssertionError("four-card value is not a function of (ranks, flush)")
    return tab


#: Dense four-card rank by (sorted ranks, flush); see the module docstring.
VALUE4_BY_RANKS = _build_value_table()


def _multiset_table(n: int) -> np.ndarray:
    """Best non-flush dense rank of every multiset of ``n`` ranks (each at most 4 times)."""
    ms = np.array([m for m in combinations_with_replacement(range(13), n)
                   if all(m[i] != m[i + 4] for i in range(n - 4))], dtype=np.int64)  # ascending
    idx = sum(BINOM[ms[:, i] + i, i + 1] for i in range(n))
    best = np.zeros(len(ms), dtype=np.uint16)
    for a, b, c, d in combinations(range(n), 4):
        key = ((ms[:, a] * 13 + ms[:, b]) * 13 + ms[:, c]) * 13 + ms[:, d]
        best = np.maximum(best, VALUE4_BY_RANKS[key])
    out = np.zeros(int(BINOM[12 + n, n]), dtype=np.uint16)
    out[idx] = best
    return out


#: Best non-flush dense rank of a multiset of 5 (6) ranks, indexed by
#: ``sum(BINOM[r_i + i, i + 1])`` over the sorted ranks ``r_0 <= ... <= r_{n-1}``
#: (a colex index of the multiset: 6,188 and 18,564 entries).
BEST4_OF_5_RANKS = _multiset_table(5)
BEST4_OF_6_RANKS = _multiset_table(6)

#: Player hand classes used for settlement and hit frequencies: the category of
#: the best four with pairs split into "pair below aces" and "pair of aces"
#: (the lowest Aces Up win).
PCLASS_NAMES = (
    "high_card", "pair_below_aces", "pair_of_aces", "two_pair", "straight", "flush",
    "three_of_a_kind", "straight_flush", "four_of_a_kind",
)
N_PCLASS = len(PCLASS_NAMES)


def _build_pclass() -> np.ndarray:
    cat = CATEGORY_OF_DENSE.astype(np.int64)
    top_rank = (DENSE_CODES.astype(np.int64) >> 12) & 0xF
    pcl = np.where(cat >= 2, cat + 1, cat)
    pcl = np.where((cat == 1) & (top_rank == 14), 2, pcl)
    return pcl.astype(np.uint8)


#: ``PCLASS_OF_DENSE[dense]`` = index into :data:`PCLASS_NAMES`.
PCLASS_OF_DENSE = _build_pclass()


def tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(VALUE4_BY_RANKS, BEST4_OF_5_RANKS, BEST4_OF_6_RANKS, BINOM)``: the valuation
    tables the kernels take as arguments."""
    return VALUE4_BY_RANKS, BEST4_OF_5_RANKS, BEST4_OF_6_RANKS, BINOM


def chunk_state(seed: int, chunk: int) -> np.ndarray:
    """The xoshiro256** state (``(4,) uint64``) of chunk ``chunk`` of a run seeded ``seed``.

    Derived from ``numpy.random.SeedSequence(seed, spawn_key=(chunk,))``: chunk
    streams are independent and depend only on ``(seed, chunk)``.
    """
    st = np.random.SeedSequence(seed, spawn_key=(chunk,)).generate_state(4, np.uint64)
    if not st.any():  # pragma: no cover - probability 2**-256
        st[0] = 1
    return st
