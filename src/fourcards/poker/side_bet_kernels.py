"""Numba kernel of the side bets' exact analysis (:mod:`fourcards.poker.exact.side_bets`): the dealer's
six-card hands counted by category, over every set of four cards they hold, and against every
five-card set inside them. Compiled like :mod:`fourcards.poker.kernels` (ahead of time at install,
else by numba on first use; signatures in :mod:`fourcards.kernel_signatures`).

* :func:`dealer_six_sweep` - one pass over the C(52, 6) = 20,358,520 six-card hands (a range of
  their top cards, so that threads can share the work).
"""

from __future__ import annotations

import numpy as np

from fourcards.jit import nb

__all__ = ["dealer_six_sweep"]


@nb.njit(cache=True, nogil=True)
def dealer_six_sweep(top_lo, top_hi, table4, cat_of_dense, binom, cat5, h4, j5, dense6):
    """Every six-card hand whose highest card lies in ``top_lo .. top_hi - 1``, with its category
    ``d`` (the best four of six: the highest dense rank ``table4`` gives its 15 fours, its category
    ``cat_of_dense``):

    * ``h4[colex index of a four-card subset, d] += 1`` for each of its 15 four-card subsets (six-card
      hands of category ``d`` holding those four cards);
    * ``j5[cat5[colex index of a five-card subset], d] += 1`` for each of its 6 five-card subsets
      (a player's five cards inside a dealer's six: the inclusion-exclusion term of five cards);
    * ``dense6[best dense rank] += 1`` (the dealer's hand values).

    Card indices are ``(rank - 2) * 4 + suit``; colex index ``sum binom[c_i, i + 1]``. Returns the
    number of six-card hands seen.
    """
    n = 0
    idx4 = np.empty(15, np.int64)
    for f in range(top_lo, top_hi):
        for e in range(4, f):
            for d_ in range(3, e):
                for c in range(2, d_):
                    for b in range(1, c):
                        for a in range(b):
                            cards = (a, b, c, d_, e, f)
                            best = 0
                            k = 0
                            for i in range(6):
                                for j in range(i + 1, 6):
                                    idx = 0
                                    m = 0
                                    for p in range(6):
                                        if p != i and p != j:
                                            m += 1
                                            idx += binom[cards[p], m]
                                    idx4[k] = idx
                                    k += 1
                                    r = table4[idx]
                                    if r > best:
                                        best = r
                            cat = cat_of_dense[best]
                            dense6[best] += 1
                            for k in range(15):
                                h4[idx4[k], cat] += 1
                            for i in range(6):
                                idx = 0
                                m = 0
                                for p in range(6):
                                    if p != i:
                                        m += 1
                                        idx += binom[cards[p], m]
                                j5[cat5[idx], cat] += 1
                            n += 1
    return n
