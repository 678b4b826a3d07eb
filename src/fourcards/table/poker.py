"""Four Card Poker at a shared table: each seat plays against the house.

Player ``p`` sits at table seat ``p + 1`` in every round; the next round is laid out before
anyone wagers and opens (is stored) with the first wager; on the host's deal the bots place
their ``bot_ante`` and the cards are dealt; the escrow is ``bets`` and the ``house`` pays or
takes each seat's return. The engine is :class:`fourcards.poker.round.PokerRound`.

The game's parts: :mod:`fourcards.table.poker_rules`, :mod:`~fourcards.table.poker_money`,
:mod:`~fourcards.table.poker_view`; how a round runs is here, where its engine states are made.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from fourcards.engine import GameState, LegalAction
from fourcards.poker.round import (
    Fold,
    PlaceWagers,
    Play,
    PokerObservation,
    PokerRound,
    WithdrawWagers,
    describe_result,
)
from fourcards.poker.round import Void as PokerVoid
from fourcards.table.errors import TableError
from fourcards.table.games import TableGame
from fourcards.table.players import poker_play
from fourcards.table.poker_money import PokerTableMoney
from fourcards.table.poker_rules import PokerTableRules
from fourcards.table.poker_view import PokerTableView
from fourcards.table.seats import DealSeats
from fourcards.table.seen import observe
from fourcards.table.state import DealState, Person, TableState
from fourcards.table.text import pretty

if TYPE_CHECKING:
    from fourcards.table.commands import Move
    from fourcards.table.draft import Draft

__all__ = ["PokerTable"]


def _seen(game: GameState, player: int | None = None) -> PokerObservation:
    return cast(PokerObservation, observe(game, player))


class PokerTable(PokerTableRules, PokerTableMoney, PokerTableView, TableGame):
    """Four Card Poker at a table (see the module doc): its rules, money and view parts, and how a
    round runs (:class:`~fourcards.table.games.GameDeal`)."""

    action_kinds = ("wager", "withdraw", "fold", "play")
    seats_follow = True  # each seat plays the house: player p is whoever sits at seat p + 1

    # ------------------------------------------------------------ deals

    @classmethod
    def fresh(cls, state: TableState) -> DealState:
        """The next round: every seat may wager (player ``p`` = seat ``p + 1``, named by whoever
        sits there)."""
        n = state.rules.max_seats
        seats = DealSeats.dealt(range(1, n + 1), state.players, follows=True)
        return DealState(PokerRound(state.rules, n, seat_labels=seats.names), seats, state.next_deal_number)

    @classmethod
    def replay(cls, state: TableState, records: Sequence[dict[str, Any]], seats: DealSeats | None = None) -> GameState:
        """The round of stored records (stored without the start record; legacy ones too), its
        players named by ``seats`` (else "seat N")."""
        n = state.rules.max_seats
        labels = seats.names if seats is not None and len(seats) == n else None
        return PokerRound.replay(state.rules, [*PokerRound(state.rules, n).history, *records], seat_labels=labels)

    @classmethod
    def stored_seats(cls, state: TableState, stored: Mapping[str, Any]) -> DealSeats:
        """Table seat -> player id of every player seated when the round opened; player ``p``
        at seat ``p + 1`` of the table's ``max_seats``."""
        return DealSeats.from_stored(stored, state.people, follows=True, players=state.rules.max_seats)

    @staticmethod
    def relabel(game: GameState, names: Sequence[str]) -> GameState:
        """A clone of the round naming its players ``names`` (people sat down or left)."""
        new = cast(PokerRound, game).clone()
        new.seat_labels = tuple(names)
        return new

    @classmethod
    def start(cls, d: Draft) -> None:
        """The bots place their ante, then the cards are dealt (the draft's ``rng``)."""
        s = d.state
        assert s.deal is not None
        if _seen(s.deal.game).phase.value != "wagers":
            raise TableError(409, "the cards are already out")
        ante = cls.bot_ante(s)
        for _, p in sorted(s.players.items()):
            deal = d.state.deal
            assert deal is not None
            player = deal.seats.player_of(p)
            if p.is_bot and p.balance >= ante and player is not None and deal.game.legal_actions(player):
                d.apply(p, PlaceWagers(player, ante, 0))
        deal = d.state.deal
        assert deal is not None
        if deal.game.chance_step != "deal":
            raise TableError(409, "cannot deal: no seat has placed a wager")
        new = deal.game.clone()
        new.apply_chance(d.rng)
        d.advance(new, None)

    @classmethod
    def can_deal(cls, state: TableState) -> bool:
        """In the wagers phase once someone has wagers on the layout, or a bot will."""
        deal = state.deal
        return deal is not None and _seen(deal.game).phase.value == "wagers" and (
            deal.game.chance_step == "deal" or any(p.is_bot for p in state.players.values()))

    @classmethod
    def action(cls, state: TableState, move: Move, player: int, seen: PokerObservation) -> Any:
        """``wager`` (ante, Aces Up), ``withdraw``, ``fold`` or ``play`` (the play bet) of ``player``.

        Raises:
            TableError: 409 wagers after the deal, an ante that leaves no chips for the play bet;
                422 a play bet without an amount, a fold with one.
        """
        if move.kind in ("wager", "withdraw") and seen.phase.value != "wagers":
            raise TableError(409, "wagers are closed: the cards are out; wait for the next round")
        if move.kind == "withdraw":
            return WithdrawWagers(player)
        if move.kind == "wager":
            ante, aces_up = move.ante or 0, move.aces_up or 0
            assert state.deal is not None
            seat = state.deal.seats.person(player, state.people)
            rules = state.rules
            if seat is not None and ante and rules.min_ante <= ante <= rules.max_ante:
                play = rules.play_amounts(ante)[0]
                if ante + aces_up + play > seat.balance:
                    raise TableError(409, f"an ante of {ante:,} leaves no chips for the play bet: with "
                                          f"{seat.balance:,} chips, the ante{' and Aces Up' if aces_up else ''} "
                                          f"({ante + aces_up:,}) and the smallest play bet ({play:,}) need "
                                          f"{ante + aces_up + play:,}; ante at most "
                                          f"{cls.ante_max(state, seat.balance, aces_up):,}")
            return PlaceWagers(player, ante, aces_up)
        if move.kind == "play":
            if move.amount is None:
                raise TableError(422, "a play bet needs an amount (chips)")
            return Play(player, move.amount)
        if move.amount:
            raise TableError(422, "a fold takes no amount")
        return Fold(player)

    @staticmethod
    def void(reason: str) -> Any:
        """The round's :class:`~fourcards.poker.round.Void`."""
        return PokerVoid(reason)

    @staticmethod
    def forfeit(player: int, game: GameState) -> Any | None:
        """A seat that has not decided yet folds out of turn (docs/rules.md FCP-15): its
        :class:`~fourcards.poker.round.Forfeit`; ``None`` once it decided (its wagers are
        settled at the showdown) or with nothing to decide."""
        from fourcards.poker.round import Forfeit

        seen = _seen(game)
        me = seen.players[player]
        if seen.phase.value != "decisions" or not me.ante or me.decision is not None:
            return None
        return Forfeit(player)

    @staticmethod
    def withdraw(player: int, seen: PokerObservation) -> Any | None:
        """The player's wagers taken back, before the deal."""
        me = seen.players[player]
        return WithdrawWagers(player) if seen.phase.value == "wagers" and (me.ante or me.aces_up) else None

    @staticmethod
    def dealt_in(player: int, seen: PokerObservation) -> bool:
        """Whether the player has wagers on the layout."""
        me = seen.players[player]
        return bool(me.ante or me.aces_up or me.play)

    @classmethod
    def log_lines(cls, records: list[dict[str, Any]], game: GameState, number: int,
                  name: Callable[[int], str]) -> list[str]:
        """Wagers (and wagers taken back), the up card, decisions and the showdown."""
        lines = []
        for r in records:
            k = r["kind"]
            who = name(r["player"]) if "player" in r else ""
            if k == "place_wagers":
                parts = ([f"ante {r['ante']:,}"] if r["ante"] else []) + ([f"Aces Up {r['aces_up']:,}"] if r["aces_up"] else [])
                lines.append(f"{who} bets {' and '.join(parts)}")
            elif k == "withdraw_wagers":
                lines.append(f"{who} takes back their wagers")
            elif k == "deal":
                lines.append(f"Round {number}: cards are dealt; the dealer's up card is {pretty(r['up_card'])}")
            elif k in ("fold", "play"):
                lines.append(f"{who} " + (f"plays {r['amount']:,}" if k == "play" else "folds"))
            elif k == "forfeit":
                lines.append(f"{who} folds (the hand is forfeited)")
        seen = _seen(game)
        if seen.phase.value == "settled":
            dealer = " ".join(pretty(c) for c in seen.dealer_cards or ())
            lines.append(f"Showdown: the dealer shows {dealer} - {seen.dealer_hand.describe() if seen.dealer_hand else ''}")
            lines += [f"{name(v.player)}: {describe_result(v.result)}" for v in seen.players if v.result is not None]
        return lines

    @classmethod
    def moved(cls, d: Draft, person: Person, move: Move) -> None:
        """A person's wager is remembered as their last bets (ante, Aces Up): the next round
        offers them again ("Same bets") and starts its fields from them."""
        if move.kind == "wager" and person.seat:
            d.put(dataclasses.replace(person, bets=(move.ante or 0, move.aces_up or 0)))

    @classmethod
    def bot_action(cls, state: TableState, person: Person, seen: PokerObservation, options: Sequence[LegalAction],
                   rng: random.Random | None) -> Any:
        """The bot's strategy (``person.bot_kind``, default ``simple``): a play bet or a fold."""
        me = seen.players[seen.player or 0]
        play = next((o for o in options if o.kind.value == "play"), None)
        amount = None if play is None or seen.up_card is None else poker_play(
            person.bot_kind or cls.default_bot, state.rules, me.cards or (), seen.up_card, me.ante, play,
            person.balance)
        return Fold(me.player) if amount is None else Play(me.player, amount)
