"""What a seat sees of a table: a projection of the state for that seat (and a spectator's).

A view is the table's summary, its players, log and bot kinds - the *shared* part, the same
for everyone - and the viewer's *own* part: their seat, the game's view for them (cards only
they may see, the actions open to them), the host's actions, the turn clock and requests.
What a view shows that the state does not hold - who has a connection open, trainer advice,
the exact odds computed in a worker thread, the bot kinds a server offers, its public address,
the time now - comes in as :class:`Extras`.

Nothing here changes a state; every function is a pure function of its arguments. A view's
size never depends on a number a client chose (a table limit, an amount): legal amounts
travel as ranges (``min``/``max``), lists only where the rules fix them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from fourcards.table import buyin, preactions
from fourcards.table.clock import bank_left, clock_view, time_bank, turn_key
from fourcards.table.play import may_deal
from fourcards.table.state import Person, SeatRequest, TableState

__all__ = ["Extras", "summary", "host_actions", "can_deal", "turn_id", "shared_view", "own_view", "view", "CHAT_SHOWN"]

#: Chat messages a view carries (the latest): 30 of the longest (200 four-byte emoji) keep every
#: view under 48 KiB (tests/table/test_issue21_table.py).
CHAT_SHOWN = 30


@dataclass
class Extras:
    """What a view shows besides the state: ``now`` (Unix seconds: the clock's seconds left),
    ``public_url`` (the server's address people reach: invitation links), ``online`` (open
    connections per player id), ``trainer`` (advice per table seat), ``odds`` (per engine
    player of the deal in progress), ``bot_kinds`` (the bots offered). One :class:`Extras`
    serves every view of one state (it caches their shared parts)."""

    now: float
    public_url: str | None = None
    online: Mapping[int, int] = field(default_factory=dict)
    trainer: Mapping[int, dict[str, Any]] = field(default_factory=dict)
    odds: Mapping[int, Any] = field(default_factory=dict)
    bot_kinds: tuple[str, ...] = ()
    cache: dict[Any, tuple[Any, Any]] = field(default_factory=dict)

    def cached(self, name: str, of: Any, build: Callable[[], Any]) -> Any:
        """``build()`` once for ``name`` of the object ``of`` (a state, a deal's engine state):
        the views of one state share it."""
        key = (name, id(of))
        hit = self.cache.get(key)
        if hit is None or hit[0] is not of:
            hit = (of, build())
            self.cache[key] = hit
        return hit[1]

    def shared_game(self, state: TableState, build: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """The part of the game's view every seat shares (see :meth:`cached`)."""
        return self.cached("game", state, build)


def invite_url(state: TableState, public_url: str | None) -> str | None:
    """The table's link from the server's public address (``None`` when not configured: a page
    then uses its own address)."""
    return None if not public_url else f"{public_url.rstrip('/')}/t/{state.id}"


def summary(state: TableState, public_url: str | None = None) -> dict[str, Any]:
    """The table's public entry (lobby, views); never a token."""
    host = state.host
    players = state.players
    return {
        "id": state.id, "name": state.name, "game": state.game, "game_title": state.table_game.title,
        "rules": state.rules_dict, "rules_label": state.table_game.rules_label(state.rules),
        "players": len(players), "max_seats": state.max_seats,
        "humans": sum(1 for p in players.values() if not p.is_bot),
        "bots": sum(1 for p in players.values() if p.is_bot),
        "in_progress": state.in_progress, "deals": state.next_deal_number - 1,
        "join_url": f"/t/{state.id}", "invite_url": invite_url(state, public_url), "qr_url": f"/t/{state.id}/qr.svg",
        "history_url": f"/t/{state.id}/history", "status": state.status, "public": state.public,
        "host": host.name if host else None, "word": state.table_game.word, "paused": state.paused,
        "settings": dict(state.settings),
        "buy_in": {**buyin.limits(state), "default": buyin.buy_in(state, None), "words": buyin.words(state)},
    }


def host_actions(state: TableState, seat: Person | None, dealable: bool | None = None) -> list[str]:
    """What ``seat`` may do as host now: ``add_bots``, ``deal``, ``void``, ``pause`` or
    ``resume``, and at any time ``seats`` (sit out, remove, hand to a new device), ``requests``
    (approve or turn down), ``settings`` (public, turn clock, seat approval), ``close``; another
    person only ``deal``, while the host sits out; none at a closed table. ``dealable``: whether
    a deal may start now (:func:`can_deal`), when the caller has it already."""
    if seat is None or state.status != "open":
        return []
    if dealable is None:
        dealable = can_deal(state)
    if not seat.is_host:
        return ["deal"] if may_deal(state, seat) and dealable else []
    out = ["add_bots"] if len(state.players) < state.max_seats else []
    if dealable:
        out.append("deal")
    if state.in_progress:
        out.append("void")
    out.append("resume" if state.paused else "pause")
    return [*out, "seats", "requests", "settings", "close"]


def can_deal(state: TableState) -> bool:
    """Whether a deal may start now: the table is not paused and the game allows one."""
    return not state.paused and bool(state.table_game.can_deal(state))


def turn_id(state: TableState) -> str | None:
    """The turn in progress as text, ``"deal:history length:engine player"`` (``None``: nobody is
    to act): a page cues its person once per turn (docs/web.md "Your turn reaches you")."""
    key = turn_key(state)
    return None if key is None else ":".join(str(k) for k in key)


def shared_view(state: TableState, extras: Extras) -> dict[str, Any]:
    """The part of every view that is the same for everyone (cached per state in ``extras``):
    the summary, the players, the log, the bot kinds, ``paused``, ``turn`` (:func:`turn_id`) and
    ``chat`` (the latest :data:`CHAT_SHOWN` messages, oldest first)."""
    def build() -> dict[str, Any]:
        return {"type": "state", "version": state.version, "table": summary(state, extras.public_url),
                "players": [p.public(extras.online.get(p.player_id, 0) > 0) for _, p in sorted(state.players.items())],
                "log": list(state.log), "bot_kinds": list(extras.bot_kinds), "paused": state.paused,
                "turn": turn_id(state), "chat": [line.public() for line in state.chat[-CHAT_SHOWN:]]}

    return extras.cached("shared", state, build)


def own_view(state: TableState, seat: Person | None, request: SeatRequest | None, extras: Extras) -> dict[str, Any]:
    """The part of a view that is ``seat``'s own: ``you`` (with ``player_id``, ``timeouts``,
    ``muted``, ``time_bank`` - seconds left of the night's time bank, ``None`` without one - and
    ``top_up`` - what a top-up may be now, :func:`fourcards.table.buyin.top_up_range`),
    the game's view for the seat, ``host_actions``, ``clock``, ``pre_actions`` (what the seat may
    choose ahead of its turn: :func:`fourcards.table.preactions.options`), ``request`` (the
    viewer's own seat request) and ``requests`` (the host's list)."""
    you = None
    if seat is not None:
        you = {**seat.public(extras.online.get(seat.player_id, 0) > 0), "player_id": seat.player_id,
               "timeouts": seat.timeouts,
               "time_bank": round(bank_left(state, seat), 1) if time_bank(state) else None,
               "top_up": buyin.top_up_range(state, seat)}
    out: dict[str, Any] = {"you": you}
    out.update(state.table_game.view(state, seat, extras))
    # the parts that are the same for every seat: built once per state (issue 28 item 7)
    out["host_actions"] = host_actions(state, seat, extras.cached("can_deal", state, lambda: can_deal(state)))
    out["clock"] = extras.cached("clock", state, lambda: clock_view(state, extras.now))
    out["pre_actions"] = preactions.options(state, seat)
    out["request"] = None if request is None else request.public()
    out["requests"] = [r.public() for r in state.requests] if seat is not None and seat.is_host else []
    return out


def view(state: TableState, seat: Person | None, request: SeatRequest | None, extras: Extras) -> dict[str, Any]:
    """The full state message for ``seat`` (``None``: a spectator; ``request``: the viewer's
    own seat request waiting for the host)."""
    return {**shared_view(state, extras), **own_view(state, seat, request, extras)}
