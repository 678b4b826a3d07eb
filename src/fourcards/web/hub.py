"""The web app's state: the store, this server's copies of tables, worker threads, and the
background work of a server that shares its database with others.

:class:`Hub` is created by :func:`fourcards.web.app.create_app` and started in the
app's lifespan: it opens (and migrates) the database and starts three background
tasks. Any number of servers may share one database (``fourcards serve --workers N``,
or several machines behind a load balancer: docs/deploy.md); none holds a table:

* tables are read from the database when first needed and kept as copies
  (:class:`~fourcards.web.tables.Table`) that every change checks against the table's
  version (see :mod:`fourcards.web.tables`);
* **changes elsewhere**: on PostgreSQL a listening connection hears every table write
  (``LISTEN`` :data:`~fourcards.store.CHANGES_CHANNEL`, sent by the writing transaction);
  on both databases a cheap poll of the versions of the tables held here
  (:data:`POLL_S`) catches the rest (SQLite has no notifications). A copy found older is
  marked stale and, if browsers watch it here, read again and pushed to them;
* **due work** (a bot to move, a turn clock run out, a seat that sits out to act): each
  table's ``due_at`` in the database is claimed by one server at a time
  (:meth:`fourcards.store.Store.claim_due`: ``FOR UPDATE SKIP LOCKED`` on PostgreSQL) and
  done by it; a server that dies holding a claim lets it come due again after
  :data:`CLAIM_LEASE_S`.

A deal in progress is in the database after every action, so a restart - or the death
of one of several servers - loses nothing: the next server to touch the table replays
the deal from its stored history and the deal goes on (voiding stays the host's ruling).
"""

from __future__ import annotations

import asyncio
import functools
import gc
import logging
import secrets
import string
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from fourcards.errors import FourcardsError
from fourcards.store import CHANGES_CHANNEL, Store, TableRow
from fourcards.web.games import GAMES, new_table_rules
from fourcards.web.players import kind_bot_names
from fourcards.web.schemas import CreateTable
from fourcards.web.tables import ApiError, SeatInfo, Table

__all__ = ["Hub", "POLL_S", "CLAIM_LEASE_S", "GC_THRESHOLDS", "tune_gc"]

log = logging.getLogger(__name__)
T = TypeVar("T")

_ID_ALPHABET = string.ascii_lowercase + string.digits
#: Seconds between polls of the versions of the tables this server holds (SQLite; on
#: PostgreSQL notifications come at once and the poll is a safety net, every 5 s).
POLL_S = 0.5
POLL_S_POSTGRES = 5.0
#: Seconds a server holds a claimed table's due work before another may take it.
CLAIM_LEASE_S = 10.0
#: Longest sleep of the due-work loop (it wakes earlier for a due time set here or heard of).
DUE_SLEEP_S = 1.0


#: The garbage collector's thresholds in a server: young collections every 20,000 net
#: allocations instead of 700, so the short-lived objects of each action die by reference
#: count before a collection sees them and few reach the old generation, whose full
#: collections (90-190 ms with 200 busy tables) stalled every table on the server.
GC_THRESHOLDS = (20_000, 50, 100)


def tune_gc() -> None:
    """Set :data:`GC_THRESHOLDS` and freeze what the process holds after start-up (modules,
    the app) out of the collector's reach (``gc.freeze``): a server's tail latency is the
    collector's pauses. Measured with ``benchmarks/web_load.py`` (docs/benchmarks.md)."""
    gc.set_threshold(*GC_THRESHOLDS)
    gc.freeze()


class Hub:
    """This server's copies of tables over one :class:`~fourcards.store.Store` (see the module doc).

    Args:
        database_url: SQLAlchemy URL.
        bot_delay: seconds between bot moves (0: bots move at once, inside the
            request that made it their turn).
        public_url: the address people reach this server at (``http://192.168.1.20:8000``):
            invitation links and QR codes are built from it; ``None``: pages use their own.
    """

    def __init__(self, database_url: str, *, bot_delay: float = 0.0, public_url: str | None = None) -> None:
        self.database_url = database_url
        self.bot_delay = float(bot_delay)
        self.public_url = public_url.rstrip("/") if public_url else None
        self.store: Store | None = None
        self.origin = secrets.token_hex(6)
        self.tables: dict[str, Table] = {}
        self._executor: ThreadPoolExecutor | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._wake = asyncio.Event()
        self._loading: dict[str, asyncio.Future[Table]] = {}
        self._listener: threading.Thread | None = None
        self._stopping = threading.Event()

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Open (and migrate) the database; start the due-work loop, the version poll and,
        on PostgreSQL, the change listener.

        Raises:
            fourcards.store.StoreError: a database that cannot be used.
        """
        kind_bot_names.cache_clear()  # plug-in bots are read when a server starts
        tune_gc()
        # SQLite writes one at a time: a second thread would only wait in SQLite's busy handler,
        # which sleeps in steps of up to 100 ms (a long tail of latencies under load). PostgreSQL:
        # two threads - as fast as eight at saturation, and the driver's Python work in more
        # threads fights the event loop for the GIL (paced p99 115-175 ms with eight, 27-55 ms
        # with two; docs/benchmarks.md)
        workers = 1 if self.database_url.startswith("sqlite") else 2
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="fourcards-db")
        try:
            self.store = await self.run_db(Store, self.database_url)
        except BaseException:
            await self.stop()
            raise
        self.spawn(self._due_loop())
        self.spawn(self._poll_loop())
        if self.store.dialect == "postgresql":
            loop = asyncio.get_running_loop()
            self._listener = threading.Thread(target=self._listen, args=(loop,), name="fourcards-listen",
                                              daemon=True)
            self._listener.start()

    async def stop(self) -> None:
        """Cancel background tasks, stop listening, release the database."""
        self._stopping.set()
        for t in list(self._tasks):
            t.cancel()
        if self._listener is not None:
            self._listener.join(timeout=3)
        if self.store is not None:
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
        self._wake.set()

    def require_store(self) -> Store:
        """The store (the hub must be started)."""
        if self.store is None:
            raise RuntimeError("the web app has not started")
        return self.store

    # -------------------------------------------------------------- tables

    def _table(self, row: TableRow) -> Table | None:
        game = GAMES[row.game]
        try:
            rules: Any = game.rules_from_dict(row.rules)
            game.check_storable(rules)
            return Table(self, row, game, rules)
        except (FourcardsError, ApiError) as exc:  # stored by an older version that allowed them
            log.warning("table %s is not opened: its rules or history are refused now (%s); its history and "
                        "ledger stay in the database", row.id, getattr(exc, "detail", exc))
            return None

    async def get(self, table_id: str) -> Table:
        """This server's copy of the table (read from the database when first needed).

        Raises:
            ApiError: 404 for a table that does not exist (or cannot be opened).
        """
        t = self.tables.get(table_id)
        if t is not None:
            return t
        if len(table_id) > 16:
            raise ApiError(404, f"unknown table {table_id[:16]!r}...")
        pending = self._loading.get(table_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._loading[table_id] = pending
            try:
                row = await self.run_db(self.require_store().load_table, table_id)
                t = None if row is None else self._table(row)
                if t is not None:
                    self.tables[table_id] = t
                    if t.state is not None and t.in_progress:
                        await t.game.prepare(t.state)
                pending.set_result(t)  # type: ignore[arg-type]
            except BaseException as exc:
                pending.set_exception(exc)
                pending.exception()  # retrieved: no "never retrieved" warning when nobody else waits
                raise
            finally:
                del self._loading[table_id]
        else:
            t = await asyncio.shield(pending)
        if t is None:
            raise ApiError(404, f"unknown table {table_id!r}")
        return t

    async def latest(self, table_id: str) -> Table:
        """:meth:`get`, made the database's latest first (:meth:`Table.sync`): what a read
        answers from, so a client sees its own writes through any server.

        Raises:
            ApiError: 404 for an unknown table; 503 when the database does not answer.
        """
        t = await self.get(table_id)
        await t.sync()
        return t

    async def find(self, table_id: str) -> Table | None:
        """:meth:`get`, or ``None`` for an unknown table."""
        try:
            return await self.get(table_id)
        except ApiError:
            return None

    async def public_tables(self) -> list[Table]:
        """The open public tables (the lobby's), newest first, each up to date."""
        versions = await self.run_db(self.require_store().public_tables)
        out = []
        for tid, version in versions.items():
            t = await self.find(tid)
            if t is None:
                continue
            if version > t.db_version:
                t.stale = True
                await t.refresh()
            if t.public and t.status == "open":
                out.append(t)
        return sorted(out, key=lambda t: str(t.created_at or ""), reverse=True)

    def new_table_id(self) -> str:
        """A fresh random table id: 8 characters of ``a-z0-9`` (2.8e12 of them; the database
        refuses a duplicate)."""
        return "".join(secrets.choice(_ID_ALPHABET) for _ in range(8))

    async def create_table(self, req: CreateTable) -> tuple[Table, SeatInfo, str]:
        """Create a table, seat the host at seat 1, add the requested bots.

        Returns:
            the table, the host's seat and the host's secret token.
        Raises:
            ApiError: 422 for bad rules or too many bots.
        """
        store = self.require_store()
        game, rules, settings = new_table_rules(req)
        tid = self.new_table_id()
        name = req.name or f"{req.host_name}'s {game.title} table"
        bots = settings.pop("bots")
        await self.run_db(store.create_table, tid, req.game, name, rules.to_dict(), settings, req.public)
        table = await self.get(tid)
        host, token = await table.sit(req.host_name, is_host=True)
        if bots:
            await table.add_bots(host, bots)
        return table, host, token

    # ------------------------------------------------- changes on other servers

    def changed(self, table_id: str, version: int) -> None:
        """Another server wrote ``table_id`` at ``version``: a copy held here is stale; if
        browsers watch it here, read it again and push their views."""
        t = self.tables.get(table_id)
        if t is not None:
            t.heard_of(version)

    def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        """(Thread) PostgreSQL: LISTEN for table writes; hand each to :meth:`changed`."""
        import psycopg

        store = self.require_store()
        conninfo = store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while not self._stopping.is_set():
            try:
                with psycopg.connect(conninfo, autocommit=True, connect_timeout=10) as conn:
                    conn.execute(f"LISTEN {CHANGES_CHANNEL}")
                    while not self._stopping.is_set():
                        for n in conn.notifies(timeout=0.5):
                            tid, version, origin = (n.payload.split(" ") + ["", ""])[:3]
                            if origin != self.origin:
                                loop.call_soon_threadsafe(self._heard, tid, int(version or 0))
            except Exception as exc:  # the database restarted: listen again (the poll covers the gap)
                if self._stopping.is_set():
                    return
                log.warning("listening for table changes failed (%s); trying again", exc)
                self._stopping.wait(1.0)

    def _heard(self, table_id: str, version: int) -> None:
        self.changed(table_id, version)
        self._wake.set()  # its due time may have changed

    async def _poll_loop(self) -> None:
        """Poll the versions of the tables held here (SQLite's way to hear other servers;
        PostgreSQL's safety net)."""
        interval = POLL_S_POSTGRES if self.require_store().dialect == "postgresql" else POLL_S
        while True:
            await asyncio.sleep(interval)
            if not self.tables:
                continue
            try:
                versions = await self.run_db(self.require_store().table_versions, list(self.tables))
            except Exception as exc:
                log.warning("polling table versions failed: %s", exc)
                continue
            for tid, version in versions.items():
                self.changed(tid, version)

    # ------------------------------------------------------------ due work

    async def _due_loop(self) -> None:
        """Claim the tables whose due time has come and do their due work; sleep until the
        next due time (at most :data:`DUE_SLEEP_S`), or until woken."""
        store = self.require_store()
        while True:
            try:
                due = await self.run_db(store.next_due)  # a read: writes only when something is due
                if due is not None and due <= time.time():
                    for tid in await self.run_db(store.claim_due, time.time(), CLAIM_LEASE_S):
                        self.spawn(self.run_due(tid))
                    due = await self.run_db(store.next_due)
            except Exception as exc:
                log.warning("looking for due work failed: %s", exc)
                due = None
            self._wake.clear()
            pause = DUE_SLEEP_S if due is None else min(DUE_SLEEP_S, max(0.02, due - time.time()))
            try:
                await asyncio.wait_for(self._wake.wait(), pause)
            except TimeoutError:
                pass

    async def run_due(self, table_id: str) -> None:
        """Do the due work of a table this server claimed (see :meth:`Table.run_due`)."""
        try:
            t = await self.get(table_id)
            versions = await self.run_db(self.require_store().table_versions, [table_id])
            if versions.get(table_id, -1) > t.db_version:
                t.stale = True
            await t.run_due()
        except Exception:
            log.exception("due work at table %s failed", table_id)
