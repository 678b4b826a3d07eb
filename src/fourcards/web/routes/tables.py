"""A table's seats, views and moves: take a seat, the caller's view, a seat's action, sitting
out and back, leaving, a new phone, top-ups."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from fourcards.table.views import invite_url, summary
from fourcards.web.bans import refuse_banned
from fourcards.web.commands import answer_view, move_of, run
from fourcards.web.deps import HubDep, SeatNumber, Token, viewer_of
from fourcards.web.limits import rate_limit
from fourcards.web.schemas import ActionIn, SitDown
from fourcards.web.schemas import TopUp as TopUpIn
from fourcards.web.tokens import hash_token, new_token

__all__ = ["router", "answer_view", "move_of"]

router = APIRouter()


@router.get("/api/tables/{table_id}", tags=["tables"])
async def get_table(table_id: str, hub: HubDep) -> dict[str, Any]:
    """One table's summary and its players (names, seats, balances, status)."""
    t = await hub.latest(table_id)
    online = hub.publisher.online(t)
    return {**summary(t, hub.public_url),
            "seats": [p.public(online.get(p.player_id, 0) > 0) for _, p in sorted(t.players.items())]}


@router.post("/api/tables/{table_id}/seats", status_code=201, tags=["tables"],
             dependencies=[rate_limit("seats")])
async def sit(table_id: str, body: SitDown, hub: HubDep) -> JSONResponse:
    """Take the next free seat by name: ``201 {"status": "seated", "seat", "name", "token",
    "balance"}``. A person who left the table gets their seat back with their balance. When the
    host approves new seats: ``202 {"status": "pending", "request", "name", "token"}`` - the
    token becomes the seat's once the host approves."""
    await refuse_banned(hub, table_id, body.name)  # banned from the table's club (issue 27)
    token = new_token()
    out = await run(hub, table_id, "join", (body, hash_token(token)), None)
    answer = dict(out.answer or {})
    if answer.get("status") == "seated":
        return JSONResponse({"status": "seated", "seat": answer["seat"], "name": answer["name"], "token": token,
                             "balance": answer["balance"]}, status_code=201)
    return JSONResponse({"status": "pending", "request": answer["request"], "name": answer["name"], "token": token},
                        status_code=202)


@router.get("/api/tables/{table_id}/state", tags=["tables"])
async def state(table_id: str, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """The caller's view: its seat's observation and table data (no token: a spectator's; a
    token whose seat request waits: a spectator's with ``request``)."""
    t = await hub.latest(table_id)
    seat, request = viewer_of(t, x_seat_token)
    return hub.publisher.view(t, seat, request)


@router.post("/api/tables/{table_id}/actions", tags=["tables"])
async def act(table_id: str, body: ActionIn, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """A seat's action (see :class:`~fourcards.web.schemas.ActionIn`); returns the seat's new
    view. With an ``action_id`` already applied from this seat nothing is done again: the
    answer is the seat's view with ``"repeated": true`` (docs/rules.md TP-8)."""
    out = await run(hub, table_id, "action", body, x_seat_token)
    return answer_view(hub, out, x_seat_token)


@router.post("/api/tables/{table_id}/seats/{seat}/sit-out", tags=["seats"])
async def sit_out(table_id: str, seat: SeatNumber, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """The seat sits out (no ante, no cards, its turns skipped): its player's own choice, or the host's."""
    out = await run(hub, table_id, "sit_out", seat, x_seat_token)
    return answer_view(hub, out, x_seat_token)


@router.post("/api/tables/{table_id}/seats/{seat}/back", tags=["seats"])
async def back(table_id: str, seat: SeatNumber, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """The seat plays again from the next deal ("I'm back"); its player or the host."""
    out = await run(hub, table_id, "back", seat, x_seat_token)
    return answer_view(hub, out, x_seat_token)


@router.post("/api/tables/{table_id}/seats/{seat}/leave", tags=["seats"])
async def leave(table_id: str, seat: SeatNumber, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """The seat's player leaves, or the host removes the seat (docs/rules.md TP-5): a hand in
    play is forfeited at once (out of every pot; its chips stay in); its chips are cashed out
    (``{"status": "left", "cashed_out"}``), or when the deal ends if it still has chips at
    stake in it (``{"status": "leaving"}``). Rejoining by the same name later brings the
    balance back."""
    out = await run(hub, table_id, "leave", seat, x_seat_token)
    return dict(out.answer or {})


@router.post("/api/tables/{table_id}/seats/{seat}/new-device", tags=["seats"])
async def new_device(table_id: str, seat: SeatNumber, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """Host: hand the seat to a new phone. Returns ``{"seat", "name", "token", "join_url"}`` with a
    fresh token (open it on the new phone: ``/t/{id}#token=...``); the old token stops working
    at once."""
    token = new_token()
    out = await run(hub, table_id, "new_device", (seat, hash_token(token)), x_seat_token)
    answer = out.answer or {}
    link = invite_url(out.state, hub.public_url)
    return {"seat": answer.get("seat"), "name": answer.get("name"), "token": token,
            "join_url": f"/t/{table_id}#token={token}", "invite_url": None if not link else f"{link}#token={token}"}


@router.post("/api/tables/{table_id}/top-ups", tags=["seats"])
async def top_up(table_id: str, body: TopUpIn, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """Ask for ``amount`` more chips from the bank: the host's own is made at once
    (``{"status": "done", "balance"}``), anyone else's waits for the host
    (``{"status": "pending", "request"}``)."""
    out = await run(hub, table_id, "top_up", body, x_seat_token)
    return dict(out.answer or {})

