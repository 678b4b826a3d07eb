"""The operator console's accounts (issue 27): names, argon2id password hashes, roles.

Passwords are hashed with argon2id by ``argon2-cffi`` (:class:`argon2.PasswordHasher`, its
default parameters: RFC 9106's low-memory choice, 64 MiB, 3 passes, 4 lanes); only the PHC
string (``$argon2id$v=19$m=...,t=...,p=...$salt$hash``) is stored. :meth:`AdminUsers.authenticate`
rehashes a password whose hash was made with older parameters. Roles (:data:`ROLES`):
``admin`` reads and acts (closes tables, bans names, exports), ``viewer`` only reads.

Creating a user is an operator action: it is written to the audit log in the same transaction.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from functools import cache
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import select, update

from fourcards.errors import FourcardsError
from fourcards.inputs import clean_name
from fourcards.store.audit import record, retrying
from fourcards.store.db import Store, StoreError
from fourcards.store.models import ROLES, AdminUser, utcnow
from fourcards.table.standings import name_key

__all__ = ["ROLES", "MIN_PASSWORD", "MAX_PASSWORD", "Admin", "AdminUsers", "hash_password", "check_password"]

#: Shortest password accepted (characters).
MIN_PASSWORD = 12
#: Longest password accepted (characters): argon2 takes any length; the limit keeps a request cheap.
MAX_PASSWORD = 1024

_hasher = PasswordHasher()


def hash_password(password: str) -> str:
    """The argon2id hash (PHC string) of ``password``.

    Raises:
        StoreError: a password shorter than :data:`MIN_PASSWORD` or longer than
            :data:`MAX_PASSWORD` characters.
    """
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise StoreError(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters, this one {len(password)}")
    return _hasher.hash(password)


def check_password(stored: str, password: str) -> bool:
    """Whether ``password`` matches the stored hash (never raises for a wrong password or an
    unreadable hash: ``False``)."""
    if len(password) > MAX_PASSWORD:
        return False
    try:
        return _hasher.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


@dataclass(frozen=True)
class Admin:
    """An account: ``id``, ``name``, ``role`` (:data:`ROLES`), ``created_at`` (ISO)."""

    id: int
    name: str
    role: str
    created_at: str | None

    def to_dict(self) -> dict[str, Any]:
        """The account as JSON (never the hash)."""
        return {"id": self.id, "name": self.name, "role": self.role, "created_at": self.created_at}


def _admin(u: AdminUser) -> Admin:
    return Admin(int(u.id), u.name, u.role, u.created_at.isoformat() if u.created_at else None)


class AdminUsers:
    """The console's accounts of one store (see the module doc)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(self, name: str, password: str, role: str, by: str) -> Admin:
        """A new account ``name`` (tidied like a player's name; unique in any case) with ``role``,
        recorded in the audit log as ``create_user`` by ``by``.

        Raises:
            StoreError: a name taken or not a name, an unknown role, a password out of bounds.
        """
        if role not in ROLES:
            raise StoreError(f"unknown role {role!r}: choose {' or '.join(ROLES)}")
        try:
            name = clean_name(name, field="user name")
        except FourcardsError as exc:
            raise StoreError(str(exc)) from None
        hashed = hash_password(password)

        def work(s: Any) -> Admin:
            if s.scalar(select(AdminUser.id).where(AdminUser.name_key == name_key(name))) is not None:
                raise StoreError(f"an admin user named {name!r} already exists")
            u = AdminUser(name=name, name_key=name_key(name), password_hash=hashed, role=role, created_at=utcnow())
            s.add(u)
            s.flush()
            record(s, by, "create_user", name, {"role": role})
            return _admin(u)

        return retrying(self.store, work)

    def set_password(self, name: str, password: str, by: str) -> None:
        """Give ``name`` a new password (recorded as ``set_password``).

        Raises:
            StoreError: no such user, a password out of bounds.
        """
        hashed = hash_password(password)

        def work(s: Any) -> None:
            res = s.execute(update(AdminUser).where(AdminUser.name_key == name_key(name)).values(password_hash=hashed))
            if not res.rowcount:
                raise StoreError(f"no admin user named {name!r}")
            record(s, by, "set_password", name)

        retrying(self.store, work)

    def get(self, name: str) -> Admin | None:
        """The account named ``name`` (in any case), or ``None``."""
        with self.store.Session() as s:
            u = s.scalar(select(AdminUser).where(AdminUser.name_key == name_key(name)))
            return None if u is None else _admin(u)

    def list(self) -> list[Admin]:
        """Every account, in the order created."""
        with self.store.Session() as s:
            return [_admin(u) for u in s.scalars(select(AdminUser).order_by(AdminUser.id))]

    def authenticate(self, name: str, password: str) -> Admin | None:
        """The account if ``password`` is its password, else ``None`` (an unknown name costs a
        hash too, so the answer's time does not say which names exist). A hash made with older
        parameters is replaced."""
        with self.store.Session() as s:
            u = s.scalar(select(AdminUser).where(AdminUser.name_key == name_key(name[:160])))
            stored = u.password_hash if u is not None else _dummy()
        if not check_password(stored, password) or u is None:
            return None
        if _hasher.check_needs_rehash(stored):
            with self.store.Session.begin() as s:
                s.execute(update(AdminUser).where(AdminUser.id == u.id).values(password_hash=_hasher.hash(password)))
        return _admin(u)


@cache
def _dummy() -> str:
    """A hash no password matches, checked for an unknown name (made when first needed)."""
    return _hasher.hash(secrets.token_urlsafe(16))
