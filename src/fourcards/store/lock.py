"""The server lock: one ``fourcards serve`` per database at a time.

A server takes this lock before it reads or writes any table data (migrations,
the recovery of interrupted deals, loading tables) and holds it until it stops.
A second server on the same database cannot take it and refuses to start
(:class:`DatabaseInUse`), leaving the first one's tables untouched. The
operating system or the database server releases the lock when the holding
process ends, however it ends (SIGKILL included), so a restart after a crash
takes it at once.

* **PostgreSQL**: a session-level advisory lock (``pg_try_advisory_lock``) held
  on a dedicated connection of its own, keyed by the database's current schema
  (two schemas of one database are two databases to fourcards, as in the tests).
  The connection's ``application_name`` names the holder, so the refusal can say
  who holds it.
* **SQLite**: an exclusive ``flock`` on a file next to the database,
  ``<database file>.lock`` (SQLite's own locks are per transaction, and a lock
  taken on the database file itself would be dropped by SQLite's POSIX locks);
  the file holds the holder's host, process id and start time. An in-memory
  database needs no lock.

Issue 12 (a stateless web tier) replaces this with servers that share a
database on purpose.
"""

from __future__ import annotations

import json
import os
import socket
import zlib
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from sqlalchemy import create_engine, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import NullPool

from fourcards.store.db import CONNECT_TIMEOUT_S, StoreError, _reason, _shown, parse_database_url

__all__ = ["DatabaseInUse", "ServerLock", "acquire_server_lock", "LOCK_CLASS"]

#: The first key of fourcards' PostgreSQL advisory lock ("FCRD"); the second is the schema's CRC-32.
LOCK_CLASS = 0x46435244


class DatabaseInUse(StoreError):
    """Another fourcards server holds this database's server lock."""


def _holder() -> dict[str, Any]:
    return {"host": socket.gethostname(), "pid": os.getpid(),
            "since": datetime.now(UTC).isoformat(timespec="seconds")}


def _signed32(n: int) -> int:
    return n - 2**32 if n >= 2**31 else n


class ServerLock:
    """A held server lock; :meth:`release` (or the process's end) lets it go.

    Use :func:`acquire_server_lock` to take one.
    """

    def __init__(self, description: str, *, file: IO[str] | None = None, engine: Engine | None = None,
                 conn: Connection | None = None) -> None:
        self.description = description
        self._file = file
        self._engine = engine
        self._conn = conn

    @property
    def watched(self) -> bool:
        """Whether the lock lives on a database connection that could be dropped (PostgreSQL)."""
        return self._conn is not None

    @property
    def held(self) -> bool:
        """Whether this object still holds the lock."""
        return self._file is not None or self._conn is not None

    def alive(self) -> bool:
        """Whether the lock is still held (PostgreSQL: its connection still answers)."""
        if self._conn is None:
            return self._file is not None or self.description == "none"
        try:
            self._conn.execute(text("SELECT 1"))
            return True
        except SQLAlchemyError:
            return False

    def release(self) -> None:
        """Let the lock go (idempotent)."""
        if self._file is not None:
            try:
                self._file.close()  # closing the descriptor drops the flock
            finally:
                self._file = None
        if self._conn is not None:
            try:
                self._conn.close()  # the session ends: its advisory lock goes with it
            except SQLAlchemyError:  # pragma: no cover - a connection already lost
                pass
            self._conn = None
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None


def sqlite_lock_path(url: str) -> Path | None:
    """The lock file of a SQLite URL (``<file>.lock``), ``None`` for an in-memory database."""
    u = parse_database_url(url)
    path = u.database or ""
    if not path or path == ":memory:" or path.startswith("file:") and "mode=memory" in path:
        return None
    return Path(path).expanduser().resolve().with_name(Path(path).name + ".lock")


def _lock_file(fh: IO[str]) -> bool:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        import msvcrt

        try:
            msvcrt.locking(fh.fileno(), msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
            return True
        except OSError:
            return False
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False


def _describe(holder: dict[str, Any]) -> str:
    parts = [f"process {holder['pid']}" if holder.get("pid") else "",
             f"on {holder['host']}" if holder.get("host") else "",
             f"since {holder['since']}" if holder.get("since") else ""]
    return " ".join(p for p in parts if p)


def _sqlite_lock(url: str) -> ServerLock:
    path = sqlite_lock_path(url)
    if path is None:
        return ServerLock("none")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fh = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held open while the server runs
    except OSError as exc:
        raise StoreError(f"cannot open the server lock file {path}: {exc.strerror or exc}") from None
    if not _lock_file(fh):
        fh.seek(0)
        try:
            holder = json.loads(fh.read() or "{}")
        except ValueError:
            holder = {}
        fh.close()
        who = _describe(holder) if isinstance(holder, dict) else ""
        raise DatabaseInUse(f"another fourcards server is using the database {path.with_suffix('')} "
                            f"({who or 'its lock file is ' + str(path)}): stop it first, or give another "
                            "--database-url")
    fh.seek(0)
    fh.truncate()
    fh.write(json.dumps(_holder()))
    fh.flush()
    return ServerLock(f"file lock {path}", file=fh)


def _postgres_lock(url: str) -> ServerLock:
    u = parse_database_url(url)
    me = _holder()
    name = f"fourcards serve pid {me['pid']} on {me['host']}"[:63]
    args: dict[str, Any] = {"application_name": name}
    if "connect_timeout" not in u.query:
        args["connect_timeout"] = CONNECT_TIMEOUT_S
    engine = create_engine(url, poolclass=NullPool, connect_args=args)
    try:
        conn = engine.connect().execution_options(isolation_level="AUTOCOMMIT")
    except SQLAlchemyError as exc:
        engine.dispose()
        raise StoreError(f"cannot open the database at {_shown(u)}: {_reason(exc)}") from None
    try:
        schema = conn.execute(text("SELECT current_schema()")).scalar() or "public"
        key = _signed32(zlib.crc32(str(schema).encode()))
        got = conn.execute(text("SELECT pg_try_advisory_lock(:a, :b)"), {"a": LOCK_CLASS, "b": key}).scalar()
        if not got:
            row = conn.execute(text(
                "SELECT a.application_name, a.backend_start FROM pg_locks l JOIN pg_stat_activity a "
                "ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.classid::bigint = :a AND l.objid::bigint = :b "
                "AND l.objsubid = 2 AND l.granted"),
                {"a": LOCK_CLASS, "b": key % 2**32}).first()
            who = (f"{row[0]}, connected since {row[1]:%Y-%m-%d %H:%M:%S}" if row is not None and row[0]
                   else "another session holds its lock")
            raise DatabaseInUse(f"another fourcards server is using the database {_shown(u)} "
                                f"(schema {schema}; {who}): stop it first, or give another --database-url")
    except BaseException:
        conn.close()
        engine.dispose()
        raise
    return ServerLock(f"advisory lock ({LOCK_CLASS}, {key}) on schema {schema}", engine=engine, conn=conn)


def acquire_server_lock(url: str) -> ServerLock:
    """Take the server lock of the database at ``url`` (see the module doc).

    Returns:
        the held :class:`ServerLock`.
    Raises:
        DatabaseInUse: another server holds it (the message names it where known).
        StoreError: a URL that cannot be used or a database that does not answer.
    """
    backend = parse_database_url(url).get_backend_name()
    if backend == "sqlite":
        return _sqlite_lock(url)
    return _postgres_lock(url)
