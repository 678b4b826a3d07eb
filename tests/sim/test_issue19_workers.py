"""Issue 19 item 7: ``--workers`` defaults to the CPUs this process may use (DESIGN: Monte Carlo on
all cores); ``--workers 1`` stays; the same seed gives the same result at any number of workers."""

from __future__ import annotations

import json
import os

import pytest
from typer.testing import CliRunner

from fourcards.cli import app
from fourcards.sim import runner as sim_runner

TIMING = ("seconds", "rounds_per_second", "deals_per_second", "workers", "backend")


def _json(*args: str) -> dict:
    r = CliRunner().invoke(app, list(args))
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _pop_timing(d: dict) -> dict:
    return {k: v for k, v in d.items() if k not in TIMING}


def test_issue19_usable_cpus_is_the_affinity_mask_else_the_cpu_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 2, 5}, raising=False)
    assert sim_runner.usable_cpus() == 3
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 6)
    assert sim_runner.usable_cpus() == 6
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert sim_runner.usable_cpus() == 1


@pytest.mark.parametrize("game", ["poker", "kind"])
def test_issue19_workers_default_to_the_cpus_this_process_may_use(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    args = (["poker", "simulate", "--hands", "150000", "--strategy", "simple"] if game == "poker"
            else ["kind", "simulate", "--deals", "60", "--players", "4", "--bots", "odds", "random"])
    default = _json(*args, "--seed", "7", "--json")
    assert default["workers"] == 3
    one = _json(*args, "--seed", "7", "--workers", "1", "--json")
    assert one["workers"] == 1
    assert _pop_timing(default) == _pop_timing(one)  # the same seed, the same result


def test_issue19_scheduler_alone_needs_no_workers_and_not_both() -> None:
    r = CliRunner().invoke(app, ["poker", "simulate", "--hands", "10", "--workers", "2",
                                 "--scheduler", "tcp://127.0.0.1:9"])
    assert r.exit_code != 0 and "not both" in r.output
