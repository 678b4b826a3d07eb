"""Database fixtures for the store tests: every test runs on SQLite and, when
``FOURCARDS_TEST_POSTGRES_URL`` is set, on PostgreSQL in a fresh schema."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from dbtesting import database_url_for


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:
    """A fresh, empty database URL (SQLite file, or a new PostgreSQL schema)."""
    yield from database_url_for(request.param, tmp_path)
