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


def test_issue14_auto_keeps_a_short_pure_python_job_serial_and_times_first():
    from fourcards.sim import runner

    calls = []

    def task(shared, i):
        calls.append(i)
        return shared + i

    used: list[str] = []
    assert runner.run_tasks(task, 10, [(1,), (2,), (3,)], workers=2, used=used) == [11, 12, 13]
    assert used == ["serial"] and calls == [1, 2, 3]  # far below the cost of starting processes


def test_issue14_auto_starts_processes_for_the_rest_of_a_long_job(monkeypatch):
    from fourcards.kind.rules import get_rules
    from fourcards.sim import kind, runner

    monkeypatch.setattr(runner, "PROCESS_START_S", 0.0)  # as if starting processes were free
    job = kind._Job(13, get_rules("family"), ("random",) * 4, 200, 96)
    tasks = [(0, 1), (1, 2), (2, 3)]
    used: list[str] = []
    par = runner.run_tasks(kind._kind_task, job, tasks, workers=2, used=used)
    assert used == ["processes"]
    ser = runner.run_tasks(kind._kind_task, job, tasks, backend="serial")
    assert [p.seat_sum for p in par] == [p.seat_sum for p in ser]


def test_issue14_workers_give_the_same_deals():
    kw = dict(bots=["random", "cautious"], seed=12)
    assert simulate_kind(70, 4, **kw).to_dict()["bots"] == simulate_kind(70, 4, workers=2, **kw).to_dict()["bots"]


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
