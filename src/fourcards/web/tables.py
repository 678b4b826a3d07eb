"""Table managers: the live engine object of each table, its seats, its sockets.

One :class:`Table` per table in memory (:class:`PokerTable` for Four Card Poker,
:class:`fourcards.web.kind_table.KindTable` for Four of a Kind). Every change
goes through the table's :class:`asyncio.Lock` and follows one pattern:

1. validate (token, turn, chips) and apply the action to a *clone* of the
   engine object - an illegal action raises and nothing has changed;
2. write the action's history records and ledger entries in **one** database
   transaction (:meth:`fourcards.store.Store.write_deal`);
3. only then swap the clone in, update balances and push each connected seat
   its own view (its ``observation(seat)`` plus table data).

Seats see only their observation: the dealer's hole cards, other seats' Four
Card Poker cards and the deck never leave the server before showdown.

Errors are :class:`ApiError` (HTTP status + a message naming the problem).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
from collections import deque
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any, ClassVar

from fourcards.cards import parse_card
from fourcards.errors import FourcardsError
from fourcards.poker.round import Fold, Phase, PlaceWagers, Play, PokerRound, Void
from fourcards.poker.rules import PokerRules, parse_aces_up, parse_ante_bonus
from fourcards.store import DealClose, DealOpen, DealWrite, Entry
from fourcards.web.players import POKER_BOT_KINDS, poker_bot_decision
from fourcards.web.schemas import ActionIn

if TYPE_CHECKING:  # pragma: no cover
    from fourcards.web.hub import Hub

__all__ = ["ApiError", "SeatInfo", "Connection", "Table", "PokerTable", "hash_token", "new_token",
           "poker_rules_from_dict", "replace_rules", "BOT_NAMES"]

log = logging.getLogger(__name__)

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


def poker_rules_from_dict(d: dict[str, Any]) -> PokerRules:
    """Inverse of :meth:`PokerRules.to_dict` (tables as ``"25/20/2"`` text).

    Raises:
        RulesError: invalid values.
    """
    known = {f.name for f in fields(PokerRules)}
    kwargs = {k: v for k, v in d.items() if k in known}
    kwargs["ante_bonus"] = parse_ante_bonus(str(d["ante_bonus"]))
    kwargs["aces_up"] = parse_aces_up(str(d["aces_up"]))
    kwargs["play_multiples"] = tuple(d.get("play_multiples", (1, 2, 3)))
    return PokerRules(**kwargs)


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


class Table:
    """Base of the table managers (seats, locking, persistence, sockets, bots).

    Subclasses set :attr:`game` and implement :meth:`_act`, :meth:`_start`,
    :meth:`_void`, :meth:`_bot_step`, :meth:`view_deal` and :attr:`in_progress`.
    """

    game: ClassVar[str] = ""
    game_title: ClassVar[str] = ""
    default_bot_kind: ClassVar[str] = ""

    def __init__(self, hub: Hub, table_id: str, name: str, rules: Any, settings: dict[str, Any],
                 players: list[SeatInfo], next_deal_number: int = 1, created_at: Any = None) -> None:
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

    # ----------------------------------------------------------- properties

    @property
    def max_seats(self) -> int:
        """Seats at this table (seat numbers 1..max_seats).

        Raises:
            NotImplementedError: in the base class; each subclass implements it.
        """
        raise NotImplementedError

    @property
    def in_progress(self) -> bool:
        """Whether a deal is open (wagers placed or cards out)."""
        return self.deal_id is not None

    def rules_dict(self) -> dict[str, Any]:
        """The table's rules as JSON (computed once: rules never change)."""
        return self._rules_dict

    def summary(self) -> dict[str, Any]:
        """Public lobby entry of the table."""
        return {
            "id": self.id, "name": self.name, "game": self.game, "game_title": self.game_title,
            "rules": self.rules_dict(), "players": len(self.players), "max_seats": self.max_seats,
            "humans": sum(1 for p in self.players.values() if not p.is_bot),
            "bots": sum(1 for p in self.players.values() if p.is_bot),
            "in_progress": self.in_progress, "deals": self.next_deal_number - 1,
            "join_url": f"/t/{self.id}", "settings": self.public_settings(),
        }

    def public_settings(self) -> dict[str, Any]:
        """A copy of the table's settings for the lobby (e.g. ``starting_chips``, poker's ``bot_ante``; amounts in chips)."""
        return {k: v for k, v in self.settings.items()}

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

    def _free_seat(self) -> int:
        for s in range(1, self.max_seats + 1):
            if s not in self.players:
                return s
        raise ApiError(409, f"the table is full ({self.max_seats} seats)")

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
        seat_no = self._free_seat()
        token = new_token()
        th = hash_token(token)
        buy_in = int(self.settings.get("starting_chips", 1000))
        pid = await self.hub.run_db(self.hub.require_store().add_player, self.id, seat_no, name, th, buy_in=buy_in,
                                    is_host=is_host, is_bot=is_bot, bot_kind=bot_kind)
        seat = SeatInfo(pid, seat_no, name, th, is_host, is_bot, bot_kind, buy_in)
        self.players[seat_no] = seat
        self.touch()
        self.by_token[th] = seat
        self.by_id[pid] = seat
        self.add_log(f"{name} sits at seat {seat_no}" + (" (bot)" if is_bot else "") + f" with {buy_in} chips")
        return seat, token

    async def add_bots(self, host: SeatInfo, count: int, kind: str | None = None) -> list[SeatInfo]:
        """Host: fill ``count`` empty seats with bots."""
        self.require_host(host)
        kind = kind or self.default_bot_kind
        if kind not in self.bot_kinds():
            raise ApiError(422, f"unknown bot {kind!r}: choose one of {', '.join(self.bot_kinds())}")
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

    def bot_kinds(self) -> tuple[str, ...]:
        """Bot kinds this table offers for :meth:`add_bots` (base: only :attr:`default_bot_kind`)."""
        return (self.default_bot_kind,)

    # ------------------------------------------------------------ actions

    async def act(self, seat: SeatInfo, action: ActionIn) -> None:
        """Apply a seat's action (validated, persisted, broadcast), then let bots move."""
        if seat.is_bot:
            raise ApiError(403, "a bot's seat is played by the server")
        async with self.lock:
            await self._act(seat, action)
        self.notify()
        await self.drive_bots()

    async def start(self, host: SeatInfo) -> None:
        """Host: deal (Four Card Poker: deal the cards; Four of a Kind: start a deal)."""
        self.require_host(host)
        async with self.lock:
            await self._start()
        self.notify()
        await self.drive_bots()

    async def void(self, host: SeatInfo, reason: str) -> None:
        """Host: void the deal in progress - every wager / the pot refunded, logged."""
        self.require_host(host)
        async with self.lock:
            if not self.in_progress:
                raise ApiError(409, "there is no deal in progress to void")
            await self._void(f"host ruling: {reason}", host)
        self.notify()

    async def _act(self, seat: SeatInfo, action: ActionIn) -> None:
        raise NotImplementedError

    async def _start(self) -> None:
        raise NotImplementedError

    async def _void(self, reason: str, by: SeatInfo | None) -> None:
        raise NotImplementedError

    async def _bot_step(self) -> bool:
        """Make one bot move if a bot is to act (under the lock); True if one was made."""
        raise NotImplementedError

    async def drive_bots(self) -> None:
        """Let bots act until a person is to act. With no bot delay they act now
        (before the request returns); otherwise in a background task, one move
        per delay."""
        delay = self.hub.bot_delay
        if delay <= 0:
            for _ in range(10_000):
                async with self.lock:
                    moved = await self._bot_step()
                if not moved:
                    return
                self.notify()
            return
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.create_task(self._bot_loop(delay))

    async def _bot_loop(self, delay: float) -> None:
        try:
            while True:
                await asyncio.sleep(delay)
                async with self.lock:
                    moved = await self._bot_step()
                if not moved:
                    return
                self.notify()
        except asyncio.CancelledError:  # pragma: no cover - shutdown
            raise
        except Exception:  # pragma: no cover - logged, the table stays usable
            log.exception("bot loop failed at table %s", self.id)

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

    def seat_map(self) -> dict[str, int]:
        """Table seat number (as a string) -> player id, for every seated player, in seat order."""
        return {str(s): p.player_id for s, p in sorted(self.players.items())}

    # -------------------------------------------------------------- views

    def add_log(self, line: str) -> None:
        """Append ``line`` to the table's log (the last 60 lines are kept) and mark the state changed."""
        self.log.append(line)
        self.touch()

    def touch(self) -> None:
        """Mark the state changed: views are rebuilt (they are cached per version)."""
        self.version += 1

    def view(self, seat: SeatInfo | None) -> dict[str, Any]:
        """The full state message for ``seat`` (``None``: a spectator)."""
        if self._shared_version != self.version or self._shared is None:  # cached per version
            self._shared = {
                "type": "state",
                "version": self.version,
                "table": self.summary(),
                "players": [p.public() for _, p in sorted(self.players.items())],
                "log": list(self.log)[-30:],
                "bot_kinds": list(self.bot_kinds()),
            }
            self._shared_version = self.version
        out: dict[str, Any] = dict(self._shared)
        out["you"] = None if seat is None else {**seat.public(), "player_id": seat.player_id}
        out.update(self.view_deal(seat))
        return out

    def view_deal(self, seat: SeatInfo | None) -> dict[str, Any]:
        """The game-specific part of :meth:`view` for ``seat`` (``None``: a spectator).

        Raises:
            NotImplementedError: in the base class; each subclass implements it.
        """
        raise NotImplementedError

    def notify(self) -> None:
        """Push every connected client its own latest view."""
        self.version += 1
        cache: dict[int | None, str] = {}
        for c in list(self.conns):
            key = c.seat.seat if c.seat is not None else None
            if key not in cache:
                cache[key] = json.dumps(self.view(c.seat))
            c.push(cache[key])


# =====================================================================
# Four Card Poker
# =====================================================================


class PokerTable(Table):
    """A Four Card Poker table: seats 1-9 against the dealer (the house).

    The round's players are ``0..max_seats-1``: table seat ``s`` is player
    ``s - 1`` (:func:`_player`, :func:`_seat`). A round opens when the first seat places its wagers; the host deals (bots
    place their ``bot_ante`` first); seats decide in seat order; the round
    settles at the last decision. Ledger: wagers move player -> ``bets``; at
    settlement ``bets`` returns each stake to its player and the house pays or
    takes the seat's net result.
    """

    game = "poker"
    game_title = "Four Card Poker"
    default_bot_kind = "simple"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.round = self._fresh_round()
        self.last_round: PokerRound | None = None
        self.last_number: int | None = None
        self.trainer: dict[int, dict[str, Any]] = {}
        self.trainer_pending: set[int] = set()

    @property
    def max_seats(self) -> int:
        """Seats per round, ``rules.max_seats`` (1..9)."""
        return self.rules.max_seats

    def bot_kinds(self) -> tuple[str, ...]:
        """Four Card Poker bot kinds (:data:`fourcards.web.players.POKER_BOT_KINDS`)."""
        return POKER_BOT_KINDS

    def _fresh_round(self) -> PokerRound:
        return PokerRound(self.rules, self.rules.max_seats)

    @property
    def bot_ante(self) -> int:
        """The ante bots place, in chips: the ``bot_ante`` setting (default 10) clamped to ``rules.min_ante..max_ante``."""
        ante = int(self.settings.get("bot_ante") or 10)
        return max(self.rules.min_ante, min(ante, self.rules.max_ante))

    # ------------------------------------------------------------ helpers

    def _write(self, records: list[dict[str, Any]], entries: list[Entry], player: SeatInfo | None,
               close: DealClose | None = None) -> DealWrite:
        opening = self.deal_id is None
        return DealWrite(
            table_id=self.id, deal_id=self.deal_id,
            open=DealOpen(self.next_deal_number, self.seat_map(), self.rules_dict()) if opening else None,
            seq=self.seq, player_id=player.player_id if player else None,
            records=records, entries=entries, close=close)

    def _settlement(self, rnd: PokerRound) -> tuple[list[Entry], DealClose]:
        entries: list[Entry] = []
        result: dict[str, Any] = {"seats": {}, "dealer_cards": [str(c) for c in rnd.dealer_cards],
                                  "house_net": rnd.house_net}
        for i, res in rnd.results.items():
            p = self.players[_seat(i)]
            stake = rnd.total_wagered(i)
            entries += [Entry("bets", -stake, None, "settle"),
                        Entry("player", stake + res.net, p.player_id, "settle"),
                        Entry("house", -res.net, None, "settle")]
            result["seats"][str(_seat(i))] = {"player_id": p.player_id, "name": p.name, **res.to_dict()}
        return [e for e in entries if e.amount], DealClose("settled", result)

    async def _apply(self, new: PokerRound, records: list[dict[str, Any]], entries: list[Entry],
                     player: SeatInfo | None, line: str | None = None) -> None:
        close = None
        if new.phase is Phase.SETTLED:
            more, close = self._settlement(new)
            entries = entries + more
        number = self.next_deal_number if self.deal_id is None else self.next_deal_number - 1
        await self.commit(self._write(records, entries, player, close))
        if line:
            self.add_log(line)
        if new.is_terminal:
            self.last_round, self.last_number = new, number
            self.round = self._fresh_round()
            if new.phase is Phase.SETTLED:
                self._log_showdown(new)
        else:
            self.round = new

    def _log_showdown(self, rnd: PokerRound) -> None:
        from fourcards.poker.round import describe_result

        dealer = " ".join(parse_card(str(c)).pretty for c in rnd.dealer_cards)
        self.add_log(f"Showdown: the dealer shows {dealer} - {_dealer_desc(rnd)}")
        for i, res in rnd.results.items():
            self.add_log(f"{self.players[_seat(i)].name}: {describe_result(res)}")

    def _new_round_if_first(self) -> None:
        if self.deal_id is None:
            self.trainer.clear()
            self.trainer_pending.clear()

    # ------------------------------------------------------------ actions

    async def _act(self, seat: SeatInfo, a: ActionIn) -> None:
        if a.kind == "wager":
            await self._wager(seat, a.ante or 0, a.aces_up or 0)
        elif a.kind in ("fold", "play"):
            await self._decide(seat, a)
        else:
            raise ApiError(422, f"{a.kind!r} is not a Four Card Poker action: use wager, fold or play")

    async def _wager(self, seat: SeatInfo, ante: int, aces_up: int) -> None:
        if self.round.phase is not Phase.WAGERS:
            raise ApiError(409, "wagers are closed: the cards are out; wait for the next round")
        if ante + aces_up > seat.balance:
            raise ApiError(409, f"not enough chips: ante {ante} + Aces Up {aces_up} is more than your "
                                f"balance of {seat.balance}")
        new = self.round.clone()
        action = PlaceWagers(_player(seat.seat), ante, aces_up)
        try:
            new.apply(action)
        except FourcardsError as exc:
            raise ApiError(409, str(exc)) from None
        self._new_round_if_first()
        entries = []
        for memo, amt in (("ante", ante), ("aces_up", aces_up)):
            if amt:
                entries += [Entry("player", -amt, seat.player_id, memo), Entry("bets", amt, None, memo)]
        parts = [f"ante {ante}"] if ante else []
        if aces_up:
            parts.append(f"Aces Up {aces_up}")
        await self._apply(new, [action.to_dict()], entries, seat, f"{seat.name} bets {' and '.join(parts)}")

    async def _decide(self, seat: SeatInfo, a: ActionIn) -> None:
        rnd = self.round
        if rnd.phase is not Phase.DECISIONS:
            raise ApiError(409, f"cannot {a.kind} now: the round is in the {rnd.phase.value} phase")
        if a.kind == "play":
            if a.amount is None:
                raise ApiError(422, "a play bet needs an amount (chips)")
            action: Fold | Play = Play(_player(seat.seat), a.amount)
        else:
            if a.amount:
                raise ApiError(422, "a fold takes no amount")
            action = Fold(_player(seat.seat))
        new = rnd.clone()
        try:
            new.apply(action)  # turn, phase and amount checks: the engine's
        except FourcardsError as exc:
            raise ApiError(409, str(exc)) from None
        if isinstance(action, Play) and action.amount > seat.balance:
            raise ApiError(409, f"not enough chips: a play bet of {action.amount} is more than your balance "
                                f"of {seat.balance}")
        entries = []
        if isinstance(action, Play):
            entries = [Entry("player", -action.amount, seat.player_id, "play"),
                       Entry("bets", action.amount, None, "play")]
        cards = [str(c) for c in rnd.hands[_player(seat.seat)]]
        up = str(rnd.up_card)
        ante = rnd.wagers[_player(seat.seat)].ante
        line = f"{seat.name} " + (f"plays {action.amount}" if isinstance(action, Play) else "folds")
        await self._apply(new, [action.to_dict()], entries, seat, line)
        if a.trainer and not seat.is_bot:
            self._schedule_advice(seat, cards, up, ante, a.kind, getattr(action, "amount", None))

    def _schedule_advice(self, seat: SeatInfo, cards: list[str], up: str, ante: int, decision: str,
                         play: int | None) -> None:
        self.trainer_pending.add(seat.seat)
        self.trainer[seat.seat] = {"status": "computing", "message": "computing the optimal decision..."}
        rules = self.rules

        async def run() -> None:
            advice = await asyncio.to_thread(self.hub.advisor.advise, cards, up, rules, ante, decision, play)
            advice["cards"] = cards
            advice["up_card"] = up
            if seat.seat in self.trainer_pending:
                self.trainer[seat.seat] = advice
                self.trainer_pending.discard(seat.seat)
                self.notify()

        self.hub.spawn(run())

    async def _start(self) -> None:
        if self.round.phase is not Phase.WAGERS:
            raise ApiError(409, "the cards are already out")
        for s, p in sorted(self.players.items()):
            if p.is_bot and _player(s) not in self.round.wagers and p.balance >= self.bot_ante:
                await self._wager(p, self.bot_ante, 0)
        if not self.round.wagers:
            raise ApiError(409, "cannot deal: no seat has placed a wager")
        new = self.round.clone()
        deal = new.apply_chance()  # the OS CSPRNG
        await self._apply(new, [deal.to_dict()], [], None,
                          f"Deal {self.next_deal_number - 1}: cards are dealt; the dealer's up card is "
                          f"{parse_card(str(deal.up_card)).pretty}")

    async def _void(self, reason: str, by: SeatInfo | None) -> None:
        rnd = self.round
        new = rnd.clone()
        try:
            new.apply(Void(reason))
        except FourcardsError as exc:
            raise ApiError(409, str(exc)) from None
        entries = []
        for i in rnd.wagers:
            amt = rnd.total_wagered(i)
            if amt:
                entries += [Entry("bets", -amt, None, "refund"),
                            Entry("player", amt, self.players[_seat(i)].player_id, "refund")]
        number = self.next_deal_number - 1
        await self.commit(self._write([Void(reason).to_dict()], entries, by,
                                      DealClose("voided", {"voided": True}, reason)))
        self.last_round, self.last_number = new, number
        self.round = self._fresh_round()
        self.trainer_pending.clear()
        self.add_log(f"Deal {number} voided ({reason}); every wager is returned")

    async def _bot_step(self) -> bool:
        rnd = self.round
        actor = rnd.actor
        if actor is None:
            return False
        p = self.players.get(_seat(actor))
        if p is None or not p.is_bot:
            return False
        ante = rnd.wagers[actor].ante
        play = poker_bot_decision(list(rnd.hands[actor]), self.rules, ante, p.balance)
        if play is None:
            await self._decide(p, ActionIn(kind="fold"))
        else:
            await self._decide(p, ActionIn(kind="play", amount=play))
        return True

    # -------------------------------------------------------------- views

    def _round_view(self, rnd: PokerRound, seat: SeatInfo | None) -> dict[str, Any]:
        """The round's observation for ``seat`` in table seats (the browser's shape)."""
        obs = rnd.observation(_player(seat.seat) if seat else None).to_dict()
        seats = []
        for view in obs.pop("players"):
            s = _seat(view.pop("player"))
            p = self.players.get(s)
            if p is None and not view["ante"] and not view["aces_up"]:
                continue
            entry = {"seat": s, **view, "name": p.name if p else f"seat {s}", "is_bot": bool(p and p.is_bot)}
            if entry["result"] is None:
                del entry["result"]
            else:
                entry["result"]["seat"] = _seat(entry["result"].pop("player"))
            seats.append(entry)
        obs.pop("player")
        obs.pop("legal_actions")
        obs.pop("chance_step")
        if obs["dealer_hand"] is None:
            del obs["dealer_hand"]
        obs["seat"] = seat.seat if seat else None
        obs["actor"] = None if obs["actor"] is None else _seat(obs["actor"])
        obs["seats"] = seats
        return obs

    def view_deal(self, seat: SeatInfo | None) -> dict[str, Any]:
        """The poker part of the state view for ``seat`` (``None``: a spectator).

        Keys: ``game``, ``round`` (the current round as ``seat`` may see it, with its
        deal number), ``last`` (the previous round while no wager is placed, else None),
        ``actions`` and ``host_actions`` open to ``seat``, ``trainer`` (its strategy
        feedback) and ``trainer_available``.
        """
        rnd = self.round
        out: dict[str, Any] = {"game": "poker"}
        number = self.next_deal_number - 1 if self.deal_id is not None else self.next_deal_number
        out["round"] = {"number": number, **self._round_view(rnd, seat)}
        out["last"] = None
        if self.last_round is not None and not rnd.wagers:
            out["last"] = {"number": self.last_number, **self._round_view(self.last_round, seat)}
        out["actions"] = self._actions_for(seat)
        out["host_actions"] = self._host_actions(seat)
        out["trainer"] = self.trainer.get(seat.seat) if seat else None
        out["trainer_available"] = self.hub.advisor.available
        return out

    def _actions_for(self, seat: SeatInfo | None) -> list[dict[str, Any]]:
        if seat is None or seat.is_bot:
            return []
        rnd, r = self.round, self.rules
        me = _player(seat.seat)
        out: list[dict[str, Any]] = []
        if rnd.phase is Phase.WAGERS and me not in rnd.wagers:
            out.append({"kind": "wager", "ante_min": r.min_ante, "ante_max": min(r.max_ante, seat.balance),
                        "aces_up_min": r.min_aces_up, "aces_up_max": min(r.max_aces_up, seat.balance),
                        "aces_up_requires_ante": r.aces_up_requires_ante, "balance": seat.balance})
        elif rnd.phase is Phase.DECISIONS and rnd.actor == me:
            amounts = [x for x in rnd.play_amounts(me) if x <= seat.balance]
            out.append({"kind": "fold"})
            if amounts:
                play: dict[str, Any] = {"kind": "play", "min": amounts[0], "max": amounts[-1],
                                        "ante": rnd.wagers[me].ante}
                if not r.play_any_amount:
                    play["amounts"] = amounts
                out.append(play)
        return out

    def _host_actions(self, seat: SeatInfo | None) -> list[str]:
        if seat is None or not seat.is_host:
            return []
        out = ["add_bots"] if len(self.players) < self.max_seats else []
        if self.round.phase is Phase.WAGERS and (self.round.wagers or any(p.is_bot for p in self.players.values())):
            out.append("deal")
        if self.in_progress:
            out.append("void")
        return out


def _player(seat: int) -> int:
    """The round's player (0-based) at table seat ``seat`` (1-based)."""
    return seat - 1


def _seat(player: int) -> int:
    """The table seat (1-based) of the round's ``player`` (0-based)."""
    return player + 1


def _dealer_desc(rnd: PokerRound) -> str:
    from fourcards.hands import best_hand

    return best_hand(rnd.dealer_cards)[0].describe()


def replace_rules(rules: Any, **changes: Any) -> Any:
    """``dataclasses.replace`` for rules objects (validated again by the dataclass)."""
    return replace(rules, **changes)

