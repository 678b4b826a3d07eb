"""Numba kernels of :mod:`fourcards.hands`: the best four of many five- or six-card rows.

Imported only when :func:`fourcards.hands.best4_of5` / :func:`~fourcards.hands.best4_of6`
are called (importing numba costs 0.2-0.3 s); compiled on first use and cached
(:mod:`fourcards.jit`). Each row is sorted by a sorting network on scalars (no
per-row arrays) and its four-card subsets are looked up by colex index - the one
compiled ranking of :mod:`fourcards.ranking`, inlined.
"""

from __future__ import annotations

import numpy as np

from fourcards import ranking as rk
from fourcards.jit import compiling, nb

__all__ = ["best4_of5", "best4_of6", "compiling"]


@nb.njit(cache=True, parallel=True)
def best4_of5(hands, table, binom):
    """Dense rank of the best four of each row of ``hands`` ``(N, 5) uint8``."""
    n = hands.shape[0]
    res = np.empty(n, dtype=np.uint16)
    for i in nb.prange(n):
        a, b, c, d, e = rk.sort5(hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4])
        res[i] = rk.best4_of5(a, b, c, d, e, table, binom)
    return res


@nb.njit(cache=True, parallel=True)
def best4_of6(hands, table, binom):
    """Dense rank of the best four of each row of ``hands`` ``(N, 6) uint8``."""
    n = hands.shape[0]
    res = np.empty(n, dtype=np.uint16)
    for i in nb.prange(n):
        a, b, c, d, e, f = rk.sort6(hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4], hands[i, 5])
        res[i] = rk.best4_of6(a, b, c, d, e, f, table, binom)
    return res
