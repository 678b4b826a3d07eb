"""Group commit: the changes of several tables that arrive together, written in one transaction.

Every change a server commits - a person's command, a bot's move, a time-out - goes through
:meth:`Committer.commit`, which waits for its result. Changes that arrive while the database is
busy writing the last batch wait together and are written as the next batch, **one**
transaction (:meth:`fourcards.store.base.TableStore.commit_tables`): one sync to disk for all of
them (SQLite syncs every commit, ``synchronous=FULL``), one trip to a database thread. Nothing
is lost in waiting: a batch starts as soon as the last one is written, and a change arriving
alone is written alone at once.

Each change keeps its own version check and its own answer: a change whose table has another
version (:class:`~fourcards.store.VersionConflict`) or that the store refuses is refused alone,
the others are committed; each is answered only after the transaction holding it is durable.
At most one change per table is in a batch (a table's commands run one at a time on a server:
:class:`~fourcards.web.repository.Repository`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any

from fourcards.store import CommitResult, TableCommit, TableStore
from fourcards.web import metrics

__all__ = ["Committer", "MAX_BATCH"]

#: Most changes written in one transaction.
MAX_BATCH = 64


class Committer:
    """This server's group commit (see the module doc).

    Args:
        store: the started store (a callable: the hub's).
        run_db: runs a blocking store call in a database thread.
        spawn: runs a coroutine in the background.
        lanes: batches written at once (the database threads).
    """

    def __init__(self, store: Callable[[], TableStore], run_db: Callable[..., Coroutine[Any, Any, Any]],
                 spawn: Callable[[Coroutine[Any, Any, Any]], Any], lanes: int = 1) -> None:
        self.store = store
        self.run_db = run_db
        self.spawn = spawn
        self.lanes = lanes
        self._pending: list[tuple[TableCommit, asyncio.Future[CommitResult]]] = []
        self._writing = 0

    async def commit(self, change: TableCommit) -> CommitResult:
        """Write ``change`` with the others that wait (see the module doc), once it is durable.

        Raises:
            VersionConflict: the table has another version; nothing of it written.
            StoreError, or the database's error: the change was refused; nothing of it written.
        """
        done: asyncio.Future[CommitResult] = asyncio.get_running_loop().create_future()
        self._pending.append((change, done))
        if self._writing < self.lanes:
            self._writing += 1
            self.spawn(self._write())
        return await done

    async def _write(self) -> None:
        """Write batches until none waits."""
        try:
            while self._pending:
                batch, self._pending = self._pending[:MAX_BATCH], self._pending[MAX_BATCH:]
                results: list[Any]
                started = time.perf_counter()
                try:
                    results = await self.run_db(self.store().commit_tables, [c for c, _ in batch])
                except Exception as exc:  # the database did not answer: every change of the batch
                    results = [exc] * len(batch)
                metrics.commits(len(batch), time.perf_counter() - started)
                self.written(batch, results)
        finally:
            self._writing -= 1

    @staticmethod
    def written(batch: list[tuple[TableCommit, asyncio.Future[CommitResult]]], results: list[Any]) -> None:
        """A batch is written (the place to count batches and their sizes): answer each change."""
        for (_, done), result in zip(batch, results):
            if done.done():  # its request was cancelled meanwhile
                continue
            if isinstance(result, BaseException):
                done.set_exception(result)
            else:
                done.set_result(result)
