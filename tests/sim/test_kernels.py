"""The compiled kernels: dealing, hand values, the two-level decision lookup."""

from __future__ import annotations

import numpy as np

from fourcards.hands import N_VALUES, best4_of5, best4_of6
from fourcards.sim import tables as T
from fourcards.sim.poker import _decision_tables, _kernels, deal_rounds, net_table

K = _kernels()


def test_deals_are_distinct_cards_and_reproducible():
    a = deal_rounds(7, 5000, chunk=3)
    b = deal_rounds(7, 5000, chunk=3)
    assert a.shape == (5000, 11) and a.dtype == np.uint8
    assert np.array_equal(a, b)
    assert all(len(set(row.tolist())) == 11 for row in a)
    assert not np.array_equal(a, deal_rounds(7, 5000, chunk=4))
    assert not np.array_equal(a, deal_rounds(8, 5000, chunk=3))


def test_deal_is_roughly_uniform():
    cards = deal_rounds(1, 52_000)
    # every card in every position about equally often: chi-square over 52 cells per position
    for pos in (0, 4, 10):
        counts = np.bincount(cards[:, pos], minlength=52)
        chi2 = ((counts - 1000) ** 2 / 1000).sum()
        assert chi2 < 110  # 51 d.o.f.: P(chi2 > 110) ~ 1e-6


def test_values_match_the_reference_evaluators():
    cards = deal_rounds(11, 100_000)
    out = np.empty((len(cards), 2), dtype=np.int64)
    K.eval_rounds(cards, *T.tables(), out)
    assert np.array_equal(out[:, 0], best4_of5(cards[:, :5]))
    assert np.array_equal(out[:, 1], best4_of6(cards[:, 5:]))


def test_two_level_lookup_equals_the_full_table(optimal, live_rules):
    small, big = _decision_tables(optimal)
    assert (small == T.AMBIGUOUS).any() and (small != T.AMBIGUOUS).any()
    all_ambiguous = np.full((N_VALUES, 13), T.AMBIGUOUS, dtype=np.uint8)
    nets = net_table(live_rules)
    results = []
    for sm in (small, all_ambiguous):
        counts = np.zeros((4, 2, T.N_PCLASS), dtype=np.int64)
        K.sim_chunk(T.chunk_state(5, 0), 50_000, sm, big, *T.tables(), T.PCLASS_OF_DENSE, nets, 0, 0, 0, counts,
                    np.empty(0, np.int64), np.empty((0, 1), np.int64))
        results.append(counts)
    assert np.array_equal(results[0], results[1])


def test_fused_decisions_equal_the_strategy_module(optimal):
    from fourcards.poker import strategy as st

    cards = deal_rounds(2, 20_000)
    small, big = _decision_tables(optimal)
    expected = st.decide(cards[:, :5], cards[:, 10], big)
    ranks = np.empty((len(cards), 2), dtype=np.int64)
    K.eval_rounds(cards, *T.tables(), ranks)
    got = small[ranks[:, 0], cards[:, 10] >> 2]
    amb = got == T.AMBIGUOUS
    assert np.array_equal(got[~amb], expected[~amb])
