"""The admin console's JSON API (``/api/admin/...``; issue 27, part B): the operator's work on tables
and clubs through :class:`fourcards.store.operator.Operator` and the audit log, for a signed-in
account (:mod:`fourcards.web.admin_auth`: the session cookie; a change carries ``X-CSRF-Token``).

======  ==========================================  ====================================================
POST    /api/admin/login                            ``{"name", "password"}`` (JSON) -> the session cookie,
                                                    ``{"user", "csrf", "expires_at"}``; 401 wrong
POST    /api/admin/logout                           end the session
GET     /api/admin/session                          ``{"user", "csrf", "expires_at"}``
GET     /api/admin/tables                           tables by ``state`` (live, idle, abandoned, closed),
                                                    ``query`` (an id's start, a part of a name), ``game``,
                                                    ``club``; ``limit``; the next page ``before``
POST    /api/admin/tables/close                     admin: ``{"tables": [ids], "reason"}``, each closed
POST    /api/admin/tables/close-abandoned           admin: ``{"older_than": "7d", "dry_run"}``
GET     /api/admin/tables/{id}/ledger               the table's ledger audit (recorded)
GET     /api/admin/tables/{id}/hands.jsonl|.txt     admin: every finished deal (recorded)
GET     /api/admin/clubs/{id}                       the club, its tables and the names banned from it
POST    /api/admin/clubs/{id}/remove|ban|unban      admin: ``{"name", ...}``
GET     /api/admin/clubs/{id}/hands.jsonl|.txt      admin: every finished deal of its tables (recorded)
GET     /api/admin/audit                            the audit log's rows after ``after`` (oldest first)
GET     /api/admin/audit/verify                     the hash chain walked: the first broken link, or the head
======  ==========================================  ====================================================

Errors are ``{"detail": ...}``: 401 not signed in, 403 a viewer acting (or no CSRF token), 404 an
unknown table or club, 409 an action the table refuses (its sentence).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, Field

from fourcards.store import StoreError
from fourcards.store.audit import AuditLog
from fourcards.store.operator import ABANDONED_AFTER_S, MAX_PAGE, Operator
from fourcards.table import TableError
from fourcards.web.admin_auth import (
    CSRF_HEADER,
    check_csrf,
    clear_session_cookie,
    require,
    same_origin,
    session_of,
    set_session_cookie,
    sign_in,
    sign_out,
)
from fourcards.web.deps import HubDep
from fourcards.web.hub import Hub
from fourcards.web.limits import rate_limit
from fourcards.web.settings import duration_seconds

__all__ = ["router", "operate", "table_page", "close_tables", "club_view", "export", "TableStateName",
           "MAX_CLOSE", "JSONL", "TEXT"]

router = APIRouter(prefix="/api/admin", tags=["admin"])

#: Tables one request may close at most.
MAX_CLOSE = 200
JSONL = "application/x-ndjson; charset=utf-8"
TEXT = "text/plain; charset=utf-8"
TableStateName = Literal["live", "idle", "abandoned", "closed"]
_UNKNOWN = re.compile(r"unknown (table|club) '")
Csrf = Annotated[str | None, Header(alias=CSRF_HEADER)]
Name = Annotated[str, Field(min_length=1, max_length=40)]


async def operate(hub: Hub, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run an operator's call in a database thread; its refusal as a 404 (unknown table or club)
    or a 409 (the table's sentence)."""
    try:
        return await hub.run_db(fn, *args, **kwargs)
    except StoreError as exc:
        raise TableError(404 if _UNKNOWN.match(str(exc)) else 409, str(exc)) from None


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


def _session_json(session: Any) -> dict[str, Any]:
    return {"user": session.user.to_dict(), "csrf": session.csrf, "expires_at": _iso(session.expires_at)}


class LoginIn(BaseModel):
    """Signing in: the account's name and password."""

    name: str = Field(max_length=160)
    password: str = Field(max_length=1024)


@router.post("/login", dependencies=[rate_limit("logins")])
async def login(request: Request, body: LoginIn) -> JSONResponse:
    """Sign in: the session cookie and ``{"user", "csrf", "expires_at"}`` (keep ``csrf`` for the
    ``X-CSRF-Token`` header of changes); 401 for a wrong name or password (the same answer for
    both); 415 unless the body is JSON; 429 after too many attempts from the address."""
    if not request.headers.get("content-type", "").lower().startswith("application/json"):
        raise TableError(415, "sign in with a JSON body (Content-Type: application/json)")
    if not same_origin(request):
        raise TableError(403, "this request comes from another site's page: refused")
    signed = await sign_in(request, body.name, body.password)
    if signed is None:
        raise TableError(401, "wrong name or password")
    secret, session = signed
    response = JSONResponse(_session_json(session))
    set_session_cookie(response, request, secret)
    return response


@router.post("/logout")
async def logout(request: Request, x_csrf_token: Csrf = None) -> JSONResponse:
    """Sign out (the session ends on every server)."""
    session = require(await session_of(request))
    check_csrf(request, session, x_csrf_token)
    await sign_out(request, session)
    response = JSONResponse({"status": "signed out"})
    clear_session_cookie(response, request)
    return response


@router.get("/session")
async def session_info(request: Request) -> dict[str, Any]:
    """The signed-in account, its role and the session's CSRF token."""
    return _session_json(require(await session_of(request)))


async def table_page(hub: Hub, query: str = "", state: str | None = None, game: str | None = None,
                     club: str | None = None, limit: int = 50, before: tuple[float, str] | None = None
                     ) -> dict[str, Any]:
    """A page of :meth:`Operator.tables` and the ``before`` of the next (``None``: the last page)."""
    rows = await operate(hub, Operator(hub.require_database()).tables, query, state, game, club, limit + 1, before)
    more = len(rows) > limit
    rows = rows[:limit]
    last = rows[-1] if more and rows else None
    return {"tables": rows, "next": None if last is None else {"before_at": last["active_at_s"] or 0.0,
                                                               "before_id": last["id"]}}


@router.get("/tables")
async def tables(request: Request, hub: HubDep, query: Annotated[str, Query(max_length=80)] = "",
                 state: TableStateName | None = None, game: Literal["poker", "kind"] | None = None,
                 club: Annotated[str | None, Query(max_length=16)] = None,
                 limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
                 before_at: Annotated[float | None, Query(ge=0, allow_inf_nan=False)] = None,
                 before_id: Annotated[str | None, Query(max_length=16)] = None) -> dict[str, Any]:
    """Tables, most recently written first (see :meth:`fourcards.store.operator.Operator.tables`):
    ``tables`` and ``next`` (``before_at`` and ``before_id`` of the next page, or ``null``)."""
    require(await session_of(request))
    before = (before_at, before_id) if before_at is not None and before_id is not None else None
    return await table_page(hub, query, state, game, club, limit, before)


async def close_tables(hub: Hub, by: str, ids: list[str], reason: str) -> list[dict[str, Any]]:
    """Close each table of ``ids`` (the operator's ruling, TP-10; each recorded): ``id`` with
    ``cashed_out``, or ``error``."""
    out = []
    for tid in ids[:MAX_CLOSE]:
        try:
            out.append(await operate(hub, Operator(hub.require_database()).close_table, by, tid, reason))
        except TableError as exc:
            out.append({"id": tid, "error": exc.detail})
    return out


class CloseIn(BaseModel):
    """Tables to close and why (shown in each table's log)."""

    tables: list[Annotated[str, Field(min_length=1, max_length=16)]] = Field(min_length=1, max_length=MAX_CLOSE)
    reason: str = Field("closed by the operator", min_length=1, max_length=200)


@router.post("/tables/close")
async def close(request: Request, body: CloseIn, hub: HubDep, x_csrf_token: Csrf = None) -> dict[str, Any]:
    """Admin: close the tables (a deal in progress voided, every chip back, everyone cashed out):
    ``{"closed": [{"id", "cashed_out"} or {"id", "error"}]}``."""
    session = require(await session_of(request), act=True)
    check_csrf(request, session, x_csrf_token)
    return {"closed": await close_tables(hub, session.user.name, body.tables, body.reason)}


class AbandonedIn(BaseModel):
    """Close the open tables nobody wrote for ``older_than`` (``7d``, ``36h``; at least an hour)."""

    older_than: str = Field("7d", max_length=12)
    dry_run: bool = False


@router.post("/tables/close-abandoned")
async def close_abandoned(request: Request, body: AbandonedIn, hub: HubDep, x_csrf_token: Csrf = None
                          ) -> dict[str, Any]:
    """Admin: close the abandoned tables, the quietest first, at most 500 (``dry_run``: only list
    them): ``{"tables": [{"id", "name", "active_at", "cashed_out" or "error"}]}``."""
    session = require(await session_of(request), act=True)
    check_csrf(request, session, x_csrf_token)
    seconds = older_than_seconds(body.older_than)
    rows = await operate(hub, Operator(hub.require_database()).close_abandoned, session.user.name, seconds,
                         dry_run=body.dry_run)
    return {"older_than": body.older_than, "dry_run": body.dry_run, "tables": rows}


def older_than_seconds(text: str) -> float:
    """``older_than`` in seconds: a duration of at least an hour (default 7 days).

    Raises:
        TableError: 422 for anything else.
    """
    try:
        seconds = duration_seconds(text) if text else ABANDONED_AFTER_S
    except ValueError as exc:
        raise TableError(422, f"older_than {exc}") from None
    if seconds < 3600:
        raise TableError(422, f"older_than is at least 1h (a table written in the last hour is in play), got {text!r}")
    return seconds


@router.get("/tables/{table_id}/ledger")
async def ledger(request: Request, table_id: str, hub: HubDep) -> dict[str, Any]:
    """The table's ledger audit (recorded as ``read_ledger``): ``table``, ``audit`` (total 0, no
    unbalanced transaction, no escrow left), each person's balance and sums by memo, the house's."""
    session = require(await session_of(request))
    return await operate(hub, Operator(hub.require_database()).ledger_audit, session.user.name, table_id[:16])


async def club_view(hub: Hub, club_id: str) -> dict[str, Any]:
    """A club for the console: ``club`` (``id``, ``name``, ``owner_name``, ``members``,
    ``tables``) and ``banned`` (names, reasons, who and when).

    Raises:
        TableError: 404 for an unknown club.
    """
    op = Operator(hub.require_database())
    club = await hub.run_db(op.clubs.get, club_id[:16])
    if club is None:
        raise TableError(404, f"unknown club {club_id[:16]!r}")
    banned = await hub.run_db(op.banned, club["id"])
    return {"club": {k: v for k, v in club.items() if k != "owner_hash"}, "banned": banned}


@router.get("/clubs/{club_id}")
async def club(request: Request, club_id: str, hub: HubDep) -> dict[str, Any]:
    """A club, its tables and members, and the names banned from it."""
    require(await session_of(request))
    return await club_view(hub, club_id)


class NameIn(BaseModel):
    """A name to remove, ban or let back; ``from_seats``: also remove it from the seats it holds at
    the club's open tables (a ban always does); ``reason``: a ban's."""

    name: Name
    from_seats: bool = False
    reason: str = Field("", max_length=200)


@router.post("/clubs/{club_id}/{action}")
async def club_action(request: Request, club_id: str, action: Literal["remove", "ban", "unban"], body: NameIn,
                      hub: HubDep, x_csrf_token: Csrf = None) -> dict[str, Any]:
    """Admin: ``remove`` the name from the club's list (``from_seats``: and from its seats),
    ``ban`` it (unlisted, unseated, refused a seat at the club's tables) or ``unban`` it - each
    recorded in the audit log."""
    session = require(await session_of(request), act=True)
    check_csrf(request, session, x_csrf_token)
    op, by = Operator(hub.require_database()), session.user.name
    if action == "remove":
        return await operate(hub, op.remove_name, by, club_id[:16], body.name, from_seats=body.from_seats)
    if action == "ban":
        return await operate(hub, op.ban_name, by, club_id[:16], body.name, body.reason)
    return {"unbanned": await operate(hub, op.unban_name, by, club_id[:16], body.name)}


async def export(hub: Hub, by: str, what: str, ident: str, fmt: str) -> StreamingResponse:
    """A table's (``what="table"``) or a club's export as a download (recorded in the audit log)."""
    op = Operator(hub.require_database())
    call = op.export_table if what == "table" else op.export_club
    lines = await operate(hub, call, by, ident[:16], fmt)
    name = f"fourcards-{ident[:16]}-hands.{fmt}" if what == "table" else f"fourcards-club-{ident[:16]}-hands.{fmt}"
    return StreamingResponse(lines, media_type=JSONL if fmt == "jsonl" else TEXT, headers={
        "Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"})


@router.get("/tables/{table_id}/hands.{fmt}")
async def table_export(request: Request, table_id: str, fmt: Literal["jsonl", "txt"], hub: HubDep
                       ) -> StreamingResponse:
    """Admin: every finished deal of the table, JSON Lines or text, as a spectator sees them."""
    session = require(await session_of(request), act=True)
    return await export(hub, session.user.name, "table", table_id, fmt)


@router.get("/clubs/{club_id}/hands.{fmt}")
async def club_export(request: Request, club_id: str, fmt: Literal["jsonl", "txt"], hub: HubDep
                      ) -> StreamingResponse:
    """Admin: every finished deal of the club's tables, table by table."""
    session = require(await session_of(request), act=True)
    return await export(hub, session.user.name, "club", club_id, fmt)


@router.get("/audit")
async def audit_rows(request: Request, hub: HubDep, after: Annotated[int, Query(ge=0)] = 0,
                     limit: Annotated[int, Query(ge=1, le=1000)] = 100,
                     action: Annotated[str | None, Query(max_length=40)] = None) -> dict[str, Any]:
    """The audit log's rows with ``seq`` above ``after``, oldest first (``action``: only its rows),
    and the number of rows."""
    require(await session_of(request))
    log = AuditLog(hub.require_database())
    rows = await hub.run_db(log.entries, after, limit, action)
    return {"rows": [r.to_dict() for r in rows], "count": await hub.run_db(log.count)}


@router.get("/audit/verify")
async def audit_verify(request: Request, hub: HubDep) -> dict[str, Any]:
    """The audit log's hash chain walked from its first row: ``ok``, ``rows``, the head
    (``head_seq``, ``head_hash``: keep them elsewhere and compare), the first broken link
    (``broken_seq``, ``problem``)."""
    require(await session_of(request))
    check = await hub.run_db(AuditLog(hub.require_database()).verify)
    return {"ok": check.ok, "rows": check.rows, "head_seq": check.head_seq, "head_hash": check.head_hash,
            "broken_seq": check.broken_seq, "problem": check.problem}
