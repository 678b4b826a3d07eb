"""Four Card Poker's part of a seat's view (:class:`~fourcards.table.games.GameView`): the round
and the last one in table seats, the actions open to the seat, the trainer.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from fourcards.engine import GameState
from fourcards.hands import best_hand
from fourcards.poker.round import PokerObservation
from fourcards.table.poker_rules import PokerTableRules
from fourcards.table.seen import observe
from fourcards.table.state import DealState, Person, TableState

if TYPE_CHECKING:
    from fourcards.table.views import Extras

__all__ = ["PokerTableView"]


def _seen(game: GameState, player: int | None = None) -> PokerObservation:
    return cast(PokerObservation, observe(game, player))


@lru_cache(maxsize=4096)
def _best_four(cards: tuple[str, ...]) -> tuple[str, ...]:
    """The best four of a hand (card text), computed once per hand: a seat's view shows it on
    every change while the seat decides."""
    return tuple(str(c) for c in best_hand(cards)[1])


class PokerTableView:
    """Four Card Poker's part of a seat's view (see the module doc); a part of
    :class:`fourcards.table.poker.PokerTable`."""

    @classmethod
    def _entry(cls, state: TableState, deal: DealState, view: dict[str, Any]) -> dict[str, Any] | None:
        """One player's place in a round view, in table seats (``None``: an empty seat without wagers)."""
        view = dict(view)
        player = view.pop("player")
        s = deal.seats.seat(player)
        p = deal.seats.person(player, state.people)
        if p is None and not view["ante"] and not view["aces_up"]:
            return None
        entry = {"seat": s, **view, "name": deal.seats.name(player), "is_bot": bool(p and p.is_bot)}
        if entry["result"] is None:
            del entry["result"]
        else:
            entry["result"] = {**entry["result"], "seat": deal.seats.seat(entry["result"]["player"])}
            del entry["result"]["player"]
        return entry

    @classmethod
    def _public_round(cls, state: TableState, deal: DealState) -> dict[str, Any]:
        """The round as a spectator sees it, in table seats (the browser's shape)."""
        obs = _seen(deal.game).to_dict(with_history=False)
        players = obs.pop("players")
        for key in ("player", "legal_actions", "chance_step"):
            obs.pop(key, None)
        if obs["dealer_hand"] is None:
            del obs["dealer_hand"]
        # the dealer's best four, raised on the page once the six are shown (issue 29)
        obs["dealer_best"] = [str(c) for c in best_hand(obs["dealer_cards"])[1]] if obs.get("dealer_cards") else None
        obs["actor"] = None if obs["actor"] is None else deal.seats.seat(obs["actor"])
        obs["seats"] = [e for v in players if (e := cls._entry(state, deal, v)) is not None]
        obs["seat"] = None
        return obs

    @classmethod
    def _round(cls, state: TableState, deal: DealState, seat: Person | None, extras: Extras) -> dict[str, Any]:
        """The round as ``seat`` sees it: the spectator's view (built once per state, with
        ``dealer_best``: the dealer's best four once the six are shown) with the seat's own place
        as its own observation shows it (its cards; its folded hand; ``best``: its best four
        while it has no result)."""
        game = deal.game
        public: dict[str, Any] = extras.cached("poker-round", game, lambda: cls._public_round(state, deal))
        player = None if seat is None else deal.seats.player(seat=seat.seat)
        if seat is None or player is None:
            return dict(public)
        own = _seen(game, player).players[player].to_dict()
        mine = cls._entry(state, deal, own)
        if mine is not None and own["cards"] and own["result"] is None:  # your best four while you decide
            mine["best"] = list(_best_four(tuple(own["cards"])))
        seats: list[dict[str, Any]] = [e for e in public["seats"] if e["seat"] != seat.seat]
        if mine is not None:
            seats = sorted([*seats, mine], key=lambda e: e["seat"])
        return {**public, "seats": seats, "seat": seat.seat}

    @classmethod
    def view(cls, state: TableState, seat: Person | None, extras: Extras) -> dict[str, Any]:
        """``game``, ``round`` (with its number), ``last`` (the previous round until the next one
        opens), ``actions`` open to ``seat`` (from its legal actions, capped by its chips),
        ``trainer`` (its advice) and ``trainer_available``."""
        assert state.deal is not None
        last = None
        if state.last is not None and not state.in_progress:
            last = {"number": state.last.number, **cls._round(state, state.last, seat, extras)}
        return {"game": "poker", "round": {"number": state.number, **cls._round(state, state.deal, seat, extras)},
                "last": last, "actions": cls._actions(state, seat),
                "trainer": extras.trainer.get(seat.seat) if seat else None, "trainer_available": True}

    @classmethod
    def _actions(cls, state: TableState, seat: Person | None) -> list[dict[str, Any]]:
        if seat is None or seat.is_bot or state.deal is None:
            return []
        out: list[dict[str, Any]] = []
        balance = seat.balance
        game = state.deal.game
        player = state.deal.seats.player_of(seat)
        if player is None:
            return []
        for o in game.legal_actions(player):
            k = o.kind.value
            if k == "withdraw_wagers":
                out.append({"kind": "withdraw"})
            elif k == "place_wagers":
                wager = {"kind": "wager", "ante_min": o.min_amount, "ante_max": PokerTableRules.ante_max(state, balance),
                         "aces_up_min": getattr(o, "aces_up_min", 0),
                         "aces_up_max": min(getattr(o, "aces_up_max", 0), balance),
                         "aces_up_requires_ante": state.rules.aces_up_requires_ante, "balance": balance}
                me = _seen(game, player).players[player]
                wager["last"] = None if seat.bets is None else {"ante": seat.bets[0], "aces_up": seat.bets[1]}
                wager["same"] = wager["last"] if not (me.ante or me.aces_up) and PokerTableRules.may_wager(
                    state, seat, *(seat.bets or (0, 0))) else None
                out.append(wager)
            elif k == "fold":
                out.append({"kind": "fold"})
            elif k == "play":
                if o.amounts is not None:
                    amounts = [a for a in o.amounts if a <= balance]
                else:
                    amounts = [o.min_amount, min(o.max_amount, balance)] if o.min_amount <= balance else []
                if amounts:
                    play = {"kind": "play", "min": amounts[0], "max": amounts[-1],
                            "ante": _seen(game, player).players[player].ante}
                    if o.amounts is not None:
                        play["amounts"] = amounts
                    out.append(play)
        return out
