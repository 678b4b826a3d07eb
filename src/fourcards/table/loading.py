"""A table's state rebuilt from what the store reads back (:class:`~fourcards.table.writes.TableRow`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from fourcards.engine import GameState
from fourcards.table.preactions import PreAction
from fourcards.table.registry import GAMES
from fourcards.table.state import CHAT_KEPT, LOG_LINES, Clock, DealState, Person, SeatRequest, TableState
from fourcards.table.writes import OpenDeal, TableRow

__all__ = ["load"]


def _engine(known: DealState | None, stored: OpenDeal, replay: Callable[[], GameState]) -> GameState:
    """The engine state of ``known`` (a deal of the copy read before) when it is the stored deal
    with the same records - a deal's records only grow, so the same id and count are the same
    history - else ``replay()``."""
    if known is not None and known.deal_id is not None and known.deal_id == stored.id \
            and known.seq == len(stored.records):
        return known.game
    return replay()


def load(row: TableRow, rules: Any, known: TableState | None = None) -> TableState:
    """The state of the table ``row`` as the store read it back, under ``rules`` (the game's
    rules object of ``row.rules``), with its latest chat messages: the deal in progress replayed from its records (its players
    named in the engine's messages), the last finished deal replayed, or the next Four Card
    Poker round laid out. ``known``: this table as read or played here before - a deal of it
    with the same stored records is taken as it is, not replayed (engine states never change
    once in a table's state).

    Raises:
        FourcardsError: a stored history that does not replay.
    """
    game = GAMES[row.game]
    st = row.state or {}
    extra = st.get("seats") or {}
    people = {}
    for p in row.players:
        e = extra.get(str(p.id)) or {}
        people[p.id] = Person(p.id, p.seat or 0, p.name, p.token_hash, p.is_host, p.is_bot, p.bot_kind,
                              p.balance, p.status, int(e.get("timeouts", 0)), bool(e.get("leaving", False)),
                              p.away, bool(e.get("muted", False)),
                              (int(e["bets"][0]), int(e["bets"][1])) if e.get("bets") else None,
                              bool(e.get("away", False)), PreAction.load(e.get("pre")),
                              float(e.get("bank_used") or 0.0), e.get("handle") or None, e.get("numbers") or None)
    clock = st.get("clock") or {}
    saved_game = st.get("game") or {}
    key = tuple(clock["key"]) if clock.get("key") else None
    state = TableState(
        id=row.id, table_game=game, name=row.name, rules=rules, settings=dict(row.settings), status=row.status,
        public=row.public, created_at=row.created_at, people=people,
        requests=tuple(SeatRequest(**r) for r in st.get("requests") or []),
        denied=tuple(SeatRequest(**r) for r in st.get("denied") or []),
        request_seq=int(st.get("request_seq") or 0), log=tuple(row.log[-LOG_LINES:]),
        clock=Clock(key, clock.get("since"), clock.get("deadline"), clock.get("left"), float(clock.get("bank") or 0.0)),
        paused=bool(st.get("paused", False)),
        button_seat=saved_game.get("button_seat", row.settings.get("button_seat")),
        next_deal_number=row.next_deal_number,
        intents={int(k): tuple((str(i), a) for i, a in v) for k, v in (st.get("intents") or {}).items()},
        chat=tuple(row.chat[-CHAT_KEPT:]), chat_seq=row.chat[-1].number if row.chat else 0,
        revoked={str(k): str(v) for k, v in (st.get("revoked") or {}).items()},
        version=row.version)
    if row.deal is not None:
        seats = game.stored_seats(state, row.deal.seats).seated(state.players)  # a following map: who sits now
        current = row.deal
        engine = _engine(known.deal if known else None, current, lambda: game.replay(state, current.records, seats))
        deal: DealState | None = DealState(engine, seats, current.number, True, len(current.records), current.id)
    else:
        deal = game.fresh(state)
    last = None
    if row.last_deal is not None:
        d = row.last_deal
        seats = game.stored_seats(state, d.seats)
        engine = _engine(known.last if known else None, d, lambda: game.replay(state, d.records))
        last = DealState(engine, seats, d.number, True, len(d.records), d.id)
    return replace(state, deal=deal, last=last)
