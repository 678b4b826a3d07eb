"""The web app's state: the store, the tables in memory, worker threads, background tasks.

:class:`Hub` is created by :func:`fourcards.web.app.create_app` and started in
the app's lifespan: it migrates the database, voids and refunds every deal a
previous run left in progress (a crash or restart), and loads every table and
balance back from the database.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import string
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from fourcards.errors import FourcardsError
from fourcards.store import Store
from fourcards.web.games import GAMES, new_table_rules
from fourcards.web.schemas import CreateTable
from fourcards.web.tables import ApiError, SeatInfo, Table

__all__ = ["Hub"]

log = logging.getLogger(__name__)
T = TypeVar("T")

_ID_ALPHABET = string.ascii_lowercase + string.digits


class Hub:
    """Tables in memory over one :class:`~fourcards.store.Store`.

    Args:
        database_url: SQLAlchemy URL.
        bot_delay: seconds between bot moves (0: bots move at once, inside the
            request that made it their turn).
    """

    def __init__(self, database_url: str, *, bot_delay: float = 0.0) -> None:
        self.database_url = database_url
        self.bot_delay = float(bot_delay)
        self.store: Store | None = None
        self.tables: dict[str, Table] = {}
        self._executor: ThreadPoolExecutor | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.restart_voids: list[dict[str, Any]] = []

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Migrate, void interrupted deals (refunded), load the tables."""
        workers = 1 if self.database_url.startswith("sqlite") else 4
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="fourcards-db")
        self.store = await self.run_db(Store, self.database_url)
        self.restart_voids = await self.run_db(self.store.void_interrupted_deals)
        rows = await self.run_db(self.store.load_tables)
        for row in rows:
            players = [SeatInfo(p.id, p.seat, p.name, p.token_hash, p.is_host, p.is_bot, p.bot_kind, p.balance)
                       for p in row.players]
            game = GAMES[row.game]
            try:
                rules: Any = game.rules_from_dict(row.rules)
                game.check_storable(rules)
            except (FourcardsError, ApiError) as exc:  # stored by an older version that allowed them
                log.warning("table %s is not opened: its rules are refused now (%s); its history and "
                            "ledger stay in the database", row.id, getattr(exc, "detail", exc))
                continue
            t = Table(self, row.id, row.name, game, rules, row.settings, players,
                      row.next_deal_number, row.created_at)
            self.tables[t.id] = t
        for v in self.restart_voids:
            voided = self.tables.get(v["table_id"])
            if voided is not None:
                voided.add_log(f"Deal {v['number']} was interrupted by a server restart: it is void and every "
                          "wager is returned")
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
        """The store (the hub must be started)."""
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
        assert self.store is not None
        game, rules, settings = new_table_rules(req)
        tid = self.new_table_id()
        name = req.name or f"{req.host_name}'s {game.title} table"
        await self.run_db(self.store.create_table, tid, req.game, name, rules.to_dict(), settings)
        table = Table(self, tid, name, game, rules, settings, [], 1)
        self.tables[tid] = table
        host, token = await table.sit(req.host_name, is_host=True)
        if req.bots:
            await table.add_bots(host, req.bots)
        return table, host, token
