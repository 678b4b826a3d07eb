"""The seats of a table: joining (at once, or through the host's approval), bots, the host's
answers to requests, top-ups, sitting out and coming back, leaving and removal (docs/rules.md
TP-5: leaving mid-deal forfeits the hand at once), a seat handed to a new phone.

Each handler takes the draft of a change and its command and returns the command's answer
(JSON); a refusal raises :class:`~fourcards.table.errors.TableError` before anything is kept.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fourcards.table.buyin import buy_in, check_top_up
from fourcards.table.commands import (
    AddBots,
    Decide,
    Join,
    Leave,
    NewDevice,
    OperatorRemove,
    SeatWithoutPhone,
    SetStatus,
    Sit,
    TopUp,
)
from fourcards.table.draft import Draft, Revoked
from fourcards.table.errors import TableError
from fourcards.table.state import DENIED_KEPT, REVOKED_KEPT, Person
from fourcards.table.writes import SeatChange

__all__ = ["BOT_NAMES", "sit", "join", "seat_without_phone", "add_bots", "decide", "top_up", "set_status", "leave",
           "new_device", "operator_remove", "remove"]

BOT_NAMES = ("Ada", "Boole", "Cray", "Dijkstra", "Euler", "Fermat", "Gauss", "Hopper", "Ito", "Jacobi",
             "Knuth", "Lovelace", "Markov")


def _seated(seat: Person) -> dict[str, Any]:
    return {"status": "seated", "seat": seat.seat, "name": seat.name, "balance": seat.balance}


def sit(d: Draft, c: Sit) -> dict[str, Any]:
    """Seat a new person at once (the host of a new table): ``{"status": "seated", "seat", ...}``.

    Raises:
        TableError: 409 when the table is full or the name is taken.
    """
    d.check_name(c.name)
    return _seated(d.sit(c.name, c.token_hash, is_host=c.is_host))


def join(d: Draft, c: Join) -> dict[str, Any]:
    """A person asks for a seat by name: seated at once, or (when the host approves new
    seats) a request waits for the host. A person who left gets their balance back; a new one
    buys in with ``c.buy_in`` chips (within the host's limits, TP-14) or the table's buy-in.

    Returns:
        ``{"status": "seated", "seat", "name", "balance"}`` or
        ``{"status": "pending", "request", "name"}``.
    Raises:
        TableError: 409 when the table is closed or full, the name is taken, or the buy-in is
            outside the host's limits.
    """
    d.require_open()
    former = d.check_name(c.name)
    d.free_seat()
    s = d.state
    if former is None and c.buy_in is not None:
        buy_in(s, c.buy_in)  # refused now, not when the host approves
    if s.seat_approval and s.host is not None:
        req = d.next_request("seat", c.name, c.token_hash, former.player_id if former else None,
                             0 if former is not None else c.buy_in or 0)
        d.log(f"{c.name} asks for a seat" + (" (back at the table)" if former else "")
              + (f" with {req.amount:,} chips" if req.amount else "") + "; the host decides")
        return {"status": "pending", "request": req.id, "name": c.name}
    return _seated(d.sit(c.name, c.token_hash, former=former, buy_in=c.buy_in))


def seat_without_phone(d: Draft, c: SeatWithoutPhone) -> dict[str, Any]:
    """Host, at a table dealt with real cards: seat a person without a phone at once (no
    request to approve: the host is seating them), whose moves the host enters (FOAK-16);
    logged "The host seats Cat (no phone) at seat 3 with 1000 chips". A person who left under
    that name gets their seat and chips back. Returns ``{"status": "seated", "seat", "name",
    "balance"}``.

    Raises:
        TableError: 403 for a guest; 409 at a table dealt from the deck, closed or full, or
            when a seated player or a waiting request has the name.
    """
    host = d.seated(c.by)
    d.require_host(host)
    d.require_open()
    if d.state.settings.get("dealing") != "table":
        raise TableError(409, "a player without a phone is seated only at a table dealt with real cards (the host "
                              "enters their moves there); here each player sits down from their own phone")
    try:
        former = d.check_name(c.name)
    except TableError as exc:
        if " looks like " in exc.detail:
            raise
        asked = any(r.kind == "seat" and r.name.casefold() == c.name.casefold() for r in d.state.requests)
        raise TableError(409, f"{c.name!r} has asked for a seat: approve the request instead" if asked
                         else f"the name {c.name!r} is taken at this table: choose another") from None
    return _seated(d.sit(c.name, c.token_hash, former=former, by_host=True))


def add_bots(d: Draft, c: AddBots) -> dict[str, Any]:
    """Host: fill empty seats with bots (``{"bots": [seat, ...]}``).

    Raises:
        TableError: 403 for a guest, 422 for an unknown (or empty) bot kind, 409 when fewer
            seats are free or the table is closed.
    """
    host = d.seated(c.by)
    d.require_host(host)
    game = d.state.table_game
    kinds = game.bot_kinds()
    kind = game.default_bot if c.kind is None else c.kind
    if kind not in kinds:
        raise TableError(422, f"unknown bot {kind!r}: choose one of {', '.join(kinds)}")
    d.require_open()
    free = d.state.max_seats - len(d.state.players)
    if len(c.token_hashes) > free:
        raise TableError(409, f"only {free} empty seat(s) left at this table; cannot add {len(c.token_hashes)} bots")
    added = []
    for th in c.token_hashes:
        used = {p.name for p in d.state.players.values()}
        name = next((n for n in BOT_NAMES if n not in used), f"Bot {len(d.state.players) + 1}")
        added.append(d.sit(name, th, is_bot=True, bot_kind=kind).seat)
    return {"bots": added}


def decide(d: Draft, c: Decide) -> dict[str, Any]:
    """Host: approve or turn down a waiting request (a seat, a top-up): ``{"request": ...}``.

    Raises:
        TableError: 403 for a guest; 404 for no such waiting request; 409 when the seat
            cannot be given now (the table full, the name taken meanwhile, closed), or the
            person asking for chips has left.
    """
    host = d.seated(c.by)
    d.require_host(host)
    req = next((r for r in d.state.requests if r.id == c.request_id), None)
    if req is None:
        raise TableError(404, f"no request {c.request_id} waits at this table")
    rest = tuple(r for r in d.state.requests if r.id != req.id)
    if c.approve:
        d.require_open()
        if req.kind == "seat":
            d.set(requests=rest)
            d.sit(req.name, req.token_hash, former=d.check_name(req.name), buy_in=req.amount or None)
        else:
            seat = d.state.people.get(req.player_id or 0)
            if seat is None or seat.status == "left" or seat.leaving:
                raise TableError(409, f"{req.name} has left the table")
            check_top_up(d.state, seat, req.amount)  # stacks may have changed since it was asked
            _top_up(d, seat, req.amount, by_host=True)
            d.set(requests=rest)
        req = replace(req, status="approved")
    else:
        req = replace(req, status="denied")
        d.set(requests=rest)
        if req.kind == "seat":
            d.set(denied=(*d.state.denied, req)[-DENIED_KEPT:])
        d.log(f"The host turns down {req.name}'s " + ("request for a seat" if req.kind == "seat"
                                                      else f"top-up of {req.amount:,} chips"))
    return {"request": req.public()}


def top_up(d: Draft, c: TopUp) -> dict[str, Any]:
    """A person asks for ``amount`` more chips from the bank: the host's own top-up is made at
    once (``{"status": "done", "balance"}``), anyone else's waits for the host
    (``{"status": "pending", "request"}``). The host's buy-in rules apply (TP-14), when asked and
    again when approved.

    Raises:
        TableError: 403 for a bot; 409 when the table is closed, the seat is leaving (its chips
            are cashed out when the deal ends, docs/rules.md TP-5), a top-up already waits or the
            amount is outside the host's rules.
    """
    seat = d.seated(c.by)
    if seat.is_bot:
        raise TableError(403, "a bot's seat is played by the server")
    d.require_open()
    _require_staying(d, seat)
    check_top_up(d.state, seat, c.amount)
    if seat.is_host:
        return {"status": "done", "balance": _top_up(d, seat, c.amount, by_host=False).balance}
    if any(r.kind == "top_up" and r.player_id == seat.player_id for r in d.state.requests):
        raise TableError(409, "your top-up already waits for the host")
    req = d.next_request("top_up", seat.name, seat.token_hash, seat.player_id, c.amount)
    d.log(f"{seat.name} asks to top up {c.amount:,} chips; the host decides")
    return {"status": "pending", "request": req.id}


def _top_up(d: Draft, seat: Person, amount: int, *, by_host: bool) -> Person:
    d.write(SeatChange(d.state.id, moves=[(seat.player_id, amount, "top_up")]))
    seat = replace(seat, balance=seat.balance + amount)
    d.put(seat)
    d.log(f"{seat.name} tops up {amount:,} chips" + (" (approved by the host)" if by_host else ""))
    return seat


def set_status(d: Draft, c: SetStatus) -> None:
    """``seat`` sits out (no ante, no cards, its turns skipped) or comes back; a person for
    their own seat, the host for any.

    Raises:
        TableError: 403 for another's seat (not the host); 404 for an empty seat; 409 when
            the table is closed or the seat is leaving (docs/rules.md TP-5).
    """
    by = d.seated(c.by)
    seat = d.seat_of(c.seat)
    if by.player_id != seat.player_id:
        d.require_host(by)
    d.require_open()
    _require_staying(d, seat)
    if c.sitting_out and seat.status != "sitting_out":
        d.set_status(seat, "sitting_out")
        d.log(f"{seat.name} sits out" + (" (the host's ruling)" if by.player_id != seat.player_id else ""))
    elif not c.sitting_out and seat.status == "sitting_out":
        d.set_status(seat, "playing")
        d.log(f"{seat.name} is back")


def _require_staying(d: Draft, seat: Person) -> None:
    """Refuse (409) a change to a seat that has left mid-deal and cashes out when it ends."""
    if seat.leaving:
        raise TableError(409, f"{seat.name} has left the table: the seat cashes out when this "
                              f"{d.state.table_game.word.lower()} ends, and takes no more chips or changes")


def leave(d: Draft, c: Leave) -> dict[str, Any]:
    """``seat`` leaves the table - its own choice, or the host removes it (docs/rules.md TP-5):
    Four Card Poker wagers placed before the deal are taken back; a hand in play is forfeited
    at once (out of turn: the seat is out of every pot, its chips stay in, it is never asked to
    act again); chips still at stake (a pot it put chips in, a played poker hand) keep the seat
    until the deal ends, then it cashes out; otherwise it cashes out now. Its waiting requests
    go with it; the host's role passes to the next person seated.

    Returns:
        ``{"status": "left", "cashed_out": chips}`` or ``{"status": "leaving"}``.
    Raises:
        TableError: 403 for another's seat (not the host); 404 for an empty seat; 409 when
            the table is closed or the seat is already leaving.
    """
    by = d.seated(c.by)
    seat = d.seat_of(c.seat)
    removed = by.player_id != seat.player_id
    if removed:
        d.require_host(by)
    d.require_open()
    return remove(d, seat, "the host" if removed else None)


def operator_remove(d: Draft, c: OperatorRemove) -> dict[str, Any]:
    """The operator removes ``seat`` (docs/rules.md TP-10): as the host's removal (TP-5), the
    reason logged.

    Raises:
        TableError: 404 for an empty seat; 409 when the table is closed or the seat is already
            leaving.
    """
    d.require_open()
    return remove(d, d.seat_of(c.seat), f"the operator ({c.reason})")


def remove(d: Draft, seat: Person, removed_by: str | None) -> dict[str, Any]:
    """``seat`` leaves (``removed_by``: ``None``) or is removed (by ``"the host"``, ``"the
    operator"``): see :func:`leave`."""
    if seat.leaving:
        raise TableError(409, f"{seat.name} is already leaving: the seat cashes out when this "
                              f"{d.state.table_game.word.lower()} ends")
    game = d.state.table_game
    if d.dealt_in(seat):
        assert d.state.deal is not None
        player = d.state.deal.seats.player_of(seat)
        assert player is not None
        withdraw = game.withdraw(player, d.seen(None))
        if withdraw is not None:
            d.apply(seat, withdraw)
    if d.dealt_in(seat):
        assert d.state.deal is not None
        player = d.state.deal.seats.player_of(seat)
        assert player is not None
        forfeit = game.forfeit(player, d.state.deal.game)
        if forfeit is not None:
            d.log(f"{seat.name} " + (f"is removed by {removed_by}" if removed_by else "leaves the table")
                  + ": the hand is forfeited")
            d.apply(seat, forfeit)
    seat = d.person(seat.player_id)
    if seat.seat and d.dealt_in(seat):
        d.put(replace(seat, leaving=True))
        d.withdraw_requests(seat)
        d.log(f"{seat.name} cashes out when this {game.word.lower()} ends")
        return {"status": "leaving"}
    return {"status": "left", "cashed_out": d.cash_out(seat, removed_by=removed_by)}


def lost_seat(name: str) -> str:
    """What the old phone of a seat handed to a new phone is told (at once, and whenever it
    comes back with the old token)."""
    return (f"this phone no longer holds {name}'s seat: the host handed the seat to another phone "
            "(this one can still watch the table)")


def new_device(d: Draft, c: NewDevice) -> dict[str, Any]:
    """Host: hand ``seat`` to a new phone - the token ``c.token_hash``; the old one stops
    working at once (its connections are closed: a :class:`~fourcards.table.draft.Revoked` event)
    and is remembered, so the old phone is told why whenever it comes back (:func:`lost_seat`).

    Raises:
        TableError: 403 for a guest; 404 for an empty seat; 409 for a bot's seat or a closed table.
    """
    host = d.seated(c.by)
    d.require_host(host)
    seat = d.seat_of(c.seat)
    if seat.is_bot:
        raise TableError(409, "a bot's seat is played by the server")
    d.require_open()
    d.write(SeatChange(d.state.id, players={seat.player_id: {"token_hash": c.token_hash}}))
    d.events.append(Revoked(seat.token_hash, lost_seat(seat.name)))
    revoked = {k: v for k, v in d.state.revoked.items() if k != c.token_hash}
    revoked[seat.token_hash] = seat.name
    d.set(revoked=dict(list(revoked.items())[-REVOKED_KEPT:]))
    d.put(replace(seat, token_hash=c.token_hash))
    d.log(f"The host hands {seat.name}'s seat to a new device")
    return {"seat": seat.seat, "name": seat.name}
