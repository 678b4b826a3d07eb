"""The websocket transport of ``fourcards serve``: frames by the ``websockets`` library, a message
of any size read, never kept whole.

``fourcards serve`` runs uvicorn's ``websockets-sansio`` implementation: the ``websockets``
library's sans-I/O protocol, whose frames are parsed and built by a small state machine with C
speedups for the masking (uvicorn's other choice, wsproto, parses and builds every frame in
pure Python: it cost a third of a server's time per message, docs/benchmarks.md issue 28).

docs/web.md promises that a websocket message over :data:`WS_MAX_CHARS` characters is
answered ``{"type": "error", "status": 413}`` and the connection stays open, whatever its
size. ``websockets`` reads each frame whole and closes the connection (1009) on a frame over
its ``max_size``; raising that limit only moves the problem and lets one client make the
server hold its message. :class:`BoundedServerProtocol` is ``websockets``' server protocol
with one change: a data frame that would take a message past ``WS_MAX_CHARS + 1`` bytes is
read and dropped as it arrives (the library parses its header and refuses it as too big; its
mask and payload are then skipped in pieces), and :class:`BoundedWSProtocol` - uvicorn's
protocol over it - hands the app a message of ``WS_MAX_CHARS + 1`` characters in its place
(bytes: empty). The app then sees a message longer than the limit and answers 413, in memory
bounded per connection.

It relies on uvicorn's ``WebSocketsSansIOProtocol`` (its ``conn``, its ``handle_*`` methods)
and on ``websockets``' ``Protocol.parse`` and ``Frame.parse``: both libraries are pinned
exactly in ``pyproject.toml``, and ``tests/web/test_issue19_web.py`` sends messages of 9 KiB
to 8 MiB to a real ``fourcards serve``.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import PayloadTooBig, ProtocolError
from websockets.frames import Frame, Opcode
from websockets.protocol import Protocol
from websockets.server import ServerProtocol

__all__ = ["WS_MAX_CHARS", "BoundedServerProtocol", "BoundedWSProtocol", "SERVER_WS_OPTIONS", "SEND_NOW"]

#: Most characters in one websocket message the app reads (a larger one is answered 413).
WS_MAX_CHARS = 8192
#: The ASGI scope extension holding :meth:`BoundedWSProtocol.send_now` (``fourcards serve`` only).
SEND_NOW = "fourcards.send_now"
#: Bytes of a dropped frame skipped at a time (what the connection's buffer holds at most).
_PIECE = 64 * 1024
#: What stands for a dropped frame's payload (compared by identity).
_DROPPED_MARK = bytearray()
#: The message the app gets for a text message over the limit.
_TOO_LARGE = "x" * (WS_MAX_CHARS + 1)
_DATA = (Opcode.TEXT, Opcode.BINARY, Opcode.CONT)


class _BoundedFrames(Protocol):
    """``websockets``' frame loop (``Protocol.parse``), with a frame that takes its message past
    the limit dropped as it arrives (its mask and payload skipped), its data the drop marker.
    Placed between ``ServerProtocol`` and ``Protocol``, so the server's handshake parsing runs
    first and then this loop."""

    _size = 0  # bytes of the current message so far (kept or dropped)
    _head = b""

    def _read_exact(self, n: int) -> Generator[None, None, bytes | bytearray]:
        data = yield from self.reader.read_exact(n)
        if not self._head:
            self._head = bytes(data[:1])  # the frame's first byte: FIN and opcode
        return data

    def _skip(self, n: int) -> Generator[None, None, None]:
        while n > 0:
            piece = min(n, _PIECE)
            yield from self.reader.read_exact(piece)
            n -= piece

    def parse(self) -> Generator[None]:
        """The frames of an open connection (see the class doc)."""
        try:
            while True:
                if (yield from self.reader.at_eof()):
                    raise EOFError("unexpected end of stream")
                self._head = b""
                room = max(WS_MAX_CHARS + 1 - self._size, 125)  # a control frame is at most 125 bytes
                try:
                    frame = yield from Frame.parse(self._read_exact, mask=True, max_size=room,
                                                   extensions=self.extensions)
                    size = len(frame.data)
                except PayloadTooBig as exc:
                    first = self._head[0] if self._head else 0
                    opcode = Opcode(first & 0x0F)
                    if opcode not in _DATA:  # a control frame over 125 bytes
                        raise ProtocolError("control frame too long") from None
                    size = int(exc.size or 0)
                    yield from self._skip(4 + size)  # the mask and the payload
                    frame = Frame(opcode, _DROPPED_MARK, fin=bool(first & 0x80))
                if frame.opcode in _DATA:
                    self._size += size
                    if self._size > WS_MAX_CHARS + 1 and frame.data is not _DROPPED_MARK:
                        frame = Frame(frame.opcode, _DROPPED_MARK, fin=frame.fin)
                    if frame.fin:
                        self._size = 0
                self.recv_frame(frame)
        except ProtocolError as exc:
            self.fail(1002, str(exc))
            self.parser_exc = exc
        except EOFError as exc:
            self.fail(1006, str(exc))
            self.parser_exc = exc
        except UnicodeDecodeError as exc:  # a close frame's reason
            self.fail(1007, f"{exc.reason} at position {exc.start}")
            self.parser_exc = exc
        except Exception as exc:  # pragma: no cover - websockets' own handling
            self.logger.error("parser failed", exc_info=True)
            self.fail(1011)
            self.parser_exc = exc
        yield
        raise AssertionError("parse() shouldn't step after error")


class BoundedServerProtocol(ServerProtocol, _BoundedFrames):
    """``websockets``' server protocol keeping at most about ``WS_MAX_CHARS + 1`` bytes of each
    message (see the module doc): a data frame past that is dropped, its payload a marker."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **{**kwargs, "max_size": None})


class BoundedWSProtocol(WebSocketsSansIOProtocol):
    """uvicorn's ``websockets-sansio`` protocol over :class:`BoundedServerProtocol`: a message with
    a dropped frame reaches the app as ``WS_MAX_CHARS + 1`` characters (see the module doc):
    ``uvicorn.Config(..., ws=BoundedWSProtocol)``.

    It also offers the app :func:`send_now` in the connection's scope (the ASGI extension
    :data:`SEND_NOW`): a text message already encoded as UTF-8, framed at once and written with
    the others of the same turn of the event loop (one ``send`` system call per connection and
    turn, not one per message)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conn = BoundedServerProtocol(extensions=[], max_size=None, logger=self.conn.logger)
        self._too_large = False
        self._flush_due = False

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][SEND_NOW] = self.send_now

    def send_now(self, data: bytes) -> bool:
        """Frame the UTF-8 text ``data`` now, if the connection is open and its buffer is not
        full; whether it was (else send it the ASGI way, which waits).

        The frame waits in ``websockets``' output (``conn.data_to_send()``) until the end of
        this turn of the event loop, when everything framed meanwhile goes out in one write.
        Every write of uvicorn's protocol (a message the ASGI way, a pong, a close) takes that
        output first, so frames leave in the order they were framed."""
        if not self.handshake_complete or self.close_sent or self.disconnected or not self.writable.is_set() \
                or self.initial_response is not None:
            return False
        try:
            self.conn.send_text(data)
        except Exception:  # closing meanwhile: the ASGI way says so
            return False
        if not self._flush_due:
            self._flush_due = True
            self.loop.call_soon(self._flush)
        return True

    def _flush(self) -> None:
        """Write what :meth:`send_now` framed this turn (unless it went out with another write)."""
        self._flush_due = False
        data = b"".join(self.conn.data_to_send())
        if data and not self.transport.is_closing():
            self.transport.write(data)

    def _mark(self, event: Frame) -> None:
        if event.data is _DROPPED_MARK:
            self._too_large = True

    def handle_text(self, event: Frame) -> None:
        self._too_large = False
        self._mark(event)
        super().handle_text(event)

    def handle_bytes(self, event: Frame) -> None:
        self._too_large = False
        self._mark(event)
        super().handle_bytes(event)

    def handle_cont(self, event: Frame) -> None:
        self._mark(event)
        if self._too_large:  # nothing more of it is kept
            event = Frame(event.opcode, b"", fin=event.fin)
        super().handle_cont(event)

    def send_receive_event_to_app(self) -> None:
        if self._too_large:
            self._too_large = False
            self.frames = [_TOO_LARGE.encode() if self.curr_msg_data_type == "text" else b""]
        super().send_receive_event_to_app()


#: The websocket options of ``fourcards serve``'s uvicorn: this protocol, no per-message
#: deflate (views are a few kB on a LAN, and compressing each one for every seat was the
#: server's largest single cost under load, docs/benchmarks.md).
SERVER_WS_OPTIONS: dict[str, Any] = {"ws": BoundedWSProtocol, "ws_per_message_deflate": False}
