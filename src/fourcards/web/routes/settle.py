"""Who pays whom: the night's settle-up (``GET /api/tables/{id}/settle-up``) and the host's terms
(``POST``): the chip value and who holds the bank. The arithmetic is
:mod:`fourcards.table.settleup`."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from fourcards.table import TableState
from fourcards.table.settleup import settle_up
from fourcards.web.commands import run
from fourcards.web.deps import HubDep, Token, person_of
from fourcards.web.hub import Hub
from fourcards.web.routes.history import night_settlement
from fourcards.web.schemas import SettleUpTerms

__all__ = ["router", "night_settle_up"]

router = APIRouter()


async def night_settle_up(hub: Hub, t: TableState) -> dict[str, Any]:
    """The settle-up of ``t`` from its ledger (:func:`fourcards.table.settleup.settle_up`).

    Raises:
        TableError: 409 while chips are in play.
    """
    return settle_up(t, await night_settlement(hub, t))


@router.get("/api/tables/{table_id}/settle-up", tags=["history"])
async def get_settle_up(table_id: str, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """Who pays whom to settle the night: the fewest transfers (the proven minimum for up to 14
    parties; the algorithm in ``method``), in whole cents at the host's chip value (or in chips),
    rounded so they still add up; the bank (the bots' chips and the house's) as a line of its
    own with ``words`` saying who covers it; ``you.host``: the caller may set the terms. 409
    while a deal has chips in play."""
    t = await hub.latest(table_id)
    host = bool(x_seat_token) and person_of(t, x_seat_token).is_host
    return {**await night_settle_up(hub, t), "you": {"host": host}}


@router.post("/api/tables/{table_id}/settle-up", tags=["host"])
async def set_settle_up(table_id: str, body: SettleUpTerms, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """Host (also after closing the table): the settle-up's terms - ``chip_value``
    ``{"chips", "cents", "currency"}`` (``null``: in chips) and ``banker`` (``"host"``,
    ``"bank"`` or a seat) - then ``{"terms", "settle_up"}`` (``settle_up`` ``null`` while chips
    are in play)."""
    out = await run(hub, table_id, "settle_up", body, x_seat_token)
    t = await hub.latest(table_id)
    s = await night_settlement(hub, t)
    return {"terms": (out.answer or {}).get("terms"), "settle_up": None if s["in_play"] else settle_up(t, s)}
