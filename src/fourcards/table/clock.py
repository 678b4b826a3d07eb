"""The turn clock, the work a table is due for without a request, and time lost to downtime.

* Each turn of the deal in progress has a key (deal number, history length, engine player);
  a new turn starts a new :class:`~fourcards.table.state.Clock` (:func:`arm`): for a person,
  the table's turn clock runs out ``turn_clock`` seconds later (none for a seat that sits out:
  it is skipped at once); for a bot, its move is due a bot delay after the turn began.
* :func:`due_at` is when the table next needs a server (Unix seconds); :func:`due` says what
  for - a bot's move or a time-out (a time-out also skips a seat that sits out).
* The time bank (docs/rules.md TP-13): a person's deadline includes the seconds left of their
  night's time bank (:func:`bank_left`), which are spent only once the turn clock has run out
  (:attr:`~fourcards.table.state.Clock.bank`); what a turn spent of it is :func:`bank_spent`.
* Pause (docs/rules.md TP-7): the clock keeps the seconds left, nothing is due.
* Downtime (TP-6): when no server was alive from ``down_from`` to ``down_to``, the person to
  act gets the time they had left when the last server went, and at least
  :data:`MIN_LEFT_AFTER_DOWNTIME_S`; a bot's move waits its delay again (:func:`taken_up`).

Every function is pure: time comes in as ``now``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fourcards.table.state import Clock, Person, TableState

__all__ = ["BOT_RESCUE_S", "MIN_LEFT_AFTER_DOWNTIME_S", "turn_key", "actor_seat", "arm", "due_at", "due",
           "pause_clock", "resume_clock", "taken_up", "clock_view", "time_bank", "bank_left", "bank_spent"]

#: Seconds after which a bot to move is due for any server when bots move at once (no bot
#: delay): the server whose change made it the bot's turn moves it first; this only matters
#: if that server died in between.
BOT_RESCUE_S = 2.0
#: The least time a person to act has after a downtime (docs/rules.md TP-6).
MIN_LEFT_AFTER_DOWNTIME_S = 10.0
#: A due time within this many seconds counts as come.
_EARLY_S = 0.05


def turn_key(state: TableState) -> tuple[int, int, int] | None:
    """The key of the turn in progress (deal number, history length, engine player), or ``None``
    when nobody is to act (no deal, a chance step, an open phase, the end, a closed table)."""
    deal = state.deal
    if state.status != "open" or deal is None or not deal.opened:
        return None
    actor = deal.game.actor
    if actor is None:
        return None
    return (deal.number, len(deal.game.history), actor)


def actor_seat(state: TableState) -> Person | None:
    """The person (or bot) to act in the deal in progress."""
    key = turn_key(state)
    return None if key is None else player_seat(state, key[2])


def player_seat(state: TableState, player: int) -> Person | None:
    """The seated person who plays engine ``player`` of the deal in progress (its
    :class:`~fourcards.table.seats.DealSeats`), else ``None``."""
    return None if state.deal is None else state.deal.seats.person(player, state.people)


def _timed(state: TableState, seat: Person | None) -> bool:
    return seat is not None and not seat.is_bot and not seat.sitting_out and state.turn_clock > 0


def time_bank(state: TableState) -> int:
    """Seconds of time bank each person has for the night (0: none; the host sets it, TP-13)."""
    return int(state.settings.get("time_bank") or 0)


def bank_left(state: TableState, person: Person) -> float:
    """Seconds of ``person``'s time bank not yet spent tonight (0 without a bank)."""
    return max(0.0, time_bank(state) - person.bank_used)


def bank_spent(clock: Clock, now: float) -> float:
    """Seconds of the time bank the turn of ``clock`` has spent by ``now``: what of the bank the
    time left no longer covers (0 while the turn clock itself runs)."""
    if not clock.bank:
        return 0.0
    left = (clock.deadline - now) if clock.deadline is not None else (clock.left or 0.0)
    return min(clock.bank, max(0.0, clock.bank - left))


def arm(state: TableState, now: float) -> Clock:
    """The clock after a change: the same while the turn is the same; a new turn starts anew
    (``since`` = ``now``, a person's deadline ``turn_clock`` seconds on, and the seconds left of
    their time bank after that - kept as seconds left while paused); no turn, no clock."""
    key = turn_key(state)
    if key == state.clock.key:
        return state.clock
    if key is None:
        return Clock()
    seat = player_seat(state, key[2])
    if not _timed(state, seat):
        return Clock(key, now)
    assert seat is not None
    bank = bank_left(state, seat)
    if state.paused:
        return Clock(key, now, None, float(state.turn_clock) + bank, bank)
    return Clock(key, now, now + state.turn_clock + bank, None, bank)


def due_at(state: TableState, bot_delay: float) -> float | None:
    """When the table next needs a server without a request (Unix seconds): a bot's move
    (``bot_delay`` after its turn began, :data:`BOT_RESCUE_S` with none), a seat that sits out
    (at once), a person's turn clock; ``None`` - nothing due (also while paused)."""
    clock = state.clock
    if state.paused or clock.key is None or clock.key != turn_key(state):
        return None
    seat = player_seat(state, clock.key[2])
    if seat is None:
        return None
    since = clock.since or 0.0
    if seat.is_bot:
        return since + (bot_delay if bot_delay > 0 else BOT_RESCUE_S)
    if seat.sitting_out:
        return since
    return clock.deadline


def due(state: TableState, now: float, bot_delay: float) -> tuple[str, tuple[int, int, int]] | None:
    """What is due at ``now``: ``("bot", key)`` - the bot to act moves; ``("timeout", key)`` -
    a person's time ran out or a seat that sits out is skipped; ``None``: nothing."""
    at = due_at(state, bot_delay)
    if at is None or at > now + _EARLY_S:
        return None
    key = state.clock.key
    assert key is not None
    seat = player_seat(state, key[2])
    return ("bot" if seat is not None and seat.is_bot else "timeout"), key


def ran_out(state: TableState, now: float) -> bool:
    """Whether the running turn clock has run out at ``now``."""
    d = state.clock.deadline
    return d is not None and d <= now + _EARLY_S


def pause_clock(clock: Clock, now: float) -> Clock:
    """The clock of a table the host pauses: the seconds left kept, no deadline."""
    if clock.deadline is None:
        return clock
    return replace(clock, deadline=None, left=max(0.0, clock.deadline - now))


def resume_clock(clock: Clock, now: float) -> Clock:
    """The clock of a table the host resumes: the seconds left run again from ``now``; a
    bot's move waits its delay from ``now``."""
    if clock.key is None:
        return clock
    if clock.left is None:
        return replace(clock, since=now)
    return replace(clock, since=now, deadline=now + clock.left, left=None)


def taken_up(state: TableState, down_from: float, down_to: float, now: float) -> tuple[Clock, float | None]:
    """The clock after a downtime from ``down_from`` to ``down_to`` (no server alive), and the
    seconds the person to act has from ``now`` (``None``: no person's clock changed). A turn
    that began after the downtime is left as it is (so taking up twice changes nothing)."""
    clock = state.clock
    if clock.key is None or clock.key != turn_key(state) or (clock.since or 0.0) >= down_to:
        return clock, None
    if clock.deadline is None:  # a bot's move, a seat sitting out, a paused table: its delay anew
        return replace(clock, since=now), None
    left = max(clock.deadline - down_from, MIN_LEFT_AFTER_DOWNTIME_S)
    return replace(clock, since=now, deadline=now + left, left=None), left


def clock_view(state: TableState, now: float) -> dict[str, Any] | None:
    """The running turn clock: ``seat``, ``name``, ``seconds`` (the table's clock),
    ``deadline`` (Unix time, seconds; ``None`` while paused) and ``seconds_left`` now (until the
    seat's time runs out, its time bank included), ``paused``; the time bank (TP-13): ``bank``
    (its seconds in this turn, spent after the turn clock's), ``bank_left`` (of them, now) and
    ``in_bank`` (the turn clock has run out: the bank is being spent); ``None`` when no person's
    clock runs."""
    clock = state.clock
    if clock.key is None or clock.key != turn_key(state) or (clock.deadline is None and clock.left is None):
        return None
    seat = player_seat(state, clock.key[2])
    if seat is None:
        return None
    left = (clock.left if clock.deadline is None else max(0.0, clock.deadline - now)) or 0.0
    bank = min(clock.bank, left)
    return {"seat": seat.seat, "name": seat.name, "seconds": state.turn_clock,
            "deadline": None if clock.deadline is None else round(clock.deadline, 3),
            "seconds_left": round(left, 3), "paused": state.paused, "bank": round(clock.bank, 3),
            "bank_left": round(bank, 3), "in_bank": bool(clock.bank) and left <= clock.bank}
