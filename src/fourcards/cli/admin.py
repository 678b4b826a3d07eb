"""``fourcards admin``: the operator's accounts, the audit log and the tables (issue 27).

* ``fourcards admin create-user NAME [--role admin|viewer]`` - an account of the admin console;
  the password is asked twice without echo, or read from the first line of standard input
  (``--password-stdin``), and stored as an argon2id hash (:mod:`fourcards.store.admins`);
* ``fourcards admin users`` - the accounts;
* ``fourcards admin verify-audit`` - walks the audit log's hash chain and names the first broken
  link (exit status 1), else prints the head (its last row and hash: note it elsewhere);
* ``fourcards admin audit-log`` - the audit log's rows;
* ``fourcards admin tables`` - tables by state (live, idle, abandoned, closed);
* ``fourcards admin close-abandoned --older-than 7d [--dry-run]`` - close the abandoned tables.

Each action is recorded in the audit log as ``cli:<login name>``. The database must be at the
newest schema revision (``fourcards db upgrade``). Needs the ``web`` extra.
"""

from __future__ import annotations

import getpass
import json
import sys
from enum import Enum

import typer

from fourcards.cli.app import app, console, err_console, fail
from fourcards.cli.db import DatabaseUrl, actor, database_url, open_store, parse_duration

admin_app = typer.Typer(help="The operator: admin console accounts, the audit log, tables.", no_args_is_help=True)
app.add_typer(admin_app, name="admin")


class Role(str, Enum):
    """The console's roles."""

    admin = "admin"
    viewer = "viewer"


class TableState(str, Enum):
    """How recently a table was written (docs/deploy.md "Tables: live, idle, abandoned")."""

    live = "live"
    idle = "idle"
    abandoned = "abandoned"
    closed = "closed"


def _password(from_stdin: bool) -> str:
    if from_stdin:
        line = sys.stdin.readline()
        if not line:
            fail("--password-stdin: standard input is empty")
        return line.rstrip("\r\n")
    if not sys.stdin.isatty():
        fail("no terminal to ask the password on: pipe it in with --password-stdin")
    first = getpass.getpass("Password: ")
    if getpass.getpass("Password again: ") != first:
        fail("the two passwords differ; nothing changed")
    return first


@admin_app.command("create-user")
def create_user(name: str = typer.Argument(..., help="The user's name (how they sign in)."),
                role: Role = typer.Option(Role.admin, "--role", help="admin: reads and acts; viewer: only reads."),
                password_stdin: bool = typer.Option(False, "--password-stdin",
                                                    help="Read the password from standard input's first line "
                                                         "instead of asking for it."),
                database_url_: str | None = DatabaseUrl) -> None:
    """Add an account of the admin console (password hashed with argon2id)."""
    from fourcards.store import StoreError
    from fourcards.store.admins import AdminUsers

    store = open_store(database_url(database_url_), at_head=True)
    try:
        user = AdminUsers(store).create(name, _password(password_stdin), role.value, actor())
    except StoreError as exc:
        fail(str(exc))
    finally:
        store.close()
    console.print(f"admin user {user.name!r} created, role {user.role}", highlight=False)


@admin_app.command("users")
def users(database_url_: str | None = DatabaseUrl) -> None:
    """The admin console's accounts."""
    from fourcards.store.admins import AdminUsers

    store = open_store(database_url(database_url_), at_head=True)
    try:
        for u in AdminUsers(store).list():
            console.print(f"{u.name}\t{u.role}\t{u.created_at}", highlight=False, markup=False)
    finally:
        store.close()


@admin_app.command("verify-audit")
def verify_audit(as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
                 database_url_: str | None = DatabaseUrl) -> None:
    """Check the audit log's hash chain from its first row: exit 0 and print the head (last row
    and hash) when every link holds, else exit 1 naming the first broken link."""
    from fourcards.store.audit import AuditLog

    store = open_store(database_url(database_url_), at_head=True)
    try:
        check = AuditLog(store).verify()
    finally:
        store.close()
    if as_json:
        print(json.dumps({"ok": check.ok, "rows": check.rows, "head_seq": check.head_seq, "head_hash": check.head_hash,
                          "broken_seq": check.broken_seq, "problem": check.problem}))
    elif check.ok:
        console.print(f"the audit log holds: {check.rows} rows, head row {check.head_seq} hash {check.head_hash}",
                      highlight=False, soft_wrap=True)
    else:
        print(f"error: the audit log is broken at row {check.broken_seq}: {check.problem} "
              f"({check.rows} rows before it hold)", file=sys.stderr)
    if not check.ok:
        raise SystemExit(1)


@admin_app.command("audit-log")
def audit_log(after: int = typer.Option(0, "--after", min=0, help="Rows after this one."),
              limit: int = typer.Option(100, "--limit", min=1, max=1000, help="Most rows."),
              database_url_: str | None = DatabaseUrl) -> None:
    """The audit log's rows as JSON Lines, oldest first."""
    from fourcards.store.audit import AuditLog

    store = open_store(database_url(database_url_), at_head=True)
    try:
        for e in AuditLog(store).entries(after, limit):
            print(json.dumps(e.to_dict(), ensure_ascii=False))
    finally:
        store.close()


@admin_app.command("tables")
def tables(state: TableState | None = typer.Option(None, "--state", help="Only tables in this state."),
           query: str = typer.Option("", "--query", help="A table id's beginning or part of its name."),
           limit: int = typer.Option(50, "--limit", min=1, max=200, help="Most tables."),
           database_url_: str | None = DatabaseUrl) -> None:
    """Tables, most recently written first, as JSON Lines: state (live, idle, abandoned, closed),
    when last written, people and bots seated, a deal in progress, the club."""
    from fourcards.store.operator import Operator

    store = open_store(database_url(database_url_), at_head=True)
    try:
        for t in Operator(store).tables(query, None if state is None else state.value, limit=limit):
            print(json.dumps(t, ensure_ascii=False))
    finally:
        store.close()


@admin_app.command("close-abandoned")
def close_abandoned(older_than: str = typer.Option("7d", "--older-than", help="Open tables not written for this "
                                                                                "long: 7d, 36h, ..."),
                    dry_run: bool = typer.Option(False, "--dry-run", help="Only list them."),
                    database_url_: str | None = DatabaseUrl) -> None:
    """Close the open tables nobody wrote for a while (the operator's ruling: a deal in progress
    voided, everyone cashed out), each recorded in the audit log."""
    from fourcards.store.operator import Operator

    seconds = parse_duration(older_than, "--older-than")
    store = open_store(database_url(database_url_), at_head=True)
    try:
        closed = Operator(store).close_abandoned(actor(), seconds, dry_run=dry_run)
    finally:
        store.close()
    for t in closed:
        print(json.dumps(t, ensure_ascii=False))
    verb = "would close" if dry_run else "closed"
    failed = sum(1 for t in closed if "error" in t)
    err_console.print(f"{verb} {len(closed) - failed} tables" + (f"; {failed} could not be closed" if failed else ""),
                      highlight=False)
