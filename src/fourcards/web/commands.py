"""One command path: (operation, body, person) -> a table command, for REST and the websocket alike.

Every change a person asks for - a REST route (:mod:`fourcards.web.routes`) or a websocket
message (:mod:`fourcards.web.routes.live`) - is named by an operation of :data:`OPERATIONS`,
with its body validated by the same schema (:mod:`fourcards.web.schemas`) and the caller's
seat token; :func:`command` builds the table's command from them (the person is looked up in
the state the command is applied to, again after a lost race) and :func:`run` executes it
(:class:`fourcards.web.execution.Execution`). The answers a route gives reuse the views the
publisher built for the new state (:func:`answer_view`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fourcards.table import (
    Act,
    ActFor,
    AddBots,
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
    Outcome,
    Pause,
    PreAct,
    Resume,
    SeatWithoutPhone,
    SetAway,
    SetHandle,
    SetSettleUp,
    SetStatus,
    StartDeal,
    TableState,
    TakeBackCard,
    TopUp,
    VoidDeal,
)
from fourcards.web.deps import person_of, viewer_of
from fourcards.web.tokens import hash_token, new_token

if TYPE_CHECKING:
    from fourcards.web.hub import Hub
    from fourcards.web.schemas import ActionIn

__all__ = ["Maker", "Operation", "OPERATIONS", "command", "run", "move_of", "answer_view"]

#: A command to apply, built from the table's state it is applied to.
Maker = Callable[[TableState], Command]
#: Who gives a command: the player id of the caller in a state.
By = Callable[[TableState], int]


def move_of(body: ActionIn) -> Move:
    """The table's move of an action's body (:class:`~fourcards.web.schemas.ActionIn`)."""
    return Move(body.kind, body.ante, body.aces_up, body.amount, body.trainer)


def _action_id(body: Any) -> str | None:
    return None if body is None else body.action_id


@dataclass(frozen=True)
class Operation:
    """One operation a person may ask for: ``build(body, by)`` makes its command (``body``:
    the validated request body; for a route with a seat or request in its path, a tuple
    with it first); ``bots``: bots move after it when it is their turn (a chat message or
    a mute moves nothing)."""

    build: Callable[[Any, By], Maker]
    bots: bool = True


def _seat_op(make: Callable[[int, int], Command]) -> Operation:
    return Operation(lambda seat, by: lambda s: make(by(s), seat))


def _action(body: ActionIn, by: By) -> Maker:
    move = move_of(body)  # once per request, not once per attempt
    return lambda s: Act(by(s), move, body.action_id)


def _act_for(seat_body: tuple[int, ActionIn], by: By) -> Maker:
    seat, body = seat_body
    move = move_of(body)
    return lambda s: ActFor(by(s), seat, move, body.action_id)


def _bots(body: Any, by: By) -> Maker:
    hashes = tuple(hash_token(new_token()) for _ in range(body.count))  # the bots' seat tokens, never shown
    return lambda s: AddBots(by(s), hashes, body.kind)


#: The operations, by name (the websocket's ``op`` where it has one).
OPERATIONS: dict[str, Operation] = {
    "join": Operation(lambda bt, by: lambda s: Join(bt[0].name, bt[1], bt[0].buy_in)),
    "action": Operation(_action),
    "act_for": Operation(_act_for),
    "deal": Operation(lambda b, by: lambda s: StartDeal(by(s), _action_id(b))),
    "void": Operation(lambda b, by: lambda s: VoidDeal(by(s), b.reason, b.action_id)),
    "pause": Operation(lambda b, by: lambda s: Pause(by(s))),
    "resume": Operation(lambda b, by: lambda s: Resume(by(s))),
    "close": Operation(lambda b, by: lambda s: Close(by(s))),
    "chat": Operation(lambda b, by: lambda s: Chat(by(s), b.text, b.reaction, b.action_id), bots=False),
    "mute": Operation(lambda sm, by: lambda s: Mute(by(s), sm[0], sm[1]), bots=False),
    "bots": Operation(_bots),
    "settings": Operation(lambda b, by: lambda s: Configure(
        by(s), b.public, b.turn_clock, b.seat_approval, b.time_bank, b.min_buy_in, b.max_buy_in, b.min_top_up,
        b.max_top_up, b.match_biggest_stack)),
    "decide": Operation(lambda rb, by: lambda s: Decide(by(s), rb[0], rb[1].approve)),
    "cards": Operation(lambda b, by: lambda s: EnterCards(by(s), b.cards, b.action_id)),
    "take_back": Operation(lambda b, by: lambda s: TakeBackCard(by(s), _action_id(b))),
    "seat_without_phone": Operation(lambda bt, by: lambda s: SeatWithoutPhone(by(s), bt[0].name, bt[1])),
    "sit_out": _seat_op(lambda by, seat: SetStatus(by, seat, True)),
    "back": _seat_op(lambda by, seat: SetStatus(by, seat, False)),
    "leave": _seat_op(lambda by, seat: Leave(by, seat)),
    "new_device": Operation(lambda st, by: lambda s: NewDevice(by(s), st[0], st[1])),
    "top_up": Operation(lambda b, by: lambda s: TopUp(by(s), b.amount)),
    "pre_action": Operation(lambda b, by: lambda s: PreAct(by(s), b.kind), bots=False),
    "away": Operation(lambda sb, by: lambda s: SetAway(by(s), sb[0], sb[1].away)),
    "handle": Operation(lambda b, by: lambda s: SetHandle(by(s), b.handle), bots=False),
    "settle_up": Operation(lambda b, by: lambda s: SetSettleUp(
        by(s), None if b.chip_value is None else (b.chip_value.chips, b.chip_value.cents, b.chip_value.currency),
        "chip_value" in b.model_fields_set, b.banker)),
}


def command(op: str, body: Any, token: str | None) -> Maker:
    """The command of operation ``op`` (:data:`OPERATIONS`) with its validated ``body``, given by
    the person holding the seat ``token`` (looked up in the state it is applied to).

    Raises:
        KeyError: an unknown operation (a server's mistake; clients' ops are checked before).
    """
    def by(s: TableState) -> int:
        return person_of(s, token).player_id

    return OPERATIONS[op].build(body, by)


async def run(hub: Hub, table_id: str, op: str, body: Any, token: str | None) -> Outcome:
    """Execute operation ``op`` at the table (apply, commit, publish; then the bots unless the
    operation moves nothing).

    Raises:
        TableError: the command's refusal (nothing changed), 409 lost races, 503 database.
    """
    return await hub.execute(table_id, command(op, body, token), bots=OPERATIONS[op].bots)


def answer_view(hub: Hub, out: Outcome, token: str | None) -> dict[str, Any]:
    """The caller's view of the table after a command and the bots' moves that followed it - the
    view the publisher built for that state when it has one (``repeated``: an action id applied
    before - nothing was done this time)."""
    state = hub.repo.copies.get(out.state.id, out.state)
    seat, request = viewer_of(state, token) if token else (None, None)
    view = hub.publisher.built_view(state, seat, request)
    if out.repeated:
        view["repeated"] = True
    return view
