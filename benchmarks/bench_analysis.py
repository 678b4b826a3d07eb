"""Exact Four Card Poker analysis: cold and warm full analysis, decisions per second.

Run: ``pytest benchmarks/bench_analysis.py --benchmark-only`` (figures in docs/analysis.md).
The disk cache goes to a temporary folder. The kernels are compiled at install
(or by numba on first use, cached); these benchmarks warm up first. Whole-process
figures (first runs, no counts cache, warm cache): ``benchmarks/issue14.py``.

* cold: base tables + dealer counts computed + optimal figures (no cache at all);
* warm (disk): counts loaded from the disk cache + optimal figures (a new process);
* warm (memory): counts in memory, only the figures (a pay-table change);
* par sheet: every table of ``fourcards poker analyze`` with counts in memory.
"""

from __future__ import annotations

import numpy as np
import pytest

from fourcards.poker import analysis as an
from fourcards.poker import strategy as st
from fourcards.poker.exact import counts as ec
from fourcards.poker.rules import as_rules as _as_rules


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    d = tmp_path_factory.mktemp("fcp-cache")
    an.exact_counts(directory=d)  # compile numba kernels, fill the cache
    return d


def _forget(d):
    ec._MEMO.pop(str(d.resolve()), None)


def test_cold_full_analysis(benchmark, cache):
    def setup():
        an.base_tables.cache_clear()
        return (), {}

    def run():
        counts = an.exact_counts(use_cache=False)
        return an.analyze("live", counts=counts)

    f = benchmark.pedantic(run, setup=setup, rounds=3, iterations=1)
    assert round(float(f.house_edge) * 100, 4) == 2.7879


def test_warm_full_analysis_from_disk(benchmark, cache):
    def setup():
        an.base_tables.cache_clear()
        _forget(cache)
        return (), {}

    def run():
        counts = an.exact_counts(directory=cache)
        assert counts.source == "disk"
        return an.analyze("live", counts=counts)

    f = benchmark.pedantic(run, setup=setup, rounds=5, iterations=1)
    assert round(float(f.element_of_risk) * 100, 2) == 1.30


def test_warm_pay_table_change_in_memory(benchmark, cache):
    counts = an.exact_counts(directory=cache)
    rules = _as_rules("live").with_tables(ante_bonus=_as_rules("live").ante_bonus)
    benchmark(lambda: an.analyze(rules, counts=counts))


def test_par_sheet_in_memory(benchmark, cache):
    counts = an.exact_counts(directory=cache)
    benchmark.pedantic(lambda: an.par_sheet("online", counts=counts), rounds=3, iterations=1)


def test_decide_throughput(benchmark, cache):
    counts = an.exact_counts(directory=cache)
    table = st.decision_table("live", counts=counts)
    rng = np.random.default_rng(0)
    n = 4_000_000
    deals = np.argpartition(rng.random((n, 52), dtype=np.float32), 6, axis=1)[:, :6].astype(np.uint8)
    player, up = np.ascontiguousarray(deals[:, :5]), np.ascontiguousarray(deals[:, 5])
    st.decide(player[:10], up[:10], table)
    benchmark(st.decide, player, up, table)
    benchmark.extra_info["decisions_per_second"] = n / benchmark.stats.stats.mean


def test_decision_table_build(benchmark, cache):
    counts = an.exact_counts(directory=cache)
    benchmark.pedantic(lambda: st.decision_table("live", counts=counts), rounds=3, iterations=1)


def test_one_hand_direct_enumeration(benchmark):
    an.count_hand("As Ad 7c 5h 2d", "Kc")
    benchmark.pedantic(an.count_hand, args=("As Ad 7c 5h 2d", "Kc"), rounds=5, iterations=1)


def test_aces_up_all_named_tables(benchmark):
    from fourcards.poker.rules import ACES_UP_TABLES

    an.aces_up_counts()
    benchmark(lambda: [an.aces_up(t) for t in ACES_UP_TABLES.values()])


def test_par_sheet_every_wager_in_memory(benchmark, cache):
    """Issue 23: the par sheet with every wager's return table, VI and hold intervals (JSON form)."""
    counts = an.exact_counts(directory=cache)
    benchmark.pedantic(lambda: an.par_sheet("online", counts=counts).to_dict(), rounds=3, iterations=1)


def test_design_aces_up_nearest_20(benchmark):
    from fractions import Fraction

    from fourcards.poker.exact import design

    an.aces_up_counts()
    benchmark.pedantic(lambda: design.design_aces_up(Fraction(9663, 10000)), rounds=3, iterations=1)


def test_win_cap_one_bet(benchmark, cache):
    from fourcards.poker.exact import win_cap
    from fourcards.poker.rules import get_rules

    counts = an.exact_counts(directory=cache)
    rules = get_rules("online")
    win_cap.win_cap_figures(rules, 1000, 1000, counts=counts)  # the entries by class, once per counts
    benchmark.pedantic(lambda: win_cap.win_cap_figures(rules, 1000, 1000, counts=counts), rounds=3, iterations=1)


def test_numpy_enumeration_one_up_rank(benchmark, cache):
    """Issue 23 item 6: the independent numpy enumeration (``numpy_counts.py``) of one up rank's counts,
    against which the kernels are measured (all 13 up ranks and the ratio: ``issue23.py``)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from numpy_counts import numpy_counts

    counts = an.exact_counts(directory=cache)
    player = counts.tables.orbit_cards()
    le, lt = benchmark.pedantic(lambda: numpy_counts(player, [5]), rounds=1, iterations=1)
    assert np.array_equal(le[0], counts.le[5]) and np.array_equal(lt[0], counts.lt[5])
