"""Four of a Kind bot tournaments: reproducibility, zero-sum results, argument errors."""

from __future__ import annotations

import pytest

from fourcards.sim.kind import parse_bot_specs, simulate_kind
from fourcards.sim.runner import SimulationError


def test_bot_specs():
    assert parse_bot_specs(["odds", "cautious"], 5) == ["odds", "cautious", "odds", "cautious", "odds"]
    assert parse_bot_specs(["odds:2", "random*2"], 4) == ["odds", "odds", "random", "random"]
    with pytest.raises(SimulationError, match="unknown bot"):
        parse_bot_specs(["genius"], 4)
    with pytest.raises(SimulationError, match="at most one bot per seat"):
        parse_bot_specs(["odds:5"], 4)


def test_zero_sum_and_reproducible(dask_client):
    kw = dict(bots=["random", "cautious"], seed=11)
    a = simulate_kind(70, 4, **kw)
    b = simulate_kind(70, 4, **kw)
    c = simulate_kind(70, 4, client=dask_client, workers=2, **kw)
    assert a.to_dict()["bots"] == b.to_dict()["bots"] == c.to_dict()["bots"]
    assert a.to_dict()["seats"] == c.to_dict()["seats"]
    assert a.deals == 70
    # chips are conserved: the seats' total results sum to zero
    total = sum(s.mean for s in a.by_seat)
    assert abs(total) < 1e-9
    d = a.to_dict()
    for bot in d["bots"]:
        lo, hi = bot["ci95"]
        assert lo <= bot["mean_per_deal"] <= hi


@pytest.mark.parametrize("kwargs,match", [
    (dict(deals=-1, players=4, bots=["odds"]), "--deals"),
    (dict(deals=5, players=3, bots=["odds"]), "--players"),
    (dict(deals=5, players=14, bots=["odds"]), "--players"),
    (dict(deals=5, players=4, bots=["shark"]), "unknown bot"),
    (dict(deals=5, players=4, bots=["odds"], rules="nope"), "preset"),
    (dict(deals=5, players=4, bots=["odds"], stack=1), "ante"),
])
def test_bad_arguments(kwargs, match):
    with pytest.raises(SimulationError, match=match):
        simulate_kind(**kwargs)
