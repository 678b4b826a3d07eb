"""The night beyond the table: its numbers per person, each person's payment handle, and one
hand's page (``/t/{id}/h/{n}``: a finished deal replayed step by step, with a link to share and
an Open Graph preview)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from fourcards.table import TableError, TableState
from fourcards.table.history import visible
from fourcards.table.numbers import night
from fourcards.table.views import summary
from fourcards.web.commands import run
from fourcards.web.deps import DealNumber, HubDep, Token
from fourcards.web.routes.pages import page
from fourcards.web.schemas import HandleIn

__all__ = ["router", "preview"]

router = APIRouter()


@router.get("/api/tables/{table_id}/numbers", tags=["history"])
async def numbers(table_id: str, hub: HubDep) -> dict[str, Any]:
    """The night in numbers: per person who played (``people``: ``name``, ``seat``, ``is_bot``,
    ``played``, ``won``, ``high``, ``low``, ``whole``, ``folds``, ``biggest_pot`` and ``luck`` in
    chips - what the cards alone gave against the exact odds, docs/web.md "The night in
    numbers"), kept with the table as each deal is settled: read without reading the deals."""
    return night(await hub.latest(table_id))


@router.post("/api/tables/{table_id}/handle", tags=["seats"])
async def handle(table_id: str, body: HandleIn, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """Your payment handle (``{"handle": "DE89 3704 ..."}``: free text, at most 64 characters; ``null``
    removes it), shown beside the transfers you receive on the settle-up; also after you left and
    at a closed table. Returns ``{"handle"}``."""
    out = await run(hub, table_id, "handle", body, x_seat_token)
    return {"handle": (out.answer or {}).get("handle")}


def preview(t: TableState, deal: dict[str, Any]) -> str:
    """The Open Graph preview text of a finished deal, as a spectator may see it
    (:func:`fourcards.table.history.visible`): who won what and with which hand's name - never a
    card (a folded hand is named nowhere)."""
    word, title = t.table_game.word, t.table_game.title
    head = f"{word} {deal['number']} at {t.name} ({title})"
    if deal["status"] == "voided":
        return f"{head}: voided, every chip returned."
    result = visible(t, deal, None).get("result") or {}
    if t.game == "kind":
        awards = result.get("awards") or []
        parts = [f"{a.get('name')} takes {int(a.get('amount', 0)):,} ({a.get('share')})" for a in awards]
        return f"{head}: " + ("; ".join(parts) or "no pot") + "."
    parts = []
    for _, e in sorted((result.get("seats") or {}).items(), key=lambda kv: int(kv[0])):
        hand = (e.get("player_hand") or {}).get("description")
        net = int(e.get("net", 0))
        what = "folds" if e.get("decision") == "fold" else f"plays {hand}" if hand else "plays"
        parts.append(f"{e.get('name')} {what}, {'+' if net > 0 else ''}{net:,}")
    dealer = next((e.get("dealer_hand", {}).get("description") for e in (result.get("seats") or {}).values()), None)
    return f"{head}: " + (f"the dealer has {dealer}; " if dealer else "") + ("; ".join(parts) or "no wagers") + "."


@router.get("/t/{table_id}/h/{number}", response_class=HTMLResponse, include_in_schema=False)
async def hand_page(request: Request, table_id: str, number: DealNumber, hub: HubDep) -> HTMLResponse:
    """One hand's page: the deal replayed step by step as the reader may see it (the history
    page's replay), a share button and an Open Graph preview; 404 for no such table or deal."""
    t = await hub.find(table_id)
    deal = None if t is None else await hub.run_db(hub.require_store().get_deal, t.id, number)
    if t is None or deal is None:
        return page(request, "missing.html", {"table_id": table_id, "what": "hand"}, status_code=404)
    try:
        text = preview(t, deal) if deal["status"] != "in_progress" else \
            f"{t.table_game.word} {number} at {t.name} is in progress: its hand is shown when it ends."
    except TableError:  # a history this version cannot read: no preview beyond its name
        text = f"{t.table_game.word} {number} at {t.name} ({t.table_game.title})."
    base = (hub.public_url or str(request.base_url)).rstrip("/")
    return page(request, "hand.html", {"table": summary(t, hub.public_url), "number": number,
                                       "status": deal["status"], "preview": text,
                                       "url": f"{base}/t/{t.id}/h/{number}"})
