"""Each request's context: its id, the client's address (from trusted proxies), and its status counted.

:class:`RequestContext` wraps the whole app (outside Starlette's error handling, so a 500 gets it
too; :func:`install`):

* **the client address** - uvicorn's proxy-headers middleware runs here, inside the app, with the
  trusted proxies (``fourcards serve --forwarded-allow-ips``): only a connection from one of them
  gives the client's address in ``X-Forwarded-For`` (and ``https`` in ``X-Forwarded-Proto``);
* **the request id** - ``X-Request-ID`` from a trusted proxy (1-64 letters, digits, ``.``, ``_``,
  ``:`` or ``-``), else a new random one (32 hex digits); it is on every log line the request
  writes (:mod:`fourcards.web.logs`) and on its response (``X-Request-ID``; a websocket's
  handshake too);
* **the status** of every HTTP response, counted by class (:mod:`fourcards.web.metrics`).

The id and the client address are context variables (:data:`REQUEST_ID`, :data:`CLIENT`): each
request and each websocket runs in a task of its own, so they hold for everything it logs.
"""

from __future__ import annotations

import re
import uuid
from contextvars import ContextVar
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware, _TrustedHosts

from fourcards.web import metrics

__all__ = ["REQUEST_ID", "CLIENT", "HEADER", "RequestContext", "install", "request_id_of"]

#: The id of the request (or websocket) being served; ``None`` outside one.
REQUEST_ID: ContextVar[str | None] = ContextVar("fourcards_request_id", default=None)
#: The client's address of the request being served (from trusted proxies); ``None`` outside one.
CLIENT: ContextVar[str | None] = ContextVar("fourcards_client", default=None)
#: The request id's header.
HEADER = "X-Request-ID"
_HEADER = HEADER.lower().encode()
_GOOD_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")


def request_id_of(scope: Scope) -> str | None:
    """The id :class:`RequestContext` gave the request of ``scope``."""
    return scope.get("fourcards.request_id")


class RequestContext:
    """ASGI middleware (see the module doc).

    Args:
        app: the app it wraps.
        forwarded_allow_ips: the trusted proxies (comma-separated addresses or networks, ``*``:
            any; ``None``: none - ``X-Forwarded-*`` and ``X-Request-ID`` are ignored).
    """

    def __init__(self, app: ASGIApp, forwarded_allow_ips: str | None = None) -> None:
        self.app = app
        self.trusted = _TrustedHosts(forwarded_allow_ips) if forwarded_allow_ips else None
        inner: Any = self._resolved  # uvicorn's ASGI types are narrower than Starlette's
        self.inner: Any = ProxyHeadersMiddleware(inner, forwarded_allow_ips) if forwarded_allow_ips else inner

    def _request_id(self, scope: Scope) -> str:
        peer = scope.get("client")
        if self.trusted is not None and peer and peer[0] in self.trusted:
            given = next((v for k, v in scope.get("headers", ()) if k == _HEADER), None)
            if given is not None:
                text = given.decode("latin-1").strip()
                if _GOOD_ID.fullmatch(text):
                    return text
        return uuid.uuid4().hex

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        rid = self._request_id(scope)
        scope["fourcards.request_id"] = rid
        REQUEST_ID.set(rid)  # this request's task (and the log lines uvicorn writes for it)
        header = (_HEADER, rid.encode())

        async def send_with_id(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.accept"):
                if message["type"] == "http.response.start":
                    metrics.response(int(message["status"]))
                message = {**message, "headers": [*message.get("headers", ()), header]}
            await send(message)

        await self.inner(scope, receive, send_with_id)

    async def _resolved(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        CLIENT.set(client[0] if client else None)
        await self.app(scope, receive, send)


def install(app: Any, forwarded_allow_ips: str | None) -> None:
    """Wrap the Starlette app ``app``'s whole middleware stack - its error handling included - in
    :class:`RequestContext` (``add_middleware`` would put it inside the error handling)."""
    build = app.build_middleware_stack
    app.build_middleware_stack = lambda: RequestContext(build(), forwarded_allow_ips)
