"""The FastAPI application: REST for lobby, tables and histories; websockets for live tables.

:func:`create_app` builds the app over one database URL. Endpoints (all JSON;
see docs/web.md and the OpenAPI page at ``/docs``):

======  ====================================  ==========================================
GET     /api/health                           200 ``{"status": "ok", ...}``
GET     /api/presets                          rules presets, named pay tables, bot kinds
GET     /api/tables                           the lobby: public tables' summaries
POST    /api/tables                           create a table (the host takes seat 1) -> token
POST    /api/tables/mine                      the tables this browser holds seat tokens for
GET     /api/tables/{id}                      one table's summary and players
POST    /api/tables/{id}/seats                take a seat by name -> seat token (or a request)
POST    /api/tables/{id}/seats/{seat}/...     sit-out, back, leave, new-device
POST    /api/tables/{id}/settings|close       host: public, turn clock, seat approval; close
POST    /api/tables/{id}/top-ups              ask for more chips (the host approves)
POST    /api/tables/{id}/requests/{rid}       host: approve or turn down a request
GET     /api/tables/{id}/state                the caller's view (X-Seat-Token; none: spectator)
POST    /api/tables/{id}/actions              a seat's action (X-Seat-Token)
POST    /api/tables/{id}/deal                 host: deal / start the next deal
POST    /api/tables/{id}/cards                host: real cards dealt or turned ("dealing": "table")
POST    /api/tables/{id}/cards/take-back      host: take back the last card entered
POST    /api/tables/{id}/seats/{seat}/actions host: a player's move, at a table of real cards
POST    /api/tables/{id}/void                 host: void the deal in progress (refund)
POST    /api/tables/{id}/bots                 host: fill empty seats with bots
GET     /api/tables/{id}/deals                the table's deals (newest first)
GET     /api/tables/{id}/deals/{number}       a finished deal's full history and ledger
GET     /api/tables/{id}/deals/{number}/replay  the deal step by step
GET     /api/tables/{id}/settlement[.csv]     the night's settlement (JSON, CSV)
GET     /api/tables/{id}/ledger               the table's chip ledger and its audit
WS      /ws/tables/{id}?token=...             live views; also takes actions
GET     /  and  /t/{id}                       the lobby and table pages (HTML)
GET     /t/{id}/history                       the table's deals, replays and settlement (HTML)
GET     /t/{id}/qr.svg                        a QR code of the table's invitation link
======  ====================================  ==========================================

Seat tokens travel in the ``X-Seat-Token`` header (websocket: ``?token=``).
Errors are ``{"detail": "..."}`` with a 4xx status; a refused request changes
nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import os
import pathlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import FastAPI, Header, Path, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import ValidationError

from fourcards import __version__
from fourcards.csvtext import csv_text
from fourcards.errors import RulesError
from fourcards.kind import rules as kind_rules
from fourcards.poker import rules as poker_rules
from fourcards.poker.payout import PAYOUT_FIELDS, PayoutInputError, check_payout
from fourcards.store import MAX_INTEGER, default_database_url
from fourcards.web import assets
from fourcards.web.games import GAMES
from fourcards.web.hub import Hub
from fourcards.web.invite import qr_svg
from fourcards.web.schemas import (
    ActionIn,
    AddBots,
    CardsIn,
    CreateTable,
    Decision,
    MyTables,
    SettleIn,
    SitDown,
    TableSettings,
    TopUp,
    VoidIn,
)
from fourcards.web.tables import ApiError, Connection, SeatInfo, SeatRequest, Table, hash_token
from fourcards.web.transport import WS_MAX_CHARS

__all__ = ["create_app"]

log = logging.getLogger(__name__)
_HERE = pathlib.Path(__file__).resolve().parent
TOKEN_HEADER = "X-Seat-Token"
#: A deal's number in a path: 1 .. the ``deals.number`` column's largest value.
DealNumber = Annotated[int, Path(ge=1, le=MAX_INTEGER, description="the deal's number at the table (1, 2, ...)")]
#: A seat number in a path (1..13).
SeatNumber = Annotated[int, Path(ge=1, le=13, description="the seat's number at the table (1, 2, ...)")]


def _validation_detail(exc: ValidationError | RequestValidationError) -> tuple[int, str]:
    errors = exc.errors()
    for e in errors:
        if e.get("type") == "json_invalid":
            return 400, f"malformed JSON: {e.get('ctx', {}).get('error', e.get('msg'))}"
    parts = []
    for e in errors[:5]:
        loc = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
        msg = e.get("msg")
        if e.get("type") == "value_error" and e.get("ctx", {}).get("error") is not None:
            msg = str(e["ctx"]["error"])  # our own validators' sentence, without pydantic's prefix
        parts.append(f"{loc or 'body'}: {msg}")
    return 422, "invalid request - " + "; ".join(parts)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _env_delay() -> float:
    raw = os.environ.get("FOURCARDS_BOT_DELAY", "0.7")
    try:
        delay = float(raw)
    except ValueError:
        delay = math.nan
    if not 0 <= delay <= 10:
        raise ValueError(f"FOURCARDS_BOT_DELAY must be a number of seconds from 0 to 10, got {raw!r}")
    return delay


def create_app(database_url: str | None = None, *, bot_delay: float | None = None,
               public_url: str | None = None) -> FastAPI:
    """Build the web app.

    Args:
        database_url: SQLAlchemy URL; default env ``FOURCARDS_DATABASE_URL`` or
            a SQLite file in the user's data directory.
        bot_delay: seconds between bot moves (default env ``FOURCARDS_BOT_DELAY``
            or 0.7; tests pass 0: bots move before the request returns).
        public_url: the address people reach the server at (invitation links, QR codes);
            default env ``FOURCARDS_PUBLIC_URL``, else none (pages use their own address).

    Raises:
        ValueError: ``FOURCARDS_BOT_DELAY`` is not a number of seconds from 0 to 10.

    When the app starts (its lifespan) it opens and migrates the database; tables are
    read from it as they are needed. Any number of apps may share one database
    (:mod:`fourcards.web.hub`): a deal in progress goes on through any of them.
    """
    url = database_url or default_database_url()
    delay = bot_delay if bot_delay is not None else _env_delay()
    hub = Hub(url, bot_delay=delay, public_url=public_url or os.environ.get("FOURCARDS_PUBLIC_URL") or None)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(
        title="fourcards",
        version=__version__,
        description="Four Card Poker and Four of a Kind at the table: lobby, seats, live play, "
                    "hand histories and a chip ledger. Seat tokens go in the X-Seat-Token header.",
        lifespan=lifespan,
        docs_url=None,  # assets.install serves /docs from this server
        redoc_url=None,
    )
    app.state.hub = hub
    templates = Jinja2Templates(directory=str(_HERE / "templates"))
    static = assets.install(app, _HERE / "static")
    templates.env.globals["static_url"] = static.url

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"detail": exc.detail}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        status, detail = _validation_detail(exc)
        return JSONResponse({"detail": detail}, status_code=status)

    # ------------------------------------------------------------------ REST

    @app.get("/api/health", tags=["meta"])
    async def health() -> dict[str, Any]:
        """Liveness: 200 with the number of tables this server holds, the database kind and
        this server's process id (servers may share the database)."""
        return {"status": "ok", "version": __version__, "tables": len(hub.tables),
                "database": hub.store.dialect if hub.store else None, "pid": os.getpid()}

    @app.get("/api/presets", tags=["meta"])
    async def presets() -> dict[str, Any]:
        """Rules presets of both games, the named pay tables and the bot kinds."""
        return {
            "poker": {k: v.to_dict() for k, v in poker_rules.PRESETS.items()},
            "kind": {k: v.to_dict() for k, v in kind_rules.PRESETS.items()},
            "ante_bonus_tables": list(poker_rules.ANTE_BONUS_TABLES),
            "aces_up_tables": list(poker_rules.ACES_UP_TABLES),
            "bots": {name: list(game.bot_kinds()) for name, game in GAMES.items()},
        }

    @app.get("/api/tables", tags=["lobby"])
    async def list_tables() -> dict[str, Any]:
        """The public tables' summaries (newest first). Private tables (the default) are
        reached by their link only: see ``POST /api/tables/mine``."""
        return {"tables": [t.summary() for t in await hub.public_tables()]}

    @app.post("/api/tables/mine", tags=["lobby"])
    async def my_tables(body: MyTables) -> dict[str, Any]:
        """The tables this browser created or sat at: it sends the seat tokens it keeps
        (``{"tokens": {table id: token}}``); each table whose seat (or waiting request) holds
        the token is listed with ``you`` (seat, name, balance, host). Unknown tables and
        tokens are left out, so nothing is learnt from them."""
        out = []
        for tid, token in body.tokens.items():
            t = await hub.find(tid)
            if t is None:
                continue
            await t.sync()
            try:
                seat, request = t.viewer(token)
            except ApiError:
                seat, request = None, None
            if seat is None and request is None:
                if t.status == "closed" and any(p.token_hash == hash_token(token) for p in t.by_id.values()):
                    out.append({**t.summary(), "you": None})  # a closed table: its settlement stays readable
                continue
            out.append({**t.summary(), "you": None if seat is None else seat.public(),
                        "request": None if request is None else request.public()})
        return {"tables": out}

    @app.post("/api/tables", status_code=201, tags=["lobby"])
    async def create_table(body: CreateTable) -> dict[str, Any]:
        """Create a table; the host takes seat 1. Returns the host's secret seat token
        (keep it: it is the only way to act for that seat) and the join link."""
        table, host, token = await hub.create_table(body)
        return {"table": table.summary(), "seat": host.seat, "name": host.name, "token": token,
                "join_url": f"/t/{table.id}", "invite_url": table.invite_url}

    @app.get("/api/tables/{table_id}", tags=["tables"])
    async def get_table(table_id: str) -> dict[str, Any]:
        """One table's summary and its players (names, seats, balances, status)."""
        t = await hub.latest(table_id)
        return {**t.summary(), "seats": [p.public() for _, p in sorted(t.players.items())]}

    @app.post("/api/tables/{table_id}/seats", status_code=201, tags=["tables"])
    async def sit(table_id: str, body: SitDown) -> JSONResponse:
        """Take the next free seat by name: ``201 {"status": "seated", "seat", "name", "token",
        "balance"}``. A person who left the table gets their seat back with their balance.
        When the host approves new seats: ``202 {"status": "pending", "request", "name",
        "token"}`` - the token becomes the seat's once the host approves."""
        t = await hub.get(table_id)
        out = await t.join(body.name)
        return JSONResponse(out, status_code=201 if out["status"] == "seated" else 202)

    @app.get("/api/tables/{table_id}/state", tags=["tables"])
    async def state(table_id: str, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """The caller's view: its seat's observation and table data (no token: a spectator's;
        a token whose seat request waits: a spectator's with ``request``)."""
        t = await hub.latest(table_id)
        seat, request = t.viewer(x_seat_token)
        return t.view(seat, request)

    async def _auth(t: Table, token: str | None) -> SeatInfo:
        """The seat of ``token`` (:meth:`Table.authenticate`); a token this server's copy does
        not know yet (a seat taken through another server) looks at the database first."""
        try:
            return t.authenticate(token)
        except ApiError as exc:
            if exc.status != 403:
                raise
        await t.sync()
        return t.authenticate(token)

    async def _seat_op(table_id: str, number: int, token: str | None) -> tuple[Table, SeatInfo, SeatInfo]:
        t = await hub.get(table_id)
        by = await _auth(t, token)
        return t, by, t.seat_of(number)

    @app.post("/api/tables/{table_id}/seats/{seat}/sit-out", tags=["seats"])
    async def sit_out(table_id: str, seat: SeatNumber, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """The seat sits out (no ante, no cards, its turns skipped): its player's own
        choice, or the host's."""
        t, by, target = await _seat_op(table_id, seat, x_seat_token)
        await t.set_status(by, target, True)
        return t.view(by)

    @app.post("/api/tables/{table_id}/seats/{seat}/back", tags=["seats"])
    async def back(table_id: str, seat: SeatNumber, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """The seat plays again from the next deal ("I'm back"); its player or the host."""
        t, by, target = await _seat_op(table_id, seat, x_seat_token)
        await t.set_status(by, target, False)
        return t.view(by)

    @app.post("/api/tables/{table_id}/seats/{seat}/leave", tags=["seats"])
    async def leave(table_id: str, seat: SeatNumber, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """The seat's player leaves, or the host removes the seat: its chips are cashed out
        (``{"status": "left", "cashed_out"}``); a seat dealt in the deal in progress folds at
        its turns and cashes out when the deal ends (``{"status": "leaving"}``). Rejoining
        by the same name later brings the balance back."""
        t, by, target = await _seat_op(table_id, seat, x_seat_token)
        return await t.leave(by, target)

    @app.post("/api/tables/{table_id}/seats/{seat}/new-device", tags=["seats"])
    async def new_device(table_id: str, seat: SeatNumber,
                         x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """Host: hand the seat to a new phone. Returns ``{"seat", "name", "token", "join_url"}``
        with a fresh token (open it on the new phone: ``/t/{id}#token=...``); the old token
        stops working at once."""
        t, by, target = await _seat_op(table_id, seat, x_seat_token)
        token = await t.new_device(by, target)
        return {"seat": target.seat, "name": target.name, "token": token,
                "join_url": f"/t/{t.id}#token={token}", "invite_url": None if not t.invite_url
                else f"{t.invite_url}#token={token}"}

    @app.post("/api/tables/{table_id}/settings", tags=["host"])
    async def settings(table_id: str, body: TableSettings,
                       x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """Host: make the table public or private, set the turn clock (seconds, 0: none),
        require approval of new seats or not."""
        t = await hub.get(table_id)
        seat = await _auth(t, x_seat_token)
        await t.configure(seat, public=body.public, turn_clock=body.turn_clock, seat_approval=body.seat_approval)
        return t.view(seat)

    @app.post("/api/tables/{table_id}/close", tags=["host"])
    async def close(table_id: str, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """Host: close the table - a deal in progress is voided, everyone is cashed out
        (``{"cashed_out": {name: chips}}``); the history and the settlement stay readable."""
        t = await hub.get(table_id)
        seat = await _auth(t, x_seat_token)
        return {"cashed_out": await t.close(seat)}

    @app.post("/api/tables/{table_id}/top-ups", tags=["seats"])
    async def top_up(table_id: str, body: TopUp, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """Ask for ``amount`` more chips from the bank: the host's own is made at once
        (``{"status": "done", "balance"}``), anyone else's waits for the host
        (``{"status": "pending", "request"}``)."""
        t = await hub.get(table_id)
        return await t.top_up(await _auth(t, x_seat_token), body.amount)

    @app.post("/api/tables/{table_id}/requests/{request_id}", tags=["host"])
    async def decide(table_id: str, request_id: Annotated[int, Path(ge=1, le=MAX_INTEGER)], body: Decision,
                     x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """Host: approve (``{"approve": true}``) or turn down a waiting seat or top-up request."""
        t = await hub.get(table_id)
        seat = await _auth(t, x_seat_token)
        req = await t.decide(seat, request_id, body.approve)
        return {"request": req.public()}

    @app.post("/api/tables/{table_id}/actions", tags=["tables"])
    async def act(table_id: str, body: ActionIn, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """A seat's action (see :class:`ActionIn`); returns the seat's new view."""
        t = await hub.get(table_id)
        seat = await _auth(t, x_seat_token)
        await t.act(seat, body)
        return t.view(seat)

    @app.post("/api/tables/{table_id}/deal", tags=["host"])
    async def deal(table_id: str, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """Host: Four Card Poker - bots place their antes and the cards are dealt;
        Four of a Kind - start the next deal."""
        t = await hub.get(table_id)
        seat = await _auth(t, x_seat_token)
        await t.start(seat)
        return t.view(seat)

    @app.post("/api/tables/{table_id}/cards", tags=["host"])
    async def cards(table_id: str, body: CardsIn, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """Host, at a Four of a Kind table dealt with real cards (``"dealing": "table"``): the
        card(s) just dealt or turned, ``{"cards": "9c"}`` (``"10h"``, ``"T♥"``; several
        separated by spaces or commas, in order). Returns the host's new view: its
        ``deal.next_card`` says who the next card goes to and, after a duplicated rank, who
        gets a new card and why. 422 for text that is not cards; 409 for a card already seen
        (named, with where it lies), when no card is due, or at a deck table; 403 for a
        guest. A refused request changes nothing (docs/rules.md FOAK-14)."""
        t = await hub.get(table_id)
        seat = await _auth(t, x_seat_token)
        await t.enter_cards(seat, body.cards)
        return t.view(seat)

    @app.post("/api/tables/{table_id}/cards/take-back", tags=["host"])
    async def take_back(table_id: str, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """Host, at a table dealt with real cards: take back the last card entered, until the
        next action (never once the deal is over); logged (docs/rules.md FOAK-15)."""
        t = await hub.get(table_id)
        seat = await _auth(t, x_seat_token)
        await t.take_back(seat)
        return t.view(seat)

    @app.post("/api/tables/{table_id}/seats/{seat}/actions", tags=["host"])
    async def act_for(table_id: str, seat: SeatNumber, body: ActionIn,
                      x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """Host, at a table dealt with real cards: the move of seat ``seat`` (a person without a
        phone, or anyone who asks), checked like the seat's own (docs/rules.md FOAK-16)."""
        t, host, target = await _seat_op(table_id, seat, x_seat_token)
        await t.act_for(host, target, body)
        return t.view(host)

    @app.post("/api/tables/{table_id}/void", tags=["host"])
    async def void(table_id: str, body: VoidIn, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """Host: void the deal in progress (the host's ruling): every wager / the pot is
        returned and the ruling is logged in the deal's history."""
        t = await hub.get(table_id)
        seat = await _auth(t, x_seat_token)
        await t.void(seat, body.reason)
        return t.view(seat)

    @app.post("/api/tables/{table_id}/bots", tags=["host"])
    async def bots(table_id: str, body: AddBots, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """Host: fill empty seats with bots."""
        t = await hub.get(table_id)
        seat = await _auth(t, x_seat_token)
        await t.add_bots(seat, body.count, body.kind)
        return t.view(seat)

    @app.get("/api/tables/{table_id}/deals", tags=["history"])
    async def deals(table_id: str) -> dict[str, Any]:
        """The table's deals, newest first (status, seats, result; no history), each finished
        one with ``players``: who won (+) or lost (-) how many chips in it, by name."""
        t = await hub.latest(table_id)
        rows = await hub.run_db(hub.require_store().list_deals, t.id)
        out = []
        for d in rows:
            nets = d.pop("nets")
            if d["status"] == "in_progress":
                del d["result"]
            else:
                d["players"] = [{"player_id": pid, "name": t.by_id[pid].name if pid in t.by_id else None,
                                 "net": net} for pid, net in sorted(nets.items())]
            out.append(d)
        return {"deals": out}

    async def _finished_deal(t: Table, number: int) -> dict[str, Any]:
        d = await hub.run_db(hub.require_store().get_deal, t.id, number)
        if d is None:
            raise ApiError(404, f"table {t.id!r} has no deal {number}")
        if d["status"] == "in_progress":
            raise ApiError(409, f"deal {number} is in progress; its history is published when it ends")
        return d

    @app.get("/api/tables/{table_id}/deals/{number}", tags=["history"])
    async def deal_history(table_id: str, number: DealNumber,
                           x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """A finished deal's full history (every action and chance event) as the caller
        may see it (the engine's ``observation(player).history``: e.g. the cards of Four
        Card Poker seats that folded stay hidden from other seats) and its ledger
        entries. A deal in progress is refused (409): its cards are still secret."""
        t = await hub.get(table_id)
        seat = t.optional_seat(x_seat_token)
        return t.publish(await _finished_deal(t, number), seat)

    @app.get("/api/tables/{table_id}/deals/{number}/replay", tags=["history"])
    async def deal_replay(table_id: str, number: DealNumber,
                          x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """A finished deal step by step as the caller may see it: after each action or card,
        the engine's replay of the history up to there seen through the caller's
        ``observation(player)`` (a spectator's without a token), with the table log's lines."""
        t = await hub.get(table_id)
        seat = t.optional_seat(x_seat_token)
        d = await _finished_deal(t, number)
        return await asyncio.to_thread(t.replay, d, seat)

    @app.get("/api/tables/{table_id}/settlement", tags=["history"])
    async def settlement(table_id: str) -> dict[str, Any]:
        """The night's settlement: each person's buy-in, top-ups, chips cashed out, stack and
        net; the house's net at Four Card Poker; ``total`` 0."""
        t = await hub.latest(table_id)
        return await t.settlement()

    @app.get("/api/tables/{table_id}/settlement.csv", tags=["history"])
    async def settlement_csv(table_id: str) -> Response:
        """The night's settlement as CSV (one row per person, then the house, chips in play
        and the total); a name that a spreadsheet would run as a formula gets a leading
        apostrophe (:mod:`fourcards.csvtext`; the JSON keeps it as it is)."""
        t = await hub.latest(table_id)
        s = await t.settlement()
        rows: list[list[str | int | None]] = [
            ["name", "seat", "status", "bought_in", "top_ups", "cashed_out", "stack", "net"]]
        for r in s["players"]:  # names neutralised for spreadsheets (fourcards.csvtext)
            rows.append([r["name"] + (" (bot)" if r["is_bot"] else ""), r["seat"] or None, r["status"],
                         r["bought_in"], r["top_ups"], r["cashed_out"], r["stack"], r["net"]])
        if s["house"] is not None:
            rows.append(["house", None, None, None, None, None, None, s["house"]])
        if s["in_play"]:
            rows.append(["in play", None, None, None, None, None, None, s["in_play"]])
        rows.append(["total", None, None, None, None, None, None, s["total"]])
        return Response(csv_text(rows), media_type="text/csv; charset=utf-8", headers={
            "Content-Disposition": f'attachment; filename="fourcards-{s["table"]}-settlement.csv"'})

    @app.get("/api/tables/{table_id}/ledger", tags=["history"])
    async def ledger(table_id: str) -> dict[str, Any]:
        """The table's latest chip ledger entries and an audit (total 0, every
        transaction balanced, every finished deal's pot/bets emptied)."""
        t = await hub.latest(table_id)
        store = hub.require_store()
        entries = await hub.run_db(store.ledger, t.id)
        check = await hub.run_db(store.ledger_check, t.id)
        balances = await hub.run_db(store.balances, t.id)
        return {"entries": entries, "audit": check,
                "balances": {str(t.by_id[pid].seat): b for pid, b in balances.items() if pid in t.by_id}}

    # ------------------------------------------------------------- websocket

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
        """Live table: the server pushes ``{"type": "state", ...}`` (this seat's view)
        after every change. The client may send ``{"op": "action", "action": {...},
        "id": n}``, ``{"op": "deal"}``, ``{"op": "void", "reason": ...}``,
        ``{"op": "bots", "count": n}`` or ``{"op": "ping"}``; each gets
        ``{"type": "ack", "id": n}`` or ``{"type": "error", "id": n, "status": 4xx,
        "detail": ...}``."""
        await websocket.accept()
        table = await hub.find(table_id)
        if table is not None:
            await table.sync()
        if table is None:
            await websocket.send_text(json.dumps({"type": "error", "status": 404,
                                                  "detail": f"unknown table {table_id!r}"}))
            await websocket.close(code=4404)
            return
        seat: SeatInfo | None = None
        request: SeatRequest | None = None
        try:
            seat, request = table.viewer(token)
        except ApiError as exc:
            await websocket.send_text(json.dumps({"type": "error", "status": exc.status, "detail": exc.detail}))
            await websocket.close(code=4403)
            return
        conn = Connection(websocket, seat, request, None if not token else hash_token(token))
        table.conns.add(conn)
        pump = asyncio.create_task(conn.pump())
        if seat is not None:
            seat.online += 1
            table.notify()  # everyone sees the seat online (this connection gets its view too)
        else:
            conn.push(table.view_json(seat, request))
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:  # a binary frame
                    conn.push_direct({"type": "error", "id": None, "status": 400,
                                      "detail": "binary frames are not accepted: send each message as JSON text"})
                    continue
                await _ws_message(table, conn, raw)
        except WebSocketDisconnect:
            pass
        except RuntimeError:  # pragma: no cover - socket closed under us
            pass
        finally:
            conn.closed = True
            table.conns.discard(conn)
            pump.cancel()
            if conn.seat is not None:
                conn.seat.online = max(0, conn.seat.online - 1)
                table.notify()

    async def _ws_message(table: Table, conn: Connection, raw: str) -> None:
        msg_id: Any = None
        try:
            if len(raw) > WS_MAX_CHARS:
                raise ApiError(413, f"message too large ({WS_MAX_CHARS} characters at most)")
            try:
                msg = json.loads(raw, parse_constant=_refuse_constant)
            except json.JSONDecodeError as exc:
                raise ApiError(400, f"malformed JSON: {exc.msg}") from None
            except ValueError as exc:
                raise ApiError(400, f"malformed JSON: {exc}") from None
            except RecursionError:
                raise ApiError(400, "malformed JSON: nested too deeply") from None
            if not isinstance(msg, dict):
                raise ApiError(400, "a message must be a JSON object with an 'op'")
            msg_id = msg.get("id")
            if msg_id is not None and (isinstance(msg_id, bool) or not isinstance(msg_id, (int, str))
                                       or isinstance(msg_id, str) and len(msg_id) > 100):
                msg_id = None
                raise ApiError(400, "id must be a whole number or text of at most 100 characters")
            op = msg.get("op")
            if op == "ping":
                conn.push_direct({"type": "pong", "id": msg_id})
                return
            if op not in ("action", "deal", "void", "bots"):
                raise ApiError(400, f"unknown op {op!r}: use action, deal, void, bots or ping")
            table.require_open()  # 409 at a closed table (it has no seats left)
            if conn.seat is None:
                raise ApiError(401, "a seat token is required to act (connect with ?token=)")
            seat = table.by_token.get(conn.seat.token_hash)
            if seat is None:  # pragma: no cover - seats are never removed
                raise ApiError(403, "this seat no longer exists")
            try:
                if op == "action":
                    await table.act(seat, ActionIn.model_validate(msg.get("action")))
                elif op == "deal":
                    await table.start(seat)
                elif op == "void":
                    reason = VoidIn.model_validate({k: v for k, v in msg.items() if k == "reason"}).reason
                    await table.void(seat, reason)
                else:
                    body = AddBots.model_validate({k: v for k, v in msg.items() if k in ("count", "kind")})
                    await table.add_bots(seat, body.count, body.kind)
            except ValidationError as exc:
                status, detail = _validation_detail(exc)
                raise ApiError(status, detail) from None
            conn.push_direct({"type": "ack", "id": msg_id})
        except ApiError as exc:
            conn.push_direct({"type": "error", "id": msg_id, "status": exc.status, "detail": exc.detail})

    # ------------------------------------------------------------------ pages

    def page(request: Request, name: str, context: dict[str, Any], status_code: int = 200) -> HTMLResponse:
        response = templates.TemplateResponse(request, name, {**context, "version": __version__},
                                              status_code=status_code)
        response.headers["Cache-Control"] = assets.REVALIDATE  # pages change with every deploy
        return response

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def lobby_page(request: Request) -> HTMLResponse:
        return page(request, "lobby.html", {
            "tables": [t.summary() for t in await hub.public_tables()],
            "poker_presets": list(poker_rules.PRESETS), "kind_presets": list(kind_rules.PRESETS),
            "aces_up_tables": list(poker_rules.ACES_UP_TABLES),
            "ante_bonus_tables": list(poker_rules.ANTE_BONUS_TABLES),
        })

    @app.get("/t/{table_id}/qr.svg", tags=["tables"])
    async def table_qr(request: Request, table_id: str) -> Response:
        """A QR code (SVG) of the table's invitation link: from the server's public address
        (``fourcards serve --lan``), else from this request's address."""
        t = await hub.get(table_id)
        url = t.invite_url or f"{str(request.base_url).rstrip('/')}/t/{t.id}"
        svg = await asyncio.to_thread(qr_svg, url)
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=3600"})

    @app.get("/t/{table_id}/history", response_class=HTMLResponse, include_in_schema=False)
    async def history_page(request: Request, table_id: str) -> HTMLResponse:
        t = await hub.find(table_id)
        if t is None:
            return page(request, "missing.html", {"table_id": table_id}, status_code=404)
        return page(request, "history.html", {"table": t.summary()})

    @app.get("/t/{table_id}", response_class=HTMLResponse, include_in_schema=False)
    async def table_page(request: Request, table_id: str) -> HTMLResponse:
        t = await hub.find(table_id)
        if t is None:
            return page(request, "missing.html", {"table_id": table_id}, status_code=404)
        return page(request, "table.html", {"table": t.summary()})


    # ------------------------------------------- the payout checker (issue 15, item 3; docs/web.md)

    checker_fields = {**PAYOUT_FIELDS, "rules": "the rules", "table": "the table"}

    async def checker_rules(preset: str | None, table_id: str | None) -> poker_rules.PokerRules:
        """A preset's rules (``live`` when neither is given) or a Four Card Poker table's.

        Raises:
            ApiError: 404, no such table.
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
            raise PayoutInputError(f"table {t.id!r} plays {t.game.title}: the payout checker is for "
                                   "Four Card Poker", "table")
        return t.rules

    @app.post("/api/poker/settle", tags=["poker"], response_model=None)
    async def poker_settle(body: SettleIn) -> JSONResponse:
        """The payout checker: settle one seat's wagers on the cards given (see :class:`SettleIn`), under
        a rules preset or a table's rules. 200: what ``fourcards poker settle --json`` prints - each
        wager's result in signed chips (``wagers``: ante, play, ante_bonus, aces_up), the win cap's
        ``win_cap_adjustment``, the ``net``, both best four-card hands card by card and the rules'
        name. 422 ``{"detail", "field"}``: bad cards, wagers or rules, naming the input at fault
        (nothing is settled); 404: no such table."""
        try:
            rules = await checker_rules(body.rules, body.table)
            payout = check_payout(rules, body.player, body.dealer, up=body.up, ante=body.ante, play=body.play,
                                  fold=body.fold, aces_up=body.aces_up)
        except PayoutInputError as exc:
            return JSONResponse({"detail": f"{checker_fields[exc.field]}: {exc}", "field": exc.field},
                                status_code=422)
        return JSONResponse(payout.to_dict())

    def checker_page(request: Request, rules: dict[str, Any], table: dict[str, Any] | None) -> HTMLResponse:
        return page(request, "checker.html", {"rules": rules, "table": table})

    @app.get("/poker/checker", response_class=HTMLResponse, include_in_schema=False)
    async def poker_checker_page(request: Request) -> HTMLResponse:
        return checker_page(request, {k: v.to_dict() for k, v in poker_rules.PRESETS.items()}, None)

    @app.get("/t/{table_id}/checker", response_class=HTMLResponse, include_in_schema=False)
    async def table_checker_page(request: Request, table_id: str) -> HTMLResponse:
        t = await hub.find(table_id)
        if t is None or not isinstance(t.rules, poker_rules.PokerRules):
            return page(request, "missing.html", {"table_id": table_id}, status_code=404)
        return checker_page(request, {"table": t.rules.to_dict()}, t.summary())

    return app
