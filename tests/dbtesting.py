"""Fresh test databases: a SQLite file, or a PostgreSQL schema of its own.

PostgreSQL runs when ``FOURCARDS_TEST_POSTGRES_URL`` is set (CI sets it); else
those tests skip with a reason, or fail when ``FOURCARDS_REQUIRE_POSTGRES=1``.
Each PostgreSQL database is a new schema (``search_path`` in the URL),
dropped afterwards, so tests never see each other's rows.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

PG_ENV = "FOURCARDS_TEST_POSTGRES_URL"


def postgres_base_url() -> str | None:
    url = os.environ.get(PG_ENV)
    if not url:
        if os.environ.get("FOURCARDS_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"FOURCARDS_REQUIRE_POSTGRES=1 but {PG_ENV} is not set")
        pytest.skip(f"PostgreSQL tests need {PG_ENV} (e.g. postgresql+psycopg://fourcards:fourcards@"
                    "127.0.0.1:5432/fourcards_test)")
    return url


def database_url_for(kind: str, tmp_path: Path) -> Iterator[str]:
    """Yield a fresh database URL of ``kind`` (``"sqlite"``/``"postgresql"``); clean up after."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'fourcards-test.db'}"
        return
    base = postgres_base_url()
    assert base is not None
    from sqlalchemy import create_engine, text

    schema = "fc_test_" + secrets.token_hex(6)
    admin = create_engine(base)
    try:
        with admin.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    except Exception as exc:  # pragma: no cover - server down
        admin.dispose()
        if os.environ.get("FOURCARDS_REQUIRE_POSTGRES") == "1":
            raise
        pytest.skip(f"PostgreSQL at {PG_ENV} is not reachable: {exc}")
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options={quote('-csearch_path=' + schema)}"
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()
