"""``fourcards db``: the database's life - schema revisions, backups of SQLite, retention (issue 27).

* ``fourcards db upgrade [REVISION]`` / ``downgrade REVISION`` / ``current`` / ``history`` -
  Alembic underneath (:mod:`fourcards.store.lifecycle`), the packaged revisions;
* ``fourcards db backup FILE`` / ``restore FILE`` - SQLite through its online backup API
  (consistent while servers write); on a PostgreSQL URL they say what to run instead
  (``pg_dump``/``pg_restore``, docs/deploy.md);
* ``fourcards db prune --older-than 90d [--dry-run]`` - closed tables' histories, chats and
  logs removed, the ledger's totals kept (:mod:`fourcards.store.retention`).

Every command takes ``--database-url`` (default: env ``FOURCARDS_DATABASE_URL``, else the
``database_url`` of ``FOURCARDS_CONFIG``'s file, else the default SQLite file, as ``fourcards serve``). Needs the ``web`` extra. Errors print one
``error: ...`` line and exit with status 2.
"""

from __future__ import annotations

import getpass
import json
import os
from typing import Any

import typer

from fourcards.cli.app import app, console, fail
from fourcards.extras import require

db_app = typer.Typer(help="The database: schema revisions (upgrade, downgrade), backup and restore, retention.",
                     no_args_is_help=True)
app.add_typer(db_app, name="db")

DatabaseUrl = typer.Option(None, "--database-url", help="SQLAlchemy URL: sqlite:///path/to/file.db or "
                                                        "postgresql+psycopg://user:pw@host/db. Default: env "
                                                        "FOURCARDS_DATABASE_URL, else the default SQLite file.")


def parse_duration(text: str, option: str) -> float:
    """Seconds in ``text``: a whole number and a unit - ``s``, ``m`` (minutes), ``h``, ``d``,
    ``w`` (``90d``, ``12h``). Exits with one error line for anything else."""
    from fourcards.web.settings import duration_seconds

    try:
        return duration_seconds(text)
    except ValueError as exc:
        fail(f"{option} {exc}")


def database_url(option: str | None) -> str:
    """The database URL: ``--database-url``, else env ``FOURCARDS_DATABASE_URL``, else the config
    file's (``FOURCARDS_CONFIG``), else the default SQLite file (its folder created) - the one
    lookup of ``fourcards serve`` too (:func:`fourcards.web.settings.database_url`)."""
    require("web", "fourcards db")
    from fourcards.web.settings import SettingsError
    from fourcards.web.settings import database_url as lookup

    try:
        return lookup(option)[0]
    except SettingsError as exc:
        fail(str(exc))


def open_store(url: str, *, at_head: bool = False) -> Any:
    """The store at ``url``, not migrated, checked to answer (``at_head``: refused unless its schema
    is current). Exits with one error line (no password) when it cannot be used."""
    from fourcards.store import Store, StoreError
    from fourcards.store.lifecycle import current_revision, head_revision

    try:
        store = Store(url, run_migrations=False)
        with store.engine.connect():  # it answers (else one line, below)
            pass
        if at_head:
            current, head = current_revision(store.engine), head_revision()
            if current != head:
                store.close()
                fail(f"the database is at schema revision {current or 'none (empty)'}, this fourcards needs {head}: "
                     "run `fourcards db upgrade` first")
    except StoreError as exc:
        fail(str(exc))
    except Exception as exc:  # a server that does not answer: one line, no password
        from fourcards.store.db import _reason

        fail(f"cannot open the database: {_reason(exc)}")
    return store


def actor() -> str:
    """Who runs a command, as the audit log names them: ``cli:<login name>``."""
    try:
        return f"cli:{getpass.getuser()}"[:80]
    except (KeyError, OSError):
        return f"cli:uid{os.getuid()}"


def _shown(url: str) -> str:
    from fourcards.store import parse_database_url

    return parse_database_url(url).render_as_string(hide_password=True)


@db_app.command("current")
def current(database_url_: str | None = DatabaseUrl) -> None:
    """The database's schema revision, and whether it is this version's newest."""
    from fourcards.store.lifecycle import current_revision, head_revision

    url = database_url(database_url_)
    store = open_store(url)
    try:
        rev, head = current_revision(store.engine), head_revision()
    finally:
        store.close()
    state = "up to date" if rev == head else "empty: `fourcards db upgrade` creates the schema" if rev is None \
        else f"behind: `fourcards db upgrade` brings it to {head}"
    console.print(f"{_shown(url)}: revision {rev or 'none'} ({state})", highlight=False, soft_wrap=True)


@db_app.command("history")
def history(database_url_: str | None = DatabaseUrl) -> None:
    """The schema revisions this version knows, oldest first; the database's marked."""
    from fourcards.store.lifecycle import current_revision, revisions

    store = open_store(database_url(database_url_))
    try:
        rev = current_revision(store.engine)
    finally:
        store.close()
    for r in revisions():
        mark = "  <- the database" if r.id == rev else ""
        console.print(f"{r.id}  {r.title}{mark}", highlight=False, soft_wrap=True)


@db_app.command("upgrade")
def upgrade(revision: str = typer.Argument("head", help="The revision to upgrade to (default: the newest)."),
            database_url_: str | None = DatabaseUrl) -> None:
    """Upgrade the schema (what `fourcards serve` does at start): take a backup first."""
    from fourcards.store import StoreError, migrate
    from fourcards.store.lifecycle import current_revision

    store = open_store(database_url(database_url_))
    try:
        before = current_revision(store.engine)
        migrate(store.engine, revision)
        after = current_revision(store.engine)
    except StoreError as exc:
        fail(str(exc))
    except Exception as exc:
        fail(f"the upgrade failed, nothing changed: {exc}")
    finally:
        store.close()
    console.print(f"revision {before or 'none'} -> {after}" if before != after else f"already at {after}",
                  highlight=False)


@db_app.command("downgrade")
def downgrade(revision: str = typer.Argument(..., help="The revision to go back to (e.g. 0006; one step back: "
                                                        "-- -1)."),
              yes: bool = typer.Option(False, "--yes", help="Do not ask for confirmation."),
              database_url_: str | None = DatabaseUrl) -> None:
    """Downgrade the schema, to run an older fourcards: what newer revisions hold is dropped (the
    history says what). Stop the servers and take a backup first."""
    from fourcards.store import StoreError
    from fourcards.store import downgrade as run_downgrade
    from fourcards.store.lifecycle import current_revision

    store = open_store(database_url(database_url_))
    try:
        before = current_revision(store.engine)
        if not yes and not typer.confirm(f"Downgrade from revision {before} to {revision}? Tables of the newer "
                                         "revisions (the audit log, admin users with 0007) are dropped"):
            fail("nothing changed", 1)
        run_downgrade(store.engine, revision)
        after = current_revision(store.engine)
    except StoreError as exc:
        fail(str(exc))
    except SystemExit:
        raise
    except Exception as exc:
        fail(f"the downgrade failed, nothing changed: {exc}")
    finally:
        store.close()
    console.print(f"revision {before} -> {after or 'none'}", highlight=False)


@db_app.command("backup")
def backup(file: str = typer.Argument(..., help="The backup file to write (replaced if it exists)."),
           as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
           database_url_: str | None = DatabaseUrl) -> None:
    """Back a SQLite database up into FILE while servers run (SQLite's online backup API: every
    commit up to that moment, the write-ahead log's included). PostgreSQL: pg_dump (it says how)."""
    from fourcards.store import StoreError
    from fourcards.store.lifecycle import backup as run_backup

    try:
        report = run_backup(database_url(database_url_), file)
    except StoreError as exc:
        fail(str(exc))
    if as_json:
        print(json.dumps(report.to_dict()))
    else:
        console.print(f"backed up into {report.path}: {report.bytes:,} bytes, revision {report.revision}, "
                      f"{report.tables} tables, {report.deals_in_progress} deals in progress "
                      f"({report.seconds:.2f} s)", highlight=False, soft_wrap=True)


@db_app.command("restore")
def restore(file: str = typer.Argument(..., help="A backup made by `fourcards db backup`."),
            yes: bool = typer.Option(False, "--yes", help="Do not ask for confirmation."),
            force: bool = typer.Option(False, "--force", help="Restore even though a server beat on the database "
                                                              "in the last 10 s (only when none runs)."),
            database_url_: str | None = DatabaseUrl) -> None:
    """Make a SQLite database what the backup FILE holds (stop every server first). PostgreSQL:
    pg_restore (it says how)."""
    from fourcards.store import StoreError, parse_database_url
    from fourcards.store.lifecycle import postgres_way
    from fourcards.store.lifecycle import restore as run_restore

    url = database_url(database_url_)
    try:
        u = parse_database_url(url)
        if u.get_backend_name() != "sqlite":
            raise StoreError(postgres_way(u))
        if not yes and not typer.confirm(f"Replace {_shown(url)} with the backup {file}?"):
            fail("nothing changed", 1)
        report = run_restore(file, url, force=force)
    except StoreError as exc:
        fail(str(exc))
    console.print(f"restored {report.path} from {file}: revision {report.revision}, {report.tables} tables, "
                  f"{report.deals_in_progress} deals in progress (they go on when a server reads them)",
                  highlight=False, soft_wrap=True)


@db_app.command("prune")
def prune(older_than: str = typer.Option(..., "--older-than", help="Closed tables last written longer ago than "
                                                                    "this: 90d, 12w, ... (at least 1d)."),
          dry_run: bool = typer.Option(False, "--dry-run", help="Only count what would be removed."),
          as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
          database_url_: str | None = DatabaseUrl) -> None:
    """Remove closed tables' deal histories, chats and logs; keep the ledger's totals, every deal's
    result and the players, so settlements and club standings add up as before (docs/deploy.md
    "Retention")."""
    from fourcards.store import StoreError
    from fourcards.store.retention import prune as run_prune

    seconds = parse_duration(older_than, "--older-than")
    store = open_store(database_url(database_url_), at_head=True)
    try:
        report = run_prune(store, seconds, dry_run=dry_run, by=actor())
    except StoreError as exc:
        fail(str(exc))
    finally:
        store.close()
    if as_json:
        print(json.dumps(report.to_dict()))
        return
    verb = "would remove" if dry_run else "removed"
    console.print(f"{report.tables} closed tables last written before {report.cutoff}: {verb} the histories of "
                  f"{report.deals} deals ({report.records:,} records), {report.log_lines:,} log lines and "
                  f"{report.chat_lines:,} chat messages; ledger entries {report.ledger_before:,} -> "
                  f"{report.ledger_after:,} (the totals kept)", highlight=False, soft_wrap=True)
