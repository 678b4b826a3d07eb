"""Clubs across nights (issue 21 item 6): a club's page data, its standings (JSON, CSV), its
members and tables; a table joining a club.

Privacy (docs/web.md "Clubs across nights"): a club's link ``/c/{id}`` is its key - 12 random
characters, never listed anywhere - and whoever holds it reads the club (its name, members'
names, standings, each night's results, the tables' links and hand histories as a spectator
sees them) and may start a table in it. Managing it (renaming, listing members, taking a table
out) needs the owner's secret token (``X-Club-Token``), returned once when the club is made;
the server keeps only its SHA-256. A table's host makes the table count for a club.
"""

from __future__ import annotations

import secrets
import string
from typing import Annotated, Any

from fastapi import APIRouter, Header, Path
from fastapi.responses import Response

from fourcards.csvtext import csv_text, version_rows
from fourcards.store import ClubStore, StoreError
from fourcards.table import TableError
from fourcards.table.names import look_alike_pair, looks_like
from fourcards.table.standings import standings
from fourcards.web.deps import HubDep, Token, person_of
from fourcards.web.hub import Hub
from fourcards.web.limits import rate_limit
from fourcards.web.schemas import ClubMembers, ClubSettings, CreateClub, JoinClub
from fourcards.web.tokens import hash_token, new_token

__all__ = ["router", "club_store", "club_or_404", "attach_table", "public_club", "ClubToken", "ClubPath", "CLUB_TOKEN_HEADER",
           "MAX_CLUB_TABLES", "CLUB_ID_LENGTH"]

router = APIRouter()

CLUB_TOKEN_HEADER = "X-Club-Token"
#: The club owner's token (``None``: anybody else).
ClubToken = Annotated[str | None, Header(alias=CLUB_TOKEN_HEADER)]
#: Most tables a club counts (a new one beyond is refused): the standings read them all.
MAX_CLUB_TABLES = 500
#: Characters of a club's id (a-z0-9: 36**12, about 4.7e18 of them).
CLUB_ID_LENGTH = 12
_ALPHABET = string.ascii_lowercase + string.digits
ClubPath = Annotated[str, Path(max_length=16, description="the club's id (the key in its link /c/{id})")]


def club_store(hub: Hub) -> ClubStore:
    """The clubs of the hub's store."""
    return ClubStore(hub.require_database())


async def club_or_404(hub: Hub, club_id: str) -> dict[str, Any]:
    """The club (:meth:`ClubStore.get`). Raises :class:`TableError` 404 for an unknown club."""
    club = await hub.run_db(club_store(hub).get, club_id) if len(club_id) <= 16 else None
    if club is None:
        raise TableError(404, f"unknown club {club_id[:16]!r}")
    return club


def _require_owner(club: dict[str, Any], token: str | None) -> None:
    if not token:
        raise TableError(401, f"the club owner's token is required (header {CLUB_TOKEN_HEADER})")
    if not secrets.compare_digest(hash_token(token), club["owner_hash"]):
        raise TableError(403, "only the club's owner may do this")


def _urls(hub: Hub, club_id: str) -> dict[str, Any]:
    return {"url": f"/c/{club_id}",
            "invite_url": f"{hub.public_url.rstrip('/')}/c/{club_id}" if hub.public_url else None}


def _public(hub: Hub, club: dict[str, Any], table: dict[str, Any]) -> dict[str, Any]:
    return {"id": club["id"], "name": club["name"], "owner": club["owner_name"], "created_at": club["created_at"],
            **_urls(hub, club["id"]), "max_tables": MAX_CLUB_TABLES, **table}


def public_club(hub: Hub, club: dict[str, Any]) -> dict[str, Any]:
    """What the club's page shows of it: name, owner, links and its tables (never the owner's token)."""
    return _public(hub, club, {"tables": club["tables"]})


async def _standings(hub: Hub, club: dict[str, Any]) -> dict[str, Any]:
    nights = await hub.run_db(club_store(hub).nights, club["id"])
    return standings(nights, club["members"])


async def attach_table(hub: Hub, club_id: str, table_id: str) -> dict[str, Any]:
    """Make the table count for the club; returns ``{"id", "name", "url"}`` of the club.

    Raises:
        TableError: 404 for an unknown club; 409 when the table already counts for a club or
            the club has :data:`MAX_CLUB_TABLES` tables.
    """
    club = await club_or_404(hub, club_id)
    try:
        await hub.run_db(club_store(hub).attach, club["id"], table_id, MAX_CLUB_TABLES)
    except StoreError as exc:
        raise TableError(409, str(exc)) from None
    return {"id": club["id"], "name": club["name"], "url": f"/c/{club['id']}"}


def _no_look_alikes(listed: list[str], names: list[str]) -> None:
    """409 when a new name looks like a listed member's or another new one without being the same
    name in another case ("'Аnn' looks like Ann"; :mod:`fourcards.table.names`)."""
    pair = look_alike_pair([*listed, *names])
    if pair is not None:
        raise TableError(409, looks_like(pair[0], pair[1], "in this club"))


@router.post("/api/clubs", status_code=201, tags=["clubs"], dependencies=[rate_limit("clubs")])
async def create_club(body: CreateClub, hub: HubDep) -> dict[str, Any]:
    """Make a club: ``{"name", "owner_name", "members": [names]}``. Returns the club, its link
    and the owner's secret token (keep it: it is the only way to manage the club). 409 when two
    names look alike ("'Аnn' looks like Ann")."""
    _no_look_alikes([], [body.owner_name, *body.members])
    club_id = "".join(secrets.choice(_ALPHABET) for _ in range(CLUB_ID_LENGTH))
    token = new_token()
    await hub.run_db(club_store(hub).create, club_id, body.name, body.owner_name, hash_token(token), body.members)
    club = await club_or_404(hub, club_id)
    return {"club": _public(hub, club, {}), "token": token, **_urls(hub, club_id)}


@router.get("/api/clubs/{club_id}", tags=["clubs"])
async def get_club(club_id: ClubPath, hub: HubDep, x_club_token: ClubToken = None) -> dict[str, Any]:
    """The club: name, owner, links; ``members`` (``name``, ``listed`` by the owner, ``nights``
    played), ``nights`` (its tables, oldest first, with their links) and ``you.owner`` (the
    caller holds the owner's token)."""
    club = await club_or_404(hub, club_id)
    s = await _standings(hub, club)
    members = sorted(({"name": r["name"], "listed": r["listed"], "nights": r["nights"]} for r in s["standings"]),
                     key=lambda m: m["name"].casefold())
    nights = [{**t, "join_url": f"/t/{t['id']}", "history_url": f"/t/{t['id']}/history"} for t in club["tables"]]
    owner = bool(x_club_token) and secrets.compare_digest(hash_token(x_club_token or ""), club["owner_hash"])
    return _public(hub, club, {"members": members, "nights": nights, "you": {"owner": owner}})


@router.get("/api/clubs/{club_id}/standings", tags=["clubs"])
async def get_standings(club_id: ClubPath, hub: HubDep) -> dict[str, Any]:
    """The club's standings across nights - per member ``nights``, ``net`` (chips), Four of a
    Kind's ``deals``, ``high``, ``low``, ``whole`` and net, Four Card Poker's ``rounds`` and net
    - and each night's results (people's nets, the bank's), see
    :func:`fourcards.table.standings.standings`."""
    club = await club_or_404(hub, club_id)
    return {"club": {"id": club["id"], "name": club["name"], **_urls(hub, club["id"])}, **await _standings(hub, club)}


@router.get("/api/clubs/{club_id}/standings.csv", tags=["clubs"])
async def get_standings_csv(club_id: ClubPath, hub: HubDep) -> Response:
    """The standings as CSV (one row per member), then, after a blank row, each night's results
    (one row per person, and the bank's), and last ``exported by,fourcards <version>``; names
    neutralised for spreadsheets (:mod:`fourcards.csvtext`)."""
    club = await club_or_404(hub, club_id)
    s = await _standings(hub, club)
    rows: list[list[str | int | None]] = [["name", "nights", "net", "kind_nights", "kind_deals", "kind_high",
                                           "kind_low", "kind_whole", "kind_net", "poker_nights", "poker_rounds",
                                           "poker_net"]]
    for r in s["standings"]:
        k, p = r["kind"], r["poker"]
        rows.append([r["name"], r["nights"], r["net"], k["nights"], k["deals"], k["high"], k["low"], k["whole"],
                     k["net"], p["nights"], p["rounds"], p["net"]])
    rows += [[None], ["night", "date", "table", "game", "name", "net"]]
    for i, n in enumerate(s["nights"], 1):
        date = (n["created_at"] or "")[:10] or None
        for person in n["people"]:
            rows.append([i, date, n["name"], n["game"], person["name"], person["net"]])
        rows.append([i, date, n["name"], n["game"], "the bank (bots and house)", n["bank"]["net"]])
    rows += version_rows()
    return Response(csv_text(rows), media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="fourcards-club-{club["id"]}-standings.csv"'})


@router.post("/api/clubs/{club_id}/members", tags=["clubs"])
async def add_members(club_id: ClubPath, body: ClubMembers, hub: HubDep,
                      x_club_token: ClubToken = None) -> dict[str, Any]:
    """Club owner: list more members by name (``{"names": [...]}``; a name already listed, in any
    case, is left). Returns ``{"added": [names]}``. 409 beyond 200 names, and for a name that looks
    like a listed one ("'Аnn' looks like Ann": the same letters from another alphabet, fullwidth,
    small capitals...; nothing is added)."""
    club = await club_or_404(hub, club_id)
    _require_owner(club, x_club_token)
    _no_look_alikes(club["members"], body.names)
    try:
        added = await hub.run_db(club_store(hub).add_members, club["id"], body.names)
    except StoreError as exc:
        raise TableError(409, str(exc)) from None
    return {"added": added}


@router.post("/api/clubs/{club_id}/settings", tags=["clubs"])
async def club_settings(club_id: ClubPath, body: ClubSettings, hub: HubDep,
                        x_club_token: ClubToken = None) -> dict[str, Any]:
    """Club owner: rename the club."""
    club = await club_or_404(hub, club_id)
    _require_owner(club, x_club_token)
    await hub.run_db(club_store(hub).rename, club["id"], body.name)
    return {"name": body.name}


@router.delete("/api/clubs/{club_id}/tables/{table_id}", tags=["clubs"])
async def remove_table(club_id: ClubPath, table_id: Annotated[str, Path(max_length=16)], hub: HubDep,
                       x_club_token: ClubToken = None) -> dict[str, Any]:
    """Club owner: the table no longer counts for the club (the table itself stays)."""
    club = await club_or_404(hub, club_id)
    _require_owner(club, x_club_token)
    if not await hub.run_db(club_store(hub).detach, club["id"], table_id):
        raise TableError(404, f"table {table_id!r} does not count for this club")
    return {"removed": table_id}


@router.get("/api/tables/{table_id}/club", tags=["clubs"])
async def table_club(table_id: str, hub: HubDep) -> dict[str, Any]:
    """The club the table counts for: ``{"club": {"id", "name", "url"}}`` or ``{"club": null}``."""
    t = await hub.latest(table_id)
    club = await hub.run_db(club_store(hub).club_of, t.id)
    return {"club": None if club is None else {**club, "url": f"/c/{club['id']}"}}


@router.post("/api/tables/{table_id}/club", tags=["host"])
async def join_club(table_id: str, body: JoinClub, hub: HubDep, x_seat_token: Token = None) -> dict[str, Any]:
    """Host: the table counts for the club ``{"club": id}`` from now on (its nights so far
    included). 409 when it already counts for a club (the club's owner can take it out)."""
    t = await hub.latest(table_id)
    person = person_of(t, x_seat_token)
    if not person.is_host or (t.status == "open" and not person.seat):
        raise TableError(403, "only the table's host may make the table count for a club")
    return {"club": await attach_table(hub, body.club, t.id)}
