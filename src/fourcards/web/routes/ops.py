"""What monitoring asks: readiness (``GET /api/ready``) and the Prometheus metrics (``GET /metrics``).

``/api/health`` (the lobby's router) says the process is alive; ``/api/ready`` says it can serve:
**200** when the database answers and its schema is at this version's newest revision, else
**503** saying which - what a load balancer and a container's health check ask. One check at a
time, in a thread of its own (never behind the table writes or the bots), its answer kept
:data:`READY_CACHE_S`; a database that takes longer than :data:`READY_TIMEOUT_S` is not ready.

``/metrics`` (:mod:`fourcards.web.metrics`) is read by monitoring only (:class:`MetricsAccess`):
from loopback, the trusted proxies' own addresses (``--forwarded-allow-ips``, unless ``*``) and the
addresses of ``--metrics-allow-ips`` - the client's address as the trusted proxies give it, so a
browser on the internet behind the proxy is refused - or anywhere with ``Authorization: Bearer``
and ``--metrics-token``. Others get 403. No series holds a table's id or a person's name.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from fourcards import __version__
from fourcards.store import Store
from fourcards.web import metrics
from fourcards.web.deps import HubDep
from fourcards.web.hub import Hub

__all__ = ["router", "Readiness", "MetricsAccess", "READY_CACHE_S", "READY_TIMEOUT_S"]

router = APIRouter()

#: Seconds an answer of ``/api/ready`` is kept (balancers ask every second or two).
READY_CACHE_S = 1.0
#: Seconds the database may take to answer the readiness check.
READY_TIMEOUT_S = 1.5


@functools.cache
def _head() -> str:
    from fourcards.store.lifecycle import head_revision

    return head_revision()


class Readiness:
    """The answers of ``/api/ready`` for one hub (see the module doc)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._at = -READY_CACHE_S
        self._answer: tuple[bool, str] = (False, "starting")
        self._check: asyncio.Future[tuple[bool, str]] | None = None
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fourcards-ready")

    def _ask(self) -> tuple[bool, str]:
        """(Thread) Whether the database answers and its schema is current, and why not."""
        from fourcards.store.lifecycle import current_revision

        store = self.hub.store
        if store is None:
            return False, "the server is starting"
        if not isinstance(store, Store):  # tables in memory (tests): nothing to migrate
            return True, "the tables are kept in memory"
        try:
            current = current_revision(store.engine)
        except Exception as exc:
            inner = getattr(exc, "orig", None) or exc  # the driver's own words, first line
            words = (str(inner).strip().splitlines() or [type(inner).__name__])[0][:200]
            return False, f"the database does not answer ({words})"
        if current != _head():
            return False, (f"the database's schema is at revision {current or 'none'}, this version needs {_head()}: "
                           "run `fourcards db upgrade`")
        return True, "the database answers and its schema is current"

    def close(self) -> None:
        """Let the check's thread go (the app stops)."""
        self._pool.shutdown(wait=False, cancel_futures=True)

    async def answer(self) -> tuple[bool, str]:
        """Ready or not, and why (cached :data:`READY_CACHE_S`)."""
        if time.monotonic() - self._at < READY_CACHE_S:
            return self._answer
        if self._check is None or self._check.done():
            self._check = asyncio.get_running_loop().run_in_executor(self._pool, self._ask)
        try:
            answer = await asyncio.wait_for(asyncio.shield(self._check), READY_TIMEOUT_S)
        except TimeoutError:
            answer = (False, f"the database did not answer within {READY_TIMEOUT_S:g} s")
        self._answer, self._at = answer, time.monotonic()
        return answer


@router.get("/api/ready", tags=["meta"])
async def ready(request: Request, hub: HubDep) -> JSONResponse:
    """Readiness: ``200 {"status": "ready", ...}`` when the database answers and its schema is current,
    else ``503 {"status": "not ready", "detail": why}``; with the ``version``."""
    readiness: Readiness = request.app.state.readiness
    ok, detail = await readiness.answer()
    return JSONResponse({"status": "ready" if ok else "not ready", "detail": detail, "version": __version__},
                        status_code=200 if ok else 503, headers={"Cache-Control": "no-store"})


class MetricsAccess:
    """Who may read ``/metrics`` (see the module doc).

    Args:
        allow_ips: ``--metrics-allow-ips`` (comma-separated addresses or networks; ``None``: none).
        trusted_proxies: ``--forwarded-allow-ips`` (``*`` adds nobody).
        token: ``--metrics-token`` (``None``: no token opens it).
    """

    LOOPBACK = ("127.0.0.0/8", "::1/128")

    def __init__(self, allow_ips: str | None = None, trusted_proxies: str | None = None,
                 token: str | None = None) -> None:
        names = [*self.LOOPBACK, *(allow_ips or "").split(","),
                 *([] if trusted_proxies in (None, "*") else (trusted_proxies or "").split(","))]
        self.networks = [ipaddress.ip_network(n.strip(), strict=False) for n in names if n.strip() and n.strip() != "*"]
        self.token = token

    def _allowed(self, text: str) -> bool:
        try:
            address = ipaddress.ip_address(text.strip().strip("[]"))
        except ValueError:
            return False
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return any(address in n for n in self.networks)

    def allows(self, client: str | None, authorization: str | None, forwarded_for: str | None = None) -> bool:
        """Whether a request from ``client`` (its address, from trusted proxies) with ``authorization``
        (the header) may read. A request a proxy passed on (``forwarded_for``: its ``X-Forwarded-For``)
        is judged by every address it names too: a proxy on this machine that is not among the trusted
        ones cannot open the metrics to whoever it forwards for."""
        if self.token and authorization:
            scheme, _, given = authorization.partition(" ")
            if scheme.lower() == "bearer" and secrets.compare_digest(given.strip().encode(), self.token.encode()):
                return True
        named = [] if forwarded_for is None else [x for x in forwarded_for.split(",") if x.strip()]
        return self._allowed(client or "") and all(self._allowed(x) for x in named)


@router.get("/metrics", include_in_schema=False)
async def prometheus_metrics(request: Request) -> Response:
    """The Prometheus metrics (:mod:`fourcards.web.metrics`), to monitoring only (403 for others)."""
    access: MetricsAccess = request.app.state.metrics_access
    if not access.allows(request.client.host if request.client else None, request.headers.get("authorization"),
                         request.headers.get("x-forwarded-for")):
        return JSONResponse({"detail": "the metrics are read by monitoring only: from this machine, the trusted "
                                       "proxies or the addresses of --metrics-allow-ips, or with the metrics token"},
                            status_code=403)
    database: Any = request.app.state.database_figures
    body = await asyncio.to_thread(metrics.exposition, database)
    return Response(body, media_type=metrics.CONTENT_TYPE_LATEST, headers={"Cache-Control": "no-store"})
