"""Names the operator banned from a club take no seat at its tables (issue 27; docs/rules.md TP-10).

:func:`refuse_banned` is asked where a name takes a seat - a seat taken or asked for, the host
seating a person without a phone, a table made in a club by its host - before the command runs:
:meth:`fourcards.store.operator.Operator.is_banned` (the name in any case, against the bans of the
club the table counts for).
"""

from __future__ import annotations

from fourcards.store import Store
from fourcards.store.operator import Operator
from fourcards.table import TableError
from fourcards.table.standings import name_key
from fourcards.web.hub import Hub

__all__ = ["refuse_banned", "refuse_banned_in_club"]


async def refuse_banned(hub: Hub, table_id: str, name: str) -> None:
    """Refuse ``name`` a seat at ``table_id`` when it is banned from the table's club.

    Raises:
        TableError: 403 saying so.
    """
    store = hub.require_store()
    if not isinstance(store, Store):  # tables in memory: no clubs, so no bans
        return
    if await hub.run_db(Operator(store).is_banned, table_id, name):
        raise TableError(403, f"the name {name!r} is banned from this table's club")


async def refuse_banned_in_club(hub: Hub, club_id: str, name: str) -> None:
    """Refuse ``name`` a table of its own in the club ``club_id`` when it is banned from it.

    Raises:
        TableError: 403 saying so.
    """
    banned = await hub.run_db(Operator(hub.require_database()).banned, club_id)
    if any(name_key(b["name"]) == name_key(name) for b in banned):
        raise TableError(403, f"the name {name!r} is banned from this club")
