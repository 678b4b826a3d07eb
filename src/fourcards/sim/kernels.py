"""Numba kernels for the Four Card Poker Monte Carlo: RNG, deal, value, decide, settle.

Everything here works on card indices (``uint8``, ``(rank - 2) * 4 + suit``, see
:mod:`fourcards.cards`) and whole chips (``int64``). The public entry points are
in :mod:`fourcards.sim.poker`; this module holds the compiled inner loops.

Random numbers: each chunk of rounds has its own xoshiro256** state, seeded
from ``numpy.random.SeedSequence(seed, spawn_key=(chunk,))`` (see
:func:`chunk_state`), so a chunk's deals depend on nothing but the seed and the
chunk index. Cards are drawn by a partial Fisher-Yates shuffle (11 unbiased
bounded draws per round from six 64-bit outputs, Lemire's method with
rejection), player first (5 cards), then the dealer (6 cards, the last one is the up card - the order of
:meth:`fourcards.poker.round.PokerRound.deal`).

Hand values: a four-card hand's dense rank (as in :data:`fourcards.hands.DENSE_RANK_4`)
depends only on its sorted ranks and whether it is a flush, so :data:`VALUE4_BY_RANKS`
is a 57,122-entry ``uint16`` table (114 KB, cache-resident) indexed by
``((r0 * 13 + r1) * 13 + r2) * 13 + r3 + 28561 * flush`` with ``r0 <= r1 <= r2 <= r3``
in ``0..12``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from fourcards.hands import BINOM, CATEGORY_OF_DENSE, DENSE_CODES, DENSE_RANK_4, all_hands
from fourcards.jit import sort_small

__all__ = [
    "VALUE4_BY_RANKS",
    "PCLASS_OF_DENSE",
    "N_PCLASS",
    "PCLASS_NAMES",
    "BEST4_OF_5_RANKS",
    "BEST4_OF_6_RANKS",
    "tables",
    "chunk_state",
    "deal_chunk",
    "sim_chunk",
    "MODE_RANK_TABLE",
    "MODE_COLEX_TABLE",
    "MODE_EXTERNAL",
    "AMBIGUOUS",
    "rank_decisions",
    "eval_rounds",
]

_R4 = 28561  # 13 ** 4


def _build_value_table() -> np.ndarray:
    combos = all_hands(4).astype(np.int64)  # rows ascending card index
    idx = BINOM[combos[:, 0], 1] + BINOM[combos[:, 1], 2] + BINOM[combos[:, 2], 3] + BINOM[combos[:, 3], 4]
    dense = DENSE_RANK_4[idx]
    r = combos >> 2
    s = combos & 3
    flush = (s == s[:, :1]).all(axis=1)
    key = ((r[:, 0] * 13 + r[:, 1]) * 13 + r[:, 2]) * 13 + r[:, 3] + _R4 * flush
    tab = np.zeros(2 * _R4, dtype=np.uint16)
    tab[key] = dense
    if not np.array_equal(tab[key], dense):  # pragma: no cover - a table invariant
        raise AssertionError("four-card value is not a function of (ranks, flush)")
    return tab


#: Dense four-card rank by (sorted ranks, flush); see the module docstring.
VALUE4_BY_RANKS = _build_value_table()

@nb.njit(cache=True)
def _build_multiset_best(n, tab, binom, out):
    """Best non-flush four-card value of every multiset of ``n`` ranks (each rank <= 4 times)."""
    r = np.zeros(n, dtype=np.int64)
    while True:
        ok = True
        for i in range(n - 4):
            if r[i] == r[i + 4]:
                ok = False
        if ok:
            idx = 0
            for i in range(n):
                idx += binom[r[i] + i, i + 1]
            best = 0
            for x in range(n):
                for y in range(x, n):
                    if n == 5 and y != x:
                        break
                    if n == 6 and y == x:
                        continue
                    key = 0
                    for j in range(n):
                        if j != x and j != y:
                            key = key * 13 + r[j]
                    if tab[key] > best:
                        best = tab[key]
            out[idx] = best
        # next non-decreasing sequence
        i = n - 1
        while i >= 0 and r[i] == 12:
            i -= 1
        if i < 0:
            break
        r[i] += 1
        for j in range(i + 1, n):
            r[j] = r[i]


def _multiset_table(n: int) -> np.ndarray:
    out = np.zeros(int(BINOM[12 + n, n]), dtype=np.uint16)
    _build_multiset_best(n, VALUE4_BY_RANKS, BINOM, out)
    return out


#: Best non-flush dense rank of a multiset of 5 (6) ranks, indexed by
#: ``sum(BINOM[r_i + i, i + 1])`` over the sorted ranks ``r_0 <= ... <= r_{n-1}``
#: (a colex index of the multiset: 6,188 and 18,564 entries).
BEST4_OF_5_RANKS = _multiset_table(5)
BEST4_OF_6_RANKS = _multiset_table(6)

#: Player hand classes used for settlement and hit frequencies: the category of
#: the best four with pairs split into "pair below aces" and "pair of aces"
#: (the lowest Aces Up win).
PCLASS_NAMES = (
    "high_card", "pair_below_aces", "pair_of_aces", "two_pair", "straight", "flush",
    "three_of_a_kind", "straight_flush", "four_of_a_kind",
)
N_PCLASS = len(PCLASS_NAMES)


def _build_pclass() -> np.ndarray:
    cat = CATEGORY_OF_DENSE.astype(np.int64)
    top_rank = (DENSE_CODES.astype(np.int64) >> 12) & 0xF
    pcl = np.where(cat >= 2, cat + 1, cat)
    pcl = np.where((cat == 1) & (top_rank == 14), 2, pcl)
    return pcl.astype(np.uint8)


#: ``PCLASS_OF_DENSE[dense]`` = index into :data:`PCLASS_NAMES`.
PCLASS_OF_DENSE = _build_pclass()


def tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(VALUE4_BY_RANKS, BEST4_OF_5_RANKS, BEST4_OF_6_RANKS, BINOM)``: the valuation
    tables the kernels take as arguments."""
    return VALUE4_BY_RANKS, BEST4_OF_5_RANKS, BEST4_OF_6_RANKS, BINOM


def chunk_state(seed: int, chunk: int) -> np.ndarray:
    """The xoshiro256** state (``(4,) uint64``) of chunk ``chunk`` of a run seeded ``seed``.

    Derived from ``numpy.random.SeedSequence(seed, spawn_key=(chunk,))``: chunk
    streams are independent and depend only on ``(seed, chunk)``.
    """
    st = np.random.SeedSequence(seed, spawn_key=(chunk,)).generate_state(4, np.uint64)
    if not st.any():  # pragma: no cover - probability 2**-256
        st[0] = 1
    return st


# --------------------------------------------------------------------- RNG

@nb.njit(inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@nb.njit(inline="always")
def _next64(s):
    result = _rotl(s[1] * np.uint64(5), 7) * np.uint64(9)
    t = s[1] << np.uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


@nb.njit(inline="always")
def _bounded32(s, x, n):
    """Unbiased integer in ``0..n-1`` from the 32-bit draw ``x`` (Lemire's multiply-shift,
    with rejection: a rejected draw is replaced by the top half of a fresh output)."""
    un = np.uint64(n)
    m = x * un
    low = m & np.uint64(0xFFFFFFFF)
    if low < un:
        thresh = (np.uint64(0x100000000) - un) % un
        while low < thresh:
            x = _next64(s) >> np.uint64(32)
            m = x * un
            low = m & np.uint64(0xFFFFFFFF)
    return np.int64(m >> np.uint64(32))


@nb.njit(inline="always")
def _draw11(s, deck, out):
    """Partial Fisher-Yates: the first 11 cards of ``deck`` become a uniform sample.

    Each 64-bit output gives two 32-bit draws (high half, then low half).
    ``deck`` stays a permutation of 0..51, so it need not be reset between rounds.
    """
    r = np.uint64(0)
    for j in range(11):
        if j % 2 == 0:
            r = _next64(s)
            x = r >> np.uint64(32)
        else:
            x = r & np.uint64(0xFFFFFFFF)
        k = j + _bounded32(s, x, 52 - j)
        t = deck[j]
        deck[j] = deck[k]
        deck[k] = t
        out[j] = deck[j]


# --------------------------------------------------------------- valuation

@nb.njit(inline="always")
def _flush_suit(buf, n):
    """The suit held by at least four of ``buf[:n]``, or -1."""
    c0 = 0
    c1 = 0
    c2 = 0
    c3 = 0
    for i in range(n):
        su = buf[i] & 3
        if su == 0:
            c0 += 1
        elif su == 1:
            c1 += 1
        elif su == 2:
            c2 += 1
        else:
            c3 += 1
    if c0 >= 4:
        return 0
    if c1 >= 4:
        return 1
    if c2 >= 4:
        return 2
    if c3 >= 4:
        return 3
    return -1


@nb.njit(inline="always")
def _best4(cards, off, n, tab, ms, binom, buf):
    """Dense rank of the best four of ``cards[off:off+n]`` (n = 5 or 6).

    The best non-flush value comes from the rank multiset (:data:`BEST4_OF_5_RANKS`
    / :data:`BEST4_OF_6_RANKS`); with four or more cards of one suit the suited
    four-card subsets are valued too (a suited four is a flush or straight flush,
    always worth more than the same ranks unsuited). ``buf`` needs 12 slots.
    """
    for i in range(n):
        buf[i] = cards[off + i]
    sort_small(buf, n)
    idx = 0
    for i in range(n):
        idx += binom[(buf[i] >> 2) + i, i + 1]
    best = ms[idx]
    fs = _flush_suit(buf, n)
    if fs >= 0:
        k = 0
        for i in range(n):
            if (buf[i] & 3) == fs:
                buf[6 + k] = buf[i] >> 2
                k += 1
        for a in range(k):
            for b in range(a + 1, k):
                for c in range(b + 1, k):
                    for d in range(c + 1, k):
                        key = ((buf[6 + a] * 13 + buf[6 + b]) * 13 + buf[6 + c]) * 13 + buf[6 + d] + 28561
                        v = tab[key]
                        if v > best:
                            best = v
    return best


# ----------------------------------------------------------------- kernels

@nb.njit(cache=True)
def deal_chunk(state, n, out):
    """Deal ``n`` rounds into ``out`` (``(n, 11) uint8``: 5 player cards, then the
    dealer's 6 with the up card last), advancing ``state`` in place."""
    s = state.copy()
    deck = np.arange(52).astype(np.int64)
    row = np.empty(11, dtype=np.int64)
    for i in range(n):
        _draw11(s, deck, row)
        for j in range(11):
            out[i, j] = row[j]
    state[:] = s


#: Marks a (player dense rank, up rank) cell of a small decision table whose hands
#: do not all share one decision.
AMBIGUOUS = 255


@nb.njit(cache=True)
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


#: Decision modes of :func:`sim_chunk`.
MODE_RANK_TABLE = 0  # table[player dense rank, up rank]
MODE_COLEX_TABLE = 1  # table[up rank, colex of the player's cards with up suit <-> clubs]
MODE_EXTERNAL = 2  # pre-dealt cards and decisions passed in


@nb.njit(inline="always")
def _colex_up_frame(row, buf, binom):
    """Colex index of the player's five cards after swapping the up card's suit with clubs
    (the frame of :func:`fourcards.poker.analysis.locate`)."""
    us = row[10] & 3
    for i in range(5):
        c = row[i]
        t = c & 3
        if t == us:
            t = 0
        elif t == 0:
            t = us
        buf[i] = (c & ~3) | t
    sort_small(buf, 5)
    idx = 0
    for i in range(5):
        idx += binom[buf[i], i + 1]
    return idx


@nb.njit(cache=True)
def sim_chunk(state, n, mode, cards_in, dec_in, small, big, tab, ms5, ms6, binom, pclass, net_tab,
              session_k, bankroll, stake_max, counts, sess_out, paths):
    """Simulate ``n`` rounds; accumulate integer counts; optionally run bankroll sessions.

    Args:
        state: ``(4,) uint64`` xoshiro256** state of the chunk (advanced in place).
        n: rounds in the chunk.
        mode: how the play multiple (0 = fold) is decided -
            :data:`MODE_RANK_TABLE`: ``small[player dense rank, up rank 0..12]``;
            :data:`MODE_COLEX_TABLE`: ``small[player dense rank, up rank]`` unless it
            is :data:`AMBIGUOUS`, then ``big[up rank, colex index of the player's
            cards with the up card's suit swapped with clubs]``;
            :data:`MODE_EXTERNAL`: rounds and decisions come from ``cards_in`` /
            ``dec_in`` (``state`` is not used).
        cards_in: ``(n, 11) uint8`` pre-dealt rounds (:func:`deal_chunk`) for
            :data:`MODE_EXTERNAL`, else any ``(0, 11)`` array.
        dec_in: ``(n,) uint8`` play multiples for :data:`MODE_EXTERNAL`.
        small: ``(N_VALUES, 13) uint8`` decisions by (player dense rank, up rank), or
            :data:`AMBIGUOUS` where they depend on more (see :func:`rank_decisions`).
        big: ``(13, 2_598_960) uint8`` decision table of
            :func:`fourcards.poker.strategy.decision_table` (any 2-D array if unused).
        tab, ms5, ms6, binom: the valuation tables of :func:`tables`.
        pclass: :data:`PCLASS_OF_DENSE`.
        net_tab: ``(4, 2, N_PCLASS) int64`` net chips by (multiple, win, player class).
        session_k: hands per session (0: no sessions); bankroll, stake_max: chips.
            A session is ruined (and stops) when its bankroll falls below ``stake_max``.
        counts: ``(4, 2, N_PCLASS) int64`` accumulator (multiple, win, player class).
        sess_out: ``(n // session_k,) int64`` session results (net chips), or empty.
        paths: ``(P, session_k + 1) int64`` bankroll paths of the first P sessions.

    Returns:
        the number of ruined sessions.
    """
    s = state.copy()
    deck = np.arange(52).astype(np.int64)
    row = np.empty(11, dtype=np.int64)
    buf = np.empty(12, dtype=np.int64)
    npaths = paths.shape[0]
    ruined = 0
    bank = bankroll
    alive = True
    sess = 0
    pos = 0
    if npaths > 0:
        paths[0, 0] = bankroll
    for i in range(n):
        if mode == MODE_EXTERNAL:
            for j in range(11):
                row[j] = cards_in[i, j]
        else:
            _draw11(s, deck, row)
        pd = _best4(row, 0, 5, tab, ms5, binom, buf)
        if mode == MODE_EXTERNAL:
            m = np.int64(dec_in[i])
        else:
            m = np.int64(small[pd, row[10] >> 2])
            if mode == MODE_COLEX_TABLE and m == AMBIGUOUS:
                m = np.int64(big[row[10] >> 2, _colex_up_frame(row, buf, binom)])
        pc = pclass[pd]
        w = 0
        if m > 0:
            dd = _best4(row, 5, 6, tab, ms6, binom, buf)
            if pd >= dd:
                w = 1
        counts[m, w, pc] += 1
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
    state[:] = s
    return ruined


@nb.njit(cache=True)
def eval_rounds(cards, tab, ms5, ms6, binom, out):
    """Player (5 cards) and dealer (6 cards) dense ranks of each row of ``cards`` (n, 11).

    ``out`` is ``(n, 2) int64``: column 0 the player's best four, column 1 the dealer's.
    """
    buf = np.empty(12, dtype=np.int64)
    row = np.empty(11, dtype=np.int64)
    for i in range(cards.shape[0]):
        for j in range(11):
            row[j] = cards[i, j]
        out[i, 0] = _best4(row, 0, 5, tab, ms5, binom, buf)
        out[i, 1] = _best4(row, 5, 6, tab, ms6, binom, buf)
