"""One table adapter for both games: seats, tokens, locking, the deal's engine state, the
ledger, views, sockets, bots.

A :class:`Table` drives its game only through the engine protocol
(:class:`fourcards.engine.GameState`); what differs between the games is its
:class:`TableGame` (:mod:`fourcards.web.games`). Every change runs under the
table's :class:`asyncio.Lock`: the action is applied to a *clone* of the state
(an illegal one raises and nothing changed), the new history records and ledger
entries are written in **one** database transaction, and only then the table
takes the clone and pushes each connected seat its own view. The ledger follows
the engine: the chips each player has in play (the game's ``stakes``) move
between the player and the game's escrow account; at the end the escrow pays each
player its stake plus its ``returns()`` (in a banked game the house pays the returns).
Errors are :class:`ApiError` (HTTP status + a message naming the problem).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
from collections import deque
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from fourcards.engine import GameState, LegalAction
from fourcards.errors import FourcardsError
from fourcards.store import DealClose, DealOpen, DealWrite, Entry, Store
from fourcards.web.players import default_action
from fourcards.web.schemas import ActionIn

__all__ = ["ApiError", "SeatInfo", "Connection", "Backend", "TableGame", "Table", "hash_token", "new_token",
           "BOT_NAMES"]

log = logging.getLogger(__name__)
T = TypeVar("T")

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
    """A seated player (in memory). ``balance`` in chips, kept equal to the ledger."""

    player_id: int
    seat: int
    name: str
    token_hash: str
    is_host: bool
    is_bot: bool
    bot_kind: str | None
    balance: int

    def public(self) -> dict[str, Any]:
        """What every client may see of this player (never the token)."""
        return {"seat": self.seat, "name": self.name, "is_host": self.is_host, "is_bot": self.is_bot,
                "bot_kind": self.bot_kind, "balance": self.balance}


class Connection:
    """One websocket client. Messages go out in order through one pump task;
    state views are coalesced (a client that falls behind gets the latest view,
    not every intermediate one)."""

    def __init__(self, ws: Any, seat: SeatInfo | None) -> None:
        self.ws = ws
        self.seat = seat
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

    async def run_db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a blocking database call in a worker thread."""

    def require_store(self) -> Store:
        """The started store."""

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``coro`` in the background."""


class TableGame(Protocol):
    """What one game adds to a :class:`Table`: a small strategy object, one per table
    (:class:`fourcards.web.games.PokerGame`, :class:`fourcards.web.games.KindGame`).

    ``escrow`` is the ledger account of the chips in play (``"bets"``, ``"pot"``),
    ``house`` the account that pays or takes a banked game's returns (``None``: the
    escrow pays them); ``auto_chance``: chance steps are drawn as soon as they are due
    (else the game draws them, e.g. on the host's deal). ``seen`` is an observation.
    """

    game: ClassVar[str]
    title: ClassVar[str]
    escrow: ClassVar[str]
    house: ClassVar[str | None]
    action_kinds: ClassVar[tuple[str, ...]]  # of an ActionIn
    auto_chance: ClassVar[bool]
    default_bot: ClassVar[str]
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

    def replay(self, records: Sequence[dict[str, Any]]) -> GameState:
        """The state of a deal from its stored history records (the engine's ``replay``)."""

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

    def log_lines(self, records: list[dict[str, Any]], state: GameState, number: int) -> list[str]:
        """The log lines of new ``records`` of deal ``number`` (public facts only)."""

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


class Table:
    """A table of either game (see the module doc).

    Args:
        hub: the app's :class:`Backend`. table_id, name: the table's.
        game: the game's :class:`~fourcards.web.games.TableGame` class.
        rules: the game's rules. settings: e.g. ``starting_chips`` (chips).
        players: the seated players. next_deal_number: the number of the next deal.

    Attributes:
        state: the engine state of the deal in progress (or of the next deal before it
            opens, for a game that has one then: Four Card Poker's wagers), else ``None``.
        order: the table seat of each engine player of :attr:`state` (people see table
            seats; engines count players from 0).
        last / last_order / last_number: the last finished deal.
    """

    def __init__(self, hub: Backend, table_id: str, name: str, game: type[TableGame], rules: Any,
                 settings: dict[str, Any], players: list[SeatInfo], next_deal_number: int = 1,
                 created_at: Any = None) -> None:
        self.hub = hub
        self.id = table_id
        self.name = name
        self.rules = rules
        self.settings = settings
        self.created_at = created_at
        self.players: dict[int, SeatInfo] = {p.seat: p for p in players}
        self.by_token: dict[str, SeatInfo] = {p.token_hash: p for p in players}
        self.by_id: dict[int, SeatInfo] = {p.player_id: p for p in players}
        self.lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        self.log: deque[str] = deque(maxlen=60)
        self.version = 0
        self.next_deal_number = next_deal_number
        self.deal_id: int | None = None
        self.seq = 0
        self._bot_task: asyncio.Task[None] | None = None
        self._shared: dict[str, Any] | None = None
        self._shared_version = -1
        self._rules_dict = rules.to_dict()
        self.game: TableGame = game(self)
        self.state: GameState | None = None
        self.order: list[int] = []
        self.last: GameState | None = None
        self.last_order: list[int] = []
        self.last_number: int | None = None
        self._reset()

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

    def rules_dict(self) -> dict[str, Any]:
        """The table's rules as JSON (computed once: rules never change)."""
        return self._rules_dict

    def summary(self) -> dict[str, Any]:
        """Public lobby entry of the table."""
        return {
            "id": self.id, "name": self.name, "game": self.game.game, "game_title": self.game.title,
            "rules": self.rules_dict(), "players": len(self.players), "max_seats": self.max_seats,
            "humans": sum(1 for p in self.players.values() if not p.is_bot),
            "bots": sum(1 for p in self.players.values() if p.is_bot),
            "in_progress": self.in_progress, "deals": self.next_deal_number - 1,
            "join_url": f"/t/{self.id}", "settings": dict(self.settings),
        }

    def seat_at(self, player: int, order: Sequence[int] | None = None) -> SeatInfo | None:
        """The seated player of engine ``player`` in the current deal (or in ``order``)."""
        order = self.order if order is None else order
        return self.players.get(order[player]) if 0 <= player < len(order) else None

    def name_at(self, player: int, order: Sequence[int] | None = None) -> str:
        """The name of engine ``player`` (``"seat N"`` for an empty seat)."""
        seat = self.seat_at(player, order)
        order = self.order if order is None else order
        return seat.name if seat is not None else f"seat {order[player]}"

    def player_of(self, seat: SeatInfo) -> int:
        """The engine player of ``seat`` in the current deal.

        Raises:
            ApiError: 409 when the seat is not dealt in.
        """
        if seat.seat not in self.order:
            raise ApiError(409, "you are not dealt in this deal; you play from the next one")
        return self.order.index(seat.seat)

    # ------------------------------------------------------------- seating

    def authenticate(self, token: str | None) -> SeatInfo:
        """The seat holding ``token``.

        Raises:
            ApiError: 401 without a token, 403 for a token of no seat at this table.
        """
        if not token:
            raise ApiError(401, "a seat token is required (header X-Seat-Token or ?token=)")
        seat = self.by_token.get(hash_token(token))
        if seat is None:
            raise ApiError(403, "the seat token does not belong to any seat at this table")
        return seat

    def optional_seat(self, token: str | None) -> SeatInfo | None:
        """``None`` for a spectator (no token); else as :meth:`authenticate`."""
        return None if not token else self.authenticate(token)

    @staticmethod
    def require_host(seat: SeatInfo) -> None:
        """Check that ``seat`` is the table's host.

        Raises:
            ApiError: 403 when it is not.
        """
        if not seat.is_host:
            raise ApiError(403, "only the table's host may do this (the host's ruling)")

    async def sit(self, name: str, *, is_host: bool = False, is_bot: bool = False,
                  bot_kind: str | None = None) -> tuple[SeatInfo, str]:
        """Seat a player at the next free seat with the table's starting chips.

        Returns:
            the seat and its secret token (shown once, to that player only).
        Raises:
            ApiError: 409 when the table is full or the name is taken.
        """
        async with self.lock:
            return await self._sit(name, is_host=is_host, is_bot=is_bot, bot_kind=bot_kind)

    async def _sit(self, name: str, *, is_host: bool = False, is_bot: bool = False,
                   bot_kind: str | None = None) -> tuple[SeatInfo, str]:
        if any(p.name.casefold() == name.casefold() for p in self.players.values()):
            raise ApiError(409, f"the name {name!r} is taken at this table; choose another")
        seat_no = next((s for s in range(1, self.max_seats + 1) if s not in self.players), None)
        if seat_no is None:
            raise ApiError(409, f"the table is full ({self.max_seats} seats)")
        token = new_token()
        th = hash_token(token)
        buy_in = int(self.settings.get("starting_chips", 1000))
        pid = await self.hub.run_db(self.hub.require_store().add_player, self.id, seat_no, name, th, buy_in=buy_in,
                                    is_host=is_host, is_bot=is_bot, bot_kind=bot_kind)
        seat = SeatInfo(pid, seat_no, name, th, is_host, is_bot, bot_kind, buy_in)
        self.players[seat_no] = seat
        self.by_token[th] = seat
        self.by_id[pid] = seat
        self.add_log(f"{name} sits at seat {seat_no}" + (" (bot)" if is_bot else "") + f" with {buy_in} chips")
        return seat, token

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
        added = []
        async with self.lock:
            free = self.max_seats - len(self.players)
            if count > free:
                raise ApiError(409, f"only {free} empty seat(s) left at this table; cannot add {count} bots")
            for _ in range(count):
                used = {p.name for p in self.players.values()}
                name = next((n for n in BOT_NAMES if n not in used), f"Bot {len(self.players) + 1}")
                seat, _token = await self._sit(name, is_bot=True, bot_kind=kind)
                added.append(seat)
        self.notify()
        return added

    # ------------------------------------------------------------ actions

    async def act(self, seat: SeatInfo, request: ActionIn) -> None:
        """Apply a seat's action (validated, persisted, broadcast), then let bots move.

        Raises:
            ApiError: 403 for a bot's seat; 422 for a request of the other game or a
                malformed one; 409 with no deal in progress, out of turn, for an
                action the engine refuses (its message) or without the chips.
        """
        if seat.is_bot:
            raise ApiError(403, "a bot's seat is played by the server")
        async with self.lock:
            kinds = self.game.action_kinds
            if request.kind not in kinds:
                raise ApiError(422, f"{request.kind!r} is not a {self.game.title} action: use {', '.join(kinds)}")
            state = self.state
            if state is None:
                raise ApiError(409, "no deal is in progress: the host starts the next deal")
            player = self.player_of(seat)
            seen = state.observation(player)
            action = self.game.action(request, player, seen)
            if state.actor is not None and state.actor != player:
                raise ApiError(409, f"not your turn: {self.name_at(state.actor)} is to act "
                                    "(nobody acts out of turn)")
            await self.apply(seat, action)
            self.game.acted(seat, request, seen)
        self.notify()
        await self.drive_bots()

    async def start(self, host: SeatInfo) -> None:
        """Host: deal (Four Card Poker: deal the cards; Four of a Kind: start a deal)."""
        self.require_host(host)
        async with self.lock:
            await self.game.start()
        self.notify()
        await self.drive_bots()

    async def void(self, host: SeatInfo, reason: str) -> None:
        """Host: void the deal in progress (the engine's void: every chip returned), logged."""
        self.require_host(host)
        async with self.lock:
            if not self.in_progress or self.state is None:
                raise ApiError(409, "there is no deal in progress to void")
            number, ruling = self.number, f"host ruling: {reason}"
            await self.apply(host, self.game.void(ruling), void_reason=ruling)
            self.add_log(f"Deal {number} voided ({ruling}); every chip wagered is returned")
        self.notify()

    async def apply(self, seat: SeatInfo | None, action: Any, *, void_reason: str | None = None) -> None:
        """Apply ``action`` of ``seat`` to a clone of the state, then :meth:`advance` (under the lock).

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
        """Commit ``new`` (a changed clone of :attr:`state`, or a new deal's state) under the lock.

        Its new history records and the ledger entries of the chips that moved go to
        the database in one transaction (the deal opens with its first write and closes
        when ``new`` is over); then the table takes ``new``, logs it and, at the end,
        keeps it as :attr:`last` and lays out the next deal.

        Raises:
            ApiError: 409 when a player lacks the chips; 503 when the database refuses.
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
        await self.commit(DealWrite(
            table_id=self.id, deal_id=self.deal_id, seq=self.seq, player_id=by.player_id if by else None,
            open=DealOpen(number, self.game.deal_seats(self.order), self.rules_dict()) if opening else None,
            records=records, entries=entries, close=close))
        if opening:
            self.game.opened()
        for line in self.game.log_lines(records, new, number):
            self.add_log(line)
        if new.is_terminal:
            self.last, self.last_order, self.last_number = new, self.order, number
            self.game.finished(new)
            self._reset()
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

    # ---------------------------------------------------------------- bots

    async def _bot_step(self) -> bool:
        """Make one bot move if a bot is to act (under the lock); True if one was made.
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
        """Let bots act until a person is to act. With no bot delay they act now
        (before the request returns); otherwise in a background task, one move
        per delay."""
        delay = self.hub.bot_delay
        if delay <= 0:
            await self._bots(0)
        elif self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.create_task(self._bots(delay))

    def stop(self) -> None:
        """Stop the bots' background task (at shutdown)."""
        if self._bot_task is not None:
            self._bot_task.cancel()

    async def _bots(self, delay: float) -> None:
        for _ in range(10_000):
            if delay:
                await asyncio.sleep(delay)
            try:
                async with self.lock:
                    moved = await self._bot_step()
            except Exception:
                if not delay:  # in a request: its caller gets the error
                    raise
                log.exception("bot loop failed at table %s", self.id)  # pragma: no cover - the table stays usable
                return
            if not moved:
                return
            self.notify()

    # --------------------------------------------------------- persistence

    async def commit(self, write: DealWrite) -> int:
        """Write one action's records and entries (one transaction); then update
        the balances in memory. Raises :class:`ApiError` 503 if the database
        refuses (the caller has not swapped its engine yet, so nothing changed)."""
        try:
            deal_id = await self.hub.run_db(self.hub.require_store().write_deal, write)
        except Exception as exc:
            log.exception("database write failed at table %s", self.id)
            raise ApiError(503, f"the database refused the write ({type(exc).__name__}); nothing changed") \
                from None
        self.touch()
        for e in write.entries:
            if e.account == "player" and e.player_id in self.by_id:
                self.by_id[e.player_id].balance += e.amount
        if write.open is not None:
            self.next_deal_number = write.open.number + 1
        if write.close is not None:
            self.deal_id = None
            self.seq = 0
        else:
            self.deal_id = deal_id
            self.seq = write.seq + len(write.records)
        return deal_id

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
        player = None if seat is None else self.game.deal_player(deal["seats"] or {}, seat.player_id)
        seen = state.observation(player)
        shown = seen.history[len(seen.history) - len(deal["history"]):]  # the stored ones (no start prepended)
        return {**deal, "history": [r.to_dict() for r in shown],
                "result": self.game.published_result(deal["result"], seen)}

    # -------------------------------------------------------------- views

    def add_log(self, line: str) -> None:
        """Append ``line`` to the table's log (the last 60 lines are kept) and mark the state changed."""
        self.log.append(line)
        self.touch()

    def touch(self) -> None:
        """Mark the state changed: views are rebuilt (they are cached per version)."""
        self.version += 1

    def host_actions(self, seat: SeatInfo | None) -> list[str]:
        """What the host may do now: ``add_bots``, ``deal``, ``void`` (none for other seats)."""
        if seat is None or not seat.is_host:
            return []
        out = ["add_bots"] if len(self.players) < self.max_seats else []
        if self.game.can_deal():
            out.append("deal")
        if self.in_progress:
            out.append("void")
        return out

    def view(self, seat: SeatInfo | None) -> dict[str, Any]:
        """The full state message for ``seat`` (``None``: a spectator)."""
        if self._shared_version != self.version or self._shared is None:  # cached per version
            self._shared = {
                "type": "state",
                "version": self.version,
                "table": self.summary(),
                "players": [p.public() for _, p in sorted(self.players.items())],
                "log": list(self.log)[-30:],
                "bot_kinds": list(self.game.bot_kinds()),
            }
            self._shared_version = self.version
        out: dict[str, Any] = dict(self._shared)
        out["you"] = None if seat is None else {**seat.public(), "player_id": seat.player_id}
        out.update(self.game.view(seat))
        out["host_actions"] = self.host_actions(seat)
        return out

    def notify(self) -> None:
        """Push every connected client its own latest view."""
        self.version += 1
        cache: dict[int | None, str] = {}
        for c in list(self.conns):
            key = c.seat.seat if c.seat is not None else None
            if key not in cache:
                cache[key] = json.dumps(self.view(c.seat))
            c.push(cache[key])
