"""Shared test configuration.

* Hypothesis runs with a CI profile (derandomised, no deadline) under CI=true.
* ``FOURCARDS_CACHE_DIR`` defaults to a per-session temporary folder so tests
  never write into the user's cache; compiled numba kernels go to ``.cache/numba``
  in the checkout (``NUMBA_CACHE_DIR``), so they compile once, not once per session.
"""

from __future__ import annotations

import os
import tempfile

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, max_examples=100,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, max_examples=100, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
# CI (.ci/run) runs the same examples every time (derandomized: a landing does not depend on the
# draw); a developer's runs draw new ones. FOURCARDS_HYPOTHESIS_PROFILE names either.
settings.load_profile(os.environ.get("FOURCARDS_HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "default"))

os.environ.setdefault("FOURCARDS_CACHE_DIR", tempfile.mkdtemp(prefix="fourcards-cache-"))
# compiled kernels (the JIT fallback) persist between test sessions: .cache/ is git-ignored
os.environ.setdefault("NUMBA_CACHE_DIR", os.path.join(os.path.dirname(os.path.dirname(__file__)), ".cache", "numba"))


@pytest.fixture(scope="session")
def counts():
    """The exact Four Card Poker dealer counts, computed once per test session
    (cached in the session's ``FOURCARDS_CACHE_DIR``)."""
    from fourcards.poker.analysis import exact_counts

    return exact_counts()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test run against PostgreSQL (a ``"postgresql"`` fixture parameter) with
    ``postgres``, so ``-m "not postgres"`` leaves them out (.ci/run's second Python does)."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None and "postgresql" in callspec.params.values():
            item.add_marker(pytest.mark.postgres)
