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

import logging
import os
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any, cast

from alembic import command
from alembic.config import Config
from alembic.util.exc import CommandError
from sqlalchemy import (
    URL,
    Connection,
    Engine,
    Table,
    and_,
    bindparam,
    case,
    create_engine,
    delete,
    event,
    func,
    insert,
    make_url,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import ArgumentError, DBAPIError, SQLAlchemyError
from sqlalchemy.orm import sessionmaker

from fourcards.store.base import (
    CommitResult,
    StoreError,
    TableCommit,
    VersionConflict,
    check_entries,
    check_seat_change,
)
from fourcards.store.fast import _DATETIME, commit_moves, fetched, takes_fast_path, write_moves
from fourcards.store.models import (
    Deal,
    DealAction,
    GameTable,
    LedgerEntry,
    Liveness,
    Player,
    TableChatLine,
    TableLogLine,
    utcnow,
)
from fourcards.table.writes import (
    ChatLine,
    DealClose,
    DealOpen,
    DealWrite,
    Entry,
    NewPlayer,
    OpenDeal,
    PlayerRow,
    SeatChange,
    TableRow,
    TakeBack,
)

__all__ = [
    "Entry",
    "DealOpen",
    "DealClose",
    "DealWrite",
    "SeatChange",
    "NewPlayer",
    "TakeBack",
    "TableCommit",
    "CommitResult",
    "TableRow",
    "OpenDeal",
    "StoreError",
    "VersionConflict",
    "CHANGES_CHANNEL",
    "DUE_UNTOLD",
    "change_payload",
    "parse_change",
    "Store",
    "default_database_url",
    "make_engine",
    "migrate",
    "downgrade",
    "alembic_config",
    "parse_database_url",
    "SQLITE_SYNCHRONOUS",
    "SUPPORTED_DATABASES",
]

log = logging.getLogger(__name__)

_MIGRATIONS = Path(__file__).resolve().parent / "migrations"

#: Database kinds fourcards runs on (SQLAlchemy backend names).
SUPPORTED_DATABASES = ("sqlite", "postgresql")
_URL_FORMS = "sqlite:///path/to/file.db or postgresql+psycopg://user:password@host/database"
#: Seconds to wait for a PostgreSQL server to answer (unless the URL sets connect_timeout).
CONNECT_TIMEOUT_S = 10
#: The PostgreSQL advisory lock key that serializes migrations of servers starting at once.
_MIGRATION_LOCK = 0x46_4F_55_52_43_41_52_44  # "FOURCARD"
#: SQLite's ``synchronous`` setting on every connection (the engine's and the moves'): ``FULL``
#: syncs the write-ahead log at every commit, so a committed chip movement survives a power
#: cut or an operating system crash, not only a crash of the server process (``NORMAL``).
#: Its cost is measured in docs/benchmarks.md (issue 27).
SQLITE_SYNCHRONOUS = "FULL"
#: The PostgreSQL NOTIFY channel of table writes; each payload is
#: ``"<table id> <version> <origin> <due>"`` (:func:`change_payload`, read by :func:`parse_change`).
CHANGES_CHANNEL = "fourcards_tables"
#: :func:`parse_change`'s due time of a notification that does not tell it (a server before the
#: due field, or the retention job): any time, so a listener looks for due work at once.
DUE_UNTOLD = float("-inf")


def change_payload(table_id: str, version: int, origin: str, due_at: float | None) -> str:
    """The :data:`CHANGES_CHANNEL` payload of a table write: the table, its new ``version``, the
    writing server's ``origin`` and the table's ``due_at`` after the write (Unix seconds, ``-``:
    nothing due), so another server's due-work loop looks at once only when that time comes
    before its own next look (an action far from any time-out wakes nobody)."""
    return f"{table_id} {version} {origin} {'-' if due_at is None else repr(float(due_at))}"


def parse_change(payload: str) -> tuple[str, int, str, float | None]:
    """``(table id, version, origin, due_at)`` of a :data:`CHANGES_CHANNEL` payload; ``due_at``
    is ``None`` for nothing due and :data:`DUE_UNTOLD` when the payload has no due field or an
    unreadable one (older servers send three fields, the retention job two or three).

    Raises:
        ValueError: a version that is not a whole number.
    """
    tid, version, origin, told = (payload.split(" ") + ["", "", ""])[:4]
    if told == "-":
        return tid, int(version or 0), origin, None
    try:
        due = float(told)
    except ValueError:
        due = DUE_UNTOLD
    return tid, int(version or 0), origin, due if due == due else DUE_UNTOLD  # NaN: untold


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
    """A SQLAlchemy engine for ``url``; SQLite gets WAL, :data:`SQLITE_SYNCHRONOUS`, a busy
    timeout and foreign keys;
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
            cur.execute(f"PRAGMA synchronous={SQLITE_SYNCHRONOUS}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    connect_args = {} if "connect_timeout" in u.query else {"connect_timeout": CONNECT_TIMEOUT_S}
    return create_engine(url, pool_size=8, max_overflow=4, pool_pre_ping=True, connect_args=connect_args)


def alembic_config() -> Config:
    """The Alembic configuration of the packaged migrations (no database URL: the store hands
    Alembic its own connection)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(_MIGRATIONS))
    return cfg


def migrate(engine: Engine, revision: str = "head") -> None:
    """Upgrade the database to ``revision`` with the packaged Alembic migrations.

    On PostgreSQL the upgrade holds an advisory lock, so servers starting at once
    migrate one after the other (the later ones find the schema up to date); SQLite
    writes one at a time anyway.

    SQLite changes a column by rebuilding its table (Alembic's batch mode), which
    foreign keys referring to it would refuse: they are off during the upgrade (as
    SQLite's documentation prescribes, outside the transaction) and checked after it.

    Raises:
        StoreError: an upgrade that left a row referring to nothing.
    """
    _alembic(engine, lambda cfg: command.upgrade(cfg, revision))


def downgrade(engine: Engine, revision: str) -> None:
    """Downgrade the database to ``revision`` (``"0006"``, ``"-1"``, ``"base"``), under the same
    lock and foreign key handling as :func:`migrate`. What the revisions above it hold is
    dropped (their docstrings say what).

    Raises:
        StoreError: a downgrade that left a row referring to nothing.
    """
    _alembic(engine, lambda cfg: command.downgrade(cfg, revision))


def _alembic(engine: Engine, run: Any) -> None:
    cfg = alembic_config()
    with engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            conn.commit()
        try:
            with conn.begin():
                if not sqlite:  # servers starting at once migrate one after the other
                    conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
                cfg.attributes["connection"] = conn
                run(cfg)
            if sqlite:
                broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                conn.commit()
                if broken:
                    raise StoreError(f"the migration left {len(broken)} row(s) referring to nothing "
                                     f"(first: {tuple(broken[0])})")
        finally:
            if sqlite:
                conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                conn.commit()


_TABLES = cast(Table, GameTable.__table__)
_PLAYERS = cast(Table, Player.__table__)
_DEALS = cast(Table, Deal.__table__)
_ACTIONS = cast(Table, DealAction.__table__)
_LEDGER = cast(Table, LedgerEntry.__table__)
_LOG = cast(Table, TableLogLine.__table__)
_CHAT = cast(Table, TableChatLine.__table__)
#: Table log lines read back with a table.
LOG_LINES = 60
#: Chat messages read back with a table (a state keeps as many: fourcards.table.state.CHAT_KEPT).
CHAT_LINES = 40


def _check(c: TableCommit) -> None:
    """Raises :class:`StoreError` for a change the store refuses before writing anything."""
    for part in c.parts:
        if isinstance(part, DealWrite):
            check_entries(part.entries)
        elif isinstance(part, SeatChange):
            check_seat_change(part)


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
        self._local = threading.local()  # PostgreSQL: each thread's connection for moves (store/fast.py)
        self._fast_conns: list[Any] = []
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
        """Release the connection pool and the connections for moves."""
        for conn in self._fast_conns:
            conn.close()
        self._fast_conns.clear()
        self.engine.dispose()

    # ----------------------------------------------------------------- writes

    @staticmethod
    def _add_entries(conn: Connection, table_id: str, deal_id: int | None, entries: list[Entry]) -> None:
        check_entries(entries)
        if not entries:
            return
        txn, now = uuid.uuid4().hex, utcnow()
        conn.execute(insert(_LEDGER), [
            {"txn": txn, "table_id": table_id, "deal_id": deal_id, "account": e.account, "player_id": e.player_id,
             "amount": e.amount, "memo": e.memo, "created_at": now} for e in entries])

    def create_table(self, table_id: str, game: str, name: str, rules: dict[str, Any],
                     settings: dict[str, Any], public: bool = False) -> None:
        """Insert a table row (private unless ``public``) at version 0."""
        with self.Session.begin() as s:
            s.add(GameTable(id=table_id, game=game, name=name, rules=rules, settings=settings,
                            status="open", public=public, created_at=utcnow(), version=0, active_at=time.time()))

    def commit_table(self, c: TableCommit) -> CommitResult:
        """Write one change of a table (see :class:`TableCommit`) in one transaction, if the
        table still has ``c.version``; on PostgreSQL, NOTIFY :data:`CHANGES_CHANNEL` (sent
        when the transaction commits).

        Raises:
            VersionConflict: the table has another version (or is gone); nothing written.
            StoreError: unbalanced entries or an unknown column; nothing written.
            sqlalchemy.exc.IntegrityError: a seat or token already taken; nothing written.
        """
        _check(c)
        if takes_fast_path(c.parts):  # a move of the deal in progress: one round trip (store/fast.py)
            ok, deal = self._commit_moves(c)
            if not ok:
                raise VersionConflict(f"table {c.table_id!r} changed since version {c.version}")
            return CommitResult(c.version + 1, deal, [])
        with self.engine.begin() as conn:
            return self._write(conn, c)

    def commit_tables(self, commits: list[TableCommit]) -> list[CommitResult | Exception]:
        """Group commit: the changes of several tables (each as :meth:`commit_table` writes it) in
        **one** transaction - one sync to disk for all of them. Each keeps its own version check:
        a change whose table has another version (:class:`VersionConflict`) or whose entries do
        not balance (:class:`StoreError`) writes nothing and the others are committed; a change
        the database refuses midway (a seat taken meanwhile) rolls the transaction back, and then
        each change is committed alone, as :meth:`commit_table` would. Tables are written in the
        order of their ids (servers writing the same tables at once wait for each other, never
        deadlock).

        Returns:
            per commit, in order, its :class:`CommitResult` or the exception that refused it
            (nothing of it written). Only a committed transaction gives results: nothing is
            reported written before it is durable.
        """
        results: list[CommitResult | Exception | None] = [None] * len(commits)
        todo: list[int] = []
        for i, c in enumerate(commits):
            try:
                _check(c)
                todo.append(i)
            except StoreError as exc:
                results[i] = exc
        if len(todo) > 1:
            todo.sort(key=lambda i: commits[i].table_id)
            try:
                for i, r in zip(todo, self._write_together([commits[i] for i in todo])):
                    results[i] = r
                todo = []
            except Exception:  # refused midway: nothing of the batch was written; each alone
                log.info("a group commit of %d tables was refused; committing each alone", len(todo))
        for i in todo:
            try:
                results[i] = self.commit_table(commits[i])
            except Exception as exc:
                results[i] = exc
        return [r for r in results if r is not None]

    def _write_together(self, commits: list[TableCommit]) -> list[CommitResult | Exception]:
        """The changes in one transaction (:meth:`commit_tables`); raises on anything but a
        version conflict, having written nothing."""
        out: list[CommitResult | Exception] = []
        if all(takes_fast_path(c.parts) for c in commits):
            raw = self._sqlite_connection() if self.dialect == "sqlite" else self._pg_connection()
            if raw is not None:
                for c, (ok, deal) in zip(commits, self._moves_together(raw, commits)):
                    out.append(CommitResult(c.version + 1, deal, []) if ok else
                               VersionConflict(f"table {c.table_id!r} changed since version {c.version}"))
                return out
        with self.engine.begin() as conn:
            for c in commits:
                if takes_fast_path(c.parts):
                    ok, deal = commit_moves(conn.connection.dbapi_connection if self.dialect == "postgresql" else conn,
                                            *self._moves_args(c))
                    out.append(CommitResult(c.version + 1, deal, []) if ok else
                               VersionConflict(f"table {c.table_id!r} changed since version {c.version}"))
                    continue
                try:
                    out.append(self._write(conn, c))
                except VersionConflict as exc:  # its first statement found another version: nothing written
                    out.append(exc)
        return out

    def _moves_together(self, raw: Any, commits: list[TableCommit]) -> list[tuple[bool, int | None]]:
        """Moves of several tables in one transaction on the driver's connection ``raw``
        (SQLite: one ``BEGIN IMMEDIATE`` ... ``COMMIT``; PostgreSQL: the statements pipelined
        in one transaction). Whether each table had its version, and its deal's id."""
        if self.dialect == "postgresql":
            try:
                with raw.transaction(), raw.pipeline():
                    curs = []
                    for c in commits:
                        cur = raw.cursor()
                        write_moves(cur, *self._moves_args(c), fetch=False)
                        curs.append((cur, cast(list[DealWrite], c.parts)[0].deal_id if c.parts else None))
                    return [fetched(cur, deal) for cur, deal in curs]
            except Exception:
                self._local.conn = None
                raw.close()
                raise
        stamp = _DATETIME.dialect_impl(self.engine.dialect).bind_processor(self.engine.dialect)
        raw.execute("BEGIN IMMEDIATE")
        cur = raw.cursor()
        try:
            oks = []
            for c in commits:
                args = self._moves_args(c)
                args = (*args[:7], stamp(args[7]) if stamp is not None else args[7], *args[8:])
                oks.append(write_moves(cur, *args))
            raw.execute("COMMIT")
            return oks
        except BaseException:
            raw.execute("ROLLBACK")
            raise
        finally:
            cur.close()

    def _write(self, conn: Connection, c: TableCommit) -> CommitResult:
        """One change through SQLAlchemy Core in ``conn``'s transaction (the table's version
        checked first: on :class:`VersionConflict` nothing of it was written)."""
        res = conn.execute(update(_TABLES).where(_TABLES.c.id == c.table_id, _TABLES.c.version == c.version)
                           .values(version=c.version + 1, state=c.state, due_at=c.due_at,
                                   active_at=time.time()))
        if res.rowcount != 1:
            raise VersionConflict(f"table {c.table_id!r} changed since version {c.version}")
        deal_id: int | None = None
        ids: list[int] = []
        for part in c.parts:
            if isinstance(part, NewPlayer):
                ids.append(self._add_player(conn, c.table_id, part))
            elif isinstance(part, SeatChange):
                self._change_seats(conn, part)
            elif isinstance(part, TakeBack):
                self._take_back(conn, c.table_id, part)
            elif isinstance(part, ChatLine):
                conn.execute(insert(_CHAT).values(
                    table_id=c.table_id, number=part.number, player_id=part.player_id, seat=part.seat or None,
                    name=part.name, kind=part.kind, text=part.text, at=part.at))
            else:
                deal_id = self._write_deal(conn, part, deal_id)
        if c.log:
            now = utcnow()
            conn.execute(insert(_LOG), [{"table_id": c.table_id, "line": line, "created_at": now} for line in c.log])
        if self.dialect == "postgresql":
            conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                         {"channel": CHANGES_CHANNEL,
                          "payload": change_payload(c.table_id, c.version + 1, c.origin, c.due_at)})
        return CommitResult(c.version + 1, deal_id, ids)

    def _moves_args(self, c: TableCommit) -> tuple[str, str, int, Any, float | None, list[DealWrite], list[str], Any,
                                                    str, str]:
        return (self.dialect, c.table_id, c.version, c.state, c.due_at, cast(list[DealWrite], c.parts), c.log,
                utcnow(), CHANGES_CHANNEL, change_payload(c.table_id, c.version + 1, c.origin, c.due_at))

    def _commit_moves(self, c: TableCommit) -> tuple[bool, int | None]:
        """:func:`fourcards.store.fast.commit_moves`: on PostgreSQL over this thread's own
        connection in autocommit mode (opened when first needed, dropped after an error)."""
        args = self._moves_args(c)
        if self.dialect != "postgresql":
            raw = self._sqlite_connection()
            if raw is None:  # an in-memory database: only the engine's connection sees it
                with self.engine.begin() as conn:
                    return commit_moves(conn, *args)
            stamp = _DATETIME.dialect_impl(self.engine.dialect).bind_processor(self.engine.dialect)
            args = (*args[:7], stamp(args[7]) if stamp is not None else args[7], *args[8:])
            return commit_moves(raw, *args)
        import psycopg

        pg = self._pg_connection()
        try:
            return commit_moves(pg, *args)
        except psycopg.Error:
            self._local.conn = None
            pg.close()
            raise

    def _pg_connection(self) -> Any:
        """This thread's own psycopg connection for moves, in autocommit mode (opened when first
        needed)."""
        import psycopg

        pg = getattr(self._local, "conn", None)
        if pg is None or pg.closed:
            conninfo = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
            if "connect_timeout" not in self.engine.url.query:
                conninfo += ("&" if "?" in conninfo else "?") + f"connect_timeout={CONNECT_TIMEOUT_S}"
            pg = self._local.conn = psycopg.connect(conninfo, autocommit=True)
            self._fast_conns.append(pg)
        return pg

    def _sqlite_connection(self) -> Any:
        """This thread's own ``sqlite3`` connection to the database file for moves, in autocommit
        mode with the engine's pragmas (``None`` for an in-memory database)."""
        conn = getattr(self._local, "sqlite", None)
        if conn is not None:
            return conn
        path = self.engine.url.database
        if not path or path == ":memory:" or path.startswith("file:"):
            return None
        import sqlite3

        conn = self._local.sqlite = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
        for pragma in ("journal_mode=WAL", f"synchronous={SQLITE_SYNCHRONOUS}", "foreign_keys=ON"):
            conn.execute(f"PRAGMA {pragma}")
        self._fast_conns.append(conn)
        return conn

    # ----------------------------------------------------- parts of a write

    def _add_player(self, conn: Connection, table_id: str, p: NewPlayer) -> int:
        pk = conn.execute(insert(_PLAYERS).values(
            table_id=table_id, seat=p.seat, name=p.name, token_hash=p.token_hash, is_host=p.is_host,
            is_bot=p.is_bot, bot_kind=p.bot_kind, status="playing", created_at=utcnow())).inserted_primary_key
        assert pk is not None
        pid = int(pk[0])
        if p.buy_in:
            self._add_entries(conn, table_id, None, [Entry("player", p.buy_in, pid, "buy_in"),
                                                     Entry("bank", -p.buy_in, None, "buy_in")])
        return pid

    def _change_seats(self, conn: Connection, change: SeatChange) -> None:
        entries = [e for pid, amount, memo in change.moves if amount
                   for e in (Entry("player", amount, pid, memo), Entry("bank", -amount, None, memo))]
        # a seat given up first: another player may take it in the same change
        for pid, fields in sorted(change.players.items(), key=lambda kv: kv[1].get("seat") is not None):
            conn.execute(update(_PLAYERS).where(_PLAYERS.c.id == pid, _PLAYERS.c.table_id == change.table_id)
                         .values(**fields))
        if change.table:
            conn.execute(update(_TABLES).where(_TABLES.c.id == change.table_id).values(**change.table))
        self._add_entries(conn, change.table_id, None, entries)

    def _write_deal(self, conn: Connection, w: DealWrite, current: int | None) -> int:
        """One :class:`DealWrite` (Core statements: the hot path of every action)."""
        now = utcnow()
        deal_id = w.deal_id
        if w.open is not None:
            pk = conn.execute(insert(_DEALS).values(
                table_id=w.table_id, number=w.open.number, status="in_progress", seats=w.open.seats,
                rules=w.open.rules, started_at=now)).inserted_primary_key
            assert pk is not None
            deal_id = int(pk[0])
        elif deal_id is None:
            deal_id = current if current is not None else conn.execute(
                select(_DEALS.c.id).where(_DEALS.c.table_id == w.table_id, _DEALS.c.status == "in_progress")
                .order_by(_DEALS.c.id.desc()).limit(1)).scalar()
            if deal_id is None:
                raise StoreError(f"table {w.table_id!r} has no deal in progress to write to")
        if w.records:
            conn.execute(insert(_ACTIONS), [
                {"deal_id": deal_id, "seq": w.seq + i, "player_id": w.player_id, "record": rec,
                 "created_at": now} for i, rec in enumerate(w.records)])
        self._add_entries(conn, w.table_id, deal_id, w.entries)
        if w.close is not None:
            conn.execute(update(_DEALS).where(_DEALS.c.id == deal_id).values(
                status=w.close.status, result=w.close.result, void_reason=w.close.void_reason, ended_at=now))
        return int(deal_id)

    # ---------------------------------------------------- due work (bots, clocks)

    def claim_due(self, now: float, lease: float, limit: int = 16) -> list[str]:
        """Claim the tables whose ``due_at`` has come (at most ``limit``, earliest first):
        each gets ``due_at = now + lease``, so no other server takes it meanwhile (and a
        server that dies holding it lets it come due again). PostgreSQL skips rows another
        transaction holds (``FOR UPDATE SKIP LOCKED``); SQLite writes one at a time anyway.

        Returns:
            the claimed table ids.
        """
        lock = " FOR UPDATE SKIP LOCKED" if self.dialect == "postgresql" else ""
        with self.Session.begin() as s:
            rows = s.execute(text(
                "UPDATE game_tables SET due_at = :lease WHERE id IN (SELECT id FROM game_tables "
                f"WHERE due_at <= :now ORDER BY due_at LIMIT :limit{lock}) RETURNING id"),
                {"now": now, "lease": now + lease, "limit": limit}).all()
            return [str(r[0]) for r in rows]

    def beat(self, now: float) -> float | None:
        """Record that a server is alive at ``now``; returns when a server was last alive before
        (``None``: never, a new database). A server starting after a gap longer than a few
        beats knows no server ran in between (docs/rules.md TP-6)."""
        with self.Session.begin() as s:
            # one statement makes the row: servers starting at once on a new database (``serve
            # --workers N``) all looked, found none and inserted it, and all but one failed to start
            made = s.connection().execute(text("INSERT INTO liveness (id, alive_at) VALUES (1, :now) ON CONFLICT (id) DO NOTHING"),
                                          {"now": now}).rowcount
            if made:
                return None
            before = s.execute(select(Liveness.alive_at).where(Liveness.id == 1)).scalar_one()
            s.execute(update(Liveness).where(Liveness.id == 1, Liveness.alive_at < now).values(alive_at=now))
            return float(before)

    def tables_with_due_work(self) -> list[str]:
        """The open tables with a due time (a turn clock running, a bot to move)."""
        with self.Session() as s:
            return [str(i) for i in s.scalars(select(GameTable.id).where(GameTable.due_at.is_not(None),
                                                                         GameTable.status == "open"))]

    def next_due(self) -> float | None:
        """The earliest ``due_at`` of any table (Unix seconds), or ``None``."""
        with self.Session() as s:
            due = s.scalar(select(func.min(GameTable.due_at)))
            return None if due is None else float(due)

    def set_due(self, table_id: str, version: int, due_at: float | None) -> bool:
        """Set a table's ``due_at`` if it still has ``version`` (a claim that found nothing
        to do); the version stays. Returns whether it was set."""
        with self.Session.begin() as s:
            res = s.execute(update(GameTable).where(GameTable.id == table_id, GameTable.version == version)
                            .values(due_at=due_at))
            return bool(res.rowcount)  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ reads

    def table_versions(self, table_ids: Iterable[str] | None = None) -> dict[str, int]:
        """``{table id: version}`` of the given tables (``None``: of every open table)."""
        q = _reads()
        with self.engine.connect() as s:  # Core, a statement built once: every read of a table asks first
            rows = s.execute(q["open_versions"]) if table_ids is None else \
                s.execute(q["versions"], {"table_ids": list(table_ids)})
            return {str(i): int(v) for i, v in rows}

    def public_tables(self, limit: int = 50, after: str | None = None) -> dict[str, int]:
        """``{table id: version}`` of open public tables (the lobby's), newest first: at most
        ``limit``, those after the table ``after`` in that order (a page of the lobby; an unknown
        ``after``: none). Two short queries whatever the page."""
        q = select(GameTable.id, GameTable.version).where(GameTable.status == "open", GameTable.public)
        with self.Session() as s:
            if after is not None:
                mark = s.execute(select(GameTable.created_at).where(GameTable.id == after)).scalar_one_or_none()
                if mark is None:
                    return {}
                q = q.where(or_(GameTable.created_at < mark, and_(GameTable.created_at == mark, GameTable.id < after)))
            q = q.order_by(GameTable.created_at.desc(), GameTable.id.desc()).limit(limit)
            return {str(i): int(v) for i, v in s.execute(q).all()}

    def load_table(self, table_id: str) -> TableRow | None:
        """A table as it is now: its row, players (those who left included) with their
        balances from the ledger, next deal number, version, state, the deal in progress
        and the last finished deal with their histories, the latest :data:`LOG_LINES` lines of
        the table log and :data:`CHAT_LINES` chat messages - one consistent snapshot (PostgreSQL: REPEATABLE READ; SQLite: the
        version is read first, so a later write shows as a newer version). ``None``: no such table."""
        # six queries of columns (no ORM objects), built once (_reads): the table, its players with
        # their balances, its last two deals, their records, its log, its chat (issue 28: another
        # server's write makes a copy here stale, and this read is then the cost of that change here)
        q = _reads()
        with self.engine.connect() as s:  # Core: no ORM session's work per statement
            if self.dialect == "postgresql":
                s.execution_options(isolation_level="REPEATABLE READ")
            at = {"table_id": table_id}
            t = s.execute(q["table"], at).first()
            if t is None:
                return None
            players = [PlayerRow(int(p.id), p.seat, p.name, p.token_hash, p.is_host, p.is_bot, p.bot_kind,
                                 int(p.balance or 0), p.status, -int(p.away or 0))
                       for p in s.execute(q["players"], at)]
            deals = s.execute(q["deals"], at).all()
            current = next((d for d in deals if d.status == "in_progress"), None)
            finished = next((d for d in deals if d.status != "in_progress"), None)
            wanted = [int(d.id) for d in (current, finished) if d is not None]
            records: dict[int, list[dict[str, Any]]] = {i: [] for i in wanted}
            if wanted:
                for deal_id, record in s.execute(q["records"], {"deal_ids": wanted}):
                    records[int(deal_id)].append(record)

            def stored(d: Any) -> OpenDeal | None:
                if d is None:
                    return None
                # a finished deal whose history retention removed (store/retention.py) is not replayed
                kept = records[int(d.id)]
                return OpenDeal(int(d.id), int(d.number), dict(d.seats or {}), kept) \
                    if kept or d.status == "in_progress" else None

            log = list(s.scalars(q["log"], at))[::-1]
            chat = [ChatLine(int(m.number), int(m.player_id), int(m.seat or 0), m.name, m.text, m.kind, float(m.at))
                    for m in s.execute(q["chat"], at)][::-1]
            last = int(deals[0].number) if deals else 0  # the highest deal number
            return TableRow(t.id, t.game, t.name, t.rules, t.settings, t.created_at, players, last + 1,
                            t.status, bool(t.public), int(t.version or 0), t.state, stored(current), stored(finished),
                            log, chat)

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

    def finished_deals(self, table_id: str, after: int = 0, limit: int = 50) -> list[dict[str, Any]]:
        """The table's finished (settled or voided) deals numbered above ``after``, at most
        ``limit`` of them in order of number, each as :meth:`get_deal` gives it (history and
        ledger entries) - three queries per batch, for exports read batch by batch."""
        with self.Session() as s:
            deals = s.scalars(select(Deal).where(Deal.table_id == table_id, Deal.number > after,
                                                 Deal.status != "in_progress")
                              .order_by(Deal.number).limit(limit)).all()
            if not deals:
                return []
            ids = [d.id for d in deals]
            history: dict[int, list[dict[str, Any]]] = defaultdict(list)
            for a in s.scalars(select(DealAction).where(DealAction.deal_id.in_(ids))
                               .order_by(DealAction.deal_id, DealAction.seq)):
                history[a.deal_id].append(a.record)
            entries: dict[int, list[dict[str, Any]]] = defaultdict(list)
            for e in s.scalars(select(LedgerEntry).where(LedgerEntry.deal_id.in_(ids)).order_by(LedgerEntry.id)):
                entries[int(e.deal_id or 0)].append(_entry_dict(e))
            return [{**_deal_summary(d), "history": history[d.id], "ledger": entries[d.id]} for d in deals]

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

    @staticmethod
    def _take_back(conn: Connection, table_id: str, t: TakeBack) -> None:
        """One :class:`TakeBack` (in a :meth:`commit_table`).

        Raises:
            StoreError: the deal is not in progress, or its records from ``t.seq`` on are not
                exactly ``t.count``, the last of them its last (the whole commit is undone).
        """
        deal_id = t.deal_id
        if deal_id is None:
            deal_id = conn.execute(select(_DEALS.c.id).where(_DEALS.c.table_id == table_id,
                                                             _DEALS.c.status == "in_progress")
                                   .order_by(_DEALS.c.id.desc()).limit(1)).scalar()
        status = conn.execute(select(_DEALS.c.status).where(_DEALS.c.id == deal_id)).scalar()
        if status != "in_progress":
            raise StoreError(f"deal {deal_id} is {status or 'unknown'}: its history records stay")
        where = (_ACTIONS.c.deal_id == deal_id) & (_ACTIONS.c.seq >= t.seq)
        held = sorted(int(x) for x in conn.execute(select(_ACTIONS.c.seq).where(where)).scalars())
        if held != list(range(t.seq, t.seq + t.count)):
            raise StoreError(f"deal {deal_id} holds {len(held)} record(s) from seq {t.seq} on, not the "
                             f"{t.count} to take back: nothing removed")
        conn.execute(delete(_ACTIONS).where(where))


@cache
def _reads() -> dict[str, Any]:
    """The statements :meth:`Store.load_table` and :meth:`Store.table_versions` run, built once
    (building one costs more than running it): each takes ``table_id`` (the records:
    ``deal_ids``; the versions: ``table_ids``)."""
    table_id: Any = bindparam("table_id")
    mine = and_(LedgerEntry.table_id == table_id, LedgerEntry.account == "player")
    money = (select(LedgerEntry.player_id.label("player_id"), func.sum(LedgerEntry.amount).label("balance"),
                    func.sum(case((LedgerEntry.memo.in_(("cash_out", "rejoin")), LedgerEntry.amount),
                                  else_=0)).label("away"))
             .where(mine).group_by(LedgerEntry.player_id).subquery())
    return {
        "versions": select(GameTable.id, GameTable.version)
        .where(GameTable.id.in_(bindparam("table_ids", expanding=True))),
        "open_versions": select(GameTable.id, GameTable.version).where(GameTable.status == "open"),
        "table": select(GameTable.id, GameTable.game, GameTable.name, GameTable.rules, GameTable.settings,
                        GameTable.created_at, GameTable.status, GameTable.public, GameTable.version,
                        GameTable.state).where(GameTable.id == table_id),
        "players": select(Player.id, Player.seat, Player.name, Player.token_hash, Player.is_host, Player.is_bot,
                          Player.bot_kind, Player.status, money.c.balance, money.c.away)
        .outerjoin(money, money.c.player_id == Player.id).where(Player.table_id == table_id).order_by(Player.id),
        "deals": select(Deal.id, Deal.number, Deal.status, Deal.seats).where(Deal.table_id == table_id)
        .order_by(Deal.number.desc()).limit(2),
        "records": select(DealAction.deal_id, DealAction.record)
        .where(DealAction.deal_id.in_(bindparam("deal_ids", expanding=True)))
        .order_by(DealAction.deal_id, DealAction.seq),
        "log": select(TableLogLine.line).where(TableLogLine.table_id == table_id)
        .order_by(TableLogLine.id.desc()).limit(LOG_LINES),
        "chat": select(TableChatLine.number, TableChatLine.player_id, TableChatLine.seat, TableChatLine.name,
                       TableChatLine.text, TableChatLine.kind, TableChatLine.at)
        .where(TableChatLine.table_id == table_id).order_by(TableChatLine.number.desc()).limit(CHAT_LINES),
    }


def _deal_summary(d: Deal) -> dict[str, Any]:
    return {"number": d.number, "status": d.status, "seats": d.seats, "rules": d.rules,
            "result": d.result, "void_reason": d.void_reason,
            "started_at": d.started_at.isoformat() if d.started_at else None,
            "ended_at": d.ended_at.isoformat() if d.ended_at else None}


def _entry_dict(e: LedgerEntry) -> dict[str, Any]:
    return {"id": e.id, "txn": e.txn, "deal_id": e.deal_id, "account": e.account, "player_id": e.player_id,
            "amount": e.amount, "memo": e.memo}
