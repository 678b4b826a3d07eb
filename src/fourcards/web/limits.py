"""Rate limits per client address (docs/web.md "Security"): how many tables, clubs and seats (a seat
taken, or a seat request waiting for the host) one address may create in a sliding window.

The client address is the connection's peer (``request.client``); behind a reverse proxy the
server reads ``X-Forwarded-For`` only from the proxies it trusts (``fourcards serve
--forwarded-allow-ips``: uvicorn's proxy-headers middleware), so a client cannot choose its own
address. An IPv6 address counts by its /64 network (one household's or one server's share). The
window is the chat's (:func:`fourcards.table.window.wait_for`); counts are kept per server
process, in memory, for at most :data:`ADDRESSES_KEPT` addresses per kind (the least recently
seen are forgotten first).
"""

from __future__ import annotations

import ipaddress
import math
import re
import time
from collections import OrderedDict
from typing import Any

from fastapi import Depends, Request

from fourcards.table import TableError
from fourcards.table.window import wait_for

__all__ = ["DEFAULT_LIMITS", "ADDRESSES_KEPT", "KINDS", "RateLimited", "RateLimits", "client_key", "rate_limit"]

#: What each limit counts: ``tables`` (``POST /api/tables``), ``clubs`` (``POST /api/clubs``),
#: ``seats`` (``POST /api/tables/{id}/seats``: a seat or a seat request; the host seating a person
#: without a phone), ``logins`` (signing in to the admin console, right or wrong).
KINDS = ("tables", "clubs", "seats", "logins")
#: The default limits: kind -> (how many, in how many seconds).
DEFAULT_LIMITS: dict[str, tuple[int, float]] = {"tables": (20, 600.0), "clubs": (10, 3600.0), "seats": (60, 600.0),
                                                "logins": (10, 600.0)}
#: Addresses remembered per kind.
ADDRESSES_KEPT = 10_000

_WORDS = {"tables": "tables created", "clubs": "clubs made", "seats": "seats taken or asked for",
          "logins": "attempts to sign in"}


class RateLimited(TableError):
    """429: over a rate limit; ``retry_after`` - whole seconds until one more is allowed (the
    ``Retry-After`` header)."""

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(429, detail)
        self.retry_after = retry_after


def client_key(host: str | None) -> str:
    """The key a client's address counts under: the address itself, an IPv6 one's /64 network."""
    try:
        address = ipaddress.ip_address(host or "")
    except ValueError:
        return host or "unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def _span(seconds: float) -> str:
    return f"{seconds / 3600:g} hours" if seconds >= 7200 else f"{seconds / 60:g} minutes" if seconds >= 120 \
        else f"{seconds:g} seconds"


class RateLimits:
    """The limits of one server process.

    Args:
        limits: kind -> ``(count, window seconds)``; a kind left out is not limited.
    """

    def __init__(self, limits: dict[str, tuple[int, float]] | None = None) -> None:
        self.limits = dict(DEFAULT_LIMITS if limits is None else limits)
        self._seen: dict[str, OrderedDict[str, tuple[float, ...]]] = {k: OrderedDict() for k in self.limits}

    @classmethod
    def parse(cls, text: str | None) -> RateLimits:
        """Limits from text: ``None`` or ``""`` the defaults; ``"off"`` none; else
        ``"tables=20/600,seats=60/600"`` - count/seconds per kind, the others at their defaults.

        Raises:
            ValueError: an unknown kind or a malformed entry (saying what is expected).
        """
        if text is None or not text.strip():
            return cls()
        if text.strip().lower() == "off":
            return cls({})
        limits = dict(DEFAULT_LIMITS)
        for item in re.split(r"[,\s]+", text.strip()):
            m = re.fullmatch(r"([a-z]+)=([0-9]{1,9})/([0-9]{1,9})", item)
            if m is None or m.group(1) not in KINDS or int(m.group(2)) < 1 or int(m.group(3)) < 1:
                raise ValueError(f"rate limit {item!r}: expected KIND=COUNT/SECONDS with KIND one of "
                                 f"{', '.join(KINDS)} (e.g. tables=20/600), or off")
            limits[m.group(1)] = (int(m.group(2)), float(m.group(3)))
        return cls(limits)

    def hit(self, kind: str, key: str, now: float) -> None:
        """Count one ``kind`` from ``key`` (:func:`client_key`) at ``now`` (monotonic seconds).

        Raises:
            RateLimited: over the limit (nothing is counted then).
        """
        if kind not in self.limits:
            return
        count, window = self.limits[kind]
        seen = self._seen[kind]
        times = seen.pop(key, ())
        wait = wait_for(times, count, window, now)
        if wait is not None:
            seen[key] = times
            raise RateLimited(f"too many {_WORDS[kind]} from your address: at most {count} in {_span(window)}; "
                              f"try again in {math.ceil(wait)} s", math.ceil(wait))
        seen[key] = (*(t for t in times if t > now - window), now)[-count:]
        while len(seen) > ADDRESSES_KEPT:
            seen.popitem(last=False)

    def describe(self) -> str:
        """The limits in words (``"20 tables per 10 minutes, ..."``; ``"none"``)."""
        return ", ".join(f"{c} {k} per {_span(w)}" for k, (c, w) in self.limits.items()) or "none"


def rate_limit(kind: str) -> Any:
    """A route dependency counting one ``kind`` from the request's client (the app's
    ``state.limits``): ``@router.post(..., dependencies=[rate_limit("tables")])``."""

    async def check(request: Request) -> None:
        limits: RateLimits | None = getattr(request.app.state, "limits", None)
        if limits is not None:
            limits.hit(kind, client_key(request.client.host if request.client else None), time.monotonic())

    return Depends(check)
