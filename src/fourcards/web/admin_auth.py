"""Signing in to the admin console (issue 27, part B): sessions, roles, CSRF, the audit of it all.

* **Accounts** are made on the server (``fourcards admin create-user``); a password is checked
  against its argon2id hash (:class:`fourcards.store.admins.AdminUsers`) in a worker thread.
  Attempts to sign in are rate-limited per client address (``--rate-limits`` ``logins``: 10 in 10
  minutes by default), right or wrong; a wrong name and a wrong password get the same answer.
* **Sessions** are server-side (:class:`fourcards.store.sessions.AdminSessions`): the cookie holds
  a random secret whose SHA-256 is stored; signing out deletes it on every server. The cookie is
  ``HttpOnly``, ``SameSite=Strict``, ``Path=/``; behind TLS (the request is https - through a
  trusted proxy's ``X-Forwarded-Proto`` too) it is ``Secure`` and named ``__Host-fourcards-admin``.
* **CSRF**: a form that changes something carries the session's CSRF token (``csrf``), an API call
  the header ``X-CSRF-Token``; a request from another site (``Sec-Fetch-Site``, ``Origin``) is
  refused; the sign-in
  form carries a token of its own, also set as a cookie (double submit). The API's sign-in takes
  JSON only (``Content-Type: application/json``: another site's form cannot send it).
* **Roles**: ``viewer`` reads (tables, ledger audits, bans, the audit log); ``admin`` also acts
  (closes tables, removes and bans names) and exports histories.
* **The audit log**: signing in and out, and every action, are rows of the hash-chained audit log
  (:mod:`fourcards.store.audit`), the actor the account's name.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from fastapi import Request
from fastapi.responses import Response

from fourcards.store.admins import Admin, AdminUsers
from fourcards.store.audit import AuditLog
from fourcards.store.sessions import SESSION_S, AdminSessions, Session
from fourcards.table import TableError
from fourcards.web.hub import Hub
from fourcards.web.security import normal_origin

__all__ = ["COOKIE", "SECURE_COOKIE", "LOGIN_COOKIE", "CSRF_HEADER", "ROLES_THAT_ACT", "secure", "session_of",
           "require", "check_csrf", "same_origin", "sign_in", "sign_out", "set_session_cookie",
           "clear_session_cookie", "login_token", "audit"]

#: The session cookie over plain http (a laptop, a test) and behind TLS.
COOKIE = "fourcards-admin"
SECURE_COOKIE = "__Host-fourcards-admin"
#: The sign-in form's own CSRF cookie.
LOGIN_COOKIE = "fourcards-admin-login"
#: The header an API call that changes something carries the session's CSRF token in.
CSRF_HEADER = "X-CSRF-Token"
#: The roles that may act (the others only read).
ROLES_THAT_ACT = ("admin",)


def secure(request: Request) -> bool:
    """Whether the request came over TLS (directly, or through a trusted proxy that said so)."""
    return request.url.scheme in ("https", "wss")


def _secret(request: Request) -> str | None:
    return request.cookies.get(SECURE_COOKIE) or request.cookies.get(COOKIE)


def _hub(request: Request) -> Hub:
    return request.app.state.hub


async def session_of(request: Request) -> Session | None:
    """The signed-in session of the request's cookie, or ``None``."""
    secret = _secret(request)
    if not secret:
        return None
    hub = _hub(request)
    return await hub.run_db(AdminSessions(hub.require_database()).get, secret)


def require(session: Session | None, act: bool = False) -> Session:
    """``session``, signed in, with a role that may act when ``act``.

    Raises:
        TableError: 401 not signed in; 403 a viewer asked to act.
    """
    if session is None:
        raise TableError(401, "sign in to the admin console first (POST /api/admin/login)")
    if act and session.user.role not in ROLES_THAT_ACT:
        raise TableError(403, f"{session.user.name} is a {session.user.role}: a viewer reads, only an admin acts "
                              "or exports")
    return session


def same_origin(request: Request) -> bool:
    """Whether the request comes from this server's own pages: its ``Sec-Fetch-Site`` (Fetch
    Metadata, when the browser sends it) is ``same-origin``, and its ``Origin`` (when it names one)
    is this server's own address, its public URL's or an allowed one - a form of another site is
    refused. (The pages' ``Referrer-Policy: no-referrer`` makes a browser send ``Origin: null``
    with their own forms: that says nothing either way; the CSRF token and the ``SameSite=Strict``
    cookie still hold.)"""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    if origin is None or origin == "null":
        return True
    given = normal_origin(origin)
    host = request.headers.get("host")
    own = {o for s in ("http", "https") if host and (o := normal_origin(f"{s}://{host}")) is not None}
    public = _hub(request).public_url
    if public and (p := normal_origin(public)) is not None:
        own.add(p)
    return given is not None and (given in own or given in request.app.state.allowed_origins)


def check_csrf(request: Request, session: Session, given: str | None) -> None:
    """Refuse a change whose CSRF token is not the session's, or that comes from another site.

    Raises:
        TableError: 403.
    """
    if not same_origin(request):
        raise TableError(403, "this request comes from another site's page: refused")
    if not given or not secrets.compare_digest(given.encode(), session.csrf.encode()):
        raise TableError(403, f"the form is out of date or not this session's (its CSRF token does not match): "
                              f"reload the page (API: the {CSRF_HEADER} header of GET /api/admin/session)")


def login_token(request: Request) -> str:
    """The sign-in form's CSRF token: the one its cookie holds, else a new one."""
    given = request.cookies.get(LOGIN_COOKIE)
    return given if given and 20 <= len(given) <= 100 else secrets.token_urlsafe(24)


def audit(hub: Hub, actor: str, action: str, target: str = "", details: dict[str, Any] | None = None) -> Any:
    """Append an audit row (in a database thread); awaitable."""
    return hub.run_db(AuditLog(hub.require_database()).append, actor, action, target, details)


async def sign_in(request: Request, name: str, password: str) -> tuple[str, Session] | None:
    """Check ``name`` and ``password`` (argon2id, in a worker thread); on success open a session,
    record ``login`` in the audit log and return the session's secret and the session."""
    hub = _hub(request)
    store = hub.require_database()
    user: Admin | None = await asyncio.to_thread(AdminUsers(store).authenticate, name, password)
    if user is None:
        return None
    secret, session = await hub.run_db(AdminSessions(store).open, user)
    client = request.client.host if request.client else None
    await audit(hub, user.name, "login", user.name, {"client": client})
    return secret, session


async def sign_out(request: Request, session: Session | None) -> None:
    """End the request's session (recorded as ``logout``)."""
    hub = _hub(request)
    if await hub.run_db(AdminSessions(hub.require_database()).close, _secret(request)) and session is not None:
        await audit(hub, session.user.name, "logout", session.user.name)


def set_session_cookie(response: Response, request: Request, secret: str) -> None:
    """Put the session's cookie on ``response`` (see the module doc)."""
    response.set_cookie(SECURE_COOKIE if secure(request) else COOKIE, secret, max_age=int(SESSION_S), path="/",
                        secure=secure(request), httponly=True, samesite="strict")


def clear_session_cookie(response: Response, request: Request) -> None:
    """Remove the session's cookie (both names)."""
    for name in (COOKIE, SECURE_COOKIE):
        response.delete_cookie(name, path="/", secure=name == SECURE_COOKIE or secure(request), httponly=True,
                               samesite="strict")
