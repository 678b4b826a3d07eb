"""The automatic retention of ``fourcards serve --retention 90d`` (off by default): every
:data:`EVERY_S` a server prunes the closed tables last written longer ago than that
(:func:`fourcards.store.retention.prune`, recorded in the audit log as ``prune`` by ``retention``).

One server at a time, for every server sharing the database: a run first claims the lease
``retention`` (:func:`fourcards.store.leases.claim`) for :data:`EVERY_S`; the other servers' runs
in that time find it held and skip. A server that dies holding it lets it run out. A run prunes
:data:`BATCH` tables at a time (each table in a transaction of its own: servers keep writing) until
none is left, in a thread of its own - never in the table writes' threads. Each run is counted in
``/metrics`` (``fourcards_retention_runs_total`` by result, the tables and deals pruned).
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

from fourcards.store import Store
from fourcards.store.leases import claim, release
from fourcards.store.retention import prune
from fourcards.web import metrics

__all__ = ["Retention", "EVERY_S", "FIRST_AFTER_S", "BATCH", "LEASE"]

log = logging.getLogger(__name__)

#: Seconds between runs (one server's run per this time, for all).
EVERY_S = 3600.0
#: Seconds after a server starts before its first run (plus up to as much again, at random: servers
#: started together do not all ask at once).
FIRST_AFTER_S = 60.0
#: Tables pruned per call of ``prune``.
BATCH = 100
#: The lease's name.
LEASE = "retention"


class Retention:
    """The retention loop of one server (see the module doc).

    Args:
        hub: the server's hub (its store and its name, ``hub.origin``).
        older_than_s: prune closed tables last written longer ago than this (seconds, at least a day).
        every_s: seconds between runs; first_after_s: before the first run.
    """

    def __init__(self, hub: Any, older_than_s: float, *, every_s: float = EVERY_S,
                 first_after_s: float = FIRST_AFTER_S) -> None:
        self.hub = hub
        self.older_than_s = older_than_s
        self.every_s = every_s
        self.first_after_s = first_after_s

    async def loop(self) -> None:
        """Run :meth:`once` now and then, forever (the hub cancels it when the server stops)."""
        await asyncio.sleep(self.first_after_s * (1 + random.random()))
        while True:
            try:
                await asyncio.to_thread(self.once)
            except Exception:
                metrics.retention_run("failed")
                log.exception("the automatic retention failed; it tries again in %g s", self.every_s)
            await asyncio.sleep(self.every_s)

    def once(self) -> str:
        """(Thread) One run: claim the lease, prune in batches; returns the result counted
        (``pruned``, ``nothing`` or ``skipped``)."""
        store = self.hub.require_store()
        if not isinstance(store, Store):  # tables kept in memory: nothing stays to be pruned
            return "nothing"
        if not claim(store, LEASE, self.hub.origin, self.every_s):
            metrics.retention_run("skipped")
            return "skipped"
        tables = deals = 0
        try:
            while True:
                report = prune(store, self.older_than_s, by="retention", limit=BATCH)
                tables, deals = tables + report.tables, deals + report.deals
                if report.tables < BATCH:
                    break
        except Exception:
            release(store, LEASE, self.hub.origin)  # another server may try at its next run
            raise
        result = "pruned" if tables else "nothing"
        metrics.retention_run(result, tables, deals)
        if tables:
            log.info("retention pruned %d closed tables (%d deals' histories)", tables, deals)
        return result
