"""The host's rulings on the table as a whole: its settings, the pause (docs/rules.md TP-7),
a void of the deal in progress (TP-4) and closing the table - and the operator's close (TP-10).

Each handler takes the draft of a change and its command and returns its answer (JSON).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fourcards.table import buyin
from fourcards.table.clock import pause_clock, resume_clock
from fourcards.table.commands import Close, Configure, OperatorClose, Pause, Resume, VoidDeal
from fourcards.table.draft import Draft
from fourcards.table.errors import TableError
from fourcards.table.state import Person
from fourcards.table.writes import SeatChange

__all__ = ["MAX_TIME_BANK", "configure", "close", "operator_close", "pause", "resume", "void"]

#: The longest time bank a host may set, in seconds.
MAX_TIME_BANK = 3600


def configure(d: Draft, c: Configure) -> None:
    """Host: list the table in the lobby or not, set the turn clock (seconds, 0: none), whether
    new seats need approval, the time bank (seconds per person per night, 0: none; TP-13) and the
    buy-in rules (:mod:`fourcards.table.buyin`, TP-14).

    Raises:
        TableError: 403 for a guest; 409 when the table is closed; 422 a time bank out of
            0..3,600 s or buy-in rules out of bounds.
    """
    host = d.seated(c.by)
    d.require_host(host)
    d.require_open()
    s = d.state
    settings, lines = buyin.changed(s, {"min_buy_in": c.min_buy_in, "max_buy_in": c.max_buy_in,
                                        "min_top_up": c.min_top_up, "max_top_up": c.max_top_up,
                                        "match_biggest_stack": c.match_biggest_stack})
    if c.time_bank is not None:
        if isinstance(c.time_bank, bool) or not isinstance(c.time_bank, int) or not 0 <= c.time_bank <= MAX_TIME_BANK:
            raise TableError(422, f"time_bank must be a whole number of seconds from 0 (none) to {MAX_TIME_BANK:,}")
        if c.time_bank != int(s.settings.get("time_bank") or 0):
            settings["time_bank"] = c.time_bank
            lines.append(f"The host sets a time bank of {c.time_bank} s per person for the night (spent after "
                         "the turn clock runs out)" if c.time_bank else "The host turns the time bank off")
    if c.turn_clock is not None and c.turn_clock != s.turn_clock:
        settings["turn_clock"] = c.turn_clock
        lines.append(f"The host sets the turn clock to {c.turn_clock} s" if c.turn_clock
                     else "The host turns the turn clock off")
    if c.seat_approval is not None and c.seat_approval != s.seat_approval:
        settings["seat_approval"] = c.seat_approval
        lines.append("New seats need the host's approval" if c.seat_approval
                     else "New seats no longer need the host's approval")
    public = s.public if c.public is None else c.public
    if public != s.public:
        lines.append("The table is public: listed in the lobby" if public
                     else "The table is private: only its link leads here")
    d.write(SeatChange(s.id, table={"settings": settings, "public": public}))
    d.set(settings=settings, public=public)
    for line in lines:
        d.log(line)


def close(d: Draft, c: Close) -> dict[str, Any]:
    """Host: close the table - a deal in progress is voided (every chip returned), everyone is
    cashed out; the history and the ledger stay. Returns ``{"cashed_out": {name: chips}}``.

    Raises:
        TableError: 403 for a guest; 409 when already closed.
    """
    host = d.seated(c.by)
    d.require_host(host)
    d.require_open()
    return _close(d, host, "host ruling: the table is closed", "The host closes the table")


def operator_close(d: Draft, c: OperatorClose) -> dict[str, Any]:
    """The operator closes the table (docs/rules.md TP-10): as the host's close, the reason
    logged. Returns ``{"cashed_out": {name: chips}}``.

    Raises:
        TableError: 409 when already closed.
    """
    d.require_open()
    return _close(d, None, f"operator ruling: {c.reason}", f"The operator closes the table ({c.reason})")


def _close(d: Draft, host: Person | None, ruling: str, words: str) -> dict[str, Any]:
    s = d.state
    if s.in_progress:
        d.apply(host, s.table_game.void(ruling), void_reason=ruling)
    seated = sorted(d.state.players.items())
    d.write(SeatChange(
        s.id, moves=[(p.player_id, -p.balance, "cash_out") for _, p in seated],
        players={p.player_id: {"seat": None, "status": "left"} for _, p in seated},
        table={"status": "closed", "public": False}))
    out = {}
    people = dict(d.state.people)
    for _, p in seated:
        out[p.name] = p.balance
        people[p.player_id] = replace(p, seat=0, status="left", balance=0, leaving=False, away=p.away + p.balance)
    d.set(people=people, requests=(), status="closed", public=False, paused=False)
    d.log(f"{words}; everyone is cashed out: " + ", ".join(f"{n} {chips:,}" for n, chips in out.items()))
    return {"cashed_out": out}


def pause(d: Draft, c: Pause) -> None:
    """Host: pause the table (docs/rules.md TP-7): no clock runs, no deal starts, nobody acts
    until the host resumes. The time left on a running turn clock is kept.

    Raises:
        TableError: 403 for a guest; 409 when closed or already paused.
    """
    host = d.seated(c.by)
    d.require_host(host)
    d.require_open()
    if d.state.paused:
        raise TableError(409, "the table is already paused")
    d.set(paused=True, clock=pause_clock(d.state.clock, d.now))
    d.log("The host pauses the table: no clock runs and nobody acts until the host resumes")


def resume(d: Draft, c: Resume) -> None:
    """Host: resume a paused table; a turn clock that was running goes on with the time it had
    left (a bot's move waits its delay again).

    Raises:
        TableError: 403 for a guest; 409 when closed or not paused.
    """
    host = d.seated(c.by)
    d.require_host(host)
    d.require_open()
    if not d.state.paused:
        raise TableError(409, "the table is not paused")
    d.set(paused=False, clock=resume_clock(d.state.clock, d.now))
    d.log("The host resumes the table")


def void(d: Draft, c: VoidDeal) -> None:
    """Host: void the deal in progress (the engine's void: every chip returned), logged (TP-4).

    Raises:
        TableError: 403 for a guest; 409 with no deal in progress.
    """
    host = d.seated(c.by)
    d.require_host(host)
    s = d.state
    if not s.in_progress:
        raise TableError(409, "there is no deal in progress to void")
    number, ruling = s.number, f"host ruling: {c.reason}"
    d.apply(host, s.table_game.void(ruling), void_reason=ruling)
    d.log(f"{s.table_game.word} {number} voided ({ruling}); every chip wagered is returned")
