"""The one signature of each compiled kernel (numba signature strings), per kernel module.

Used three ways: ``setup.py`` compiles exactly these ahead of time
(:mod:`fourcards.aot`), the JIT fallback compiles exactly these
(:mod:`fourcards.native`), and every call is checked against them first (a
compiled function given another dtype or layout would read memory wrongly).
Light: no numpy or numba import.

Types: ``b1``/``u1``/``u2``/``u8``/``i4``/``i8`` = bool/uint8/uint16/uint64/int32/int64;
``[::1]`` a C-contiguous 1-d array, ``[:, ::1]`` 2-d, ``[:, :, ::1]`` 3-d; a bare
``i8`` a Python int.
"""

from __future__ import annotations

__all__ = ["SIGNATURES"]

SIGNATURES: dict[str, dict[str, str]] = {
    "fourcards.sim.kernels": {
        # state, n, small, big, tab, ms5, ms6, binom, pclass, net_tab, session_k, bankroll, stake_max,
        # counts, sess_out, paths -> ruined sessions
        "sim_chunk": "i8(u8[::1], i8, u1[:, ::1], u1[:, ::1], u2[::1], u2[::1], u2[::1], i8[:, ::1], "
                     "u1[::1], i8[:, :, ::1], i8, i8, i8, i8[:, :, ::1], i8[::1], i8[:, ::1])",
        "deal_chunk": "i8(u8[::1], i8, u1[:, ::1])",  # state, n, out
        "eval_rounds": "i8(u1[:, ::1], u2[::1], u2[::1], u2[::1], i8[:, ::1], i8[:, ::1])",
        "rank_decisions": "i8(u1[:, ::1], u1[:, ::1], u2[::1], u1[:, ::1])",  # big, combos, rank5, out
    },
    "fourcards.poker.protect_kernels": {
        # up, hole, player, pweight, rank_start, table4, binom, bonus, dec_row, lo, hi, out, dec_out -> dealer sets
        "hole_card_class": "i8(i8, i8, i4[::1], u1[::1], i8[::1], u2[::1], i8[:, ::1], i8[::1], u1[::1], i8, i8, "
                           "i8[::1], u1[::1])",
        "count_known": "i8(i8[::1], i8[::1], i8[::1], i8, u2[::1], i8[:, ::1], i8[::1])",  # player, known, dead...
    },
    "fourcards.poker.side_bet_kernels": {
        # top_lo, top_hi, table4, cat_of_dense, binom, cat5, h4, j5, dense6 -> six-card hands seen
        "dealer_six_sweep": "i8(i8, i8, u2[::1], u1[::1], i8[:, ::1], u1[::1], i4[:, ::1], i8[:, ::1], i8[::1])",
    },
    "fourcards.poker.kernels": {
        "colex_combos5": "i8(u1[:, ::1])",  # out
        "best5_all": "i8(u1[:, ::1], u2[::1], i8[:, ::1], u2[::1])",  # combos, table4, binom, out
        "orbits": "i8(u1[:, ::1], i8[:, ::1], i4[::1], u1[::1])",  # combos, binom, rep, size
        "pack5": "i8(u1[:, ::1], i4[::1], i4[::1])",  # combos, rows, out
        # up rank, combos, r5, table4, binom, player, player_orbit, rank_start, out_le, out_lt,
        # scratch dealer, scratch packed -> dealer sets
        "sweep_up_rank": "i8(i8, u1[:, ::1], u2[::1], u2[::1], i8[:, ::1], i4[::1], i4[::1], i8[::1], "
                         "i4[::1], i4[::1], u2[::1], i4[::1])",
        # player, up, dead (a card mask), rank, table4, binom, out
        "count_one": "i8(i8[::1], i8, i8, i8, u2[::1], i8[:, ::1], i8[::1])",
        # le, lt, weight, dec, group, n, allowed (256,), acc (4, 4, 3), wsum (4,) -> entries not allowed
        "accumulate": "i8(i4[:, ::1], i4[:, ::1], i8[:, ::1], u1[:, ::1], i8[::1], i8, b1[::1], i8[:, :, ::1], "
                      "i8[::1])",
        "optimal_decisions": "i8(i4[:, ::1], b1[:, ::1], i8[::1], i8, i8, i8, u1[:, ::1])",  # le, valid, bonus...
        "class_sums": "i8(i4[:, ::1], i4[:, ::1], i8[:, ::1], i8[::1], i8[:, :, ::1])",  # le, lt, weight, cls, out
    },
}
