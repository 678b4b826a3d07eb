"""What a server needs of a store of tables: :class:`TableStore`, and the data it passes.

The table package computes every change as plain data (:mod:`fourcards.table.writes`); a
store writes a change in one transaction with an optimistic version check
(:class:`TableCommit` -> :class:`CommitResult`, or :class:`VersionConflict`) and reads a
table back (:class:`~fourcards.table.writes.TableRow`). Two stores implement the protocol:
:class:`fourcards.store.db.Store` (SQLAlchemy: SQLite, PostgreSQL) and
:class:`fourcards.store.memory.MemoryStore` (a process's memory: the table rules' tests, no
database). No database library is imported here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from fourcards.table.writes import MAX_AMOUNT, Entry, SeatChange, TableRow, Write

__all__ = ["ACCOUNTS", "StoreError", "VersionConflict", "TableCommit", "CommitResult", "TableStore", "check_entries",
           "check_seat_change"]

#: The ledger's accounts (the store's ``account`` column): players, the house, the bank and the escrows.
ACCOUNTS = ("player", "house", "bank", "bets", "pot")
_PLAYER_COLUMNS = frozenset({"seat", "status", "token_hash", "is_host", "name"})
_TABLE_COLUMNS = frozenset({"status", "public", "settings", "name"})


class StoreError(RuntimeError):
    """A database the store cannot use (a bad URL, a server that does not answer), or a
    write it refuses (an unbalanced transaction, an unknown account, an amount beyond
    :data:`~fourcards.store.models.MAX_AMOUNT`)."""


class VersionConflict(StoreError):
    """A table write named a version the table no longer has: another server (or task)
    wrote the table first. Nothing was written; read the table again."""


@dataclass
class TableCommit:
    """Everything one change of a table writes, in one transaction with an optimistic check.

    ``version`` is the table's version the change was computed from: the write happens only
    if the table still has it (else :class:`VersionConflict`, nothing written), and the table
    then has ``version + 1``. ``state`` and ``due_at`` replace the table's columns; ``parts``
    (:class:`DealWrite`, :class:`SeatChange`, :class:`NewPlayer`, :class:`TakeBack`,
    :class:`ChatLine`) are written in order;
    ``origin`` names the writing server in the change notification (it ignores its own);
    ``log`` lines are appended to the table's log. A
    :class:`DealWrite` with neither ``deal_id`` nor ``open`` continues the deal an earlier
    part opened (or the table's deal in progress).
    """

    table_id: str
    version: int
    state: dict[str, Any] | None = None
    due_at: float | None = None
    parts: list[Write] = field(default_factory=list)
    origin: str = ""
    log: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class CommitResult:
    """What a :class:`TableCommit` wrote: the table's new ``version``, the id of the deal the
    last deal part wrote (``None``: none), the ids of the new players (in order)."""

    version: int
    deal_id: int | None
    player_ids: list[int]


def check_entries(entries: Iterable[Entry]) -> None:
    """Raises :class:`StoreError` unless ``entries`` are one balanced ledger transaction: known
    accounts, whole chips within :data:`MAX_AMOUNT`, a player id on every player entry, a sum of 0."""
    entries = list(entries)
    total = 0
    for e in entries:
        if e.account not in ACCOUNTS:
            raise StoreError(f"unknown ledger account {e.account!r}")
        if not isinstance(e.amount, int) or isinstance(e.amount, bool):
            raise StoreError(f"ledger amounts are whole chips, got {e.amount!r}")
        if abs(e.amount) > MAX_AMOUNT:
            raise StoreError(f"ledger amount {e.amount} is beyond the {MAX_AMOUNT:,} chips an entry holds")
        if e.account == "player" and e.player_id is None:
            raise StoreError("a player entry needs a player_id")
        total += e.amount
    if total != 0:
        raise StoreError(f"unbalanced ledger transaction: entries sum to {total}, not 0")


def check_seat_change(change: SeatChange) -> None:
    """Raises :class:`StoreError` for a :class:`SeatChange` setting a column it may not set."""
    bad = {k for fields in change.players.values() for k in fields} - _PLAYER_COLUMNS | set(change.table) - _TABLE_COLUMNS
    if bad:
        raise StoreError(f"cannot change {', '.join(sorted(bad))}")


class TableStore(Protocol):
    """The store of tables a server runs on (see the module doc). Every method is one
    transaction, synchronous (servers call it from a worker thread); amounts are whole chips;
    times are Unix seconds."""

    @property
    def dialect(self) -> str:
        """``"sqlite"``, ``"postgresql"`` or ``"memory"``."""

    def close(self) -> None:
        """Release what the store holds."""

    def create_table(self, table_id: str, game: str, name: str, rules: dict[str, Any],
                     settings: dict[str, Any], public: bool = False) -> None:
        """A new table at version 0."""

    def commit_table(self, c: TableCommit) -> CommitResult:
        """Write one change of a table if it still has ``c.version``.

        Raises:
            VersionConflict: the table has another version; nothing written.
            StoreError: unbalanced entries or an unknown column; nothing written.
        """

    def commit_tables(self, commits: list[TableCommit]) -> list[CommitResult | Exception]:
        """Group commit: write several tables' changes together - on a database in one transaction,
        one sync to disk - each with its own version check. Returns per commit, in order, its
        :class:`CommitResult` or the exception that refused it (:class:`VersionConflict`,
        :class:`StoreError`, a database's integrity error), nothing of a refused one written;
        results come only once the written ones are durable."""

    def load_table(self, table_id: str) -> TableRow | None:
        """The table as it is now (``None``: no such table)."""

    def table_versions(self, table_ids: Iterable[str] | None = None) -> dict[str, int]:
        """``{table id: version}`` of the given tables (``None``: every open table)."""

    def public_tables(self, limit: int = 50, after: str | None = None) -> dict[str, int]:
        """``{table id: version}`` of open public tables, newest first, after the table ``after``."""

    def claim_due(self, now: float, lease: float, limit: int = 16) -> list[str]:
        """Claim the tables whose due time has come (each due again ``lease`` seconds on)."""

    def beat(self, now: float) -> float | None:
        """Note that a server is alive at ``now``; when one was last alive before (``None``: never)."""

    def tables_with_due_work(self) -> list[str]:
        """The open tables with a due time."""

    def next_due(self) -> float | None:
        """The earliest due time of any table."""

    def set_due(self, table_id: str, version: int, due_at: float | None) -> bool:
        """Set a table's due time if it still has ``version``; whether it was set."""

    def chip_totals(self, table_id: str) -> dict[str, Any]:
        """Per player the ledger's sums by memo, the house's balance and the chips in play."""

    def balances(self, table_id: str) -> dict[int, int]:
        """``{player_id: chips}`` from the ledger."""

    def list_deals(self, table_id: str, limit: int = 50) -> list[dict[str, Any]]:
        """The latest deals (newest first), without histories, with each player's ``nets``."""

    def get_deal(self, table_id: str, number: int) -> dict[str, Any] | None:
        """One deal with its history and ledger entries."""

    def finished_deals(self, table_id: str, after: int = 0, limit: int = 50) -> list[dict[str, Any]]:
        """Finished deals numbered above ``after``, in order, as :meth:`get_deal` gives them."""

    def ledger(self, table_id: str, limit: int = 500) -> list[dict[str, Any]]:
        """The latest ledger entries (oldest first)."""

    def ledger_check(self, table_id: str | None = None) -> dict[str, Any]:
        """Audit: the sum of every entry, unbalanced transactions, escrows left in ended deals."""
