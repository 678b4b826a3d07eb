"""The live table: one websocket per browser, views pushed after every change, moves taken.

The seat token never rides in the URL (a URL is written to access logs, a proxy's included): a
page offers the subprotocols ``fourcards`` and ``fourcards.token.<token>``
(``Sec-WebSocket-Protocol``; :func:`subprotocols`) and the server answers ``fourcards``. The old
form ``/ws/tables/{id}?token=...`` is deprecated: accepted (and never logged) until
:data:`QUERY_TOKEN_UNTIL`, refused from that day on. A browser page of another site (its
``Origin``) is refused before the handshake (:func:`fourcards.web.security.origin_allowed`).
"""

from __future__ import annotations

import asyncio
import datetime
import json
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from fourcards.table import TableError
from fourcards.web.commands import run
from fourcards.web.deps import get_hub, validation_detail, viewer_of
from fourcards.web.hub import Hub
from fourcards.web.publisher import Connection, dumps
from fourcards.web.schemas import ActionId, ActionIn, ChatIn, Intent, MuteIn, VoidIn
from fourcards.web.schemas import AddBots as AddBotsIn
from fourcards.web.security import origin_allowed
from fourcards.web.tokens import hash_token
from fourcards.web.transport import WS_MAX_CHARS

__all__ = ["router", "WS_MAX_CHARS", "SUBPROTOCOL", "TOKEN_PROTOCOL", "QUERY_TOKEN_UNTIL", "subprotocols"]

router = APIRouter()

#: The websocket's subprotocol (offered by pages, answered by the server).
SUBPROTOCOL = "fourcards"
#: A seat token is offered as the subprotocol ``fourcards.token.<token>`` (a token is URL-safe
#: base64: every character is allowed in a subprotocol name).
TOKEN_PROTOCOL = "fourcards.token."
#: The deprecated ``?token=`` is accepted before this day (UTC) and refused from it on.
QUERY_TOKEN_UNTIL = datetime.date(2027, 3, 1)


def subprotocols(token: str | None) -> list[str]:
    """What a client offers in ``Sec-WebSocket-Protocol``: ``fourcards``, and for a seat
    ``fourcards.token.<token>`` (e.g. ``websockets.connect(url, subprotocols=subprotocols(t))``)."""
    return [SUBPROTOCOL] + ([TOKEN_PROTOCOL + token] if token else [])


def _today() -> datetime.date:
    return datetime.datetime.now(datetime.UTC).date()


async def _refuse(websocket: WebSocket, status: int, detail: str, code: int) -> None:
    await websocket.send_text(dumps({"type": "error", "status": status, "detail": detail}))
    await websocket.close(code=code)

#: The ops a message may have.
OPS = ("action", "deal", "void", "bots", "pause", "resume", "chat", "mute", "ping")
#: The fields each op takes besides ``op`` and ``id``; any other is refused with 422 (a ping
#: takes anything: it is answered before it is read further).
OP_FIELDS: dict[str, tuple[str, ...]] = {
    "action": ("action", "action_id"), "deal": ("action_id",), "void": ("reason", "action_id"),
    "bots": ("count", "kind"), "pause": (), "resume": (), "chat": ("text", "reaction", "action_id"),
    "mute": ("seat", "muted"),
}


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _parse(raw: str) -> Any:
    """A message's JSON: orjson's strict parser for what it reads (every well-formed message), the
    standard library's for the rest, whose errors name the problem (``NaN is not valid JSON``) and
    which reads what orjson refuses but a message's validation should answer (``1e400``, a number
    past 64 bits: a 422 naming the field)."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return json.loads(raw, parse_constant=_refuse_constant)


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """Live table: the server pushes ``{"type": "state", ...}`` (this seat's view) after every
    change. The client may send ``{"op": "action", "action": {...}, "id": n}`` (the action may
    carry an ``action_id``: docs/rules.md TP-8), ``{"op": "deal"}``, ``{"op": "void", "reason":
    ...}``, ``{"op": "bots", "count": n}``, ``{"op": "pause"}``, ``{"op": "resume"}``,
    ``{"op": "chat", "text": ...}`` (or ``"reaction"``; docs/rules.md TP-9), ``{"op": "mute", "seat": n,
    "muted": true}`` (host) or ``{"op": "ping"}``; each gets ``{"type": "ack", "id": n}`` (``"repeated": true`` for an
    action id applied before) or ``{"type": "error", "id": n, "status": 4xx, "detail": ...}``. An
    ``action_id`` stands beside the op's other fields (for ``action`` also inside it: both must
    agree); a field an op does not take (:data:`OP_FIELDS`) is refused with 422."""
    hub: Hub = get_hub(websocket)  # type: ignore[arg-type]
    if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"),
                          websocket.app.state.allowed_origins):
        await websocket.close(code=1008)  # before the handshake: HTTP 403
        return
    offered = list(websocket.scope.get("subprotocols") or ())
    token = next((p[len(TOKEN_PROTOCOL):] for p in offered if p.startswith(TOKEN_PROTOCOL)), None) or None
    await websocket.accept(subprotocol=SUBPROTOCOL if SUBPROTOCOL in offered else None)
    query = websocket.query_params.get("token")
    if query is not None:
        if _today() >= QUERY_TOKEN_UNTIL:
            await _refuse(websocket, 400, "a seat token in the address (?token=) is no longer accepted: send it in "
                                          "Sec-WebSocket-Protocol (reload the page)", 4400)
            return
        token = token or query or None
    table = await hub.find(table_id)
    if table is None:
        await _refuse(websocket, 404, f"unknown table {table_id!r}", 4404)
        return
    try:
        seat, request = viewer_of(table, token)
    except TableError as exc:
        await _refuse(websocket, exc.status, exc.detail, 4403)
        return
    conn = Connection(websocket, None if not token else hash_token(token))
    hub.publisher.add(table_id, conn)
    pump = asyncio.create_task(conn.pump())
    if seat is not None:
        hub.publish(table_id)  # everyone sees the seat online (this connection gets its view too)
    else:
        conn.push(orjson.dumps(hub.publisher.view(table, seat, request)))
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
            await _message(hub, table_id, conn, token, raw)
    except WebSocketDisconnect:
        pass
    except RuntimeError:  # pragma: no cover - socket closed under us
        pass
    finally:
        hub.publisher.remove(table_id, conn)
        pump.cancel()
        if seat is not None:
            hub.publish(table_id)


async def _message(hub: Hub, table_id: str, conn: Connection, token: str | None, raw: str) -> None:
    msg_id: Any = None
    try:
        if len(raw) > WS_MAX_CHARS:
            raise TableError(413, f"message too large ({WS_MAX_CHARS} characters at most)")
        try:
            msg = _parse(raw)
        except json.JSONDecodeError as exc:
            raise TableError(400, f"malformed JSON: {exc.msg}") from None
        except ValueError as exc:
            raise TableError(400, f"malformed JSON: {exc}") from None
        except RecursionError:
            raise TableError(400, "malformed JSON: nested too deeply") from None
        if not isinstance(msg, dict):
            raise TableError(400, "a message must be a JSON object with an 'op'")
        msg_id = msg.get("id")
        if msg_id is not None and (isinstance(msg_id, bool) or not isinstance(msg_id, (int, str))
                                   or isinstance(msg_id, str) and len(msg_id) > 100):
            msg_id = None
            raise TableError(400, "id must be a whole number or text of at most 100 characters")
        op = msg.get("op")
        if op == "ping":
            conn.push_direct({"type": "pong", "id": msg_id})
            return
        if op not in OPS:
            raise TableError(400, f"unknown op {op!r}: use {', '.join(OPS[:-1])} or ping")
        extra = [k for k in msg if k not in ("op", "id") and k not in OP_FIELDS[op]]
        if extra:
            named = ", ".join(repr(k[:40]) for k in extra[:3]) + (f" and {len(extra) - 3} more" if len(extra) > 3 else "")
            takes = ", ".join(OP_FIELDS[op]) or "nothing but op and id"
            raise TableError(422, f"op {op!r} takes no field {named}: it takes {takes}")
        if conn.token_hash is None:
            raise TableError(401, "a seat token is required to act (offer it as the subprotocol "
                                  f"{TOKEN_PROTOCOL}<token> when connecting)")
        try:
            out = await _run(hub, table_id, op, msg, token)
        except ValidationError as exc:
            status, detail = validation_detail(exc)
            raise TableError(status, detail) from None
        conn.push_direct({"type": "ack", "id": msg_id, **({"repeated": True} if out.repeated else {})})
    except TableError as exc:
        conn.push_direct({"type": "error", "id": msg_id, "status": exc.status, "detail": exc.detail})


async def _run(hub: Hub, table_id: str, op: str, msg: dict[str, Any], token: str | None) -> Any:
    """The message's op with its body validated by the REST route's schema, run on the one
    command path (:func:`fourcards.web.commands.run`)."""
    body: Any = None
    if op == "action":
        action = msg.get("action")
        if "action_id" in msg and isinstance(action, dict):
            if "action_id" in action and action["action_id"] != msg["action_id"]:
                raise TableError(422, "action_id is given twice, beside the action and in it, with different values")
            action = {**action, "action_id": msg["action_id"]}
        body = ActionIn.model_validate(action)
    elif op == "deal":
        body = Intent(action_id=_action_id(msg))
    elif op == "void":
        body = VoidIn.model_validate({k: x for k, x in msg.items() if k in OP_FIELDS[op]})
    elif op == "chat":
        body = ChatIn.model_validate({k: x for k, x in msg.items() if k not in ("op", "id")})
    elif op == "mute":
        seat = msg.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= 13:
            raise TableError(422, "seat must be a seat number (1-13)")
        body = (seat, MuteIn.model_validate({k: x for k, x in msg.items() if k == "muted"}).muted)
    elif op == "bots":
        body = AddBotsIn.model_validate({k: x for k, x in msg.items() if k in OP_FIELDS[op]})
    return await run(hub, table_id, op, body, token)


def _action_id(msg: dict[str, Any]) -> str | None:
    from pydantic import TypeAdapter

    value = msg.get("action_id")
    return None if value is None else TypeAdapter(ActionId).validate_python(value)
