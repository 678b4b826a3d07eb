"""The shared table as a pure state machine: ``apply(state, command, now, rng) -> Outcome``.

A table's state (:class:`TableState`: settings, people and seats, tokens' hashes, waiting
requests, the turn clock, the pause, the deal's engine state, the log, recent action ids) is
immutable data; every change is a command (:mod:`fourcards.table.commands`) applied by one
function (:func:`apply`), which returns the new state, the writes the store must make, the new
log lines, the command's answer and the events a server must carry out. Time (``now``) and
chance (``rng``) come in as arguments, so every rule is a deterministic function; a refused
command raises :class:`TableError` and changes nothing. A seat's view is a projection of the
state (:func:`fourcards.table.views.view`).

This package knows nothing of the web or of databases: servers (:mod:`fourcards.web`) load a
state, apply a command, store what it wrote and publish the views. The rulings it applies are
docs/rules.md TP-1 to TP-15 and each game's (FCP-*, FOAK-*).
"""

from fourcards.table.commands import (
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
    Move,
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
)
from fourcards.table.errors import TableError
from fourcards.table.reducer import Outcome, apply
from fourcards.table.state import Clock, DealState, Person, SeatRequest, TableState

__all__ = ["apply", "Outcome", "TableError", "TableState", "Person", "SeatRequest", "Clock", "DealState",
           "Command", "Move", "Sit", "Join", "AddBots", "Decide", "TopUp", "SetStatus", "Leave", "NewDevice",
           "Configure", "Close", "StartDeal", "Act", "ActFor", "EnterCards", "TakeBackCard", "VoidDeal", "Pause",
           "Resume", "Timeout", "BotMove", "TakeUp", "Chat", "Mute", "SeatWithoutPhone", "SetSettleUp",
           "OperatorClose", "OperatorRemove", "PreAct", "SetAway", "SetHandle"]
