"""Fixtures for the simulation tests: one 2-worker Dask LocalCluster per session."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def dask_client():
    """A ``distributed.Client`` on a LocalCluster of 2 worker processes (loopback only)."""
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                           host="127.0.0.1")
    client = Client(cluster, set_as_default=False)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


@pytest.fixture(scope="session")
def live_rules():
    from fourcards.poker.rules import get_rules

    return get_rules("live")


@pytest.fixture(scope="session")
def optimal(live_rules):
    from fourcards.sim.poker import load_sim_strategy

    return load_sim_strategy("optimal", live_rules)
