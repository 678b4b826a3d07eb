"""Fixtures of the table tests: ``client`` - the web's table routes on a server's execution path
over an in-memory store, without HTTP or a database (tests/table/localclient.py); bots move at once."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from localclient import LocalClient


@pytest.fixture
def client() -> Iterator[LocalClient]:
    """A started hub on a fresh :class:`~fourcards.store.memory.MemoryStore`, asked as the web's
    routes are (no rate limits: there is no HTTP to limit)."""
    c = LocalClient()
    try:
        yield c
    finally:
        c.close()
