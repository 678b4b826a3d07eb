"""The websocket transport of ``fourcards serve``: a message of any size is read, never kept whole.

docs/web.md promises that a websocket message over :data:`WS_MAX_CHARS` characters is
answered ``{"type": "error", "status": 413}`` and the connection stays open. A server
whose transport refuses big messages itself (uvicorn's ``ws_max_size``) closes the
connection instead (1009); raising that limit only moves the problem and lets one
client make the server hold its message. :class:`BoundedWSProtocol` is uvicorn's
wsproto protocol (wsproto hands the payload over as it arrives, never a whole frame)
with one change: of each message it keeps the first ``WS_MAX_CHARS + 1`` characters
(bytes for a binary frame) and reads the rest without keeping it. The app then sees a
message longer than the limit and answers 413, whatever the size sent, in memory
bounded per connection.

It relies on uvicorn's ``WSProtocol.buffer`` (a ``WebsocketBuffer``): uvicorn is pinned
exactly in ``pyproject.toml``, and ``tests/web/test_issue19_web.py`` sends frames of
64 KiB to 8 MiB to a real ``fourcards serve``.
"""

from __future__ import annotations

from io import BytesIO, StringIO
from typing import Any

from uvicorn.protocols.websockets.wsproto_impl import WebsocketBuffer, WSProtocol
from wsproto import events

__all__ = ["WS_MAX_CHARS", "BoundedWSProtocol", "SERVER_WS_OPTIONS"]

#: Most characters in one websocket message the app reads (a larger one is answered 413).
WS_MAX_CHARS = 8192


class _FirstPart(WebsocketBuffer):
    """A message buffer that keeps the first ``max_length`` characters (bytes) of a message
    and drops the rest as it arrives - never raising uvicorn's "too large" close."""

    def extend(self, event: events.TextMessage | events.BytesMessage) -> None:
        if self.value is None:
            self.value = StringIO() if isinstance(event, events.TextMessage) else BytesIO()
        room = self.max_length - self.length
        if room > 0:
            part = event.data[:room]
            self.value.write(part)  # type: ignore[arg-type]
            self.length += len(part)


class BoundedWSProtocol(WSProtocol):
    """uvicorn's wsproto websocket protocol keeping at most ``WS_MAX_CHARS + 1`` characters of
    each message (see the module doc): ``uvicorn.Config(..., ws=BoundedWSProtocol)``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.buffer = _FirstPart(WS_MAX_CHARS + 1)


#: The websocket options of ``fourcards serve``'s uvicorn: this protocol, no per-message
#: deflate (views are a few kB on a LAN, and compressing each one for every seat was the
#: server's largest single cost under load, docs/benchmarks.md).
SERVER_WS_OPTIONS: dict[str, Any] = {"ws": BoundedWSProtocol, "ws_per_message_deflate": False}
