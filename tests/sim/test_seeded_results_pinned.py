"""Issue 14: speed work must not change results. A seeded run's exact integer counts are pinned.

The figures were recorded with the kernels before the issue-14 rewrite; any change of the
deal order, the random stream, the hand values or the decisions would change them.
"""

from __future__ import annotations

import numpy as np
import pytest

from fourcards.sim.poker import simulate_poker

# (arguments, counts (4, 2, 9) flattened, net chips, sessions ruined, session quantiles)
PINNED = [
    (dict(hands=300_000, strategy="optimal", seed=1),
     [131801, 9929, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 731, 41111, 0, 0, 0, 0, 0, 0, 0, 253,
      24125, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15688, 3440, 4431,
      2333, 1424, 200, 1, 0, 0, 20815, 5857, 9945, 9418, 11672, 6531, 226, 69], -8867, None, None),
    (dict(hands=200_001, strategy="simple", seed=2, rules="online", ante=5, aces_up=2),
     [88545, 6222, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 27126, 0, 0, 0, 0, 0, 0, 0, 0, 16151,
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11151, 2306, 2878, 1548,
      992, 134, 0, 0, 0, 13728, 3902, 6671, 6241, 7910, 4305, 133, 58], -54459, None, None),
    (dict(hands=150_000, strategy="chart", seed=3),
     [66284, 4474, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 20881, 0, 0, 0, 0, 0, 0, 0, 0, 12088,
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8128, 1703, 2112, 1186,
      692, 97, 0, 0, 0, 10316, 2994, 4935, 4803, 5857, 3291, 124, 35], -4465, None, None),
    (dict(hands=200_000, strategy="optimal", seed=4, session_hands=200, bankroll=50),
     [87794, 6578, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 521, 27023, 0, 0, 0, 0, 0, 0, 0, 176,
      16315, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10706, 2334, 2849,
      1547, 954, 109, 1, 0, 0, 13533, 4047, 6631, 6349, 8045, 4264, 169, 55], -4585, 245,
     {"p01": -50, "p05": -48, "p10": -47, "p25": -42, "p50": -6, "p75": 20, "p90": 45, "p95": 57, "p99": 87}),
]


@pytest.mark.parametrize("kwargs, counts, net, ruined, quantiles", PINNED,
                         ids=[f"{p[0]['strategy']}-seed{p[0]['seed']}" for p in PINNED])
def test_issue14_seeded_simulation_counts_unchanged(kwargs, counts, net, ruined, quantiles):
    res = simulate_poker(**kwargs)
    assert res.counts.ravel().tolist() == counts
    assert res.net_chips == net
    if ruined is not None:
        assert res.sessions is not None
        assert res.sessions.ruined == ruined
        assert res.sessions.quantiles == quantiles


def test_issue14_seeded_simulation_unchanged_with_two_workers():
    kwargs, counts, net, _, _ = PINNED[0]
    res = simulate_poker(**kwargs, workers=2)
    assert np.array_equal(res.counts.ravel(), counts) and res.net_chips == net
