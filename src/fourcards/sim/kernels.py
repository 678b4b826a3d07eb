"""Numba kernels of the Four Card Poker Monte Carlo: deal, value, decide and count in one loop.

Imported only to compile them (the JIT fallback of :mod:`fourcards.native`) or to
build them ahead of time; the simulator calls them through
``native.load("fourcards.sim.kernels", ...)`` with the signatures of
:mod:`fourcards.kernel_signatures`. The tables they take are in
:mod:`fourcards.sim.tables`.

Random numbers: each chunk of rounds has its own xoshiro256** state (see
:func:`fourcards.sim.tables.chunk_state`). Cards are drawn by a partial
Fisher-Yates shuffle: 11 unbiased bounded draws per round from six 64-bit
outputs (high half, then low half; Lemire's method with rejection), player
first (5 cards), then the dealer (6 cards, the last one the up card - the order
of :meth:`fourcards.poker.round.PokerRound.deal`). The deck is never reset: it
stays a permutation of 0..51.

Values: the best four that is not a flush depends only on the rank multiset,
read from ``ms5`` / ``ms6`` by the multiset's colex index (ranks sorted by a
sorting network, no branches: the one compiled ranking of :mod:`fourcards.ranking`,
inlined); with four or more cards of one suit the suited fours are valued too
(``tab``). The state lives in registers; the only memory a round touches is the
52-card deck, a few small tables and, for about one round in ten, the decision table.
"""

from __future__ import annotations

import numpy as np

from fourcards import ranking as rk
from fourcards.jit import nb

__all__ = ["sim_chunk", "deal_chunk", "eval_rounds", "rank_decisions", "AMBIGUOUS"]

#: Marks a (player dense rank, up rank) cell of the small decision table whose hands
#: do not all share one decision (see :func:`rank_decisions`).
AMBIGUOUS = 255
_M32 = np.uint64(0xFFFFFFFF)


@nb.njit(cache=True, nogil=True, inline="always")
def _next64(s0, s1, s2, s3):
    """One xoshiro256** output and the next state."""
    t1 = s1 * np.uint64(5)
    r = ((t1 << np.uint64(7)) | (t1 >> np.uint64(57))) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << np.uint64(45)) | (s3 >> np.uint64(19))
    return r, s0, s1, s2, s3


@nb.njit(cache=True, nogil=True, inline="always")
def _deal11(s0, s1, s2, s3, deck):
    """Partial Fisher-Yates: ``deck[:11]`` becomes a uniform sample; returns the new state."""
    r = np.uint64(0)
    for j in range(11):
        if j % 2 == 0:
            r, s0, s1, s2, s3 = _next64(s0, s1, s2, s3)
            x = r >> np.uint64(32)
        else:
            x = r & _M32
        un = np.uint64(52 - j)
        m = x * un
        low = m & _M32
        if low < un:  # Lemire: reject the biased low end of the product
            thresh = (np.uint64(0x100000000) - un) % un
            while low < thresh:
                rr, s0, s1, s2, s3 = _next64(s0, s1, s2, s3)
                m = (rr >> np.uint64(32)) * un
                low = m & _M32
        jj = np.uint64(j)
        k = jj + (m >> np.uint64(32))
        t = deck[jj]
        deck[jj] = deck[k]
        deck[k] = t
    return s0, s1, s2, s3


@nb.njit(cache=True, nogil=True, inline="always")
def _suited_best(best, suits, cards, off, n, tab, su):
    """Raise ``best`` by the suited fours of ``cards[off:off + n]`` (``suits``: 4-bit suit counts)."""
    fs = np.int64(0)
    while ((np.int64(suits) >> (fs << 2)) & 0xF) < 4:
        fs += 1
    k = 0
    for i in range(off, off + n):
        if (np.int64(cards[i]) & 3) == fs:
            v = np.int64(cards[i]) >> 2
            q = k - 1
            while q >= 0 and su[q] > v:  # insertion sort, ascending ranks
                su[q + 1] = su[q]
                q -= 1
            su[q + 1] = v
            k += 1
    for a in range(k):
        for b in range(a + 1, k):
            for c in range(b + 1, k):
                for d in range(c + 1, k):
                    v = tab[((su[a] * 13 + su[b]) * 13 + su[c]) * 13 + su[d] + 28561]
                    if v > best:
                        best = v
    return best


@nb.njit(cache=True, nogil=True, inline="always")
def _multiset_columns(binom, dtype):
    """The shifted binomial columns of :func:`fourcards.ranking.multiset6`: ``m[k - 1][x] = C(x + k - 1, k)``
    for the 13 ranks, ``k`` = 1..6, as ``dtype`` (unsigned indices spare numba's negative-index
    wrap-around code: measured 15% faster in :func:`sim_chunk`)."""
    m = np.empty((6, 13), dtype)
    for k in range(1, 7):
        for x in range(13):
            m[k - 1, x] = binom[x + k - 1, k]
    return m[0].copy(), m[1].copy(), m[2].copy(), m[3].copy(), m[4].copy(), m[5].copy()


@nb.njit(cache=True, nogil=True, inline="always")
def _best4_of5(deck, tab, ms5, m1, m2, m3, m4, m5, su):
    """Dense rank of the best four of ``deck[0:5]`` (the player's cards)."""
    c0 = deck[0]
    c1 = deck[1]
    c2 = deck[2]
    c3 = deck[3]
    c4 = deck[4]
    a, b, c, d, e = rk.sort5(c0 >> 2, c1 >> 2, c2 >> 2, c3 >> 2, c4 >> 2)
    best = ms5[rk.multiset5(a, b, c, d, e, m1, m2, m3, m4, m5)]
    suits = ((1 << ((c0 & 3) << 2)) + (1 << ((c1 & 3) << 2)) + (1 << ((c2 & 3) << 2))
             + (1 << ((c3 & 3) << 2)) + (1 << ((c4 & 3) << 2)))
    if suits & 0x4444:  # four or more of one suit
        best = _suited_best(best, suits, deck, 0, 5, tab, su)
    return best


@nb.njit(cache=True, nogil=True, inline="always")
def _best4_of6(deck, tab, ms6, m1, m2, m3, m4, m5, m6, su):
    """Dense rank of the best four of ``deck[5:11]`` (the dealer's cards)."""
    c0 = deck[5]
    c1 = deck[6]
    c2 = deck[7]
    c3 = deck[8]
    c4 = deck[9]
    c5 = deck[10]
    a, b, c, d, e, f = rk.sort6(c0 >> 2, c1 >> 2, c2 >> 2, c3 >> 2, c4 >> 2, c5 >> 2)
    best = ms6[rk.multiset6(a, b, c, d, e, f, m1, m2, m3, m4, m5, m6)]
    suits = ((1 << ((c0 & 3) << 2)) + (1 << ((c1 & 3) << 2)) + (1 << ((c2 & 3) << 2))
             + (1 << ((c3 & 3) << 2)) + (1 << ((c4 & 3) << 2)) + (1 << ((c5 & 3) << 2)))
    if suits & 0x4444:
        best = _suited_best(best, suits, deck, 5, 6, tab, su)
    return best


@nb.njit(cache=True, nogil=True, inline="always")
def _colex_up_frame(deck, binom):
    """Colex index of the player's five cards after swapping the up card's suit with clubs
    (the frame of :func:`fourcards.poker.analysis.locate`)."""
    us = np.int64(deck[10]) & 3
    a, b, c, d, e = rk.sort5(rk.clubs_frame(np.int64(deck[0]), us), rk.clubs_frame(np.int64(deck[1]), us),
                             rk.clubs_frame(np.int64(deck[2]), us), rk.clubs_frame(np.int64(deck[3]), us),
                             rk.clubs_frame(np.int64(deck[4]), us))
    return rk.colex5(a, b, c, d, e, binom)


@nb.njit(cache=True, nogil=True)
def sim_chunk(state, n, small, big, tab, ms5, ms6, binom, pclass, net_tab,
              session_k, bankroll, stake_max, counts, sess_out, paths):
    """Simulate ``n`` rounds; accumulate integer counts; optionally run bankroll sessions.

    Args:
        state: ``(4,) uint64`` xoshiro256** state of the chunk (advanced in place).
        n: rounds in the chunk.
        small: ``(N_VALUES, 13) uint8`` play multiple (0 = fold) by (player dense rank,
            up rank 0..12), or :data:`AMBIGUOUS` where it depends on more: then
            ``big[up rank, colex index of the player's cards with the up card's suit
            swapped with clubs]`` decides (see :func:`rank_decisions`).
        big: ``(13, 2_598_960) uint8`` decision table of
            :func:`fourcards.poker.strategy.decision_table`.
        tab, ms5, ms6, binom: the valuation tables of :func:`fourcards.sim.tables.tables`.
        pclass: ``PCLASS_OF_DENSE``.
        net_tab: ``(4, 2, N_PCLASS) int64`` net chips by (multiple, win, player class).
        session_k: hands per session (0: no sessions); bankroll, stake_max: chips.
            A session is ruined (and stops) when its bankroll falls below ``stake_max``.
        counts: ``(4, 2, N_PCLASS) int64`` accumulator (multiple, win, player class).
        sess_out: ``(n // session_k,) int64`` session results (net chips), or empty.
        paths: ``(P, session_k + 1) int64`` bankroll paths of the first P sessions.

    Returns:
        the number of ruined sessions.
    """
    s0 = state[0]
    s1 = state[1]
    s2 = state[2]
    s3 = state[3]
    deck = np.arange(52).astype(np.uint64)
    su = np.empty(8, np.int64)
    cnt = np.zeros(72, np.int64)  # (4, 2, 9) flat
    m1, m2, m3, m4, m5, m6 = _multiset_columns(binom, np.uint64)  # the multiset index, unsigned
    one = np.uint64(1)
    two = np.uint64(2)
    three = np.uint64(3)
    npaths = paths.shape[0]
    ruined = 0
    bank = bankroll
    alive = True
    sess = 0
    pos = 0
    if npaths > 0:
        paths[0, 0] = bankroll
    for _ in range(n):
        s0, s1, s2, s3 = _deal11(s0, s1, s2, s3, deck)
        # the player's best four: as _best4_of5, on the unsigned deck
        c0 = deck[0]
        c1 = deck[1]
        c2 = deck[2]
        c3 = deck[3]
        c4 = deck[4]
        a, b, c, d, e = rk.sort5(c0 >> two, c1 >> two, c2 >> two, c3 >> two, c4 >> two)
        pd = ms5[rk.multiset5(a, b, c, d, e, m1, m2, m3, m4, m5)]
        suits = ((one << ((c0 & three) << two)) + (one << ((c1 & three) << two)) + (one << ((c2 & three) << two))
                 + (one << ((c3 & three) << two)) + (one << ((c4 & three) << two)))
        if suits & np.uint64(0x4444):
            pd = _suited_best(pd, suits, deck, 0, 5, tab, su)
        ur = deck[10] >> two
        m = np.int64(small[pd, ur])
        if m == AMBIGUOUS:
            m = np.int64(big[ur, _colex_up_frame(deck, binom)])
        w = 0
        if m > 0:
            # the dealer's best four: as _best4_of6, on the unsigned deck
            c0 = deck[5]
            c1 = deck[6]
            c2 = deck[7]
            c3 = deck[8]
            c4 = deck[9]
            c5 = deck[10]
            a, b, c, d, e, f = rk.sort6(c0 >> two, c1 >> two, c2 >> two, c3 >> two, c4 >> two, c5 >> two)
            dd = ms6[rk.multiset6(a, b, c, d, e, f, m1, m2, m3, m4, m5, m6)]
            suits = ((one << ((c0 & three) << two)) + (one << ((c1 & three) << two))
                     + (one << ((c2 & three) << two)) + (one << ((c3 & three) << two))
                     + (one << ((c4 & three) << two)) + (one << ((c5 & three) << two)))
            if suits & np.uint64(0x4444):
                dd = _suited_best(dd, suits, deck, 5, 6, tab, su)
            if pd >= dd:
                w = 1
        pc = pclass[pd]
        cnt[(m * 2 + w) * 9 + pc] += 1
        if session_k > 0:
            if alive:
                bank += net_tab[m, w, pc]
                if bank < stake_max:
                    alive = False
                    ruined += 1
            pos += 1
            if sess < npaths:
                paths[sess, pos] = bank
            if pos == session_k:
                sess_out[sess] = bank - bankroll
                sess += 1
                pos = 0
                bank = bankroll
                alive = True
                if sess < npaths:
                    paths[sess, 0] = bankroll
    for q in range(72):
        counts[q // 18, (q // 9) % 2, q % 9] += cnt[q]
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return ruined


@nb.njit(cache=True, nogil=True)
def deal_chunk(state, n, out):
    """Deal ``n`` rounds into ``out`` (``(n, 11) uint8``: 5 player cards, then the
    dealer's 6 with the up card last), advancing ``state`` in place."""
    s0 = state[0]
    s1 = state[1]
    s2 = state[2]
    s3 = state[3]
    deck = np.arange(52).astype(np.int64)
    for i in range(n):
        s0, s1, s2, s3 = _deal11(s0, s1, s2, s3, deck)
        for j in range(11):
            out[i, j] = deck[j]
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return n


@nb.njit(cache=True, nogil=True)
def eval_rounds(cards, tab, ms5, ms6, binom, out):
    """Player (5 cards) and dealer (6 cards) dense ranks of each row of ``cards`` (n, 11).

    ``out`` is ``(n, 2) int64``: column 0 the player's best four, column 1 the dealer's.
    """
    row = np.empty(11, dtype=np.int64)
    su = np.empty(8, np.int64)
    m1, m2, m3, m4, m5, m6 = _multiset_columns(binom, np.int64)
    for i in range(cards.shape[0]):
        for j in range(11):
            row[j] = cards[i, j]
        out[i, 0] = _best4_of5(row, tab, ms5, m1, m2, m3, m4, m5, su)
        out[i, 1] = _best4_of6(row, tab, ms6, m1, m2, m3, m4, m5, m6, su)
    return cards.shape[0]


@nb.njit(cache=True, nogil=True)
def rank_decisions(big, combos, rank5, out):
    """Fill ``out`` (``(N_VALUES, 13) uint8``) from the colex decision table ``big``.

    ``out[r, u]`` is the decision shared by every player hand of dense rank ``r``
    against an up card of rank ``u`` (clubs frame), or :data:`AMBIGUOUS`. About
    90% of optimal-strategy rounds are decided from this 33 KB table alone, which
    keeps the 34 MB table out of the cache's way. ``combos``/``rank5``: the cards
    and dense rank of each colex index (:func:`fourcards.poker.analysis.base_tables`).
    """
    out[:, :] = 254  # unseen
    for u in range(13):
        up = u * 4
        for i in range(combos.shape[0]):
            if (combos[i, 0] == up or combos[i, 1] == up or combos[i, 2] == up or combos[i, 3] == up
                    or combos[i, 4] == up):
                continue
            r = rank5[i]
            d = big[u, i]
            cur = out[r, u]
            if cur == 254:
                out[r, u] = d
            elif cur != d:
                out[r, u] = AMBIGUOUS
    for r in range(out.shape[0]):
        for u in range(13):
            if out[r, u] == 254:
                out[r, u] = 0
    return 0
