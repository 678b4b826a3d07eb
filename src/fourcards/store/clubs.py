"""Clubs in the database (issue 21 item 6): a club, its listed members, the tables that count for it,
and what its standings are computed from.

One method, one transaction, on the :class:`~fourcards.store.db.Store`'s engine (SQLite or
PostgreSQL, the same code). Tables ``clubs``, ``club_members``, ``club_tables``
(:mod:`fourcards.store.models`, migration ``0005``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from fourcards.store.db import Store, StoreError
from fourcards.store.models import (
    Club,
    ClubBan,
    ClubMember,
    ClubTable,
    Deal,
    GameTable,
    LedgerEntry,
    Player,
    utcnow,
)
from fourcards.table.standings import name_key

__all__ = ["ClubStore", "BANK_MEMOS", "MAX_MEMBERS"]

#: Player entries that move chips between the bank and a player (not won or lost at play).
BANK_MEMOS = ("buy_in", "top_up", "cash_out", "rejoin")
#: Most names a club lists.
MAX_MEMBERS = 200


class ClubStore:
    """The clubs of one store (see the module doc).

    Raises (every method): :class:`~fourcards.store.db.StoreError` for a write refused.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.Session = store.Session

    def create(self, club_id: str, name: str, owner_name: str, owner_hash: str, members: Iterable[str]) -> None:
        """A new club with its owner (listed as its first member) and ``members`` (names; a name
        twice, in any case, is listed once)."""
        with self.Session.begin() as s:
            s.add(Club(id=club_id, name=name, owner_name=owner_name, owner_hash=owner_hash, created_at=utcnow()))
            s.flush()
            seen: set[str] = set()
            for n in [owner_name, *members]:
                if name_key(n) not in seen:
                    seen.add(name_key(n))
                    s.add(ClubMember(club_id=club_id, name=n, name_key=name_key(n), created_at=utcnow()))

    def get(self, club_id: str) -> dict[str, Any] | None:
        """The club - ``id``, ``name``, ``owner_name``, ``owner_hash``, ``created_at`` (ISO),
        ``members`` (listed names, in the order listed) and ``tables`` (``id``, ``name``,
        ``game``, ``status``, ``public``, ``created_at``; oldest first) - or ``None``."""
        with self.Session() as s:
            c = s.get(Club, club_id)
            if c is None:
                return None
            members = list(s.scalars(select(ClubMember.name).where(ClubMember.club_id == club_id)
                                     .order_by(ClubMember.id)))
            tables = s.execute(select(GameTable.id, GameTable.name, GameTable.game, GameTable.status,
                                      GameTable.public, GameTable.created_at)
                               .join(ClubTable, ClubTable.table_id == GameTable.id)
                               .where(ClubTable.club_id == club_id)
                               .order_by(GameTable.created_at, GameTable.id)).all()
            return {"id": c.id, "name": c.name, "owner_name": c.owner_name, "owner_hash": c.owner_hash,
                    "created_at": c.created_at.isoformat() if c.created_at else None, "members": members,
                    "tables": [{"id": t.id, "name": t.name, "game": t.game, "status": t.status,
                                "public": bool(t.public), "created_at": t.created_at.isoformat() if t.created_at
                                else None} for t in tables]}

    def add_members(self, club_id: str, names: Iterable[str]) -> list[str]:
        """List ``names`` as members (those already listed, in any case, are left); returns the
        names added.

        Raises:
            StoreError: the club would list more than :data:`MAX_MEMBERS` names, or a name the
                operator banned from the club (nothing listed).
        """
        names = list(names)
        with self.Session.begin() as s:
            banned = sorted(s.scalars(select(ClubBan.name).where(
                ClubBan.club_id == club_id, ClubBan.name_key.in_({name_key(n) for n in names}))))
            if banned:
                raise StoreError(f"{', '.join(banned)} {'is' if len(banned) == 1 else 'are'} banned from this club "
                                 "by the operator")
            have = set(s.scalars(select(ClubMember.name_key).where(ClubMember.club_id == club_id)))
            added = []
            for n in names:
                if name_key(n) not in have:
                    have.add(name_key(n))
                    added.append(n)
                    s.add(ClubMember(club_id=club_id, name=n, name_key=name_key(n), created_at=utcnow()))
            if len(have) > MAX_MEMBERS:
                raise StoreError(f"a club lists at most {MAX_MEMBERS} members")
            return added

    def rename(self, club_id: str, name: str) -> None:
        """Give the club a new name."""
        with self.Session.begin() as s:
            s.execute(update(Club).where(Club.id == club_id).values(name=name))

    def attach(self, club_id: str, table_id: str, most: int) -> None:
        """Make table ``table_id`` count for the club.

        Raises:
            StoreError: the table already counts for a club, or the club has ``most`` tables.
        """
        try:
            with self.Session.begin() as s:
                if s.get(ClubTable, table_id) is not None:
                    raise StoreError("this table already counts for a club")
                count = s.scalar(select(func.count()).select_from(ClubTable).where(ClubTable.club_id == club_id))
                if int(count or 0) >= most:
                    raise StoreError(f"the club has {most:,} tables, the most it keeps")
                s.add(ClubTable(table_id=table_id, club_id=club_id, joined_at=utcnow()))
        except IntegrityError:  # another request attached it meanwhile
            raise StoreError("this table already counts for a club") from None

    def detach(self, club_id: str, table_id: str) -> bool:
        """The table no longer counts for the club; returns whether it did."""
        with self.Session.begin() as s:
            res = s.execute(delete(ClubTable).where(ClubTable.club_id == club_id, ClubTable.table_id == table_id))
            return bool(res.rowcount)  # type: ignore[attr-defined]

    def club_of(self, table_id: str) -> dict[str, Any] | None:
        """The club a table counts for (``id``, ``name``), or ``None``."""
        with self.Session() as s:
            row = s.execute(select(Club.id, Club.name).join(ClubTable, ClubTable.club_id == Club.id)
                            .where(ClubTable.table_id == table_id)).first()
            return None if row is None else {"id": row.id, "name": row.name}

    def table_ids(self, club_id: str) -> list[str]:
        """The ids of the club's tables, oldest first."""
        with self.Session() as s:
            return [str(i) for i in s.scalars(
                select(GameTable.id).join(ClubTable, ClubTable.table_id == GameTable.id)
                .where(ClubTable.club_id == club_id).order_by(GameTable.created_at, GameTable.id))]

    def nights(self, club_id: str) -> list[dict[str, Any]]:
        """What the club's standings are computed from (:func:`fourcards.table.standings.standings`),
        one dict per table, oldest first: ``table``, ``people`` (``player_id``, ``name``,
        ``is_bot``), ``nets`` (``{player_id: chips}`` won or lost in finished deals: the player's
        ledger entries other than :data:`BANK_MEMOS`, a deal in progress left out), ``house``
        (the house's net) and ``deals`` (``status``, ``seats``, ``result`` of the finished
        deals). A few queries for the whole club, whatever its number of tables."""
        with self.Session() as s:
            if self.store.dialect == "postgresql":
                s.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            tables = s.execute(select(GameTable.id, GameTable.name, GameTable.game, GameTable.status,
                                      GameTable.created_at)
                               .join(ClubTable, ClubTable.table_id == GameTable.id)
                               .where(ClubTable.club_id == club_id)
                               .order_by(GameTable.created_at, GameTable.id)).all()
            ids = [t.id for t in tables]
            if not ids:
                return []
            people: dict[str, list[dict[str, Any]]] = defaultdict(list)
            for p in s.execute(select(Player.id, Player.table_id, Player.name, Player.is_bot)
                               .where(Player.table_id.in_(ids)).order_by(Player.id)):
                people[p.table_id].append({"player_id": int(p.id), "name": p.name, "is_bot": bool(p.is_bot)})
            finished = or_(LedgerEntry.deal_id.is_(None), LedgerEntry.deal_id.not_in(
                select(Deal.id).where(Deal.table_id.in_(ids), Deal.status == "in_progress")))
            nets: dict[str, dict[int, int]] = defaultdict(dict)
            for tid, pid, total in s.execute(
                    select(LedgerEntry.table_id, LedgerEntry.player_id, func.sum(LedgerEntry.amount))
                    .where(LedgerEntry.table_id.in_(ids), LedgerEntry.account == "player",
                           LedgerEntry.memo.not_in(BANK_MEMOS), finished)
                    .group_by(LedgerEntry.table_id, LedgerEntry.player_id)):
                nets[tid][int(pid or 0)] = int(total or 0)
            house = dict(s.execute(select(LedgerEntry.table_id, func.sum(LedgerEntry.amount))
                                   .where(LedgerEntry.table_id.in_(ids), LedgerEntry.account == "house", finished)
                                   .group_by(LedgerEntry.table_id)).all())
            deals: dict[str, list[dict[str, Any]]] = defaultdict(list)
            for d in s.execute(select(Deal.table_id, Deal.status, Deal.seats, Deal.result)
                               .where(Deal.table_id.in_(ids), Deal.status != "in_progress")
                               .order_by(Deal.table_id, Deal.number)):
                deals[d.table_id].append({"status": d.status, "seats": d.seats, "result": d.result})
            return [{"table": {"id": t.id, "name": t.name, "game": t.game, "status": t.status,
                               "created_at": t.created_at.isoformat() if t.created_at else None},
                     "people": people[t.id], "nets": nets[t.id], "house": int(house.get(t.id) or 0),
                     "deals": deals[t.id]} for t in tables]
