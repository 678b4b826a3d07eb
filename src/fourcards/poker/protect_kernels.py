"""Numba kernels of game protection (:mod:`fourcards.poker.exact.protect`): what a player gains by
seeing dealer hole cards or other players' cards. Compiled like :mod:`fourcards.poker.kernels`
(ahead of time at install, else by numba on first use; signatures in
:mod:`fourcards.kernel_signatures`).

* :func:`hole_card_class` - the exact sweep for one (up card, flashed hole card) pair: for every
  player hand the dealer completions it beats or ties, the best decision knowing both dealer
  cards, summed (docs/analysis.md "Game protection");
* :func:`count_known` - one hand's counts by direct enumeration, given two or more known dealer
  cards and any dead cards (the Monte Carlo with several hole cards).

Hands are sorted and valued by the one compiled ranking of :mod:`fourcards.ranking`, inlined.
"""

from __future__ import annotations

import numpy as np

from fourcards import ranking as rk
from fourcards.jit import nb

__all__ = ["hole_card_class", "count_known"]

_N2, _N3, _N4 = 1326, 22100, 270725


@nb.njit(cache=True, nogil=True)
def hole_card_class(u, h, player, pweight, rank_start, table4, binom, bonus, dec_row, lo, hi, out, dec_out):
    """The dealer shows ``u`` and the player also sees the hole card ``h``: for every player hand of
    ``player`` (packed five cards, 6 bits each, sorted by dense rank: ``player[rank_start[r]:
    rank_start[r + 1]]`` have rank ``r``; ``pweight`` the hands each stands for), the dealer's other
    four cards from the 45 unseen it beats or ties (``le``; ties go to the player, so that is all the
    EVs need) by inclusion-exclusion swept by value,
    then the best option's EV knowing ``u`` and ``h`` and the EV of the decision made without
    ``h`` (``dec_row[colex index of the hand]``). Hands holding ``u`` or ``h`` are skipped.

    EVs are x C(45, 4) = 148,995, in antes: fold ``-n``, play ``k`` ``(1 + k)(2 le - n) + bonus n``
    (``bonus[rank]``; ties go to the player); the best play is ``hi`` when ``2 le > n`` else ``lo``,
    and it is folded unless strictly better than folding.

    ``out`` (int64, 12) accumulates, weighted by ``pweight``: 0 sum of best EVs, 1 sum of EVs of the
    decision without ``h``, 2 hands, 3-6 hands whose best option is fold / 1x / 2x / 3x, 7 hands whose
    decision changes, 8 sum of stakes (1 + play multiple) of the best option, 9 sum of ``le`` (10 and 11
    unused). ``dec_out`` (uint8, as long as ``player``, or empty) receives each hand's best option (0 =
    fold; 255 for hands holding ``u`` or ``h``). Returns the number of dealer four-card sets (C(50, 4)
    = 230,300).
    """
    n = 148995
    # best four of the dealer's six cards: the four unknown, or u / h with three of them, or u and h
    # with two: tables by the local colex index of the triple or pair (cards as themselves, 0..51)
    v3u = np.zeros(_N3, np.uint16)
    v3h = np.zeros(_N3, np.uint16)
    v2 = np.zeros(_N2, np.uint16)
    for c in range(2, 52):
        for b in range(1, c):
            for a in range(b):
                idx = a + binom[b, 2] + binom[c, 3]
                if a != u and b != u and c != u:
                    w0, w1, w2, w3 = rk.sort4(a, b, c, u)
                    v3u[idx] = rk.rank4(w0, w1, w2, w3, table4, binom)
                if a != h and b != h and c != h:
                    w0, w1, w2, w3 = rk.sort4(a, b, c, h)
                    v3h[idx] = rk.rank4(w0, w1, w2, w3, table4, binom)
    for b in range(1, 52):
        for a in range(b):
            if a != u and b != u and a != h and b != h:
                w0, w1, w2, w3 = rk.sort4(a, b, u, h)
                v2[a + binom[b, 2]] = rk.rank4(w0, w1, w2, w3, table4, binom)
    n_values = rank_start.shape[0] - 1
    dv4 = np.full(_N4, 65535, np.uint16)  # the value of each dealer four-card set (65535: holds u or h)
    cnt = np.zeros(n_values + 1, np.int64)
    for d in range(3, 52):
        for c in range(2, d):
            for b in range(1, c):
                for a in range(b):
                    if a == u or b == u or c == u or d == u or a == h or b == h or c == h or d == h:
                        continue
                    best = rk.rank4(a, b, c, d, table4, binom)
                    b2b = binom[b, 2]
                    b2c = binom[c, 2]
                    b3c = binom[c, 3]
                    b3d = binom[d, 3]
                    for v in (v3u[a + b2b + b3c], v3u[a + b2b + b3d], v3u[a + b2c + b3d], v3u[b + b2c + b3d],
                              v3h[a + b2b + b3c], v3h[a + b2b + b3d], v3h[a + b2c + b3d], v3h[b + b2c + b3d],
                              v2[a + b2b], v2[a + b2c], v2[b + b2c], v2[a + binom[d, 2]], v2[b + binom[d, 2]],
                              v2[c + binom[d, 2]]):
                        if v > best:
                            best = v
                    dv4[a + b2b + b3c + binom[d, 4]] = best
                    cnt[best + 1] += 1
    for r in range(n_values):
        cnt[r + 1] += cnt[r]
    n_d = cnt[n_values]
    # the dealer sets bucketed by value, packed (6 bits a card): the sweep reads them in order
    packed = np.empty(n_d, np.int32)
    pos = cnt.copy()
    i = 0
    for d in range(3, 52):
        for c in range(2, d):
            for b in range(1, c):
                for a in range(b):
                    r = dv4[i]
                    if r != 65535:
                        packed[pos[r]] = a | (b << 6) | (c << 12) | (d << 18)
                        pos[r] += 1
                    i += 1
    c1 = np.zeros(52, np.int32)
    c2 = np.zeros(_N2, np.int32)
    c3 = np.zeros(_N3, np.int32)
    c0 = 0
    for r in range(n_values):
        # the dealer sets of value r join the counters (each: its 4 cards, 6 pairs, 4 triples)
        for t in range(cnt[r], cnt[r + 1]):
            q = packed[t]
            a = q & 63
            b_ = (q >> 6) & 63
            c = (q >> 12) & 63
            d = (q >> 18) & 63
            c1[a] += 1
            c1[b_] += 1
            c1[c] += 1
            c1[d] += 1
            b2b = binom[b_, 2]
            b2c = binom[c, 2]
            b2d = binom[d, 2]
            c2[a + b2b] += 1
            c2[a + b2c] += 1
            c2[b_ + b2c] += 1
            c2[a + b2d] += 1
            c2[b_ + b2d] += 1
            c2[c + b2d] += 1
            b3c = binom[c, 3]
            b3d = binom[d, 3]
            c3[a + b2b + b3c] += 1
            c3[a + b2b + b3d] += 1
            c3[a + b2c + b3d] += 1
            c3[b_ + b2c + b3d] += 1
        c0 += cnt[r + 1] - cnt[r]
        # the player hands of value r: the dealer sets counted so far are those at most r (ties go
        # to the player: only le is needed)
        for j in range(rank_start[r], rank_start[r + 1]):
            p = player[j]
            x0 = p & 63
            x1 = (p >> 6) & 63
            x2 = (p >> 12) & 63
            x3 = (p >> 18) & 63
            x4 = (p >> 24) & 63
            if (x0 == u or x1 == u or x2 == u or x3 == u or x4 == u or x0 == h or x1 == h or x2 == h or x3 == h
                    or x4 == h):
                if dec_out.shape[0] > 0:
                    dec_out[j] = 255
                continue
            b21 = binom[x1, 2]
            b22 = binom[x2, 2]
            b23 = binom[x3, 2]
            b24 = binom[x4, 2]
            b32 = binom[x2, 3]
            b33 = binom[x3, 3]
            b34 = binom[x4, 3]
            b43 = binom[x3, 4]
            b44 = binom[x4, 4]
            s = np.int64(c0) - c1[x0] - c1[x1] - c1[x2] - c1[x3] - c1[x4]
            s += (np.int64(c2[x0 + b21]) + c2[x0 + b22] + c2[x1 + b22] + c2[x0 + b23] + c2[x1 + b23] + c2[x2 + b23]
                  + c2[x0 + b24] + c2[x1 + b24] + c2[x2 + b24] + c2[x3 + b24])
            s -= (np.int64(c3[x0 + b21 + b32]) + c3[x0 + b21 + b33] + c3[x0 + b22 + b33] + c3[x1 + b22 + b33]
                  + c3[x0 + b21 + b34] + c3[x0 + b22 + b34] + c3[x1 + b22 + b34] + c3[x0 + b23 + b34]
                  + c3[x1 + b23 + b34] + c3[x2 + b23 + b34])
            # the dealer's four equal to four of the player's cards (counted once seen: value <= r)
            for v in (dv4[x1 + b22 + b33 + b44], dv4[x0 + b22 + b33 + b44], dv4[x0 + b21 + b33 + b44],
                      dv4[x0 + b21 + b32 + b44], dv4[x0 + b21 + b32 + b43]):
                if v <= r:
                    s += 1
            le = s
            w = np.int64(pweight[j])
            margin = 2 * le - n
            k = hi if margin > 0 else lo
            bb = bonus[r]
            ev = (1 + k) * margin + bb * n
            if ev <= -n:
                ev = -n
                k = 0
            k0 = np.int64(dec_row[x0 + b21 + b32 + b43 + binom[x4, 5]])
            ev0 = -n if k0 == 0 else (1 + k0) * margin + bb * n
            out[0] += w * ev
            out[1] += w * ev0
            out[2] += w
            out[3 + k] += w
            if k != k0:
                out[7] += w
            out[8] += w * (1 + k)
            out[9] += w * le
            if dec_out.shape[0] > 0:
                dec_out[j] = k
    return n_d


@nb.njit(cache=True, nogil=True)
def count_known(player, known, dead, player_rank, table4, binom, out):
    """``out[:] = (le, lt, completions)`` for one hand by direct enumeration: the dealer holds the
    ``known`` cards (two to five: the up card and hole cards) and the rest from the cards that are
    not the player's, known or ``dead`` (other players' cards). Every dealer six-card hand is valued
    as the best of its 15 four-card subsets."""
    ks = known.shape[0]
    m = 6 - ks
    used = np.zeros(52, np.bool_)
    for t in range(5):
        used[player[t]] = True
    for t in range(ks):
        used[known[t]] = True
    for t in range(dead.shape[0]):
        used[dead[t]] = True
    rest = np.empty(52, np.int64)
    nr = 0
    for c in range(52):
        if not used[c]:
            rest[nr] = c
            nr += 1
    idx = np.empty(m, np.int64)
    for t in range(m):
        idx[t] = t
    six = np.empty(6, np.int64)
    le = 0
    lt = 0
    total = 0
    while True:
        # the six cards in increasing order: merge the known cards with the chosen ones
        i = 0
        j = 0
        for t in range(6):
            if j >= m or (i < ks and known[i] < rest[idx[j]]):
                six[t] = known[i]
                i += 1
            else:
                six[t] = rest[idx[j]]
                j += 1
        best = rk.best4_of6(six[0], six[1], six[2], six[3], six[4], six[5], table4, binom)
        total += 1
        if best <= player_rank:
            le += 1
            if best < player_rank:
                lt += 1
        # the next m-combination of 0..nr-1
        t = m - 1
        while t >= 0 and idx[t] == nr - m + t:
            t -= 1
        if t < 0:
            break
        idx[t] += 1
        for q in range(t + 1, m):
            idx[q] = idx[q - 1] + 1
    out[0] = le
    out[1] = lt
    out[2] = total
    return total
