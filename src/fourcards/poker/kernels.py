"""Numba kernels of the exact Four Card Poker analysis (:mod:`fourcards.poker.analysis`).

Imported only to compile them (the JIT fallback of :mod:`fourcards.native`) or to
build them ahead of time; :mod:`fourcards.poker.analysis` calls them through
``native.load("fourcards.poker.kernels", ...)`` with the signatures of
:mod:`fourcards.kernel_signatures`. The method is in ``docs/analysis.md``.

* :func:`colex_combos5`, :func:`best5_all`, :func:`orbits` - the base tables;
* :func:`sweep_up_rank` - the dealer counts of every player-hand orbit against one
  up rank (inclusion-exclusion, swept by hand value);
* :func:`count_one` - one hand's counts by direct enumeration;
* :func:`accumulate`, :func:`optimal_decisions`, :func:`class_sums` - one pass over
  the counts for the figures of a strategy, the optimal decisions, the sums by hand class
  and up rank (every chart's figures, the best chart);
* :func:`decide` - vectorised decisions from a decision table (parallel; JIT only).

Hands are sorted and valued by the one compiled ranking of :mod:`fourcards.ranking`, inlined.
"""

from __future__ import annotations

import numpy as np

from fourcards import ranking as rk
from fourcards.jit import nb

__all__ = ["colex_combos5", "best5_all", "orbits", "sweep_up_rank", "count_one", "accumulate",
           "optimal_decisions", "class_sums", "decide", "pack5"]

_N2, _N3, _N4 = 1326, 22100, 270725


@nb.njit(cache=True, nogil=True)
def colex_combos5(out):
    """All 5-subsets of 0..51 in colex order: ``out[i]`` has colex index ``i``."""
    i = 0
    for e in range(4, 52):
        for d in range(3, e):
            for c in range(2, d):
                for b in range(1, c):
                    for a in range(b):
                        out[i, 0] = a
                        out[i, 1] = b
                        out[i, 2] = c
                        out[i, 3] = d
                        out[i, 4] = e
                        i += 1
    return i


@nb.njit(cache=True, nogil=True)
def orbits(combos, binom, rep, size):
    """Orbit of every 5-set under the permutations of suits 1..3 (clubs fixed).

    Fills ``rep`` (int32: the smallest colex index in the orbit) and ``size`` (uint8: the
    orbit size) for every row of ``combos``; returns the number of rows.

    Colex order is the numeric order of the 52-bit card mask (bit ``rank * 4 + suit``), so
    the smallest image puts the numerically largest rank mask of suits 1..3 in suit 1 and
    the smallest in suit 3: one image per hand instead of all six.
    """
    n = combos.shape[0]
    for i in range(n):
        m1 = 0
        m2 = 0
        m3 = 0
        for k in range(5):
            c = combos[i, k]
            s = c & 3
            if s == 1:
                m1 |= 1 << (c >> 2)
            elif s == 2:
                m2 |= 1 << (c >> 2)
            elif s == 3:
                m3 |= 1 << (c >> 2)
        # lane of each suit: the suit with the largest mask goes to 1, the smallest to 3
        l1 = 1 + (m2 > m1) + (m3 > m1)
        l2 = 1 + (m1 >= m2) + (m3 > m2)
        l3 = 1 + (m1 >= m3) + (m2 >= m3)
        a = np.int64(0)
        b = np.int64(0)
        c_ = np.int64(0)
        d = np.int64(0)
        e = np.int64(0)
        for k in range(5):
            c = np.int64(combos[i, k])
            s = c & 3
            if s == 1:
                c = (c & ~3) | l1
            elif s == 2:
                c = (c & ~3) | l2
            elif s == 3:
                c = (c & ~3) | l3
            if k == 0:
                a = c
            elif k == 1:
                b = c
            elif k == 2:
                c_ = c
            elif k == 3:
                d = c
            else:
                e = c
        a, b, c_, d, e = rk.sort5(a, b, c_, d, e)
        rep[i] = rk.colex5(a, b, c_, d, e, binom)
        equal = (m1 == m2) + (m1 == m3) + (m2 == m3)
        size[i] = 6 if equal == 0 else (3 if equal == 1 else 1)
    return n


@nb.njit(cache=True, nogil=True, inline="always")
def _unpack5(p, x):
    """The five cards (ascending) of a :func:`pack5` code, into ``x``."""
    x[0] = p & 63
    x[1] = (p >> 6) & 63
    x[2] = (p >> 12) & 63
    x[3] = (p >> 18) & 63
    x[4] = (p >> 24) & 63


@nb.njit(cache=True, nogil=True)
def pack5(combos, rows, out):
    """``out[j]`` = the five cards of ``combos[rows[j]]``, 6 bits each, lowest card first (int32)."""
    for j in range(rows.shape[0]):
        i = rows[j]
        out[j] = (combos[i, 0] | (np.int32(combos[i, 1]) << 6) | (np.int32(combos[i, 2]) << 12)
                  | (np.int32(combos[i, 3]) << 18) | (np.int32(combos[i, 4]) << 24))
    return rows.shape[0]



@nb.njit(cache=True, nogil=True, inline="always")
def _add_subsets(a, b, c, d, e, B2, B3, B4, c1, c2, c3, c4):
    c1[a] += 1
    c1[b] += 1
    c1[c] += 1
    c1[d] += 1
    c1[e] += 1
    b2b = B2[b]
    b2c = B2[c]
    b2d = B2[d]
    b2e = B2[e]
    c2[a + b2b] += 1
    c2[a + b2c] += 1
    c2[b + b2c] += 1
    c2[a + b2d] += 1
    c2[b + b2d] += 1
    c2[c + b2d] += 1
    c2[a + b2e] += 1
    c2[b + b2e] += 1
    c2[c + b2e] += 1
    c2[d + b2e] += 1
    b3c = B3[c]
    b3d = B3[d]
    b3e = B3[e]
    ab = a + b2b
    c3[ab + b3c] += 1
    c3[ab + b3d] += 1
    c3[a + b2c + b3d] += 1
    c3[b + b2c + b3d] += 1
    c3[ab + b3e] += 1
    c3[a + b2c + b3e] += 1
    c3[b + b2c + b3e] += 1
    c3[a + b2d + b3e] += 1
    c3[b + b2d + b3e] += 1
    c3[c + b2d + b3e] += 1
    b4d = B4[d]
    b4e = B4[e]
    c4[ab + b3c + b4d] += 1
    c4[ab + b3c + b4e] += 1
    c4[ab + b3d + b4e] += 1
    c4[a + b2c + b3d + b4e] += 1
    c4[b + b2c + b3d + b4e] += 1


@nb.njit(cache=True, nogil=True, inline="always")
def _ie(a, b, c, d, e, B2, B3, B4, c0, c1, c2, c3, c4):
    b2b = B2[b]
    b2c = B2[c]
    b2d = B2[d]
    b2e = B2[e]
    b3c = B3[c]
    b3d = B3[d]
    b3e = B3[e]
    b4d = B4[d]
    b4e = B4[e]
    ab = a + b2b
    s = np.int64(c0) - c1[a] - c1[b] - c1[c] - c1[d] - c1[e]
    s += (np.int64(c2[ab]) + c2[a + b2c] + c2[b + b2c] + c2[a + b2d] + c2[b + b2d] + c2[c + b2d]
          + c2[a + b2e] + c2[b + b2e] + c2[c + b2e] + c2[d + b2e])
    s -= (np.int64(c3[ab + b3c]) + c3[ab + b3d] + c3[a + b2c + b3d] + c3[b + b2c + b3d] + c3[ab + b3e]
          + c3[a + b2c + b3e] + c3[b + b2c + b3e] + c3[a + b2d + b3e] + c3[b + b2d + b3e] + c3[c + b2d + b3e])
    s += (np.int64(c4[ab + b3c + b4d]) + c4[ab + b3c + b4e] + c4[ab + b3d + b4e] + c4[a + b2c + b3d + b4e]
          + c4[b + b2c + b3d + b4e])
    return s


@nb.njit(cache=True, nogil=True, inline="always")
def _with_up(best, a, b, c, d, e, B2, B3, v3):
    """The best four of the five cards ``a < ... < e`` and the up card: ``best`` (their own best
    four) or the up card with one of their ten triples (``v3``, by the triple's colex index)."""
    b2b = B2[b]
    b2c = B2[c]
    b2d = B2[d]
    b3c = B3[c]
    b3d = B3[d]
    b3e = B3[e]
    for v in (v3[a + b2b + b3c], v3[a + b2b + b3d], v3[a + b2c + b3d], v3[b + b2c + b3d], v3[a + b2b + b3e],
              v3[a + b2c + b3e], v3[b + b2c + b3e], v3[a + b2d + b3e], v3[b + b2d + b3e], v3[c + B2[d] + b3e]):
        if v > best:
            best = v
    return best


@nb.njit(cache=True, nogil=True)
def sweep_up_rank(up_rank_index, combos, r5, table4, binom, player, player_orbit, rank_start, out_le, out_lt,
                  dealer, packed):
    """Dealer counts of every canonical player hand against the up card (rank, clubs).

    Args:
        up_rank_index: 0..12 (the up card is ``4 * up_rank_index``, clubs).
        combos, r5: the five-card sets in colex order and the dense rank of each one's best four.
        table4, binom: :data:`fourcards.hands.DENSE_RANK_4`, :data:`fourcards.hands.BINOM`.
        player: the orbit representatives' cards (:func:`pack5`), sorted by dense rank.
        player_orbit: the orbit of each entry of ``player``.
        rank_start: ``player[rank_start[r]:rank_start[r + 1]]`` have dense rank ``r``.
        out_le, out_lt: ``(n_orbits,) int32`` results, written for the orbits without the up card.
        dealer, packed: scratch space, ``(C(52, 5),)`` uint16 and int32 (reused between up ranks:
            fresh memory for every up rank would cost page faults).

    Sweeps the dealer's dense ranks upwards, keeping for every subset S of at most
    four cards the number of dealer 5-card completions D containing S seen so far
    (R(D) <= r); the count of D disjoint from P follows by inclusion-exclusion.
    The dealer sets are first bucketed by value into a packed array, so that the
    sweep reads them in order, and each player hand's 30 subsets are computed once
    for both of its reads (before and after the dealer sets of its own value).

    Returns:
        the number of dealer sets (C(51, 5) = 2,349,060).
    """
    u = up_rank_index * 4
    # best four among (three cards + u), by colex index of the triple
    v3 = np.zeros(_N3, np.uint16)
    for c in range(2, 52):
        for b in range(1, c):
            for a in range(b):
                if a == u or b == u or c == u:
                    continue
                w0, w1, w2, w3 = rk.sort4(np.int64(a), np.int64(b), np.int64(c), u)
                v3[a + binom[b, 2] + binom[c, 3]] = rk.rank4(w0, w1, w2, w3, table4, binom)
    # C(x, k) by card, unsigned: unsigned indices spare numba's negative-index wrap-around
    # (measured 35% faster)
    B2 = np.empty(52, np.uint64)
    B3 = np.empty(52, np.uint64)
    B4 = np.empty(52, np.uint64)
    for i in range(52):
        B2[i] = binom[i, 2]
        B3[i] = binom[i, 3]
        B4[i] = binom[i, 4]
    uu = np.uint64(u)
    n5 = combos.shape[0]
    n_values = rank_start.shape[0] - 1
    cnt = np.zeros(n_values + 1, np.int64)
    x = np.empty(5, np.int64)
    for i in range(n5):
        a = np.uint64(combos[i, 0])
        b = np.uint64(combos[i, 1])
        c = np.uint64(combos[i, 2])
        d = np.uint64(combos[i, 3])
        e = np.uint64(combos[i, 4])
        if a == uu or b == uu or c == uu or d == uu or e == uu:
            dealer[i] = 65535
            continue
        best = _with_up(r5[i], a, b, c, d, e, B2, B3, v3)
        dealer[i] = best
        cnt[best + 1] += 1
    for r in range(n_values):
        cnt[r + 1] += cnt[r]
    n_d = cnt[n_values]
    # the dealer sets bucketed by value, packed: the sweep then reads them in order
    pos = cnt.copy()
    for i in range(n5):
        r = dealer[i]
        if r != 65535:
            packed[pos[r]] = (combos[i, 0] | (np.int32(combos[i, 1]) << 6) | (np.int32(combos[i, 2]) << 12)
                              | (np.int32(combos[i, 3]) << 18) | (np.int32(combos[i, 4]) << 24))
            pos[r] += 1
    widest = 0
    for r in range(n_values):
        widest = max(widest, rank_start[r + 1] - rank_start[r])
    selfv = np.empty(widest, np.uint16)
    c1 = np.zeros(52, np.int32)
    c2 = np.zeros(_N2, np.int32)
    c3 = np.zeros(_N3, np.uint16)  # at most C(49, 2) = 1,176 dealer sets contain a triple
    c4 = np.zeros(_N4, np.uint8)  # at most 48 contain a four-card set
    c0 = 0
    for r in range(n_values):
        p_lo = rank_start[r]
        p_hi = rank_start[r + 1]
        # player hands of value r: dealer hands strictly below r are in the counters
        for j in range(p_lo, p_hi):
            _unpack5(player[j], x)
            if x[0] == u or x[1] == u or x[2] == u or x[3] == u or x[4] == u:
                selfv[j - p_lo] = 65535
                continue
            # the player's own five cards as a dealer set (the S = P term): its value with u
            selfv[j - p_lo] = _with_up(np.uint16(r), np.uint64(x[0]), np.uint64(x[1]), np.uint64(x[2]),
                                       np.uint64(x[3]), np.uint64(x[4]), B2, B3, v3)
            out_lt[player_orbit[j]] = _ie(np.uint64(x[0]), np.uint64(x[1]), np.uint64(x[2]), np.uint64(x[3]),
                                          np.uint64(x[4]), B2, B3, B4, c0, c1, c2, c3, c4)
        for t in range(cnt[r], cnt[r + 1]):
            p = packed[t]
            _add_subsets(np.uint64(p & 63), np.uint64((p >> 6) & 63), np.uint64((p >> 12) & 63),
                         np.uint64((p >> 18) & 63), np.uint64((p >> 24) & 63), B2, B3, B4, c1, c2, c3, c4)
        c0 += cnt[r + 1] - cnt[r]
        for j in range(p_lo, p_hi):
            sv = selfv[j - p_lo]
            if sv == 65535:
                continue
            self_term = 1 if sv == r else 0
            p = player[j]
            out_le[player_orbit[j]] = _ie(np.uint64(p & 63), np.uint64((p >> 6) & 63), np.uint64((p >> 12) & 63),
                                          np.uint64((p >> 18) & 63), np.uint64((p >> 24) & 63),
                                          B2, B3, B4, c0, c1, c2, c3, c4) - self_term
    return n_d


@nb.njit(cache=True, nogil=True)
def count_one(player, up, dead, player_rank, table4, binom, out):
    """``out[:] = (le, lt)`` for one hand by direct enumeration of the dealer completions: the up card
    and five of the cards that are neither the player's, the up card nor in the ``dead`` mask (bit
    ``c`` for card ``c``: other players' cards; 0 for none: all 1,370,754 completions).

    The unseen cards are relabelled 0..n-1; the best four of every 4-subset and
    of every 3-subset plus the up card are tabulated first (local colex indices),
    so each dealer hand costs 15 look-ups in small tables.
    """
    rest = np.empty(46, np.int64)
    k = 0
    for c in range(52):
        if c == up or (dead >> c) & 1:
            continue
        hit = False
        for p in range(5):
            if player[p] == c:
                hit = True
        if not hit:
            rest[k] = c
            k += 1
    nr = k
    up_ = np.int64(up)
    v3 = np.empty(binom[46, 3], np.uint16)
    for c in range(2, nr):
        for b in range(1, c):
            for a in range(b):
                w0, w1, w2, w3 = rk.sort4(rest[a], rest[b], rest[c], up_)
                v3[a + binom[b, 2] + binom[c, 3]] = rk.rank4(w0, w1, w2, w3, table4, binom)
    v4 = np.empty(binom[46, 4], np.uint16)
    for d in range(3, nr):
        for c in range(2, d):
            for b in range(1, c):
                for a in range(b):
                    v4[a + binom[b, 2] + binom[c, 3] + binom[d, 4]] = rk.rank4(rest[a], rest[b], rest[c], rest[d],
                                                                              table4, binom)
    le = 0
    lt = 0
    for e in range(4, nr):
        for d in range(3, e):
            for c in range(2, d):
                # triples and quads not involving a, b
                t_cde = v3[c + binom[d, 2] + binom[e, 3]]
                for b in range(1, c):
                    best_b = t_cde
                    v = v3[b + binom[d, 2] + binom[e, 3]]
                    if v > best_b:
                        best_b = v
                    v = v3[b + binom[c, 2] + binom[e, 3]]
                    if v > best_b:
                        best_b = v
                    v = v3[b + binom[c, 2] + binom[d, 3]]
                    if v > best_b:
                        best_b = v
                    v = v4[b + binom[c, 2] + binom[d, 3] + binom[e, 4]]
                    if v > best_b:
                        best_b = v
                    for a in range(b):
                        best = best_b
                        for t in (v3[a + binom[b, 2] + binom[c, 3]], v3[a + binom[b, 2] + binom[d, 3]],
                                  v3[a + binom[b, 2] + binom[e, 3]], v3[a + binom[c, 2] + binom[d, 3]],
                                  v3[a + binom[c, 2] + binom[e, 3]], v3[a + binom[d, 2] + binom[e, 3]],
                                  v4[a + binom[b, 2] + binom[c, 3] + binom[d, 4]],
                                  v4[a + binom[b, 2] + binom[c, 3] + binom[e, 4]],
                                  v4[a + binom[b, 2] + binom[d, 3] + binom[e, 4]],
                                  v4[a + binom[c, 2] + binom[d, 3] + binom[e, 4]]):
                            if t > best:
                                best = t
                        if best <= player_rank:
                            le += 1
                            if best < player_rank:
                                lt += 1
    out[0] = le
    out[1] = lt
    return le


@nb.njit(cache=True, nogil=True)
def best5_all(combos, table4, binom, out):
    """Dense rank of the best four of every row of ``combos`` (``(N, 5) uint8``) into ``out``."""
    n = combos.shape[0]
    for i in range(n):
        out[i] = rk.best4_of5(np.int64(combos[i, 0]), np.int64(combos[i, 1]), np.int64(combos[i, 2]),
                              np.int64(combos[i, 3]), np.int64(combos[i, 4]), table4, binom)
    return n


@nb.njit(cache=True, nogil=True)
def accumulate(le, lt, weight, dec, group, n, allowed, acc, wsum):
    """Figures of a strategy in one pass over the ``(13, n_orbits)`` counts.

    ``acc[k, g, 0..2]`` += weight x (dealer hands beaten, tied, better) of the entries
    playing ``k`` times the ante (``dec``) whose hand is in ante bonus group ``g``
    (``group[orbit]``); ``wsum[k]`` += weight of the entries choosing ``k`` (0 = fold).

    Returns the number of entries (with a weight) whose decision is not ``allowed``
    (``allowed[k]`` for ``k`` in 0..255); their figures are then meaningless.
    """
    bad = 0
    for ur in range(le.shape[0]):
        for o in range(le.shape[1]):
            w = np.int64(weight[ur, o])
            if w == 0:
                continue
            k = dec[ur, o]
            if not allowed[k] or k > 3:
                bad += 1
                continue
            wsum[k] += w
            if k > 0:
                g = group[o]
                acc[k, g, 0] += w * lt[ur, o]
                acc[k, g, 1] += w * (le[ur, o] - lt[ur, o])
                acc[k, g, 2] += w * (n - le[ur, o])
    return bad


@nb.njit(cache=True, nogil=True)
def optimal_decisions(le, valid, bonus, n, lo, hi, out):
    """The optimal play multiple (0 = fold) of every ``(up rank, orbit)`` entry into ``out``.

    The EV of play ``k`` is ``(1 + k)(2 le - n) + bonus n`` (times n), linear in ``k``:
    the largest allowed multiple ``hi`` when ``2 le > n``, else the smallest ``lo``;
    fold (``-n``) unless the play is strictly better. ``bonus[orbit]``: the ante bonus pay.
    """
    for ur in range(le.shape[0]):
        for o in range(le.shape[1]):
            if not valid[ur, o]:
                out[ur, o] = 0
                continue
            margin = 2 * np.int64(le[ur, o]) - n
            k = hi if margin > 0 else lo
            out[ur, o] = k if (1 + k) * margin + bonus[o] * n > -n else 0
    return 0


@nb.njit(cache=True, nogil=True)
def class_sums(le, lt, weight, cls, out):
    """``out[class, ur, :]`` += (weight, weight x ``lt``, weight x ``le``) over every entry: one pass
    over the ``(13, n_orbits)`` counts; ``cls[orbit]`` is the hand class
    (:data:`fourcards.poker.strategy.HAND_CLASSES`). Charts' figures follow from these sums."""
    for ur in range(le.shape[0]):
        for o in range(le.shape[1]):
            w = weight[ur, o]
            if w == 0:
                continue
            c = cls[o]
            out[c, ur, 0] += w
            out[c, ur, 1] += w * lt[ur, o]
            out[c, ur, 2] += w * le[ur, o]
    return 0


@nb.njit(cache=True, parallel=True)
def decide(player, up, table, binom):
    """Play multiples from a decision table for many hands (parallel; see
    :func:`fourcards.poker.strategy.decide`). Not compiled ahead of time."""
    n = player.shape[0]
    out = np.empty(n, np.uint8)
    for i in nb.prange(n):
        u = np.int64(up[i])
        s = u & 3
        a = np.int64(0)
        b = np.int64(0)
        c = np.int64(0)
        d = np.int64(0)
        e = np.int64(0)
        for k in range(5):
            x = rk.clubs_frame(np.int64(player[i, k]), s)
            # insert x into the sorted (a..e) prefix of length k (measured faster here than a network)
            if k == 0:
                a = x
            elif k == 1:
                if x < a:
                    b = a
                    a = x
                else:
                    b = x
            elif k == 2:
                if x < a:
                    c = b
                    b = a
                    a = x
                elif x < b:
                    c = b
                    b = x
                else:
                    c = x
            elif k == 3:
                if x < a:
                    d = c
                    c = b
                    b = a
                    a = x
                elif x < b:
                    d = c
                    c = b
                    b = x
                elif x < c:
                    d = c
                    c = x
                else:
                    d = x
            else:
                if x < a:
                    e = d
                    d = c
                    c = b
                    b = a
                    a = x
                elif x < b:
                    e = d
                    d = c
                    c = b
                    b = x
                elif x < c:
                    e = d
                    d = c
                    c = x
                elif x < d:
                    e = d
                    d = x
                else:
                    e = x
        idx = rk.colex5(a, b, c, d, e, binom)
        out[i] = table[u >> 2, idx]
    return out
