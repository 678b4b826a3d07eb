"""Four of a Kind benchmarks: exact odds latency (8 and 13 players) and deals per second.

Run: ``pytest benchmarks/bench_kind.py --benchmark-only``. Budgets (docs/benchmarks.md
"Budgets"): exact odds <= 5 ms for 8 players and <= 1 s for 13 players, <= 200 MB.
Odds are timed uncached (``cache=False``): every call solves from scratch.
"""

from __future__ import annotations

import random
import tracemalloc

from fourcards.kind import KindRules, exact_odds, parse_holdings
from fourcards.kind.bots import make_bot, play_deal


def _median(benchmark) -> float:
    """Median seconds, or 0 when benchmarks are disabled (``--benchmark-disable``)."""
    return benchmark.stats.stats.median if benchmark.stats else 0.0


def _mean(benchmark) -> float:
    return benchmark.stats.stats.mean if benchmark.stats else float("nan")


TYPICAL_8 = parse_holdings("7 QQ 3 999 K 55 A 8".split())
TYPICAL_13 = parse_holdings("2 33 444 5 66 777 8 9 TT J Q K A".split())
ALL_SINGLE_13 = parse_holdings("2 3 4 5 6 7 8 9 T J Q K A".split())


def test_bench_odds_8_players(benchmark):
    result = benchmark(exact_odds, TYPICAL_8, cache=False)
    assert sum(o.p_high for o in result) == 1
    assert _median(benchmark) < 0.005  # budget (docs/benchmarks.md): 5 ms (median: the machine is shared)


def test_bench_odds_13_players_mixed(benchmark):
    result = benchmark(exact_odds, TYPICAL_13, cache=False)
    assert sum(o.p_low for o in result) == 1
    assert _median(benchmark) < 1.0


def test_bench_odds_13_players_all_single_cards(benchmark):
    """The largest position: 39 missing cards, every rank in play."""
    result = benchmark(exact_odds, ALL_SINGLE_13, cache=False)
    assert sum(o.p_high for o in result) == 1
    assert _median(benchmark) < 1.0


def test_bench_odds_13_players_peak_memory(benchmark):
    def measure():
        tracemalloc.start()
        exact_odds(ALL_SINGLE_13, cache=False)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return peak

    peak = benchmark.pedantic(measure, rounds=3, iterations=1)
    benchmark.extra_info["peak_bytes"] = peak
    assert peak < 200 * 2**20


def _deals(kinds: list[str], n_deals: int, seed: int) -> int:
    rng = random.Random(seed)
    bots = [make_bot(k) for k in kinds]
    rules = KindRules()
    for i in range(n_deals):
        play_deal(rules, bots, [200] * len(bots), rng, button=i % len(bots))
    return n_deals


DEALS = 20


def test_bench_deals_random_bots_8_players(benchmark):
    benchmark.extra_info["deals_per_round"] = DEALS
    benchmark(_deals, ["random"] * 8, DEALS, 1)
    benchmark.extra_info["deals_per_second"] = DEALS / _mean(benchmark)


def test_bench_deals_odds_bots_8_players(benchmark):
    benchmark.extra_info["deals_per_round"] = DEALS
    benchmark(_deals, ["odds"] * 8, DEALS, 2)
    benchmark.extra_info["deals_per_second"] = DEALS / _mean(benchmark)


def test_bench_deals_mixed_bots_6_players(benchmark):
    benchmark.extra_info["deals_per_round"] = DEALS
    benchmark(_deals, ["odds", "cautious", "random"] * 2, DEALS, 3)
    benchmark.extra_info["deals_per_second"] = DEALS / _mean(benchmark)
