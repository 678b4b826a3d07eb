"""What every response and connection of the web app gets on an open network (docs/web.md "Security").

* :class:`SecurityHeaders` - on every HTTP response: a Content-Security-Policy with no inline
  script (:data:`CSP`: scripts come from this server's files only; ``/docs`` adds a nonce for
  Swagger UI's one inline script), ``frame-ancestors 'none'`` and ``X-Frame-Options: DENY`` (no
  page is framed by another site: the host's buttons cannot be clickjacked),
  ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer``.
* :class:`BodyLimit` - a request body over :data:`MAX_BODY_BYTES` is answered 413 before it is
  read: at once when ``Content-Length`` says so, else (a chunked body) as soon as the bytes
  read pass the limit. Websocket messages have their own limit (:mod:`fourcards.web.transport`).
* :func:`origin_allowed` - a websocket from a browser page of another site is refused: its
  ``Origin`` must be the server's own address (the ``Host`` it was asked for), the public URL's
  or one of the configured origins (``fourcards serve --allowed-origins``).
* :class:`RedactTokens` - a logging filter for uvicorn's loggers: a ``token=`` in a logged
  request line is replaced by ``token=[redacted]`` (pages never put a token in a URL; an old
  page's ``?token=`` during the deprecation window is accepted, never logged).
"""

from __future__ import annotations

import copy
import logging
import re
import secrets
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["MAX_BODY_BYTES", "CSP", "SECURITY_HEADERS", "SecurityHeaders", "BodyLimit", "nonce_csp", "new_nonce",
           "normal_origin", "origin_allowed", "parse_origins", "RedactTokens", "log_config"]

#: Bytes a request body may have (the largest a client sends is ``POST /api/tables/mine`` with 200
#: tokens, about 25 KB).
MAX_BODY_BYTES = 64 * 1024

#: The pages' Content-Security-Policy: scripts only from this server's files (no inline script, no
#: eval); styles from its stylesheet, inline ``style`` attributes allowed (the odds bars' widths);
#: images from here and ``data:`` (Swagger UI's icons); connections (REST, the websocket) to this
#: server; no plug-ins; never framed.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; manifest-src 'self'; worker-src 'self'; object-src 'none'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")

#: Headers every HTTP response carries (a response that sets its own CSP keeps it).
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)


def new_nonce() -> str:
    """A fresh CSP nonce (22 URL-safe characters)."""
    return secrets.token_urlsafe(16)


def nonce_csp(nonce: str) -> str:
    """:data:`CSP` allowing, besides this server's script files, the inline scripts carrying ``nonce``."""
    return CSP.replace("script-src 'self'", f"script-src 'self' 'nonce-{nonce}'")


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP response (see the module doc)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in SECURITY_HEADERS if k not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _too_large(limit: int) -> str:
    return f"request body too large: at most {limit:,} bytes"


class BodyLimit:
    """ASGI middleware: a request body over ``max_bytes`` is answered ``413 {"detail": ...}`` -
    before anything is read when its ``Content-Length`` says so (or is not a number: 400), else
    when the bytes read pass it (a chunked body: the app's read raises a 413
    :class:`~starlette.exceptions.HTTPException`, answered as such)."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def _answer(self, send: Send, status: int, detail: str) -> None:
        body = ('{"detail": "' + detail + '"}').encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = [v for k, v in scope.get("headers", ()) if k.lower() == b"content-length"]
        if declared:
            text = declared[0].decode("latin-1").strip()
            if not text.isdigit():
                await self._answer(send, 400, "malformed Content-Length")
                return
            if int(text) > self.max_bytes:
                await self._answer(send, 413, _too_large(self.max_bytes))
                return
        read = 0

        async def limited() -> Message:
            nonlocal read
            message = await receive()
            if message["type"] == "http.request":
                read += len(message.get("body", b""))
                if read > self.max_bytes:
                    raise HTTPException(413, _too_large(self.max_bytes))
            return message

        started = False

        async def watch(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited, watch)
        except HTTPException as exc:  # raised outside the app's own handlers (a route that streams the body)
            if exc.status_code != 413 or started:
                raise
            await self._answer(send, 413, _too_large(self.max_bytes))


# ------------------------------------------------------------------ origins

_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def normal_origin(url: str) -> str | None:
    """``scheme://host[:port]`` of ``url`` in lower case, the scheme's default port left out
    (``None``: not an http(s) address)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if scheme not in ("http", "https") or not host:
        return None
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}" + (f":{port}" if port is not None and port != _DEFAULT_PORTS[scheme] else "")


def parse_origins(text: str | None) -> frozenset[str]:
    """Origins given as text (comma- or space-separated ``http(s)://host[:port]`` addresses).

    Raises:
        ValueError: an entry that is not an http(s) origin.
    """
    out = set()
    for item in re.split(r"[,\s]+", text or ""):
        if not item:
            continue
        origin = normal_origin(item)
        if origin is None or urlsplit(item).path not in ("", "/"):
            raise ValueError(f"{item!r} is not an origin such as https://cards.example.org")
        out.add(origin)
    return frozenset(out)


def origin_allowed(origin: str | None, host: str | None, allowed: Iterable[str]) -> bool:
    """Whether a websocket whose handshake says ``Origin: origin`` may connect: no ``Origin`` (not
    a browser page), the server's own address (``Host``, over http or https), or one of
    ``allowed`` (the public URL's origin and the configured ones, :func:`normal_origin` form)."""
    if origin is None:
        return True
    given = normal_origin(origin)
    if given is None:
        return False
    own = {o for s in ("http", "https") if host and (o := normal_origin(f"{s}://{host}")) is not None}
    return given in own or given in set(allowed)


# ------------------------------------------------------------------ logs

_TOKEN_IN_TEXT = re.compile(r"(token=)[^&\s\"']+", re.IGNORECASE)


def _redact(value: Any) -> Any:
    return _TOKEN_IN_TEXT.sub(r"\1[redacted]", value) if isinstance(value, str) else value


class RedactTokens(logging.Filter):
    """A logging filter: ``token=<anything>`` in a record's message or arguments becomes
    ``token=[redacted]`` (uvicorn's access lines and websocket lines carry the request's path and
    query)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Redact the record in place; keep it."""
        record.msg = _redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redact(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redact(v) for k, v in record.args.items()}
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration with :class:`RedactTokens` on its handlers (every record of
    ``uvicorn.error`` - websocket requests - and ``uvicorn.access`` - HTTP ones - passes one):
    ``uvicorn.Config(log_config=...)``, applied in every worker process."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"redact_tokens": {"()": "fourcards.web.security.RedactTokens"}}
    for handler in config["handlers"].values():
        handler["filters"] = ["redact_tokens"]
    return config
