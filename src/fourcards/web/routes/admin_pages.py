"""The admin console's pages (``/admin``; issue 27, part B): sign in, tables (live, idle, abandoned,
closed; search; close in bulk), a table (its ledger audit, close, exports), a club (remove, ban or
let back a name; exports) and the audit log (its rows, the hash chain checked).

Server-rendered HTML forms, no script (the pages' Content-Security-Policy holds): a change is a
``POST`` carrying the session's CSRF token, answered with a redirect (303) to the page it came
from, which says what was done. What a page shows and does is the JSON API's
(:mod:`fourcards.web.routes.admin_api`), with the same checks (:mod:`fourcards.web.admin_auth`).
"""

from __future__ import annotations

import time
from typing import Annotated, Any
from urllib.parse import parse_qs, urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from fourcards.store.audit import AuditLog
from fourcards.store.operator import Operator
from fourcards.table import TableError
from fourcards.web.admin_auth import (
    LOGIN_COOKIE,
    ROLES_THAT_ACT,
    check_csrf,
    clear_session_cookie,
    login_token,
    require,
    same_origin,
    secure,
    session_of,
    set_session_cookie,
    sign_in,
    sign_out,
)
from fourcards.web.deps import HubDep
from fourcards.web.limits import client_key
from fourcards.web.routes.admin_api import (
    MAX_CLOSE,
    TableStateName,
    close_tables,
    club_view,
    older_than_seconds,
    operate,
    table_page,
)
from fourcards.web.routes.pages import page

__all__ = ["router", "DONE"]

router = APIRouter(include_in_schema=False)

#: What a page says after a change (``?done=<key>&n=<count>&failed=<count>``).
DONE = {
    "closed": "Closed {n} tables.", "abandoned": "Closed {n} abandoned tables.",
    "removed": "Removed the name from the club's list.", "banned": "Banned the name; it gave up {n} seats at the club's "
                                                              "open tables.",
    "unbanned": "The name may play at the club's tables again.", "signed-out": "Signed out.",
}
_LOGIN = "/admin/login"


async def _form(request: Request) -> dict[str, list[str]]:
    """The posted form's fields (``application/x-www-form-urlencoded``; the body is at most 64 KiB)."""
    if not request.headers.get("content-type", "").lower().startswith("application/x-www-form-urlencoded"):
        raise TableError(415, "send the form as application/x-www-form-urlencoded")
    body = (await request.body()).decode("utf-8", "replace")
    return parse_qs(body, keep_blank_values=True, max_num_fields=MAX_CLOSE + 10)


def _one(form: dict[str, list[str]], name: str, default: str = "") -> str:
    return (form.get(name) or [default])[0]


def _message(request: Request) -> str | None:
    key = request.query_params.get("done")
    n = request.query_params.get("n", "0")
    failed = request.query_params.get("failed", "0")
    if key not in DONE or not n.isdigit() or not failed.isdigit():
        return None
    return DONE[key].format(n=int(n)) + (f" {int(failed)} could not be: see each table." if int(failed) else "")


def _go(path: str, **query: Any) -> RedirectResponse:
    return RedirectResponse(path + ("?" + urlencode(query) if query else ""), status_code=303)


def _admin_page(request: Request, name: str, session: Any, context: dict[str, Any], status_code: int = 200
                ) -> HTMLResponse:
    response = page(request, name, {**context, "me": session.user, "csrf": session.csrf,
                                    "can_act": session.user.role in ROLES_THAT_ACT,
                                    "message": _message(request)}, status_code)
    response.headers["Cache-Control"] = "no-store"
    return response


def _error_page(request: Request, session: Any, exc: TableError) -> HTMLResponse:
    response = _admin_page(request, "admin_error.html", session, {"detail": exc.detail}, exc.status)
    retry = getattr(exc, "retry_after", None)
    if retry is not None:
        response.headers["Retry-After"] = str(retry)
    return response


# ------------------------------------------------------------------ signing in

def _login_page(request: Request, error: str | None = None, status_code: int = 200, name: str = "") -> HTMLResponse:
    token = login_token(request)
    response = page(request, "admin_login.html", {"login_csrf": token, "error": error, "name": name,
                                                  "signed_out": request.query_params.get("done") == "signed-out"},
                    status_code)
    response.headers["Cache-Control"] = "no-store"
    response.set_cookie(LOGIN_COOKIE, token, max_age=3600, path="/admin", secure=secure(request), httponly=True,
                        samesite="strict")
    return response


@router.get("/admin")
async def admin_home(request: Request) -> Response:
    """The console: the tables when signed in, else the sign-in page."""
    return _go("/admin/tables" if await session_of(request) is not None else _LOGIN)


@router.get(_LOGIN)
async def login_page(request: Request) -> Response:
    if await session_of(request) is not None:
        return _go("/admin/tables")
    return _login_page(request)


@router.post(_LOGIN)
async def login_form(request: Request) -> Response:
    """Sign in from the form: its CSRF token must be its cookie's; attempts are rate-limited."""
    try:
        limits = request.app.state.limits
        limits.hit("logins", client_key(request.client.host if request.client else None), time.monotonic())
        form = await _form(request)
    except TableError as exc:
        response = _login_page(request, exc.detail, exc.status)
        retry = getattr(exc, "retry_after", None)
        if retry is not None:
            response.headers["Retry-After"] = str(retry)
        return response
    name, password, given = _one(form, "name")[:160], _one(form, "password")[:1024], _one(form, "csrf")
    cookie = request.cookies.get(LOGIN_COOKIE)
    if not same_origin(request) or not cookie or given != cookie:
        return _login_page(request, "The form was out of date: sign in again.", 403, name)
    signed = await sign_in(request, name, password)
    if signed is None:
        return _login_page(request, "Wrong name or password.", 401, name)
    done = _go("/admin/tables")
    set_session_cookie(done, request, signed[0])
    done.delete_cookie(LOGIN_COOKIE, path="/admin")
    return done


@router.post("/admin/logout")
async def logout_form(request: Request) -> Response:
    session = await session_of(request)
    if session is None:
        return _go(_LOGIN)
    try:
        check_csrf(request, session, _one(await _form(request), "csrf"))
    except TableError as exc:
        return _error_page(request, session, exc)
    await sign_out(request, session)
    response = _go(_LOGIN, done="signed-out")
    clear_session_cookie(response, request)
    return response


# ------------------------------------------------------------------ tables

@router.get("/admin/tables")
async def tables_page(request: Request, hub: HubDep, query: Annotated[str, Query(max_length=80)] = "",
                      state: TableStateName | None = None, club: Annotated[str, Query(max_length=16)] = "",
                      before_at: Annotated[float | None, Query(ge=0, allow_inf_nan=False)] = None,
                      before_id: Annotated[str | None, Query(max_length=16)] = None) -> Response:
    """Tables, most recently written first: search by id or name, by state, by club; close in bulk."""
    session = await session_of(request)
    if session is None:
        return _go(_LOGIN)
    before = (before_at, before_id) if before_at is not None and before_id is not None else None
    got = await table_page(hub, query.strip(), state, None, club.strip() or None, 50, before)
    following = None
    if got["next"] is not None:
        following = "/admin/tables?" + urlencode({k: v for k, v in {"query": query, "state": state or "",
                                                                     "club": club, **got["next"]}.items() if v != ""})
    return _admin_page(request, "admin_tables.html", session, {
        "tables": got["tables"], "query": query, "state": state or "", "club": club, "next": following,
        "states": ("live", "idle", "abandoned", "closed")})


@router.post("/admin/tables/close")
async def close_form(request: Request, hub: HubDep) -> Response:
    """Admin: close the tables ticked (``table`` fields), with a reason."""
    session = await session_of(request)
    if session is None:
        return _go(_LOGIN)
    try:
        require(session, act=True)
        form = await _form(request)
        check_csrf(request, session, _one(form, "csrf"))
        ids = [t[:16] for t in form.get("table", []) if t][:MAX_CLOSE]
        if not ids:
            raise TableError(422, "tick the tables to close first")
        reason = _one(form, "reason").strip()[:200] or "closed by the operator"
        done = await close_tables(hub, session.user.name, ids, reason)
    except TableError as exc:
        return _error_page(request, session, exc)
    failed = sum(1 for d in done if "error" in d)
    back = _one(form, "back")
    return _go(back if back.startswith("/admin/") else "/admin/tables", done="closed", n=len(done) - failed,
               failed=failed)


@router.post("/admin/tables/close-abandoned")
async def close_abandoned_form(request: Request, hub: HubDep) -> Response:
    """Admin: close every table nobody wrote for the time given (7 days by default)."""
    session = await session_of(request)
    if session is None:
        return _go(_LOGIN)
    try:
        require(session, act=True)
        form = await _form(request)
        check_csrf(request, session, _one(form, "csrf"))
        seconds = older_than_seconds(_one(form, "older_than", "7d").strip())
        rows = await operate(hub, Operator(hub.require_database()).close_abandoned, session.user.name, seconds)
    except TableError as exc:
        return _error_page(request, session, exc)
    failed = sum(1 for r in rows if "error" in r)
    return _go("/admin/tables", done="abandoned", n=len(rows) - failed, failed=failed, state="abandoned")


@router.get("/admin/tables/{table_id}")
async def table_detail(request: Request, table_id: str, hub: HubDep) -> Response:
    """A table: what it is, its ledger audit (recorded as read), close it, export its histories."""
    session = await session_of(request)
    if session is None:
        return _go(_LOGIN)
    try:
        found = await table_page(hub, table_id[:16], None, None, None, 50)
        row = next((t for t in found["tables"] if t["id"] == table_id[:16]), None)
        if row is None:
            raise TableError(404, f"unknown table {table_id[:16]!r}")
        ledger = await operate(hub, Operator(hub.require_database()).ledger_audit, session.user.name, row["id"])
    except TableError as exc:
        return _error_page(request, session, exc)
    return _admin_page(request, "admin_table.html", session, {"t": row, "ledger": ledger})


# ------------------------------------------------------------------ clubs

@router.get("/admin/clubs/{club_id}")
async def club_detail(request: Request, club_id: str, hub: HubDep) -> Response:
    """A club: its tables and members, the names banned from it; remove, ban or let back a name."""
    session = await session_of(request)
    if session is None:
        return _go(_LOGIN)
    try:
        view = await club_view(hub, club_id)
    except TableError as exc:
        return _error_page(request, session, exc)
    return _admin_page(request, "admin_club.html", session, view)


@router.post("/admin/clubs/{club_id}/{action}")
async def club_form(request: Request, club_id: str, action: str, hub: HubDep) -> Response:
    """Admin: ``remove``, ``ban`` or ``unban`` a name (each recorded in the audit log)."""
    session = await session_of(request)
    if session is None:
        return _go(_LOGIN)
    try:
        require(session, act=True)
        if action not in ("remove", "ban", "unban"):
            raise TableError(404, f"no such action {action[:20]!r}")
        form = await _form(request)
        check_csrf(request, session, _one(form, "csrf"))
        name = _one(form, "name").strip()
        if not 1 <= len(name) <= 40:
            raise TableError(422, "give the name (1 to 40 characters)")
        op, by, cid = Operator(hub.require_database()), session.user.name, club_id[:16]
        n = 0
        if action == "remove":
            await operate(hub, op.remove_name, by, cid, name, from_seats=_one(form, "from_seats") == "on")
        elif action == "ban":
            out = await operate(hub, op.ban_name, by, cid, name, _one(form, "reason").strip()[:200])
            n = sum(1 for s in out["seats"] if "error" not in s)
        else:
            await operate(hub, op.unban_name, by, cid, name)
    except TableError as exc:
        return _error_page(request, session, exc)
    done = {"remove": "removed", "ban": "banned", "unban": "unbanned"}[action]
    return _go(f"/admin/clubs/{cid}", done=done, n=n)


# ------------------------------------------------------------------ the audit log

#: Rows of the audit log per page.
AUDIT_PAGE = 50


@router.get("/admin/audit")
async def audit_page(request: Request, hub: HubDep, after: Annotated[int | None, Query(ge=0)] = None,
                     verify: bool = False) -> Response:
    """The audit log's rows (the newest page first; ``after``: from that row on) and, asked, the
    hash chain walked from its first row."""
    session = await session_of(request)
    if session is None:
        return _go(_LOGIN)
    log = AuditLog(hub.require_database())
    count = await hub.run_db(log.count)
    start = max(0, count - AUDIT_PAGE) if after is None else min(after, count)
    rows = await hub.run_db(log.entries, start, AUDIT_PAGE)
    check = await hub.run_db(log.verify) if verify else None
    return _admin_page(request, "admin_audit.html", session, {
        "rows": [r.to_dict() for r in rows], "count": count, "check": check,
        "older": max(0, start - AUDIT_PAGE) if start > 0 else None,
        "newer": start + AUDIT_PAGE if start + AUDIT_PAGE < count else None})
