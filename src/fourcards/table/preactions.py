"""Acting ahead: pre-actions chosen before one's turn, and away (docs/rules.md TP-12).

* **Pre-actions** (a game that bets in rounds: Four of a Kind). A person dealt in who can still
  bet chooses, before their turn, what to do when it comes (:data:`KINDS`): *check/fold* (check if
  nobody bet, else fold), *check*, *call* (the amount to call shown when it was chosen), *call
  any* (call whatever it is; check if nobody bet) or *fold to any bet* (fold when facing a bet;
  check while nobody bets, and it stands until it folds or the deal ends). The moment the turn
  comes, the choice is applied as the person's own move (the log says so). Any change of the
  amount to call clears a *check* or *call* choice (as the home-game apps do); *check/fold*,
  *call any* and *fold to any bet* name what to do whatever the amount, so they stand. A choice
  is for one turn (*fold to any bet* aside) and goes with the deal.
* **Away.** A person who is away stays dealt in; at each of their turns the seat checks if it
  may, else folds, at once: no clock runs for it, nobody waits. "I'm back" (or any move of their
  own) ends it.

:func:`act_ahead` runs after every command (:func:`fourcards.table.apply`), before the clock is
armed: stale choices are cleared and, while the person to act is away or has a choice that
applies, their move is made. Pure functions of the draft of a change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from fourcards.table.clock import player_seat, turn_key
from fourcards.table.commands import PreAct, SetAway
from fourcards.table.draft import Draft
from fourcards.table.errors import TableError
from fourcards.table.players import default_action
from fourcards.table.state import Person, TableState

__all__ = ["KINDS", "PreAction", "choose", "set_away", "act_ahead", "options", "MAX_AHEAD"]

#: The pre-actions, by name.
KINDS = ("check_fold", "check", "call", "call_any", "fold")
#: What the page calls them (``{amount}``: the call's chips).
LABELS = {"check_fold": "Check/fold", "check": "Check", "call": "Call {amount}", "call_any": "Call any",
          "fold": "Fold to any bet"}
#: The log's words for a move made ahead.
_WHY = {"check_fold": "chosen ahead: check/fold", "check": "chosen ahead", "call": "chosen ahead",
        "call_any": "chosen ahead: call any", "fold": "chosen ahead: fold to any bet"}
#: Moves made ahead in one change at most (a guard; each one moves the deal on).
MAX_AHEAD = 64


@dataclass(frozen=True)
class PreAction:
    """A choice made ahead: ``kind`` (:data:`KINDS`), for deal ``deal``, made when the amount
    to call was ``to_call`` chips."""

    kind: str
    deal: int
    to_call: int

    def stored(self) -> list[Any]:
        """As the table's state keeps it: ``[kind, deal, to_call]``."""
        return [self.kind, self.deal, self.to_call]

    @classmethod
    def load(cls, data: Any) -> PreAction | None:
        """From :meth:`stored` (``None``: none, or a malformed entry)."""
        if not isinstance(data, list) or len(data) != 3 or data[0] not in KINDS:
            return None
        return cls(str(data[0]), int(data[1]), int(data[2]))

    def public(self) -> dict[str, Any]:
        """What the person's page shows: ``kind``, ``label``, ``to_call``."""
        return {"kind": self.kind, "label": LABELS[self.kind].format(amount=f"{self.to_call:,}"),
                "to_call": self.to_call}


def _betting(state: TableState, person: Person) -> tuple[int, int] | None:
    """``(player, to_call)`` of a person who may still bet in the deal in progress, else ``None``."""
    deal = state.deal
    if not state.table_game.pre_actions or deal is None or not state.in_progress:
        return None
    player = deal.seats.player_of(person)
    if player is None:
        return None
    to_call = state.table_game.to_call(state, player)
    return None if to_call is None else (player, to_call)


def _stale(state: TableState, person: Person) -> bool:
    pre = person.pre
    if pre is None:
        return False
    now = _betting(state, person)
    if now is None or pre.deal != state.number:
        return True
    return pre.kind in ("check", "call") and now[1] != pre.to_call


def choose(d: Draft, c: PreAct) -> dict[str, Any]:
    """A person chooses a pre-action (or clears it, ``kind`` ``None``). Returns
    ``{"pre_action": ...}`` (``None`` when cleared).

    Raises:
        TableError: 422 an unknown kind; 409 at a game without betting rounds, with no deal in
            progress, for a person not dealt in or who can no longer bet (folded, all-in), on
            one's own turn (act now), "check" facing a bet, "call" with nothing to call.
    """
    seat = d.seated(c.by)
    if seat.is_bot:
        raise TableError(403, "a bot's seat is played by the server")
    if c.kind is None:
        if seat.pre is not None:
            d.put(replace(seat, pre=None))
        return {"pre_action": None}
    if c.kind not in KINDS:
        raise TableError(422, f"pre-action {c.kind!r}: choose one of {', '.join(KINDS)}")
    d.require_open()
    s = d.state
    if not s.table_game.pre_actions:
        raise TableError(409, f"{s.table_game.title} has no betting rounds: each decision is made on one's turn")
    if not s.in_progress:
        raise TableError(409, "no deal is in progress: choose a pre-action once you are dealt in")
    now = _betting(s, seat)
    if now is None:
        raise TableError(409, "you cannot bet any more in this deal (not dealt in, folded or all-in)")
    player, to_call = now
    assert s.deal is not None
    if s.deal.game.actor == player:
        raise TableError(409, "it is your turn: act now")
    if c.kind == "check" and to_call:
        raise TableError(409, f"you face a bet of {to_call:,} to call: check is not open to you (check/fold, "
                              "call, call any or fold to any bet)")
    if c.kind == "call" and not to_call:
        raise TableError(409, "nothing to call: choose check (or call any, to call whatever comes)")
    pre = PreAction(c.kind, s.number, to_call)
    d.put(replace(seat, pre=pre))
    return {"pre_action": pre.public()}


def set_away(d: Draft, c: SetAway) -> None:
    """``seat`` is away, or back (its person, or the host for any seat); logged. Away at once
    acts if it is the seat's turn (:func:`act_ahead`).

    Raises:
        TableError: 403 for another's seat (not the host), a bot's; 404 an empty seat; 409 at a
            closed table or for a seat that is leaving.
    """
    by = d.seated(c.by)
    seat = d.seat_of(c.seat)
    if by.player_id != seat.player_id:
        d.require_host(by)
    if seat.is_bot:
        raise TableError(403, "a bot's seat is played by the server")
    d.require_open()
    if seat.leaving:
        raise TableError(409, f"{seat.name} has left the table: the seat cashes out when this "
                              f"{d.state.table_game.word.lower()} ends")
    if c.away == seat.is_away:
        return
    d.put(replace(seat, is_away=c.away, pre=None if c.away else seat.pre))
    host = " (the host's ruling)" if by.player_id != seat.player_id else ""
    d.log(f"{seat.name} is away{host}: checks when it may, else folds, at once" if c.away
          else f"{seat.name} is back{host}")


def _ahead(person: Person, options: Sequence[Any]) -> tuple[Any, str, bool] | None:
    """The move ``person`` makes at once now, why (the log's words) and whether the choice
    stands after it; ``None``: the person acts themselves."""
    if person.is_away:
        return default_action(options), "away", False
    pre = person.pre
    if pre is None:
        return None
    by = {o.kind.value: o for o in options}
    if pre.kind == "check_fold":
        return default_action(options), _WHY[pre.kind], False
    if pre.kind == "check" and "check" in by:
        return by["check"].action(), _WHY[pre.kind], False
    if pre.kind == "call" and "call" in by and by["call"].min_amount == pre.to_call:
        return by["call"].action(), _WHY[pre.kind], False
    if pre.kind == "call_any":
        option = by.get("call") or by.get("check")
        return (None if option is None else (option.action(), _WHY[pre.kind], False))
    if pre.kind == "fold":
        if "fold" in by:
            return by["fold"].action(), _WHY[pre.kind], False
        if "check" in by:
            return by["check"].action(), _WHY[pre.kind], True
    return None


def act_ahead(d: Draft) -> None:
    """After a command: clear the choices the deal has overtaken, then make the moves of the
    person to act while they are away or have a choice that applies (see the module doc). Not
    while the table is paused or closed."""
    for _ in range(MAX_AHEAD):
        for person in [p for p in d.state.people.values() if p.pre is not None]:
            if _stale(d.state, person):
                d.put(replace(person, pre=None))
        s = d.state
        if s.paused or s.status != "open" or s.deal is None:
            return
        key = turn_key(s)
        if key is None:
            return
        seat = player_seat(s, key[2])
        if seat is None or seat.is_bot or seat.sitting_out or not (seat.is_away or seat.pre is not None):
            return
        move = _ahead(seat, s.deal.game.legal_actions(key[2]))
        if move is None:
            return
        action, why, stands = move
        if seat.pre is not None and not stands:
            d.put(replace(seat, pre=None))
        start = len(d.lines)
        d.apply(d.person(seat.player_id), action)
        d.amend_log(start, f"{seat.name} ", f" ({why})")


def options(state: TableState, seat: Person | None) -> dict[str, Any] | None:
    """What ``seat``'s page offers ahead of its turn: ``chosen`` (the choice standing, or
    ``None``), ``to_call`` (chips, now) and ``options`` (``kind``, ``label``) - ``None`` when the
    seat cannot choose now (no betting game, not dealt in, folded, all-in, its own turn, away)."""
    if seat is None or seat.is_bot or seat.is_away or state.status != "open":
        return None
    now = _betting(state, seat)
    if now is None or state.deal is None or state.deal.game.actor == now[0]:
        return None
    to_call = now[1]
    kinds = ["check_fold", "call" if to_call else "check", "call_any", "fold"]
    return {"chosen": None if seat.pre is None or _stale(state, seat) else seat.pre.public(), "to_call": to_call,
            "options": [{"kind": k, "label": LABELS[k].format(amount=f"{to_call:,}")} for k in kinds]}
