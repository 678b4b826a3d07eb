"""What the routes share: the hub, the seat token and who holds it, path parameters, and the
errors' JSON.

Seat tokens travel in the ``X-Seat-Token`` header (websocket: ``?token=``). A token is looked
up in the table's state at each request - in the state a command is applied to, so a token
another server just issued is found once this server's copy is brought up to date.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Header, Path, Request
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError

from fourcards.store import MAX_INTEGER
from fourcards.table import Person, SeatRequest, TableError, TableState
from fourcards.table.seating import lost_seat
from fourcards.web.hub import Hub
from fourcards.web.publisher import viewer
from fourcards.web.tokens import hash_token

__all__ = ["ApiError", "HubDep", "Token", "DealNumber", "SeatNumber", "RequestId", "person_of", "seat_of_token",
           "viewer_of", "validation_detail", "TOKEN_HEADER"]

#: An HTTP error with a clear message (``{"detail": detail}``); nothing changed.
ApiError = TableError
TOKEN_HEADER = "X-Seat-Token"


def get_hub(request: Request) -> Hub:
    """The app's hub."""
    return request.app.state.hub


HubDep = Annotated[Hub, Depends(get_hub)]
#: The caller's seat token (``None``: a spectator, or a request that needs none).
Token = Annotated[str | None, Header(alias=TOKEN_HEADER)]
#: A deal's number in a path: 1 .. the ``deals.number`` column's largest value.
DealNumber = Annotated[int, Path(ge=1, le=MAX_INTEGER, description="the deal's number at the table (1, 2, ...)")]
#: A seat number in a path (1..13).
SeatNumber = Annotated[int, Path(ge=1, le=13, description="the seat's number at the table (1, 2, ...)")]
#: A request's id in a path.
RequestId = Annotated[int, Path(ge=1, le=MAX_INTEGER)]


def _unknown(state: TableState, token_hash: str) -> TableError:
    """The 403 for a token of no seat: a seat handed to another phone says so (docs/web.md
    "A new phone")."""
    name = state.revoked.get(token_hash)
    return TableError(403, lost_seat(name) if name is not None else
                      "the seat token does not belong to any seat at this table")


def person_of(state: TableState, token: str | None) -> Person:
    """The person holding ``token`` at the table (seated, or gone - a command then says why it
    cannot be done: the table is closed, the seat left).

    Raises:
        TableError: 401 without a token, 403 for a token of nobody at this table (saying so
            when the host handed that seat to another phone).
    """
    if not token:
        raise TableError(401, "a seat token is required (header X-Seat-Token or ?token=)")
    th = hash_token(token)
    person = state.by_token.get(th) or next((p for p in state.people.values() if p.token_hash == th), None)
    if person is None:
        raise _unknown(state, th)
    return person


def seat_of_token(state: TableState, token: str | None) -> Person | None:
    """The seat of ``token`` (``None`` without a token: a spectator).

    Raises:
        TableError: 403 for a token of no seat at this table.
    """
    if not token:
        return None
    seat = state.by_token.get(hash_token(token))
    if seat is None:
        raise _unknown(state, hash_token(token))
    return seat


def viewer_of(state: TableState, token: str | None) -> tuple[Person | None, SeatRequest | None]:
    """Who ``token`` is: a seat, or a browser whose seat request waits for the host (or was
    turned down); ``(None, None)`` for a spectator without a token.

    Raises:
        TableError: 403 for a token of no seat and no request at this table.
    """
    if not token:
        return None, None
    seat, request = viewer(state, hash_token(token))
    if seat is None and request is None:
        raise _unknown(state, hash_token(token))
    return seat, request


def validation_detail(exc: ValidationError | RequestValidationError) -> tuple[int, str]:
    """The status and sentence of a request that does not validate: 400 for malformed JSON,
    else 422 naming each field (up to five) and what is wrong with it."""
    errors = exc.errors()
    for e in errors:
        if e.get("type") == "json_invalid":
            return 400, f"malformed JSON: {e.get('ctx', {}).get('error', e.get('msg'))}"
    parts = []
    for e in errors[:5]:
        loc = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
        msg: Any = e.get("msg")
        if e.get("type") == "value_error" and e.get("ctx", {}).get("error") is not None:
            msg = str(e["ctx"]["error"])  # our own validators' sentence, without pydantic's prefix
        parts.append(f"{loc or 'body'}: {msg}")
    return 422, "invalid request - " + "; ".join(parts)
