"""A store of tables in this process's memory: :class:`MemoryStore`.

It implements :class:`~fourcards.store.base.TableStore` as the database store does - one
versioned, all-or-nothing commit per change, the double-entry ledger checked, player and deal
ids given in order, balances summed from the ledger, a table read back as a
:class:`~fourcards.table.writes.TableRow` - without a database: the table rules' tests run the
server's execution path on it (tests/table), and nothing outlives the process. One lock makes
each method one transaction (servers call it from worker threads).
"""

from __future__ import annotations

import datetime
import threading
import uuid
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from fourcards.store.base import (
    CommitResult,
    StoreError,
    TableCommit,
    VersionConflict,
    check_entries,
    check_seat_change,
)
from fourcards.table.writes import (
    ChatLine,
    DealWrite,
    Entry,
    NewPlayer,
    OpenDeal,
    PlayerRow,
    SeatChange,
    TableRow,
    TakeBack,
)

__all__ = ["MemoryStore"]

#: Table log lines and chat messages read back with a table (as the database store does).
LOG_LINES = 60
CHAT_LINES = 40


@dataclass
class _Table:
    """One table's rows (each row a dict replaced, never changed in place, so that a shallow
    copy of the lists is a snapshot to roll back to)."""

    row: dict[str, Any]
    players: list[dict[str, Any]] = field(default_factory=list)
    deals: list[dict[str, Any]] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    ledger: list[dict[str, Any]] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    chat: list[ChatLine] = field(default_factory=list)

    def snapshot(self) -> _Table:
        return _Table(self.row, list(self.players), list(self.deals), list(self.actions), list(self.ledger),
                      list(self.log), list(self.chat))


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


class MemoryStore:
    """Tables in memory (see the module doc)."""

    dialect = "memory"

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._tables: dict[str, _Table] = {}
        self._ids: dict[str, int] = defaultdict(int)
        self._alive_at: float | None = None

    def close(self) -> None:
        """Nothing to release."""

    def _next(self, kind: str) -> int:
        self._ids[kind] += 1
        return self._ids[kind]

    def _table(self, table_id: str) -> _Table:
        t = self._tables.get(table_id)
        if t is None:
            raise VersionConflict(f"table {table_id!r} does not exist")
        return t

    # ------------------------------------------------------------ writes

    def create_table(self, table_id: str, game: str, name: str, rules: dict[str, Any],
                     settings: dict[str, Any], public: bool = False) -> None:
        """A new table at version 0.

        Raises:
            StoreError: the id is taken.
        """
        with self._lock:
            if table_id in self._tables:
                raise StoreError(f"table {table_id!r} exists already")
            self._tables[table_id] = _Table({
                "id": table_id, "game": game, "name": name, "rules": dict(rules), "settings": dict(settings),
                "status": "open", "public": public, "created_at": _now(), "version": 0, "state": None,
                "due_at": None})

    def commit_table(self, c: TableCommit) -> CommitResult:
        """Write one change (see :class:`~fourcards.store.base.TableCommit`): all of it or
        nothing.

        Raises:
            VersionConflict: the table has another version (or does not exist).
            StoreError: unbalanced entries, an unknown column, a seat or token already taken,
                a deal write without a deal, a take-back of records that are not there.
        """
        for part in c.parts:
            if isinstance(part, DealWrite):
                check_entries(part.entries)
            elif isinstance(part, SeatChange):
                check_seat_change(part)
        with self._lock:
            t = self._table(c.table_id)
            if t.row["version"] != c.version:
                raise VersionConflict(f"table {c.table_id!r} changed since version {c.version}")
            before, ids_before = t.snapshot(), dict(self._ids)
            try:
                result = self._write(t, c)
            except BaseException:
                self._tables[c.table_id] = before
                self._ids = defaultdict(int, ids_before)
                raise
            return result

    def commit_tables(self, commits: list[TableCommit]) -> list[CommitResult | Exception]:
        """Several changes (a group commit: :meth:`fourcards.store.base.TableStore.commit_tables`),
        each all or nothing; per change its result or the exception that refused it."""
        out: list[CommitResult | Exception] = []
        for c in commits:
            try:
                out.append(self.commit_table(c))
            except StoreError as exc:
                out.append(exc)
        return out

    def _write(self, t: _Table, c: TableCommit) -> CommitResult:
        t.row = {**t.row, "version": c.version + 1, "state": c.state, "due_at": c.due_at}
        deal_id: int | None = None
        ids: list[int] = []
        for part in c.parts:
            if isinstance(part, NewPlayer):
                ids.append(self._add_player(t, part))
            elif isinstance(part, SeatChange):
                self._change_seats(t, part)
            elif isinstance(part, TakeBack):
                self._take_back(t, part)
            elif isinstance(part, ChatLine):
                t.chat.append(part)
            else:
                deal_id = self._write_deal(t, part, deal_id)
        t.log += c.log
        self._check_seats(t)
        return CommitResult(c.version + 1, deal_id, ids)

    def _entries(self, t: _Table, deal_id: int | None, entries: list[Entry]) -> None:
        check_entries(entries)
        txn = uuid.uuid4().hex
        for e in entries:
            t.ledger.append({"id": self._next("ledger"), "txn": txn, "deal_id": deal_id, "account": e.account,
                             "player_id": e.player_id, "amount": e.amount, "memo": e.memo})

    def _add_player(self, t: _Table, p: NewPlayer) -> int:
        pid = self._next("player")
        t.players.append({"id": pid, "seat": p.seat, "name": p.name, "token_hash": p.token_hash,
                          "is_host": p.is_host, "is_bot": p.is_bot, "bot_kind": p.bot_kind, "status": "playing"})
        if p.buy_in:
            self._entries(t, None, [Entry("player", p.buy_in, pid, "buy_in"), Entry("bank", -p.buy_in, None, "buy_in")])
        return pid

    def _change_seats(self, t: _Table, change: SeatChange) -> None:
        for i, row in enumerate(t.players):
            if row["id"] in change.players:
                t.players[i] = {**row, **change.players[row["id"]]}
        if change.table:
            t.row = {**t.row, **change.table}
        self._entries(t, None, [e for pid, amount, memo in change.moves if amount
                                for e in (Entry("player", amount, pid, memo), Entry("bank", -amount, None, memo))])

    @staticmethod
    def _check_seats(t: _Table) -> None:
        """The database's unique seat and token of a table's seated players."""
        seated = [p for p in t.players if p["seat"] is not None]
        if len({p["seat"] for p in seated}) != len(seated) or \
                len({p["token_hash"] for p in seated}) != len(seated):
            raise StoreError("a seat or a seat token is already taken at this table")

    def _current(self, t: _Table) -> dict[str, Any] | None:
        return next((d for d in reversed(t.deals) if d["status"] == "in_progress"), None)

    def _write_deal(self, t: _Table, w: DealWrite, current: int | None) -> int:
        deal_id = w.deal_id
        if w.open is not None:
            deal_id = self._next("deal")
            t.deals.append({"id": deal_id, "number": w.open.number, "status": "in_progress",
                            "seats": dict(w.open.seats), "rules": dict(w.open.rules), "result": None,
                            "void_reason": None, "started_at": _now(), "ended_at": None})
        elif deal_id is None:
            deal = self._current(t) if current is None else None
            deal_id = current if current is not None else (deal["id"] if deal else None)
            if deal_id is None:
                raise StoreError(f"table {w.table_id!r} has no deal in progress to write to")
        for i, rec in enumerate(w.records):
            t.actions.append({"deal_id": deal_id, "seq": w.seq + i, "player_id": w.player_id, "record": rec})
        self._entries(t, deal_id, w.entries)
        if w.close is not None:
            for i, d in enumerate(t.deals):
                if d["id"] == deal_id:
                    t.deals[i] = {**d, "status": w.close.status, "result": w.close.result,
                                  "void_reason": w.close.void_reason, "ended_at": _now()}
        return int(deal_id)

    def _take_back(self, t: _Table, tb: TakeBack) -> None:
        deal = next((d for d in t.deals if d["id"] == tb.deal_id), None) if tb.deal_id is not None else self._current(t)
        if deal is None or deal["status"] != "in_progress":
            raise StoreError(f"deal {tb.deal_id} is not in progress: its history records stay")
        held = sorted(a["seq"] for a in t.actions if a["deal_id"] == deal["id"] and a["seq"] >= tb.seq)
        if held != list(range(tb.seq, tb.seq + tb.count)):
            raise StoreError(f"deal {deal['id']} holds {len(held)} record(s) from seq {tb.seq} on, not the "
                             f"{tb.count} to take back: nothing removed")
        t.actions = [a for a in t.actions if not (a["deal_id"] == deal["id"] and a["seq"] >= tb.seq)]

    # ------------------------------------------------------------ due work

    def claim_due(self, now: float, lease: float, limit: int = 16) -> list[str]:
        """Claim the tables whose due time has come (earliest first), each due again at ``now + lease``."""
        with self._lock:
            due = sorted((t.row["due_at"], tid) for tid, t in self._tables.items()
                         if t.row["due_at"] is not None and t.row["due_at"] <= now)[:limit]
            for _, tid in due:
                self._tables[tid].row = {**self._tables[tid].row, "due_at": now + lease}
            return [tid for _, tid in due]

    def beat(self, now: float) -> float | None:
        """Note a server alive at ``now``; when one was before (``None``: never)."""
        with self._lock:
            before = self._alive_at
            if before is None or now > before:
                self._alive_at = now
            return before

    def tables_with_due_work(self) -> list[str]:
        """The open tables with a due time."""
        with self._lock:
            return [tid for tid, t in self._tables.items() if t.row["due_at"] is not None and t.row["status"] == "open"]

    def next_due(self) -> float | None:
        """The earliest due time of any table."""
        with self._lock:
            return min((t.row["due_at"] for t in self._tables.values() if t.row["due_at"] is not None), default=None)

    def set_due(self, table_id: str, version: int, due_at: float | None) -> bool:
        """Set the due time if the table still has ``version``."""
        with self._lock:
            t = self._tables.get(table_id)
            if t is None or t.row["version"] != version:
                return False
            t.row = {**t.row, "due_at": due_at}
            return True

    # ------------------------------------------------------------ reads

    def table_versions(self, table_ids: Iterable[str] | None = None) -> dict[str, int]:
        """``{table id: version}`` of the given tables (``None``: every open table)."""
        with self._lock:
            if table_ids is None:
                return {tid: t.row["version"] for tid, t in self._tables.items() if t.row["status"] == "open"}
            return {tid: self._tables[tid].row["version"] for tid in table_ids if tid in self._tables}

    def public_tables(self, limit: int = 50, after: str | None = None) -> dict[str, int]:
        """Open public tables, newest first, after the table ``after``."""
        with self._lock:
            rows = sorted((t.row for t in self._tables.values() if t.row["status"] == "open" and t.row["public"]),
                          key=lambda r: (r["created_at"], r["id"]), reverse=True)
            if after is not None:
                mark = self._tables.get(after)
                if mark is None:
                    return {}
                key = (mark.row["created_at"], after)
                rows = [r for r in rows if (r["created_at"], r["id"]) < key]
            return {r["id"]: r["version"] for r in rows[:limit]}

    def _balances(self, t: _Table, memos: tuple[str, ...] | None = None) -> dict[int, int]:
        out: dict[int, int] = defaultdict(int)
        for e in t.ledger:
            if e["account"] == "player" and (memos is None or e["memo"] in memos):
                out[e["player_id"]] += e["amount"]
        return out

    def _open_deal(self, t: _Table, d: dict[str, Any] | None) -> OpenDeal | None:
        if d is None:
            return None
        records = [a["record"] for a in sorted((a for a in t.actions if a["deal_id"] == d["id"]), key=lambda a: a["seq"])]
        return OpenDeal(d["id"], d["number"], dict(d["seats"]), records) \
            if records or d["status"] == "in_progress" else None

    def load_table(self, table_id: str) -> TableRow | None:
        """The table as it is now (``None``: no such table)."""
        with self._lock:
            t = self._tables.get(table_id)
            if t is None:
                return None
            r = t.row
            balances, away = self._balances(t), self._balances(t, ("cash_out", "rejoin"))
            players = [PlayerRow(p["id"], p["seat"], p["name"], p["token_hash"], p["is_host"], p["is_bot"],
                                 p["bot_kind"], balances.get(p["id"], 0), p["status"], -away.get(p["id"], 0))
                       for p in t.players]
            deals = sorted(t.deals, key=lambda d: d["number"], reverse=True)[:2]
            current = next((d for d in deals if d["status"] == "in_progress"), None)
            finished = next((d for d in deals if d["status"] != "in_progress"), None)
            last = max((d["number"] for d in t.deals), default=0)
            return TableRow(r["id"], r["game"], r["name"], dict(r["rules"]), dict(r["settings"]), r["created_at"],
                            players, last + 1, r["status"], bool(r["public"]), r["version"], r["state"],
                            self._open_deal(t, current), self._open_deal(t, finished), t.log[-LOG_LINES:],
                            [replace(m) for m in t.chat[-CHAT_LINES:]])

    def chip_totals(self, table_id: str) -> dict[str, Any]:
        """Per player the ledger's sums by memo, the house's balance, the chips in play."""
        with self._lock:
            per: dict[int, dict[str, int]] = defaultdict(dict)
            accounts: dict[str, int] = defaultdict(int)
            for e in self._table(table_id).ledger:
                accounts[e["account"]] += e["amount"]
                if e["account"] == "player":
                    m = per[e["player_id"]]
                    m[e["memo"]] = m.get(e["memo"], 0) + e["amount"]
            return {"players": dict(per), "house": accounts["house"], "in_play": accounts["bets"] + accounts["pot"]}

    def balances(self, table_id: str) -> dict[int, int]:
        """``{player_id: chips}`` of every player of the table."""
        with self._lock:
            t = self._table(table_id)
            b = self._balances(t)
            return {p["id"]: b.get(p["id"], 0) for p in t.players}

    @staticmethod
    def _summary(d: dict[str, Any]) -> dict[str, Any]:
        return {"number": d["number"], "status": d["status"], "seats": d["seats"], "rules": d["rules"],
                "result": d["result"], "void_reason": d["void_reason"],
                "started_at": d["started_at"].isoformat() if d["started_at"] else None,
                "ended_at": d["ended_at"].isoformat() if d["ended_at"] else None}

    def _full(self, t: _Table, d: dict[str, Any]) -> dict[str, Any]:
        return {**self._summary(d),
                "history": [a["record"] for a in sorted((a for a in t.actions if a["deal_id"] == d["id"]),
                                                        key=lambda a: a["seq"])],
                "ledger": [dict(e) for e in t.ledger if e["deal_id"] == d["id"]]}

    def list_deals(self, table_id: str, limit: int = 50) -> list[dict[str, Any]]:
        """The latest deals (newest first) with each player's ``nets``."""
        with self._lock:
            t = self._table(table_id)
            out = []
            for d in sorted(t.deals, key=lambda d: d["number"], reverse=True)[:limit]:
                nets: dict[int, int] = defaultdict(int)
                for e in t.ledger:
                    if e["deal_id"] == d["id"] and e["account"] == "player":
                        nets[e["player_id"]] += e["amount"]
                out.append({**self._summary(d), "nets": dict(nets)})
            return out

    def get_deal(self, table_id: str, number: int) -> dict[str, Any] | None:
        """One deal with its history and ledger entries."""
        with self._lock:
            t = self._table(table_id)
            d = next((d for d in t.deals if d["number"] == number), None)
            return None if d is None else self._entry_form(self._full(t, d))

    def finished_deals(self, table_id: str, after: int = 0, limit: int = 50) -> list[dict[str, Any]]:
        """Finished deals numbered above ``after``, in order."""
        with self._lock:
            t = self._table(table_id)
            deals = sorted((d for d in t.deals if d["number"] > after and d["status"] != "in_progress"),
                           key=lambda d: d["number"])[:limit]
            return [self._entry_form(self._full(t, d)) for d in deals]

    @staticmethod
    def _entry_form(deal: dict[str, Any]) -> dict[str, Any]:
        deal["ledger"] = [{k: e[k] for k in ("id", "txn", "deal_id", "account", "player_id", "amount", "memo")}
                          for e in deal["ledger"]]
        return deal

    def ledger(self, table_id: str, limit: int = 500) -> list[dict[str, Any]]:
        """The latest ledger entries (oldest first)."""
        with self._lock:
            return [dict(e) for e in self._table(table_id).ledger[-limit:]]

    def ledger_check(self, table_id: str | None = None) -> dict[str, Any]:
        """Audit: the sum of every entry (0), unbalanced transactions (none), escrows left in
        ended deals (none)."""
        with self._lock:
            tables = [self._table(table_id)] if table_id is not None else list(self._tables.values())
            total, txns = 0, defaultdict[str, int](int)
            open_escrow: list[int] = []
            for t in tables:
                for e in t.ledger:
                    total += e["amount"]
                    txns[e["txn"]] += e["amount"]
                for d in t.deals:
                    if d["status"] != "in_progress" and sum(e["amount"] for e in t.ledger if e["deal_id"] == d["id"]
                                                            and e["account"] in ("bets", "pot")):
                        open_escrow.append(d["id"])
            return {"total": total, "unbalanced_txns": [k for k, v in txns.items() if v],
                    "open_escrow_deals": open_escrow}
