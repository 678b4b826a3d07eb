"""Hand histories out (issue 21 item 7): a table's finished deals, and a club's, as JSON Lines and
as text - as the caller may see them (:mod:`fourcards.table.export`).

The deals are read from the database in batches of :data:`BATCH` and the answer is streamed, so
neither memory nor the time to the first line grows with a table's number of deals. A club's
export is a spectator's (a seat token belongs to one table): folded Four Card Poker hands stay
hidden; a table's is its caller's (``X-Seat-Token``: that seat's own cards too). Each line of JSON
says the version that exported it (``fourcards_version``), a text export's first line too.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import orjson
from fastapi import APIRouter
from fastapi.responses import StreamingResponse

from fourcards import __version__
from fourcards.table import Person, TableError, TableState
from fourcards.table.export import FORMAT, hand, hand_text, text_heading
from fourcards.web.deps import HubDep, Token, person_of
from fourcards.web.hub import Hub
from fourcards.web.routes.clubs import ClubPath, club_or_404, club_store

__all__ = ["router", "BATCH", "deal_lines"]

router = APIRouter()

#: Deals read (and rendered) at a time.
BATCH = 50
JSONL = "application/x-ndjson; charset=utf-8"
TEXT = "text/plain; charset=utf-8"


def _jsonl(t: TableState, deal: dict, seat: Person | None) -> bytes:
    try:
        return orjson.dumps(hand(t, deal, seat)) + b"\n"
    except TableError as exc:  # a deal this version cannot replay: said so, never shown unredacted
        return orjson.dumps({"format": FORMAT, "fourcards_version": __version__,
                             "table": {"id": t.id, "name": t.name, "game": t.game},
                             "number": deal["number"], "status": deal["status"], "error": exc.detail}) + b"\n"


def _text(t: TableState, deal: dict, seat: Person | None) -> bytes:
    try:
        return hand_text(hand(t, deal, seat)).encode()
    except TableError as exc:
        return f"{t.table_game.word} {deal['number']}: {exc.detail}\n\n".encode()


def _render_all(t: TableState, batch: list[dict], seat: Person | None,
                render: Callable[[TableState, dict, Person | None], bytes]) -> bytes:
    return b"".join(render(t, d, seat) for d in batch)


async def deal_lines(hub: Hub, t: TableState, seat: Person | None,
                     render: Callable[[TableState, dict, Person | None], bytes]) -> AsyncIterator[bytes]:
    """Every finished deal of ``t`` rendered as ``seat`` may see it, a batch at a time (the
    engine's replays in a worker thread)."""
    store = hub.require_store()
    after = 0
    while True:
        batch = await hub.run_db(store.finished_deals, t.id, after, BATCH)
        if not batch:
            return
        yield await asyncio.to_thread(_render_all, t, batch, seat, render)
        after = batch[-1]["number"]


def _caller(t: TableState, token: str | None) -> Person | None:
    """The person whose token it is - seated, or gone (a closed table's players keep their own
    cards in its history) - or ``None`` without one: a spectator. 403 for a token of nobody."""
    return person_of(t, token) if token else None


async def _headed(heading: str, body: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    yield heading.encode()
    async for chunk in body:
        yield chunk


def _download(body: AsyncIterator[bytes], media: str, name: str, heading: str | None = None) -> StreamingResponse:
    """The export ``body`` as a file ``name``; a text export begins with ``heading``
    (:func:`fourcards.table.export.text_heading`: the version)."""
    if heading is not None:
        body = _headed(text_heading(heading), body)
    return StreamingResponse(body, media_type=media, headers={
        "Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"})


@router.get("/api/tables/{table_id}/hands.jsonl", tags=["history"], response_class=StreamingResponse)
async def table_hands_jsonl(table_id: str, hub: HubDep, x_seat_token: Token = None) -> StreamingResponse:
    """Every finished deal of the table as JSON Lines (one deal per line, oldest first; the
    format in docs/web.md "Hand histories"), as the caller may see it: a folded Four Card Poker
    hand of another seat stays hidden (``redacted``). A token of a person who left (a closed
    table) still shows that person's own cards."""
    t = await hub.latest(table_id)
    seat = _caller(t, x_seat_token)
    return _download(deal_lines(hub, t, seat, _jsonl), JSONL, f"fourcards-{t.id}-hands.jsonl")


@router.get("/api/tables/{table_id}/hands.txt", tags=["history"], response_class=StreamingResponse)
async def table_hands_text(table_id: str, hub: HubDep, x_seat_token: Token = None) -> StreamingResponse:
    """Every finished deal of the table as text: who played, the table log's lines, the nets."""
    t = await hub.latest(table_id)
    seat = _caller(t, x_seat_token)
    return _download(deal_lines(hub, t, seat, _text), TEXT, f"fourcards-{t.id}-hands.txt",
                     f"hand histories of table {t.id}")


async def _club_lines(hub: Hub, table_ids: list[str],
                      render: Callable[[TableState, dict, Person | None], bytes]) -> AsyncIterator[bytes]:
    for tid in table_ids:
        t = await hub.find(tid)
        if t is not None:
            async for chunk in deal_lines(hub, t, None, render):
                yield chunk


async def club_tables(hub: Hub, club_id: str) -> list[str]:
    """The ids of a club's tables (oldest first).

    Raises:
        TableError: 404 for an unknown club.
    """
    await club_or_404(hub, club_id)
    return await hub.run_db(club_store(hub).table_ids, club_id)


@router.get("/api/clubs/{club_id}/hands.jsonl", tags=["clubs"], response_class=StreamingResponse)
async def club_hands_jsonl(club_id: ClubPath, hub: HubDep) -> StreamingResponse:
    """Every finished deal of every table of the club as JSON Lines, table by table (oldest
    first), as a spectator sees them."""
    ids = await club_tables(hub, club_id)
    return _download(_club_lines(hub, ids, _jsonl), JSONL, f"fourcards-club-{club_id}-hands.jsonl")


@router.get("/api/clubs/{club_id}/hands.txt", tags=["clubs"], response_class=StreamingResponse)
async def club_hands_text(club_id: ClubPath, hub: HubDep) -> StreamingResponse:
    """Every finished deal of the club's tables as text, as a spectator sees them."""
    ids = await club_tables(hub, club_id)
    return _download(_club_lines(hub, ids, _text), TEXT, f"fourcards-club-{club_id}-hands.txt",
                     f"hand histories of club {club_id}")
