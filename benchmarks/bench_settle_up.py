"""Issue 21 benchmarks: who pays whom and a club's standings, the pure functions behind
``GET /api/tables/{id}/settle-up`` and ``GET /api/clubs/{id}/standings``.

Run: ``pytest benchmarks/bench_settle_up.py --benchmark-only``. What a client can choose (how
many people come and go, how many nights a club plays) must not make a request cost without
bound: the exact split of the transfers is bounded by its 14-party limit (beyond it, greedy:
n log n), and a club keeps at most 500 nights.

* ``fewest_transfers`` at 14 parties with no zero-sum subset but the whole (the exact dynamic
  programme's worst case: every one of the 2^14 subsets visited) and at 60 parties (greedy);
* ``standings`` of a club at its 500 nights of 6 people, 2 bots and 30 deals each.
"""

from __future__ import annotations

import random

from fourcards.table.standings import standings
from fourcards.table.transfers import EXACT_LIMIT, fewest_transfers


def _median(benchmark) -> float:
    """Median seconds, or 0 when benchmarks are disabled (``--benchmark-disable``)."""
    return benchmark.stats.stats.median if benchmark.stats else 0.0


def _nets(n: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    values = [rng.randint(-10**9, 10**9) for _ in range(n - 1)]  # large random nets: no zero-sum subset
    return [*values, -sum(values)]


def test_bench_fewest_transfers_exact_at_the_limit(benchmark):
    nets = _nets(EXACT_LIMIT, 1)
    transfers, minimum = benchmark(fewest_transfers, nets)
    assert minimum and len(transfers) == EXACT_LIMIT - 1
    assert _median(benchmark) < 0.5  # a GET's worth, on the shared 2-core machine


def test_bench_fewest_transfers_greedy_beyond(benchmark):
    nets = _nets(60, 2)
    transfers, minimum = benchmark(fewest_transfers, nets)
    assert not minimum and len(transfers) <= 59
    assert _median(benchmark) < 0.05


def _club(nights: int, deals: int) -> list[dict]:
    rng = random.Random(3)
    out = []
    for n in range(nights):
        people = [{"player_id": 10 * n + i, "name": f"P{i}", "is_bot": i >= 6} for i in range(8)]
        nets = {p["player_id"]: rng.randint(-500, 500) for p in people[:-1]}
        nets[people[-1]["player_id"]] = -sum(nets.values())
        seats = {str(i): p["player_id"] for i, p in enumerate(people)}
        out.append({"table": {"id": f"t{n}", "name": f"night {n}", "game": "kind", "status": "closed",
                              "created_at": None}, "people": people, "nets": nets, "house": 0,
                    "deals": [{"status": "settled", "seats": seats, "result": {"awards": [
                        {"seat": rng.randrange(8), "share": "high"}, {"seat": rng.randrange(8), "share": "low"}]}}
                        for _ in range(deals)]})
    return out


def test_bench_standings_of_a_full_club(benchmark):
    nights = _club(500, 30)
    got = benchmark(standings, nights, ["P0", "P1"])
    assert len(got["standings"]) == 6 and len(got["nights"]) == 500
    assert _median(benchmark) < 2.0
