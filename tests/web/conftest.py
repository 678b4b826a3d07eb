"""Fixtures of the web tests: a fresh database (SQLite, and PostgreSQL when
configured) and a started app with a TestClient (bots move at once)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import servers
from browsing import base_url, browser  # noqa: F401 - the browser tests' fixtures (one app, one Chromium per module)
from fastapi.testclient import TestClient

from dbtesting import database_url_for
from fourcards.web import create_app

#: How much of each server's log a failed test's report shows (its end).
LOG_TAIL_CHARS = 6000


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[pytest.TestReport]:
    """A failed test that started ``fourcards serve`` processes (tests/web/servers.py) reports the end
    of each one's log: a worker that failed to start, or a traceback, is read in CI's output."""
    report = yield
    if report.failed:
        for s in servers.STARTED:
            try:
                text = s.log.read_text(errors="replace")[-LOG_TAIL_CHARS:]
            except OSError as exc:
                text = f"(not readable: {exc})"
            report.sections.append((f"fourcards serve log {s.log.name} (its end)", text))
    if report.when == "teardown":
        servers.STARTED.clear()
    return report


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:
    """A fresh, empty database URL (SQLite file, or a new PostgreSQL schema)."""
    yield from database_url_for(request.param, tmp_path)


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'fourcards-web.db'}"


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    """A started app (lifespan run) on a fresh database; bots act with no delay; no rate limits (a
    test makes many tables from one address: the limits are tested apart, test_issue26_web.py)."""
    app = create_app(database_url, bot_delay=0, rate_limits="off")
    with TestClient(app) as c:
        c.database_url = database_url  # type: ignore[attr-defined]
        yield c
