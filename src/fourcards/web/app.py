"""The FastAPI application: REST for lobby, tables and histories; websockets for live tables.

:func:`create_app` builds the app over one database URL. Endpoints (all JSON;
see docs/web.md and the OpenAPI page at ``/docs``):

======  ====================================  ==========================================
GET     /api/health                           200 ``{"status": "ok", ...}``
GET     /api/presets                          rules presets, named pay tables, bot kinds
GET     /api/tables                           the lobby: every table's summary
POST    /api/tables                           create a table (the host takes seat 1) -> token
GET     /api/tables/{id}                      one table's summary and players
POST    /api/tables/{id}/seats                take a seat by name -> seat token
GET     /api/tables/{id}/state                the caller's view (X-Seat-Token; none: spectator)
POST    /api/tables/{id}/actions              a seat's action (X-Seat-Token)
POST    /api/tables/{id}/deal                 host: deal / start the next deal
POST    /api/tables/{id}/void                 host: void the deal in progress (refund)
POST    /api/tables/{id}/bots                 host: fill empty seats with bots
GET     /api/tables/{id}/deals                the table's deals (newest first)
GET     /api/tables/{id}/deals/{number}       a finished deal's full history and ledger
GET     /api/tables/{id}/ledger               the table's chip ledger and its audit
WS      /ws/tables/{id}?token=...             live views; also takes actions
GET     /  and  /t/{id}                       the lobby and table pages (HTML)
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
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import ValidationError

from fourcards import __version__
from fourcards.kind import rules as kind_rules
from fourcards.poker import rules as poker_rules
from fourcards.store import MAX_INTEGER, default_database_url
from fourcards.web.games import GAMES
from fourcards.web.hub import Hub
from fourcards.web.schemas import ActionIn, AddBots, CreateTable, SitDown, VoidIn
from fourcards.web.tables import ApiError, Connection, SeatInfo, Table, hash_token

__all__ = ["create_app"]

log = logging.getLogger(__name__)
_HERE = pathlib.Path(__file__).resolve().parent
TOKEN_HEADER = "X-Seat-Token"
#: Most characters in one websocket message.
WS_MAX_CHARS = 8192
#: A deal's number in a path: 1 .. the ``deals.number`` column's largest value.
DealNumber = Annotated[int, Path(ge=1, le=MAX_INTEGER, description="the deal's number at the table (1, 2, ...)")]


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


def create_app(database_url: str | None = None, *, bot_delay: float | None = None) -> FastAPI:
    """Build the web app.

    Args:
        database_url: SQLAlchemy URL; default env ``FOURCARDS_DATABASE_URL`` or
            a SQLite file in the user's data directory.
        bot_delay: seconds between bot moves (default env ``FOURCARDS_BOT_DELAY``
            or 0.7; tests pass 0: bots move before the request returns).

    Raises:
        ValueError: ``FOURCARDS_BOT_DELAY`` is not a number of seconds from 0 to 10.

    The database is migrated, interrupted deals are voided and refunded, and
    the tables are loaded when the app starts (its lifespan).
    """
    url = database_url or default_database_url()
    delay = bot_delay if bot_delay is not None else _env_delay()
    hub = Hub(url, bot_delay=delay)

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
    )
    app.state.hub = hub
    templates = Jinja2Templates(directory=str(_HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(_HERE / "static")), name="static")

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
        """Liveness: 200 with the number of tables and the database kind."""
        return {"status": "ok", "version": __version__, "tables": len(hub.tables),
                "database": hub.store.dialect if hub.store else None}

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
        """Every table's public summary (newest first)."""
        tables = sorted(hub.tables.values(), key=lambda t: str(t.created_at or ""), reverse=True)
        return {"tables": [t.summary() for t in tables]}

    @app.post("/api/tables", status_code=201, tags=["lobby"])
    async def create_table(body: CreateTable) -> dict[str, Any]:
        """Create a table; the host takes seat 1. Returns the host's secret seat token
        (keep it: it is the only way to act for that seat) and the join link."""
        table, host, token = await hub.create_table(body)
        return {"table": table.summary(), "seat": host.seat, "name": host.name, "token": token,
                "join_url": f"/t/{table.id}"}

    @app.get("/api/tables/{table_id}", tags=["tables"])
    async def get_table(table_id: str) -> dict[str, Any]:
        """One table's summary and its players (names, seats, balances)."""
        t = hub.get(table_id)
        return {**t.summary(), "seats": [p.public() for _, p in sorted(t.players.items())]}

    @app.post("/api/tables/{table_id}/seats", status_code=201, tags=["tables"])
    async def sit(table_id: str, body: SitDown) -> dict[str, Any]:
        """Take the next free seat by name. Returns the seat's secret token."""
        t = hub.get(table_id)
        seat, token = await t.sit(body.name)
        t.notify()
        return {"seat": seat.seat, "name": seat.name, "token": token, "balance": seat.balance}

    @app.get("/api/tables/{table_id}/state", tags=["tables"])
    async def state(table_id: str, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """The caller's view: its seat's observation and table data (no token: a spectator's)."""
        t = hub.get(table_id)
        return t.view(t.optional_seat(x_seat_token))

    @app.post("/api/tables/{table_id}/actions", tags=["tables"])
    async def act(table_id: str, body: ActionIn, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """A seat's action (see :class:`ActionIn`); returns the seat's new view."""
        t = hub.get(table_id)
        seat = t.authenticate(x_seat_token)
        await t.act(seat, body)
        return t.view(seat)

    @app.post("/api/tables/{table_id}/deal", tags=["host"])
    async def deal(table_id: str, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """Host: Four Card Poker - bots place their antes and the cards are dealt;
        Four of a Kind - start the next deal."""
        t = hub.get(table_id)
        seat = t.authenticate(x_seat_token)
        await t.start(seat)
        return t.view(seat)

    @app.post("/api/tables/{table_id}/void", tags=["host"])
    async def void(table_id: str, body: VoidIn, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """Host: void the deal in progress (the host's ruling): every wager / the pot is
        returned and the ruling is logged in the deal's history."""
        t = hub.get(table_id)
        seat = t.authenticate(x_seat_token)
        await t.void(seat, body.reason)
        return t.view(seat)

    @app.post("/api/tables/{table_id}/bots", tags=["host"])
    async def bots(table_id: str, body: AddBots, x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """Host: fill empty seats with bots."""
        t = hub.get(table_id)
        seat = t.authenticate(x_seat_token)
        await t.add_bots(seat, body.count, body.kind)
        return t.view(seat)

    @app.get("/api/tables/{table_id}/deals", tags=["history"])
    async def deals(table_id: str) -> dict[str, Any]:
        """The table's deals, newest first (status, seats, result; no history)."""
        t = hub.get(table_id)
        assert hub.store is not None
        rows = await hub.run_db(hub.store.list_deals, t.id)
        return {"deals": [{k: v for k, v in d.items() if k != "result" or d["status"] != "in_progress"}
                          for d in rows]}

    @app.get("/api/tables/{table_id}/deals/{number}", tags=["history"])
    async def deal_history(table_id: str, number: DealNumber,
                           x_seat_token: str | None = Header(None)) -> dict[str, Any]:
        """A finished deal's full history (every action and chance event) as the caller
        may see it (the engine's ``observation(player).history``: e.g. the cards of Four
        Card Poker seats that folded stay hidden from other seats) and its ledger
        entries. A deal in progress is refused (409): its cards are still secret."""
        t = hub.get(table_id)
        seat = t.optional_seat(x_seat_token)
        assert hub.store is not None
        d = await hub.run_db(hub.store.get_deal, t.id, number)
        if d is None:
            raise ApiError(404, f"table {table_id!r} has no deal {number}")
        if d["status"] == "in_progress":
            raise ApiError(409, f"deal {number} is in progress; its history is published when it ends")
        return t.publish(d, seat)

    @app.get("/api/tables/{table_id}/ledger", tags=["history"])
    async def ledger(table_id: str) -> dict[str, Any]:
        """The table's latest chip ledger entries and an audit (total 0, every
        transaction balanced, every finished deal's pot/bets emptied)."""
        t = hub.get(table_id)
        assert hub.store is not None
        entries = await hub.run_db(hub.store.ledger, t.id)
        check = await hub.run_db(hub.store.ledger_check, t.id)
        balances = await hub.run_db(hub.store.balances, t.id)
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
        table = hub.tables.get(table_id)
        if table is None:
            await websocket.send_text(json.dumps({"type": "error", "status": 404,
                                                  "detail": f"unknown table {table_id!r}"}))
            await websocket.close(code=4404)
            return
        seat: SeatInfo | None = None
        if token:
            seat = table.by_token.get(hash_token(token))
            if seat is None:
                await websocket.send_text(json.dumps({"type": "error", "status": 403,
                                                      "detail": "the seat token does not belong to any seat "
                                                                "at this table"}))
                await websocket.close(code=4403)
                return
        conn = Connection(websocket, seat)
        table.conns.add(conn)
        pump = asyncio.create_task(conn.pump())
        conn.push(json.dumps(table.view(seat)))
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

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def lobby_page(request: Request) -> HTMLResponse:
        return templates.TemplateResponse(request, "lobby.html", {
            "tables": [t.summary() for t in hub.tables.values()],
            "poker_presets": list(poker_rules.PRESETS), "kind_presets": list(kind_rules.PRESETS),
            "aces_up_tables": list(poker_rules.ACES_UP_TABLES),
            "ante_bonus_tables": list(poker_rules.ANTE_BONUS_TABLES),
            "version": __version__,
        })

    @app.get("/t/{table_id}", response_class=HTMLResponse, include_in_schema=False)
    async def table_page(request: Request, table_id: str) -> HTMLResponse:
        t = hub.tables.get(table_id)
        if t is None:
            return templates.TemplateResponse(request, "missing.html", {"table_id": table_id}, status_code=404)
        return templates.TemplateResponse(request, "table.html", {"table": t.summary(), "version": __version__})

    return app
