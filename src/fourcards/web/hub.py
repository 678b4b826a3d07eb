"""The web app's state: the store, this server's copies of tables and its connections, and the
background work of a server that shares its database with others.

:class:`Hub` is created by :func:`fourcards.web.app.create_app` and started in the app's
lifespan. Any number of servers may share one database (``fourcards serve --workers N``, or
several machines behind a load balancer: docs/deploy.md); none holds a table:

* **commands** (:meth:`Hub.execute`): the :class:`~fourcards.web.repository.Repository` applies
  a command to its copy of the table and commits it in one versioned transaction; then the
  :class:`~fourcards.web.publisher.Publisher` pushes the views; then bots move if they move at
  once. The server only loads, applies, saves and publishes: every rule is in
  :mod:`fourcards.table`;
* **changes elsewhere**: on PostgreSQL a listening connection hears every table write
  (``LISTEN`` :data:`~fourcards.store.CHANGES_CHANNEL`, sent by the writing transaction); on
  both databases a cheap poll of the versions of the tables held here (:data:`POLL_S`) catches
  the rest. A copy found older is marked stale and, if browsers watch it here, read again and
  pushed to them;
* **due work** (a bot to move, a turn clock run out, a seat that sits out to act): each
  table's ``due_at`` is claimed by one server at a time (:meth:`fourcards.store.Store.claim_due`)
  and done by it; a server that dies holding a claim lets it come due again after
  :data:`CLAIM_LEASE_S`;
* **liveness** (docs/rules.md TP-6): every server notes each second that it is alive; a
  server that starts and finds no server was alive for more than :data:`DOWNTIME_GAP_S`
  gives every running turn its time back (:class:`~fourcards.table.TakeUp`) before it does
  any due work.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import logging
import random
import secrets
import string
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from fourcards.store import CHANGES_CHANNEL, Store
from fourcards.table import (
    AddBots,
    BotMove,
    Command,
    Outcome,
    Person,
    Sit,
    TableError,
    TableState,
    TakeUp,
    Timeout,
)
from fourcards.table.clock import due, due_at
from fourcards.table.draft import Revoked, TrainerAsked
from fourcards.table.games import TableSpec
from fourcards.table.players import agent_bots, kind_bot_names, poker_bot_names
from fourcards.table.registry import GAMES, new_table_rules
from fourcards.web.publisher import Publisher
from fourcards.web.repository import Repository
from fourcards.web.tokens import hash_token, new_token

__all__ = ["Hub", "POLL_S", "CLAIM_LEASE_S", "GC_THRESHOLDS", "DOWNTIME_GAP_S", "tune_gc"]

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
#: Seconds between a server's notes that it is alive.
BEAT_S = 1.0
#: A gap in the liveness notes longer than this is downtime (no server was alive).
DOWNTIME_GAP_S = 3.0
#: Bot moves in a row one request makes when bots move at once (a guard, never reached in play).
MAX_BOT_STEPS = 10_000

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


def bot_kinds(game: str) -> tuple[str, ...]:
    """The bots a table of ``game`` offers."""
    return GAMES[game].bot_kinds()


class Hub:
    """This server's part in the shared tables (see the module doc).

    Args:
        database_url: SQLAlchemy URL.
        bot_delay: seconds between bot moves (0: bots move at once, inside the request that
            made it their turn).
        public_url: the address people reach this server at (invitation links and QR
            codes are built from it); ``None``: pages use their own.
        rng: chance outcomes (shuffles, bots' choices); ``None``: the OS CSPRNG.
    """

    def __init__(self, database_url: str, *, bot_delay: float = 0.0, public_url: str | None = None,
                 rng: random.Random | None = None) -> None:
        self.database_url = database_url
        self.bot_delay = float(bot_delay)
        self.public_url = public_url.rstrip("/") if public_url else None
        self.rng = rng
        self.store: Store | None = None
        self.origin = secrets.token_hex(6)
        self._executor: ThreadPoolExecutor | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._wake = asyncio.Event()
        self._listener: threading.Thread | None = None
        self._stopping = threading.Event()
        self.repo = Repository(self.require_store, self.run_db, self.origin, self.bot_delay, rng)
        self.publisher = Publisher(self.spawn, self.public_url, bot_kinds)
        self._refreshing: set[str] = set()
        self._sleep_until = 0.0  # when the due-work loop looks again by itself (Unix seconds)

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Open (and migrate) the database; give running turns their time back after downtime;
        start the due-work loop, the version poll, the liveness notes and, on PostgreSQL, the
        change listener.

        Raises:
            fourcards.store.StoreError: a database that cannot be used.
        """
        kind_bot_names.cache_clear()  # plug-in bots (and agent files) are read when a server starts
        poker_bot_names.cache_clear()
        agent_bots.cache_clear()
        tune_gc()
        # SQLite writes one at a time: a second thread would only wait in SQLite's busy handler,
        # which sleeps in steps of up to 100 ms (a long tail of latencies under load). PostgreSQL:
        # two threads - as fast as eight at saturation, and the driver's Python work in more
        # threads fights the event loop for the GIL (docs/benchmarks.md)
        workers = 1 if self.database_url.startswith("sqlite") else 2
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="fourcards-db")
        try:
            self.store = await self.run_db(Store, self.database_url)
            await self._take_up()
        except BaseException:
            await self.stop()
            raise
        self.spawn(self._due_loop())
        self.spawn(self._poll_loop())
        self.spawn(self._beat_loop())
        if self.store.dialect == "postgresql":
            loop = asyncio.get_running_loop()
            self._listener = threading.Thread(target=self._listen, args=(loop,), name="fourcards-listen",
                                              daemon=True)
            self._listener.start()

    async def stop(self) -> None:
        """Cancel background tasks, note a last time that this server was alive, stop
        listening, release the database."""
        self._stopping.set()
        for t in list(self._tasks):
            t.cancel()
        if self._listener is not None:
            self._listener.join(timeout=3)
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
        self._wake.set()

    def require_store(self) -> Store:
        """The store (the hub must be started)."""
        if self.store is None:
            raise RuntimeError("the web app has not started")
        return self.store

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

    async def public_tables(self) -> list[TableState]:
        """The open public tables (the lobby's), newest first, each up to date."""
        versions = await self.run_db(self.require_store().public_tables)
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
        return sorted(out, key=lambda t: str(t.created_at or ""), reverse=True)

    def new_table_id(self) -> str:
        """A fresh random table id: 8 characters of ``a-z0-9`` (2.8e12 of them; the database
        refuses a duplicate)."""
        return "".join(secrets.choice(_ID_ALPHABET) for _ in range(8))

    async def create_table(self, spec: TableSpec, host_name: str, name: str | None) -> tuple[TableState, Person, str]:
        """Create a table, seat the host at seat 1, add the requested bots.

        Returns:
            the table, the host's seat and the host's secret token.
        Raises:
            TableError: 422 for bad rules or too many bots.
        """
        store = self.require_store()
        game, rules, settings = new_table_rules(spec)
        tid = self.new_table_id()
        bots = settings.pop("bots")
        await self.run_db(store.create_table, tid, spec.game, name or f"{host_name}'s {game.title} table",
                          rules.to_dict(), settings, spec.public)
        token = new_token()
        out = await self.execute(tid, lambda s: Sit(host_name, hash_token(token), is_host=True))
        host = out.state.players[(out.answer or {})["seat"]]
        if bots:
            out = await self.execute(tid, lambda s: AddBots(host.player_id, tuple(hash_token(new_token())
                                                                                 for _ in range(bots))))
        return out.state, out.state.people[host.player_id], token

    # ------------------------------------------------------------ commands

    async def execute(self, table_id: str, make: Callable[[TableState], Command], *, bots: bool = True) -> Outcome:
        """Apply the command ``make(state)`` to the table, commit it, carry out its events and
        push the views; then (``bots``, no bot delay) let bots move until a person is to act.

        Raises:
            TableError: the command's refusal (nothing changed), 409 lost races, 503 database.
        """
        outcome = await self.repo.run(table_id, make)
        if outcome.changed:
            await self._after(outcome)
            if bots:
                await self.drive_bots(table_id)
        return outcome

    async def _after(self, outcome: Outcome) -> None:
        state = outcome.state
        for event in outcome.events:
            if isinstance(event, Revoked):
                self.publisher.revoke(state.id, event.token_hash, event.detail)
            elif isinstance(event, TrainerAsked):
                self.publisher.ask_trainer(state, event, lambda: self.publish(state.id))
        await self.publisher.prepare(state)
        self.publisher.publish(state)
        at = due_at(state, self.bot_delay)
        if at is not None and at < self._sleep_until:  # due before the due-work loop looks again
            self.wake()

    def publish(self, table_id: str) -> None:
        """Push the views of this server's copy of the table."""
        state = self.repo.copies.get(table_id)
        if state is not None:
            self.publisher.publish(state)

    async def bot_step(self, table_id: str) -> bool:
        """Make one bot move if a bot is to act now; True if one was made. A bot that fails
        checks if it may, else folds (its move replaced by the table)."""
        state = await self.repo.get(table_id)
        key = state.clock.key
        seat = state.seat_at(key[2]) if key else None
        if key is None or seat is None or not seat.is_bot or state.paused or state.deal is None:
            return False
        game = state.deal.game
        try:
            action = await asyncio.to_thread(state.table_game.bot_action, state, seat, game.observation(key[2]),
                                             game.legal_actions(key[2]), self.rng)
        except Exception:
            log.exception("bot %s failed at table %s; it checks or folds", seat.name, table_id)
            action = None
        try:
            await self.execute(table_id, lambda s: BotMove(key, action), bots=False)
        except TableError as exc:
            log.info("bot move at table %s not made: %s", table_id, exc.detail)
            return False
        return True

    async def drive_bots(self, table_id: str) -> None:
        """With no bot delay, let bots act now until a person is to act (before the request
        returns). With a delay, a bot's move is due that long after its turn began, for
        whichever server claims it (:meth:`run_due`)."""
        if self.bot_delay > 0:
            return
        for _ in range(MAX_BOT_STEPS):
            if not await self.bot_step(table_id):
                return

    # ------------------------------------------------- changes on other servers

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
            if not self.repo.copies:
                continue
            try:
                versions = await self.run_db(self.require_store().table_versions, list(self.repo.copies))
            except Exception as exc:
                log.warning("polling table versions failed: %s", exc)
                continue
            for tid, version in versions.items():
                self.changed(tid, version)

    # ------------------------------------------------------------ liveness

    async def _take_up(self) -> None:
        """At start-up: if no server was alive for a while, give every running turn at every
        table its time back (docs/rules.md TP-6), before any due work is done."""
        store = self.require_store()
        now = time.time()
        before = await self.run_db(store.beat, now)
        if before is None or now - before <= DOWNTIME_GAP_S:
            return
        for tid in await self.run_db(store.tables_with_due_work):
            try:
                await self.execute(tid, lambda s: TakeUp(before, now), bots=False)
            except TableError as exc:
                log.warning("table %s not taken up after downtime: %s", tid, exc.detail)

    async def _beat_loop(self) -> None:
        """Note every :data:`BEAT_S` that this server is alive."""
        while True:
            await asyncio.sleep(BEAT_S)
            try:
                await self.run_db(self.require_store().beat, time.time())
            except Exception as exc:
                log.warning("noting that this server is alive failed: %s", exc)

    # ------------------------------------------------------------ due work

    async def _due_loop(self) -> None:
        """Claim the tables whose due time has come and do their due work; sleep until the
        next due time (at most :data:`DUE_SLEEP_S`), or until woken."""
        store = self.require_store()
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
                done = await self.bot_step(table_id)
            elif work is not None:
                try:
                    await self.execute(table_id, lambda s: Timeout(work[1]))
                    done = True
                except TableError as exc:
                    log.info("due work at table %s not done: %s", table_id, exc.detail)
            if done:
                await self.drive_bots(table_id)
            else:
                state = await self.repo.get(table_id)
                await self.run_db(self.require_store().set_due, table_id, state.version,
                                  due_at(state, self.bot_delay))
        except Exception:
            log.exception("due work at table %s failed", table_id)
