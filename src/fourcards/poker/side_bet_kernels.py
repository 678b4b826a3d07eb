"""Numba kernel of the side bets' exact analysis (:mod:`fourcards.poker.exact.side_bets`): the dealer's
six-card hands counted by category, over every set of four cards they hold, and against every
five-card set inside them. Compiled like :mod:`fourcards.poker.kernels` (ahead of time at install,
else by numba on first use; signatures in :mod:`fourcards.kernel_signatures`).

* :func:`dealer_six_sweep` - one pass over the C(52, 6) = 20,358,520 six-card hands (a range of
  their top cards, so that threads can share the work).

Hands are valued by the one compiled ranking of :mod:`fourcards.ranking`, inlined.
"""

from __future__ import annotations

from fourcards import ranking as rk
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
    for f in range(top_lo, top_hi):
        for e in range(4, f):
            for d in range(3, e):
                for c in range(2, d):
                    for b in range(1, c):
                        for a in range(b):
                            fours = rk.fours_of6(a, b, c, d, e, f, binom)
                            best = table4[fours[0]]
                            for x in fours:
                                r = table4[x]
                                if r > best:
                                    best = r
                            cat = cat_of_dense[best]
                            dense6[best] += 1
                            for x in fours:
                                h4[x, cat] += 1
                            j5[cat5[rk.colex5(b, c, d, e, f, binom)], cat] += 1
                            j5[cat5[rk.colex5(a, c, d, e, f, binom)], cat] += 1
                            j5[cat5[rk.colex5(a, b, d, e, f, binom)], cat] += 1
                            j5[cat5[rk.colex5(a, b, c, e, f, binom)], cat] += 1
                            j5[cat5[rk.colex5(a, b, c, d, f, binom)], cat] += 1
                            j5[cat5[rk.colex5(a, b, c, d, e, binom)], cat] += 1
                            n += 1
    return n
