"""Four of a Kind at a shared table.

The host's deal seats every player with chips for the ante (stacks = balances); the button
rotates; every card is a chance step drawn at once - or, at a table dealt with real cards
(``"dealing": "table"``), entered by the host (docs/rules.md FOAK-14, FOAK-15); the escrow
is the ``pot``, which pays the awards. The engine is :class:`fourcards.kind.Game`.

The game's parts: :mod:`fourcards.table.kind_rules`, :mod:`~fourcards.table.kind_money`,
:mod:`~fourcards.table.kind_view`; how a deal runs is here, where its engine states are made.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from fourcards.cards import read_cards
from fourcards.engine import GameState, LegalAction
from fourcards.errors import FourcardsError
from fourcards.kind import (
    Action,
    ActionKind,
    DealCard,
    Game,
    Observation,
    TurnCard,
    Void,
    next_button,
)
from fourcards.table.errors import TableError
from fourcards.table.games import TableGame
from fourcards.table.kind_money import KindTableMoney
from fourcards.table.kind_rules import KindTableRules, by_hand
from fourcards.table.kind_view import KindTableView
from fourcards.table.players import kind_move
from fourcards.table.seats import DealSeats
from fourcards.table.seen import observe
from fourcards.table.state import DealState, Person, TableState
from fourcards.table.text import pretty

if TYPE_CHECKING:
    from fourcards.table.commands import Move
    from fourcards.table.draft import Draft

__all__ = ["KindTable", "by_hand"]

_VERBS = {"check": "checks", "bet": "bets", "call": "calls", "raise": "raises", "fold": "folds"}


def _seen(game: GameState, player: int | None = None) -> Observation:
    return cast(Observation, observe(game, player))


def _n(amount: Any) -> str:
    """An amount of chips in a log line, thousands separated ("1,250"; README "8,400")."""
    return f"{amount:,}" if isinstance(amount, int) else str(amount)


class KindTable(KindTableRules, KindTableMoney, KindTableView, TableGame):
    """Four of a Kind at a table (see the module doc): its rules, money and view parts, and how a
    deal runs (:class:`~fourcards.table.games.GameDeal`)."""

    action_kinds = ("check", "bet", "call", "raise", "fold")
    pre_actions = True  # a betting game: moves may be chosen ahead (docs/rules.md TP-12)

    # ------------------------------------------------------------ deals

    @classmethod
    def to_call(cls, state: TableState, player: int) -> int | None:
        """The chips ``player`` needs to match this round's bet (0 between betting rounds and in
        the initial deal); ``None`` once it folded, is all-in or sat the deal out, or the deal is over."""
        if state.deal is None:
            return None
        seen = _seen(state.deal.game)
        v = seen.seats[player]
        if seen.phase in ("finished", "voided") or v.status != "active":
            return None
        return max(0, seen.bet - v.stake) if seen.phase == "betting" else 0

    @classmethod
    def auto_chance(cls, state: TableState) -> bool:
        """Cards are drawn at once from the shuffled deck, unless the host enters real cards."""
        return not by_hand(state)

    @classmethod
    def replay(cls, state: TableState, records: Sequence[dict[str, Any]], seats: DealSeats | None = None) -> GameState:
        """The deal of stored records (its ``start`` record first); with its ``seats`` the
        engine's messages name each player as in the live deal."""
        return Game.replay(state.rules, records, seat_labels=None if seats is None else seats.names)

    @classmethod
    def start(cls, d: Draft) -> None:
        """Every seated player with chips for the ante is dealt in; the button moves on."""
        s = d.state
        if s.deal is not None:
            raise TableError(409, "a deal is already in progress")
        order = [n for n, p in sorted(s.players.items()) if not p.sitting_out]
        ready = cls.players_in(s)
        if len(ready) < s.rules.min_players:
            raise TableError(409, f"at least {s.rules.min_players} players with chips for the ante are needed to "
                                  f"deal; {len(ready)} can play now")
        button = order.index(s.button_seat) if s.button_seat in order else 0
        seats = DealSeats.dealt(order, s.players)
        try:  # every card a chance step; messages name each seat by its player's name (DESIGN.md "Table play")
            game = Game(s.rules, [s.players[n].balance for n in order], button, cards=(), seat_labels=seats.names)
        except FourcardsError as exc:
            raise TableError(409, f"cannot deal: {exc}") from None
        d.log(f"Deal {s.number} starts; the button is at {seats.name(button)}")
        d.begin(game, seats)

    @classmethod
    def can_deal(cls, state: TableState) -> bool:
        """Between deals, with at least ``min_players`` players who can play."""
        return state.deal is None and len(cls.players_in(state)) >= state.rules.min_players

    @classmethod
    def action(cls, state: TableState, move: Move, player: int, seen: Any) -> Any:
        """The betting move (the amount: chips above the current bet, or the call).

        Raises:
            TableError: 422 for the trainer (it advises Four Card Poker decisions).
        """
        if move.trainer:
            raise TableError(422, f"trainer does not belong to a {move.kind} at Four of a Kind (the trainer "
                                  "advises Four Card Poker decisions)")
        return Action(ActionKind(move.kind), move.amount or 0, player=player)

    @staticmethod
    def void(reason: str) -> Any:
        """The deal's :class:`~fourcards.kind.Void`."""
        return Void(reason)

    @staticmethod
    def forfeit(player: int, game: GameState) -> Any | None:
        """The player folds out of turn, out of every pot (docs/rules.md FOAK-17): its
        :class:`~fourcards.kind.Forfeit`; ``None`` when it has folded already or the deal is over."""
        from fourcards.kind import Forfeit

        if game.is_terminal or not _seen(game).seats[player].is_active:
            return None
        return Forfeit(player)

    @staticmethod
    def dealt_in(player: int, seen: Any) -> bool:
        """Every player of the deal in progress takes part in it (its ante is in the pot)."""
        return True

    @classmethod
    def log_lines(cls, records: list[dict[str, Any]], game: GameState, number: int,
                  name: Callable[[int], str]) -> list[str]:
        """Each betting move, card, uncalled bet, forfeit, finish, award and seat sitting out."""
        lines = []
        for r in records:
            who = name(r["seat"]) if r.get("seat") is not None else ""
            card = pretty(r["card"]) if "card" in r else ""
            line = {"action": f"{who} {_VERBS.get(r.get('kind', ''))}" + (f" {_n(r.get('amount'))}" if r.get("amount") else ""),
                    "turn": f"Turned {card} \u2192 {who}" if who else f"Turned {card}: discarded",
                    "deal": f"{who} is dealt {card}",
                    "return": f"{card} duplicates a rank: it goes back, the deck is reshuffled",
                    "uncalled": f"{who} takes back an uncalled {_n(r.get('amount'))}",
                    "forfeit": f"{who} folds (the hand is forfeited: out of every pot)",
                    "finish": f"{who} " + ("completes four of a kind!" if r.get("reason") == "four" else "is the last player in"),
                    "award": f"{who} takes {_n(r.get('amount'))} ({r.get('share')}" + (f", side pot {r['pot']}" if r.get("pot") else "") + ")",
                    "sit_out": f"{who} sits this deal out (not enough chips for the ante)"}.get(r["op"])
            if line:
                lines.append(line)
        return lines

    @classmethod
    def finished(cls, d: Draft, game: GameState) -> None:
        """After a finished deal the button moves on (not after a void)."""
        seen = _seen(game)
        if seen.phase != "voided":
            stacks = [v.stack for v in seen.seats]
            assert d.state.deal is not None
            d.set(button_seat=d.state.deal.seats.seat(next_button(stacks, seen.button, d.state.rules)))

    @classmethod
    def fresh(cls, state: TableState) -> DealState | None:
        """No deal between deals."""
        return None

    @classmethod
    def bot_action(cls, state: TableState, person: Person, seen: Any, options: Sequence[LegalAction],
                   rng: random.Random | None) -> Any:
        """The engine's bot ``person.bot_kind`` (default ``odds``)."""
        return kind_move(person.bot_kind or cls.default_bot, seen, options, rng)

    # ------------------------------------------------------------ real cards

    @classmethod
    def cards_entered(cls, state: TableState, text: str) -> GameState:
        """A clone of the deal's engine state with the host's real cards ``text`` dealt or turned,
        in order (``"9c"``, ``"10h"``, ``"T♥"``; several separated by spaces or commas or written
        together, ``"9c10hT♥"``: :func:`fourcards.cards.read_cards`), each
        applied as the engine's chance record (``DealCard`` to the next player of the
        observation's ``deal_queue``, ``TurnCard`` to the holder of its rank): the engine does
        the rest (re-deals of FOAK-2, discards, betting rounds, the end on a fourth card). All
        or nothing (docs/rules.md FOAK-14).

        Raises:
            TableError: 409 at a table dealt from the server's deck; 422 for text that is not
                cards; 409 for a card already seen (naming it and where it lies) or one that is
                not due (a player is to act, or the deal is over).
        """
        if not by_hand(state):
            return super().cards_entered(state, text)
        assert state.deal is not None
        try:
            cards = read_cards(text)
        except FourcardsError as exc:
            raise TableError(422, f"cards: {exc}") from None
        if not cards:
            raise TableError(422, "cards: no card given (e.g. \"9c\", \"10h\" or \"T♥\")")
        game = state.deal.game.clone()
        for i, card in enumerate(cards):
            after = f"after {', '.join(pretty(c) for c in cards[:i])}, " if i else ""
            nothing = " - none of the cards was entered" if i else ""
            if game.is_terminal:
                raise TableError(409, f"no card is due: {after}the deal is over, so {pretty(card)} cannot be "
                                      f"entered{nothing}")
            if game.actor is not None:
                raise TableError(409, f"no card is due: {after}{state.deal.seats.name(game.actor)} is to act; the next "
                                      f"card comes after the betting{nothing}")
            seen = _seen(game)
            where = cls._where(state, seen, card)
            if where:
                what = f"{after}{pretty(card)}"
                raise TableError(409, f"{what[0].upper()}{what[1:]} has already been seen: {where}, and a card "
                                      f"cannot appear twice{nothing}")
            if game.chance_step == "deal":
                record: DealCard | TurnCard = DealCard(seen.deal_queue[0], card)
            else:
                holder = next((v.seat for v in seen.seats if v.is_active and v.cards[0].rank == card.rank), None)
                record = TurnCard(card, holder)
            try:
                game.apply(record)
            except FourcardsError as exc:  # pragma: no cover - every refusal is checked above
                raise TableError(409, str(exc)) from None
        return game

    @staticmethod
    def _where(state: TableState, seen: Observation, card: Any) -> str | None:
        """Where a card already seen lies: a player's card, or a discarded turned card."""
        assert state.deal is not None
        for v in seen.seats:
            if card in v.cards:
                return f"it is {state.deal.seats.name(v.seat)}'s card" + (" (folded)" if v.status == "folded" else "")
        if card in seen.discards:
            return "it was turned and discarded"
        return None

    @classmethod
    def taken_back(cls, state: TableState) -> tuple[GameState, str]:
        """The deal before its last card and the table log's line for it: the host takes back a
        mistyped card until the next action (the observation's ``last_card``), the deal rebuilt
        by the engine's replay of its history up to that card - what followed the card by itself
        goes with it (docs/rules.md FOAK-15).

        Raises:
            TableError: 409 at a table dealt from the server's deck, before any card, after an
                action since the last card, or once the deal is over.
        """
        if not by_hand(state):
            return super().taken_back(state)
        assert state.deal is not None
        game = state.deal.game
        seen = _seen(game)
        last = seen.last_card
        if last is None:
            records = [op.to_dict() for op in seen.history]
            card = next((r for r in reversed(records) if r["op"] in ("deal", "turn")), None)
            acted = next((r for r in reversed(records) if r["op"] == "action"), None)
            why = ("the deal is over" if game.is_terminal else "no card has been entered in this deal yet"
                   if card is None or acted is None else
                   f"{state.deal.seats.name(acted['seat'])} has acted since {pretty(card['card'])} was "
                   f"{'dealt' if card['op'] == 'deal' else 'turned'}")
            raise TableError(409, f"no card to take back: {why} (a card can be taken back only until the next "
                                  "action)")
        at = max(i for i, op in enumerate(game.history) if op == last)
        seats = state.deal.seats
        new = Game.replay(state.rules, [op.to_dict() for op in game.history[:at]], seat_labels=seats.names)
        if isinstance(last, DealCard):
            where = f"dealt to {seats.name(last.seat)}"
        else:
            where = "turned and discarded" if last.seat is None else f"turned to {seats.name(last.seat)}"
        return new, f"The host takes back {pretty(last.card)} ({where})"
