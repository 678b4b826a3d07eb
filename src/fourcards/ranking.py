"""The one compiled ranking: sorting networks and the colex look-ups of the best four.

Every numba kernel that values hands calls these (:mod:`fourcards.hand_kernels`,
:mod:`fourcards.sim.kernels`, :mod:`fourcards.poker.kernels`,
:mod:`fourcards.poker.protect_kernels`, :mod:`fourcards.poker.side_bet_kernels`), so a change to
the ranking lands once. Each function is inlined by numba into its caller (``inline="always"``):
compiled, a kernel holds the same straight-line code as when it was written out by hand, and
the functions are specialised to the caller's integer types (keep them alike within a call:
numba turns ``uint64 + int64`` into a float).

Conventions (:mod:`fourcards.hands`): card index ``(rank - 2) * 4 + suit``; a set of cards
``c0 < c1 < ...`` has the colex index ``sum C(c_i, i + 1)``; ``table4[colex index]`` is the
dense rank of four cards (:data:`fourcards.hands.DENSE_RANK_4`), larger is better. The look-ups
take the binomial table ``binom[x, k] = C(x, k)`` (:data:`fourcards.hands.BINOM`) as it is: in
the compiled kernels that is as fast as, or faster than, separate columns.

* :func:`sort4`, :func:`sort5`, :func:`sort6` - optimal sorting networks (5, 9 and 12
  comparators, min/max: no branches);
* :func:`colex4`, :func:`colex5` - the colex index of sorted cards;
* :func:`rank4` - the dense rank of four sorted cards;
* :func:`best4_of5`, :func:`best4_of6` - the best four of five or six sorted cards;
* :func:`fours_of6` - the colex indices of the 15 fours of six sorted cards;
* :func:`multiset5`, :func:`multiset6` - the colex index of a sorted multiset of ranks (the
  simulator's tables by rank multiset), from shifted columns ``m_k[x] = C(x + k - 1, k)``;
* :func:`clubs_frame` - a card with the up card's suit and clubs swapped (the frame in which
  the decision tables index a hand: :func:`fourcards.poker.exact.tables.locate`).

Changing this module changes the compiled kernels: ``fourcards._aot`` built from older
sources is then ignored (:func:`fourcards.native.source_hash` covers it) until it is rebuilt.
Numba's own cache of a kernel does not notice a change here (it watches the kernel's file):
after editing this module, clear the JIT cache (``<cache>/numba``) as well.
"""

from __future__ import annotations

from fourcards.jit import nb

__all__ = ["sort4", "sort5", "sort6", "colex4", "colex5", "rank4", "best4_of5", "best4_of6", "fours_of6",
           "multiset5", "multiset6", "clubs_frame"]


@nb.njit(cache=True, nogil=True, inline="always")
def sort4(a, b, c, d):
    """``a, b, c, d`` in increasing order (5 comparators)."""
    a, b = min(a, b), max(a, b)
    c, d = min(c, d), max(c, d)
    a, c = min(a, c), max(a, c)
    b, d = min(b, d), max(b, d)
    b, c = min(b, c), max(b, c)
    return a, b, c, d


@nb.njit(cache=True, nogil=True, inline="always")
def sort5(a, b, c, d, e):
    """``a .. e`` in increasing order (the optimal 9-comparator network)."""
    a, b = min(a, b), max(a, b)
    d, e = min(d, e), max(d, e)
    c, e = min(c, e), max(c, e)
    c, d = min(c, d), max(c, d)
    a, d = min(a, d), max(a, d)
    a, c = min(a, c), max(a, c)
    b, e = min(b, e), max(b, e)
    b, d = min(b, d), max(b, d)
    b, c = min(b, c), max(b, c)
    return a, b, c, d, e


@nb.njit(cache=True, nogil=True, inline="always")
def sort6(a, b, c, d, e, f):
    """``a .. f`` in increasing order (the optimal 12-comparator network)."""
    a, b = min(a, b), max(a, b)
    c, d = min(c, d), max(c, d)
    e, f = min(e, f), max(e, f)
    a, c = min(a, c), max(a, c)
    b, d = min(b, d), max(b, d)
    a, e = min(a, e), max(a, e)
    b, f = min(b, f), max(b, f)
    c, e = min(c, e), max(c, e)
    d, f = min(d, f), max(d, f)
    b, c = min(b, c), max(b, c)
    d, e = min(d, e), max(d, e)
    c, d = min(c, d), max(c, d)
    return a, b, c, d, e, f


@nb.njit(cache=True, nogil=True, inline="always")
def colex4(a, b, c, d, binom):
    """The colex index of four cards ``a < b < c < d``."""
    return a + binom[b, 2] + binom[c, 3] + binom[d, 4]


@nb.njit(cache=True, nogil=True, inline="always")
def colex5(a, b, c, d, e, binom):
    """The colex index of five cards ``a < ... < e``."""
    return a + binom[b, 2] + binom[c, 3] + binom[d, 4] + binom[e, 5]


@nb.njit(cache=True, nogil=True, inline="always")
def rank4(a, b, c, d, table4, binom):
    """The dense rank of four cards ``a < b < c < d``."""
    return table4[a + binom[b, 2] + binom[c, 3] + binom[d, 4]]


@nb.njit(cache=True, nogil=True, inline="always")
def best4_of5(a, b, c, d, e, table4, binom):
    """The dense rank of the best four of five cards ``a < ... < e`` (the five fours: each card left
    out in turn)."""
    v0 = table4[b + binom[c, 2] + binom[d, 3] + binom[e, 4]]
    v1 = table4[a + binom[c, 2] + binom[d, 3] + binom[e, 4]]
    v2 = table4[a + binom[b, 2] + binom[d, 3] + binom[e, 4]]
    v3 = table4[a + binom[b, 2] + binom[c, 3] + binom[e, 4]]
    v4 = table4[a + binom[b, 2] + binom[c, 3] + binom[d, 4]]
    return max(max(max(v0, v1), max(v2, v3)), v4)


@nb.njit(cache=True, nogil=True, inline="always")
def best4_of6(a, b, c, d, e, f, table4, binom):
    """The dense rank of the best four of six cards ``a < ... < f`` (the 15 fours: every pair left
    out)."""
    b2b, b2c, b2d = binom[b, 2], binom[c, 2], binom[d, 2]
    b3c, b3d, b3e = binom[c, 3], binom[d, 3], binom[e, 3]
    b4d, b4e, b4f = binom[d, 4], binom[e, 4], binom[f, 4]
    best = max(table4[c + b2d + b3e + b4f], table4[b + b2d + b3e + b4f])
    best = max(best, max(table4[b + b2c + b3e + b4f], table4[b + b2c + b3d + b4f]))
    best = max(best, max(table4[b + b2c + b3d + b4e], table4[a + b2d + b3e + b4f]))
    best = max(best, max(table4[a + b2c + b3e + b4f], table4[a + b2c + b3d + b4f]))
    best = max(best, max(table4[a + b2c + b3d + b4e], table4[a + b2b + b3e + b4f]))
    best = max(best, max(table4[a + b2b + b3d + b4f], table4[a + b2b + b3d + b4e]))
    best = max(best, max(table4[a + b2b + b3c + b4f], table4[a + b2b + b3c + b4e]))
    return max(best, table4[a + b2b + b3c + b4d])


@nb.njit(cache=True, nogil=True, inline="always")
def fours_of6(a, b, c, d, e, f, binom):
    """The colex indices of the 15 fours of six cards ``a < ... < f``, in the order of
    :func:`best4_of6`."""
    b2b, b2c, b2d = binom[b, 2], binom[c, 2], binom[d, 2]
    b3c, b3d, b3e = binom[c, 3], binom[d, 3], binom[e, 3]
    b4d, b4e, b4f = binom[d, 4], binom[e, 4], binom[f, 4]
    return (c + b2d + b3e + b4f, b + b2d + b3e + b4f, b + b2c + b3e + b4f, b + b2c + b3d + b4f,
            b + b2c + b3d + b4e, a + b2d + b3e + b4f, a + b2c + b3e + b4f, a + b2c + b3d + b4f,
            a + b2c + b3d + b4e, a + b2b + b3e + b4f, a + b2b + b3d + b4f, a + b2b + b3d + b4e,
            a + b2b + b3c + b4f, a + b2b + b3c + b4e, a + b2b + b3c + b4d)


@nb.njit(cache=True, nogil=True, inline="always")
def multiset5(a, b, c, d, e, m1, m2, m3, m4, m5):
    """The colex index of the multiset of five ranks ``a <= ... <= e`` (``m_k[x] = C(x + k - 1, k)``)."""
    return m1[a] + m2[b] + m3[c] + m4[d] + m5[e]


@nb.njit(cache=True, nogil=True, inline="always")
def multiset6(a, b, c, d, e, f, m1, m2, m3, m4, m5, m6):
    """The colex index of the multiset of six ranks ``a <= ... <= f`` (``m_k[x] = C(x + k - 1, k)``)."""
    return m1[a] + m2[b] + m3[c] + m4[d] + m5[e] + m6[f]


@nb.njit(cache=True, nogil=True, inline="always")
def clubs_frame(card, suit):
    """``card`` with the suits ``suit`` and clubs (0) swapped."""
    t = card & 3
    if t == suit:
        t = 0
    elif t == 0:
        t = suit
    return (card & ~3) | t
