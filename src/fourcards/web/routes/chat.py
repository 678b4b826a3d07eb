"""The table's chat: a seated person's message or reaction, the host's mute (docs/rules.md TP-9)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from fourcards.web.commands import answer_view, run
from fourcards.web.deps import HubDep, SeatNumber, Token
from fourcards.web.schemas import ChatIn, MuteIn

__all__ = ["router"]

router = APIRouter()


@router.post("/api/tables/{table_id}/chat", tags=["chat"])
async def chat(table_id: str, body: ChatIn, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """A seated person's chat message, ``{"text": "nice hand"}`` (1-200 printable characters),
    or a reaction, ``{"reaction": "\U0001f44d"}``; kept with the table and shown to everyone watching.
    Returns ``{"chat": {"id", "seat", "name", "text", "kind", "at"}}`` (``"repeated": true`` for an
    ``action_id`` sent before). 403 for a spectator's or a bot's seat, or a seat the host muted;
    422 an empty, too long or unprintable text, an unknown reaction; 429 more than 3 messages in
    2 seconds (the detail says how long to wait)."""
    out = await run(hub, table_id, "chat", body, x_seat_token)
    answer = dict(out.answer or {})
    if out.repeated:
        answer["repeated"] = True
    return answer


@router.post("/api/tables/{table_id}/seats/{seat}/mute", tags=["chat"])
async def mute(table_id: str, seat: SeatNumber, hub: HubDep, body: MuteIn | None = None,
               x_seat_token: Token = None) -> dict[str, Any]:
    """Host: mute the chat of seat ``seat`` (``{"muted": true}``, the default) or let it chat again
    (``{"muted": false}``); logged. Returns the host's new view."""
    muted = True if body is None else body.muted
    out = await run(hub, table_id, "mute", (seat, muted), x_seat_token)
    return answer_view(hub, out, x_seat_token)
