"""The web app's state: the store, the tables in memory, worker threads, background tasks.

:class:`Hub` is created by :func:`fourcards.web.app.create_app` and started in
the app's lifespan: it takes the database's server lock (:mod:`fourcards.store.lock`)
before anything else - a second server on the same database stops there - then
migrates the database, records the run (its id is the epoch of every table
version of this run, so versions never go backwards across restarts), voids and
refunds every deal a previous run left in progress (a crash or restart), and
loads every table and balance back from the database.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import secrets
import socket
import string
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from fourcards.errors import FourcardsError
from fourcards.store import Store, StoreError
from fourcards.store.lock import DatabaseInUse, ServerLock, acquire_server_lock
from fourcards.web.games import GAMES, new_table_rules
from fourcards.web.schemas import CreateTable
from fourcards.web.tables import ApiError, SeatInfo, Table

__all__ = ["Hub"]

log = logging.getLogger(__name__)
T = TypeVar("T")

_ID_ALPHABET = string.ascii_lowercase + string.digits
#: Table versions of run ``r`` are ``r * VERSION_EPOCH + n``: above every version of earlier runs
#: (exact in JavaScript for 2**21 runs of up to 2**32 changes per table).
VERSION_EPOCH = 2**32
#: Seconds between checks that a PostgreSQL server lock's connection still holds the lock.
LOCK_CHECK_S = 15.0


class Hub:
    """Tables in memory over one :class:`~fourcards.store.Store`.

    Args:
        database_url: SQLAlchemy URL.
        bot_delay: seconds between bot moves (0: bots move at once, inside the
            request that made it their turn).
        public_url: the address people reach this server at (``http://192.168.1.20:8000``):
            invitation links and QR codes are built from it; ``None``: pages use their own.
        server_lock: the database's server lock, already held (``fourcards serve`` takes it
            before migrating); ``None``: taken at start. The hub releases it when it stops.
    """

    def __init__(self, database_url: str, *, bot_delay: float = 0.0, public_url: str | None = None,
                 server_lock: ServerLock | None = None) -> None:
        self.database_url = database_url
        self.bot_delay = float(bot_delay)
        self.public_url = public_url.rstrip("/") if public_url else None
        self.store: Store | None = None
        self.tables: dict[str, Table] = {}
        self.version_base = 0
        self.server_lock = server_lock
        self.lock_lost = False  # another server took the database over: nothing more is read or written
        self.lock_check_s = LOCK_CHECK_S
        self._executor: ThreadPoolExecutor | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.restart_voids: list[dict[str, Any]] = []

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Take the server lock, migrate, record the run, void interrupted deals (refunded),
        load the tables.

        Raises:
            fourcards.store.lock.DatabaseInUse: another server holds the database.
            fourcards.store.StoreError: a database that cannot be used.
        """
        workers = 1 if self.database_url.startswith("sqlite") else 4
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="fourcards-db")
        try:
            if self.server_lock is None:
                self.server_lock = await self.run_db(acquire_server_lock, self.database_url)
            await self._open()
        except BaseException:
            await self.stop()
            raise
        if self.server_lock.watched:
            self.spawn(self._watch_lock())

    async def _watch_lock(self) -> None:
        """Keep the PostgreSQL server lock: a connection the database dropped (a restart of
        the database server) loses the lock with it; take it again - or, if another server
        took it meanwhile, stop reading and writing (every request: 503)."""
        while not self.lock_lost:
            await asyncio.sleep(self.lock_check_s)
            lock = self.server_lock
            if lock is None or await self.run_db(lock.alive):
                continue
            lock.release()
            try:
                self.server_lock = await self.run_db(acquire_server_lock, self.database_url)
                log.warning("the database dropped the server lock's connection; the lock is taken again")
            except DatabaseInUse as exc:
                self.server_lock, self.lock_lost = None, True
                log.critical("this server lost the database to another server (%s); it no longer reads or "
                             "writes table data: stop it", exc)
            except StoreError as exc:  # the database does not answer yet: try again next time
                self.server_lock = lock
                log.error("the server lock's connection is lost and the database does not answer (%s)", exc)

    async def _open(self) -> None:
        self.store = await self.run_db(Store, self.database_url)
        run = await self.run_db(self.store.begin_run, socket.gethostname(), os.getpid())
        self.version_base = run * VERSION_EPOCH
        self.restart_voids = await self.run_db(self.store.void_interrupted_deals)
        rows = await self.run_db(self.store.load_tables)
        for row in rows:
            players = [SeatInfo(p.id, p.seat or 0, p.name, p.token_hash, p.is_host, p.is_bot, p.bot_kind, p.balance,
                                p.status) for p in row.players]
            game = GAMES[row.game]
            try:
                rules: Any = game.rules_from_dict(row.rules)
                game.check_storable(rules)
            except (FourcardsError, ApiError) as exc:  # stored by an older version that allowed them
                log.warning("table %s is not opened: its rules are refused now (%s); its history and "
                            "ledger stay in the database", row.id, getattr(exc, "detail", exc))
                continue
            t = Table(self, row.id, row.name, game, rules, row.settings, players,
                      row.next_deal_number, row.created_at, status=row.status, public=row.public)
            self.tables[t.id] = t
        for v in self.restart_voids:
            voided = self.tables.get(v["table_id"])
            if voided is not None:
                voided.add_log(f"{voided.game.word} {v['number']} was interrupted by a server restart: it is "
                               "void and every wager is returned")
        if self.restart_voids:
            log.warning("voided %d deal(s) interrupted by the last shutdown", len(self.restart_voids))

    async def stop(self) -> None:
        """Cancel background tasks, close sockets' pumps, release the database."""
        for t in list(self._tasks):
            t.cancel()
        for table in self.tables.values():
            table.stop()
        if self.store is not None:
            self.store.close()
        if self._executor is not None:
            self._executor.shutdown(wait=True)
        if self.server_lock is not None:
            self.server_lock.release()

    # ------------------------------------------------------------- helpers

    async def run_db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a blocking database call in the database worker thread(s)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(fn, *args, **kwargs))

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``coro`` in the background (kept referenced until done)."""
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def require_store(self) -> Store:
        """The store (the hub must be started).

        Raises:
            ApiError: 503 once another server took the database over (see :meth:`_watch_lock`).
        """
        if self.lock_lost:
            raise ApiError(503, "this server no longer holds the database: another fourcards server took it "
                                "over; nothing changed")
        if self.store is None:
            raise RuntimeError("the web app has not started")
        return self.store

    def get(self, table_id: str) -> Table:
        """The table, or :class:`ApiError` 404."""
        t = self.tables.get(table_id)
        if t is None:
            raise ApiError(404, f"unknown table {table_id!r}")
        return t

    def new_table_id(self) -> str:
        """A fresh random table id: 8 characters of ``a-z0-9``, not used by any table in memory."""
        while True:
            tid = "".join(secrets.choice(_ID_ALPHABET) for _ in range(8))
            if tid not in self.tables:
                return tid

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
        table = Table(self, tid, name, game, rules, settings, [], 1, public=req.public)
        self.tables[tid] = table
        host, token = await table.sit(req.host_name, is_host=True)
        if bots:
            await table.add_bots(host, bots)
        return table, host, token
