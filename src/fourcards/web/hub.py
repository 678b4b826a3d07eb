"""The web app's state: the store, this server's copies of tables and its connections, and the
background work of a server that shares its database with others - put together.

:class:`Hub` is created by :func:`fourcards.web.app.create_app` and started in the app's
lifespan. Any number of servers may share one database (``fourcards serve --workers N``, or
several machines behind a load balancer: docs/deploy.md); none holds a table. Each concern has
its module; the hub starts and stops them and is what the routes hold:

* **commands** - :class:`~fourcards.web.execution.Execution` (apply, commit, publish, bots)
  over the :class:`~fourcards.web.repository.Repository` (this server's copies: load, apply,
  commit), the :class:`~fourcards.web.committer.Committer` (group commit: the changes that
  arrive together in one transaction) and the :class:`~fourcards.web.publisher.Publisher` (connections and views);
* **changes elsewhere** - :class:`~fourcards.web.notify.Notifications` (listen, poll, refresh);
* **due work and liveness** - :class:`~fourcards.web.due.DueWork` (claims, time-outs, bots
  with a delay, downtime given back).

The store is any :class:`~fourcards.store.base.TableStore`: the database's
(:class:`fourcards.store.Store`, from the URL) or one given (e.g.
:class:`~fourcards.store.memory.MemoryStore`).
"""

from __future__ import annotations

import asyncio
import functools
import gc
import random
import secrets
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from fourcards.store import Store, TableStore
from fourcards.table import Command, Outcome, Person, TableError, TableState
from fourcards.table.games import TableSpec
from fourcards.table.registry import GAMES
from fourcards.web.committer import Committer
from fourcards.web.due import CLAIM_LEASE_S, DOWNTIME_GAP_S, DueWork
from fourcards.web.execution import Execution
from fourcards.web.notify import POLL_S, Notifications
from fourcards.web.publisher import Publisher
from fourcards.web.repository import Repository

__all__ = ["Hub", "POLL_S", "CLAIM_LEASE_S", "GC_THRESHOLDS", "DOWNTIME_GAP_S", "tune_gc", "bot_kinds"]

T = TypeVar("T")

#: The garbage collector's thresholds in a server: young collections every 100,000 net
#: allocations instead of 700, so the short-lived objects of each action die by reference
#: count before a collection sees them and few reach the old generation, whose full
#: collections (90-190 ms with 200 busy tables) stalled every table on the server. Not fewer
#: (20,000 until issue 28): a table's state lives for seconds and the next action's replaces it,
#: so a young collection traces the live states of every busy table whenever it comes - 25-67 ms
#: with 200 tables, the paced p99's tail (``web_load.py --gc-log``); it comes a fifth as often.
GC_THRESHOLDS = (100_000, 50, 100)


def tune_gc() -> None:
    """Set :data:`GC_THRESHOLDS` and freeze what the process holds after start-up (modules,
    the app) out of the collector's reach (``gc.freeze``): a server's tail latency is the
    collector's pauses. Measured with ``benchmarks/web_load.py`` (docs/benchmarks.md)."""
    gc.set_threshold(*GC_THRESHOLDS)
    gc.freeze()


def bot_kinds(game: str) -> tuple[str, ...]:
    """The bots a table of ``game`` offers."""
    return GAMES[game].bot_kinds()


class Hub:
    """This server's part in the shared tables (see the module doc).

    Args:
        database_url: SQLAlchemy URL (unused when ``store`` is given).
        bot_delay: seconds between bot moves (0: bots move at once, inside the request that
            made it their turn).
        public_url: the address people reach this server at (invitation links and QR
            codes are built from it); ``None``: pages use their own.
        rng: chance outcomes (shuffles, bots' choices); ``None``: the OS CSPRNG.
        store: the store to run on (e.g. a :class:`~fourcards.store.memory.MemoryStore`);
            ``None``: the database's at ``database_url``, opened (and migrated) at start.
    """

    def __init__(self, database_url: str, *, bot_delay: float = 0.0, public_url: str | None = None,
                 rng: random.Random | None = None, store: TableStore | None = None) -> None:
        self.database_url = database_url
        self.bot_delay = float(bot_delay)
        self.public_url = public_url.rstrip("/") if public_url else None
        self.rng = rng
        self._given_store = store
        self.store: TableStore | None = None
        self.origin = secrets.token_hex(6)
        self._executor: ThreadPoolExecutor | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.committer = Committer(self.require_store, self.run_db, self.spawn)
        self.repo = Repository(self.require_store, self.run_db, self.origin, self.bot_delay, rng, self.committer)
        self.publisher = Publisher(self.spawn, self.public_url, bot_kinds)
        self.execution = Execution(self.repo, self.publisher, self.require_store, self.run_db, self.bot_delay, rng,
                                   self._due_set)
        self.due = DueWork(self.execution, self.require_store, self.run_db, self.spawn)
        self.notifications = Notifications(self.repo, self.publisher, self.require_store, self.run_db, self.spawn,
                                           self.latest, self.origin, self.due.due_set)

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Open (and migrate) the database; give running turns their time back after downtime;
        start the due-work loop, the liveness notes, the version poll and, on PostgreSQL, the
        change listener.

        Raises:
            fourcards.store.StoreError: a database that cannot be used.
        """
        tune_gc()
        # SQLite writes one at a time: a second thread would only wait in SQLite's busy handler,
        # which sleeps in steps of up to 100 ms (a long tail of latencies under load). PostgreSQL:
        # two threads - as fast as eight at saturation, and the driver's Python work in more
        # threads fights the event loop for the GIL (docs/benchmarks.md)
        workers = 2 if self.database_url.startswith("postgresql") and self._given_store is None else 1
        self.committer.lanes = workers  # a batch written in each database thread at once
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="fourcards-db")
        try:
            if self._given_store is not None:
                self.store = self._given_store
            else:
                self.store = await self.run_db(Store, self.database_url)
            await self.due.take_up()
        except BaseException:
            await self.stop()
            raise
        self.due.start()
        self.notifications.start()

    async def stop(self) -> None:
        """Cancel background tasks, note a last time that this server was alive, stop
        listening, release the database."""
        self.notifications.stopping.set()
        for t in list(self._tasks):
            t.cancel()
        self.notifications.stop()
        if self.store is not None:
            try:
                await self.run_db(self.store.beat, time.time())
            except Exception:  # pragma: no cover - the database went first
                pass
            self.store.close()
        if self._executor is not None:
            self._executor.shutdown(wait=True)

    # ------------------------------------------------------------- helpers

    async def run_db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a blocking database call in a database worker thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(fn, *args, **kwargs))

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``coro`` in the background (kept referenced until done)."""
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def wake(self) -> None:
        """A due time was set here: let the due-work loop look again now."""
        self.due.wake()

    def _due_set(self, at: float | None) -> None:
        self.due.due_set(at)

    def require_store(self) -> TableStore:
        """The store (the hub must be started)."""
        if self.store is None:
            raise RuntimeError("the web app has not started")
        return self.store

    def require_database(self) -> Store:
        """The database's store, for what only a database keeps (clubs).

        Raises:
            TableError: 501 on a store that is not a database's (a :class:`~fourcards.store.memory.MemoryStore`).
        """
        store = self.require_store()
        if not isinstance(store, Store):
            raise TableError(501, "this server keeps its tables in memory: clubs need a database")
        return store

    # -------------------------------------------------------------- tables

    async def get(self, table_id: str) -> TableState:
        """This server's copy of the table (read when first needed). Raises :class:`TableError` 404."""
        return await self.repo.get(table_id)

    async def latest(self, table_id: str) -> TableState:
        """The table as the database has it now, its figures computed (what a read answers
        from: a client sees its own writes through any server).

        Raises:
            TableError: 404 for an unknown table; 503 when the database does not answer.
        """
        state = await self.repo.latest(table_id)
        await self.publisher.prepare(state)
        return state

    async def find(self, table_id: str) -> TableState | None:
        """:meth:`latest`, or ``None`` for an unknown table."""
        try:
            return await self.latest(table_id)
        except TableError:
            return None

    async def public_tables(self, limit: int = 50, after: str | None = None) -> tuple[list[TableState], str | None]:
        """A page of the open public tables (the lobby's), newest first, each up to date: at most
        ``limit`` after the table ``after``, and the id to continue after (``None``: no more)."""
        versions = await self.run_db(self.require_store().public_tables, limit + 1, after)
        more = len(versions) > limit
        versions = dict(list(versions.items())[:limit])
        out = []
        for tid, version in versions.items():
            t = self.repo.copies.get(tid)
            if t is None or version > t.version:
                self.repo.stale_ids.add(tid)
            try:
                t = await self.repo.get(tid)
            except TableError:
                continue
            if t.public and t.status == "open":
                out.append(t)
        return out, (list(versions)[-1] if more else None)

    async def create_table(self, spec: TableSpec, host_name: str, name: str | None) -> tuple[TableState, Person, str]:
        """:meth:`fourcards.web.execution.Execution.create_table`."""
        return await self.execution.create_table(spec, host_name, name)

    # ------------------------------------------------------------ commands

    async def execute(self, table_id: str, make: Callable[[TableState], Command], *, bots: bool = True) -> Outcome:
        """:meth:`fourcards.web.execution.Execution.execute`: apply, commit, publish, then bots."""
        return await self.execution.execute(table_id, make, bots=bots)

    def publish(self, table_id: str) -> None:
        """Push the views of this server's copy of the table."""
        self.execution.publish(table_id)

    async def bot_step(self, table_id: str) -> bool:
        """:meth:`fourcards.web.execution.Execution.bot_step`."""
        return await self.execution.bot_step(table_id)

    async def drive_bots(self, table_id: str) -> None:
        """:meth:`fourcards.web.execution.Execution.drive_bots`."""
        await self.execution.drive_bots(table_id)

    def changed(self, table_id: str, version: int) -> None:
        """:meth:`fourcards.web.notify.Notifications.changed`."""
        self.notifications.changed(table_id, version)

    async def run_due(self, table_id: str) -> None:
        """:meth:`fourcards.web.due.DueWork.run_due`."""
        await self.due.run_due(table_id)
