"""Changes made on other servers: heard (PostgreSQL ``LISTEN``) or polled, and pushed here.

Any number of servers may share one database (docs/deploy.md). On PostgreSQL a listening
connection hears every table write (``LISTEN`` :data:`~fourcards.store.CHANGES_CHANNEL`, sent
by the writing transaction); on every store a cheap poll of the versions of the tables held
here (:data:`POLL_S`) catches the rest. A copy found older is marked stale and, if browsers
watch it here, read again and pushed to them (:class:`Notifications`).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Coroutine
from typing import Any

from fourcards.store import TableStore
from fourcards.table import TableError, TableState
from fourcards.web.publisher import Publisher
from fourcards.web.repository import Repository

__all__ = ["Notifications", "POLL_S", "POLL_S_POSTGRES"]

log = logging.getLogger(__name__)

#: Seconds between polls of the versions of the tables this server holds (SQLite; on
#: PostgreSQL notifications come at once and the poll is a safety net, every 5 s).
POLL_S = 0.5
POLL_S_POSTGRES = 5.0


class Notifications:
    """This server's ear for the other servers' writes (see the module doc).

    Args:
        repo / publisher: this server's copies and connections.
        store: the started store (a callable: the hub's).
        run_db / spawn: run a store call in a database thread; a coroutine in the background.
        latest: the table as the database has it now, its figures computed.
        origin: this server's name in change notifications (its own are ignored).
        heard: told, with the table's due time after it, when another server's write was heard
            (:func:`fourcards.store.parse_change`: ``None`` nothing due,
            :data:`~fourcards.store.DUE_UNTOLD` a notification that does not say).
    """

    def __init__(self, repo: Repository, publisher: Publisher, store: Callable[[], TableStore],
                 run_db: Callable[..., Coroutine[Any, Any, Any]],
                 spawn: Callable[[Coroutine[Any, Any, Any]], Any],
                 latest: Callable[[str], Coroutine[Any, Any, TableState]], origin: str,
                 heard: Callable[[float | None], None]) -> None:
        self.repo = repo
        self.publisher = publisher
        self.store = store
        self.run_db = run_db
        self.spawn = spawn
        self.latest = latest
        self.origin = origin
        self.heard = heard
        self.stopping = threading.Event()
        self._listener: threading.Thread | None = None
        self._refreshing: set[str] = set()

    def start(self) -> None:
        """Start the version poll and, on PostgreSQL, the change listener."""
        self.spawn(self._poll_loop())
        if self.store().dialect == "postgresql":
            loop = asyncio.get_running_loop()
            self._listener = threading.Thread(target=self._listen, args=(loop,), name="fourcards-listen",
                                              daemon=True)
            self._listener.start()

    def stop(self) -> None:
        """Stop listening."""
        self.stopping.set()
        if self._listener is not None:
            self._listener.join(timeout=3)

    def changed(self, table_id: str, version: int) -> None:
        """Another server wrote ``table_id`` at ``version``: a copy held here is stale; if
        browsers watch it here, read it again and push their views."""
        if self.repo.heard_of(table_id, version) and self.publisher.watching(table_id) \
                and table_id not in self._refreshing:
            self.spawn(self.refresh(table_id))

    async def refresh(self, table_id: str) -> None:
        """Read a table another server wrote and push its views to the browsers here."""
        self._refreshing.add(table_id)
        try:
            state = await self.latest(table_id)
        except TableError:
            return
        finally:
            self._refreshing.discard(table_id)
        self.publisher.publish(state)
        if table_id in self.repo.stale_ids:  # written again meanwhile
            self.changed(table_id, self.repo.heard.get(table_id, state.version))

    def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        """(Thread) PostgreSQL: LISTEN for table writes; hand each to :meth:`changed`."""
        import psycopg

        from fourcards.store import CHANGES_CHANNEL, parse_change

        store: Any = self.store()
        conninfo = store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while not self.stopping.is_set():
            try:
                with psycopg.connect(conninfo, autocommit=True, connect_timeout=10) as conn:
                    conn.execute(f"LISTEN {CHANGES_CHANNEL}")
                    while not self.stopping.is_set():
                        for n in conn.notifies(timeout=0.5):
                            tid, version, origin, due = parse_change(n.payload)
                            if origin != self.origin:
                                loop.call_soon_threadsafe(self._heard, tid, version, due)
            except Exception as exc:  # the database restarted: listen again (the poll covers the gap)
                if self.stopping.is_set():
                    return
                log.warning("listening for table changes failed (%s); trying again", exc)
                self.stopping.wait(1.0)

    def _heard(self, table_id: str, version: int, due_at: float | None) -> None:
        self.changed(table_id, version)
        self.heard(due_at)

    async def _poll_loop(self) -> None:
        """Poll the versions of the tables held here (SQLite's way to hear other servers;
        PostgreSQL's safety net)."""
        interval = POLL_S_POSTGRES if self.store().dialect == "postgresql" else POLL_S
        while True:
            await asyncio.sleep(interval)
            if not self.repo.copies:
                continue
            try:
                versions = await self.run_db(self.store().table_versions, list(self.repo.copies))
            except Exception as exc:
                log.warning("polling table versions failed: %s", exc)
                continue
            for tid, version in versions.items():
                self.changed(tid, version)
