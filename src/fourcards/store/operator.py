"""The operator's work on tables and clubs (issue 27): what the admin console and ``fourcards
admin`` call. Every action is written to the audit log (:mod:`fourcards.store.audit`).

**Tables, by how recently they were written** (``game_tables.active_at``; :func:`table_state`):

* ``live`` - open, written in the last :data:`IDLE_AFTER_S` (15 minutes): people are playing;
* ``idle`` - open, last written 15 minutes to :data:`ABANDONED_AFTER_S` (7 days) ago: a break,
  an evening over with the table left open;
* ``abandoned`` - open, not written for 7 days or more: nobody will come back to it;
* ``closed`` - closed by its host or the operator (its history and ledger stay).

A bot's move, a turn clock or a chat message is a write, so a table where anything happens is
live. **Closing** a table here is the operator's ruling (docs/rules.md TP-10): the table's own
close (a deal in progress voided, every chip returned, everyone cashed out) applied by
:func:`fourcards.table.apply` like a server would - load, apply, commit against the version -
so servers serving the table see it at once (PostgreSQL: the change notification; SQLite: their
poll). **Removing a name from a club** unlists it; **banning** it also keeps it from being listed
again (:meth:`fourcards.store.clubs.ClubStore.add_members` refuses it), from taking a seat at
the club's tables (:meth:`Operator.is_banned`, for the server to ask), and removes it from the
seats it holds at the club's open tables (TP-10: as the host's removal, TP-5).

Reads (:meth:`Operator.tables`, :meth:`Operator.banned`) are not audited; a ledger audit and
an export are (they show what players did).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, delete, func, or_, select

from fourcards.errors import FourcardsError
from fourcards.store.audit import AuditLog, record, retrying
from fourcards.store.clubs import ClubStore
from fourcards.store.db import Store, StoreError, TableCommit, VersionConflict
from fourcards.store.models import Club, ClubBan, ClubMember, ClubTable, Deal, GameTable, Player
from fourcards.table import Command, OperatorClose, OperatorRemove, TableError, TableState, apply
from fourcards.table.clock import due_at
from fourcards.table.export import hand_jsonl, hand_words, text_heading
from fourcards.table.loading import load
from fourcards.table.registry import GAMES
from fourcards.table.standings import name_key
from fourcards.table.state import stored

__all__ = ["Operator", "IDLE_AFTER_S", "ABANDONED_AFTER_S", "TABLE_STATES", "MAX_PAGE", "table_state"]

#: An open table not written for this long (seconds) is idle.
IDLE_AFTER_S = 15 * 60
#: An open table not written for this long (seconds) is abandoned.
ABANDONED_AFTER_S = 7 * 86400
#: The states :meth:`Operator.tables` tells apart.
TABLE_STATES = ("live", "idle", "abandoned", "closed")
#: Most tables one page lists.
MAX_PAGE = 200
#: Deals read (and rendered) at a time by an export.
EXPORT_BATCH = 50
#: The bots' delay a table's next due time is computed with after an operator's change (the
#: servers' default, ``fourcards serve --bot-delay``; a server recomputes it at its next write).
BOT_DELAY_S = 0.7
_RETRIES = 5


def table_state(status: str, active_at: float | None, now: float, idle_after: float = IDLE_AFTER_S,
                abandoned_after: float = ABANDONED_AFTER_S) -> str:
    """``live``, ``idle``, ``abandoned`` or ``closed`` (see the module doc) for a table of
    ``status`` last written at ``active_at`` (Unix seconds; ``None``: never), at ``now``."""
    if status != "open":
        return "closed"
    quiet = now - (active_at if active_at is not None else 0.0)
    return "live" if quiet < idle_after else "idle" if quiet < abandoned_after else "abandoned"


def _iso(seconds: float | None) -> str | None:
    return None if seconds is None else datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


class Operator:
    """The operator's actions on one store (see the module doc). ``by`` - who acts, as the
    audit log names them (an admin user's name, ``cli:<login>``) - is every action's first
    argument.

    Raises (every method): :class:`~fourcards.store.db.StoreError` for an unknown table or
    club, or an action refused (its sentence).
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.audit = AuditLog(store)
        self.clubs = ClubStore(store)

    # ------------------------------------------------------------------ reading

    def tables(self, query: str = "", state: str | None = None, game: str | None = None, club: str | None = None,
               limit: int = 50, before: tuple[float, str] | None = None, now: float | None = None,
               idle_after: float = IDLE_AFTER_S, abandoned_after: float = ABANDONED_AFTER_S) -> list[dict[str, Any]]:
        """Tables, most recently written first, at most ``limit`` (capped at :data:`MAX_PAGE`):

        * ``query`` - a table id's beginning or a part of its name, in any case;
        * ``state`` - one of :data:`TABLE_STATES`; ``game`` - ``poker`` or ``kind``; ``club`` -
          a club's id;
        * ``before`` - the next page: the ``(active_at, id)`` of the last table of the page before.

        Each table: ``id``, ``name``, ``game``, ``status``, ``state``, ``public``, ``created_at``,
        ``active_at`` (ISO; ``active_at_s`` Unix seconds), ``pruned_at``, ``version``, ``people``
        (seated people), ``bots`` (seated bots), ``deal_in_progress``, ``club`` (``{"id", "name"}``
        or ``None``). A handful of queries per page, whatever ``limit`` and the number of tables.

        Raises:
            StoreError: an unknown ``state``.
        """
        now = time.time() if now is None else now
        q = select(GameTable.id, GameTable.name, GameTable.game, GameTable.status, GameTable.public,
                   GameTable.created_at, GameTable.active_at, GameTable.pruned_at, GameTable.version)
        if query:
            q = q.where(or_(GameTable.id.startswith(query[:16], autoescape=True),
                            func.lower(GameTable.name).contains(query[:80].lower(), autoescape=True)))
        if game:
            q = q.where(GameTable.game == game)
        if club:
            q = q.where(GameTable.id.in_(select(ClubTable.table_id).where(ClubTable.club_id == club)))
        if state is not None:
            if state not in TABLE_STATES:
                raise StoreError(f"unknown table state {state!r}: choose {', '.join(TABLE_STATES)}")
            active = func.coalesce(GameTable.active_at, 0.0)
            q = q.where(GameTable.status == "closed") if state == "closed" else q.where(GameTable.status == "open")
            if state == "live":
                q = q.where(active >= now - idle_after)
            elif state == "idle":
                q = q.where(active < now - idle_after, active >= now - abandoned_after)
            elif state == "abandoned":
                q = q.where(active < now - abandoned_after)
        if before is not None:
            at, tid = before
            active = func.coalesce(GameTable.active_at, 0.0)
            q = q.where(or_(active < at, and_(active == at, GameTable.id < tid)))
        q = q.order_by(func.coalesce(GameTable.active_at, 0.0).desc(), GameTable.id.desc())
        q = q.limit(max(1, min(int(limit), MAX_PAGE)))
        with self.store.Session() as s:
            rows = s.execute(q).all()
            ids = [r.id for r in rows]
            seated: dict[str, dict[bool, int]] = {}
            for tid, is_bot, n in s.execute(
                    select(Player.table_id, Player.is_bot, func.count())
                    .where(Player.table_id.in_(ids), Player.seat.is_not(None), Player.status != "left")
                    .group_by(Player.table_id, Player.is_bot)):
                seated.setdefault(tid, {})[bool(is_bot)] = int(n)
            playing = set(s.scalars(select(Deal.table_id).where(Deal.table_id.in_(ids), Deal.status == "in_progress")))
            clubs = {tid: {"id": cid, "name": cname} for tid, cid, cname in s.execute(
                select(ClubTable.table_id, Club.id, Club.name).join(Club, Club.id == ClubTable.club_id)
                .where(ClubTable.table_id.in_(ids)))}
        return [{"id": r.id, "name": r.name, "game": r.game, "status": r.status,
                 "state": table_state(r.status, r.active_at, now, idle_after, abandoned_after),
                 "public": bool(r.public), "created_at": r.created_at.isoformat() if r.created_at else None,
                 "active_at": _iso(r.active_at), "active_at_s": r.active_at, "pruned_at": _iso(r.pruned_at),
                 "version": int(r.version or 0), "people": seated.get(r.id, {}).get(False, 0),
                 "bots": seated.get(r.id, {}).get(True, 0), "deal_in_progress": r.id in playing,
                 "club": clubs.get(r.id)} for r in rows]

    def figures(self, now: float | None = None, live_after: float = IDLE_AFTER_S) -> dict[str, int]:
        """Two counts for monitoring (two queries by indexes): ``in_play`` - tables with a deal in
        progress; ``live`` - open tables written in the last ``live_after`` seconds."""
        now = time.time() if now is None else now
        with self.store.Session() as s:
            playing = s.scalar(select(func.count(func.distinct(Deal.table_id))).where(Deal.status == "in_progress"))
            live = s.scalar(select(func.count()).select_from(GameTable).where(
                GameTable.status == "open", GameTable.active_at >= now - live_after))
        return {"in_play": int(playing or 0), "live": int(live or 0)}

    def banned(self, club_id: str) -> list[dict[str, Any]]:
        """The names banned from a club: ``name``, ``reason``, ``banned_by``, ``banned_at`` (ISO)."""
        with self.store.Session() as s:
            return [{"name": b.name, "reason": b.reason, "banned_by": b.banned_by,
                     "banned_at": b.banned_at.isoformat() if b.banned_at else None}
                    for b in s.scalars(select(ClubBan).where(ClubBan.club_id == club_id).order_by(ClubBan.name_key))]

    def is_banned(self, table_id: str, name: str) -> bool:
        """Whether ``name`` (in any case) is banned from the club table ``table_id`` counts for
        (``False`` for a table of no club): a server asks before seating a name there."""
        with self.store.Session() as s:
            return s.scalar(select(ClubBan.name_key).join(ClubTable, ClubTable.club_id == ClubBan.club_id)
                            .where(ClubTable.table_id == table_id, ClubBan.name_key == name_key(name))) is not None

    # ------------------------------------------------------- acting on tables

    def _state(self, table_id: str) -> TableState:
        row = self.store.load_table(table_id)
        if row is None:
            raise StoreError(f"unknown table {table_id[:16]!r}")
        game = GAMES.get(row.game)
        if game is None:
            raise StoreError(f"table {row.id} is of an unknown game {row.game!r}")
        try:
            rules: Any = game.rules_from_dict(row.rules)
            return load(row, rules)
        except (FourcardsError, TableError) as exc:
            raise StoreError(f"table {row.id} cannot be opened by this version ({getattr(exc, 'detail', exc)})") \
                from None

    def _run(self, table_id: str, command: Command) -> dict[str, Any]:
        """Apply ``command`` to the table and commit it against the version read (again on a
        lost race), as a server does (:class:`fourcards.web.repository.Repository`); its answer.

        Raises:
            StoreError: the table refused the command (its sentence), or kept changing.
        """
        for _ in range(_RETRIES):
            state = self._state(table_id)
            try:
                outcome = apply(state, command, time.time())
            except TableError as exc:
                raise StoreError(exc.detail) from None
            new = outcome.state
            try:
                self.store.commit_table(TableCommit(table_id, state.version, stored(new), due_at(new, BOT_DELAY_S),
                                                    list(outcome.writes), "operator", list(outcome.lines)))
            except VersionConflict:
                continue
            return dict(outcome.answer or {})
        raise StoreError(f"table {table_id} kept changing meanwhile; nothing changed: try again")

    def close_table(self, by: str, table_id: str, reason: str) -> dict[str, Any]:
        """Close a table (the operator's ruling, TP-10), recorded as ``close_table``. Returns
        ``{"id", "cashed_out": {name: chips}}``.

        Raises:
            StoreError: an unknown or closed table.
        """
        answer = self._run(table_id, OperatorClose(reason))
        self.audit.append(by, "close_table", table_id, {"reason": reason, "cashed_out": answer.get("cashed_out", {})})
        return {"id": table_id, "cashed_out": answer.get("cashed_out", {})}

    def close_abandoned(self, by: str, older_than_s: float = ABANDONED_AFTER_S, *, dry_run: bool = False,
                        limit: int = 500, reason: str = "abandoned: not played for a long time") -> list[dict[str, Any]]:
        """Close the open tables not written for ``older_than_s`` seconds (at most ``limit``, the
        quietest first), each as :meth:`close_table`; ``dry_run``: only list them. Returns the
        tables (``id``, ``name``, ``active_at``; ``cashed_out`` when closed, ``error`` for one that
        could not be, e.g. written meanwhile)."""
        cutoff = time.time() - older_than_s
        with self.store.Session() as s:
            rows = s.execute(select(GameTable.id, GameTable.name, GameTable.active_at)
                             .where(GameTable.status == "open", func.coalesce(GameTable.active_at, 0.0) < cutoff)
                             .order_by(func.coalesce(GameTable.active_at, 0.0), GameTable.id)
                             .limit(max(1, min(int(limit), 10_000)))).all()
        out = []
        for r in rows:
            item: dict[str, Any] = {"id": r.id, "name": r.name, "active_at": _iso(r.active_at)}
            if not dry_run:
                try:
                    item["cashed_out"] = self.close_table(by, r.id, reason)["cashed_out"]
                except StoreError as exc:
                    item["error"] = str(exc)
            out.append(item)
        return out

    # ------------------------------------------------------- acting on clubs

    def _club(self, club_id: str) -> dict[str, Any]:
        club = self.clubs.get(club_id)
        if club is None:
            raise StoreError(f"unknown club {club_id[:16]!r}")
        return club

    def _unseat(self, club: dict[str, Any], name: str, reason: str) -> list[dict[str, Any]]:
        """Remove ``name``'s seats (not bots) at the club's open tables; each table's answer."""
        key = name_key(name)
        open_ids = [t["id"] for t in club["tables"] if t["status"] == "open"]
        with self.store.Session() as s:
            seats = s.execute(select(Player.table_id, Player.seat, Player.name).where(
                Player.table_id.in_(open_ids), Player.seat.is_not(None), Player.status != "left",
                Player.is_bot.is_(False))).all()
        out = []
        for tid, seat, pname in seats:
            if name_key(pname) != key:
                continue
            try:
                out.append({"table": tid, "seat": seat, **self._run(tid, OperatorRemove(int(seat or 0), reason))})
            except StoreError as exc:
                out.append({"table": tid, "seat": seat, "error": str(exc)})
        return out

    def remove_name(self, by: str, club_id: str, name: str, *, from_seats: bool = False) -> dict[str, Any]:
        """Unlist ``name`` from a club (recorded as ``remove_member``; it may be listed again);
        ``from_seats``: also remove it from the seats it holds at the club's open tables.
        Returns ``{"removed": bool (it was listed), "seats": [...]}``."""
        club = self._club(club_id)

        def work(s: Any) -> bool:
            res = s.execute(delete(ClubMember).where(ClubMember.club_id == club_id,
                                                     ClubMember.name_key == name_key(name)))
            record(s, by, "remove_member", f"club/{club_id}", {"name": name, "from_seats": from_seats})
            return bool(res.rowcount)

        removed = retrying(self.store, work)
        seats = self._unseat(club, name, f"removed from the club {club['name']}") if from_seats else []
        return {"removed": removed, "seats": seats}

    def ban_name(self, by: str, club_id: str, name: str, reason: str = "") -> dict[str, Any]:
        """Ban ``name`` (in any case) from a club (recorded as ``ban_name``): unlisted, never
        listed again, no seat at the club's tables; removed from the seats it holds at the club's
        open tables now. Returns ``{"seats": [...]}`` (each table's removal).

        Raises:
            StoreError: an unknown club; the name is already banned.
        """
        club = self._club(club_id)
        key = name_key(name)

        def work(s: Any) -> None:
            if s.get(ClubBan, (club_id, key)) is not None:
                raise StoreError(f"{name!r} is already banned from the club")
            s.add(ClubBan(club_id=club_id, name_key=key, name=name, reason=reason, banned_by=by,
                          banned_at=datetime.now(UTC)))
            s.execute(delete(ClubMember).where(ClubMember.club_id == club_id, ClubMember.name_key == key))
            record(s, by, "ban_name", f"club/{club_id}", {"name": name, "reason": reason})

        retrying(self.store, work)
        return {"seats": self._unseat(club, name, f"banned from the club {club['name']}")}

    def unban_name(self, by: str, club_id: str, name: str) -> bool:
        """Lift a ban (recorded as ``unban_name``); returns whether the name was banned."""
        self._club(club_id)

        def work(s: Any) -> bool:
            res = s.execute(delete(ClubBan).where(ClubBan.club_id == club_id, ClubBan.name_key == name_key(name)))
            record(s, by, "unban_name", f"club/{club_id}", {"name": name})
            return bool(res.rowcount)

        return bool(retrying(self.store, work))

    # ------------------------------------------------------- audits and exports

    def ledger_audit(self, by: str, table_id: str) -> dict[str, Any]:
        """A table's ledger audit (recorded as ``read_ledger``): ``table`` (``id``, ``name``,
        ``game``, ``status``), ``audit`` (:meth:`~fourcards.store.Store.ledger_check`: total 0, no
        unbalanced transaction, no finished deal with chips in escrow), ``players`` (each person's
        ``name``, ``seat``, ``balance`` and sums by memo) and ``house``/``in_play`` (chips)."""
        with self.store.Session() as s:
            t = s.get(GameTable, table_id)
            if t is None:
                raise StoreError(f"unknown table {table_id[:16]!r}")
            people = {int(p.id): p for p in s.scalars(select(Player).where(Player.table_id == table_id))}
            table = {"id": t.id, "name": t.name, "game": t.game, "status": t.status}
        totals = self.store.chip_totals(table_id)
        balances = self.store.balances(table_id)
        players = [{"player_id": pid, "name": p.name, "seat": p.seat, "is_bot": bool(p.is_bot),
                    "balance": balances.get(pid, 0), "by_memo": totals["players"].get(pid, {})}
                   for pid, p in sorted(people.items())]
        out = {"table": table, "audit": self.store.ledger_check(table_id), "players": players,
               "house": totals["house"], "in_play": totals["in_play"]}
        self.audit.append(by, "read_ledger", table_id, {"audit_total": out["audit"]["total"]})
        return out

    def _deals(self, state: TableState, fmt: str) -> Iterator[bytes]:
        render = hand_jsonl if fmt == "jsonl" else hand_words
        after = 0
        while True:
            batch = self.store.finished_deals(state.id, after, EXPORT_BATCH)
            if not batch:
                return
            for deal in batch:
                yield render(state, deal, None).encode()
            after = batch[-1]["number"]

    def export_table(self, by: str, table_id: str, fmt: str = "jsonl") -> Iterator[bytes]:
        """Every finished deal of a table (recorded as ``export_table`` now), as the table's hand
        histories export them (:mod:`fourcards.table.export`: JSON Lines, ``fmt="jsonl"``, or
        text, ``"txt"``, after a heading naming the version) and as a spectator sees them (a folded hand of another seat hidden), read
        a batch at a time.

        Raises:
            StoreError: an unknown table or format.
        """
        if fmt not in ("jsonl", "txt"):
            raise StoreError(f"unknown export format {fmt!r}: choose jsonl or txt")
        state = self._state(table_id)
        self.audit.append(by, "export_table", table_id, {"format": fmt})
        if fmt == "jsonl":
            return self._deals(state, fmt)
        return itertools.chain([text_heading(f"hand histories of table {table_id}").encode()],
                               self._deals(state, fmt))

    def export_club(self, by: str, club_id: str, fmt: str = "jsonl") -> Iterator[bytes]:
        """Every finished deal of every table of a club, table by table (oldest first), as
        :meth:`export_table` (recorded once, as ``export_club``). A table this version cannot
        open is left out."""
        if fmt not in ("jsonl", "txt"):
            raise StoreError(f"unknown export format {fmt!r}: choose jsonl or txt")
        self._club(club_id)
        ids = self.clubs.table_ids(club_id)
        self.audit.append(by, "export_club", f"club/{club_id}", {"format": fmt, "tables": len(ids)})

        def lines() -> Iterator[bytes]:
            if fmt == "txt":
                yield text_heading(f"hand histories of club {club_id}").encode()
            for tid in ids:
                try:
                    state = self._state(tid)
                except StoreError:
                    continue
                yield from self._deals(state, fmt)

        return lines()
