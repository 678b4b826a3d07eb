"""Database models (SQLAlchemy 2): tables, players, deals, their histories and the chip ledger.

Every amount is a whole number of chips (``BigInteger``). The schema is
created and upgraded by the Alembic migrations in
:mod:`fourcards.store.migrations` (run by :func:`fourcards.store.db.migrate`);
these classes mirror it exactly (a test compares the two).

Tables:

* ``game_tables`` - one row per table: the game (``"poker"`` for Four Card Poker,
  ``"kind"`` for Four of a Kind), its rules (``rules.to_dict()``) and settings
  (starting chips, bot ante, turn clock, seat approval...), ``status`` (``open`` or
  ``closed``) and ``public`` (listed in the lobby; private tables are reached by link);
  ``version`` (bumped by every write: servers sharing the database compare it), ``state``
  (waiting requests, time-outs, the turn clock, the button), ``due_at`` (when a bot or
  a turn clock next needs a server, Unix seconds), ``active_at`` (when the table was last
  written, Unix seconds: what tells live, idle and abandoned tables apart and what retention
  counts from) and ``pruned_at`` (when retention removed a closed table's histories, chat and
  log; ``None``: never).
* ``table_log`` - the table log's lines, appended by the changes that wrote them.
* ``table_chat`` - the table's chat, one row per message or reaction (numbered per table;
  who sent it, with their seat and name then; when, in Unix seconds).
* ``players`` - a seat at a table, by name; ``token_hash`` is the SHA-256 of the
  secret seat token (the token itself is never stored); ``is_host`` marks the
  table's host, ``is_bot``/``bot_kind`` the computer players; ``status`` is
  ``playing``, ``sitting_out`` or ``left`` (cashed out, ``seat`` empty: one person
  keeps one row, and so one balance, per table).
* ``deals`` - one row per deal (a Four Card Poker round or a Four of a Kind
  deal): ``status`` ``in_progress`` / ``settled`` / ``voided``, the seat map, the
  rules used, the result and the reason of a void.
* ``deal_actions`` - the deal's full history, one engine action record
  (``action.to_dict()``, chance events included) per row, numbered by ``seq``.
* ``ledger_entries`` - the double-entry chip ledger. Each database transaction
  writes entries sharing one ``txn`` whose amounts sum to zero. ``account`` is
  ``"player"`` (with ``player_id``), ``"house"`` (the Four Card Poker bank's
  result), ``"bank"`` (where buy-ins come from), ``"bets"`` (Four Card Poker
  wagers on the layout during a deal) or ``"pot"`` (a Four of a Kind pot during a
  deal); ``bets`` and ``pot`` balances are per ``deal_id`` and end at zero.
* ``liveness`` - one row: when a server sharing the database was last alive (Unix
  seconds), so a server starting after downtime gives running turn clocks their time back.
* ``clubs`` - a club whose tables count together (issue 21): its name, the SHA-256 of the
  owner's secret token and the owner's name; ``club_members`` - the names the owner listed
  (``name_key`` is the name casefolded: members are matched by name across tables);
  ``club_tables`` - the tables that count for a club (a table for at most one club);
  ``club_bans`` - names the operator banned from a club (issue 27).
* ``admin_users`` - the operator's console accounts (issue 27): a name, an argon2 hash of the
  password, a role (``admin`` or ``viewer``).
* ``audit_log`` - every operator action, append-only, each row hash-chained to the one before
  (:mod:`fourcards.store.audit`).
* ``admin_sessions`` - the console's signed-in sessions (:mod:`fourcards.store.sessions`): the
  SHA-256 of the cookie's secret, the account, a CSRF token, when it ends.
* ``server_leases`` - work one server at a time does for all (:mod:`fourcards.store.leases`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from fourcards.store.base import ACCOUNTS  # the ledger's account kinds (see the module docstring)
from fourcards.table.writes import MAX_AMOUNT as _MAX_AMOUNT

__all__ = ["Base", "GameTable", "Player", "Deal", "DealAction", "LedgerEntry", "Liveness", "TableChatLine",
           "Club", "ClubMember", "ClubTable", "ClubBan", "AdminUser", "AuditRow", "AdminSession",
           "ServerLease", "utcnow", "ACCOUNTS", "ROLES",
           "MAX_AMOUNT", "MAX_INTEGER"]

#: The operator console's roles: ``admin`` reads and acts, ``viewer`` only reads.
ROLES = ("admin", "viewer")

#: The largest value of an ``Integer`` column (a seat, a deal's number, a history
#: record's ``seq``): PostgreSQL's ``integer``, 2**31 - 1.
MAX_INTEGER = 2**31 - 1

#: The largest chip amount one ledger entry may hold, 2**53 - 1 (defined with the writes,
#: :data:`fourcards.table.writes.MAX_AMOUNT`). The ``amount`` column is a ``BIGINT``
#: (2**63 - 1), but amounts also travel as JSON numbers, which JavaScript reads exactly
#: only up to 2**53 - 1, and the sums of a table's entries (balances, the audit) need
#: headroom below the column's range.
MAX_AMOUNT = _MAX_AMOUNT

# SQLite only auto-increments INTEGER PRIMARY KEY columns.
_BigId = BigInteger().with_variant(Integer(), "sqlite")


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base of the fourcards schema."""


class GameTable(Base):
    """A table of either game (see module docstring)."""

    __tablename__ = "game_tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(80))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default="open")
    public: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: Bumped by every write to the table (optimistic concurrency between servers).
    version: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    #: The table's own state beside deals, ledger and log: requests, time-outs, clock, button.
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: When the table next needs a server without a request (Unix seconds; None: never).
    due_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    #: When the table was last written (Unix seconds): live, idle, abandoned; retention.
    active_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    #: When retention removed the closed table's histories, chat and log (Unix seconds).
    pruned_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class Player(Base):
    """A seat taken at a table, by a person (name + token) or a bot."""

    __tablename__ = "players"
    __table_args__ = (
        UniqueConstraint("table_id", "seat", name="uq_players_table_seat"),
        UniqueConstraint("token_hash", name="uq_players_token_hash"),
    )

    id: Mapped[int] = mapped_column(_BigId, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id"), index=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    token_hash: Mapped[str] = mapped_column(String(64))
    is_host: Mapped[bool] = mapped_column(Boolean, default=False)
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    bot_kind: Mapped[str | None] = mapped_column(String(16), nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="playing", server_default="playing")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Deal(Base):
    """One deal at a table and how it ended."""

    __tablename__ = "deals"
    __table_args__ = (UniqueConstraint("table_id", "number", name="uq_deals_table_number"),)

    id: Mapped[int] = mapped_column(_BigId, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="in_progress", index=True)
    seats: Mapped[dict[str, Any]] = mapped_column(JSON)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    void_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class DealAction(Base):
    """One record of a deal's history (an engine action's ``to_dict()``)."""

    __tablename__ = "deal_actions"
    __table_args__ = (UniqueConstraint("deal_id", "seq", name="uq_deal_actions_deal_seq"),)

    id: Mapped[int] = mapped_column(_BigId, primary_key=True, autoincrement=True)
    deal_id: Mapped[int] = mapped_column(ForeignKey("deals.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TableLogLine(Base):
    """One line of a table's log (what the table page shows under "Table log"), appended
    by the change that wrote it; a table reads back its latest lines."""

    __tablename__ = "table_log"
    __table_args__ = (Index("ix_table_log_table_id_id", "table_id", "id"),)

    id: Mapped[int] = mapped_column(_BigId, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id"))
    line: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TableChatLine(Base):
    """One chat message (or reaction) at a table, numbered per table; a table reads back its
    latest ones. ``at``: when it was sent (Unix seconds: the chat's rate limit counts from it)."""

    __tablename__ = "table_chat"
    __table_args__ = (UniqueConstraint("table_id", "number", name="uq_table_chat_table_number"),)

    id: Mapped[int] = mapped_column(_BigId, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id"))
    number: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


class LedgerEntry(Base):
    """One signed chip movement on one account; a transaction's entries sum to zero."""

    __tablename__ = "ledger_entries"
    __table_args__ = (
        Index("ix_ledger_entries_player", "player_id"),
        Index("ix_ledger_entries_deal_account", "deal_id", "account"),
    )

    id: Mapped[int] = mapped_column(_BigId, primary_key=True, autoincrement=True)
    txn: Mapped[str] = mapped_column(String(32), index=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id"), index=True)
    deal_id: Mapped[int | None] = mapped_column(ForeignKey("deals.id"), nullable=True)
    account: Mapped[str] = mapped_column(String(16))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    memo: Mapped[str] = mapped_column(String(40), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Liveness(Base):
    """When any server sharing the database was last alive (one row, ``id`` 1; Unix seconds)."""

    __tablename__ = "liveness"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    alive_at: Mapped[float] = mapped_column(Float)


class Club(Base):
    """A club whose tables count together (standings across nights); its id is its link's key."""

    __tablename__ = "clubs"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    owner_name: Mapped[str] = mapped_column(String(40))
    #: SHA-256 of the owner's secret token (the token itself is never stored).
    owner_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ClubMember(Base):
    """A name the club's owner listed; ``name_key`` (the name casefolded) matches it across tables."""

    __tablename__ = "club_members"
    __table_args__ = (UniqueConstraint("club_id", "name_key", name="uq_club_members_club_key"),)

    id: Mapped[int] = mapped_column(_BigId, primary_key=True, autoincrement=True)
    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(160))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ClubTable(Base):
    """A table that counts for a club (at most one club per table)."""

    __tablename__ = "club_tables"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id"), index=True)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ClubBan(Base):
    """A name the operator banned from a club (``name_key``: casefolded, as members are matched):
    it is not listed again, and it takes no seat at the club's tables."""

    __tablename__ = "club_bans"

    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id"), primary_key=True)
    name_key: Mapped[str] = mapped_column(String(160), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    reason: Mapped[str] = mapped_column(Text, default="")
    banned_by: Mapped[str] = mapped_column(String(80))
    banned_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AdminUser(Base):
    """An account of the operator's console: ``password_hash`` is an argon2id hash (PHC string),
    ``role`` one of :data:`ROLES`; ``name_key`` (the name casefolded) is unique."""

    __tablename__ = "admin_users"

    id: Mapped[int] = mapped_column(_BigId, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(160), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AuditRow(Base):
    """One operator action in the append-only audit log (:mod:`fourcards.store.audit`): ``seq``
    1, 2, ... (the key: two servers cannot both write the same link), ``at`` (ISO 8601 UTC
    text, hashed as stored), ``actor``, ``action``, ``target``, ``details`` (canonical JSON
    text), ``prev_hash`` (the row before's ``hash``; 64 zeros for the first) and ``hash``
    (SHA-256 over the row's fields and ``prev_hash``)."""

    __tablename__ = "audit_log"

    seq: Mapped[int] = mapped_column(_BigId, primary_key=True, autoincrement=False)
    at: Mapped[str] = mapped_column(String(32))
    actor: Mapped[str] = mapped_column(String(80))
    action: Mapped[str] = mapped_column(String(40))
    target: Mapped[str] = mapped_column(String(200))
    details: Mapped[str] = mapped_column(Text)
    prev_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64))


class AdminSession(Base):
    """A signed-in session of the console: ``token_hash`` is the SHA-256 of the session cookie's
    secret; ``csrf`` the token its forms carry; ``created_at`` and ``expires_at`` Unix seconds."""

    __tablename__ = "admin_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(_BigId, ForeignKey("admin_users.id", ondelete="CASCADE"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float, index=True)


class ServerLease(Base):
    """Work one server at a time does for every server of the database (``name``): who holds it
    (``holder``, a server's random name) and until when (``until``, Unix seconds)."""

    __tablename__ = "server_leases"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    holder: Mapped[str] = mapped_column(String(64))
    until: Mapped[float] = mapped_column(Float)
