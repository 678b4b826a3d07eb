"""An independent enumeration of the exact dealer counts in plain numpy: the reference the
compiled kernels are measured against (issue 23, item 6; ``bench_analysis.py``,
``docs/benchmarks.md``).

Same definition as :func:`fourcards.poker.analysis.exact_counts` (for every player-hand orbit
representative and up rank, the dealer completions it beats or ties, ``le``, and beats,
``lt``), reached another way, with no compiled code and no code of the kernels:

* every dealer five-card set ``D`` without the up card ``u`` (2,349,060 a rank), its value
  with ``u``: the best of the 15 four-card subsets of the six cards, looked up in
  :data:`fourcards.hands.DENSE_RANK_4` (numpy gathers);
* for each subset size ``j`` = 1..4, the keys ``(colex index of S, value of D)`` of every
  ``j``-subset ``S`` of every ``D``, sorted; the dealer sets containing ``S`` with a value at
  most ``r`` are then one ``searchsorted`` away;
* inclusion-exclusion over the 31 subsets of the player's hand ``P``, plus the term
  ``S = P`` (``D = P``).

Run it alone: ``python benchmarks/numpy_counts.py [UP_RANKS]`` prints the seconds an up rank
takes and checks the result against the cached exact counts.
"""

from __future__ import annotations

import sys
import time
from itertools import combinations

import numpy as np

from fourcards.hands import BINOM, N_VALUES, colex_combos
from fourcards.hands import _dense as dense_tables

__all__ = ["numpy_counts"]


def _colex(cards: np.ndarray) -> np.ndarray:
    """Colex index of each row of ascending card indices (int64)."""
    out = np.zeros(len(cards), dtype=np.int64)
    for i in range(cards.shape[1]):
        out += BINOM[cards[:, i], i + 1]
    return out


def _best_four(cards: np.ndarray, table4: np.ndarray) -> np.ndarray:
    """Dense rank of the best four of each row of ascending card indices (5 or 6 columns)."""
    best = np.zeros(len(cards), dtype=np.int64)
    for four in combinations(range(cards.shape[1]), 4):
        np.maximum(best, table4[_colex(cards[:, four])], out=best)
    return best


def numpy_counts(player: np.ndarray, up_ranks: range | list[int] = range(13)
                 ) -> tuple[np.ndarray, np.ndarray]:
    """``(le, lt)``, ``(len(up_ranks), len(player))`` int64, -1 where the hand holds the up card.

    Args:
        player: ``(n, 5)`` ascending card indices of the player hands (the orbit representatives).
        up_ranks: up rank indices 0..12 (the up card is that rank in clubs, card ``4 * rank``).

    Subsets of one or two cards are counted in a dense ``(subset, value)`` histogram (cumulated
    over the values: one gather a query); subsets of three or four cards, too many for a dense
    table, by sorting their ``subset * 2,536 + value`` keys (int32) and ``searchsorted`` with the
    queries in sorted order.
    """
    table4 = dense_tables()[0].astype(np.int64)
    player = np.asarray(player, dtype=np.int64)
    r_player = _best_four(player, table4)
    stride = N_VALUES + 1
    le = np.full((len(up_ranks), len(player)), -1, dtype=np.int64)
    lt = np.full_like(le, -1)
    five = colex_combos(51, 5).astype(np.int64)  # positions in the 51-card deck, ascending
    for row, ur in enumerate(up_ranks):
        u = 4 * ur
        deck = np.array([c for c in range(52) if c != u], dtype=np.int64)
        dealer = deck[five]
        six = np.sort(np.concatenate([dealer, np.full((len(dealer), 1), u)], axis=1), axis=1)
        value = _best_four(six, table4)
        keep = ~(player == u).any(axis=1)
        p, r = player[keep], r_player[keep]
        r_lt = np.maximum(r - 1, 0)
        # j = 0: every dealer set with a value <= r
        cum = np.cumsum(np.bincount(value, minlength=stride))
        acc_le = cum[r].copy()
        acc_lt = np.where(r > 0, cum[r_lt], 0)
        for j in range(1, 5):
            sign = -1 if j % 2 else 1
            subs = list(combinations(range(5), j))
            if j <= 2:  # dense: (subset, value) -> dealer sets seen up to that value
                hist = np.zeros(int(BINOM[52, j]) * stride, dtype=np.int64)
                for s in subs:
                    hist += np.bincount(_colex(dealer[:, s]) * stride + value, minlength=len(hist))
                cum = np.cumsum(hist.reshape(-1, stride), axis=1).ravel()
                for s in subs:
                    base = _colex(p[:, s]) * stride
                    acc_le += sign * cum[base + r]
                    acc_lt += sign * np.where(r > 0, cum[base + r_lt], 0)
                del hist, cum
                continue
            keys = np.concatenate([(_colex(dealer[:, s]) * stride + value).astype(np.int32) for s in subs])
            keys.sort()
            for s in subs:
                base = _colex(p[:, s]) * stride
                order = np.argsort(base, kind="stable")  # sorted queries: searchsorted walks forward
                b = base[order]
                start = np.searchsorted(keys, b, side="left")
                got_le = np.searchsorted(keys, b + r[order], side="right") - start
                got_lt = np.searchsorted(keys, b + r[order] - 1, side="right") - start
                acc_le[order] += sign * got_le
                acc_lt[order] += sign * got_lt
            del keys
        # j = 5: the dealer set equal to the player's hand (its value with the up card)
        own = np.sort(np.concatenate([p, np.full((len(p), 1), u)], axis=1), axis=1)
        own_value = _best_four(own, table4)
        acc_le -= own_value <= r
        acc_lt -= own_value < r
        le[row, keep] = acc_le
        lt[row, keep] = acc_lt
    return le, lt


def main() -> None:
    from fourcards.poker import analysis as an

    ranks = [int(x) for x in sys.argv[1].split(",")] if len(sys.argv) > 1 else list(range(13))
    counts = an.exact_counts()
    player = counts.tables.orbit_cards()
    t0 = time.perf_counter()
    le, lt = numpy_counts(player, ranks)
    seconds = time.perf_counter() - t0
    ok = np.array_equal(le, counts.le[ranks]) and np.array_equal(lt, counts.lt[ranks])
    print(f"{len(ranks)} up ranks in {seconds:.1f} s ({seconds / len(ranks):.2f} s each); "
          f"equal to the exact counts: {ok}")


if __name__ == "__main__":
    main()
