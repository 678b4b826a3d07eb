"""Monte Carlo throughput: Four Card Poker rounds per second (1 and 2 workers), FOAK deals per second.

Run: ``pytest benchmarks/bench_sim.py --benchmark-only`` (figures in docs/simulation.md).
Each benchmark stores ``rounds_per_second`` / ``deals_per_second`` in its extra
info and prints it. Start-up costs are excluded: the kernels are loaded, the
optimal strategy is resolved and the workers are warm before timing. Two workers
are two threads (the kernel releases the GIL); the Dask benchmark uses a 2-worker
LocalCluster, one thread per worker, loopback only.
Whole-process figures (first runs, 100 M hands): ``benchmarks/issue14.py``.

The 2-core benchmark machine is shared, so figures are noisy; the docs record
the spread seen.
"""

from __future__ import annotations

import time

import pytest

from fourcards.poker.rules import get_rules
from fourcards.sim.poker import load_sim_strategy, simulate_poker

ROUNDS_1 = 8_000_000
ROUNDS_2 = 16_000_000


@pytest.fixture(scope="module")
def optimal():
    strat = load_sim_strategy("optimal", get_rules("live"))
    simulate_poker(100_000, strategy=strat, seed=1)  # compile + build the decision tables
    return strat


@pytest.fixture(scope="module")
def client(optimal):
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                           host="127.0.0.1")
    cl = Client(cluster, set_as_default=False)
    simulate_poker(300_000, strategy=optimal, seed=1, client=cl, workers=2)  # warm both workers
    yield cl
    cl.close()
    cluster.close()


def _report(benchmark, rounds, unit="rounds_per_second"):
    rate = rounds / benchmark.stats.stats.median
    benchmark.extra_info[unit] = rate
    shown = f"{rate / 1e6:.2f} M" if rate >= 1e5 else f"{rate:.0f}"
    print(f"\n{benchmark.name}: {shown} {unit.replace('_', ' ')} (median)")


def test_fcp_optimal_1_worker(benchmark, optimal):
    res = benchmark.pedantic(simulate_poker, args=(ROUNDS_1,), kwargs=dict(strategy=optimal, seed=2),
                             rounds=3, iterations=1)
    assert res.hands == ROUNDS_1
    _report(benchmark, ROUNDS_1)
    # contention-free figure: rounds per CPU-second of this (single-threaded) process
    t0 = time.process_time()
    simulate_poker(ROUNDS_1, strategy=optimal, seed=3)
    cpu_rate = ROUNDS_1 / (time.process_time() - t0)
    benchmark.extra_info["rounds_per_cpu_second"] = cpu_rate
    print(f"{benchmark.name}: {cpu_rate / 1e6:.2f} M rounds per CPU-second")


def test_fcp_simple_1_worker(benchmark):
    strat = load_sim_strategy("simple", get_rules("live"))
    simulate_poker(100_000, strategy=strat, seed=1)
    benchmark.pedantic(simulate_poker, args=(ROUNDS_1,), kwargs=dict(strategy=strat, seed=2),
                       rounds=3, iterations=1)
    _report(benchmark, ROUNDS_1)


def test_fcp_optimal_2_workers_threads(benchmark, optimal):
    res = benchmark.pedantic(simulate_poker, args=(ROUNDS_2,), kwargs=dict(strategy=optimal, seed=2, workers=2),
                             rounds=3, iterations=1)
    assert res.hands == ROUNDS_2 and res.backend == "threads"
    _report(benchmark, ROUNDS_2)


def test_fcp_optimal_2_workers_dask(benchmark, optimal, client):
    res = benchmark.pedantic(simulate_poker, args=(ROUNDS_2,),
                             kwargs=dict(strategy=optimal, seed=2, client=client, workers=2),
                             rounds=3, iterations=1)
    assert res.hands == ROUNDS_2
    _report(benchmark, ROUNDS_2)


def test_fcp_optimal_sessions_1_worker(benchmark, optimal):
    benchmark.pedantic(simulate_poker, args=(ROUNDS_1,),
                       kwargs=dict(strategy=optimal, seed=2, session_hands=200, bankroll=100),
                       rounds=3, iterations=1)
    _report(benchmark, ROUNDS_1)


def test_kind_six_bots_1_worker(benchmark):
    from fourcards.sim.kind import simulate_kind

    deals = 300
    benchmark.pedantic(simulate_kind, args=(deals, 6, ["odds", "cautious", "random"]), kwargs=dict(seed=1),
                       rounds=2, iterations=1)
    _report(benchmark, deals, "deals_per_second")
