"""Retention (issue 27): a closed table's bulk goes after a while; its results and the ledger's
totals stay, so settlements and club standings add up as before.

:func:`prune` takes the tables **closed** and last written (``game_tables.active_at``) more than
``older_than_s`` seconds ago, not pruned yet, and for each - in a transaction of its own, so a
server writing meanwhile waits at most one table's worth - it:

* **removes** every deal's history (``deal_actions``: the cards and moves, most of a deal's
  size), the table log (``table_log``) and the chat (``table_chat``);
* **compacts** the ledger: the table's entries become one entry per (deal, account, player,
  memo) holding their sum (entries summing to 0 are left out), one transaction per deal (and
  one for the entries of no deal: buy-ins, top-ups, cash-outs) - each still sums to 0;
* **keeps** the table row (name, game, rules, settings, settle-up terms; ``pruned_at`` set),
  the players (names, seats, hosts, bots), every deal row (number, status, seat map, rules,
  result, void reason, times) and the club's links (``club_tables``, members, bans).

So every figure computed from sums stays exactly as it was: balances, each person's totals by
memo, the house's result, chips in play (0), each deal's nets, the ledger audit (total 0, every
transaction balanced, no escrow left), who pays whom, a club's standings (nets, nights, deals,
pot halves). What is gone is what needed the history: replaying a deal, its hand history
(its history and replay answer 410, exports say it was removed:
:data:`fourcards.table.history.PRUNED`) and the table log's words.
Open tables are never touched: close abandoned ones first (:meth:`fourcards.store.operator.
Operator.close_abandoned`). The audit log is never pruned.

A later ``fourcards serve`` retention setting calls :func:`prune` on a timer (issue 27, part B).
"""

from __future__ import annotations

import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, text, update

from fourcards.store.audit import AuditLog
from fourcards.store.db import CHANGES_CHANNEL, Store, StoreError
from fourcards.store.models import (
    Deal,
    DealAction,
    GameTable,
    LedgerEntry,
    TableChatLine,
    TableLogLine,
    utcnow,
)

__all__ = ["PruneReport", "prune", "prunable"]


@dataclass
class PruneReport:
    """What :func:`prune` removed (``dry_run``: would remove): ``tables`` pruned (their ids in
    ``table_ids``), ``deals`` whose histories went, history ``records``, ``log_lines``,
    ``chat_lines``, and the ledger's entries ``ledger_before`` and ``ledger_after`` compaction;
    ``cutoff`` (ISO): tables last written before it were taken."""

    cutoff: str
    dry_run: bool
    tables: int = 0
    deals: int = 0
    records: int = 0
    log_lines: int = 0
    chat_lines: int = 0
    ledger_before: int = 0
    ledger_after: int = 0
    table_ids: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON."""
        return dict(self.__dict__)


def prunable(store: Store, older_than_s: float, now: float | None = None, limit: int | None = None) -> list[str]:
    """The ids of the closed, not yet pruned tables last written more than ``older_than_s``
    seconds before ``now``, the oldest first."""
    cutoff = (time.time() if now is None else now) - older_than_s
    q = (select(GameTable.id).where(GameTable.status == "closed", GameTable.pruned_at.is_(None),
                                    func.coalesce(GameTable.active_at, 0.0) < cutoff)
         .order_by(func.coalesce(GameTable.active_at, 0.0), GameTable.id))
    if limit is not None:
        q = q.limit(limit)
    with store.Session() as s:
        return [str(i) for i in s.scalars(q)]


def prune(store: Store, older_than_s: float, *, dry_run: bool = False, by: str = "retention",
          now: float | None = None, limit: int | None = None) -> PruneReport:
    """Prune the closed tables last written more than ``older_than_s`` seconds ago (at most
    ``limit`` of them, the oldest first; see the module doc); ``dry_run``: count only. A real
    run is recorded in the audit log as ``prune`` by ``by`` (one row with the counts).

    Raises:
        StoreError: ``older_than_s`` below one day (a table closed a moment ago keeps its history
            at least a day, for the players who want to look back).
    """
    if older_than_s < 86400:
        raise StoreError(f"retention keeps closed tables at least a day (older than 1d), not {older_than_s:g} s")
    now = time.time() if now is None else now
    report = PruneReport(datetime.fromtimestamp(now - older_than_s, UTC).isoformat(timespec="seconds"), dry_run)
    for table_id in prunable(store, older_than_s, now, limit):
        if _prune_table(store, table_id, report, dry_run, now):
            report.tables += 1
            report.table_ids.append(table_id)
    if not dry_run and report.tables:
        AuditLog(store).append(by, "prune", "", {k: v for k, v in report.to_dict().items() if k != "table_ids"})
    return report


def _prune_table(store: Store, table_id: str, report: PruneReport, dry_run: bool, now: float) -> bool:
    with store.Session.begin() as s:
        deal_ids = select(Deal.id).where(Deal.table_id == table_id)
        counts = {
            "deals": s.scalar(select(func.count()).select_from(Deal).where(Deal.table_id == table_id)),
            "records": s.scalar(select(func.count()).select_from(DealAction).where(DealAction.deal_id.in_(deal_ids))),
            "log_lines": s.scalar(select(func.count()).select_from(TableLogLine).where(TableLogLine.table_id == table_id)),
            "chat_lines": s.scalar(select(func.count()).select_from(TableChatLine)
                                   .where(TableChatLine.table_id == table_id)),
            "ledger_before": s.scalar(select(func.count()).select_from(LedgerEntry)
                                      .where(LedgerEntry.table_id == table_id)),
        }
        sums = s.execute(select(LedgerEntry.deal_id, LedgerEntry.account, LedgerEntry.player_id, LedgerEntry.memo,
                                func.sum(LedgerEntry.amount))
                         .where(LedgerEntry.table_id == table_id)
                         .group_by(LedgerEntry.deal_id, LedgerEntry.account, LedgerEntry.player_id, LedgerEntry.memo)
                         .order_by(LedgerEntry.deal_id, LedgerEntry.account, LedgerEntry.player_id,
                                   LedgerEntry.memo)).all()
        kept = [r for r in sums if int(r[4] or 0) != 0]
        if not dry_run:
            # only a table still closed and not pruned meanwhile (checked under the write)
            res = s.execute(update(GameTable).where(GameTable.id == table_id, GameTable.status == "closed",
                                                    GameTable.pruned_at.is_(None))
                            .values(pruned_at=now, version=GameTable.version + 1))
            if not res.rowcount:  # type: ignore[attr-defined]
                return False
            s.execute(delete(DealAction).where(DealAction.deal_id.in_(deal_ids)))
            s.execute(delete(TableLogLine).where(TableLogLine.table_id == table_id))
            s.execute(delete(TableChatLine).where(TableChatLine.table_id == table_id))
            s.execute(delete(LedgerEntry).where(LedgerEntry.table_id == table_id))
            txns: dict[int | None, str] = defaultdict(lambda: uuid.uuid4().hex)
            stamp = utcnow()
            if kept:
                s.execute(insert(LedgerEntry), [
                    {"txn": txns[deal], "table_id": table_id, "deal_id": deal, "account": account, "player_id": pid,
                     "amount": int(total), "memo": memo or "", "created_at": stamp}
                    for deal, account, pid, memo, total in kept])
            if store.dialect == "postgresql":  # servers holding the table read it again
                version = s.scalar(select(GameTable.version).where(GameTable.id == table_id))
                s.execute(text("SELECT pg_notify(:channel, :payload)"),
                          {"channel": CHANGES_CHANNEL, "payload": f"{table_id} {version} retention"})
    for key, value in counts.items():
        setattr(report, key, getattr(report, key) + int(value or 0))
    report.ledger_after += len(kept)
    return True
