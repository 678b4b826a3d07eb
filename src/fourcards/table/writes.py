"""What a change of a table writes, and a table as read back: plain data, no database.

A command applied to a table (:func:`fourcards.table.apply`) returns, besides the new
state, the *writes* it implies - history records, ledger entries, seats, new players, a
take-back - as the dataclasses below. The store (:meth:`fourcards.store.Store.commit_table`)
writes them all in one transaction; the table package never touches a database.

:class:`TableRow` (with :class:`PlayerRow` and :class:`OpenDeal`) is a table as the store
reads it back, from which :func:`fourcards.table.state.load` rebuilds the state.

Amounts are whole chips. A list of :class:`Entry` written together must sum to zero
(double entry; the store refuses anything else).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["MAX_AMOUNT", "Entry", "DealOpen", "DealClose", "DealWrite", "SeatChange", "NewPlayer", "TakeBack",
           "ChatLine", "Write", "PlayerRow", "OpenDeal", "TableRow"]

#: The most chips one ledger entry holds: 2**53 - 1, the largest integer a JSON number carries
#: exactly in every browser (the store's columns hold it too).
MAX_AMOUNT = 2**53 - 1


@dataclass(frozen=True)
class Entry:
    """One chip movement: ``amount`` (signed, whole chips) on ``account``.

    ``account`` is one of the store's accounts (``player``, ``bank``, ``house``, ``bets``,
    ``pot``); ``player_id`` is required for ``"player"``.
    """

    account: str
    amount: int
    player_id: int | None = None
    memo: str = ""


@dataclass(frozen=True)
class DealOpen:
    """Create the deal row: its number at the table, seat map and rules."""

    number: int
    seats: dict[str, Any]
    rules: dict[str, Any]


@dataclass(frozen=True)
class DealClose:
    """End the deal: ``status`` ``"settled"`` or ``"voided"``, its result, a void reason."""

    status: str
    result: dict[str, Any] | None = None
    void_reason: str | None = None


@dataclass
class DealWrite:
    """Everything one action writes of a deal.

    ``deal_id`` names an existing deal; or ``open`` creates it (then ``deal_id`` is None);
    with neither, the write continues the deal an earlier part of the same commit opened,
    else the table's deal in progress. ``records`` are history records appended from
    ``seq`` on (an action may bring chance events with it). ``entries`` must sum to zero.
    """

    table_id: str
    deal_id: int | None = None
    open: DealOpen | None = None
    seq: int = 0
    player_id: int | None = None
    records: list[dict[str, Any]] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    close: DealClose | None = None


@dataclass
class SeatChange:
    """Chips between the bank and players, and changes of seats and the table.

    ``moves`` are ``(player_id, amount, memo)``: ``amount`` chips from the ``bank`` to
    the player (negative: the player cashes out to the bank); memos ``cash_out``,
    ``top_up``, ``rejoin``. ``players`` maps a player id to column values to set
    (``seat``, ``status``, ``token_hash``, ``is_host``, ``name``); ``table`` sets columns of
    the table (``status``, ``public``, ``settings``, ``name``).
    """

    table_id: str
    moves: list[tuple[int, int, str]] = field(default_factory=list)
    players: dict[int, dict[str, Any]] = field(default_factory=dict)
    table: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class NewPlayer:
    """Seat a new player (a row of ``players``) and credit ``buy_in`` chips from the bank.

    The state names the player by a stand-in id (negative) until the store gives the row's
    id (:meth:`fourcards.table.state.TableState.with_player_ids`)."""

    seat: int | None
    name: str
    token_hash: str
    buy_in: int
    is_host: bool = False
    is_bot: bool = False
    bot_kind: str | None = None


@dataclass(frozen=True)
class TakeBack:
    """Remove the last ``count`` history records of the deal in progress - those from ``seq``
    on: the host of a table dealt with real cards took back a card, with what followed it by
    itself (docs/rules.md FOAK-15). ``deal_id`` ``None``: the table's deal in progress. No
    ledger entry changes (a card moves no chips unless it ends the deal, and the cards of a
    deal that ended are never taken back)."""

    deal_id: int | None
    seq: int
    count: int


@dataclass(frozen=True)
class ChatLine:
    """One message of the table's chat, as written and as read back: ``number`` (1, 2, ... per
    table), who sent it (``player_id``, with the ``seat`` and ``name`` they had then), ``text``
    (1-200 printable characters; for a reaction, its emoji), ``kind`` (``"text"`` or
    ``"reaction"``) and ``at`` (when it was sent, Unix seconds: the chat's rate limit counts
    from it)."""

    number: int
    player_id: int
    seat: int
    name: str
    text: str
    kind: str
    at: float

    def public(self) -> dict[str, Any]:
        """The message as every viewer sees it (``id``: its number; never a token)."""
        return {"id": self.number, "seat": self.seat or None, "name": self.name, "text": self.text,
                "kind": self.kind, "at": round(self.at, 3)}


#: One part of a change's writes, in the order they are made.
Write = DealWrite | SeatChange | NewPlayer | TakeBack | ChatLine


@dataclass
class PlayerRow:
    """A player as read back; ``seat`` is ``None`` for one who left (``status`` ``"left"``).
    ``balance``: chips from the ledger; ``away``: chips cashed out and not brought back
    (what a rejoin returns)."""

    id: int
    seat: int | None
    name: str
    token_hash: str
    is_host: bool
    is_bot: bool
    bot_kind: str | None
    balance: int
    status: str = "playing"
    away: int = 0


@dataclass
class OpenDeal:
    """A deal as stored: its id, number, seat map and history records (by ``seq``)."""

    id: int
    number: int
    seats: dict[str, Any]
    records: list[dict[str, Any]]


@dataclass
class TableRow:
    """A table as read back, with its players, next deal number, ``version``, ``state`` (the
    table's own JSON: requests, clock, ...), its ``deal`` in progress, its last finished deal
    and the latest lines of its log and its chat."""

    id: str
    game: str
    name: str
    rules: dict[str, Any]
    settings: dict[str, Any]
    created_at: Any
    players: list[PlayerRow]
    next_deal_number: int
    status: str = "open"
    public: bool = False
    version: int = 0
    state: dict[str, Any] | None = None
    deal: OpenDeal | None = None
    last_deal: OpenDeal | None = None
    log: list[str] = field(default_factory=list)
    chat: list[ChatLine] = field(default_factory=list)
