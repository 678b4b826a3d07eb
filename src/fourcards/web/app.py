"""The FastAPI application: REST for lobby, tables and histories; websockets for live tables.

:func:`create_app` builds the app over one database URL from the routers of
:mod:`fourcards.web.routes`. Endpoints (all JSON; see docs/web.md and the OpenAPI page at
``/docs``):

======  ====================================  ==========================================
GET     /api/health                           200 ``{"status": "ok", "version", ...}`` (alive)
GET     /api/ready                            200 when the database answers at the current schema, else 503
GET     /metrics                              Prometheus metrics (monitoring only: docs/deploy.md)
GET     /api/presets                          rules presets, named pay tables, bot kinds
GET     /api/tables                           the lobby: public tables' summaries
POST    /api/tables                           create a table (the host takes seat 1) -> token
POST    /api/tables/mine                      the tables this browser holds seat tokens for
GET     /api/tables/{id}                      one table's summary and players
POST    /api/tables/{id}/seats                take a seat by name -> seat token (or a request)
POST    /api/tables/{id}/seats/{seat}/...     sit-out, back, leave, new-device
POST    /api/tables/{id}/settings|close       host: public, turn clock, seat approval; close
POST    /api/tables/{id}/pause|resume         host: pause the table, resume it
POST    /api/tables/{id}/top-ups              ask for more chips (the host approves)
POST    /api/tables/{id}/requests/{rid}       host: approve or turn down a request
GET     /api/tables/{id}/state                the caller's view (X-Seat-Token; none: spectator)
POST    /api/tables/{id}/actions              a seat's action (X-Seat-Token; ``action_id``)
POST    /api/tables/{id}/deal                 host: deal / start the next deal
POST    /api/tables/{id}/cards                host: real cards dealt or turned ("dealing": "table")
POST    /api/tables/{id}/cards/take-back      host: take back the last card entered
POST    /api/tables/{id}/seats/{seat}/actions host: a player's move, at a table of real cards
POST    /api/tables/{id}/void                 host: void the deal in progress (refund)
POST    /api/tables/{id}/bots                 host: fill empty seats with bots
POST    /api/tables/{id}/seats/without-phone  host: seat a person without a phone (real cards)
POST    /api/tables/{id}/chat                 a seat's chat message or reaction
POST    /api/tables/{id}/seats/{seat}/mute    host: mute a seat's chat (or not)
GET     /api/tables/{id}/deals                the table's deals (newest first)
GET     /api/tables/{id}/deals/{number}       a finished deal's full history and ledger
GET     /api/tables/{id}/deals/{number}/replay  the deal step by step
GET     /api/tables/{id}/settlement[.csv]     the night's settlement (JSON, CSV; CSV ends with who pays whom)
GET     /api/tables/{id}/settle-up            who pays whom (the fewest transfers, at the chip value)
POST    /api/tables/{id}/settle-up            host: the chip value and who holds the bank
GET     /api/tables/{id}/ledger               the table's chip ledger and its audit
GET     /api/tables/{id}/hands.jsonl|.txt     every finished deal: JSON Lines, text (as the caller sees)
GET|POST /api/tables/{id}/club                the club the table counts for; host: join one
POST    /api/clubs                            make a club -> the owner's token
GET     /api/clubs/{id}                       a club: members, nights, links
GET     /api/clubs/{id}/standings[.csv]       standings across nights and each night's results
POST    /api/clubs/{id}/members|settings      owner: list members, rename
DELETE  /api/clubs/{id}/tables/{table}        owner: a table no longer counts for the club
GET     /api/clubs/{id}/hands.jsonl|.txt      every finished deal of the club's tables
POST    /api/poker/settle                     the payout checker
WS      /ws/tables/{id}                       live views; also takes actions (the seat token in
                                              Sec-WebSocket-Protocol: docs/web.md "Security")
GET     /  and  /t/{id}                       the lobby and table pages (HTML)
GET     /t/{id}/history                       the table's deals, replays and settlement (HTML)
GET     /t/{id}/qr.svg                        a QR code of the table's invitation link
GET     /clubs/new  and  /c/{id}              make a club; a club's page (HTML)
GET     /sw.js, /offline                      the service worker (the app shell) and its offline page
GET     /admin ...  /api/admin/...            the admin console (operators' accounts: docs/deploy.md)
======  ====================================  ==========================================

Errors are ``{"detail": "..."}`` with a 4xx status; a refused request changes nothing. Every
response carries the security headers, a body over 64 KiB is refused with 413, and creating
tables, clubs and seats (and signing in to the console) is rate-limited per client address (429
with ``Retry-After``): :mod:`fourcards.web.security`, :mod:`fourcards.web.limits`. Every response
carries ``X-Request-ID`` (:mod:`fourcards.web.context`), the id on its log lines.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from fourcards import __version__
from fourcards.store import default_database_url
from fourcards.table import TableError
from fourcards.table.players import agent_bots, kind_bot_names, poker_bot_names
from fourcards.web import assets, context, metrics
from fourcards.web.deps import validation_detail
from fourcards.web.hub import Hub
from fourcards.web.limits import RateLimits
from fourcards.web.retention import Retention
from fourcards.web.routes import (
    admin_api,
    admin_pages,
    chat,
    clubs,
    hands,
    history,
    host,
    live,
    lobby,
    ops,
    pages,
    settle,
    tables,
)
from fourcards.web.security import BodyLimit, SecurityHeaders, normal_origin, parse_origins
from fourcards.web.settings import ServeSettings, load, retention_seconds
from fourcards.web.warmup import warm_up

__all__ = ["create_app"]

_STATIC = pages.WEB_DIR / "static"


def create_app(database_url: str | None = None, *, bot_delay: float | None = None,
               public_url: str | None = None, allowed_origins: str | None = None,
               rate_limits: str | RateLimits | None = None, forwarded_allow_ips: str | None = None,
               retention: str | None = None, retention_every_s: float | None = None,
               metrics_allow_ips: str | None = None, metrics_token: str | None = None,
               settings: ServeSettings | None = None) -> FastAPI:
    """Build the web app.

    Every argument left ``None`` comes from ``settings``, by default read from the environment
    and ``FOURCARDS_CONFIG``'s file (:func:`fourcards.web.settings.load`: how ``fourcards serve
    --workers N`` hands its settings to its worker processes), else its default.

    Args:
        database_url: SQLAlchemy URL; default env ``FOURCARDS_DATABASE_URL`` or a SQLite file in
            the user's data directory.
        bot_delay: seconds between bot moves (default env ``FOURCARDS_BOT_DELAY`` or 0.7; tests
            pass 0: bots move before the request returns).
        public_url: the address people reach the server at (invitation links, QR codes; its
            origin may open websockets); default env ``FOURCARDS_PUBLIC_URL``, else none (pages
            use their own address).
        allowed_origins: other sites' origins whose pages may open this server's websockets
            (comma-separated ``https://host[:port]``); default env ``FOURCARDS_ALLOWED_ORIGINS``,
            else none (:func:`fourcards.web.security.origin_allowed`).
        rate_limits: the limits per client address (:meth:`fourcards.web.limits.RateLimits.parse`:
            ``"off"``, ``"tables=20/600,..."``); default env ``FOURCARDS_RATE_LIMITS``, else
            :data:`fourcards.web.limits.DEFAULT_LIMITS`.
        forwarded_allow_ips: the trusted proxies (:mod:`fourcards.web.context`: the client's
            address and ``X-Request-ID`` from them only); default env ``FOURCARDS_FORWARDED_ALLOW_IPS``.
        retention: prune closed tables last written longer ago (``"90d"``; ``"off"``/``None``: never;
            :mod:`fourcards.web.retention`), every ``retention_every_s`` seconds (default an hour).
        metrics_allow_ips, metrics_token: who may read ``/metrics`` besides loopback and the trusted
            proxies (:class:`fourcards.web.routes.ops.MetricsAccess`).
        settings: the settings the arguments left out come from.

    Raises:
        fourcards.web.settings.SettingsError: a setting from the environment or the file that
            cannot be used (a ``ValueError``); ValueError: malformed allowed origins or rate limits.

    When the app starts (its lifespan) it warms up (:mod:`fourcards.web.warmup`: a throwaway
    table of each game played in memory, in a worker thread, so the first request costs what
    later ones do), then opens and migrates the database and gives running turns their time
    back after downtime (so none of it is spent on the warm-up); tables are read from the database as
    they are needed. Any number of apps may share one database (:mod:`fourcards.web.hub`):
    a deal in progress goes on through any of them.
    """
    cfg = settings if settings is not None else load()
    url = database_url or cfg.database_url or default_database_url()
    delay = bot_delay if bot_delay is not None else cfg.bot_delay
    hub = Hub(url, bot_delay=delay, public_url=public_url or cfg.public_url or None)
    origins = parse_origins(allowed_origins if allowed_origins is not None else cfg.allowed_origins)
    if hub.public_url and (own := normal_origin(hub.public_url)) is not None:
        origins |= {own}
    limits = rate_limits if isinstance(rate_limits, RateLimits) else RateLimits.parse(
        rate_limits if rate_limits is not None else cfg.rate_limits)
    proxies = forwarded_allow_ips if forwarded_allow_ips is not None else cfg.forwarded_allow_ips
    keep = retention_seconds(retention if retention is not None else cfg.retention)
    token = metrics_token if metrics_token is not None else (
        cfg.metrics_token.get_secret_value() if cfg.metrics_token is not None else None)
    pruning = None if keep is None else Retention(hub, keep, **(
        {} if retention_every_s is None else {"every_s": retention_every_s, "first_after_s": retention_every_s}))

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # warm up first (off the event loop; web/warmup.py), then open the database and take the
        # tables up: a turn given its time back after downtime (TP-6) does not spend it on the warm-up
        kind_bot_names.cache_clear()  # plug-in bots and agent files are read when a server starts (the
        poker_bot_names.cache_clear()  # warm-up reads them)
        agent_bots.cache_clear()
        await asyncio.to_thread(warm_up)
        await hub.start()
        if pruning is not None:
            hub.spawn(pruning.loop())
        try:
            yield
        finally:
            readiness.close()
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
    app.state.allowed_origins = frozenset(origins)
    app.state.limits = limits
    app.state.readiness = readiness = ops.Readiness(hub)
    app.state.metrics_access = ops.MetricsAccess(metrics_allow_ips if metrics_allow_ips is not None
                                                 else cfg.metrics_allow_ips, proxies, token)
    app.state.database_figures = metrics.database_figures(hub.require_database)
    static = assets.install(app, _STATIC)
    app.state.static = static
    pages.templates.env.globals["static_url"] = static.url
    app.add_middleware(BodyLimit)
    app.add_middleware(SecurityHeaders)  # every response, the 413s included
    context.install(app, proxies)  # around it all: request ids, the client's address, statuses counted

    @app.exception_handler(TableError)
    async def _table_error(_request: Request, exc: TableError) -> JSONResponse:
        retry = getattr(exc, "retry_after", None)
        return JSONResponse({"detail": exc.detail}, status_code=exc.status,
                            headers={"Retry-After": str(retry)} if retry is not None else None)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        status, detail = validation_detail(exc)
        return JSONResponse({"detail": detail}, status_code=status)

    for module in (lobby, ops, tables, host, chat, history, settle, hands, clubs, live, admin_api, admin_pages, pages):
        app.include_router(module.router)
    return app
