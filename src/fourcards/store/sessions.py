"""The admin console's sessions (issue 27, part B): server-side, so signing out and removing an
account end them at once on every server.

A session is a row of ``admin_sessions``: the SHA-256 of a random secret (the cookie's value -
never stored), the account, a CSRF token (forms and API calls that change something carry it)
and when it ends (:data:`SESSION_S` after signing in: a working day). :meth:`AdminSessions.get`
gives the account as it is now (a role changed counts at once), or ``None`` for an unknown or
ended session. Signing in also removes sessions that ended.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass

from sqlalchemy import delete, select

from fourcards.store.admins import Admin, _admin
from fourcards.store.db import Store
from fourcards.store.models import AdminSession, AdminUser

__all__ = ["SESSION_S", "Session", "AdminSessions", "secret_hash"]

#: Seconds a session lasts after signing in (8 hours).
SESSION_S = 8 * 3600.0


def secret_hash(secret: str) -> str:
    """The SHA-256 (hex) under which a session's secret is stored."""
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class Session:
    """A signed-in session: the ``user`` (as the account is now), its ``csrf`` token and when it
    ``expires_at`` (Unix seconds)."""

    user: Admin
    csrf: str
    expires_at: float


class AdminSessions:
    """The console's sessions in one store (see the module doc)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def open(self, user: Admin, now: float | None = None) -> tuple[str, Session]:
        """A new session for ``user``: its secret (the cookie's value; shown once) and the session."""
        now = time.time() if now is None else now
        secret, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        with self.store.Session.begin() as s:
            s.execute(delete(AdminSession).where(AdminSession.expires_at < now))
            s.add(AdminSession(token_hash=secret_hash(secret), user_id=user.id, csrf=csrf, created_at=now,
                               expires_at=now + SESSION_S))
        return secret, Session(user, csrf, now + SESSION_S)

    def get(self, secret: str | None, now: float | None = None) -> Session | None:
        """The session of ``secret``, or ``None`` (no secret, unknown, ended, its account gone)."""
        if not secret or len(secret) > 100:
            return None
        now = time.time() if now is None else now
        with self.store.Session() as s:
            row = s.execute(select(AdminSession, AdminUser).join(AdminUser, AdminUser.id == AdminSession.user_id)
                            .where(AdminSession.token_hash == secret_hash(secret))).first()
        if row is None or row[0].expires_at <= now:
            return None
        return Session(_admin(row[1]), row[0].csrf, float(row[0].expires_at))

    def close(self, secret: str | None) -> bool:
        """End the session of ``secret`` (signing out); whether there was one."""
        if not secret or len(secret) > 100:
            return False
        with self.store.Session.begin() as s:
            res = s.execute(delete(AdminSession).where(AdminSession.token_hash == secret_hash(secret)))
            return bool(res.rowcount)  # type: ignore[attr-defined]
