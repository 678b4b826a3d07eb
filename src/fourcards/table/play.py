"""The deal at a table: the host's deal, a person's move, the host's moves and real cards at a
table dealt by hand (docs/rules.md FOAK-14 to FOAK-16), a time-out, a bot's move, and taking a
table up after downtime (TP-6).

Each handler takes the draft of a change and its command and returns its answer (JSON).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fourcards.errors import FourcardsError
from fourcards.table.clock import player_seat, ran_out, taken_up, turn_key
from fourcards.table.commands import (
    Act,
    ActFor,
    BotMove,
    EnterCards,
    Move,
    StartDeal,
    TakeBackCard,
    TakeUp,
    Timeout,
)
from fourcards.table.draft import Draft, TrainerAsked
from fourcards.table.errors import TableError
from fourcards.table.players import default_action
from fourcards.table.seen import observe
from fourcards.table.state import Person
from fourcards.table.writes import TakeBack

__all__ = ["TIMEOUTS_TO_SIT_OUT", "may_deal", "start_deal", "act", "act_for", "enter_cards", "take_back",
           "timeout", "bot_move", "take_up"]

#: Time-outs in a row after which a seat sits out (DESIGN.md "Table play (web) rulings").
TIMEOUTS_TO_SIT_OUT = 2


def may_deal(d: Draft | Any, seat: Person) -> bool:
    """The host deals; while the host sits out (its phone gone dark: two time-outs) any person
    playing at the table may, so the table never waits on the host (``d``: a draft or a state)."""
    if seat.is_host:
        return True
    state = d.state if isinstance(d, Draft) else d
    host = state.host
    return (host is None or host.status == "sitting_out") and not seat.is_bot and seat.status == "playing" \
        and not seat.leaving


def start_deal(d: Draft, c: StartDeal) -> None:
    """The host's deal (Four Card Poker: bots ante, the cards are dealt; Four of a Kind: the next
    deal starts); while the host sits out, any person playing.

    Raises:
        TableError: 403 for another person; 409 closed, paused, or no deal can be made now.
    """
    seat = d.seated(c.by)
    if not may_deal(d, seat):
        d.require_host(seat)
    d.require_open()
    d.require_running("the next deal starts")
    d.state.table_game.start(d)


def _move(d: Draft, seat: Person, move: Move) -> tuple[int, Any]:
    """The engine player of ``seat`` and the action of ``move`` (checked: the game's, a deal in
    progress, the seat dealt in and not leaving)."""
    s = d.state
    kinds = s.table_game.action_kinds
    if move.kind not in kinds:
        raise TableError(422, f"{move.kind!r} is not a {s.table_game.title} action: use {', '.join(kinds)}")
    if s.deal is None:
        raise TableError(409, "no deal is in progress: the host starts the next deal")
    player = s.deal.seats.player_of(seat)
    if player is None:
        raise TableError(409, "you are not dealt in this deal; you play from the next one")
    return player, observe(s.deal.game, player)


def act(d: Draft, c: Act) -> None:
    """A person's own move (validated by the engine); a person who acts is back (no
    time-outs, not sitting out).

    Raises:
        TableError: 403 for a bot's seat; 422 for a move of the other game or a malformed one;
            409 closed, paused, no deal in progress, leaving, out of turn, an action the
            engine refuses (its message) or without the chips.
    """
    seat = d.seated(c.by)
    if seat.is_bot:
        raise TableError(403, "a bot's seat is played by the server")
    d.require_open()
    player, seen = _move(d, seat, c.move)
    if seat.leaving:
        raise TableError(409, "you are leaving the table: your hand is forfeited and the seat cashes out when "
                              "this deal ends")
    d.require_running("moves are made")
    game = d.state.table_game
    action = game.action(d.state, c.move, player, seen)
    deal = d.state.deal
    assert deal is not None
    if deal.game.actor is not None and deal.game.actor != player:
        raise TableError(409, f"not your turn: {deal.seats.name(deal.game.actor)} is to act "
                              "(nobody acts out of turn)")
    d.apply(seat, action)
    game.moved(d, d.person(seat.player_id), c.move)
    seat = d.person(seat.player_id)
    if seat.timeouts:
        d.put(replace(seat, timeouts=0))
    if seat.status == "sitting_out":
        d.set_status(d.person(seat.player_id), "playing")
        d.log(f"{seat.name} is back")
    seat = d.person(seat.player_id)
    if seat.is_away:  # a move of one's own ends away (docs/rules.md TP-12)
        d.put(replace(seat, is_away=False))
        d.log(f"{seat.name} is back")
    if c.move.trainer and c.move.kind in ("fold", "play"):
        me = seen.players[player]
        d.events.append(TrainerAsked(seat.seat, tuple(str(x) for x in me.cards or ()), str(seen.up_card), me.ante,
                                     c.move.kind, c.move.amount))


def _real_cards(d: Draft, c: Any) -> Person:
    host = d.seated(c.by)
    d.require_host(host)
    d.require_open()
    return host


def act_for(d: Draft, c: ActFor) -> None:
    """Host, at a table dealt with real cards: the move of the person at ``seat`` (FOAK-16),
    checked like their own; logged as entered by the host.

    Raises:
        TableError: 403 for anyone but the host, or a bot's seat; 404 an empty seat; 409 at a
            table dealt from the deck, closed or paused, no deal, out of turn, or an action the
            engine refuses; 422 for a move of the other game.
    """
    host = d.seated(c.by)
    d.require_host(host)
    seat = d.seat_of(c.seat)
    if seat.is_bot:
        raise TableError(403, "a bot's seat is played by the server")
    if d.state.settings.get("dealing") != "table":
        raise TableError(409, "the host enters players' moves only at a table dealt with real cards; here "
                              "each player acts from their own phone")
    d.require_open()
    player, seen = _move(d, seat, c.move)
    if not d.state.in_progress:
        raise TableError(409, "no deal is in progress: the host starts the next deal")
    d.require_running("moves are entered")
    deal = d.state.deal
    assert deal is not None
    if deal.game.actor is None:
        raise TableError(409, f"no move is due from {seat.name}: the next card is due first")
    if deal.game.actor != player:
        raise TableError(409, f"not {seat.name}'s turn: {deal.seats.name(deal.game.actor)} is to act "
                              "(nobody acts out of turn)")
    start = len(d.lines)
    d.apply(host, d.state.table_game.action(d.state, c.move, player, seen))
    if seat.player_id != host.player_id:  # on the move's own line: "Cat checks (entered by the host)"
        d.amend_log(start, f"{seat.name} ", " (entered by the host)")


def enter_cards(d: Draft, c: EnterCards) -> None:
    """Host, at a table dealt with real cards: the card(s) just dealt or turned, applied through
    the engine (the game's ``cards_entered``); all or nothing (FOAK-14).

    Raises:
        TableError: 403 for anyone but the host; 409 closed, paused, no deal in progress, a
            table dealt from the deck, a card already seen or not due; 422 text that is not cards.
    """
    host = _real_cards(d, c)
    if not d.state.in_progress:
        raise TableError(409, "no deal is in progress: the host deals first, then enters its cards")
    d.require_running("cards are entered")
    d.advance(d.state.table_game.cards_entered(d.state, c.text), host)


def take_back(d: Draft, c: TakeBackCard) -> None:
    """Host, at a table dealt with real cards: take back the last card entered, until the next
    action (FOAK-15): the deal rebuilt by the engine's replay of its history up to that card;
    its records (with what followed it by itself) leave the stored history; no chips move.

    Raises:
        TableError: 403 for anyone but the host; 409 with no card to take back, closed or paused.
    """
    _real_cards(d, c)
    s = d.state
    if not s.in_progress or s.deal is None:
        raise TableError(409, "no deal is in progress: there is no card to take back")
    d.require_running("cards are taken back")
    new, line = s.table_game.taken_back(s)
    keep = len(new.history)
    deal = s.deal
    assert deal.seq == len(deal.game.history) and not d.entries(deal.game, new, None)
    d.write(TakeBack(deal.deal_id, keep, deal.seq - keep))
    d.set(deal=replace(deal, game=new, seq=keep))
    d.log(line)


def timeout(d: Draft, c: Timeout) -> None:
    """The turn ``c.key`` is up: a person whose time ran out checks if they may, else folds
    (two in a row and the seat sits out); a seat that sits out is skipped the same way.

    Raises:
        TableError: 409 when nothing is due (the turn moved on, the clock has time left, the
            table is paused or closed).
    """
    s = d.state
    if s.status != "open" or s.paused or turn_key(s) != c.key or s.clock.key != c.key:
        raise TableError(409, "nothing is due: the turn has moved on")
    seat = player_seat(s, c.key[2])
    if seat is None or seat.is_bot:
        raise TableError(409, "nothing is due: a bot is to act")
    if not seat.sitting_out and not ran_out(s, d.now):
        raise TableError(409, "nothing is due: the turn clock has time left")
    assert s.deal is not None
    timed_out = not seat.sitting_out
    if timed_out:
        d.log(f"{seat.name}'s time ran out")
    d.apply(seat, default_action(s.deal.game.legal_actions(c.key[2])))
    if not timed_out:
        return
    seat = d.person(seat.player_id)
    seat = replace(seat, timeouts=seat.timeouts + 1)
    d.put(seat)
    if seat.timeouts >= TIMEOUTS_TO_SIT_OUT and seat.status == "playing":
        seat = d.set_status(seat, "sitting_out")
        d.put(replace(seat, timeouts=TIMEOUTS_TO_SIT_OUT))
        d.log(f"{seat.name} sits out after {TIMEOUTS_TO_SIT_OUT} time-outs in a row "
              f"(back by acting again, or with \"I'm back\")")


def bot_move(d: Draft, c: BotMove) -> None:
    """The bot to act on turn ``c.key`` plays ``c.action``; a move the engine refuses (or none:
    the bot failed) is replaced by a check if the bot may, else a fold.

    Raises:
        TableError: 409 when it is not that bot's turn (any more), or the table is paused or closed.
    """
    s = d.state
    if s.status != "open" or s.paused or turn_key(s) != c.key:
        raise TableError(409, "nothing is due: the turn has moved on")
    seat = player_seat(s, c.key[2])
    if seat is None or not seat.is_bot:
        raise TableError(409, "nothing is due: a person is to act")
    assert s.deal is not None
    if c.action is not None:
        try:
            d.apply(seat, c.action)
            return
        except (TableError, FourcardsError, TypeError, AttributeError):
            pass
    d.apply(seat, default_action(s.deal.game.legal_actions(c.key[2])))


def take_up(d: Draft, c: TakeUp) -> dict[str, Any]:
    """A server takes the table up after no server was alive (TP-6): the person to act gets the
    time they had left, at least ten seconds; a bot's move waits its delay again. Logged.
    Returns ``{"seconds_left": s}`` (``None``: no person's clock changed)."""
    clock, left = taken_up(d.state, c.down_from, c.down_to, d.now)
    if clock != d.state.clock:
        d.set(clock=clock)
    if left is not None:
        seat = player_seat(d.state, clock.key[2]) if clock.key else None
        down = round(c.down_to - c.down_from)
        d.log(f"No server was running for {down} s: {seat.name if seat else 'the player to act'} has "
              f"{round(left)} s left to act")
    return {"seconds_left": left}
