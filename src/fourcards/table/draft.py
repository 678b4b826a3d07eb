"""The draft of one change: a table state being changed, and the writes and log lines the change
implies - the one place where a command's effects are gathered (:func:`fourcards.table.apply`).

A :class:`Draft` starts from a :class:`~fourcards.table.state.TableState` and replaces it
step by step (the states are immutable: nothing the change started from is ever touched);
a refused command raises :class:`~fourcards.table.errors.TableError` and its draft is simply
dropped. The helpers here apply engine actions to the deal (:meth:`Draft.apply`,
:meth:`Draft.advance`): the new history records, the ledger entries of the chips that moved,
the deal opening and closing, the log's words, the end of a deal (the last deal kept, the
next one laid out, leaving seats cashed out).

The ledger follows the engine: the chips each player has in play (the game's ``stakes``)
move between the player and the game's escrow account; at the end the escrow pays each
player its stake plus its ``returns()`` (in a banked game the house pays the returns).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from fourcards.engine import GameState
from fourcards.errors import FourcardsError
from fourcards.table.buyin import buy_in as chosen_buy_in
from fourcards.table.errors import TableError
from fourcards.table.names import look_alike, looks_like
from fourcards.table.numbers import add as add_numbers
from fourcards.table.seats import DealSeats
from fourcards.table.seen import observe
from fourcards.table.state import LOG_LINES, DealState, Person, SeatRequest, TableState, evolve
from fourcards.table.writes import DealClose, DealOpen, DealWrite, Entry, NewPlayer, SeatChange, Write

__all__ = ["Draft", "Event", "Revoked", "TrainerAsked"]


@dataclass(frozen=True)
class Event:
    """Something a change implies outside the table's state, for the server to do."""


@dataclass(frozen=True)
class Revoked(Event):
    """The token ``token_hash`` no longer holds a seat (handed to a new phone): close its
    connections, telling them ``detail``."""

    token_hash: str
    detail: str


@dataclass(frozen=True)
class TrainerAsked(Event):
    """A person asked the trainer about the decision just made at ``seat`` (Four Card Poker):
    ``cards``, ``up_card``, ``ante`` (chips), ``decision`` (``fold``/``play``), ``amount``."""

    seat: int
    cards: tuple[str, ...]
    up_card: str
    ante: int
    decision: str
    amount: int | None


@dataclass
class Draft:
    """A change in progress (see the module doc): ``state`` (the table as changed so far),
    ``now`` (Unix seconds), ``rng`` (chance outcomes; ``None``: the OS CSPRNG), the
    ``writes`` and new log ``lines`` so far, ``events`` for the server, and the next stand-in
    player id for people seated by this change."""

    state: TableState
    now: float
    rng: random.Random | None = None
    writes: list[Write] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    new_ids: list[int] = field(default_factory=list)

    # ------------------------------------------------------------ basics

    def set(self, **changes: Any) -> None:
        """Replace fields of the state. When the people change, a deal whose seats follow the
        table's (Four Card Poker) has its seat map - and its engine's seat labels - brought up
        to date."""
        state = evolve(self.state, **changes)
        deal = state.deal
        if "people" in changes and deal is not None and deal.seats.follows:
            seats = deal.seats.seated(state.players)
            if seats is not deal.seats:
                state = evolve(state, deal=evolve(deal, seats=seats,
                                                    game=state.table_game.relabel(deal.game, seats.names)))
        self.state = state

    def put(self, person: Person) -> None:
        """Replace (or add) a person."""
        self.set(people={**self.state.people, person.player_id: person})

    def person(self, player_id: int) -> Person:
        """The person with ``player_id`` as the change has them now."""
        return self.state.people[player_id]

    def log(self, line: str) -> None:
        """Add ``line`` to the table log."""
        self.lines.append(line)

    def write(self, part: Write) -> None:
        """Add a write to the change."""
        self.writes.append(part)

    def amend_log(self, start: int, prefix: str, suffix: str) -> None:
        """Add ``suffix`` to the first line of this change from the ``start``-th on that begins
        with ``prefix``."""
        for i in range(start, len(self.lines)):
            if self.lines[i].startswith(prefix):
                self.lines[i] += suffix
                return

    def finished_log(self) -> tuple[str, ...]:
        """The table log with this change's lines (the last :data:`LOG_LINES`)."""
        return (self.state.log + tuple(self.lines))[-LOG_LINES:]

    # ------------------------------------------------------------ checks

    def require_open(self) -> None:
        """Raises :class:`TableError` 409 when the table is closed."""
        if self.state.status != "open":
            raise TableError(409, "this table is closed: its history and settlement stay readable")

    def require_running(self, what: str) -> None:
        """Raises :class:`TableError` 409 while the host has paused the table (TP-7)."""
        if self.state.paused:
            raise TableError(409, f"the table is paused by the host: {what} when the host resumes")

    def require_host(self, person: Person) -> None:
        """Raises :class:`TableError` 403 when ``person`` is not the host."""
        if not person.is_host:
            raise TableError(403, "only the table's host may do this (the host's ruling)")

    def seated(self, player_id: int) -> Person:
        """The seated person giving a command.

        Raises:
            TableError: 409 at a closed table; 403 for a person no longer seated.
        """
        p = self.state.people.get(player_id)
        if p is None or not p.seat or p.status == "left":
            self.require_open()
            raise TableError(403, "the seat token does not belong to any seat at this table")
        return p

    def seat_of(self, number: int) -> Person:
        """The person at seat ``number``.

        Raises:
            TableError: 404 for an empty seat.
        """
        seat = self.state.players.get(number)
        if seat is None:
            raise TableError(404, f"seat {number} is empty at this table")
        return seat

    # ------------------------------------------------------------ the deal

    def seen(self, player: int | None = None) -> Any:
        """The deal's observation for engine ``player`` (``None``: a spectator)."""
        assert self.state.deal is not None
        return observe(self.state.deal.game, player)

    def apply(self, by: Person | None, action: Any, *, void_reason: str | None = None) -> None:
        """Apply ``action`` of ``by`` to a clone of the deal's engine state, then :meth:`advance`.

        Raises:
            TableError: 409 with the engine's message when it refuses the action.
        """
        deal = self.state.deal
        assert deal is not None
        new = deal.game.clone()
        try:
            new.apply(action)
        except FourcardsError as exc:
            raise TableError(409, str(exc)) from None
        self.advance(new, by, void_reason=void_reason)

    def begin(self, game: GameState, seats: DealSeats) -> None:
        """Open a new deal: ``game`` (fresh, its seat labels the players' names) played by ``seats``."""
        self.set(deal=DealState(game, seats, self.state.number))
        self.advance(game, None, fresh=True)

    def draw_chance(self, game: GameState) -> None:
        """Draw the chance steps that follow at once (``rng``), for a game that does."""
        if not self.state.table_game.auto_chance(self.state):
            return
        while not game.is_terminal and game.actor is None and game.chance_step:
            game.apply_chance(self.rng)

    def advance(self, new: GameState, by: Person | None, *, void_reason: str | None = None,
                fresh: bool = False) -> None:
        """Take ``new`` (a changed clone of the deal's engine state; ``fresh``: a new deal's
        state, all its records new) as the deal: its new history records and the ledger
        entries of the chips that moved are written (the deal opens with its first write and
        closes when ``new`` is over); the log says what happened; at the end the deal is kept
        as the last one, the next is laid out and the seats that are leaving cash out.

        Raises:
            TableError: 409 when a player lacks the chips.
        """
        self.draw_chance(new)
        s = self.state
        deal = s.deal
        assert deal is not None
        game = s.table_game
        records = [r.to_dict() for r in new.history[0 if fresh else len(deal.game.history):]]
        entries = self.entries(None if fresh else deal.game, new, "refund" if void_reason else None)
        close = None
        if new.is_terminal:
            close = (DealClose("voided", {"voided": True}, void_reason) if void_reason
                     else DealClose("settled", game.result(s, new)))
        number = s.number
        opening = not deal.opened
        self.write(DealWrite(
            table_id=s.id, deal_id=deal.deal_id, seq=deal.seq, player_id=by.player_id if by else None,
            open=DealOpen(number, deal.seats.stored(), s.rules_dict) if opening else None,
            records=records, entries=entries, close=close))
        people = dict(s.people)
        for e in entries:
            if e.account == "player" and e.player_id in people:
                held = people[e.player_id]
                people[e.player_id] = replace(held, balance=held.balance + e.amount)
        after = evolve(deal, game=new, opened=True, seq=deal.seq + len(records))
        self.set(people=people, deal=after, next_deal_number=number + 1 if opening else s.next_deal_number)
        for line in game.log_lines(records, new, number, after.seats.name):
            self.log(line)
        if new.is_terminal:
            self.set(last=after)
            if close is not None and close.result and close.result.get("numbers"):
                self.count(close.result["numbers"])
            game.finished(self, new)
            self.set(deal=game.fresh(self.state))
            for seat in [p for p in self.state.players.values() if p.leaving]:
                self.cash_out(seat)

    def count(self, numbers: dict[str, Any]) -> None:
        """A settled deal's numbers (per player id) added to each person's night in numbers
        (:func:`fourcards.table.numbers.add`)."""
        people = dict(self.state.people)
        for key, deal in numbers.items():
            p = people.get(int(key))
            if p is not None:
                people[p.player_id] = replace(p, numbers=add_numbers(p.numbers, deal))
        self.set(people=people)

    def entries(self, old: GameState | None, new: GameState, memo: str | None) -> list[Entry]:
        """The ledger entries from ``old`` to ``new``: stakes moved to or from the escrow; at
        the end, the escrow pays each player its stake and return (a house, the returns).

        Raises:
            TableError: 409 when a player's stake grows by more than its balance.
        """
        s = self.state
        game = s.table_game
        escrow, house = game.escrow, game.house
        assert s.deal is not None
        seats, people = s.deal.seats, s.people
        after = game.stakes(observe(new))
        before = game.stakes(observe(old)) if old is not None else [0] * len(after)
        out: list[Entry] = []
        for p, (a, b) in enumerate(zip(before, after)):
            seat = seats.person(p, people)
            if a == b or seat is None:
                continue
            if b - a > seat.balance:
                raise TableError(409, f"not enough chips: {seat.name} needs {b - a:,} chips for this and has "
                                      f"{seat.balance:,}")
            out += [Entry("player", a - b, seat.player_id, memo or "wager"), Entry(escrow, b - a, None, memo or "wager")]
        if new.is_terminal:
            memo = memo or "settle"
            for p, (stake, ret) in enumerate(zip(after, new.returns())):
                seat = seats.person(p, people)
                if seat is None:
                    continue
                out.append(Entry("player", stake + ret, seat.player_id, memo))
                if house is None:
                    out.append(Entry(escrow, -stake - ret, None, memo))
                else:
                    out += [Entry(escrow, -stake, None, memo), Entry(house, -ret, None, memo)]
        return [e for e in out if e.amount]

    def dealt_in(self, person: Person) -> bool:
        """Whether ``person`` has chips at stake in the deal in progress."""
        s = self.state
        if not s.in_progress or s.deal is None:
            return False
        player = s.deal.seats.player_of(person)
        if player is None:
            return False
        return s.table_game.dealt_in(player, observe(s.deal.game))

    # ------------------------------------------------------------ seats

    def free_seat(self) -> int:
        """The lowest free seat.

        Raises:
            TableError: 409 when the table is full.
        """
        s = self.state
        seat_no = next((n for n in range(1, s.max_seats + 1) if n not in s.players), None)
        if seat_no is None:
            raise TableError(409, f"the table is full ({s.max_seats} seats)")
        return seat_no

    def check_name(self, name: str) -> Person | None:
        """A person who left under ``name`` (their seat and balance come back), else ``None``.

        Raises:
            TableError: 409 when a seated player or a waiting request has the name, or when the
                name looks like a seated player's, a waiting request's or the name of a person who
                left, without being it (:mod:`fourcards.table.names`: "'Аnn' looks like Ann").
        """
        key = name.casefold()
        s = self.state
        taken = next((p for p in s.players.values() if p.name.casefold() == key), None)
        if taken is not None and taken.leaving:
            raise TableError(409, f"{taken.name} has left the table and cashes out when this "
                                  f"{s.table_game.word.lower()} ends: sit down again under this name after it")
        if taken is not None:
            raise TableError(409, f"the name {name!r} is taken at this table; choose another (your own seat on a "
                                  "new phone? the host can hand it to this phone)")
        if any(r.kind == "seat" and r.name.casefold() == key for r in s.requests):
            raise TableError(409, f"{name!r} has already asked for a seat; wait for the host's answer")
        gone = [p for p in s.people.values() if p.status == "left" and not p.is_bot]
        similar = look_alike(name, [*s.players.values(), *(r for r in s.requests if r.kind == "seat"), *gone])
        if similar is not None:  # "Аnn" beside Ann (docs/rules.md TP-11)
            raise TableError(409, looks_like(name, similar.name, "at this table"))
        return next((p for p in gone if p.name.casefold() == key), None)

    def sit(self, name: str, token_hash: str, *, former: Person | None = None, is_host: bool = False,
            is_bot: bool = False, bot_kind: str | None = None, by_host: bool = False,
            buy_in: int | None = None) -> Person:
        """Seat a person: a new one with the buy-in (``buy_in`` chips, checked against the host's
        limits; ``None``: the table's, :func:`fourcards.table.buyin.buy_in`), or ``former`` (who
        left) with the chips they cashed out. A table without a host gets this person as host.
        ``by_host``: the host seats a person without a phone (the log says so).

        Raises:
            TableError: 409 when the table is full, or a buy-in outside the host's limits.
        """
        s = self.state
        seat_no = self.free_seat()
        is_host = is_host or (not is_bot and s.host is None)
        if former is not None:
            amount = former.away
            self.write(SeatChange(s.id, moves=[(former.player_id, amount, "rejoin")], players={
                former.player_id: {"seat": seat_no, "status": "playing", "token_hash": token_hash,
                                   "is_host": is_host}}))
            seat = replace(former, seat=seat_no, status="playing", token_hash=token_hash, is_host=is_host,
                           balance=former.balance + amount, away=0, timeouts=0, leaving=False)
            self.log(f"The host seats {name} (no phone) back at seat {seat_no} with {seat.balance:,} chips" if by_host
                     else f"{name} is back at seat {seat_no} with {seat.balance:,} chips")
        else:
            buy_in = chosen_buy_in(s, buy_in)
            self.write(NewPlayer(seat_no, name, token_hash, buy_in, is_host, is_bot, bot_kind))
            pid = min([0, *s.people]) - 1  # a stand-in id until the store gives the row's
            self.new_ids.append(pid)
            seat = Person(pid, seat_no, name, token_hash, is_host, is_bot, bot_kind, buy_in)
            self.log(f"The host seats {name} (no phone) at seat {seat_no} with {buy_in:,} chips" if by_host
                     else f"{name} sits at seat {seat_no}" + (" (bot)" if is_bot else "") + f" with {buy_in:,} chips")
        self.put(seat)
        return seat

    def cash_out(self, seat: Person, *, removed_by: str | None = None) -> int:
        """Cash ``seat`` out and free its seat; the host's role moves on; its waiting requests go
        with it; ``removed_by``: who removed it (``"the host"``, ``"the operator"``; ``None``: it
        left). Returns the chips cashed out."""
        s = self.state
        amount = seat.balance
        players: dict[int, dict[str, Any]] = {seat.player_id: {"seat": None, "status": "left", "is_host": False}}
        heir = None
        if seat.is_host:
            heir = next((p for _, p in sorted(s.players.items()) if p.player_id != seat.player_id and not p.is_bot),
                        None)
            if heir is not None:
                players[heir.player_id] = {"is_host": True}
        self.write(SeatChange(s.id, moves=[(seat.player_id, -amount, "cash_out")], players=players))
        self.put(replace(seat, seat=0, status="left", is_host=False, balance=0, leaving=False, timeouts=0,
                         away=seat.away + amount))
        self.withdraw_requests(seat)
        self.log(f"{seat.name} " + (f"is removed by {removed_by}" if removed_by else "leaves the table")
                 + f" and cashes out {amount:,} chips")
        if heir is not None:
            self.put(replace(heir, is_host=True))
            self.log(f"{heir.name} is the host now")
        return amount

    def withdraw_requests(self, seat: Person) -> None:
        """A person who leaves takes their waiting requests (a top-up) with them; logged."""
        gone = [r for r in self.state.requests if r.player_id == seat.player_id]
        if gone:
            self.set(requests=tuple(r for r in self.state.requests if r.player_id != seat.player_id))
        for r in gone:
            if r.kind == "top_up":
                self.log(f"{seat.name}'s top-up of {r.amount:,} chips is withdrawn: {seat.name} left")

    def set_status(self, seat: Person, status: str) -> Person:
        """``seat``'s status (``playing`` clears its time-outs)."""
        self.write(SeatChange(self.state.id, players={seat.player_id: {"status": status}}))
        seat = replace(seat, status=status, timeouts=0 if status == "playing" else seat.timeouts)
        self.put(seat)
        return seat

    def next_request(self, kind: str, name: str, token_hash: str, player_id: int | None = None,
                     amount: int = 0) -> SeatRequest:
        """A new request waiting for the host."""
        req = SeatRequest(self.state.request_seq + 1, kind, name, token_hash, player_id, amount)
        self.set(requests=(*self.state.requests, req), request_seq=req.id)
        return req
