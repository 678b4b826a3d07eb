"""The hot path of a table's commit: a move of the deal in progress written in one round trip.

Most changes of a table are moves: history records and ledger entries of the deal in
progress, log lines, the table's new state, due time and time of writing (``active_at``),
guarded by its version. Written
through SQLAlchemy Core that is four to six statements, each with its own round trip and
execution machinery - most of a server's time per move (docs/benchmarks.md, issue 20). Here
the same writes go through the driver's cursor with precomposed SQL, values serialized with
orjson:

* PostgreSQL: **one** statement - the version-guarded ``UPDATE`` as a data-modifying ``WITH``
  whose ``RETURNING`` feeds the inserts (records, entries and lines passed as arrays), the
  deal's close and the change notification, so nothing is written when the version check
  fails; sent on a connection of its own in autocommit mode (one statement is one
  transaction), the whole change is one round trip;
* SQLite: the same statements in one transaction on a ``sqlite3`` connection of the
  database thread's own (``executemany`` for the rows): no network, and no SQLAlchemy
  machinery per statement or per transaction either.

Only :class:`~fourcards.table.writes.DealWrite` parts of one deal take this path
(:func:`takes_fast_path`): moves of a deal that has its row, or a deal's opening (its row
inserted first) and the moves that follow it at once; seats, new players and take-backs go
through :meth:`fourcards.store.Store.commit_table`'s general path. Both write the same rows.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

import orjson
from sqlalchemy import DateTime

from fourcards.table.writes import DealWrite

__all__ = ["takes_fast_path", "commit_moves", "write_moves", "fetched"]

_DATETIME = DateTime(timezone=True)


def takes_fast_path(parts: list[Any]) -> bool:
    """Whether a commit's parts are only writes of one deal: moves of the deal in progress (its
    close included), or a deal's opening and the moves that follow it at once."""
    if not all(isinstance(p, DealWrite) for p in parts):
        return False
    if parts and parts[0].open is not None:
        return all(p.open is None and p.deal_id is None for p in parts[1:])
    return all(p.open is None and p.deal_id is not None for p in parts) and len({p.deal_id for p in parts}) <= 1


def _json(value: Any) -> str:
    return orjson.dumps(value).decode()


def commit_moves(conn: Any, dialect: str, table_id: str, version: int, state: Any, due_at: float | None,
                 parts: list[DealWrite], log: list[str], now: Any, channel: str, payload: str) -> tuple[bool, int | None]:
    """Write the moves ``parts`` (see :func:`takes_fast_path`), the table's ``state``, ``due_at``
    and ``log`` lines at ``now`` if the table still has ``version``; on PostgreSQL also NOTIFY
    ``channel`` with ``payload``. ``conn``: on PostgreSQL a psycopg connection in autocommit
    mode (the one statement is its own transaction) or one whose transaction is open (a group
    commit: :func:`write_moves` in the caller's transaction); on SQLite a ``sqlite3``
    connection in autocommit mode (the writes get a transaction of their own; ``now`` already
    the column's text) or a SQLAlchemy connection whose transaction is open (its caller commits).

    Returns:
        whether the table had ``version`` (``False``: nothing was written), and the deal's id.
    """
    if dialect == "postgresql":
        with conn.cursor() as cur:
            return write_moves(cur, dialect, table_id, version, state, due_at, parts, log, now, channel, payload)
    raw = getattr(conn, "dbapi_connection", None) is None and not hasattr(conn, "dialect")
    if raw:
        conn.execute("BEGIN IMMEDIATE")
        cur = conn.cursor()
    else:
        stamp = _DATETIME.dialect_impl(conn.dialect).bind_processor(conn.dialect)
        now = stamp(now) if stamp is not None else now
        cur = conn.connection.dbapi_connection.cursor()
    ok: tuple[bool, int | None] = (False, None)
    try:
        ok = write_moves(cur, dialect, table_id, version, state, due_at, parts, log, now, channel, payload)
    finally:
        cur.close()
        if raw:
            conn.execute("COMMIT" if ok[0] else "ROLLBACK")
    return ok


def write_moves(cur: Any, dialect: str, table_id: str, version: int, state: Any, due_at: float | None,
                parts: list[DealWrite], log: list[str], now: Any, channel: str, payload: str,
                fetch: bool = True) -> tuple[bool, int | None]:
    """:func:`commit_moves`' writes on the driver's cursor ``cur``, in the caller's transaction
    (on SQLite ``now`` is the column's text). The version check comes first: when it fails,
    nothing is written and the transaction may go on with other tables' writes (a group commit).
    On PostgreSQL ``fetch=False`` sends the statement without reading its answer (a pipeline:
    the caller reads it with :func:`fetched`). A first part that opens a deal inserts its row.

    Returns:
        whether the table had ``version`` (``True`` when not fetched), and the deal's id
        (``None`` when not fetched, or no deal part).
    """
    deal_id = parts[0].deal_id if parts else None
    opening = parts[0].open if parts else None
    records = [(p.seq + i, p.player_id, _json(rec)) for p in parts for i, rec in enumerate(p.records)]
    entries = []
    for p in parts:
        if p.entries:
            txn = uuid.uuid4().hex
            entries += [(txn, e.account, e.player_id, e.amount, e.memo) for e in p.entries]
    close = next((p.close for p in reversed(parts) if p.close is not None), None)
    if dialect == "postgresql":
        cur.execute(*_postgres(table_id, version, _json(state), due_at, deal_id, opening, records, entries, close, log,
                               now, channel, payload))
        return fetched(cur, deal_id) if fetch else (True, None)
    return _sqlite_writes(cur, table_id, version, _json(state), due_at, deal_id, opening, records, entries, close, log,
                          now)


def fetched(cur: Any, deal_id: int | None) -> tuple[bool, int | None]:
    """What a PostgreSQL :func:`write_moves` statement answered on ``cur``: whether the table had
    its version, and the deal's id (the new deal's, or ``deal_id``)."""
    rows = cur.fetchall()
    if len(rows) != 1:
        return False, None
    return True, rows[0][1] if rows[0][1] is not None else deal_id


def _postgres(table_id: str, version: int, state: str, due_at: float | None, deal_id: int | None, opening: Any,
              records: list[Any], entries: list[Any], close: Any, log: list[str], now: Any, channel: str,
              payload: str) -> tuple[str, dict[str, Any]]:
    parts = ["v AS (UPDATE game_tables SET version = %(v1)s, state = CAST(%(state)s AS JSON), due_at = %(due)s, "
             "active_at = %(active)s WHERE id = %(id)s AND version = %(v)s RETURNING id)"]
    args: dict[str, Any] = {"v1": version + 1, "state": state, "due": due_at, "active": time.time(), "id": table_id,
                            "v": version,
                            "now": now, "channel": channel, "payload": payload, "deal": deal_id}
    deal = "%(deal)s"
    if opening is not None:  # the deal's row first; the writes below refer to its id
        parts.append("d AS (INSERT INTO deals (table_id, number, status, seats, rules, started_at) "
                     "SELECT %(id)s, %(dnum)s, 'in_progress', CAST(%(dseats)s AS JSON), CAST(%(drules)s AS JSON), "
                     "%(now)s FROM v RETURNING id)")
        args.update(dnum=opening.number, dseats=_json(opening.seats), drules=_json(opening.rules))
        deal = "(SELECT id FROM d)"
    if records:
        parts.append("a AS (INSERT INTO deal_actions (deal_id, seq, player_id, record, created_at) "
                     f"SELECT {deal}, x.seq, x.pid, CAST(x.rec AS JSON), %(now)s FROM v, "
                     "unnest(CAST(%(seqs)s AS INTEGER[]), CAST(%(rpids)s AS BIGINT[]), CAST(%(recs)s AS TEXT[])) "
                     "AS x(seq, pid, rec))")
        args.update(seqs=[r[0] for r in records], rpids=[r[1] for r in records], recs=[r[2] for r in records])
    if entries:
        parts.append("l AS (INSERT INTO ledger_entries (txn, table_id, deal_id, account, player_id, amount, memo, "
                     f"created_at) SELECT x.txn, %(id)s, {deal}, x.acc, x.pid, x.amt, x.memo, %(now)s FROM v, "
                     "unnest(CAST(%(txns)s AS TEXT[]), CAST(%(accs)s AS TEXT[]), CAST(%(epids)s AS BIGINT[]), "
                     "CAST(%(amts)s AS BIGINT[]), CAST(%(memos)s AS TEXT[])) AS x(txn, acc, pid, amt, memo))")
        args.update(txns=[e[0] for e in entries], accs=[e[1] for e in entries], epids=[e[2] for e in entries],
                    amts=[e[3] for e in entries], memos=[e[4] for e in entries])
    if close is not None:
        parts.append("c AS (UPDATE deals SET status = %(cst)s, result = CAST(%(cres)s AS JSON), void_reason = %(cvr)s, "
                     f"ended_at = %(now)s WHERE id = {deal} AND EXISTS (SELECT 1 FROM v))")
        args.update(cst=close.status, cres=None if close.result is None else _json(close.result), cvr=close.void_reason)
    if log:
        parts.append("g AS (INSERT INTO table_log (table_id, line, created_at) SELECT %(id)s, x.line, %(now)s FROM v, "
                     "unnest(CAST(%(lines)s AS TEXT[])) AS x(line))")
        args["lines"] = list(log)
    new_deal = "(SELECT id FROM d)" if opening is not None else "NULL"
    return "WITH " + ", ".join(parts) + f" SELECT pg_notify(%(channel)s, %(payload)s), {new_deal} FROM v", args


def _sqlite_writes(cur: Any, table_id: str, version: int, state: str, due_at: float | None, deal_id: int | None,
                   opening: Any, records: list[Any], entries: list[Any], close: Any, log: list[str],
                   when: Any) -> tuple[bool, int | None]:
    cur.execute("UPDATE game_tables SET version = ?, state = ?, due_at = ?, active_at = ? WHERE id = ? AND version = ?",
                (version + 1, state, due_at, time.time(), table_id, version))
    if cur.rowcount != 1:
        return False, None
    if opening is not None:
        cur.execute("INSERT INTO deals (table_id, number, status, seats, rules, started_at) "
                    "VALUES (?, ?, 'in_progress', ?, ?, ?)",
                    (table_id, opening.number, _json(opening.seats), _json(opening.rules), when))
        deal_id = cur.lastrowid
    if records:
        cur.executemany("INSERT INTO deal_actions (deal_id, seq, player_id, record, created_at) VALUES (?, ?, ?, ?, ?)",
                        [(deal_id, seq, pid, rec, when) for seq, pid, rec in records])
    if entries:
        cur.executemany("INSERT INTO ledger_entries (txn, table_id, deal_id, account, player_id, amount, memo, "
                        "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        [(txn, table_id, deal_id, acc, pid, amt, memo, when) for txn, acc, pid, amt, memo in entries])
    if close is not None:
        cur.execute("UPDATE deals SET status = ?, result = ?, void_reason = ?, ended_at = ? WHERE id = ?",
                    (close.status, None if close.result is None else _json(close.result), close.void_reason, when,
                     deal_id))
    if log:
        cur.executemany("INSERT INTO table_log (table_id, line, created_at) VALUES (?, ?, ?)",
                        [(table_id, line, when) for line in log])
    return True, deal_id
