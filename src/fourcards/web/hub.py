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
from dataclasses import replace
from typing import Any, TypeVar

from fourcards.errors import FourcardsError
from fourcards.kind import rules as kind_rules
from fourcards.poker import rules as poker_rules
from fourcards.store import Store
from fourcards.web.kind_table import KindTable, kind_rules_from_dict
from fourcards.web.players import Advisor
from fourcards.web.schemas import CreateTable, RulesOptions
from fourcards.web.tables import ApiError, PokerTable, SeatInfo, Table, poker_rules_from_dict

__all__ = ["Hub", "build_rules", "check_poker_chips", "check_kind_chips", "POKER_FIELDS", "KIND_FIELDS"]

log = logging.getLogger(__name__)
T = TypeVar("T")

POKER_FIELDS = ("ante_bonus", "aces_up", "min_ante", "max_ante", "min_aces_up", "max_aces_up", "win_cap")
KIND_FIELDS = ("ante", "min_bet", "max_bet", "max_raises", "redeal")
_ID_ALPHABET = string.ascii_lowercase + string.digits


def build_rules(game: str, preset: str | None, options: RulesOptions) -> Any:
    """The rules of a new table: a preset plus custom fields.

    Raises:
        ApiError: 422 for an unknown preset, a field of the other game, or
            invalid rules (the engine's message).
    """
    given = {k: v for k, v in options.model_dump().items() if v is not None}
    own, other, title = (POKER_FIELDS, KIND_FIELDS, "Four Card Poker") if game == "poker" else \
        (KIND_FIELDS, POKER_FIELDS, "Four of a Kind")
    wrong = [k for k in given if k in other]
    if wrong:
        raise ApiError(422, f"rules field(s) {', '.join(wrong)} do not apply to {title}")
    try:
        if game == "poker":
            rules = poker_rules.get_rules(preset or "live", ante_bonus=given.pop("ante_bonus", None),
                                          aces_up=given.pop("aces_up", None))
            if given:
                rules = replace(rules, name=rules.name if rules.name.endswith("custom") else f"{rules.name}+custom",
                                **given)
            return rules
        return kind_rules.get_rules(preset or "family", **given)
    except FourcardsError as exc:
        raise ApiError(422, str(exc)) from None
    except TypeError as exc:  # pragma: no cover - guarded by the schema
        raise ApiError(422, str(exc)) from None


def _min_play_multiple(rules: Any) -> int:
    return int(min(rules.decision_multiples))


def check_poker_chips(rules: Any, starting_chips: int, bot_ante: int | None) -> int:
    """The bots' ante of a new Four Card Poker table, checked against its rules
    and the seats' buy-in.

    A seat must afford the table's minimum ante; bots must afford their ante
    plus the smallest play bet (else they could only fold). With no
    ``bot_ante`` the default is 10 chips, brought within the ante limits and
    lowered to what the buy-in affords.

    Raises:
        ApiError: 422 naming ``starting_chips`` or ``bot_ante``.
    """
    lo, hi = int(rules.min_ante), int(rules.max_ante)
    need = 1 + _min_play_multiple(rules)  # the ante and the smallest play bet, in antes
    if starting_chips < lo:
        raise ApiError(422, f"starting_chips: {starting_chips} chips do not cover this table's minimum "
                            f"ante of {lo}")
    if bot_ante is None:
        return max(lo, min(10, hi, starting_chips // need))
    if not lo <= bot_ante <= hi:
        raise ApiError(422, f"bot_ante: {bot_ante} is outside this table's ante limits {lo}-{hi} "
                            f"({rules.name} rules)")
    if bot_ante * need > starting_chips:
        raise ApiError(422, f"bot_ante: bots need {bot_ante * need} chips for an ante of {bot_ante} and a "
                            f"play bet of at least {bot_ante * (need - 1)}, but starting_chips is "
                            f"{starting_chips}")
    return bot_ante


def check_kind_chips(rules: Any, starting_chips: int) -> None:
    """A new Four of a Kind table's buy-in must cover its ante.

    Raises:
        ApiError: 422 naming ``starting_chips``.
    """
    if starting_chips < int(rules.ante):
        raise ApiError(422, f"starting_chips: {starting_chips} chips do not cover this table's ante "
                            f"of {rules.ante}: every seat would sit out")


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
        self.advisor = Advisor()
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
            cls: type[Table]
            rules: Any
            if row.game == "poker":
                cls, rules = PokerTable, poker_rules_from_dict(row.rules)
            else:
                cls, rules = KindTable, kind_rules_from_dict(row.rules)
            t = cls(self, row.id, row.name, rules, row.settings, players, row.next_deal_number, row.created_at)
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
            if table._bot_task is not None:
                table._bot_task.cancel()
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
        rules = build_rules(req.game, req.preset, req.rules)
        max_seats = rules.max_seats if req.game == "poker" else rules.max_players
        if req.bots + 1 > max_seats:
            raise ApiError(422, f"bots: at most {max_seats - 1} bots fit with the host at this table")
        settings: dict[str, Any] = {"starting_chips": req.starting_chips}
        if req.game == "poker":
            settings["bot_ante"] = check_poker_chips(rules, req.starting_chips, req.bot_ante)
        else:
            if req.bot_ante is not None:
                raise ApiError(422, "bot_ante applies to Four Card Poker tables only "
                                    "(Four of a Kind bots pay the table's ante)")
            check_kind_chips(rules, req.starting_chips)
        tid = self.new_table_id()
        title = "Four Card Poker" if req.game == "poker" else "Four of a Kind"
        name = req.name or f"{req.host_name}'s {title} table"
        await self.run_db(self.store.create_table, tid, req.game, name, rules.to_dict(), settings)
        cls: type[Table] = PokerTable if req.game == "poker" else KindTable
        table = cls(self, tid, name, rules, settings, [], 1)
        self.tables[tid] = table
        host, token = await table.sit(req.host_name, is_host=True)
        if req.bots:
            await table.add_bots(host, req.bots)
        return table, host, token
