"""Every change of a shared table, as a command applied by :func:`fourcards.table.apply`.

Commands are frozen data. ``by`` is the player id of the person who gives it (a server
finds it from the seat token); ``seat`` a table seat (1..n) it is about. What a command
needs of chance or of the clock comes in with it or with :func:`~fourcards.table.apply`
(``now``, ``rng``): a new seat's token hash (the server draws the token), the due turn a
time-out or a bot's move is for (its ``key``), a bot's chosen action.

``action_id`` (docs/rules.md TP-8): a client's name for one intent, at most
:data:`MAX_ACTION_ID` characters; a repeat of an id already applied from the same person
is answered as the first time and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fourcards.table.errors import TableError

__all__ = ["Move", "Command", "Sit", "Join", "AddBots", "Decide", "TopUp", "SetStatus", "Leave", "NewDevice",
           "Configure", "Close", "StartDeal", "Act", "ActFor", "EnterCards", "TakeBackCard", "VoidDeal", "Pause",
           "Resume", "Timeout", "BotMove", "TakeUp", "Chat", "Mute", "SeatWithoutPhone", "SetSettleUp",
           "OperatorClose", "OperatorRemove", "PreAct", "SetAway", "SetHandle", "MAX_ACTION_ID", "MAX_MOVE_CHIPS",
           "check_move"]

#: Characters an action id may have.
MAX_ACTION_ID = 64
#: Chips a move may name (an ante, an Aces Up bet, a bet, raise or play bet): 0 .. 10,000,000,
#: the web API's bound (``fourcards.web.schemas.Chips``).
MAX_MOVE_CHIPS = 10_000_000


@dataclass(frozen=True)
class Move:
    """A person's move in the table's words. Four Card Poker: ``wager`` (``ante``,
    ``aces_up``), ``withdraw``, ``fold``, ``play`` (``amount``: the play bet in chips;
    ``trainer``: ask for the optimal decision). Four of a Kind: ``check``, ``bet``/``raise``
    (``amount``: chips above the current bet), ``call``, ``fold``."""

    kind: str
    ante: int | None = None
    aces_up: int | None = None
    amount: int | None = None
    trainer: bool = False


def check_move(move: Any) -> None:
    """Check that ``move`` is a well-formed :class:`Move` before any game reads it: ``kind`` text,
    ``ante``/``aces_up``/``amount`` left out or whole numbers of chips (0 ..
    :data:`MAX_MOVE_CHIPS`; ``3.0``, ``2.5``, ``True`` and ``-1`` are not), ``trainer`` true or
    false. Whether the move is legal now is the game's and the engine's to say.

    Raises:
        TableError: 422 naming the field and what was given.
    """
    if not isinstance(move, Move):
        raise TableError(422, f"a move must be a Move, got {type(move).__name__}")
    if not isinstance(move.kind, str) or not move.kind:
        raise TableError(422, f"a move's kind must be text naming it (e.g. 'fold'), got {repr(move.kind)[:40]}")
    for name in ("ante", "aces_up", "amount"):
        value = getattr(move, name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 0 <= value <= MAX_MOVE_CHIPS):
            raise TableError(422, f"{name} must be a whole number of chips from 0 to {MAX_MOVE_CHIPS:,}, got "
                                  f"{repr(value)[:40]}")
    if not isinstance(move.trainer, bool):
        raise TableError(422, f"trainer must be true or false, got {repr(move.trainer)[:40]}")


@dataclass(frozen=True)
class Command:
    """Base of every command."""


@dataclass(frozen=True)
class Sit(Command):
    """Seat a new person at once (no approval): the host of a new table."""

    name: str
    token_hash: str
    is_host: bool = False


@dataclass(frozen=True)
class Join(Command):
    """A person asks for a seat by name (seated at once, or a request waits for the host);
    ``buy_in``: the chips to buy in with, within the host's limits (``None``: the table's
    buy-in; docs/rules.md TP-14)."""

    name: str
    token_hash: str
    buy_in: int | None = None


@dataclass(frozen=True)
class SeatWithoutPhone(Command):
    """Host, at a table of real cards: seat ``name``, a person without a phone whose moves the
    host enters (FOAK-16); ``token_hash``: the seat's token (nobody holds it until the host hands
    the seat to a phone)."""

    by: int
    name: str
    token_hash: str


@dataclass(frozen=True)
class AddBots(Command):
    """Host: fill empty seats with bots of ``kind`` (``None``: the game's default), one
    ``token_hashes`` entry each (bots never use them; every seat has one)."""

    by: int
    token_hashes: tuple[str, ...]
    kind: str | None = None


@dataclass(frozen=True)
class Decide(Command):
    """Host: approve or turn down a waiting request."""

    by: int
    request_id: int
    approve: bool


@dataclass(frozen=True)
class TopUp(Command):
    """A person asks for ``amount`` more chips (the host's own are added at once)."""

    by: int
    amount: int


@dataclass(frozen=True)
class SetStatus(Command):
    """``seat`` sits out or comes back: its person, or the host."""

    by: int
    seat: int
    sitting_out: bool


@dataclass(frozen=True)
class Leave(Command):
    """``seat`` leaves the table: its person, or the host removes it (docs/rules.md TP-5)."""

    by: int
    seat: int


@dataclass(frozen=True)
class NewDevice(Command):
    """Host: hand ``seat`` to a new phone holding ``token_hash`` (the old token stops working)."""

    by: int
    seat: int
    token_hash: str


@dataclass(frozen=True)
class Configure(Command):
    """Host: the table's settings (a field left ``None`` stays as it is): ``public``,
    ``turn_clock`` (seconds, 0: none), ``seat_approval``, ``time_bank`` (seconds per person per
    night, 0: none; docs/rules.md TP-13) and the buy-in rules (TP-14: ``min_buy_in``,
    ``max_buy_in``, ``min_top_up``, ``max_top_up`` in chips, 0: no limit;
    ``match_biggest_stack``)."""

    by: int
    public: bool | None = None
    turn_clock: int | None = None
    seat_approval: bool | None = None
    time_bank: int | None = None
    min_buy_in: int | None = None
    max_buy_in: int | None = None
    min_top_up: int | None = None
    max_top_up: int | None = None
    match_biggest_stack: bool | None = None


@dataclass(frozen=True)
class Close(Command):
    """Host: close the table (a deal in progress voided, everyone cashed out)."""

    by: int


@dataclass(frozen=True)
class OperatorClose(Command):
    """The operator (docs/rules.md TP-10): close the table as the host would, ``reason`` logged."""

    reason: str


@dataclass(frozen=True)
class OperatorRemove(Command):
    """The operator (docs/rules.md TP-10): remove ``seat`` as the host would (TP-5), ``reason``
    logged."""

    seat: int
    reason: str


@dataclass(frozen=True)
class StartDeal(Command):
    """The host's deal (Four Card Poker: the cards; Four of a Kind: the next deal)."""

    by: int
    action_id: str | None = None


@dataclass(frozen=True)
class Act(Command):
    """A person's own move."""

    by: int
    move: Move
    action_id: str | None = None


@dataclass(frozen=True)
class ActFor(Command):
    """Host, at a table of real cards: the move of the person at ``seat`` (FOAK-16)."""

    by: int
    seat: int
    move: Move
    action_id: str | None = None


@dataclass(frozen=True)
class EnterCards(Command):
    """Host, at a table of real cards: the card(s) just dealt or turned (FOAK-14)."""

    by: int
    text: str
    action_id: str | None = None


@dataclass(frozen=True)
class TakeBackCard(Command):
    """Host, at a table of real cards: take back the last card entered (FOAK-15)."""

    by: int
    action_id: str | None = None


@dataclass(frozen=True)
class VoidDeal(Command):
    """Host: void the deal in progress (the host's ruling, TP-4)."""

    by: int
    reason: str
    action_id: str | None = None


@dataclass(frozen=True)
class Pause(Command):
    """Host: pause the table (docs/rules.md TP-7)."""

    by: int


@dataclass(frozen=True)
class Resume(Command):
    """Host: resume a paused table."""

    by: int


@dataclass(frozen=True)
class Timeout(Command):
    """The due turn ``key`` (the clock's) is up: a person's time ran out, or a seat that sits
    out is skipped (it checks if it may, else folds)."""

    key: tuple[int, int, int]


@dataclass(frozen=True)
class BotMove(Command):
    """The bot whose turn ``key`` is plays ``action`` (an engine action chosen for it)."""

    key: tuple[int, int, int]
    action: Any


@dataclass(frozen=True)
class TakeUp(Command):
    """A server takes the table up after no server was alive from ``down_from`` to
    ``down_to`` (Unix seconds): a turn that was running then gets its time back
    (docs/rules.md TP-6)."""

    down_from: float
    down_to: float


@dataclass(frozen=True)
class SetSettleUp(Command):
    """Host: the terms of the night's settle-up (:mod:`fourcards.table.settleup`) - the chip
    value ``chip_value`` (``(chips, cents, currency)``: ``chips`` chips are worth ``cents``
    hundredths of ``currency``; ``None``: settle in chips), changed only when ``set_value``;
    and who holds the bank that covers the bots (``banker``: ``"host"``, ``"bank"`` - a
    party of its own - or a table seat; ``None``: unchanged)."""

    by: int
    chip_value: tuple[int, int, str] | None = None
    set_value: bool = False
    banker: str | int | None = None


@dataclass(frozen=True)
class Chat(Command):
    """A seated person's chat message: ``text`` (1-200 printable characters) or ``reaction``
    (one of :data:`fourcards.table.chat.REACTIONS`) - exactly one of them."""

    by: int
    text: str | None = None
    reaction: str | None = None
    action_id: str | None = None


@dataclass(frozen=True)
class Mute(Command):
    """Host: mute the chat of the person at ``seat`` (``muted`` false: let them chat again)."""

    by: int
    seat: int
    muted: bool = True


@dataclass(frozen=True)
class PreAct(Command):
    """A person chooses what to do when their turn comes (docs/rules.md TP-12): ``kind`` one of
    :data:`fourcards.table.preactions.KINDS` (``"check_fold"``, ``"check"``, ``"call"``,
    ``"call_any"``, ``"fold"``), or ``None`` to clear the choice."""

    by: int
    kind: str | None


@dataclass(frozen=True)
class SetAway(Command):
    """``seat`` is away (``away`` true: dealt in, checks when it may and folds otherwise at
    once, no clock; docs/rules.md TP-12) or back: its person, or the host."""

    by: int
    seat: int
    away: bool


@dataclass(frozen=True)
class SetHandle(Command):
    """A person's payment handle (free text, at most
    :data:`fourcards.table.settleup.MAX_HANDLE` characters; ``None``: none), shown beside the
    transfers they receive on the settle-up (docs/rules.md TP-15); also at a closed table."""

    by: int
    handle: str | None
