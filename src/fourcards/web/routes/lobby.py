"""The lobby: health, presets, the public tables, this browser's tables, a new table (in a club or not)."""

from __future__ import annotations

import os
from typing import Annotated, Any

from fastapi import APIRouter, Query

from fourcards import __version__
from fourcards.kind import rules as kind_rules
from fourcards.poker import rules as poker_rules
from fourcards.table import TableError
from fourcards.table.games import TableSpec
from fourcards.table.registry import GAMES
from fourcards.table.views import invite_url, summary
from fourcards.web.bans import refuse_banned_in_club
from fourcards.web.deps import HubDep, WholeNumber, viewer_of
from fourcards.web.limits import rate_limit
from fourcards.web.routes.clubs import MAX_CLUB_TABLES, attach_table, club_or_404
from fourcards.web.schemas import CreateTable, MyTables
from fourcards.web.tokens import hash_token

__all__ = ["router", "LOBBY_MAX", "LOBBY_PAGE"]

router = APIRouter()


@router.get("/api/health", tags=["meta"])
async def health(hub: HubDep) -> dict[str, Any]:
    """Liveness: 200 with the number of tables this server holds, the database kind and this
    server's process id (servers may share the database)."""
    return {"status": "ok", "version": __version__, "tables": len(hub.repo.copies),
            "database": hub.store.dialect if hub.store else None, "pid": os.getpid()}


@router.get("/api/presets", tags=["meta"])
async def presets() -> dict[str, Any]:
    """Rules presets of both games, the named pay tables and the bot kinds."""
    return {
        "poker": {k: v.to_dict() for k, v in poker_rules.PRESETS.items()},
        "kind": {k: v.to_dict() for k, v in kind_rules.PRESETS.items()},
        "ante_bonus_tables": list(poker_rules.ANTE_BONUS_TABLES),
        "aces_up_tables": list(poker_rules.ACES_UP_TABLES),
        "bots": {name: list(game.bot_kinds()) for name, game in GAMES.items()},
    }


#: Tables in one page of the lobby at most, and by default.
LOBBY_MAX, LOBBY_PAGE = 100, 50
LobbyLimit = Annotated[WholeNumber, Query(ge=1, le=LOBBY_MAX, description="tables in this page (1-100)")]
LobbyAfter = Annotated[str | None, Query(max_length=16, description="continue after this table (the last page's next)")]


@router.get("/api/tables", tags=["lobby"])
async def list_tables(hub: HubDep, limit: LobbyLimit = LOBBY_PAGE, after: LobbyAfter = None) -> dict[str, Any]:
    """A page of the public tables' summaries, newest first: ``tables`` (at most ``limit``, 50 by
    default, 100 at most), ``limit`` and ``next`` - the ``after`` of the next page (``null``: this
    is the last). Private tables (the default) are reached by their link only: see ``POST
    /api/tables/mine``."""
    tables, following = await hub.public_tables(limit, after)
    return {"tables": [summary(t, hub.public_url) for t in tables], "limit": limit, "next": following}


@router.post("/api/tables/mine", tags=["lobby"])
async def my_tables(body: MyTables, hub: HubDep) -> dict[str, Any]:
    """The tables this browser created or sat at: it sends the seat tokens it keeps
    (``{"tokens": {table id: token}}``); each table whose seat (or waiting request) holds the
    token is listed with ``you`` (seat, name, balance, host). Unknown tables and tokens are
    left out, so nothing is learnt from them."""
    out = []
    for tid, token in body.tokens.items():
        t = await hub.find(tid)
        if t is None:
            continue
        try:
            seat, request = viewer_of(t, token)
        except Exception:
            seat, request = None, None
        if seat is None and request is None:
            if t.status == "closed" and any(p.token_hash == hash_token(token) for p in t.people.values()):
                out.append({**summary(t, hub.public_url), "you": None})  # a closed table: its settlement stays
            continue
        online = hub.publisher.online(t)
        out.append({**summary(t, hub.public_url),
                    "you": None if seat is None else seat.public(online.get(seat.player_id, 0) > 0),
                    "request": None if request is None else request.public()})
    return {"tables": out}


@router.post("/api/tables", status_code=201, tags=["lobby"], dependencies=[rate_limit("tables")])
async def create_table(body: CreateTable, hub: HubDep) -> dict[str, Any]:
    """Create a table; the host takes seat 1. Returns the host's secret seat token (keep it: it
    is the only way to act for that seat) and the join link; with ``club``, the table counts for
    that club (``club``: its id, name and link; 404 for an unknown club, 409 for a full one,
    and no table is made)."""
    if body.club is not None and len((await club_or_404(hub, body.club))["tables"]) >= MAX_CLUB_TABLES:
        raise TableError(409, f"the club has {MAX_CLUB_TABLES:,} tables, the most it keeps")
    if body.club is not None:
        await refuse_banned_in_club(hub, body.club, body.host_name)  # issue 27
    spec = TableSpec(game=body.game, preset=body.preset, rules=body.rules.model_dump(), bots=body.bots,
                     starting_chips=body.starting_chips, bot_ante=body.bot_ante, dealing=body.dealing,
                     turn_clock=body.turn_clock, seat_approval=body.seat_approval, public=body.public)
    table, host, token = await hub.create_table(spec, body.host_name, body.name)
    club = None if body.club is None else await attach_table(hub, body.club, table.id)
    return {"table": summary(table, hub.public_url), "seat": host.seat, "name": host.name, "token": token,
            "join_url": f"/t/{table.id}", "invite_url": invite_url(table, hub.public_url), "club": club}
