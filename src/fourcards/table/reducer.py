"""One function applies every change of a table: ``apply(state, command, now, rng) -> Outcome``.

The command's handler (:mod:`~fourcards.table.seating`, :mod:`~fourcards.table.host`,
:mod:`~fourcards.table.play`) works on a :class:`~fourcards.table.draft.Draft`; then the clock
is armed for the turn that follows and the new log lines are kept. The result is an
:class:`Outcome`: the new state (the old one is untouched), the writes for the store, the new
log lines, the command's answer and the events the server must carry out.

Action ids (docs/rules.md TP-8): a command that carries ``action_id`` and whose person has
already had that id applied is answered as the first time (with ``"repeated": true``) and
changes nothing; an applied one is remembered with its answer (the last
:data:`~fourcards.table.state.INTENTS_KEPT` per person). A refused command changes nothing,
so its id is not kept.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from fourcards.errors import FourcardsError
from fourcards.table import chat, host, play, preactions, seating, settleup
from fourcards.table.clock import arm, bank_spent
from fourcards.table.commands import (
    MAX_ACTION_ID,
    Act,
    ActFor,
    AddBots,
    BotMove,
    Chat,
    Close,
    Command,
    Configure,
    Decide,
    EnterCards,
    Join,
    Leave,
    Mute,
    NewDevice,
    OperatorClose,
    OperatorRemove,
    Pause,
    PreAct,
    Resume,
    SeatWithoutPhone,
    SetAway,
    SetHandle,
    SetSettleUp,
    SetStatus,
    Sit,
    StartDeal,
    TakeBackCard,
    TakeUp,
    Timeout,
    TopUp,
    VoidDeal,
    check_move,
)
from fourcards.table.draft import Draft, Event
from fourcards.table.errors import TableError
from fourcards.table.state import INTENTS_KEPT, Answer, TableState
from fourcards.table.writes import Write

__all__ = ["Outcome", "apply", "HANDLERS"]

#: The handler of each command.
HANDLERS: dict[type[Command], Callable[[Draft, Any], Any]] = {
    Sit: seating.sit, Join: seating.join, AddBots: seating.add_bots, Decide: seating.decide,
    TopUp: seating.top_up, SetStatus: seating.set_status, Leave: seating.leave, NewDevice: seating.new_device,
    Configure: host.configure, Close: host.close, Pause: host.pause, Resume: host.resume, VoidDeal: host.void,
    StartDeal: play.start_deal, Act: play.act, ActFor: play.act_for, EnterCards: play.enter_cards,
    TakeBackCard: play.take_back, Timeout: play.timeout, BotMove: play.bot_move, TakeUp: play.take_up,
    SeatWithoutPhone: seating.seat_without_phone, Chat: chat.chat, Mute: chat.mute,
    SetSettleUp: settleup.set_terms, OperatorClose: host.operator_close, OperatorRemove: seating.operator_remove,
    PreAct: preactions.choose, SetAway: preactions.set_away, SetHandle: settleup.set_handle,
}


@dataclass(frozen=True)
class Outcome:
    """What a command did: ``state`` (the new table; the same object when nothing changed),
    ``writes`` (for the store, in order), ``lines`` (new table log lines), ``answer`` (JSON
    for the caller), ``events`` (for the server: connections to close, trainer advice to
    compute), ``new_ids`` (stand-in player ids of the people it seated, in the order of their
    :class:`~fourcards.table.writes.NewPlayer` writes), ``repeated`` (an action id already
    applied: nothing was done) and ``old`` (the state the command was applied to)."""

    state: TableState
    writes: tuple[Write, ...] = ()
    lines: tuple[str, ...] = ()
    answer: Answer | None = None
    events: tuple[Event, ...] = ()
    new_ids: tuple[int, ...] = ()
    repeated: bool = False
    old: TableState | None = None

    @property
    def changed(self) -> bool:
        """Whether there is anything to store: writes, log lines or a new state."""
        return bool(self.writes or self.lines) or self.state is not self.old


def _check_action_id(action_id: Any) -> None:
    if not isinstance(action_id, str) or not 1 <= len(action_id) <= MAX_ACTION_ID:
        raise TableError(422, f"action_id must be text of 1 to {MAX_ACTION_ID} characters")


def _charge_bank(state: TableState, d: Draft, clock: Any) -> None:
    """A turn that ended having spent some of its person's time bank charges it (TP-13)."""
    old = state.clock
    if not old.bank or old.key is None or clock.key == old.key or state.deal is None:
        return
    spent = bank_spent(old, d.now)
    person = d.state.people.get(state.deal.seats.player_id(old.key[2]))
    if spent > 0 and person is not None:
        d.put(replace(person, bank_used=person.bank_used + spent))


def apply(state: TableState, command: Command, now: float, rng: random.Random | None = None) -> Outcome:
    """Apply ``command`` to ``state`` at ``now`` (Unix seconds), chance outcomes from ``rng``
    (``None``: the OS CSPRNG).

    Returns:
        the :class:`Outcome`; ``state`` itself is never changed.
    Raises:
        TableError: the command is refused (its status and sentence); nothing changed. A malformed
            move (:func:`~fourcards.table.commands.check_move`) and any engine error a handler did
            not turn into its own refusal are 422 - no other exception leaves for bad input.
    """
    handler = HANDLERS.get(type(command))
    if handler is None:
        raise TableError(422, f"unknown command {type(command).__name__}")
    action_id = getattr(command, "action_id", None)
    by = getattr(command, "by", None)
    if action_id is not None:
        _check_action_id(action_id)
        if by is not None:
            known = state.answer_of(by, action_id)
            if known is not None:
                return Outcome(state, answer={**known, "repeated": True}, repeated=True, old=state)
    move = getattr(command, "move", None)
    if move is not None:
        check_move(move)
    d = Draft(state, now, rng)
    try:
        answer = handler(d, command) or {}
    except FourcardsError as exc:  # an engine's error the handler did not word: the command was malformed
        raise TableError(422, str(exc)) from None
    if action_id is not None and by is not None:
        kept = ((action_id, answer), *d.state.intents.get(by, ()))[:INTENTS_KEPT]
        d.set(intents={**d.state.intents, by: kept})
    preactions.act_ahead(d)  # away seats and moves chosen ahead (docs/rules.md TP-12)
    clock = arm(d.state, now)
    _charge_bank(state, d, clock)
    if clock != d.state.clock:
        d.set(clock=clock)
    if d.lines:
        d.set(log=d.finished_log())
    return Outcome(d.state, tuple(d.writes), tuple(d.lines), answer, tuple(d.events), tuple(d.new_ids), old=state)
