"""Leases: work that one server at a time does for every server sharing the database (issue 27).

A lease is a row of ``server_leases``: its ``name`` (``"retention"``), the ``holder`` (a server's
random name) and ``until`` (Unix seconds). :func:`claim` takes it when it is free - never taken, or
run out - or already held by the same holder, in one conditional write: of servers claiming at
once exactly one gets it (the others' update matches no row, or their insert meets the key). A
server that dies holding a lease lets it run out.
"""

from __future__ import annotations

import time

from sqlalchemy import insert, or_, update
from sqlalchemy.exc import IntegrityError

from fourcards.store.db import Store
from fourcards.store.models import ServerLease

__all__ = ["claim", "release"]


def claim(store: Store, name: str, holder: str, seconds: float, now: float | None = None) -> bool:
    """Take the lease ``name`` for ``holder`` until ``now + seconds``; whether it was taken (``False``:
    another holder has it until later)."""
    now = time.time() if now is None else now
    with store.Session.begin() as s:
        res = s.execute(update(ServerLease).where(ServerLease.name == name,
                                                  or_(ServerLease.until < now, ServerLease.holder == holder))
                        .values(holder=holder, until=now + seconds))
        if res.rowcount:  # type: ignore[attr-defined]
            return True
    try:
        with store.Session.begin() as s:
            s.execute(insert(ServerLease).values(name=name, holder=holder, until=now + seconds))
        return True
    except IntegrityError:  # it exists: another holder has it
        return False


def release(store: Store, name: str, holder: str) -> None:
    """Give the lease back now if ``holder`` has it (the next claim need not wait for it to run out)."""
    with store.Session.begin() as s:
        s.execute(update(ServerLease).where(ServerLease.name == name, ServerLease.holder == holder)
                  .values(until=0.0))
