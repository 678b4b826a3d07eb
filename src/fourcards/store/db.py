"""Engine and session setup, migrations, and the store's operations.

:class:`Store` wraps one SQLAlchemy engine (SQLite by default, PostgreSQL by
URL, the same code) and offers the few operations the web app needs. Each
method is one database transaction; a chip movement is a list of
:class:`Entry` whose amounts must sum to zero (double entry), so the ledger
always balances. Methods are synchronous (the web app calls them from a worker
thread) and raise :class:`StoreError` on a ledger that would not balance.

URLs: ``sqlite:///path/to/file.db`` or ``postgresql+psycopg://user:pw@host/db``.
A PostgreSQL URL may carry ``?options=-csearch_path%3Dname`` to use a schema
(the tests do, to isolate themselves). A URL that cannot be used - malformed,
another kind of database, a driver not installed, a server that does not
answer, a SQLite file that cannot be created - raises :class:`StoreError` with
one sentence saying so (the password never appears in it).
"""

from __future__ import annotations

import os
import uuid
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from alembic import command
from alembic.config import Config
from alembic.util.exc import CommandError
from sqlalchemy import URL, Engine, Table, create_engine, event, func, insert, make_url, select, update
from sqlalchemy.exc import ArgumentError, DBAPIError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from fourcards.store.models import (
    ACCOUNTS,
    MAX_AMOUNT,
    Deal,
    DealAction,
    GameTable,
    LedgerEntry,
    Player,
    ServerRun,
    utcnow,
)

__all__ = [
    "Entry",
    "DealOpen",
    "DealClose",
    "DealWrite",
    "SeatChange",
    "StoreError",
    "Store",
    "default_database_url",
    "make_engine",
    "migrate",
    "parse_database_url",
    "SUPPORTED_DATABASES",
]

_MIGRATIONS = Path(__file__).resolve().parent / "migrations"

#: Database kinds fourcards runs on (SQLAlchemy backend names).
SUPPORTED_DATABASES = ("sqlite", "postgresql")
_URL_FORMS = "sqlite:///path/to/file.db or postgresql+psycopg://user:password@host/database"
#: Seconds to wait for a PostgreSQL server to answer (unless the URL sets connect_timeout).
CONNECT_TIMEOUT_S = 10


class StoreError(RuntimeError):
    """A database the store cannot use (a bad URL, a server that does not answer), or a
    write it refuses (an unbalanced transaction, an unknown account, an amount beyond
    :data:`~fourcards.store.models.MAX_AMOUNT`)."""


def parse_database_url(url: str) -> URL:
    """The SQLAlchemy URL of ``url``, checked to name a database fourcards runs on.

    Raises:
        StoreError: a malformed URL, or a database other than SQLite and PostgreSQL.
    """
    try:
        u = make_url(url)
    except (ArgumentError, ValueError, TypeError):
        raise StoreError(f"malformed database URL: expected {_URL_FORMS}") from None
    backend = u.get_backend_name()
    if backend not in SUPPORTED_DATABASES:
        raise StoreError(f"unsupported database {backend!r} in {_shown(u)}: fourcards runs on SQLite or "
                         f"PostgreSQL ({_URL_FORMS})")
    return u


def _shown(u: URL) -> str:
    return u.render_as_string(hide_password=True)


def _reason(exc: BaseException) -> str:
    """The first line of a database error's own message (the driver's, for DBAPI errors)."""
    inner = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
    text = getattr(inner, "strerror", None) or str(inner) or type(inner).__name__
    return text.strip().splitlines()[0] if text.strip() else type(inner).__name__


def default_database_url() -> str:
    """The database URL to use: env ``FOURCARDS_DATABASE_URL``, else a SQLite file
    ``fourcards.db`` in ``platformdirs.user_data_dir("fourcards")`` (created)."""
    url = os.environ.get("FOURCARDS_DATABASE_URL")
    if url:
        return url
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("fourcards"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'fourcards.db'}"


def make_engine(url: str) -> Engine:
    """A SQLAlchemy engine for ``url``; SQLite gets WAL, a busy timeout and foreign keys;
    PostgreSQL a connect timeout of :data:`CONNECT_TIMEOUT_S` unless the URL sets one.

    A SQLite file's folder is created if missing.

    Raises:
        StoreError: a malformed or unsupported URL, a driver that is not installed,
            a SQLite folder that cannot be created.
    """
    u = parse_database_url(url)
    try:
        return _make_engine(url, u)
    except ImportError as exc:
        raise StoreError(f"the database driver for {u.drivername!r} is not installed ({exc.name or exc}): "
                         f"use {_URL_FORMS}") from None
    except OSError as exc:
        raise StoreError(f"cannot create the folder of the SQLite database {_shown(u)}: {_reason(exc)}") from None


def _make_engine(url: str, u: URL) -> Engine:
    if u.get_backend_name() == "sqlite":
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:" and not path.startswith("file:"):
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record) -> None:  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    connect_args = {} if "connect_timeout" in u.query else {"connect_timeout": CONNECT_TIMEOUT_S}
    return create_engine(url, pool_size=8, max_overflow=4, pool_pre_ping=True, connect_args=connect_args)


def migrate(engine: Engine, revision: str = "head") -> None:
    """Upgrade the database to ``revision`` with the packaged Alembic migrations.

    SQLite changes a column by rebuilding its table (Alembic's batch mode), which
    foreign keys referring to it would refuse: they are off during the upgrade (as
    SQLite's documentation prescribes, outside the transaction) and checked after it.

    Raises:
        StoreError: an upgrade that left a row referring to nothing.
    """
    cfg = Config()
    cfg.set_main_option("script_location", str(_MIGRATIONS))
    with engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            conn.commit()
        try:
            with conn.begin():
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, revision)
            if sqlite:
                broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                conn.commit()
                if broken:
                    raise StoreError(f"the upgrade left {len(broken)} row(s) referring to nothing "
                                     f"(first: {tuple(broken[0])})")
        finally:
            if sqlite:
                conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                conn.commit()


@dataclass(frozen=True)
class Entry:
    """One chip movement: ``amount`` (signed, whole chips) on ``account``.

    ``account`` is one of :data:`~fourcards.store.models.ACCOUNTS`;
    ``player_id`` is required for ``"player"``.
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
    """Everything one action writes, committed in one transaction.

    ``deal_id`` names an existing deal; or ``open`` creates it (then
    ``deal_id`` is None). ``records`` are history records appended from
    ``seq`` on (an action may bring chance events with it). ``entries`` must
    sum to zero.
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
    """Chips between the bank and players, and changes of seats and the table, in one transaction.

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


@dataclass
class PlayerRow:
    """A player as loaded at startup (see :meth:`Store.load_tables`); ``seat`` is ``None``
    for one who left (``status`` ``"left"``)."""

    id: int
    seat: int | None
    name: str
    token_hash: str
    is_host: bool
    is_bot: bool
    bot_kind: str | None
    balance: int
    status: str = "playing"


@dataclass
class TableRow:
    """A table as loaded at startup, with its players and next deal number."""

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


def _check_entries(entries: Iterable[Entry]) -> None:
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


class Store:
    """The fourcards database: tables, players, deals with their history, the ledger.

    Args:
        url: SQLAlchemy URL (see module docstring).
        run_migrations: upgrade the schema to the latest revision now.

    Raises:
        StoreError: a URL that cannot be used (see :func:`make_engine`), a
            database that cannot be reached or opened, or one whose schema the
            migrations cannot bring up to date - one sentence, no password.
    """

    def __init__(self, url: str, *, run_migrations: bool = True) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.Session = sessionmaker(self.engine, expire_on_commit=False)
        if run_migrations:
            try:
                migrate(self.engine)
            except (SQLAlchemyError, OSError, CommandError) as exc:
                self.engine.dispose()
                raise StoreError(f"cannot open the database at {_shown(self.engine.url)}: {_reason(exc)}") \
                    from None

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self.engine.dialect.name

    def close(self) -> None:
        """Release the connection pool."""
        self.engine.dispose()

    # ----------------------------------------------------------------- writes

    def _add_entries(self, s: Session, table_id: str, deal_id: int | None, entries: list[Entry]) -> None:
        _check_entries(entries)
        txn = uuid.uuid4().hex
        now = utcnow()
        for e in entries:
            s.add(LedgerEntry(txn=txn, table_id=table_id, deal_id=deal_id, account=e.account,
                              player_id=e.player_id, amount=e.amount, memo=e.memo, created_at=now))

    def create_table(self, table_id: str, game: str, name: str, rules: dict[str, Any],
                     settings: dict[str, Any], public: bool = False) -> None:
        """Insert a table row (private unless ``public``)."""
        with self.Session.begin() as s:
            s.add(GameTable(id=table_id, game=game, name=name, rules=rules, settings=settings,
                            status="open", public=public, created_at=utcnow()))

    def add_player(self, table_id: str, seat: int | None, name: str, token_hash: str, *, buy_in: int,
                   is_host: bool = False, is_bot: bool = False, bot_kind: str | None = None) -> int:
        """Seat a player and credit the buy-in (bank -> player) in one transaction.

        Returns:
            the new player's id.
        Raises:
            sqlalchemy.exc.IntegrityError: the seat is taken.
        """
        with self.Session.begin() as s:
            p = Player(table_id=table_id, seat=seat, name=name, token_hash=token_hash, is_host=is_host,
                       is_bot=is_bot, bot_kind=bot_kind, created_at=utcnow())
            s.add(p)
            s.flush()
            if buy_in:
                self._add_entries(s, table_id, None, [Entry("player", buy_in, p.id, "buy_in"),
                                                      Entry("bank", -buy_in, None, "buy_in")])
            return p.id

    def begin_run(self, host: str, pid: int) -> int:
        """Record the start of a server that holds the server lock; its id is the run's epoch
        (every table version of the run is above every version of earlier runs)."""
        with self.Session.begin() as s:
            run = ServerRun(host=host[:255], pid=pid, started_at=utcnow())
            s.add(run)
            s.flush()
            return int(run.id)

    def change_seats(self, change: SeatChange) -> None:
        """Apply a :class:`SeatChange` in one transaction.

        Raises:
            StoreError: an unknown column, an amount beyond the ledger's bound.
            sqlalchemy.exc.IntegrityError: a seat or token already taken.
        """
        allowed_p = {"seat", "status", "token_hash", "is_host", "name"}
        allowed_t = {"status", "public", "settings", "name"}
        bad = {k for fields in change.players.values() for k in fields} - allowed_p | set(change.table) - allowed_t
        if bad:
            raise StoreError(f"cannot change {', '.join(sorted(bad))}")
        entries = [e for pid, amount, memo in change.moves if amount
                   for e in (Entry("player", amount, pid, memo), Entry("bank", -amount, None, memo))]
        with self.Session.begin() as s:
            # a seat given up first: another player may take it in the same change
            for pid, fields in sorted(change.players.items(), key=lambda kv: kv[1].get("seat") is not None):
                s.execute(update(Player).where(Player.id == pid, Player.table_id == change.table_id).values(**fields))
                s.flush()
            if change.table:
                s.execute(update(GameTable).where(GameTable.id == change.table_id).values(**change.table))
            if entries:
                self._add_entries(s, change.table_id, None, entries)

    def write_deal(self, w: DealWrite) -> int:
        """Commit one action's writes (see :class:`DealWrite`) in one transaction.

        Uses SQLAlchemy Core (one connection, bulk inserts): this is the hot path
        of every action at a table.

        Returns:
            the deal's id.
        Raises:
            StoreError: unbalanced entries, or neither ``deal_id`` nor ``open``.
        """
        _check_entries(w.entries)
        if w.deal_id is None and w.open is None:
            raise StoreError("a deal write needs a deal_id or an open")
        now = utcnow()
        deals = cast(Table, Deal.__table__)
        actions = cast(Table, DealAction.__table__)
        ledger = cast(Table, LedgerEntry.__table__)
        with self.engine.begin() as conn:
            deal_id = w.deal_id
            if w.open is not None:
                res = conn.execute(insert(deals).values(
                    table_id=w.table_id, number=w.open.number, status="in_progress", seats=w.open.seats,
                    rules=w.open.rules, started_at=now))
                pk = res.inserted_primary_key
                assert pk is not None
                deal_id = int(pk[0])
            if w.records:
                conn.execute(insert(actions), [
                    {"deal_id": deal_id, "seq": w.seq + i, "player_id": w.player_id, "record": rec,
                     "created_at": now} for i, rec in enumerate(w.records)])
            if w.entries:
                txn = uuid.uuid4().hex
                conn.execute(insert(ledger), [
                    {"txn": txn, "table_id": w.table_id, "deal_id": deal_id, "account": e.account,
                     "player_id": e.player_id, "amount": e.amount, "memo": e.memo, "created_at": now}
                    for e in w.entries])
            if w.close is not None:
                conn.execute(update(deals).where(deals.c.id == deal_id).values(
                    status=w.close.status, result=w.close.result, void_reason=w.close.void_reason, ended_at=now))
            assert deal_id is not None
            return deal_id

    def void_interrupted_deals(self, reason: str = "server restart: deal interrupted") -> list[dict[str, Any]]:
        """Void every deal still in progress (after a crash or restart) and refund it.

        Each player gets back exactly what they put on the layout or into the pot
        for that deal (from the ledger), so balances return to what they were
        before the deal; a ``void`` record is appended to the deal's history.

        Returns:
            one dict per voided deal: ``table_id``, ``number``, ``refunds``
            (``{player_id: chips}``).
        """
        out = []
        with self.Session.begin() as s:
            deals = s.scalars(select(Deal).where(Deal.status == "in_progress").order_by(Deal.id)).all()
            for d in deals:
                rows = s.execute(
                    select(LedgerEntry.account, LedgerEntry.player_id, func.sum(LedgerEntry.amount))
                    .where(LedgerEntry.deal_id == d.id)
                    .group_by(LedgerEntry.account, LedgerEntry.player_id)
                ).all()
                entries: list[Entry] = []
                refunds: dict[int, int] = {}
                for account, player_id, total in rows:
                    total = int(total or 0)
                    if total:
                        entries.append(Entry(account, -total, player_id, "refund"))
                        if account == "player" and player_id is not None:
                            refunds[int(player_id)] = -total
                if entries:
                    self._add_entries(s, d.table_id, d.id, entries)
                seq = s.scalar(select(func.coalesce(func.max(DealAction.seq), -1))
                               .where(DealAction.deal_id == d.id))
                s.add(DealAction(deal_id=d.id, seq=(-1 if seq is None else int(seq)) + 1, player_id=None,
                                 record={"kind": "void", "reason": reason}, created_at=utcnow()))
                d.status = "voided"
                d.void_reason = reason
                d.ended_at = utcnow()
                d.result = {"voided": True, "refunds": {str(k): v for k, v in refunds.items()}}
                out.append({"table_id": d.table_id, "number": d.number, "refunds": refunds})
        return out

    # ------------------------------------------------------------------ reads

    def load_tables(self) -> list[TableRow]:
        """Every table (open and closed) with its players, those who left included
        (and their balances from the ledger)."""
        with self.Session() as s:
            balances = dict(s.execute(
                select(LedgerEntry.player_id, func.sum(LedgerEntry.amount))
                .where(LedgerEntry.account == "player").group_by(LedgerEntry.player_id)).all())
            next_numbers = dict(s.execute(
                select(Deal.table_id, func.max(Deal.number)).group_by(Deal.table_id)).all())
            players: dict[str, list[PlayerRow]] = defaultdict(list)
            for p in s.scalars(select(Player).order_by(Player.table_id, Player.id)):
                players[p.table_id].append(PlayerRow(p.id, p.seat, p.name, p.token_hash, p.is_host, p.is_bot,
                                                     p.bot_kind, int(balances.get(p.id) or 0), p.status))
            tables = s.scalars(select(GameTable).order_by(GameTable.created_at)).all()
            return [TableRow(t.id, t.game, t.name, t.rules, t.settings, t.created_at, players[t.id],
                             int(next_numbers.get(t.id) or 0) + 1, t.status, bool(t.public)) for t in tables]

    def chip_totals(self, table_id: str) -> dict[str, Any]:
        """The night's figures of a table from its ledger: per player the sums by memo
        (``{player_id: {memo: chips}}``, player entries only) and the balances of the
        ``house`` and of the escrow accounts (``bets`` + ``pot``: chips in play now)."""
        with self.Session() as s:
            per: dict[int, dict[str, int]] = defaultdict(dict)
            for pid, memo, total in s.execute(
                    select(LedgerEntry.player_id, LedgerEntry.memo, func.sum(LedgerEntry.amount))
                    .where(LedgerEntry.table_id == table_id, LedgerEntry.account == "player")
                    .group_by(LedgerEntry.player_id, LedgerEntry.memo)):
                per[int(pid or 0)][str(memo)] = int(total or 0)
            accounts = dict(s.execute(
                select(LedgerEntry.account, func.sum(LedgerEntry.amount))
                .where(LedgerEntry.table_id == table_id).group_by(LedgerEntry.account)).all())
            return {"players": dict(per), "house": int(accounts.get("house") or 0),
                    "in_play": int(accounts.get("bets") or 0) + int(accounts.get("pot") or 0)}

    def balances(self, table_id: str) -> dict[int, int]:
        """``{player_id: chips}`` for the players of a table, from the ledger."""
        with self.Session() as s:
            rows = s.execute(
                select(Player.id, func.coalesce(func.sum(LedgerEntry.amount), 0))
                .select_from(Player)
                .join(LedgerEntry, (LedgerEntry.player_id == Player.id) & (LedgerEntry.account == "player"),
                      isouter=True)
                .where(Player.table_id == table_id).group_by(Player.id)).all()
            return {int(pid): int(b) for pid, b in rows}

    def list_deals(self, table_id: str, limit: int = 50) -> list[dict[str, Any]]:
        """The table's latest deals (newest first), without their histories; each with
        ``nets``: ``{player_id: chips}`` won (+) or lost (-) in that deal, from the ledger."""
        with self.Session() as s:
            deals = s.scalars(select(Deal).where(Deal.table_id == table_id)
                              .order_by(Deal.number.desc()).limit(limit)).all()
            nets: dict[int, dict[int, int]] = defaultdict(dict)
            if deals:
                for deal_id, pid, total in s.execute(
                        select(LedgerEntry.deal_id, LedgerEntry.player_id, func.sum(LedgerEntry.amount))
                        .where(LedgerEntry.deal_id.in_([d.id for d in deals]), LedgerEntry.account == "player")
                        .group_by(LedgerEntry.deal_id, LedgerEntry.player_id)):
                    nets[int(deal_id or 0)][int(pid or 0)] = int(total or 0)
            return [{**_deal_summary(d), "nets": nets.get(d.id, {})} for d in deals]

    def get_deal(self, table_id: str, number: int) -> dict[str, Any] | None:
        """One deal with its full history and ledger entries, or None."""
        with self.Session() as s:
            d = s.scalar(select(Deal).where(Deal.table_id == table_id, Deal.number == number))
            if d is None:
                return None
            out = _deal_summary(d)
            out["history"] = [a.record for a in s.scalars(
                select(DealAction).where(DealAction.deal_id == d.id).order_by(DealAction.seq))]
            out["ledger"] = [_entry_dict(e) for e in s.scalars(
                select(LedgerEntry).where(LedgerEntry.deal_id == d.id).order_by(LedgerEntry.id))]
            return out

    def ledger(self, table_id: str, limit: int = 500) -> list[dict[str, Any]]:
        """The table's latest ledger entries (oldest first)."""
        with self.Session() as s:
            rows = s.scalars(select(LedgerEntry).where(LedgerEntry.table_id == table_id)
                             .order_by(LedgerEntry.id.desc()).limit(limit)).all()
            return [_entry_dict(e) for e in reversed(rows)]

    def ledger_check(self, table_id: str | None = None) -> dict[str, Any]:
        """Audit: the sum of all entries (0), transactions that do not sum to 0
        (none), and the balance of each deal's ``bets``/``pot`` account for deals
        that have ended (all 0)."""
        with self.Session() as s:
            q = select(func.coalesce(func.sum(LedgerEntry.amount), 0))
            qt = select(LedgerEntry.txn).group_by(LedgerEntry.txn).having(func.sum(LedgerEntry.amount) != 0)
            qd = (select(Deal.id, func.sum(LedgerEntry.amount)).join(LedgerEntry, LedgerEntry.deal_id == Deal.id)
                  .where(Deal.status != "in_progress", LedgerEntry.account.in_(("bets", "pot")))
                  .group_by(Deal.id).having(func.sum(LedgerEntry.amount) != 0))
            if table_id is not None:
                q = q.where(LedgerEntry.table_id == table_id)
                qt = qt.where(LedgerEntry.table_id == table_id)
                qd = qd.where(Deal.table_id == table_id)
            return {"total": int(s.scalar(q) or 0),
                    "unbalanced_txns": [r for r in s.scalars(qt)],
                    "open_escrow_deals": [int(r[0]) for r in s.execute(qd)]}

    # ------------------------------------------------ real cards (docs/rules.md FOAK-15)

    def take_back_records(self, deal_id: int, seq: int, count: int) -> None:
        """Remove the last ``count`` history records of deal ``deal_id`` - those from ``seq`` on -
        in one transaction: the host of a table dealt with real cards took back a card (with
        what followed it by itself), so the stored history replays to the deal as it stands.
        No ledger entry changes: a card moves no chips unless it ends the deal, and the cards
        of a deal that ended are never taken back.

        Raises:
            StoreError: the deal is not in progress, or does not hold exactly ``count``
                records from ``seq`` on, the last of them its last (nothing is removed).
        """
        with self.Session.begin() as s:
            status = s.scalar(select(Deal.status).where(Deal.id == deal_id))
            if status != "in_progress":
                raise StoreError(f"deal {deal_id} is {status or 'unknown'}: its history records stay")
            rows = s.scalars(select(DealAction).where(DealAction.deal_id == deal_id, DealAction.seq >= seq)
                             .order_by(DealAction.seq)).all()
            if [r.seq for r in rows] != list(range(seq, seq + count)):
                raise StoreError(f"deal {deal_id} holds {len(rows)} record(s) from seq {seq} on, not the {count} "
                                 "to take back: nothing removed")
            for row in rows:
                s.delete(row)


def _deal_summary(d: Deal) -> dict[str, Any]:
    return {"number": d.number, "status": d.status, "seats": d.seats, "rules": d.rules,
            "result": d.result, "void_reason": d.void_reason,
            "started_at": d.started_at.isoformat() if d.started_at else None,
            "ended_at": d.ended_at.isoformat() if d.ended_at else None}


def _entry_dict(e: LedgerEntry) -> dict[str, Any]:
    return {"id": e.id, "txn": e.txn, "deal_id": e.deal_id, "account": e.account, "player_id": e.player_id,
            "amount": e.amount, "memo": e.memo}
