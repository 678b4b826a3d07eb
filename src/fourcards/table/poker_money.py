"""Four Card Poker's chips at a table (:class:`~fourcards.table.games.GameMoney`): the wagers in
the ``bets`` escrow, the ``house`` paying or taking each seat's return, the stored result and
the folded hands it hides.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, cast

from fourcards.engine import GameState
from fourcards.poker.luck import round_luck
from fourcards.poker.round import PokerObservation
from fourcards.table.numbers import entry as numbers_entry
from fourcards.table.seen import observe
from fourcards.table.state import TableState

__all__ = ["PokerTableMoney"]


def _seen(game: GameState, player: int | None = None) -> PokerObservation:
    return cast(PokerObservation, observe(game, player))


class PokerTableMoney:
    """Four Card Poker's chips at a table (see the module doc); a part of
    :class:`fourcards.table.poker.PokerTable`."""

    escrow: ClassVar[str] = "bets"

    house: ClassVar[str | None] = "house"

    @staticmethod
    def stakes(seen: PokerObservation) -> list[int]:
        """Each player's ante, Aces Up and play bet together."""
        return [v.ante + v.aces_up + v.play for v in seen.players]

    @classmethod
    def result(cls, state: TableState, game: GameState) -> dict[str, Any]:
        """Each seat's settlement (its own view: a folded hand included), the dealer's cards, the
        house's net."""
        spectator = _seen(game)
        assert state.deal is not None
        dealt = state.deal.seats
        seats = {}
        for v in spectator.players:
            seat = dealt.person(v.player, state.people)
            if v.result is not None and seat is not None:
                own = _seen(game, v.player).players[v.player].result
                assert own is not None
                seats[str(dealt.seat(v.player))] = {"player_id": seat.player_id, "name": seat.name, **own.to_dict()}
        return {"seats": seats, "dealer_cards": [str(c) for c in spectator.dealer_cards or ()],
                "house_net": -sum(game.returns()), "numbers": cls.numbers(state, game)}

    @classmethod
    def numbers(cls, state: TableState, game: GameState) -> dict[str, dict[str, Any]]:
        """Per player id of every seat with a wager: ``played``, ``won`` (a net above 0),
        ``folds``, ``pot`` (the round's win, 0 for a loss) and ``luck``
        (:func:`fourcards.poker.luck.round_luck`: the result against the exact EV of the decision
        taken; the hand's own cards, seen as its player sees them)."""
        spectator = _seen(game)
        assert state.deal is not None
        dealt = state.deal.seats
        out: dict[str, dict[str, Any]] = {}
        for v in spectator.players:
            pid = dealt.player_id(v.player)
            if v.result is None or not pid:
                continue
            own = _seen(game, v.player).players[v.player]
            luck = 0 if not own.cards or spectator.up_card is None else round_luck(
                state.rules, own.cards, spectator.up_card, own.ante, own.play if own.decision == "play" else None,
                own.result.wagers if own.result is not None else {})
            out[str(pid)] = numbers_entry(won=int(v.result.net > 0), folds=int(v.decision == "fold"),
                                  pot=max(0, v.result.net), luck=luck)
        return out

    @staticmethod
    def mucked(deal: Mapping[str, Any]) -> set[int]:
        """The players who folded (or forfeited): their hands stay mucked, as the engine's
        ``observation`` keeps them (docs/engine.md "showdown view"). Read from the deal's records
        when it carries them (0-based ``player``; records stored before the engine protocol: 1-based
        ``seat``), else from its stored result, where a seat whose decision is not known to be
        ``play`` or ``none`` (an Aces Up bet alone) counts as mucked."""
        records = deal.get("history")
        if records is not None:
            out = set()
            for r in records:
                if r.get("kind") in ("fold", "forfeit"):
                    p = r.get("player")
                    out.add(int(p) if p is not None else int(r.get("seat", 0)) - 1)
            return out
        seats = (deal.get("result") or {}).get("seats") or {}
        return {int(k) - 1 for k, e in seats.items() if not isinstance(e, dict) or e.get("decision") not in ("play", "none")}

    @staticmethod
    def published_result(result: Any, player: int | None, mucked: set[int]) -> Any:
        """The result with the hands of ``mucked`` seats hidden from everyone but their own seat."""
        for key, entry in ((result or {}).get("seats") or {}).items():
            if int(key) - 1 in mucked and int(key) - 1 != player and isinstance(entry, dict):
                entry["player_hand"] = None
        return result
