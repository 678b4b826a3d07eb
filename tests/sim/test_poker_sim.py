"""Four Card Poker Monte Carlo: agreement with the exact analysis, reproducibility, sessions."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import numpy as np
import pytest

from fourcards.poker import analysis as an
from fourcards.sim.poker import (
    CHUNK_ROUNDS,
    _Job,
    _merge,
    _poker_task,
    net_table,
    session_paths,
    simulate_poker,
)
from fourcards.sim.runner import SimulationError, group_tasks, plan_chunks
from fourcards.sim.stats import quantiles_from_histogram, summarize_counts

# Published: optimal house edge about 2.78% of the ante (wizardofodds.com; docs/analysis.md); the
# product's exact value comes from fourcards.poker.analysis.


@pytest.mark.parametrize("strategy", ["optimal", "simple"])
def test_simulated_edge_within_ci_of_exact(strategy, live_rules):
    res = simulate_poker(1_000_000, rules=live_rules, strategy=strategy, seed=20240601)
    exact = float(an.analyze(live_rules, strategy).house_edge)
    lo, hi = res.ci95
    assert lo <= -exact <= hi, (res.mean_net_per_ante, exact, res.ci95)
    assert res.hands == 1_000_000
    assert 2.6 < res.std_per_round < 2.8


def test_online_rules_play_only_1x_or_3x():
    res = simulate_poker(200_000, rules="online", strategy="optimal", seed=3)
    f = res.frequencies()["decisions"]
    assert f["play_2x"] == 0.0 and f["play_1x"] > 0 and f["play_3x"] > 0
    exact = float(an.analyze("online", "optimal").house_edge)
    assert res.summary.contains(-exact)


def test_aces_up_return_agrees_with_exact(live_rules):
    res = simulate_poker(1_000_000, rules=live_rules, strategy="optimal", seed=9, aces_up=1)
    ret = res.frequencies()["aces_up"]["return_per_bet"]
    exact = -float(an.aces_up(live_rules.aces_up).house_edge)
    assert abs(ret - exact) < 0.02  # sd of one Aces Up bet ~ 3.5 units: 1e6 bets -> se ~ 0.0035


def test_json_keys_and_exact_sums(live_rules):
    res = simulate_poker(100_000, rules=live_rules, strategy="simple", seed=1)
    d = res.to_dict()
    for key in ("hands", "mean_net_per_ante", "ci95", "std_per_round"):
        assert key in d
    assert len(d["ci95"]) == 2 and d["ci95"][0] < d["mean_net_per_ante"] < d["ci95"][1]
    assert d["net_chips"] == int((res.counts * res.nets).sum())
    assert int(res.counts.sum()) == 100_000
    assert abs(sum(d["frequencies"]["decisions"].values()) - 1) < 1e-12


def test_same_seed_same_result_for_any_split(live_rules, optimal):
    n = 3 * CHUNK_ROUNDS + 1234
    job = _Job(77, optimal, net_table(live_rules), CHUNK_ROUNDS, n, 0, 0, 0)
    n_chunks = len(plan_chunks(n, CHUNK_ROUNDS))
    whole = _merge([_poker_task(job, 0, n_chunks)])
    for workers in (1, 2, 3):
        parts = [_poker_task(job, lo, hi) for lo, hi in group_tasks(n_chunks, workers, max_chunks_per_task=1)]
        assert np.array_equal(_merge(parts).counts, whole.counts)


def _key(res):
    d = res.to_dict()
    for k in ("seconds", "rounds_per_second", "workers", "backend"):
        d.pop(k)
    return d


def test_same_seed_same_result_serial_processes_dask(live_rules, optimal, dask_client):
    kw = dict(rules=live_rules, strategy=optimal, seed=4242, session_hands=100, bankroll=60)
    n = 2 * CHUNK_ROUNDS + 500 * 100
    serial = simulate_poker(n, **kw)
    procs = simulate_poker(n, workers=2, backend="processes", **kw)
    dask = simulate_poker(n, client=dask_client, workers=2, **kw)
    assert _key(serial) == _key(procs) == _key(dask)
    assert np.array_equal(serial.counts, dask.counts)
    assert np.array_equal(serial.sessions.values, dask.sessions.values)
    assert np.array_equal(serial.sessions.counts, procs.sessions.counts)
    assert dask.backend == "dask"


def test_issue14_threads_give_the_same_result_and_auto_picks_them(live_rules, optimal):
    kw = dict(rules=live_rules, strategy=optimal, seed=4243, session_hands=100, bankroll=60)
    n = 5 * CHUNK_ROUNDS + 300 * 100
    serial = simulate_poker(n, **kw)
    threads = simulate_poker(n, workers=2, **kw)
    assert serial.backend == "serial" and threads.backend == "threads"
    assert _key(serial) == _key(threads)
    assert np.array_equal(serial.sessions.counts, threads.sessions.counts)


def test_issue14_auto_runs_a_one_chunk_job_serially_whatever_the_workers(live_rules, optimal):
    res = simulate_poker(1000, rules=live_rules, strategy=optimal, seed=1, workers=4)
    assert res.backend == "serial" and res.workers == 4


def test_sessions_and_risk_of_ruin(live_rules, optimal):
    res = simulate_poker(200_000, rules=live_rules, strategy=optimal, seed=5, session_hands=200, bankroll=50)
    s = res.sessions
    assert s.sessions == 1000 and int(s.counts.sum()) == 1000
    assert 0 < s.ruined < 1000
    # a ruined session ends below one round's stake: result < stake_max - bankroll
    assert s.values.min() >= -s.bankroll
    ruined_results = int(s.counts[s.values < s.stake_max - s.bankroll].sum())
    assert ruined_results == s.ruined
    q = s.quantiles
    assert list(q.values()) == sorted(q.values())
    # a bigger bankroll is safer (same deals: common random numbers)
    safer = simulate_poker(200_000, rules=live_rules, strategy=optimal, seed=5, session_hands=200,
                           bankroll=500)
    assert safer.sessions.ruined < s.ruined
    paths = session_paths(res, optimal, 10)
    assert paths.shape == (10, 201) and (paths[:, 0] == 50).all()
    finals = paths[:, -1] - 50
    # the paths are the run's first sessions: every final result occurs in the histogram
    assert set(finals.tolist()) <= set(s.values.tolist())


def test_strategy_comparison_uses_common_random_numbers(live_rules):
    a = simulate_poker(50_000, rules=live_rules, strategy="optimal", seed=8)
    b = simulate_poker(50_000, rules=live_rules, strategy="simple", seed=8)
    # same deals: the player's hand classes are counted identically
    assert np.array_equal(a.counts.sum(axis=(0, 1)), b.counts.sum(axis=(0, 1)))


@pytest.mark.parametrize("kwargs,match", [
    (dict(hands=-5), "--hands"),
    (dict(hands=0), "--hands"),
    (dict(hands=10, seed=-1), "--seed"),
    (dict(hands=10, strategy="nonsense"), "unknown strategy"),
    (dict(hands=10, session_hands=5), "give both"),
    (dict(hands=10, session_hands=20, bankroll=100), "less than one session"),
    (dict(hands=100, session_hands=20, bankroll=3), "cannot cover"),
    (dict(hands=10, ante=0), "--ante"),
    (dict(hands=10, workers=0), "--workers"),
])
def test_bad_arguments(kwargs, match):
    with pytest.raises(SimulationError, match=match):
        simulate_poker(**kwargs)


def test_unreachable_scheduler_fails_fast():
    import time

    t0 = time.perf_counter()
    with pytest.raises(SimulationError, match="cannot reach"):
        simulate_poker(10, strategy="simple", scheduler="tcp://127.0.0.1:9")
    assert time.perf_counter() - t0 < 15


def test_stats_helpers():
    s = summarize_counts(np.array([1, 1, 2]), np.array([-1, 3, 0]))
    assert s.n == 4 and s.mean == pytest.approx(0.5)
    assert s.std == pytest.approx(np.std([-1, 3, 0, 0], ddof=1))
    assert quantiles_from_histogram(np.array([-2, 0, 5]), np.array([1, 2, 1]), [0.25, 0.5, 0.75, 1.0]) == \
        [-2, 0, 0, 5]


def test_result_is_a_frozen_record(live_rules):
    res = simulate_poker(1000, rules=live_rules, strategy="simple", seed=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.hands = 5  # type: ignore[misc]


def _fourth_central_moment(values: list[tuple[Fraction, int]], mean: Fraction) -> Fraction:
    return sum((p * (x - mean) ** 4 for p, x in values), Fraction(0))


def test_simulated_standard_deviation_agrees_with_exact_par_sheet(live_rules):
    # issue 9 item 4: the par sheet's exact standard deviation, checked against the
    # simulator's sample SD; tolerance 4 standard errors of the sample variance,
    # sqrt((mu4 - sigma^4) / n), with mu4 exact from the same outcome rows
    n = 1_000_000
    res = simulate_poker(n, rules=live_rules, strategy="optimal", seed=20240607, aces_up=1)
    figs = an.analyze(live_rules, "optimal")
    rows = [(r.probability, r.net) for r in figs.outcomes]
    mu4 = _fourth_central_moment(rows, figs.expected_value)
    game = res.counts.copy()  # the ante/play game alone: nets without the Aces Up bet
    nets = net_table(live_rules)
    total = int((game * nets).sum())
    total_sq = int((game * nets * nets).sum())
    sample_var = (total_sq - total * total / n) / (n - 1)
    se = math.sqrt(float(mu4 - figs.variance ** 2) / n)
    assert abs(sample_var - float(figs.variance)) < 4 * se, (sample_var, float(figs.variance), se)
    # the Aces Up bet per unit, from the same rounds' hit counts
    au = an.aces_up(live_rules.aces_up)
    by_class = res.counts.sum(axis=(0, 1))
    pays = [-1, -1, *(live_rules.aces_up.as_dict()[k] for k in ("pair_of_aces", "two_pair", "straight", "flush",
                                                                "three_of_a_kind", "straight_flush",
                                                                "four_of_a_kind"))]
    s1 = sum(int(c) * p for c, p in zip(by_class, pays, strict=True))
    s2 = sum(int(c) * p * p for c, p in zip(by_class, pays, strict=True))
    au_var = (s2 - s1 * s1 / n) / (n - 1)
    au_rows = [(Fraction(c, an.N_HANDS5), p) for _, _, p, c in au.hands]
    au_mu4 = _fourth_central_moment(au_rows, au.return_ - 1)
    au_se = math.sqrt(float(au_mu4 - au.variance ** 2) / n)
    assert abs(au_var - float(au.variance)) < 4 * au_se, (au_var, float(au.variance), au_se)
