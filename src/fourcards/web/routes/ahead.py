"""Acting ahead (docs/rules.md TP-12): a move chosen before one's turn, and away."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from fourcards.web.commands import answer_view, run
from fourcards.web.deps import HubDep, SeatNumber, Token
from fourcards.web.schemas import AwayIn, PreActionIn

__all__ = ["router"]

router = APIRouter()


@router.post("/api/tables/{table_id}/pre-action", tags=["tables"])
async def pre_action(table_id: str, body: PreActionIn, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """Choose what to do when your turn comes (Four of a Kind): ``{"kind": "check_fold" | "check" |
    "call" | "call_any" | "fold"}`` (fold to any bet), or ``{"kind": null}`` to clear it. The
    move is made the moment your turn comes; a change of the amount to call clears a ``check`` or
    ``call`` choice. Returns your view (its ``pre_actions.chosen``). 409 on your own turn (act
    now), facing a bet for ``check``, with nothing to call for ``call``, when you cannot bet any
    more in this deal."""
    out = await run(hub, table_id, "pre_action", body, x_seat_token)
    return answer_view(hub, out, x_seat_token)


@router.post("/api/tables/{table_id}/seats/{seat}/away", tags=["seats"])
async def away(table_id: str, seat: SeatNumber, hub: HubDep, body: AwayIn | None = None,
               x_seat_token: Token = None) -> dict[str, Any]:
    """The seat is away (``{"away": true}``, the default: it stays dealt in, checks when it may and
    folds otherwise at once - no clock runs for it) or back (``{"away": false}``): its player, or
    the host. Any move of the player's own also ends it."""
    out = await run(hub, table_id, "away", (seat, body or AwayIn()), x_seat_token)
    return answer_view(hub, out, x_seat_token)
