"""The pages (server-rendered HTML): the lobby, a table, its history, its QR code, the payout
checker, a new club and a club's page - and the checker's API, ``POST /api/poker/settle``."""

from __future__ import annotations

import asyncio
import hashlib
import pathlib
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.templating import Jinja2Templates

from fourcards import __version__
from fourcards.errors import RulesError
from fourcards.poker import rules as poker_rules
from fourcards.poker.payout import PAYOUT_FIELDS, PayoutInputError, check_payout
from fourcards.table import TableError
from fourcards.table.kind import KindTable
from fourcards.table.poker import PokerTable
from fourcards.table.views import invite_url, summary
from fourcards.web import assets
from fourcards.web.deps import HubDep
from fourcards.web.hub import Hub
from fourcards.web.invite import qr_svg
from fourcards.web.routes.clubs import club_or_404, public_club
from fourcards.web.routes.lobby import LOBBY_PAGE
from fourcards.web.schemas import SettleIn

__all__ = ["router", "templates", "WEB_DIR"]

WEB_DIR = pathlib.Path(__file__).resolve().parents[1]
router = APIRouter()
templates = Jinja2Templates(directory=str(WEB_DIR / "templates"))
_CHECKER_FIELDS = {**PAYOUT_FIELDS, "rules": "the rules", "table": "the table"}


def page(request: Request, name: str, context: dict[str, Any], status_code: int = 200) -> HTMLResponse:
    """A page from its template; pages change with every deploy, so browsers revalidate them."""
    response = templates.TemplateResponse(request, name, {**context, "version": __version__},
                                          status_code=status_code)
    response.headers["Cache-Control"] = assets.REVALIDATE
    return response


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
async def lobby_page(request: Request, hub: HubDep, after: Annotated[str | None, Query(max_length=16)] = None
                     ) -> HTMLResponse:
    tables, following = await hub.public_tables(LOBBY_PAGE, after)
    return page(request, "lobby.html", {
        "tables": [summary(t, hub.public_url) for t in tables], "next": following,
        "poker_presets": PokerTable.preset_labels(), "kind_presets": KindTable.preset_labels(),
        "aces_up_tables": list(poker_rules.ACES_UP_TABLES),
        "ante_bonus_tables": list(poker_rules.ANTE_BONUS_TABLES),
    })


@router.get("/sw.js", include_in_schema=False)
async def service_worker(request: Request) -> Response:
    """The service worker (docs/web.md "Installable on a phone"): it caches the app shell - the
    versioned static files listed here and the offline page - and nothing of a table. Served
    from the site's root so it may answer for every page; revalidated, so a new version's files
    (new URLs, a new shell) are picked up at once."""
    static: assets.VersionedStatic = request.app.state.static
    files = [static.url(name) for name in sorted(static.digests)]
    shell = hashlib.sha256(" ".join(files).encode()).hexdigest()[:12]
    response = templates.TemplateResponse(request, "sw.js", {"files": files, "shell_version": shell},
                                          media_type="text/javascript")
    response.headers["Cache-Control"] = assets.REVALIDATE
    return response


@router.get("/offline", response_class=HTMLResponse, include_in_schema=False)
async def offline_page(request: Request) -> HTMLResponse:
    """What the service worker shows when a page cannot be reached (kept in the app shell)."""
    return page(request, "offline.html", {})


@router.get("/t/{table_id}/qr.svg", tags=["tables"])
async def table_qr(request: Request, table_id: str, hub: HubDep) -> Response:
    """A QR code (SVG) of the table's invitation link: from the server's public address
    (``fourcards serve --lan``), else from this request's address."""
    t = await hub.get(table_id)
    url = invite_url(t, hub.public_url) or f"{str(request.base_url).rstrip('/')}/t/{t.id}"
    svg = await asyncio.to_thread(qr_svg, url)
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=3600"})


async def _table_page(request: Request, table_id: str, hub: Hub, template: str) -> HTMLResponse:
    """A page of one table (``template``), or the missing-table page with 404."""
    t = await hub.find(table_id)
    if t is None:
        return page(request, "missing.html", {"table_id": table_id}, status_code=404)
    return page(request, template, {"table": summary(t, hub.public_url)})


@router.get("/t/{table_id}/history", response_class=HTMLResponse, include_in_schema=False)
async def history_page(request: Request, table_id: str, hub: HubDep) -> HTMLResponse:
    return await _table_page(request, table_id, hub, "history.html")


@router.get("/t/{table_id}", response_class=HTMLResponse, include_in_schema=False)
async def table_page(request: Request, table_id: str, hub: HubDep) -> HTMLResponse:
    return await _table_page(request, table_id, hub, "table.html")


@router.get("/clubs/new", response_class=HTMLResponse, include_in_schema=False)
async def new_club_page(request: Request) -> HTMLResponse:
    return page(request, "club_new.html", {})


@router.get("/c/{club_id}", response_class=HTMLResponse, include_in_schema=False)
async def club_page(request: Request, club_id: str, hub: HubDep) -> HTMLResponse:
    try:
        club = await club_or_404(hub, club_id)
    except TableError:
        return page(request, "missing.html", {"table_id": club_id, "what": "club"}, status_code=404)
    return page(request, "club.html", {"club": public_club(hub, club)})


# ------------------------------------------------ the payout checker (docs/web.md)

async def _checker_rules(hub: Hub, preset: str | None, table_id: str | None) -> poker_rules.PokerRules:
    """A preset's rules (``live`` when neither is given) or a Four Card Poker table's.

    Raises:
        TableError: 404, no such table.
        PayoutInputError: both given, an unknown preset, a Four of a Kind table.
    """
    if table_id is None:
        try:
            return poker_rules.get_rules(preset or "live")
        except RulesError as exc:
            raise PayoutInputError(str(exc), "rules") from exc
    if preset is not None:
        raise PayoutInputError("give a rules preset or a table, not both", "rules")
    t = await hub.get(table_id)
    if not isinstance(t.rules, poker_rules.PokerRules):
        raise PayoutInputError(f"table {t.id!r} plays {t.table_game.title}: the payout checker is for "
                               "Four Card Poker", "table")
    return t.rules


@router.post("/api/poker/settle", tags=["poker"], response_model=None)
async def poker_settle(body: SettleIn, hub: HubDep) -> JSONResponse:
    """The payout checker: settle one seat's wagers on the cards given (see :class:`SettleIn`),
    under a rules preset or a table's rules. 200: what ``fourcards poker settle --json`` prints -
    each wager's result in signed chips (``wagers``: ante, play, ante_bonus, aces_up), the win
    cap's ``win_cap_adjustment``, the ``net``, both best four-card hands card by card and the
    rules' name. 422 ``{"detail", "field"}``: bad cards, wagers or rules, naming the input at
    fault (nothing is settled); 404: no such table."""
    try:
        rules = await _checker_rules(hub, body.rules, body.table)
        payout = check_payout(rules, body.player, body.dealer, up=body.up, ante=body.ante, play=body.play,
                              fold=body.fold, aces_up=body.aces_up)
    except PayoutInputError as exc:
        return JSONResponse({"detail": f"{_CHECKER_FIELDS[exc.field]}: {exc}", "field": exc.field}, status_code=422)
    return JSONResponse(payout.to_dict())


@router.get("/poker/checker", response_class=HTMLResponse, include_in_schema=False)
async def poker_checker_page(request: Request) -> HTMLResponse:
    return page(request, "checker.html", {"rules": {k: v.to_dict() for k, v in poker_rules.PRESETS.items()},
                                          "labels": PokerTable.preset_labels(), "table": None})


@router.get("/t/{table_id}/checker", response_class=HTMLResponse, include_in_schema=False)
async def table_checker_page(request: Request, table_id: str, hub: HubDep) -> HTMLResponse:
    t = await hub.find(table_id)
    if t is None or not isinstance(t.rules, poker_rules.PokerRules):
        return page(request, "missing.html", {"table_id": table_id}, status_code=404)
    return page(request, "checker.html", {"rules": {"table": t.rules.to_dict()},
                                          "labels": {"table": PokerTable.rules_label(t.rules)},
                                          "table": summary(t, hub.public_url)})
