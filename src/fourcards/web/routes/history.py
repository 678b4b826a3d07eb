"""A table's history: its deals, a finished deal (and its replay) as the caller may see it, the
night's settlement (JSON and CSV) and the chip ledger with its audit."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from fourcards.csvtext import csv_text, version_rows
from fourcards.table import TableError, TableState
from fourcards.table.history import publish, replay, settlement, visible
from fourcards.table.settleup import settle_up
from fourcards.web.deps import DealNumber, HubDep, Token, seat_of_token
from fourcards.web.hub import Hub

__all__ = ["router", "night_settlement"]

router = APIRouter()


async def night_settlement(hub: Hub, t: TableState) -> dict[str, Any]:
    """The night's settlement of ``t`` from the ledger (:func:`fourcards.table.history.settlement`)."""
    totals = await hub.run_db(hub.require_store().chip_totals, t.id)
    return settlement(t, totals)


@router.get("/api/tables/{table_id}/deals", tags=["history"])
async def deals(table_id: str, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """The table's deals, newest first (status, seats, result; no history), each finished one
    with ``players``: who won (+) or lost (-) how many chips in it, by name. Each result as the
    caller may see it (:func:`fourcards.table.history.visible`: a Four Card Poker hand that
    folded stays hidden from every other seat and from spectators)."""
    t = await hub.latest(table_id)
    seat = seat_of_token(t, x_seat_token)
    rows = await hub.run_db(hub.require_store().list_deals, t.id)
    out = []
    for d in rows:
        nets = d.pop("nets")
        if d["status"] == "in_progress":
            del d["result"]
        else:
            d = visible(t, d, seat)
            d["players"] = [{"player_id": pid, "name": t.people[pid].name if pid in t.people else None,
                             "net": net} for pid, net in sorted(nets.items())]
        out.append(d)
    return {"deals": out}


async def _finished_deal(hub: Hub, t: TableState, number: int) -> dict[str, Any]:
    d = await hub.run_db(hub.require_store().get_deal, t.id, number)
    if d is None:
        raise TableError(404, f"table {t.id!r} has no deal {number}")
    if d["status"] == "in_progress":
        raise TableError(409, f"deal {number} is in progress; its history is published when it ends")
    return d


@router.get("/api/tables/{table_id}/deals/{number}", tags=["history"])
async def deal_history(table_id: str, number: DealNumber, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """A finished deal's full history (every action and chance event) as the caller may see it
    (the engine's ``observation(player).history``: e.g. the cards of Four Card Poker seats that
    folded stay hidden from other seats) and its ledger entries. A deal in progress is refused
    (409): its cards are still secret."""
    t = await hub.latest(table_id)
    seat = seat_of_token(t, x_seat_token)
    return publish(t, await _finished_deal(hub, t, number), seat)


@router.get("/api/tables/{table_id}/deals/{number}/replay", tags=["history"])
async def deal_replay(table_id: str, number: DealNumber, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """A finished deal step by step as the caller may see it: after each action or card, the
    engine's replay of the history up to there seen through the caller's ``observation(player)``
    (a spectator's without a token), with the table log's lines."""
    t = await hub.latest(table_id)
    seat = seat_of_token(t, x_seat_token)
    d = await _finished_deal(hub, t, number)
    return await asyncio.to_thread(replay, t, d, seat)


@router.get("/api/tables/{table_id}/settlement", tags=["history"])
async def settlement_json(table_id: str, hub: HubDep) -> dict[str, Any]:
    """The night's settlement: each person's buy-in, top-ups, chips cashed out, stack and net;
    the house's net at Four Card Poker; ``total`` 0."""
    return await night_settlement(hub, await hub.latest(table_id))


@router.get("/api/tables/{table_id}/settlement.csv", tags=["history"])
async def settlement_csv(table_id: str, hub: HubDep) -> Response:
    """The night's settlement as CSV (one row per person, then the house, chips in play and the
    total); a name that a spreadsheet would run as a formula gets a leading apostrophe
    (:mod:`fourcards.csvtext`; the JSON keeps it as it is). After a blank row, who pays whom
    (:func:`settle_up_rows`); after another, ``exported by,fourcards <version>``."""
    t = await hub.latest(table_id)
    s = await night_settlement(hub, t)
    rows: list[list[str | int | None]] = [["name", "seat", "status", "bought_in", "top_ups", "cashed_out", "stack",
                                           "net"]]
    for r in s["players"]:  # names neutralised for spreadsheets (fourcards.csvtext)
        rows.append([r["name"] + (" (bot)" if r["is_bot"] else ""), r["seat"] or None, r["status"], r["bought_in"],
                     r["top_ups"], r["cashed_out"], r["stack"], r["net"]])
    if s["house"] is not None:
        rows.append(["house", None, None, None, None, None, None, s["house"]])
    if s["in_play"]:
        rows.append(["in play", None, None, None, None, None, None, s["in_play"]])
    rows.append(["total", None, None, None, None, None, None, s["total"]])
    rows += settle_up_rows(t, s) + version_rows()
    return Response(csv_text(rows), media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="fourcards-{s["table"]}-settlement.csv"'})


def settle_up_rows(t: TableState, s: dict[str, Any]) -> list[list[str | int | None]]:
    """The settlement CSV's second part: a blank row, ``who pays whom`` with the chip value (or
    "in chips", or why not yet: chips in play), ``the bank`` with who covers the bots and the
    house, then ``pays,receives,amount,currency`` and one row per transfer (``amount`` in the
    currency with two decimals, or whole chips)."""
    rows: list[list[str | int | None]] = [[None]]
    try:
        up = settle_up(t, s)
    except TableError as exc:
        return [*rows, ["who pays whom", exc.detail]]
    rows += [["who pays whom", up["chip_value"] or "in chips"], ["the bank", up["bank"]["words"]],
             ["pays", "receives", "amount", "currency"]]
    valued = up["unit"] == "cent"
    for tr in up["transfers"]:
        amount = f"{tr['amount'] // 100}.{tr['amount'] % 100:02d}" if valued else tr["amount"]
        rows.append([tr["from"]["name"], tr["to"]["name"], amount, up["terms"]["currency"] if valued else "chips"])
    return rows


@router.get("/api/tables/{table_id}/ledger", tags=["history"])
async def ledger(table_id: str, hub: HubDep) -> dict[str, Any]:
    """The table's latest chip ledger entries and an audit (total 0, every transaction balanced,
    every finished deal's pot/bets emptied)."""
    t = await hub.latest(table_id)
    store = hub.require_store()
    entries = await hub.run_db(store.ledger, t.id)
    check = await hub.run_db(store.ledger_check, t.id)
    balances = await hub.run_db(store.balances, t.id)
    return {"entries": entries, "audit": check,
            "balances": {str(t.people[pid].seat): b for pid, b in balances.items() if pid in t.people}}
