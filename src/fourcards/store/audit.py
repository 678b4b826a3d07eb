"""The operator's audit log (issue 27): every operator action, append-only, hash-chained.

Each row (table ``audit_log``, :class:`~fourcards.store.models.AuditRow`) is one action: ``seq``
(1, 2, ... with no gap), ``at`` (ISO 8601 UTC text), ``actor`` (an admin user's name, or
``cli:<login>`` for a command run on the server), ``action`` (``create_user``,
``close_table``, ``ban_name``, ``export_table``, ``prune``, ...), ``target`` (what it acted
on: a table id, ``club/<id>``, a user name), ``details`` (JSON) - and two hashes:

* ``prev_hash`` - the ``hash`` of row ``seq - 1`` (:data:`GENESIS`, 64 zeros, for row 1);
* ``hash`` - SHA-256 of the JSON array ``[seq, at, actor, action, target, details,
  prev_hash]`` (:func:`link_hash`; ``details`` as the stored text).

So a row edited after it was written no longer matches its hash; a row edited *and* rehashed
no longer matches the next row's ``prev_hash``; a row deleted leaves a gap in ``seq``.
:meth:`AuditLog.verify` walks the chain and names the first broken link. What the chain
cannot show by itself is the newest rows cut off the end: keep the head (the last ``seq`` and
``hash``, printed by ``fourcards admin verify-audit``) somewhere else now and then, and compare
(docs/deploy.md "Audit log").

Appends are optimistic like table writes: ``seq`` is the key, so two servers appending at once
cannot both write the same link - the loser reads the new head and tries again.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from fourcards.store.db import Store, StoreError
from fourcards.store.models import AuditRow

__all__ = ["GENESIS", "AuditEntry", "AuditCheck", "AuditLog", "link_hash", "record"]

#: The ``prev_hash`` of the first row.
GENESIS = "0" * 64
#: Times an append tries again after another server wrote the same link first.
_TRIES = 20
_LIMITS = {"actor": 80, "action": 40, "target": 200}


def _details_text(details: dict[str, Any] | None) -> str:
    return json.dumps(details or {}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def link_hash(seq: int, at: str, actor: str, action: str, target: str, details: str, prev_hash: str) -> str:
    """SHA-256 (hex) of one row: the JSON array of its fields and the hash of the row before
    (``details`` is the stored JSON text, hashed as it is)."""
    payload = json.dumps([seq, at, actor, action, target, details, prev_hash], ensure_ascii=False,
                         separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()


@dataclass(frozen=True)
class AuditEntry:
    """One row of the audit log (see the module doc); ``details`` parsed."""

    seq: int
    at: str
    actor: str
    action: str
    target: str
    details: dict[str, Any]
    prev_hash: str
    hash: str

    def to_dict(self) -> dict[str, Any]:
        """The row as JSON."""
        return {"seq": self.seq, "at": self.at, "actor": self.actor, "action": self.action, "target": self.target,
                "details": self.details, "prev_hash": self.prev_hash, "hash": self.hash}


@dataclass(frozen=True)
class AuditCheck:
    """What :meth:`AuditLog.verify` found: ``rows`` checked, the ``head`` (last ``seq`` and its
    ``hash``; 0 and :data:`GENESIS` for an empty log), and the first broken link (``None``: the
    chain holds): ``broken_seq`` and ``problem`` in words."""

    rows: int
    head_seq: int
    head_hash: str
    broken_seq: int | None = None
    problem: str | None = None

    @property
    def ok(self) -> bool:
        """Whether every link holds."""
        return self.broken_seq is None


def _entry(r: AuditRow) -> AuditEntry:
    try:
        details = json.loads(r.details)
    except ValueError:
        details = {"unreadable": r.details}
    return AuditEntry(int(r.seq), r.at, r.actor, r.action, r.target, details, r.prev_hash, r.hash)


def record(s: Session, actor: str, action: str, target: str = "", details: dict[str, Any] | None = None) -> AuditEntry:
    """Append one row in the session ``s``'s transaction (it commits with the action it records).
    A conflict with another server's append raises on flush or commit (``IntegrityError``):
    callers run the whole transaction again (:meth:`AuditLog.append` does).

    Raises:
        StoreError: an actor, action or target longer than its column.
    """
    for field, value in (("actor", actor), ("action", action), ("target", target)):
        if len(value) > _LIMITS[field]:
            raise StoreError(f"an audit {field} holds at most {_LIMITS[field]} characters")
    last = s.execute(select(AuditRow.seq, AuditRow.hash).order_by(AuditRow.seq.desc()).limit(1)).first()
    seq, prev = (1, GENESIS) if last is None else (int(last.seq) + 1, str(last.hash))
    at = datetime.now(UTC).isoformat(timespec="microseconds")
    text = _details_text(details)
    row = AuditRow(seq=seq, at=at, actor=actor, action=action, target=target, details=text, prev_hash=prev,
                   hash=link_hash(seq, at, actor, action, target, text, prev))
    s.add(row)
    s.flush()
    return _entry(row)


def retrying(store: Store, work: Any) -> Any:
    """Run ``work(session)`` in a transaction of its own, again after a lost race for an audit
    link (another server appended the same ``seq``; SQLite: another writer went first)."""
    for attempt in range(_TRIES):
        try:
            with store.Session.begin() as s:
                return work(s)
        except (IntegrityError, OperationalError):
            if attempt == _TRIES - 1:
                raise
            time.sleep(0.002 * (attempt + 1))
    raise AssertionError("unreachable")  # pragma: no cover


class AuditLog:
    """The audit log of one store (see the module doc)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def append(self, actor: str, action: str, target: str = "", details: dict[str, Any] | None = None) -> AuditEntry:
        """Append one row in a transaction of its own (see :func:`record`)."""
        return retrying(self.store, lambda s: record(s, actor, action, target, details))

    def entries(self, after: int = 0, limit: int = 100, action: str | None = None) -> list[AuditEntry]:
        """Rows with ``seq`` above ``after``, oldest first, at most ``limit`` (capped at 1,000);
        ``action``: only that action's rows."""
        q = select(AuditRow).where(AuditRow.seq > after)
        if action is not None:
            q = q.where(AuditRow.action == action)
        with self.store.Session() as s:
            return [_entry(r) for r in s.scalars(q.order_by(AuditRow.seq).limit(max(1, min(limit, 1000))))]

    def count(self) -> int:
        """The number of rows."""
        with self.store.Session() as s:
            return int(s.scalar(select(func.count()).select_from(AuditRow)) or 0)

    def _rows(self, batch: int) -> Iterator[AuditRow]:
        after = 0
        while True:
            with self.store.Session() as s:
                rows = list(s.scalars(select(AuditRow).where(AuditRow.seq > after).order_by(AuditRow.seq).limit(batch)))
            yield from rows
            if len(rows) < batch:
                return
            after = int(rows[-1].seq)

    def verify(self, batch: int = 1000) -> AuditCheck:
        """Walk the chain from row 1, ``batch`` rows per query, and stop at the first broken link:
        a gap in ``seq`` (a row deleted), a ``prev_hash`` that is not the row before's ``hash``
        (a row before edited and rehashed, or one put in), a ``hash`` that does not match its row
        (the row edited)."""
        prev_seq, prev_hash, rows = 0, GENESIS, 0
        for r in self._rows(batch):
            seq = int(r.seq)
            if seq != prev_seq + 1:
                return AuditCheck(rows, prev_seq, prev_hash, prev_seq + 1,
                                  f"row {prev_seq + 1} is missing: the rows go from {prev_seq} to {seq}")
            if r.prev_hash != prev_hash:
                return AuditCheck(rows, prev_seq, prev_hash, seq,
                                  f"row {seq} does not follow row {prev_seq}: its prev_hash is not row {prev_seq}'s "
                                  f"hash (row {prev_seq} was changed and rehashed, or row {seq} put in)")
            if link_hash(seq, r.at, r.actor, r.action, r.target, r.details, r.prev_hash) != r.hash:
                return AuditCheck(rows, prev_seq, prev_hash, seq,
                                  f"row {seq} was changed after it was written: its hash does not match its fields")
            prev_seq, prev_hash, rows = seq, r.hash, rows + 1
        return AuditCheck(rows, prev_seq, prev_hash)
