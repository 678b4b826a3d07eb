"""Numba kernels of :mod:`fourcards.hands`: the best four of many five- or six-card rows.

Imported only when :func:`fourcards.hands.best4_of5` / :func:`~fourcards.hands.best4_of6`
are called (importing numba costs 0.2-0.3 s); compiled on first use and cached
(:mod:`fourcards.jit`).
"""

from __future__ import annotations

import numpy as np

from fourcards.jit import compiling, nb, sort_small

__all__ = ["best4_of5", "best4_of6", "compiling"]


@nb.njit(cache=True)
def _idx4(a, b, c, d, binom):
    return binom[a, 1] + binom[b, 2] + binom[c, 3] + binom[d, 4]


@nb.njit(cache=True, parallel=True)
def best4_of5(hands, table, binom):
    """Dense rank of the best four of each row of ``hands`` ``(N, 5) uint8``."""
    n = hands.shape[0]
    res = np.empty(n, dtype=np.uint16)
    for i in nb.prange(n):
        s = np.empty(5, dtype=np.int64)
        for k in range(5):
            s[k] = hands[i, k]
        sort_small(s, 5)
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
def best4_of6(hands, table, binom):
    """Dense rank of the best four of each row of ``hands`` ``(N, 6) uint8``."""
    n = hands.shape[0]
    res = np.empty(n, dtype=np.uint16)
    for i in nb.prange(n):
        s = np.empty(6, dtype=np.int64)
        for k in range(6):
            s[k] = hands[i, k]
        sort_small(s, 6)
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
