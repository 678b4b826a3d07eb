"""What the routes share: the hub, the seat token and who holds it, path parameters, and the
errors' JSON.

Seat tokens travel in the ``X-Seat-Token`` header (websocket: the ``Sec-WebSocket-Protocol``
value ``fourcards.token.<token>``, :mod:`fourcards.web.routes.live`); never in a URL. A token is looked
up in the table's state at each request - in the state a command is applied to, so a token
another server just issued is found once this server's copy is brought up to date.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import Depends, Header, Path, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BeforeValidator, ValidationError

from fourcards.store import MAX_INTEGER
from fourcards.table import Person, SeatRequest, TableError, TableState
from fourcards.table.seating import lost_seat
from fourcards.web.hub import Hub
from fourcards.web.publisher import viewer
from fourcards.web.tokens import hash_token

__all__ = ["ApiError", "HubDep", "Token", "DealNumber", "SeatNumber", "RequestId", "WholeNumber", "whole_number_text",
           "person_of", "seat_of_token",
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
_DIGITS = re.compile(r"[0-9]+")


def whole_number_text(value: Any) -> Any:
    """A path's number as written: digits only (``3``; not ``3.0``, ``+3``, `` 3``, ``3e0``),
    which pydantic then reads as an int. Any other text is refused (422 naming the parameter).

    Raises:
        ValueError: text that is not a whole number written in digits.
    """
    if isinstance(value, str):
        if not _DIGITS.fullmatch(value):
            raise ValueError(f"must be a whole number written in digits, such as 3, got {value[:20]!r}")
        if len(value) > 30:
            raise ValueError(f"is too large ({len(value)} digits)")
    return value


#: A whole number in a path, written in digits only (pydantic alone reads "3.0" as 3).
WholeNumber = Annotated[int, BeforeValidator(whole_number_text)]
#: A deal's number in a path: 1 .. the ``deals.number`` column's largest value.
DealNumber = Annotated[WholeNumber, Path(ge=1, le=MAX_INTEGER,
                                         description="the deal's number at the table (1, 2, ...)")]
#: A seat number in a path (1..13).
SeatNumber = Annotated[WholeNumber, Path(ge=1, le=13, description="the seat's number at the table (1, 2, ...)")]
#: A request's id in a path.
RequestId = Annotated[WholeNumber, Path(ge=1, le=MAX_INTEGER)]


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
        raise TableError(401, "a seat token is required (header X-Seat-Token)")
    th = hash_token(token)
    person = state.by_token.get(th) or next((p for p in state.people.values() if p.token_hash == th), None)
    if person is None:
        raise _unknown(state, th)
    return person


def seat_of_token(state: TableState, token: str | None) -> Person | None:
    """The reader holding ``token`` - seated, or gone (a closed table's players, someone who left:
    their browsers keep the token and read the deals as the hand histories' exports do) - or
    ``None`` without a token: a spectator.

    Raises:
        TableError: 403 for a token of nobody at this table.
    """
    return person_of(state, token) if token else None


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
