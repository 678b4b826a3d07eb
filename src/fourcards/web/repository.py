"""Tables' truth in the database, and this server's latest copy of each: load, apply, commit.

The database holds each table (rules, people, deals' histories, the ledger, the log, the
table's own state) and its ``version``. :class:`Repository` keeps this server's latest copy
of each table it has touched (a :class:`~fourcards.table.TableState` at some version) and runs
every command the one way (boardgame.io's master: fetch, check, reduce, save):

1. under the table's :class:`asyncio.Lock` (one command at a time per table on this server),
   take the copy - read again from the database only when another server wrote the table
   (:meth:`Repository.stale`) or it was never read;
2. apply the command (:func:`fourcards.table.apply`: pure; a refusal raises and changes nothing);
3. with the moves that follow at once chained to it (a bot's move, when bots move without a
   delay: ``follow``), commit its writes, the table's new state, its log lines and when it is
   next due as **one** change that succeeds only if the table still has the version read -
   written with the changes of other tables that arrive together in one transaction
   (:class:`~fourcards.web.committer.Committer`, group commit); the copy becomes the new state.

A lost race (another server committed first) reads the table again and applies the command
again (:data:`RETRIES` times, then 409), and so does a refusal computed from a copy that turns
out to be old (e.g. "not your turn" when another server already moved the turn on). A
command is therefore applied at most once per version; with an ``action_id`` at most once
at all (docs/rules.md TP-8: the table remembers it).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Coroutine
from dataclasses import replace
from typing import Any, TypeVar

from fourcards.errors import FourcardsError
from fourcards.store import TableCommit, TableStore, VersionConflict
from fourcards.table import Command, Outcome, TableError, TableState, apply
from fourcards.table.clock import due_at
from fourcards.table.loading import load
from fourcards.table.registry import GAMES
from fourcards.table.state import evolve, stored
from fourcards.table.writes import DealWrite
from fourcards.web import metrics
from fourcards.web.committer import Committer

__all__ = ["Repository", "RETRIES", "MAX_CHAINED", "Follow"]

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Times a command is applied again after losing a race with another server (then 409); before
#: each, a short random pause (up to 5 ms times the attempt) spreads out servers that collide.
RETRIES = 5
#: Moves chained to one command in one commit (a guard, never reached in play).
MAX_CHAINED = 10_000
#: The move that follows a state at once (a bot's), or ``None``.
Follow = Callable[[TableState], Coroutine[Any, Any, Command | None]]


class Repository:
    """This server's copies of tables over one store (see the module doc).

    Args:
        store: the started store (a callable: the hub's).
        run_db: runs a blocking database call in a database thread.
        origin: this server's name in change notifications.
        bot_delay: seconds before a bot's move is due (0: bots move at once).
        rng: chance outcomes (``None``: the OS CSPRNG).
        committer: writes the changes (group commit).
    """

    def __init__(self, store: Callable[[], TableStore], run_db: Callable[..., Coroutine[Any, Any, Any]], origin: str,
                 bot_delay: float, rng: random.Random | None, committer: Committer) -> None:
        self.store = store
        self.run_db = run_db
        self.committer = committer
        self.origin = origin
        self.bot_delay = bot_delay
        self.rng = rng
        self.copies: dict[str, TableState] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.stale_ids: set[str] = set()
        self.heard: dict[str, int] = {}
        self._loading: dict[str, asyncio.Future[TableState | None]] = {}
        #: The version each table is being written at by this server now (a commit in flight): a
        #: poll or a notification that reads it back is this server's own write, not another's.
        self.writing: dict[str, int] = {}

    def lock(self, table_id: str) -> asyncio.Lock:
        """The table's lock on this server."""
        lock = self.locks.get(table_id)
        if lock is None:
            lock = self.locks[table_id] = asyncio.Lock()
        return lock

    # ------------------------------------------------------------ reading

    async def read(self, table_id: str) -> TableState | None:
        """The table as the database has it now (``None``: no such table, or one this version
        cannot open - its rules or history refused now; logged).

        Raises:
            TableError: 503 when the database does not answer.
        """
        try:
            row = await self.run_db(self.store().load_table, table_id)
        except Exception as exc:
            log.exception("reading table %s failed", table_id)
            raise TableError(503, f"the database did not answer ({type(exc).__name__}); nothing changed") from None
        metrics.table_read()
        if row is None:
            return None
        game = GAMES.get(row.game)
        try:
            if game is None:
                raise TableError(404, f"unknown game {row.game!r}")
            rules: Any = game.rules_from_dict(row.rules)
            game.check_storable(rules)
            state = load(row, rules, self.copies.get(table_id))
        except (FourcardsError, TableError) as exc:  # stored by an older version that allowed them
            log.warning("table %s is not opened: its rules or history are refused now (%s); its history and "
                        "ledger stay in the database", table_id, getattr(exc, "detail", exc))
            return None
        self.copies[table_id] = state
        self.stale_ids.discard(table_id)
        return state

    async def get(self, table_id: str) -> TableState:
        """This server's copy of the table (read from the database when first needed or stale).

        Raises:
            TableError: 404 for a table that does not exist (or cannot be opened); 503 when the
                database does not answer.
        """
        t = self.copies.get(table_id)
        if t is not None and table_id not in self.stale_ids:
            return t
        if len(table_id) > 16:
            raise TableError(404, f"unknown table {table_id[:16]!r}...")
        pending = self._loading.get(table_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._loading[table_id] = pending
            try:
                state = await self.read(table_id)
                pending.set_result(state)
            except BaseException as exc:
                pending.set_exception(exc)
                pending.exception()  # retrieved: no "never retrieved" warning when nobody else waits
                raise
            finally:
                del self._loading[table_id]
        else:
            state = await asyncio.shield(pending)
        if state is None:
            raise TableError(404, f"unknown table {table_id!r}")
        return state

    async def newer(self, table_id: str) -> bool:
        """Whether the database has a newer version than this server's copy (then it is stale).

        Raises:
            TableError: 503 when the database does not answer.
        """
        t = self.copies.get(table_id)
        if t is not None and table_id in self.stale_ids:
            return True  # known stale already (another server's write was heard): no lookup
        try:
            versions = await self.run_db(self.store().table_versions, [table_id])
        except Exception as exc:
            raise TableError(503, f"the database did not answer ({type(exc).__name__})") from None
        if t is None or versions.get(table_id, -1) > t.version:
            self.stale_ids.add(table_id)
            return True
        return table_id in self.stale_ids

    async def latest(self, table_id: str) -> TableState:
        """:meth:`get`, made the database's latest first (one version lookup): what a read
        answers from, so a client sees its own writes through any server."""
        await self.get(table_id)
        if await self.newer(table_id):
            async with self.lock(table_id):
                if table_id in self.stale_ids:
                    await self.read(table_id)
        return await self.get(table_id)

    def heard_of(self, table_id: str, version: int) -> bool:
        """Another server wrote ``table_id`` at ``version``; returns whether this server's copy
        is now stale (then read it again before the next command)."""
        t = self.copies.get(table_id)
        if t is None or version <= max(t.version, self.writing.get(table_id, -1)):
            return False
        self.heard[table_id] = max(self.heard.get(table_id, -1), version)
        self.stale_ids.add(table_id)
        return True

    # ------------------------------------------------------------ changing

    @metrics.command  # counted by kind and result, timed (/metrics); the chained moves below too
    async def run(self, table_id: str, make: Callable[[TableState], Command], follow: Follow | None = None) -> Outcome:
        """Apply the command ``make(state)`` to the table and commit it (see the module doc).
        ``make`` is called again with a newer state when a race is lost (e.g. to find the
        person of a seat token again). ``follow(state)``: the move that follows at once (a
        bot's), applied and committed with it, until it gives ``None``.

        Returns:
            the outcome, its ``state`` the table's new version (with the store's ids).
        Raises:
            TableError: the command's refusal (nothing changed); 409 after the retries;
                503 when the database refuses.
        """
        async with self.lock(table_id):
            for attempt in range(RETRIES + 1):
                state = await self.get(table_id)
                try:
                    outcome = apply(state, make(state), time.time(), self.rng)
                except TableError as exc:
                    if exc.status == 503 or attempt == RETRIES or not await self.newer(table_id):
                        raise
                    continue
                if not outcome.changed:
                    return outcome
                chained: list[Command] = []
                if follow is not None:
                    outcome = await self.chain(outcome, follow, chained)
                new = outcome.state
                commit = TableCommit(table_id, state.version, stored(new), due_at(new, self.bot_delay),
                                     list(outcome.writes), self.origin, list(outcome.lines))
                self.writing[table_id] = state.version + 1
                try:
                    res = await self.committer.commit(commit)  # its time observed there (/metrics)
                except VersionConflict:
                    self.stale_ids.add(table_id)
                    if attempt == RETRIES:
                        raise TableError(409, "the table kept changing on other servers meanwhile; nothing "
                                              "changed: try again") from None
                    await asyncio.sleep(random.uniform(0, 0.005 * (attempt + 1)))
                    continue
                except Exception as exc:
                    log.exception("database write failed at table %s", table_id)
                    raise TableError(503, f"the database refused the write ({type(exc).__name__}); nothing "
                                          "changed") from None
                finally:  # (on success the copy below is updated before the loop runs anything else)
                    self.writing.pop(table_id, None)
                new = new.with_player_ids(dict(zip(outcome.new_ids, res.player_ids)))
                if new.deal is not None and new.deal.deal_id is None and new.deal.opened:
                    opened = any(isinstance(w, DealWrite) and w.open is not None for w in outcome.writes)
                    if opened and res.deal_id is not None:
                        new = evolve(new, deal=evolve(new.deal, deal_id=res.deal_id))
                new = evolve(new, version=res.version)
                self.copies[table_id] = new
                self.stale_ids.discard(table_id)
                for command in chained:  # committed: counted as if each had its own commit
                    metrics.applied(command)
                return replace(outcome, state=new)
        raise AssertionError("unreachable")  # pragma: no cover

    async def chain(self, outcome: Outcome, follow: Follow, chained: list[Command]) -> Outcome:
        """``outcome`` with the moves ``follow`` gives after it applied in turn (each to the state
        the last left): one outcome - the last state, every write, line and event in order, the
        first command's answer. A move refused (a bot's that the table no longer wants) ends
        the chain, changing nothing. The commands applied are appended to ``chained``."""
        for _ in range(MAX_CHAINED):
            command = await follow(outcome.state)
            if command is None:
                break
            try:
                more = apply(outcome.state, command, time.time(), self.rng)
            except TableError as exc:
                log.info("a chained move at table %s not made: %s", outcome.state.id, exc.detail)
                break
            if not more.changed:
                break
            chained.append(command)
            outcome = replace(outcome, state=more.state, writes=outcome.writes + more.writes,
                              lines=outcome.lines + more.lines, events=outcome.events + more.events,
                              new_ids=outcome.new_ids + more.new_ids)
        return outcome
