"""Due work and liveness: what a table needs without a request, done by one server at a time.

* **due work** (a bot to move, a turn clock run out, a seat that sits out to act): each
  table's ``due_at`` is claimed by one server at a time
  (:meth:`fourcards.store.base.TableStore.claim_due`) and done by it; a server that dies
  holding a claim lets it come due again after :data:`CLAIM_LEASE_S`;
* **liveness** (docs/rules.md TP-6): every server notes each second that it is alive; a
  server that starts and finds no server was alive for more than :data:`DOWNTIME_GAP_S`
  gives every running turn its time back (:class:`~fourcards.table.TakeUp`) before it does
  any due work.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from fourcards.store import TableStore
from fourcards.table import TableError, TakeUp, Timeout
from fourcards.table.clock import due, due_at
from fourcards.web.execution import Execution

__all__ = ["DueWork", "CLAIM_LEASE_S", "DUE_SLEEP_S", "BEAT_S", "DOWNTIME_GAP_S"]

log = logging.getLogger(__name__)

#: Seconds a server holds a claimed table's due work before another may take it.
CLAIM_LEASE_S = 10.0
#: Longest sleep of the due-work loop (it wakes earlier for a due time set here or heard of).
DUE_SLEEP_S = 1.0
#: Seconds between a server's notes that it is alive.
BEAT_S = 1.0
#: A gap in the liveness notes longer than this is downtime (no server was alive).
DOWNTIME_GAP_S = 3.0


class DueWork:
    """This server's due work and liveness notes (see the module doc).

    Args:
        execution: runs the due commands (and the bots that follow).
        store / run_db / spawn: the started store, a database thread, the background.
    """

    def __init__(self, execution: Execution, store: Callable[[], TableStore],
                 run_db: Callable[..., Coroutine[Any, Any, Any]],
                 spawn: Callable[[Coroutine[Any, Any, Any]], Any]) -> None:
        self.execution = execution
        self.repo = execution.repo
        self.bot_delay = execution.bot_delay
        self.store = store
        self.run_db = run_db
        self.spawn = spawn
        self._wake = asyncio.Event()
        self._sleep_until = 0.0  # when the due-work loop looks again by itself (Unix seconds)

    def start(self) -> None:
        """Start the due-work loop and the liveness notes."""
        self.spawn(self._due_loop())
        self.spawn(self._beat_loop())

    def wake(self) -> None:
        """A due time was set or heard of: let the due-work loop look again now."""
        self._wake.set()

    def due_set(self, at: float | None) -> None:
        """A change here, or one heard of from another server, set a table's due time ``at``
        (``None``: nothing due): wake the loop if it is due before the loop looks again by
        itself (:data:`~fourcards.store.DUE_UNTOLD`, a notification that does not say: at once).
        A heard change far from its due time wakes nobody: with two servers, every action of
        the other's used to cost this one a look at the database."""
        if at is not None and at < self._sleep_until:
            self.wake()

    # ------------------------------------------------------------ liveness

    async def take_up(self) -> None:
        """At start-up: if no server was alive for a while, give every running turn at every
        table its time back (docs/rules.md TP-6), before any due work is done."""
        store = self.store()
        now = time.time()
        before = await self.run_db(store.beat, now)
        if before is None or now - before <= DOWNTIME_GAP_S:
            return
        for tid in await self.run_db(store.tables_with_due_work):
            try:
                await self.execution.execute(tid, lambda s: TakeUp(before, now), bots=False)
            except TableError as exc:
                log.warning("table %s not taken up after downtime: %s", tid, exc.detail)

    async def _beat_loop(self) -> None:
        """Note every :data:`BEAT_S` that this server is alive."""
        while True:
            await asyncio.sleep(BEAT_S)
            try:
                await self.run_db(self.store().beat, time.time())
            except Exception as exc:
                log.warning("noting that this server is alive failed: %s", exc)

    # ------------------------------------------------------------ due work

    async def _due_loop(self) -> None:
        """Claim the tables whose due time has come and do their due work; sleep until the
        next due time (at most :data:`DUE_SLEEP_S`), or until woken."""
        store = self.store()
        while True:
            self._wake.clear()  # before the read: a due time set from here on wakes the next sleep
            self._sleep_until = float("inf")  # looking now: every new due time counts
            try:
                at = await self.run_db(store.next_due)  # a read: writes only when something is due
                if at is not None and at <= time.time():
                    for tid in await self.run_db(store.claim_due, time.time(), CLAIM_LEASE_S):
                        self.spawn(self.run_due(tid))
                    at = await self.run_db(store.next_due)
            except Exception as exc:
                log.warning("looking for due work failed: %s", exc)
                at = None
            pause = DUE_SLEEP_S if at is None else min(DUE_SLEEP_S, max(0.02, at - time.time()))
            self._sleep_until = time.time() + pause
            try:
                await asyncio.wait_for(self._wake.wait(), pause)
            except TimeoutError:
                pass

    async def run_due(self, table_id: str) -> None:
        """Do the due work of a table this server claimed: a bot's move, a person's time-out,
        the move of a seat that sits out; then the bots that follow. Nothing due (another
        server did it): only the due time is written again."""
        try:
            state = await self.repo.latest(table_id)
            work = due(state, time.time(), self.bot_delay)
            done = False
            if work is not None and work[0] == "bot":
                done = await self.execution.bot_step(table_id)
            elif work is not None:
                try:
                    await self.execution.execute(table_id, lambda s: Timeout(work[1]))
                    done = True
                except TableError as exc:
                    log.info("due work at table %s not done: %s", table_id, exc.detail)
            if done:
                await self.execution.drive_bots(table_id)
            else:
                state = await self.repo.get(table_id)
                await self.run_db(self.store().set_due, table_id, state.version, due_at(state, self.bot_delay))
        except Exception:
            log.exception("due work at table %s failed", table_id)
