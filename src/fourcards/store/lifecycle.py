"""A database's life (issue 27): its schema revision (Alembic), and backups of SQLite databases.

**Revisions.** The schema is the packaged Alembic revisions ``0001`` ... (``fourcards/store/
migrations/versions``); :func:`revisions` lists them, :func:`current_revision` says where a
database stands; :func:`fourcards.store.migrate` upgrades and :func:`fourcards.store.downgrade`
downgrades (``fourcards db upgrade|downgrade|current|history``).

**Backups of SQLite** (:func:`backup`, :func:`restore`) go through SQLite's online backup API
(Python's :meth:`sqlite3.Connection.backup`), never a file copy: the database's recent commits
live in its write-ahead log (``-wal``) until a checkpoint, so a plain copy of the ``.db`` file
misses them. The backup copies the database as one read transaction sees it - every commit up
to that moment, none after, nothing torn - while servers go on writing (WAL lets them). The
copy is written beside the target, checked (``PRAGMA integrity_check``), switched to a single
file (``journal_mode=DELETE``) and renamed into place.

**PostgreSQL** has its own tools, which these functions do not wrap: ``pg_dump``/``pg_restore``
for a consistent logical copy while servers run, and continuous archiving of the write-ahead
log for point-in-time recovery (docs/deploy.md "Backup" and "Restore"). :func:`backup` and
:func:`restore` on a PostgreSQL URL raise :class:`~fourcards.store.db.StoreError` saying so
(:func:`postgres_way`).
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import URL, Engine

from fourcards.store.db import StoreError, alembic_config, parse_database_url

__all__ = ["Revision", "revisions", "head_revision", "current_revision", "BackupReport", "backup", "restore",
           "postgres_way", "SERVER_ALIVE_S"]

#: A server that wrote the liveness beat this recently (seconds) is taken to be running.
SERVER_ALIVE_S = 10.0


@dataclass(frozen=True)
class Revision:
    """One schema revision: ``id`` (``"0007"``), ``down`` (the one before; ``None`` for the
    first) and ``title`` (its docstring's first line)."""

    id: str
    down: str | None
    title: str


def _scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(alembic_config())


def revisions() -> list[Revision]:
    """Every packaged revision, oldest first."""
    out = []
    for rev in _scripts().walk_revisions():
        down = rev.down_revision if isinstance(rev.down_revision, str) or rev.down_revision is None else None
        title = (rev.doc or "").strip().splitlines()[0] if rev.doc else ""
        out.append(Revision(rev.revision, down, title))
    return out[::-1]


def head_revision() -> str:
    """The newest packaged revision (what ``fourcards serve`` upgrades to)."""
    head = _scripts().get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (``None``: an empty database, never migrated)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


@dataclass(frozen=True)
class BackupReport:
    """A SQLite backup written (or restored): its ``path``, ``bytes``, schema ``revision``,
    ``tables`` (game tables) and ``deals_in_progress`` in it, and the ``seconds`` it took."""

    path: str
    bytes: int
    revision: str | None
    tables: int
    deals_in_progress: int
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON."""
        return dict(self.__dict__)


def postgres_way(u: URL) -> str:
    """What to do instead on a PostgreSQL database (one paragraph, the password hidden)."""
    plain = URL.create("postgresql", username=u.username, host=u.host, port=u.port, database=u.database) \
        .render_as_string(hide_password=False)
    return (f"{u.render_as_string(hide_password=True)} is a PostgreSQL database: back it up and restore it with "
            f"PostgreSQL's own tools, not fourcards db - `pg_dump --format=custom --file=fourcards.dump '{plain}'` "
            "(consistent while servers run), and into a new empty database `pg_restore --no-owner "
            "--dbname=NEW_DATABASE_URL fourcards.dump`; for point-in-time recovery archive the write-ahead log "
            "(PostgreSQL's manual, 'Continuous Archiving and Point-in-Time Recovery'). See docs/deploy.md, "
            "'Backup' and 'Restore'.")


def _sqlite_path(url: str, what: str) -> Path:
    u = parse_database_url(url)
    if u.get_backend_name() != "sqlite":
        raise StoreError(postgres_way(u))
    path = u.database or ""
    if not path or path == ":memory:" or path.startswith("file:"):
        raise StoreError(f"{what} needs a SQLite database file, not {url!r}")
    return Path(path).expanduser()


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), timeout=30, isolation_level=None)
    conn.execute("PRAGMA busy_timeout=30000")
    return conn


def _describe(conn: sqlite3.Connection) -> tuple[str | None, int, int]:
    """The schema revision, game tables and deals in progress of an open SQLite database."""
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    revision = conn.execute("SELECT version_num FROM alembic_version").fetchone() if "alembic_version" in names else None
    tables = conn.execute("SELECT count(*) FROM game_tables").fetchone()[0] if "game_tables" in names else 0
    playing = conn.execute("SELECT count(*) FROM deals WHERE status = 'in_progress'").fetchone()[0] \
        if "deals" in names else 0
    return (revision[0] if revision else None), int(tables), int(playing)


def _copy(source: sqlite3.Connection, target_path: Path) -> None:
    """The whole of ``source`` into a new file ``target_path`` (one read transaction), checked,
    as a single file (no write-ahead log beside it)."""
    target = _connect(target_path)
    try:
        source.backup(target)  # one step: every page under one read transaction of the source
        target.execute("PRAGMA journal_mode=DELETE")
        problem = target.execute("PRAGMA integrity_check").fetchone()[0]
        if problem != "ok":
            raise StoreError(f"the copy fails SQLite's integrity check: {problem}")
    finally:
        target.close()


def backup(url: str, dest: str | os.PathLike[str]) -> BackupReport:
    """Back the SQLite database ``url`` up into the file ``dest`` (replaced if it exists) while
    servers may be writing (see the module doc).

    Raises:
        StoreError: a PostgreSQL URL (:func:`postgres_way`), a database file that does not exist,
            a copy that cannot be written or fails SQLite's integrity check.
    """
    started = time.monotonic()
    source_path = _sqlite_path(url, "fourcards db backup")
    if not source_path.is_file():
        raise StoreError(f"there is no SQLite database at {source_path}")
    dest = Path(dest).expanduser()
    part = dest.with_name(dest.name + ".part")
    part.unlink(missing_ok=True)
    try:
        source = _connect(source_path)
        try:
            _copy(source, part)
        finally:
            source.close()
        os.replace(part, dest)
    except (sqlite3.Error, OSError) as exc:
        part.unlink(missing_ok=True)
        raise StoreError(f"cannot back {source_path} up into {dest}: {exc}") from None
    conn = _connect(dest)
    try:
        revision, tables, playing = _describe(conn)
    finally:
        conn.close()
    return BackupReport(str(dest), dest.stat().st_size, revision, tables, playing,
                        round(time.monotonic() - started, 3))


def _alive_ago(path: Path) -> float | None:
    """Seconds since a server last beat on the database at ``path`` (``None``: never, no file)."""
    if not path.is_file():
        return None
    conn = _connect(path)
    try:
        row = conn.execute("SELECT alive_at FROM liveness WHERE id = 1").fetchone()
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    return None if row is None else time.time() - float(row[0])


def restore(backup_file: str | os.PathLike[str], url: str, *, force: bool = False) -> BackupReport:
    """Restore the SQLite database ``url`` from a backup file (made by :func:`backup`): the
    database becomes the backup, page for page, through SQLite's backup API (its write-ahead log
    included, never a file copy). Stop every server on the database first: a server that beat
    in the last :data:`SERVER_ALIVE_S` seconds makes the restore refuse, unless ``force``. A
    backup of an older schema is restored as it is; ``fourcards db upgrade`` (or the next
    ``fourcards serve``) brings it up to date.

    Raises:
        StoreError: a PostgreSQL URL; a backup file that is missing, not a SQLite database, fails
            the integrity check, is not a fourcards database or was made by a newer fourcards
            (a revision this version does not know); a server running on the database.
    """
    started = time.monotonic()
    target_path = _sqlite_path(url, "fourcards db restore")
    source_path = Path(backup_file).expanduser()
    if not source_path.is_file():
        raise StoreError(f"there is no backup file at {source_path}")
    try:
        source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True, timeout=30)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open the backup {source_path}: {exc}") from None
    try:
        try:
            problem = source.execute("PRAGMA integrity_check").fetchone()[0]
            revision, tables, playing = _describe(source)
        except sqlite3.Error as exc:
            raise StoreError(f"{source_path} is not a SQLite database ({exc})") from None
        if problem != "ok":
            raise StoreError(f"the backup {source_path} fails SQLite's integrity check: {problem}")
        known = {r.id for r in revisions()}
        if revision is None:
            raise StoreError(f"{source_path} is not a fourcards database (it has no schema revision)")
        if revision not in known:
            raise StoreError(f"the backup {source_path} is at schema revision {revision!r}, which this fourcards "
                             f"does not know (made by a newer version? this one goes up to {head_revision()})")
        ago = _alive_ago(target_path)
        if ago is not None and ago < SERVER_ALIVE_S and not force:
            raise StoreError(f"a server was running on {target_path} {max(ago, 0):.1f} s ago: stop every server on "
                             "the database before restoring it (or give --force if none is)")
        target_path.parent.mkdir(parents=True, exist_ok=True)
        target = _connect(target_path)
        try:
            source.backup(target)
            target.execute("PRAGMA journal_mode=WAL")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot restore into {target_path}: {exc}") from None
        finally:
            target.close()
    finally:
        source.close()
    return BackupReport(str(target_path), target_path.stat().st_size, revision, tables, playing,
                        round(time.monotonic() - started, 3))
