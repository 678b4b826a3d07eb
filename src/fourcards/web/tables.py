"""One table adapter for both games: seats, tokens, the deal's engine state, the ledger,
views, sockets, bots - over the table's truth in the database.

A :class:`Table` drives its game only through the engine protocol
(:class:`fourcards.engine.GameState`); what differs between the games is its
:class:`TableGame` (:mod:`fourcards.web.games`).

The database holds the table's truth (rules, players, the deal's history, the ledger,
the table log, the table's own ``state``: requests, time-outs, clock) and a ``version``; a
:class:`Table` is this server's copy of it at :attr:`Table.db_version`. Every change
(:meth:`Table._change`) runs under the table's :class:`asyncio.Lock`: the copy is
read again if another server wrote the table (:attr:`Table.stale`); the change is
computed (an action applied to a *clone* of the state: an illegal one raises and
nothing changed) and *staged*; then everything it wrote - history records, ledger
entries, seats, the table's state and when it is next due (a bot to move, a turn
clock to run out) - is committed in **one** transaction that succeeds only if the
table still has the version read (:meth:`fourcards.store.Store.commit_table`). A lost
race reads the table again and runs the change again (twice at most; then 409) -
never a double action. Only then each connected seat gets its own view. The ledger follows
the engine: the chips each player has in play (the game's ``stakes``) move
between the player and the game's escrow account; at the end the escrow pays each
player its stake plus its ``returns()`` (in a banked game the house pays the returns).
Errors are :class:`ApiError` (HTTP status + a message naming the problem).
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from fourcards.engine import GameState, LegalAction
from fourcards.errors import FourcardsError
from fourcards.store import (
    DealClose,
    DealOpen,
    DealWrite,
    Entry,
    NewPlayer,
    SeatChange,
    Store,
    TableCommit,
    TableRow,
    TakeBack,
    VersionConflict,
)
from fourcards.web.players import default_action
from fourcards.web.schemas import ActionIn

__all__ = ["ApiError", "SeatInfo", "SeatRequest", "Connection", "Backend", "TableGame", "Table", "hash_token",
           "new_token", "BOT_NAMES", "TIMEOUTS_TO_SIT_OUT"]

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Time-outs in a row after which a seat sits out (DESIGN.md "Table play (web) rulings").
TIMEOUTS_TO_SIT_OUT = 2
#: Seconds after which a bot to move is due for any server when bots move at once (no
#: bot delay): the server whose request made it the bot's turn moves it first; this
#: only matters if that server died in between.
BOT_RESCUE_S = 2.0
#: Times a change is run again after losing a race with another server (then 409); before
#: each, a short random pause (up to 5 ms times the attempt) spreads out servers that collide.
RETRIES = 5
#: Table log lines kept in memory (the database keeps every line: ``table_log``).
LOG_LINES = 60
_PENDING = -1  # the deal id of a deal opened by a change not yet committed

BOT_NAMES = ("Ada", "Boole", "Cray", "Dijkstra", "Euler", "Fermat", "Gauss", "Hopper", "Ito", "Jacobi",
             "Knuth", "Lovelace", "Markov")


class ApiError(Exception):
    """An HTTP error with a clear message (``{"detail": detail}``); nothing changed."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def new_token() -> str:
    """A fresh secret seat token (32 URL-safe characters from :mod:`secrets`)."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """SHA-256 hex of a seat token: what the database and memory keep."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class SeatInfo:
    """A player of the table (in memory). ``balance`` in chips, kept equal to the ledger.

    ``seat`` is 0 and ``status`` ``"left"`` for a person who left (cashed out);
    else ``status`` is ``"playing"`` or ``"sitting_out"`` (no ante, no cards, skipped).
    ``timeouts``: turn clock time-outs in a row; ``leaving``: cashes out when the deal
    it is dealt in ends; ``online``: open websocket connections.
    """

    player_id: int
    seat: int
    name: str
    token_hash: str
    is_host: bool
    is_bot: bool
    bot_kind: str | None
    balance: int
    status: str = "playing"
    timeouts: int = 0
    leaving: bool = False
    online: int = 0

    @property
    def sitting_out(self) -> bool:
        """Whether the seat sits out (or is leaving): not dealt in, its turns skipped."""
        return self.status == "sitting_out" or self.leaving

    def public(self) -> dict[str, Any]:
        """What every client may see of this player (never the token)."""
        return {"seat": self.seat or None, "name": self.name, "is_host": self.is_host, "is_bot": self.is_bot,
                "bot_kind": self.bot_kind, "balance": self.balance, "status": self.status,
                "leaving": self.leaving, "online": self.is_bot or self.online > 0}


@dataclass
class SeatRequest:
    """A request waiting for the host: a seat (``kind`` ``"seat"``; ``player_id`` set when a
    person who left asks for their seat back) or a top-up (``"top_up"``, ``amount`` chips).
    ``token_hash``: the token the asking browser holds (a seat request's future seat token)."""

    id: int
    kind: str
    name: str
    token_hash: str
    player_id: int | None = None
    amount: int = 0
    status: str = "pending"

    def public(self) -> dict[str, Any]:
        """The request as the host (and the asker) see it."""
        return {"id": self.id, "kind": self.kind, "name": self.name, "amount": self.amount or None,
                "returning": self.kind == "seat" and self.player_id is not None, "status": self.status}


class Connection:
    """One websocket client. Messages go out in order through one pump task;
    state views are coalesced (a client that falls behind gets the latest view,
    not every intermediate one)."""

    def __init__(self, ws: Any, seat: SeatInfo | None, request: SeatRequest | None = None,
                 token_hash: str | None = None) -> None:
        self.ws = ws
        self.seat = seat
        self.request = request
        self.token_hash = token_hash  # the token the client connected with (None: a spectator)
        self._latest: str | None = None
        self._queue: deque[str | None] = deque()  # None = "the latest state view"
        self._state_queued = False
        self._event = asyncio.Event()
        self.closed = False

    def push(self, message: str) -> None:
        """Queue a state view (replacing an unsent one)."""
        self._latest = message
        if not self._state_queued:
            self._state_queued = True
            self._queue.append(None)
        self._event.set()

    def push_direct(self, message: dict[str, Any]) -> None:
        """Queue a message for this client only (ack, error)."""
        self._queue.append(json.dumps(message))
        self._event.set()

    async def close(self, code: int) -> None:
        """Close the socket with ``code`` once the queued messages had a moment to go out."""
        await asyncio.sleep(0.05)
        try:
            await self.ws.close(code=code)
        except Exception:  # pragma: no cover - already closed
            pass

    async def pump(self) -> None:
        """Send queued messages until the socket closes."""
        while not self.closed:
            await self._event.wait()
            self._event.clear()
            while self._queue:
                item = self._queue.popleft()
                if item is None:
                    self._state_queued = False
                    item, self._latest = self._latest, None
                    if item is None:
                        continue
                await self.ws.send_text(item)


class Backend(Protocol):
    """What a table needs of the app (:class:`fourcards.web.hub.Hub`)."""

    bot_delay: float
    public_url: str | None
    origin: str  # this server's name in change notifications

    async def run_db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a blocking database call in a worker thread."""

    def require_store(self) -> Store:
        """The started store."""

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``coro`` in the background."""

    def wake(self) -> None:
        """A table's due time changed: look for due work now."""


class TableGame(Protocol):
    """What one game adds to a :class:`Table`: a small strategy object, one per table
    (:class:`fourcards.web.games.PokerGame`, :class:`fourcards.web.games.KindGame`).

    ``escrow`` is the ledger account of the chips in play (``"bets"``, ``"pot"``),
    ``house`` the account that pays or takes a banked game's returns (``None``: the
    escrow pays them); ``auto_chance``: chance steps are drawn as soon as they are due
    (else the game draws them, e.g. on the host's deal, or the host enters real cards; per
    table). ``seen`` is an observation.
    """

    game: ClassVar[str]
    title: ClassVar[str]
    escrow: ClassVar[str]
    house: ClassVar[str | None]
    action_kinds: ClassVar[tuple[str, ...]]  # of an ActionIn
    auto_chance: bool
    default_bot: ClassVar[str]
    word: ClassVar[str]  # what the table calls a deal: "Round" (Four Card Poker), "Deal" (Four of a Kind)
    default_clock: ClassVar[int]  # the turn clock of a new table, seconds (0: none)
    table: Table

    def __init__(self, table: Table) -> None:
        self.table = table

    @staticmethod
    def max_seats(rules: Any) -> int:
        """Seats at a table of these rules."""

    @staticmethod
    def check_storable(rules: Any) -> None:
        """Refuse rules under which some settlement could not be stored (default: all can).

        Raises:
            ApiError: 422 naming the largest settlement and the bound.
        """

    @staticmethod
    def bot_kinds() -> tuple[str, ...]:
        """The bots a table offers, by name."""

    def fresh(self) -> tuple[GameState, list[int]] | None:
        """The next deal's state before it opens and its players' table seats, if it has one then."""
        return None

    def replay(self, records: Sequence[dict[str, Any]], seats: dict[str, Any] | None = None) -> GameState:
        """The state of a deal from its stored history records (the engine's ``replay``);
        ``seats``: its stored seat map, when the deal goes on (messages name the players)."""

    def order(self, seats: dict[str, Any]) -> list[int]:
        """The table seat of each engine player of a stored deal (its seat map, from
        :meth:`deal_seats`); 0 for a player no longer seated."""

    def saved(self) -> dict[str, Any]:
        """The game's own table state kept in the database (JSON; e.g. the button)."""
        return {}

    def restore(self, saved: dict[str, Any]) -> None:
        """Take back :meth:`saved` (the table was read from the database)."""

    async def start(self) -> None:
        """The host's deal (under the lock); raises :class:`ApiError`."""

    def action(self, request: ActionIn, player: int, seen: Any) -> Any:
        """The engine action of ``request`` by ``player``; :class:`ApiError` 422/409 for a bad one."""

    def void(self, reason: str) -> Any:
        """The engine's void record (the host's ruling)."""

    def stakes(self, seen: Any) -> list[int]:
        """The chips each player has in play (whole chips), from the spectator's observation."""

    def result(self, state: GameState) -> dict[str, Any]:
        """The stored result of a settled deal."""

    def published_result(self, result: Any, seen: Any) -> Any:
        """A stored result as the viewer of ``seen`` may see it."""
        return result

    def deal_seats(self, order: Sequence[int]) -> dict[str, int]:
        """The stored seat map of a new deal (key -> player id)."""

    def deal_player(self, seats: dict[str, Any], player_id: int) -> int | None:
        """The engine player of ``player_id`` in a stored seat map (``None``: not dealt in)."""

    def log_lines(self, records: list[dict[str, Any]], state: GameState, number: int,
                  name: Callable[[int], str]) -> list[str]:
        """The log lines of new ``records`` of deal ``number`` (public facts only; ``name``
        gives an engine player's name)."""

    def withdraw(self, player: int, seen: Any) -> Any | None:
        """The engine action that takes ``player``'s chips in play back before its cards are
        out (Four Card Poker: its wagers), else ``None``."""
        return None

    def dealt_in(self, player: int, seen: Any) -> bool:
        """Whether ``player`` takes part in the deal in progress (its chips are at stake)."""

    def view(self, seat: SeatInfo | None) -> dict[str, Any]:
        """The game's part of the state message for ``seat`` (``None``: a spectator)."""

    def can_deal(self) -> bool:
        """Whether the host may deal now."""

    def bot_move(self, seat: SeatInfo, seen: Any, options: Sequence[LegalAction]) -> Any:
        """The action of bot ``seat`` (blocking: runs in a worker thread)."""

    def opened(self) -> None:
        """A deal has opened."""

    def acted(self, seat: SeatInfo, request: ActionIn, seen: Any) -> None:
        """A person's action was applied (``seen``: its observation before)."""

    def finished(self, state: GameState) -> None:
        """A deal has ended (settled or voided)."""

    async def prepare(self, state: GameState) -> None:
        """After a change of a deal in progress (e.g. odds computed in a worker thread)."""

    def cards_entered(self, state: GameState, text: str) -> GameState:
        """A clone of ``state`` with the host's real cards ``text`` dealt or turned (docs/rules.md
        FOAK-14). Default: refused.

        Raises:
            ApiError: 409 - this table deals from the server's shuffled deck.
        """
        raise ApiError(409, f"this {self.title} table deals from the server's shuffled deck: cards are entered "
                            "only at a Four of a Kind table dealt with real cards (\"dealing\": \"table\")")

    def taken_back(self, state: GameState) -> tuple[GameState, str]:
        """The deal before its last card and the log's line (docs/rules.md FOAK-15). Default: refused.

        Raises:
            ApiError: 409 - this table deals from the server's shuffled deck.
        """
        raise ApiError(409, f"this {self.title} table deals from the server's shuffled deck: no card can be "
                            "taken back (only at a table dealt with real cards)")


class Table:
    """A table of either game: this server's copy of the table's truth in the database
    (see the module doc).

    Args:
        hub: the app's :class:`Backend`.
        row: the table as read from the database (:meth:`fourcards.store.Store.load_table`).
        game: the game's :class:`~fourcards.web.games.TableGame` class.
        rules: the game's rules (of ``row.rules``).

    Attributes:
        db_version: the table's version in the database this copy is of.
        stale: another server wrote the table since (read again before the next change).
        state: the engine state of the deal in progress (or of the next deal before it
            opens, for a game that has one then: Four Card Poker's wagers), else ``None``.
        order: the table seat of each engine player of :attr:`state` (people see table
            seats; engines count players from 0).
        last / last_order / last_number: the last finished deal.
        players: the seated players by seat; by_id: every player ever seated, by player id.
        requests: seat and top-up requests waiting for the host, by id.
        settings: ``starting_chips`` (chips), ``turn_clock`` (seconds, 0: none),
            ``seat_approval`` (bool), and the game's own.
    """

    def __init__(self, hub: Backend, row: TableRow, game: type[TableGame], rules: Any) -> None:
        self.hub = hub
        self.id = row.id
        self.rules = rules
        self.created_at = row.created_at
        self._rules_dict = rules.to_dict()
        self.lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        self.name, self.settings, self.status, self.public = row.name, row.settings, row.status, row.public
        self.by_id: dict[int, SeatInfo] = {}
        self.players: dict[int, SeatInfo] = {}
        self.by_token: dict[str, SeatInfo] = {}
        self.requests: dict[int, SeatRequest] = {}
        self.denied: dict[str, SeatRequest] = {}  # by token hash: the asker sees the answer
        self._request_seq = 0
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        self._new_log: list[str] = []  # lines of the change in progress (appended to the stored log at commit)
        self.gen = 0  # grows with every change of what the views show (they are cached per gen)
        self.db_version = -1
        self.stale = False
        self.heard = -1  # the newest version other servers were heard to write
        self.next_deal_number = 1
        self.deal_id: int | None = None
        self.seq = 0
        self.clock_key: tuple[Any, ...] | None = None
        self.clock_deadline: float | None = None  # Unix time the person to act runs out of time
        self._parts: list[DealWrite | SeatChange | NewPlayer | TakeBack] = []
        self._new_seats: list[SeatInfo] = []  # seated by staged NewPlayer parts (ids come at commit)
        self._dirty = False  # memory changed by a change not yet committed
        self._saved_state: dict[str, Any] | None = None
        self.refreshing = False
        self._shared: dict[str, Any] | None = None
        self._shared_json = ""
        self._shared_version = -1
        self.game: TableGame = game(self)
        self.state: GameState | None = None
        self.order: list[int] = []
        self.last: GameState | None = None
        self.last_order: list[int] = []
        self.last_ids: dict[int, int] = {}  # engine player -> player id in the last deal
        self.last_number: int | None = None
        self._take(row)

    # ------------------------------------------------- the database's truth

    def _take(self, row: TableRow) -> None:
        """Make this copy the table of ``row`` (read from the database): players (the same
        :class:`SeatInfo` objects, updated), the table's state, the deal in progress
        (replayed from its history) and the last finished deal; connections keep their seats.

        Raises:
            FourcardsError: a stored history that does not replay.
        """
        st = row.state or {}
        extra = st.get("seats") or {}
        self.name, self.settings, self.status, self.public = row.name, row.settings, row.status, row.public
        for p in row.players:
            e = extra.get(str(p.id)) or {}
            fields: dict[str, Any] = {"seat": p.seat or 0, "name": p.name, "token_hash": p.token_hash, "is_host": p.is_host,
                      "is_bot": p.is_bot, "bot_kind": p.bot_kind, "balance": p.balance, "status": p.status,
                      "timeouts": int(e.get("timeouts", 0)), "leaving": bool(e.get("leaving", False))}
            info = self.by_id.get(p.id)
            if info is None:
                self.by_id[p.id] = SeatInfo(p.id, **fields)
            else:
                for k, v in fields.items():
                    setattr(info, k, v)
        for pid in [pid for pid in self.by_id if pid < 0]:  # seated by a change that was not committed
            del self.by_id[pid]
        self.players = {p.seat: p for p in self.by_id.values() if p.seat and p.status != "left"}
        self.by_token = {p.token_hash: p for p in self.players.values()}
        self.requests = {int(r["id"]): SeatRequest(**r) for r in st.get("requests") or []}
        self.denied = {r["token_hash"]: SeatRequest(**r) for r in st.get("denied") or []}
        self._request_seq = int(st.get("request_seq") or 0)
        self.log = deque(row.log, maxlen=LOG_LINES)
        self._new_log = []
        clock = st.get("clock") or {}
        self.clock_key = tuple(clock["key"]) if clock.get("key") else None
        self.clock_deadline = clock.get("deadline")
        self.game.restore(st.get("game") or {})
        self.next_deal_number = row.next_deal_number
        if row.deal is not None:
            self.state = self.game.replay(row.deal.records, row.deal.seats)
            self.order = self.game.order(row.deal.seats)
            self.deal_id, self.seq = row.deal.id, len(row.deal.records)
        else:
            self.deal_id, self.seq = None, 0
            self._reset()
        if row.last_deal is not None:
            self.last, self.last_order = self.game.replay(row.last_deal.records), self.game.order(row.last_deal.seats)
            self.last_number = row.last_deal.number
            self.last_ids = {player: pid for pid in row.last_deal.seats.values()
                             if (player := self.game.deal_player(row.last_deal.seats, pid)) is not None}
        else:
            self.last, self.last_order, self.last_number, self.last_ids = None, [], None, {}
        self.db_version = row.version
        self._parts.clear()
        self._new_seats.clear()
        self._dirty = self.stale = False
        self._saved_state = self._state_json()
        for seat in self.by_id.values():
            seat.online = 0
        for c in self.conns:  # the same people: seats found again by the token each connected with
            c.seat = None if c.token_hash is None else self.by_token.get(c.token_hash)
            if c.seat is not None:
                c.seat.online += 1
                c.request = None
            elif c.request is not None:
                c.request = next((r for r in self.requests.values() if r.token_hash == c.token_hash),
                                 self.denied.get(c.token_hash or ""))
        self.touch()

    async def _reload(self) -> None:
        """Read the table again from the database (another server wrote it, or a change
        failed half-way in memory) and recompute what the game derives (e.g. the odds).

        Raises:
            ApiError: 503 when the database does not answer.
        """
        try:
            row = await self.hub.run_db(self.hub.require_store().load_table, self.id)
        except Exception as exc:
            log.exception("reading table %s failed", self.id)
            self.stale = True
            raise ApiError(503, f"the database did not answer ({type(exc).__name__}); nothing changed") from None
        if row is None:  # pragma: no cover - tables are never deleted
            raise ApiError(404, f"unknown table {self.id!r}")
        self._take(row)
        if self.state is not None and self.in_progress:
            await self.game.prepare(self.state)

    async def _newer(self) -> bool:
        """Whether the database has a newer version of the table than this copy (then the
        copy is :attr:`stale`)."""
        versions = await self.hub.run_db(self.hub.require_store().table_versions, [self.id])
        if versions.get(self.id, -1) > self.db_version:
            self.stale = True
        return self.stale

    async def sync(self) -> None:
        """Make sure this copy is the database's latest (one version lookup; read again
        and push the views if another server wrote the table): what a read does before it
        answers, so a client sees its own writes through any server."""
        if await self._newer():
            await self.refresh()

    def heard_of(self, version: int) -> None:
        """Another server wrote the table at ``version``: the copy is stale if older; when
        browsers watch the table here, read it again now and push their views. (Heard while
        a change runs here, it is looked at when the change is over: that change either
        brings the copy up to date or loses its race and reads it.)"""
        self.heard = max(self.heard, version)
        if self.heard <= self.db_version or self.lock.locked():
            return
        self.stale = True
        if self.conns and not self.refreshing:
            self.hub.spawn(self.refresh())

    def _recheck(self) -> None:
        """After a change or a refresh: a version heard of meanwhile that is still newer."""
        if self.heard > self.db_version and not self.lock.locked():
            self.heard_of(self.heard)

    async def refresh(self) -> None:
        """Take a newer version another server wrote (if :attr:`stale`) and push the views."""
        self.refreshing = True
        try:
            async with self.lock:
                if not self.stale:
                    return
                await self._reload()
        except ApiError:
            return
        finally:
            self.refreshing = False
        self.notify()
        self._recheck()

    async def _change(self, body: Callable[[], Awaitable[T]]) -> T:
        """Run ``body`` - one change of the table, which stages its writes - under the lock,
        then commit what it staged in one transaction against :attr:`db_version`. A copy
        another server made stale is read again first; a lost race reads again and runs
        ``body`` again (:data:`RETRIES` times, after a short random pause, then 409), and so does a refusal computed from
        a copy that turns out to be old (e.g. "not your turn" when another server already
        moved the turn on). A change that fails after touching the copy has the copy read
        again: nothing is half-applied.

        Raises:
            ApiError: from ``body`` (nothing changed), 409 after the retries, 503 when the
                database refuses.
        """
        try:
            async with self.lock:
                return await self._attempts(body)
        finally:
            self._recheck()

    async def _attempts(self, body: Callable[[], Awaitable[T]]) -> T:
        """The attempts of :meth:`_change` (under the lock)."""
        for attempt in range(RETRIES + 1):
            if self.stale:
                await self._reload()
            try:
                out = await body()
                await self._flush()
                return out
            except VersionConflict:
                self.stale = True
                if attempt == RETRIES:
                    await self._reload()
                    raise ApiError(409, "the table kept changing on other servers meanwhile; nothing "
                                        "changed: try again") from None
                await asyncio.sleep(random.uniform(0, 0.005 * (attempt + 1)))
            except ApiError as exc:
                if self._dirty or self._parts:
                    self.stale = True
                    await self._reload()
                    raise
                if exc.status == 503 or attempt == RETRIES or not await self._newer():
                    raise
            except BaseException:
                if self._dirty or self._parts:
                    self.stale = True
                    await self._reload()
                raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _stage(self, part: DealWrite | SeatChange | NewPlayer | TakeBack) -> None:
        """Add a write to the change in progress (committed by :meth:`_flush`)."""
        self._parts.append(part)
        self._dirty = True

    async def _flush(self) -> None:
        """Commit the staged writes, the table's state and its due time in one transaction
        against :attr:`db_version` (nothing staged and the state unchanged: nothing to do).

        Raises:
            VersionConflict: another server wrote the table first (nothing written).
            ApiError: 503 when the database refuses (nothing written).
        """
        self._arm_clock()
        state = self._state_json()
        if not self._parts and not self._new_log and state == self._saved_state:
            self._dirty = False
            return
        commit = TableCommit(self.id, self.db_version, state, self._due_at(), list(self._parts), self.hub.origin,
                             list(self._new_log))
        try:
            res = await self.hub.run_db(self.hub.require_store().commit_table, commit)
        except VersionConflict:
            raise
        except ApiError:
            raise
        except Exception as exc:
            log.exception("database write failed at table %s", self.id)
            raise ApiError(503, f"the database refused the write ({type(exc).__name__}); nothing changed") \
                from None
        for seat, pid in zip(self._new_seats, res.player_ids):
            self.by_id.pop(seat.player_id, None)
            seat.player_id = pid
            self.by_id[pid] = seat
        if self.deal_id == _PENDING:
            self.deal_id = res.deal_id
        self.db_version = res.version
        self._parts.clear()
        self._new_seats.clear()
        self._new_log.clear()
        self._saved_state = state
        self._dirty = False
        self.touch()
        if commit.due_at is not None:
            self.hub.wake()

    def _state_json(self) -> dict[str, Any]:
        """The table's own state as stored (JSON): requests, time-outs, clock, the game's."""
        return {
            "requests": [dataclasses.asdict(r) for r in self.requests.values()],
            "denied": [dataclasses.asdict(r) for r in list(self.denied.values())[-20:]],
            "request_seq": self._request_seq,
            "seats": {str(p.player_id): {"timeouts": p.timeouts, "leaving": p.leaving}
                      for p in self.by_id.values() if p.timeouts or p.leaving},
            "clock": None if self.clock_key is None else {"key": list(self.clock_key),
                                                          "deadline": self.clock_deadline},
            "game": self.game.saved(),
        }

    def _due_at(self) -> float | None:
        """When the table next needs a server without a request (Unix seconds): a bot to move
        (after the bot delay), a seat that sits out to act (now), a turn clock's deadline."""
        state = self.state
        if self.status != "open" or state is None or not self.in_progress or state.actor is None:
            return None
        seat = self.seat_at(state.actor)
        if seat is None:
            return None
        if seat.is_bot:
            return time.time() + (self.hub.bot_delay if self.hub.bot_delay > 0 else BOT_RESCUE_S)
        if seat.sitting_out:
            return time.time()
        return self.clock_deadline

    # ----------------------------------------------------------- properties

    @property
    def max_seats(self) -> int:
        """Seats at this table (seat numbers 1..max_seats)."""
        return self.game.max_seats(self.rules)

    @property
    def in_progress(self) -> bool:
        """Whether a deal is open (in the database: wagers placed or cards out)."""
        return self.deal_id is not None

    @property
    def number(self) -> int:
        """The number of the deal in progress, else of the next deal."""
        return self.next_deal_number - 1 if self.in_progress else self.next_deal_number

    @property
    def turn_clock(self) -> int:
        """Seconds a person has for each action (0: no clock); the host sets it."""
        return int(self.settings.get("turn_clock") or 0)

    @property
    def seat_approval(self) -> bool:
        """Whether the host approves each new seat (default on for private tables)."""
        return bool(self.settings.get("seat_approval"))

    @property
    def host(self) -> SeatInfo | None:
        """The seated host, if any."""
        return next((p for p in self.players.values() if p.is_host), None)

    @property
    def invite_url(self) -> str | None:
        """The table's link from the server's public address (``None`` when not configured:
        a page then uses its own address)."""
        base = self.hub.public_url
        return None if not base else f"{base.rstrip('/')}/t/{self.id}"

    def rules_dict(self) -> dict[str, Any]:
        """The table's rules as JSON (computed once: rules never change)."""
        return self._rules_dict

    def summary(self) -> dict[str, Any]:
        """Public entry of the table (lobby, views); never a token."""
        host = self.host
        return {
            "id": self.id, "name": self.name, "game": self.game.game, "game_title": self.game.title,
            "rules": self.rules_dict(), "players": len(self.players), "max_seats": self.max_seats,
            "humans": sum(1 for p in self.players.values() if not p.is_bot),
            "bots": sum(1 for p in self.players.values() if p.is_bot),
            "in_progress": self.in_progress, "deals": self.next_deal_number - 1,
            "join_url": f"/t/{self.id}", "invite_url": self.invite_url, "qr_url": f"/t/{self.id}/qr.svg",
            "history_url": f"/t/{self.id}/history", "status": self.status, "public": self.public,
            "host": host.name if host else None, "word": self.game.word,
            "settings": dict(self.settings),
        }

    def seat_at(self, player: int, order: Sequence[int] | None = None) -> SeatInfo | None:
        """The seated player of engine ``player`` in the current deal (or in ``order``)."""
        order = self.order if order is None else order
        return self.players.get(order[player]) if 0 <= player < len(order) else None

    def name_at(self, player: int, order: Sequence[int] | None = None) -> str:
        """The name of engine ``player`` (``"seat N"`` for an empty seat)."""
        seat = self.seat_at(player, order)
        order = self.order if order is None else order
        if seat is not None and (order is not self.last_order or seat.player_id == self.last_ids.get(player)):
            return seat.name
        if order is self.last_order and player in self.last_ids:  # the last deal: its player may have left
            return self.by_id[self.last_ids[player]].name
        return f"seat {order[player]}"

    def player_of(self, seat: SeatInfo) -> int:
        """The engine player of ``seat`` in the current deal.

        Raises:
            ApiError: 409 when the seat is not dealt in.
        """
        if seat.seat not in self.order:
            raise ApiError(409, "you are not dealt in this deal; you play from the next one")
        return self.order.index(seat.seat)

    def dealt_in(self, seat: SeatInfo) -> bool:
        """Whether ``seat`` has chips at stake in the deal in progress."""
        if not self.in_progress or self.state is None or seat.seat not in self.order:
            return False
        return self.game.dealt_in(self.order.index(seat.seat), self.state.observation(None))

    # ------------------------------------------------------------- seating

    def authenticate(self, token: str | None) -> SeatInfo:
        """The seat holding ``token``.

        Raises:
            ApiError: 401 without a token; 409 at a closed table (everyone was cashed out:
                no token holds a seat there any more); 403 for a token of no seat at
                this table.
        """
        seat = self._seat_of_token(token)
        if seat is None:
            self.require_open()  # a closed table has no seats left: "closed" (409) says why
            raise ApiError(403, "the seat token does not belong to any seat at this table")
        return seat

    def _seat_of_token(self, token: str | None) -> SeatInfo | None:
        if not token:
            raise ApiError(401, "a seat token is required (header X-Seat-Token or ?token=)")
        return self.by_token.get(hash_token(token))

    def optional_seat(self, token: str | None) -> SeatInfo | None:
        """``None`` for a spectator (no token); else the seat holding ``token``.

        Raises:
            ApiError: 403 for a token of no seat at this table (a closed table too: its
                history stays readable to spectators).
        """
        if not token:
            return None
        seat = self._seat_of_token(token)
        if seat is None:
            raise ApiError(403, "the seat token does not belong to any seat at this table")
        return seat

    def viewer(self, token: str | None) -> tuple[SeatInfo | None, SeatRequest | None]:
        """Who ``token`` is: a seat, or a browser whose seat request waits for the host
        (or was turned down); ``(None, None)`` for a spectator without a token.

        Raises:
            ApiError: 403 for a token of no seat and no request at this table.
        """
        if not token:
            return None, None
        th = hash_token(token)
        seat = self.by_token.get(th)
        if seat is not None:
            return seat, None
        request = next((r for r in self.requests.values() if r.token_hash == th), None) or self.denied.get(th)
        if request is None:
            raise ApiError(403, "the seat token does not belong to any seat at this table")
        return None, request

    @staticmethod
    def require_host(seat: SeatInfo) -> None:
        """Check that ``seat`` is the table's host.

        Raises:
            ApiError: 403 when it is not.
        """
        if not seat.is_host:
            raise ApiError(403, "only the table's host may do this (the host's ruling)")

    def require_open(self) -> None:
        """Raises :class:`ApiError` 409 when the table is closed."""
        if self.status != "open":
            raise ApiError(409, "this table is closed: its history and settlement stay readable")

    def seat_of(self, number: int) -> SeatInfo:
        """The player at seat ``number``.

        Raises:
            ApiError: 404 for an empty seat.
        """
        seat = self.players.get(number)
        if seat is None:
            raise ApiError(404, f"seat {number} is empty at this table")
        return seat

    def _free_seat(self) -> int:
        seat_no = next((s for s in range(1, self.max_seats + 1) if s not in self.players), None)
        if seat_no is None:
            raise ApiError(409, f"the table is full ({self.max_seats} seats)")
        return seat_no

    async def sit(self, name: str, *, is_host: bool = False, is_bot: bool = False,
                  bot_kind: str | None = None) -> tuple[SeatInfo, str]:
        """Seat a new player at the next free seat with the table's starting chips (no approval).

        Returns:
            the seat and its secret token (shown once, to that player only).
        Raises:
            ApiError: 409 when the table is full or the name is taken.
        """
        token = new_token()

        async def change() -> SeatInfo:
            self._check_name(name)
            return await self._sit(name, hash_token(token), is_host=is_host, is_bot=is_bot, bot_kind=bot_kind)

        return await self._change(change), token

    def _check_name(self, name: str) -> SeatInfo | None:
        """A person who left under ``name`` (their seat and balance come back), else ``None``.

        Raises:
            ApiError: 409 when a seated player or a waiting request has the name.
        """
        key = name.casefold()
        if any(p.name.casefold() == key for p in self.players.values()):
            raise ApiError(409, f"the name {name!r} is taken at this table; choose another (your own seat on a "
                                "new phone? the host can hand it to this phone)")
        if any(r.kind == "seat" and r.name.casefold() == key for r in self.requests.values()):
            raise ApiError(409, f"{name!r} has already asked for a seat; wait for the host's answer")
        return next((p for p in self.by_id.values() if p.status == "left" and not p.is_bot
                     and p.name.casefold() == key), None)

    async def join(self, name: str) -> dict[str, Any]:
        """A person asks for a seat by name: seated at once, or (when the host approves new
        seats) a request waits for the host. A person who left gets their balance back.

        Returns:
            ``{"status": "seated", "seat", "name", "token", "balance"}`` or
            ``{"status": "pending", "request", "name", "token"}`` - the token is the seat's
            once the host approves.
        Raises:
            ApiError: 409 when the table is closed or full, or the name is taken.
        """
        token = new_token()
        th = hash_token(token)

        async def change() -> dict[str, Any]:
            self.require_open()
            former = self._check_name(name)
            self._free_seat()
            if self.seat_approval and self.host is not None:
                req = SeatRequest(self._next_request_id(), "seat", name, th, former.player_id if former else None)
                self.requests[req.id] = req
                self.add_log(f"{name} asks for a seat" + (" (back at the table)" if former else "")
                             + "; the host decides")
                return {"status": "pending", "request": req.id, "name": name, "token": token}
            seat = await self._sit(name, th, former=former)
            return {"status": "seated", "seat": seat.seat, "name": seat.name, "token": token, "balance": seat.balance}

        out = await self._change(change)
        self.notify()
        return out

    def _next_request_id(self) -> int:
        self._request_seq += 1
        return self._request_seq

    async def _sit(self, name: str, token_hash: str, *, former: SeatInfo | None = None, is_host: bool = False,
                   is_bot: bool = False, bot_kind: str | None = None) -> SeatInfo:
        """Seat a player (in a change): a new one with the buy-in, or ``former`` (who left)
        with the chips they cashed out. A table without a host gets this person as host."""
        seat_no = self._free_seat()
        is_host = is_host or (not is_bot and self.host is None)
        store = self.hub.require_store()
        if former is not None:
            totals = (await self.hub.run_db(store.chip_totals, self.id))["players"].get(former.player_id, {})
            amount = -totals.get("cash_out", 0) - totals.get("rejoin", 0)
            self._stage(SeatChange(
                self.id, moves=[(former.player_id, amount, "rejoin")],
                players={former.player_id: {"seat": seat_no, "status": "playing", "token_hash": token_hash,
                                            "is_host": is_host}}))
            seat = former
            seat.seat, seat.status, seat.token_hash, seat.is_host = seat_no, "playing", token_hash, is_host
            seat.balance, seat.timeouts, seat.leaving = seat.balance + amount, 0, False
            self.add_log(f"{name} is back at seat {seat_no} with {seat.balance} chips")
        else:
            buy_in = int(self.settings.get("starting_chips", 1000))
            self._stage(NewPlayer(seat_no, name, token_hash, buy_in, is_host, is_bot, bot_kind))
            pid = min([0, *self.by_id]) - 1  # a stand-in id until the commit gives the row's
            seat = SeatInfo(pid, seat_no, name, token_hash, is_host, is_bot, bot_kind, buy_in)
            self._new_seats.append(seat)
            self.by_id[pid] = seat
            self.add_log(f"{name} sits at seat {seat_no}" + (" (bot)" if is_bot else "") + f" with {buy_in} chips")
        self.players[seat_no] = seat
        self.by_token[token_hash] = seat
        for c in self.conns:  # a browser whose request this was: now the seat's
            if c.request is not None and c.request.token_hash == token_hash:
                c.seat, c.request = seat, None
                seat.online += 1
        return seat

    async def add_bots(self, host: SeatInfo, count: int, kind: str | None = None) -> list[SeatInfo]:
        """Host: fill ``count`` empty seats with bots of ``kind`` (``None``: the game's default).

        Raises:
            ApiError: 403 for a guest, 422 for an unknown (or empty) bot kind, 409
                when fewer seats are free.
        """
        self.require_host(host)
        kinds = self.game.bot_kinds()
        kind = self.game.default_bot if kind is None else kind
        if kind not in kinds:
            raise ApiError(422, f"unknown bot {kind!r}: choose one of {', '.join(kinds)}")

        async def change() -> list[SeatInfo]:
            self.require_open()
            free = self.max_seats - len(self.players)
            if count > free:
                raise ApiError(409, f"only {free} empty seat(s) left at this table; cannot add {count} bots")
            added = []
            for _ in range(count):
                used = {p.name for p in self.players.values()}
                name = next((n for n in BOT_NAMES if n not in used), f"Bot {len(self.players) + 1}")
                added.append(await self._sit(name, hash_token(new_token()), is_bot=True, bot_kind=kind))
            return added

        added = await self._change(change)
        self.notify()
        return added

    # ------------------------------------------------------------ host and seats

    async def decide(self, host: SeatInfo, request_id: int, approve: bool) -> SeatRequest:
        """Host: approve or turn down a waiting request (a seat, a top-up).

        Raises:
            ApiError: 403 for a guest; 404 for no such waiting request; 409 when the seat
                cannot be given now (the table full, the name taken meanwhile, closed).
        """
        self.require_host(host)

        async def change() -> SeatRequest:
            req = self.requests.get(request_id)
            if req is None:
                raise ApiError(404, f"no request {request_id} waits at this table")
            if approve:
                self.require_open()
                if req.kind == "seat":
                    del self.requests[req.id]
                    try:
                        former = self._check_name(req.name)
                        await self._sit(req.name, req.token_hash, former=former)
                    except ApiError:
                        self.requests[req.id] = req
                        raise
                    self._dirty = True
                else:
                    seat = self.by_id.get(req.player_id or -1)
                    if seat is None or seat.status == "left":
                        raise ApiError(409, f"{req.name} has left the table")
                    await self._top_up(seat, req.amount, by_host=True)
                    del self.requests[req.id]
                req.status = "approved"
            else:
                del self.requests[req.id]
                req.status = "denied"
                if req.kind == "seat":
                    self.denied[req.token_hash] = req
                self.add_log(f"The host turns down {req.name}'s " + ("request for a seat" if req.kind == "seat"
                                                                     else f"top-up of {req.amount} chips"))
            return req

        req = await self._change(change)
        self.notify()
        return req

    async def top_up(self, seat: SeatInfo, amount: int) -> dict[str, Any]:
        """A player asks for ``amount`` more chips from the bank: the host's own top-up is
        made at once, anyone else's waits for the host (recorded in the ledger as ``top_up``).

        Raises:
            ApiError: 403 for a bot; 409 when the table is closed or a top-up already waits.
        """
        if seat.is_bot:
            raise ApiError(403, "a bot's seat is played by the server")

        async def change() -> dict[str, Any]:
            self.require_open()
            if seat.is_host:
                await self._top_up(seat, amount, by_host=False)
                return {"status": "done", "balance": seat.balance}
            if any(r.kind == "top_up" and r.player_id == seat.player_id for r in self.requests.values()):
                raise ApiError(409, "your top-up already waits for the host")
            req = SeatRequest(self._next_request_id(), "top_up", seat.name, seat.token_hash, seat.player_id, amount)
            self.requests[req.id] = req
            self.add_log(f"{seat.name} asks to top up {amount} chips; the host decides")
            return {"status": "pending", "request": req.id}

        out = await self._change(change)
        self.notify()
        return out

    async def _top_up(self, seat: SeatInfo, amount: int, *, by_host: bool) -> None:
        self._stage(SeatChange(self.id, moves=[(seat.player_id, amount, "top_up")]))
        seat.balance += amount
        self.add_log(f"{seat.name} tops up {amount} chips" + (" (approved by the host)" if by_host else ""))

    async def set_status(self, by: SeatInfo, seat: SeatInfo, sitting_out: bool) -> None:
        """``seat`` sits out (no ante, no cards, its turns skipped) or comes back. A player
        does it for their own seat; the host for any.

        Raises:
            ApiError: 403 for another's seat (not the host); 409 when the table is closed.
        """
        if by is not seat:
            self.require_host(by)

        async def change() -> None:
            self.require_open()
            if sitting_out and seat.status != "sitting_out":
                await self._set_status(seat, "sitting_out")
                self.add_log(f"{seat.name} sits out" + (" (the host's ruling)" if by is not seat else ""))
            elif not sitting_out and seat.status == "sitting_out":
                await self._set_status(seat, "playing")
                self.add_log(f"{seat.name} is back")

        await self._change(change)
        self.notify()

    async def _set_status(self, seat: SeatInfo, status: str) -> None:
        self._stage(SeatChange(self.id, players={seat.player_id: {"status": status}}))
        seat.status = status
        if status == "playing":
            seat.timeouts = 0
        self.touch()

    async def leave(self, by: SeatInfo, seat: SeatInfo) -> dict[str, Any]:
        """``seat`` leaves the table (its own choice, or the host removes it): its chips are
        cashed out in the ledger (``cash_out``) and the seat is free. A seat dealt in the
        deal in progress folds at its turns and cashes out when the deal ends; Four Card
        Poker wagers placed before the deal are taken back first. The host's role passes to
        the next person seated.

        Returns:
            ``{"status": "left", "cashed_out": chips}`` or ``{"status": "leaving"}``.
        Raises:
            ApiError: 403 for another's seat (not the host); 409 when the table is closed.
        """
        if by is not seat:
            self.require_host(by)

        async def change() -> dict[str, Any]:
            self.require_open()
            if not seat.seat or seat.status == "left":
                raise ApiError(409, f"{seat.name} has already left")
            if self.dealt_in(seat) and self.state is not None:
                player = self.order.index(seat.seat)
                withdraw = self.game.withdraw(player, self.state.observation(None))
                if withdraw is not None:
                    await self.apply(seat, withdraw)
            if self.dealt_in(seat):
                seat.leaving = True
                self.add_log(f"{seat.name} leaves after this {self.game.word.lower()}")
                return {"status": "leaving"}
            return {"status": "left", "cashed_out": await self._cash_out(seat, removed=by is not seat)}

        out = await self._change(change)
        self.notify()
        return out

    async def _cash_out(self, seat: SeatInfo, *, removed: bool = False) -> int:
        """Cash ``seat`` out (in a change) and free its seat; its waiting top-up is withdrawn;
        the host's role moves on."""
        amount = seat.balance
        players: dict[int, dict[str, Any]] = {seat.player_id: {"seat": None, "status": "left", "is_host": False}}
        heir = None
        if seat.is_host:
            heir = next((p for _, p in sorted(self.players.items()) if p is not seat and not p.is_bot), None)
            if heir is not None:
                players[heir.player_id] = {"is_host": True}
        self._stage(SeatChange(self.id, moves=[(seat.player_id, -amount, "cash_out")], players=players))
        del self.players[seat.seat]
        self.by_token.pop(seat.token_hash, None)
        for req in [r for r in self.requests.values() if r.kind == "top_up" and r.player_id == seat.player_id]:
            del self.requests[req.id]  # a player who leaves takes their waiting top-up along
            req.status = "withdrawn"
            self.add_log(f"{seat.name}'s top-up of {req.amount} chips is withdrawn: {seat.name} left")
        seat.seat, seat.status, seat.is_host, seat.balance, seat.leaving = 0, "left", False, 0, False
        for c in self.conns:
            if c.seat is seat:
                c.seat = None
                seat.online = max(0, seat.online - 1)
        self.add_log(f"{seat.name} " + ("is removed by the host" if removed else "leaves the table")
                     + f" and cashes out {amount} chips")
        if heir is not None:
            heir.is_host = True
            self.add_log(f"{heir.name} is the host now")
        return amount

    async def new_device(self, host: SeatInfo, seat: SeatInfo) -> str:
        """Host: hand ``seat`` to a new phone - a fresh token; the old one stops working
        (its open connections are closed).

        Returns:
            the new token (shown once).
        Raises:
            ApiError: 403 for a guest; 409 for a bot's seat or a closed table.
        """
        self.require_host(host)
        if seat.is_bot:
            raise ApiError(409, "a bot's seat is played by the server")
        token = new_token()
        th = hash_token(token)

        async def change() -> None:
            self.require_open()
            self._stage(SeatChange(self.id, players={seat.player_id: {"token_hash": th}}))
            self.by_token.pop(seat.token_hash, None)
            seat.token_hash = th
            self.by_token[th] = seat
            for c in list(self.conns):
                if c.seat is seat:
                    c.seat = None
                    seat.online = max(0, seat.online - 1)
                    c.push_direct({"type": "error", "id": None, "status": 403,
                                   "detail": "this seat was handed to another device by the host"})
                    self.hub.spawn(c.close(4403))
            self.add_log(f"The host hands {seat.name}'s seat to a new device")

        await self._change(change)
        self.notify()
        return token

    async def configure(self, host: SeatInfo, *, public: bool | None = None, turn_clock: int | None = None,
                        seat_approval: bool | None = None) -> None:
        """Host: list the table in the lobby or not, set the turn clock (seconds, 0: none)
        and whether new seats need approval.

        Raises:
            ApiError: 403 for a guest; 409 when the table is closed.
        """
        self.require_host(host)

        async def change() -> None:
            self.require_open()
            settings = dict(self.settings)
            lines = []
            if turn_clock is not None and turn_clock != self.turn_clock:
                settings["turn_clock"] = turn_clock
                lines.append(f"The host sets the turn clock to {turn_clock} s" if turn_clock
                             else "The host turns the turn clock off")
            if seat_approval is not None and seat_approval != self.seat_approval:
                settings["seat_approval"] = seat_approval
                lines.append("New seats need the host's approval" if seat_approval
                             else "New seats no longer need the host's approval")
            pub = self.public if public is None else public
            if pub != self.public:
                lines.append("The table is public: listed in the lobby" if pub
                             else "The table is private: only its link leads here")
            self._stage(SeatChange(self.id, table={"settings": settings, "public": pub}))
            self.settings, self.public = settings, pub
            for line in lines:
                self.add_log(line)

        await self._change(change)
        self.notify()

    async def close(self, host: SeatInfo) -> dict[str, int]:
        """Host: close the table - a deal in progress is voided (every chip returned),
        everyone is cashed out, the history and the ledger stay.

        Returns:
            ``{name: chips cashed out}``.
        Raises:
            ApiError: 403 for a guest; 409 when already closed.
        """
        self.require_host(host)

        async def change() -> dict[str, int]:
            self.require_open()
            if self.in_progress and self.state is not None:
                await self.apply(host, self.game.void("host ruling: the table is closed"),
                                 void_reason="host ruling: the table is closed")
            seated = sorted(self.players.items())
            self._stage(SeatChange(
                self.id, moves=[(p.player_id, -p.balance, "cash_out") for _, p in seated],
                players={p.player_id: {"seat": None, "status": "left"} for _, p in seated},
                table={"status": "closed", "public": False}))
            out = {}
            for _, p in seated:
                out[p.name] = p.balance
                p.seat, p.status, p.balance, p.leaving = 0, "left", 0, False
            self.players.clear()
            self.by_token.clear()
            self.requests.clear()
            self.status, self.public = "closed", False
            for c in self.conns:
                c.seat = None
            self.add_log("The host closes the table; everyone is cashed out: "
                         + ", ".join(f"{n} {c}" for n, c in out.items()))
            return out

        out = await self._change(change)
        self.notify()
        return out

    # ------------------------------------------------------------ actions

    async def act(self, seat: SeatInfo, request: ActionIn) -> None:
        """Apply a seat's action (validated, persisted, broadcast), then let bots move.
        A person who acts is back (no time-outs, not sitting out).

        Raises:
            ApiError: 403 for a bot's seat; 422 for a request of the other game or a
                malformed one; 409 with no deal in progress, out of turn, for an
                action the engine refuses (its message) or without the chips.
        """
        if seat.is_bot:
            raise ApiError(403, "a bot's seat is played by the server")

        async def change() -> Any:
            self.require_open()
            kinds = self.game.action_kinds
            if request.kind not in kinds:
                raise ApiError(422, f"{request.kind!r} is not a {self.game.title} action: use {', '.join(kinds)}")
            state = self.state
            if state is None:
                raise ApiError(409, "no deal is in progress: the host starts the next deal")
            if seat.leaving:
                raise ApiError(409, "you are leaving the table: your seat folds until this deal ends")
            player = self.player_of(seat)
            seen = state.observation(player)
            action = self.game.action(request, player, seen)
            if state.actor is not None and state.actor != player:
                raise ApiError(409, f"not your turn: {self.name_at(state.actor)} is to act "
                                    "(nobody acts out of turn)")
            await self.apply(seat, action)
            seat.timeouts = 0
            if seat.status == "sitting_out":
                await self._set_status(seat, "playing")
                self.add_log(f"{seat.name} is back")
            return seen

        seen = await self._change(change)
        self.game.acted(seat, request, seen)
        self.notify()
        await self.drive_bots()

    def may_deal(self, seat: SeatInfo) -> bool:
        """The host deals; while the host sits out (its phone gone dark: two time-outs) any
        person playing at the table may, so the table never waits on the host."""
        if seat.is_host:
            return True
        host = self.host
        return (host is None or host.status == "sitting_out") and not seat.is_bot and seat.status == "playing" \
            and not seat.leaving

    async def start(self, host: SeatInfo) -> None:
        """Host: deal (Four Card Poker: deal the cards; Four of a Kind: start a deal); while
        the host sits out, any person playing (:meth:`may_deal`)."""
        if not self.may_deal(host):
            self.require_host(host)

        async def change() -> None:
            self.require_open()
            await self.game.start()

        await self._change(change)
        self.notify()
        await self.drive_bots()

    # ----------------------------------------------- real cards (docs/rules.md FOAK-14 to FOAK-16)

    async def enter_cards(self, host: SeatInfo, text: str) -> None:
        """Host, at a table dealt with real cards: the card(s) just dealt or turned (``"9c"``,
        ``"10h"``, ``"T♥"``; several separated by spaces or commas), applied through the
        engine (the game's ``cards_entered``), committed and broadcast like any action (one
        change); then bots act. All or nothing.

        Raises:
            ApiError: 403 for anyone but the host; 409 at a closed table, with no deal in
                progress, at a table dealt from the deck, for a card already seen or not due;
                422 for text that is not cards.
        """
        self.require_host(host)

        async def change() -> None:
            self.require_open()
            state = self.state
            if not self.in_progress or state is None:
                raise ApiError(409, "no deal is in progress: the host deals first, then enters its cards")
            await self.advance(self.game.cards_entered(state, text), host)

        await self._change(change)
        self.notify()
        await self.drive_bots()

    async def take_back(self, host: SeatInfo) -> None:
        """Host, at a table dealt with real cards: take back the last card entered, until the
        next action (docs/rules.md FOAK-15). The deal is rebuilt by the engine's replay of its
        history up to that card; the card's records (with what followed it by itself) leave
        the stored history in the change's one transaction (:class:`~fourcards.store.TakeBack`);
        no chips move. Logged.

        Raises:
            ApiError: 403 for anyone but the host; 409 with no card to take back (see the
                game's ``taken_back``); 503 when the database refuses (nothing changed).
        """
        self.require_host(host)

        async def change() -> None:
            self.require_open()
            state, deal_id = self.state, self.deal_id
            if not self.in_progress or state is None or deal_id is None or deal_id == _PENDING:
                raise ApiError(409, "no deal is in progress: there is no card to take back")
            new, line = self.game.taken_back(state)
            keep = len(new.history)
            assert self.seq == len(state.history) and not self._entries(state, new, None)
            self._stage(TakeBack(deal_id, keep, self.seq - keep))
            self.seq, self.state = keep, new
            self.add_log(line)
            await self.game.prepare(new)

        await self._change(change)
        self.notify()

    async def act_for(self, host: SeatInfo, seat: SeatInfo, request: ActionIn) -> None:
        """Host, at a table dealt with real cards: the move of ``seat``, a person at the table
        (e.g. without a phone; docs/rules.md FOAK-16). Checked and applied like the seat's own
        action; the records name the host as who entered it; logged.

        Raises:
            ApiError: 403 for anyone but the host, or a bot's seat; 409 at a table dealt from
                the deck, with no deal, out of turn, or an action the engine refuses; 422 for a
                request of the other game.
        """
        self.require_host(host)
        if seat.is_bot:
            raise ApiError(403, "a bot's seat is played by the server")
        if self.settings.get("dealing") != "table":
            raise ApiError(409, "the host enters players' moves only at a table dealt with real cards; here "
                                "each player acts from their own phone")

        async def change() -> None:
            self.require_open()
            kinds = self.game.action_kinds
            if request.kind not in kinds:
                raise ApiError(422, f"{request.kind!r} is not a {self.game.title} action: use {', '.join(kinds)}")
            state = self.state
            if state is None or not self.in_progress:
                raise ApiError(409, "no deal is in progress: the host starts the next deal")
            player = self.player_of(seat)
            if state.actor is None:
                raise ApiError(409, f"no move is due from {seat.name}: the next card is due first")
            if state.actor != player:
                raise ApiError(409, f"not {seat.name}'s turn: {self.name_at(state.actor)} is to act "
                                    "(nobody acts out of turn)")
            start = len(self._new_log)
            await self.apply(host, self.game.action(request, player, state.observation(player)))
            if seat is not host:  # on the move's own line: "Cat checks (entered by the host)"
                self._amend_log(start, f"{seat.name} ", " (entered by the host)")

        await self._change(change)
        self.notify()
        await self.drive_bots()

    async def void(self, host: SeatInfo, reason: str) -> None:
        """Host: void the deal in progress (the engine's void: every chip returned), logged."""
        self.require_host(host)

        async def change() -> None:
            if not self.in_progress or self.state is None:
                raise ApiError(409, "there is no deal in progress to void")
            number, ruling = self.number, f"host ruling: {reason}"
            await self.apply(host, self.game.void(ruling), void_reason=ruling)
            self.add_log(f"{self.game.word} {number} voided ({ruling}); every chip wagered is returned")

        await self._change(change)
        self.notify()

    async def apply(self, seat: SeatInfo | None, action: Any, *, void_reason: str | None = None) -> None:
        """Apply ``action`` of ``seat`` to a clone of the state, then :meth:`advance` (in a change).

        Raises:
            ApiError: 409 with the engine's message when it refuses the action.
        """
        assert self.state is not None
        new = self.state.clone()
        try:
            new.apply(action)
        except FourcardsError as exc:
            raise ApiError(409, str(exc)) from None
        await self.advance(new, seat, void_reason=void_reason)

    async def begin(self, state: GameState, order: list[int]) -> None:
        """Open a new deal: ``state`` (fresh from the game) with its players at table seats ``order``."""
        old_order, self.order, self.state = self.order, order, None
        try:
            await self.advance(state, None)
        except ApiError:
            self.order = old_order
            raise

    def _chance(self, state: GameState) -> None:
        """Draw the chance steps that follow at once (the OS CSPRNG), for a game that does."""
        while self.game.auto_chance and not state.is_terminal and state.actor is None and state.chance_step:
            state.apply_chance()

    async def advance(self, new: GameState, by: SeatInfo | None, *, void_reason: str | None = None) -> None:
        """Take ``new`` (a changed clone of :attr:`state`, or a new deal's state) in a change.

        Its new history records and the ledger entries of the chips that moved are
        staged (the deal opens with its first write and closes when ``new`` is over);
        the table takes ``new``, logs it and, at the end, keeps it as :attr:`last`,
        cashes out the seats that are leaving and lays out the next deal.

        Raises:
            ApiError: 409 when a player lacks the chips.
        """
        self._chance(new)
        old = self.state
        records = [r.to_dict() for r in new.history[len(old.history) if old is not None else 0:]]
        entries = self._entries(old, new, "refund" if void_reason else None)
        close = None
        if new.is_terminal:
            close = (DealClose("voided", {"voided": True}, void_reason) if void_reason
                     else DealClose("settled", self.game.result(new)))
        number, opening = self.number, self.deal_id is None
        self._stage_deal(DealWrite(
            table_id=self.id, deal_id=None if self.deal_id == _PENDING else self.deal_id, seq=self.seq,
            player_id=by.player_id if by else None,
            open=DealOpen(number, self.game.deal_seats(self.order), self.rules_dict()) if opening else None,
            records=records, entries=entries, close=close))
        if opening:
            self.game.opened()
        order = list(self.order)
        for line in self.game.log_lines(records, new, number, lambda p: self.name_at(p, order)):
            self.add_log(line)
        if new.is_terminal:
            self.last, self.last_order, self.last_number = new, self.order, number
            self.last_ids = {p: seat.player_id for p in range(len(order)) if (seat := self.seat_at(p, order))}
            self.game.finished(new)
            self._reset()
            for seat in [p for p in self.players.values() if p.leaving]:
                await self._cash_out(seat)
        else:
            self.state = new
            await self.game.prepare(new)

    def _reset(self) -> None:
        """Lay out the next deal (the game's state before it opens, if it has one)."""
        fresh = self.game.fresh()
        self.state, self.order = fresh if fresh is not None else (None, [])

    def _entries(self, old: GameState | None, new: GameState, memo: str | None) -> list[Entry]:
        """The ledger entries from ``old`` to ``new``: stakes moved to or from the escrow;
        at the end, the escrow pays each player its stake and return (a house, the returns).

        Raises:
            ApiError: 409 when a player's stake grows by more than its balance.
        """
        escrow, house = self.game.escrow, self.game.house
        after = self.game.stakes(new.observation(None))
        before = self.game.stakes(old.observation(None)) if old is not None else [0] * len(after)
        entries: list[Entry] = []
        for p, (a, b) in enumerate(zip(before, after)):
            seat = self.seat_at(p)
            if a == b or seat is None:
                continue
            if b - a > seat.balance:
                raise ApiError(409, f"not enough chips: {seat.name} needs {b - a} chips for this and has "
                                    f"{seat.balance}")
            entries += [Entry("player", a - b, seat.player_id, memo or "wager"), Entry(escrow, b - a, None, memo or "wager")]
        if new.is_terminal:
            memo = memo or "settle"
            for p, (stake, ret) in enumerate(zip(after, new.returns())):
                seat = self.seat_at(p)
                if seat is None:
                    continue
                entries.append(Entry("player", stake + ret, seat.player_id, memo))
                if house is None:
                    entries.append(Entry(escrow, -stake - ret, None, memo))
                else:
                    entries += [Entry(escrow, -stake, None, memo), Entry(house, -ret, None, memo)]
        return [e for e in entries if e.amount]

    # ---------------------------------------------------------- turn clock

    def _turn(self) -> tuple[SeatInfo, tuple[Any, ...]] | None:
        """The person to act in the deal in progress and a key of this very turn."""
        state = self.state
        if state is None or not self.in_progress or state.actor is None:
            return None
        seat = self.seat_at(state.actor)
        if seat is None or seat.is_bot:
            return None
        return seat, (self.number, len(state.history), state.actor)

    def _arm_clock(self) -> None:
        """At each change: a new turn of a person starts the turn clock (its deadline is kept
        with the table's state, and is when the table is due); no turn stops it."""
        turn = self._turn()
        key = None if turn is None else turn[1]
        if key == self.clock_key:
            return
        self.clock_key, self.clock_deadline = key, None
        if turn is not None and not turn[0].sitting_out and self.turn_clock:
            self.clock_deadline = time.time() + self.turn_clock

    async def run_due(self) -> None:
        """Do what the table is due for without a request (a server claimed it: see
        :meth:`fourcards.web.hub.Hub.run_due`): a bot's move, the move of a seat that sits
        out or is leaving, a person's time-out; then the bots that follow. Nothing due (another
        server did it): only the due time is written again."""
        async def change() -> bool:
            self.require_open()
            state, turn = self.state, self._turn()
            if state is None or not self.in_progress or state.actor is None:
                return False
            if turn is None:  # a bot's turn (or an empty seat's)
                return await self._bot_step()
            seat = turn[0]
            if not seat.sitting_out and (self.clock_deadline is None or self.clock_deadline > time.time() + 0.05):
                return False
            timed_out = not seat.sitting_out
            await self.apply(seat, default_action(state.legal_actions(state.actor)))
            if timed_out:
                seat.timeouts += 1
                self.add_log(f"{seat.name}'s time ran out")
            if seat.timeouts >= TIMEOUTS_TO_SIT_OUT and seat.status == "playing":
                await self._set_status(seat, "sitting_out")
                seat.timeouts = TIMEOUTS_TO_SIT_OUT
                self.add_log(f"{seat.name} sits out after {TIMEOUTS_TO_SIT_OUT} time-outs in a row "
                             f"(back by acting again, or with \"I'm back\")")
            return True

        try:
            moved = await self._change(change)
        except ApiError as exc:
            log.info("due work at table %s not done: %s", self.id, exc.detail)
            moved = False
        if not moved:
            await self.hub.run_db(self.hub.require_store().set_due, self.id, self.db_version, self._due_at())
            return
        self.notify()
        await self.drive_bots()

    def clock_view(self) -> dict[str, Any] | None:
        """The running turn clock: ``seat``, ``name``, ``seconds`` (the table's clock),
        ``deadline`` (Unix time, seconds) and ``seconds_left`` now; ``None`` when none runs."""
        turn = self._turn()
        if turn is None or self.clock_deadline is None or turn[1] != self.clock_key:
            return None
        seat = turn[0]
        return {"seat": seat.seat, "name": seat.name, "seconds": self.turn_clock,
                "deadline": round(self.clock_deadline, 3),
                "seconds_left": round(max(0.0, self.clock_deadline - time.time()), 3)}

    # ---------------------------------------------------------------- bots

    async def _bot_step(self) -> bool:
        """Make one bot move if a bot is to act (in a change); True if one was made.
        A bot that fails or whose move is refused checks if it may, else folds."""
        state = self.state
        if state is None or state.actor is None:
            return False
        player = state.actor
        seat = self.seat_at(player)
        if seat is None or not seat.is_bot:
            return False
        options: Sequence[LegalAction] = state.legal_actions(player)
        try:
            action = await asyncio.to_thread(self.game.bot_move, seat, state.observation(player), options)
            await self.apply(seat, action)
        except Exception:
            log.exception("bot %s failed at table %s; it checks or folds", seat.name, self.id)
            await self.apply(seat, default_action(options))
        return True

    async def drive_bots(self) -> None:
        """With no bot delay, let bots act now until a person is to act (before the request
        returns). With a delay, a bot's move is due that long after the change that made
        it the bot's turn, for whichever server claims it (:meth:`run_due`)."""
        if self.hub.bot_delay > 0:
            return
        for _ in range(10_000):
            if not await self._change(self._bot_step):
                return
            self.notify()

    # --------------------------------------------------------- persistence

    def _stage_deal(self, write: DealWrite) -> None:
        """Stage one action's records and entries; the balances, the deal number and the
        deal's place in memory follow at once (a change that fails reads the table again)."""
        self._stage(write)
        for e in write.entries:
            if e.account == "player" and e.player_id in self.by_id:
                self.by_id[e.player_id].balance += e.amount
        if write.open is not None:
            self.next_deal_number = write.open.number + 1
        if write.close is not None:
            self.deal_id, self.seq = None, 0
        else:
            self.deal_id = _PENDING if self.deal_id is None else self.deal_id
            self.seq = write.seq + len(write.records)

    def _deal_player(self, deal: dict[str, Any], seat: SeatInfo | None) -> int | None:
        return None if seat is None else self.game.deal_player(deal["seats"] or {}, seat.player_id)

    def publish(self, deal: dict[str, Any], seat: SeatInfo | None) -> dict[str, Any]:
        """A finished deal (:meth:`fourcards.store.Store.get_deal`) as ``seat`` may see it:
        the history is its player's ``observation(player).history``, the result is the
        game's view of it (e.g. folded Four Card Poker hands hidden from other seats).

        Raises:
            ApiError: 409 when the history does not replay.
        """
        try:
            state = self.game.replay(deal["history"])
        except FourcardsError as exc:
            raise ApiError(409, f"this deal's history does not replay ({exc})") from None
        seen = state.observation(self._deal_player(deal, seat))
        shown = seen.history[len(seen.history) - len(deal["history"]):]  # the stored ones (no start prepended)
        return {**deal, "history": [r.to_dict() for r in shown],
                "result": self.game.published_result(deal["result"], seen)}

    def deal_names(self, deal: dict[str, Any]) -> dict[int, str]:
        """Engine player -> name in a stored deal (from its seat map)."""
        names = {}
        for pid in (deal["seats"] or {}).values():
            p = self.game.deal_player(deal["seats"], pid)
            if p is not None and pid in self.by_id:
                names[p] = self.by_id[pid].name
        return names

    def replay(self, deal: dict[str, Any], seat: SeatInfo | None) -> dict[str, Any]:
        """A finished deal step by step as ``seat`` may see it: after each stored record
        where the game waited for an action or a card, the engine's replay of the history up
        to there, seen through ``observation(player)`` (the caller's; a spectator's without
        a seat). Each step: ``step`` (records replayed), ``record`` (the last one as the
        caller may see it), ``lines`` (the table log's words) and ``view`` (the observation,
        engine players 0-based; ``players`` names them).

        Raises:
            ApiError: 409 when the history does not replay.
        """
        records = deal["history"]
        try:
            final = self.game.replay(records)
        except FourcardsError as exc:
            raise ApiError(409, f"this deal's history does not replay ({exc})") from None
        base = len(final.history) - len(records)  # records the replay prepends (Four Card Poker's start)
        player = self._deal_player(deal, seat)
        names = self.deal_names(deal)
        steps: list[dict[str, Any]] = []
        for k in range(1, len(records) + 1):
            try:
                state = final if k == len(records) else self.game.replay(records[:k])
            except FourcardsError:  # a record that the engine follows by itself: shown with the next step
                continue
            if len(state.history) - base != k:
                continue
            seen = state.observation(player)
            shown = [r.to_dict() for r in seen.history[base + (steps[-1]["step"] if steps else 0):]]
            lines = self.game.log_lines(shown, state, deal["number"], lambda p: names.get(p, f"seat {p + 1}"))
            steps.append({"step": k, "record": shown[-1], "lines": lines,
                          "view": seen.to_dict(with_history=False)})  # type: ignore[call-arg]
        return {"number": deal["number"], "status": deal["status"], "player": player,
                "players": [{"player": p, "name": n} for p, n in sorted(names.items())], "steps": steps}

    async def settlement(self) -> dict[str, Any]:
        """The night's settlement from the ledger: each person's ``bought_in`` (the buy-in),
        ``top_ups``, ``cashed_out`` (chips taken from the table, less what came back on
        rejoining), ``stack`` (chips at the table now) and ``net`` (= stack + cashed_out -
        bought_in - top_ups); the ``house``'s net at Four Card Poker (``None`` at Four of a
        Kind) and the chips ``in_play`` in a deal in progress. ``total`` (every net, the
        house's and the chips in play) is 0: the ledger conserves chips.
        """
        totals = await self.hub.run_db(self.hub.require_store().chip_totals, self.id)
        rows = []
        for pid, p in sorted(self.by_id.items()):
            m = totals["players"].get(pid, {})
            bought, top_ups = m.get("buy_in", 0), m.get("top_up", 0)
            cashed = -m.get("cash_out", 0) - m.get("rejoin", 0)
            stack = sum(m.values())  # the player's balance: every entry of the player
            rows.append({"player_id": pid, "name": p.name, "seat": p.seat or None, "status": p.status, "is_bot": p.is_bot,
                         "bought_in": bought, "top_ups": top_ups, "cashed_out": cashed, "stack": stack,
                         "net": stack + cashed - bought - top_ups})
        house = totals["house"] if self.game.house is not None else None
        total = sum(r["net"] for r in rows) + (house or 0) + totals["in_play"]
        return {"table": self.id, "name": self.name, "game": self.game.game, "players": rows, "house": house,
                "in_play": totals["in_play"], "total": total}

    # -------------------------------------------------------------- views

    def add_log(self, line: str) -> None:
        """Append ``line`` to the table's log (the change's commit appends it to the stored log;
        the last :data:`LOG_LINES` are kept in memory) and mark the state changed."""
        self.log.append(line)
        self._new_log.append(line)
        self._dirty = True
        self.touch()

    @property
    def version(self) -> int:
        """The version the views carry: the table's version in the database, so a client
        never sees one go backwards, across servers and restarts (views of one version may
        differ in what is not stored: who is online, the odds being computed)."""
        return self.db_version

    def _amend_log(self, start: int, prefix: str, suffix: str) -> None:
        """Add ``suffix`` to the first line of this change from the ``start``-th on that begins
        with ``prefix`` (in the log and in the lines the change will store)."""
        for i in range(start, len(self._new_log)):
            line = self._new_log[i]
            if line.startswith(prefix):
                self._new_log[i] = line + suffix
                back = len(self._new_log) - i  # the same line, counted from the log's end
                if back <= len(self.log) and self.log[-back] == line:
                    self.log[-back] = line + suffix
                self.touch()
                return

    def touch(self) -> None:
        """Mark the view changed: views are rebuilt (they are cached per change)."""
        self.gen += 1

    def host_actions(self, seat: SeatInfo | None) -> list[str]:
        """What the host may do now: ``add_bots``, ``deal``, ``void``, and at any time
        ``seats`` (sit out, remove, hand to a new device), ``requests`` (approve or turn
        down), ``settings`` (public, turn clock, seat approval), ``close``; another person
        only ``deal``, while the host sits out (:meth:`may_deal`); none at a closed table."""
        if seat is None or self.status != "open":
            return []
        if not seat.is_host:
            return ["deal"] if self.may_deal(seat) and self.game.can_deal() else []
        out = ["add_bots"] if len(self.players) < self.max_seats else []
        if self.game.can_deal():
            out.append("deal")
        if self.in_progress:
            out.append("void")
        return [*out, "seats", "requests", "settings", "close"]

    def _shared_view(self) -> tuple[dict[str, Any], str]:
        """The part of every view that is the same for everyone, and its JSON without the
        closing brace (cached per change)."""
        if self._shared_version != self.gen or self._shared is None:
            self._shared = {
                "type": "state",
                "version": self.version,
                "table": self.summary(),
                "players": [p.public() for _, p in sorted(self.players.items())],
                "log": list(self.log),
                "bot_kinds": list(self.game.bot_kinds()),
            }
            self._shared_json = json.dumps(self._shared)[:-1]
            self._shared_version = self.gen
        return self._shared, self._shared_json

    def _own_view(self, seat: SeatInfo | None, request: SeatRequest | None) -> dict[str, Any]:
        """The part of a view that is ``seat``'s own (its cards, actions, requests...)."""
        out: dict[str, Any] = {"you": None if seat is None else {**seat.public(), "player_id": seat.player_id,
                                                                "timeouts": seat.timeouts}}
        out.update(self.game.view(seat))
        out["host_actions"] = self.host_actions(seat)
        out["clock"] = self.clock_view()
        out["request"] = None if request is None else request.public()
        out["requests"] = ([r.public() for r in self.requests.values()] if seat is not None and seat.is_host
                           else [])
        return out

    def view(self, seat: SeatInfo | None, request: SeatRequest | None = None) -> dict[str, Any]:
        """The full state message for ``seat`` (``None``: a spectator; ``request``: the
        viewer's own seat request waiting for the host)."""
        return {**self._shared_view()[0], **self._own_view(seat, request)}

    def view_json(self, seat: SeatInfo | None, request: SeatRequest | None = None) -> str:
        """:meth:`view` as JSON text, the shared part serialized once per change for every seat."""
        own = json.dumps(self._own_view(seat, request))
        return self._shared_view()[1] + "," + own[1:]

    def notify(self) -> None:
        """Push every connected client its own latest view."""
        self.touch()
        cache: dict[Any, str] = {}
        for c in list(self.conns):
            key = (c.seat.seat if c.seat is not None else None, c.request.id if c.request is not None else None)
            if key not in cache:
                cache[key] = self.view_json(c.seat, c.request)
            c.push(cache[key])
