"""A shared table's state as data: settings, people and their seats, tokens' hashes, waiting
requests, the turn clock, the pause, the deal's engine state, the log, recent action ids.

:class:`TableState` is immutable: a command (:func:`fourcards.table.apply`) gives a *new*
state and leaves the old one as it was, so a refused command changes nothing, and one copy
may be read by every view at once. (The engine state of a deal it holds is never changed
either: the table applies an action to a clone.)

What the state is made of is stored in three places - the ``players`` rows (seat, name,
token hash, host, bot, status), the ledger (balances) and the deals' histories, and the
table's own ``state`` JSON column (:func:`stored`: requests, time-outs, the clock, the
pause, the button, action ids); :func:`fourcards.table.loading.load` rebuilds a state from
what the store reads back, replaying the deal in progress.

People are numbered by *player id* (the store's; a stand-in negative id for one seated by a
change not yet committed); seats are 1..n as people see them (docs/rules.md TP-1).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, TypeVar

from fourcards.engine import GameState
from fourcards.table.seats import DealSeats
from fourcards.table.writes import ChatLine

__all__ = ["Person", "SeatRequest", "Clock", "DealState", "TableState", "Answer", "LOG_LINES", "INTENTS_KEPT",
           "DENIED_KEPT", "CHAT_KEPT", "REVOKED_KEPT", "stored", "evolve"]

#: Table log lines a state keeps (the store keeps every line).
LOG_LINES = 60
#: Action ids remembered per person (docs/rules.md TP-8): a repeat of one of these is not applied again.
INTENTS_KEPT = 32
#: Turned-down seat requests remembered (the asker's browser sees the answer).
DENIED_KEPT = 20
#: Chat messages a state keeps (the store keeps every one): the chat panel shows them, and the
#: chat's rate limit counts a person's latest messages among them (13 seats x 3 messages fit).
CHAT_KEPT = 40
#: Tokens of seats handed to a new phone remembered (the old phone is told why it lost the seat).
REVOKED_KEPT = 20

#: What a command answered (JSON), as kept with an action id.
Answer = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Person:
    """A player of the table: seated (``seat`` 1..n) or gone (``seat`` 0, ``status`` ``"left"``).

    ``balance``: chips at the table (the ledger's); ``away``: chips cashed out and not yet
    brought back (a person who left and sits down again gets them back); ``status``
    ``"playing"``, ``"sitting_out"`` (no ante, no cards, skipped) or ``"left"``;
    ``timeouts``: turn clock time-outs in a row; ``leaving``: cashes out when the deal it
    has chips in ends (docs/rules.md TP-5); ``muted``: the host has muted the person's chat;
    ``bets``: Four Card Poker - the last ante and Aces Up bet the person placed (chips), which
    the next round offers again ("Same bets"); ``is_away``: away (docs/rules.md TP-12: dealt in,
    checks when it may and folds otherwise at once, no clock); ``pre``: the pre-action chosen
    before the person's turn (:class:`~fourcards.table.preactions.PreAction`, TP-12);
    ``bank_used``: seconds of the night's time bank spent (TP-13); ``handle``: the payment
    handle shown beside the transfers the person receives (TP-15); ``numbers``: the night in
    numbers so far (:mod:`fourcards.table.numbers`).
    """

    player_id: int
    seat: int
    name: str
    token_hash: str
    is_host: bool = False
    is_bot: bool = False
    bot_kind: str | None = None
    balance: int = 0
    status: str = "playing"
    timeouts: int = 0
    leaving: bool = False
    away: int = 0
    muted: bool = False
    bets: tuple[int, int] | None = None
    is_away: bool = False
    pre: Any = None
    bank_used: float = 0.0
    handle: str | None = None
    numbers: Mapping[str, Any] | None = None

    @property
    def sitting_out(self) -> bool:
        """Whether the seat sits out (or is leaving): not dealt in, its turns skipped."""
        return self.status == "sitting_out" or self.leaving

    def public(self, online: bool = False) -> dict[str, Any]:
        """What every client may see of this player (never the token); ``online``: it has an
        open connection (a bot always counts as online)."""
        return {"seat": self.seat or None, "name": self.name, "is_host": self.is_host, "is_bot": self.is_bot,
                "bot_kind": self.bot_kind, "balance": self.balance, "status": self.status,
                "leaving": self.leaving, "online": self.is_bot or online, "muted": self.muted,
                "away": self.is_away, "handle": self.handle}


@dataclass(frozen=True, slots=True)
class SeatRequest:
    """A request waiting for the host: a seat (``kind`` ``"seat"``; ``player_id`` set when a
    person who left asks for their seat back; ``amount``: the buy-in asked for, 0 for the
    table's) or a top-up (``"top_up"``, ``amount`` chips).
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


@dataclass(frozen=True, slots=True)
class Clock:
    """The turn of the deal in progress as the clock sees it (docs/rules.md TP-6, TP-7).

    ``key``: the turn (deal number, history length, engine player), ``None`` when nobody is
    to act; ``since``: when that turn began (Unix seconds; a bot's move is due a bot delay
    after it); ``deadline``: when the person to act runs out of time (``None``: no clock runs
    - none is set, a bot's turn, the seat sits out, or the table is paused); ``left``:
    seconds left while the table is paused; ``bank``: seconds of the person's time bank
    included in the deadline (docs/rules.md TP-13: spent only after the turn clock runs out,
    from ``deadline - bank`` on).
    """

    key: tuple[int, int, int] | None = None
    since: float | None = None
    deadline: float | None = None
    left: float | None = None
    bank: float = 0.0


@dataclass(frozen=True)
class DealState:
    """A deal and who plays it: ``game`` (the engine state; never changed once here),
    ``seats`` (who plays: engine player <-> table seat <-> player id <-> name,
    :class:`~fourcards.table.seats.DealSeats`), ``number`` (the deal's number at the table),
    ``opened`` (stored: wagers placed or cards out; Four Card Poker lays the next round out
    before anyone wagers), ``seq`` (history records stored), ``deal_id`` (the store's id of
    the deal's row, once it has one)."""

    game: GameState
    seats: DealSeats
    number: int
    opened: bool = False
    seq: int = 0
    deal_id: int | None = None


@dataclass(frozen=True)
class TableState:
    """One table (see the module doc). Never changed: :func:`fourcards.table.apply` gives a new one.

    Attributes:
        id / name / rules / settings / status / public / created_at: the table
            (``settings``: ``starting_chips`` in chips,
            ``turn_clock`` in seconds (0: none), ``seat_approval``, and the game's own).
        table_game: what the game adds to a table (a :class:`fourcards.table.games.TableGame`:
            :class:`~fourcards.table.poker.PokerTable`, :class:`~fourcards.table.kind.KindTable`).
        people: every person ever seated, by player id.
        requests: waiting for the host (seats, top-ups), in order; ``denied``: the last
            turned-down seat requests; ``request_seq``: the last request id given.
        log: the last :data:`LOG_LINES` lines of the table log.
        clock / paused: the turn clock; the host's pause (docs/rules.md TP-7).
        button_seat: Four of a Kind's button (a table seat).
        deal: the deal in progress, or (Four Card Poker) the next round laid out before
            anyone wagers; ``None`` between Four of a Kind deals.
        last: the last finished deal; next_deal_number: the number the next deal opens with.
        intents: per player id, the latest action ids applied and what they answered
            (docs/rules.md TP-8).
        chat: the last :data:`CHAT_KEPT` chat messages; ``chat_seq``: the last one's number.
        revoked: the tokens of seats the host handed to a new phone (token hash -> the seat's
            name; the last :data:`REVOKED_KEPT`).
        version: the table's version in the store this state is (or comes from).
    """

    id: str
    table_game: Any  # a type[fourcards.table.games.TableGame] (typed there: the games import this module)
    name: str
    rules: Any
    settings: Mapping[str, Any]
    status: str = "open"
    public: bool = False
    created_at: Any = None
    people: Mapping[int, Person] = field(default_factory=dict)
    requests: tuple[SeatRequest, ...] = ()
    denied: tuple[SeatRequest, ...] = ()
    request_seq: int = 0
    log: tuple[str, ...] = ()
    clock: Clock = Clock()
    paused: bool = False
    button_seat: int | None = None
    deal: DealState | None = None
    last: DealState | None = None
    next_deal_number: int = 1
    intents: Mapping[int, tuple[tuple[str, Answer], ...]] = field(default_factory=dict)
    chat: tuple[ChatLine, ...] = ()
    chat_seq: int = 0
    revoked: Mapping[str, str] = field(default_factory=dict)
    version: int = 0

    # ----------------------------------------------------------- derived (cached)

    @property
    def game(self) -> str:
        """The game's name in the API: ``"poker"`` (Four Card Poker) or ``"kind"`` (Four of a Kind)."""
        return str(self.table_game.game)

    @cached_property
    def players(self) -> dict[int, Person]:
        """The seated people by seat."""
        return {p.seat: p for p in self.people.values() if p.seat and p.status != "left"}

    @cached_property
    def by_token(self) -> dict[str, Person]:
        """The seated people by token hash."""
        return {p.token_hash: p for p in self.players.values()}

    @cached_property
    def rules_dict(self) -> dict[str, Any]:
        """The table's rules as JSON."""
        return dict(self.rules.to_dict())

    @property
    def max_seats(self) -> int:
        """Seats at this table (seat numbers 1..max_seats)."""
        return self.table_game.max_seats(self.rules)

    @property
    def in_progress(self) -> bool:
        """Whether a deal is open (stored: wagers placed or cards out)."""
        return self.deal is not None and self.deal.opened

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
        """Whether the host approves each new seat."""
        return bool(self.settings.get("seat_approval"))

    @property
    def host(self) -> Person | None:
        """The seated host, if any."""
        return next((p for p in self.players.values() if p.is_host), None)

    def request_of(self, token_hash: str) -> SeatRequest | None:
        """The waiting (or turned-down) seat request of the browser holding ``token_hash``."""
        return next((r for r in self.requests if r.token_hash == token_hash), None) or next(
            (r for r in reversed(self.denied) if r.token_hash == token_hash), None)

    def answer_of(self, player_id: int, action_id: str) -> Answer | None:
        """What the action ``action_id`` of ``player_id`` answered, if it was applied (TP-8)."""
        return next((a for i, a in self.intents.get(player_id, ()) if i == action_id), None)

    def with_player_ids(self, ids: Mapping[int, int]) -> TableState:
        """This state with stand-in player ids replaced by the store's (``{stand-in: id}``)."""
        if not ids:
            return self

        def pid(x: int | None) -> int | None:
            return ids.get(x, x) if x is not None else None

        people = {ids.get(k, k): replace(p, player_id=ids.get(k, k)) for k, p in self.people.items()}
        requests = tuple(replace(r, player_id=pid(r.player_id)) for r in self.requests)
        intents = {ids.get(k, k): v for k, v in self.intents.items()}
        deals = {}
        for name in ("deal", "last"):
            d = getattr(self, name)
            if d is not None:
                deals[name] = evolve(d, seats=d.seats.with_ids(ids))
        return evolve(self, people=people, requests=requests, intents=intents, **deals)


# --------------------------------------------------------------------- the store


def stored(state: TableState) -> dict[str, Any]:
    """The table's own state as the store keeps it (JSON): requests, turned-down requests,
    the last request id, per person their time-outs, leaving, muted chat, last Four Card
    Poker bets, away, pre-action, time bank spent, payment handle and night's numbers, the clock, the pause, the game's own (the button), the recent action ids and
    the tokens handed on to new phones. (Chat messages are rows of their own.)"""
    clock = state.clock
    return {
        "requests": [dataclasses.asdict(r) for r in state.requests],
        "denied": [dataclasses.asdict(r) for r in state.denied[-DENIED_KEPT:]],
        "request_seq": state.request_seq,
        "seats": {str(p.player_id): _seat_extra(p) for p in state.people.values()
                  if p.timeouts or p.leaving or p.muted or p.bets or p.is_away or p.pre or p.bank_used or p.handle
                  or p.numbers},
        "clock": None if clock.key is None else {"key": list(clock.key), "since": clock.since,
                                                  "deadline": clock.deadline, "left": clock.left,
                                                  **({"bank": clock.bank} if clock.bank else {})},
        "paused": state.paused,
        "game": {"button_seat": state.button_seat} if state.button_seat is not None else {},
        "intents": {str(k): [list(x) for x in v] for k, v in state.intents.items() if v},
        "revoked": dict(state.revoked),
    }


def _seat_extra(p: Person) -> dict[str, Any]:
    out: dict[str, Any] = {"timeouts": p.timeouts, "leaving": p.leaving}
    if p.muted:
        out["muted"] = True
    if p.bets:
        out["bets"] = list(p.bets)
    if p.is_away:
        out["away"] = True
    if p.pre:
        out["pre"] = p.pre.stored()
    if p.bank_used:
        out["bank_used"] = round(p.bank_used, 3)
    if p.handle:
        out["handle"] = p.handle
    if p.numbers:
        out["numbers"] = dict(p.numbers)
    return out


_Evolved = TypeVar("_Evolved", "TableState", "DealState")
_FIELDS: dict[type, tuple[tuple[str, ...], frozenset[str]]] = {}


def evolve(obj: _Evolved, **changes: Any) -> _Evolved:
    """``dataclasses.replace`` for a :class:`TableState` or a :class:`DealState` without calling
    ``__init__`` (they are frozen, with neither ``__post_init__`` nor ``init=False`` fields): the
    fields' values copied and ``changes`` put over them; the derived values a state caches
    (``players``, ``by_token``...) are not carried. A command makes several such copies of a
    24-field state; this is about a fifth of ``replace``'s cost (issue 28 item 7).

    Raises:
        TypeError: a name in ``changes`` that is not a field (as ``replace`` does).
    """
    cls = type(obj)
    known = _FIELDS.get(cls)
    if known is None:
        names = tuple(f.name for f in dataclasses.fields(cls))
        known = _FIELDS[cls] = (names, frozenset(names))
    if not known[1].issuperset(changes):
        raise TypeError(f"{cls.__name__} has no field {sorted(set(changes) - known[1])[0]!r}")
    new = object.__new__(cls)
    src, out = obj.__dict__, new.__dict__
    for name in known[0]:
        out[name] = src[name]
    out.update(changes)
    return new
