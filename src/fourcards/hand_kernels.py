"""Numba kernels of :mod:`fourcards.hands`: the best four of many five- or six-card rows.

Imported only when :func:`fourcards.hands.best4_of5` / :func:`~fourcards.hands.best4_of6`
are called (importing numba costs 0.2-0.3 s); compiled on first use and cached
(:mod:`fourcards.jit`). Each row is sorted by a sorting network on scalars (no
per-row arrays) and its four-card subsets are looked up by colex index.
"""

from __future__ import annotations

import numpy as np

from fourcards.jit import compiling, nb

__all__ = ["best4_of5", "best4_of6", "compiling"]


@nb.njit(cache=True, inline="always")
def _sort5(a, b, c, d, e):
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


@nb.njit(cache=True, parallel=True)
def best4_of5(hands, table, binom):
    """Dense rank of the best four of each row of ``hands`` ``(N, 5) uint8``."""
    n = hands.shape[0]
    res = np.empty(n, dtype=np.uint16)
    b1 = binom[:, 1].copy()
    b2 = binom[:, 2].copy()
    b3 = binom[:, 3].copy()
    b4 = binom[:, 4].copy()
    for i in nb.prange(n):
        a, b, c, d, e = _sort5(hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4])
        v0 = table[b1[b] + b2[c] + b3[d] + b4[e]]
        v1 = table[b1[a] + b2[c] + b3[d] + b4[e]]
        v2 = table[b1[a] + b2[b] + b3[d] + b4[e]]
        v3 = table[b1[a] + b2[b] + b3[c] + b4[e]]
        v4 = table[b1[a] + b2[b] + b3[c] + b4[d]]
        res[i] = max(max(max(v0, v1), max(v2, v3)), v4)
    return res


@nb.njit(cache=True, parallel=True)
def best4_of6(hands, table, binom):
    """Dense rank of the best four of each row of ``hands`` ``(N, 6) uint8``."""
    n = hands.shape[0]
    res = np.empty(n, dtype=np.uint16)
    b1 = binom[:, 1].copy()
    b2 = binom[:, 2].copy()
    b3 = binom[:, 3].copy()
    b4 = binom[:, 4].copy()
    for i in nb.prange(n):
        a = hands[i, 0]
        b = hands[i, 1]
        c = hands[i, 2]
        d = hands[i, 3]
        e = hands[i, 4]
        f = hands[i, 5]
        # optimal 12-comparator network for 6
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
        # the 15 fours (the two cards left out: every pair), ascending within each
        best = max(table[b1[c] + b2[d] + b3[e] + b4[f]], table[b1[b] + b2[d] + b3[e] + b4[f]])
        best = max(best, max(table[b1[b] + b2[c] + b3[e] + b4[f]], table[b1[b] + b2[c] + b3[d] + b4[f]]))
        best = max(best, max(table[b1[b] + b2[c] + b3[d] + b4[e]], table[b1[a] + b2[d] + b3[e] + b4[f]]))
        best = max(best, max(table[b1[a] + b2[c] + b3[e] + b4[f]], table[b1[a] + b2[c] + b3[d] + b4[f]]))
        best = max(best, max(table[b1[a] + b2[c] + b3[d] + b4[e]], table[b1[a] + b2[b] + b3[e] + b4[f]]))
        best = max(best, max(table[b1[a] + b2[b] + b3[d] + b4[f]], table[b1[a] + b2[b] + b3[d] + b4[e]]))
        best = max(best, max(table[b1[a] + b2[b] + b3[c] + b4[f]], table[b1[a] + b2[b] + b3[c] + b4[e]]))
        res[i] = max(best, table[b1[a] + b2[b] + b3[c] + b4[d]])
    return res
