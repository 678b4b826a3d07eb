"""The host's controls: settings, pause and resume, requests, the deal, real cards, a seat's
move at a table of real cards, a void, bots, closing the table."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from fourcards.web.bans import refuse_banned
from fourcards.web.commands import answer_view, run
from fourcards.web.deps import HubDep, RequestId, SeatNumber, Token
from fourcards.web.limits import rate_limit
from fourcards.web.schemas import ActionIn, CardsIn, Decision, Intent, SitDown, TableSettings, VoidIn
from fourcards.web.schemas import AddBots as AddBotsIn
from fourcards.web.tokens import hash_token, new_token

__all__ = ["router"]

router = APIRouter()


@router.post("/api/tables/{table_id}/settings", tags=["host"])
async def settings(table_id: str, body: TableSettings, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """Host: make the table public or private, set the turn clock (seconds, 0: none), require
    approval of new seats or not."""
    out = await run(hub, table_id, "settings", body, x_seat_token)
    return answer_view(hub, out, x_seat_token)


@router.post("/api/tables/{table_id}/pause", tags=["host"])
async def pause(table_id: str, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """Host: pause the table - no clock runs, no deal starts, nobody acts until the host resumes
    (docs/rules.md TP-7); every page says so."""
    out = await run(hub, table_id, "pause", None, x_seat_token)
    return answer_view(hub, out, x_seat_token)


@router.post("/api/tables/{table_id}/resume", tags=["host"])
async def resume(table_id: str, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """Host: resume a paused table; a running turn clock goes on with the time it had left."""
    out = await run(hub, table_id, "resume", None, x_seat_token)
    return answer_view(hub, out, x_seat_token)


@router.post("/api/tables/{table_id}/close", tags=["host"])
async def close(table_id: str, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """Host: close the table - a deal in progress is voided, everyone is cashed out
    (``{"cashed_out": {name: chips}}``); the history and the settlement stay readable."""
    out = await run(hub, table_id, "close", None, x_seat_token)
    return {"cashed_out": (out.answer or {}).get("cashed_out", {})}


@router.post("/api/tables/{table_id}/requests/{request_id}", tags=["host"])
async def decide(table_id: str, request_id: RequestId, body: Decision, hub: HubDep,
                 x_seat_token: Token = None) -> dict[str, Any]:
    """Host: approve (``{"approve": true}``) or turn down a waiting seat or top-up request."""
    out = await run(hub, table_id, "decide", (request_id, body), x_seat_token)
    return {"request": (out.answer or {}).get("request")}


@router.post("/api/tables/{table_id}/deal", tags=["host"])
async def deal(table_id: str, hub: HubDep, body: Intent | None = None, x_seat_token: Token = None) -> dict[str, Any]:
    """Host: Four Card Poker - bots place their antes and the cards are dealt; Four of a Kind -
    start the next deal. ``{"action_id"}`` optional (docs/rules.md TP-8)."""
    out = await run(hub, table_id, "deal", body, x_seat_token)
    return answer_view(hub, out, x_seat_token)


@router.post("/api/tables/{table_id}/cards", tags=["host"])
async def cards(table_id: str, body: CardsIn, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """Host, at a Four of a Kind table dealt with real cards (``"dealing": "table"``): the card(s)
    just dealt or turned, ``{"cards": "9c"}`` (``"10h"``, ``"T♥"``; several separated by spaces or
    commas, in order). Returns the host's new view: its ``deal.next_card`` says who the next card
    goes to and, after a duplicated rank, who gets a new card and why. 422 for text that is not
    cards; 409 for a card already seen (named, with where it lies), when no card is due, or at a
    deck table; 403 for a guest. A refused request changes nothing (docs/rules.md FOAK-14)."""
    out = await run(hub, table_id, "cards", body, x_seat_token)
    return answer_view(hub, out, x_seat_token)


@router.post("/api/tables/{table_id}/cards/take-back", tags=["host"])
async def take_back(table_id: str, hub: HubDep, body: Intent | None = None,
                    x_seat_token: Token = None) -> dict[str, Any]:
    """Host, at a table dealt with real cards: take back the last card entered, until the next
    action (never once the deal is over); logged (docs/rules.md FOAK-15)."""
    out = await run(hub, table_id, "take_back", body, x_seat_token)
    return answer_view(hub, out, x_seat_token)


@router.post("/api/tables/{table_id}/seats/without-phone", tags=["host"], dependencies=[rate_limit("seats")])
async def seat_without_phone(table_id: str, body: SitDown, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """Host, at a table dealt with real cards: seat a person without a phone by name, at once
    (logged "The host seats Cat (no phone) ..."); the host enters their moves
    (``POST /seats/{n}/actions``) or later hands the seat to a phone (``/new-device``). Returns
    ``{"status": "seated", "seat", "name", "balance"}`` (no token: nobody holds the seat's). 409
    at a table dealt from the deck, or a name taken (or waiting for approval)."""
    await refuse_banned(hub, table_id, body.name)  # banned from the table's club (issue 27)
    token_hash = hash_token(new_token())
    out = await run(hub, table_id, "seat_without_phone", (body, token_hash), x_seat_token)
    return dict(out.answer or {})


@router.post("/api/tables/{table_id}/seats/{seat}/actions", tags=["host"])
async def act_for(table_id: str, seat: SeatNumber, body: ActionIn, hub: HubDep,
                  x_seat_token: Token = None) -> dict[str, Any]:
    """Host, at a table dealt with real cards: the move of seat ``seat`` (a person without a
    phone, or anyone who asks), checked like the seat's own (docs/rules.md FOAK-16)."""
    out = await run(hub, table_id, "act_for", (seat, body), x_seat_token)
    return answer_view(hub, out, x_seat_token)


@router.post("/api/tables/{table_id}/void", tags=["host"])
async def void(table_id: str, body: VoidIn, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """Host: void the deal in progress (the host's ruling): every wager / the pot is returned and
    the ruling is logged in the deal's history."""
    out = await run(hub, table_id, "void", body, x_seat_token)
    return answer_view(hub, out, x_seat_token)


@router.post("/api/tables/{table_id}/bots", tags=["host"])
async def bots(table_id: str, body: AddBotsIn, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """Host: fill empty seats with bots."""
    out = await run(hub, table_id, "bots", body, x_seat_token)
    return answer_view(hub, out, x_seat_token)
