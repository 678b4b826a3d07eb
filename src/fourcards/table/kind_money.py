"""Four of a Kind's chips at a table (:class:`~fourcards.table.games.GameMoney`): the ``pot``
escrow paying the awards (no house), each seat's stake, the stored result.
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

from fourcards.engine import GameState
from fourcards.kind import Game, Observation, card_luck
from fourcards.table.numbers import entry
from fourcards.table.seen import observe
from fourcards.table.state import TableState

__all__ = ["KindTableMoney"]


def _seen(game: GameState, player: int | None = None) -> Observation:
    return cast(Observation, observe(game, player))


class KindTableMoney:
    """Four of a Kind's chips at a table (see the module doc); a part of
    :class:`fourcards.table.kind.KindTable`."""

    escrow: ClassVar[str] = "pot"

    house: ClassVar[str | None] = None

    @staticmethod
    def stakes(seen: Observation) -> list[int]:
        """What each seat has put in the pot during the deal (ante included)."""
        return [v.contributed for v in seen.seats]

    @classmethod
    def result(cls, state: TableState, game: GameState) -> dict[str, Any]:
        """How the deal finished, the awards, each table seat's net (``payoffs``) and the deal's
        ``numbers`` (:meth:`numbers`)."""
        assert state.deal is not None
        seen, seats = _seen(game), state.deal.seats
        finish = next((r.to_dict()["reason"] for r in reversed(seen.history) if r.op == "finish"), None)
        return {"finish": finish,
                "awards": [{**a.to_dict(), "table_seat": seats.seat(a.seat), "name": seats.name(a.seat)}
                           for a in seen.awards],
                "payoffs": {str(seats.seat(i)): p for i, p in enumerate(game.returns())},
                "numbers": cls.numbers(state, game)}

    @classmethod
    def numbers(cls, state: TableState, game: GameState) -> dict[str, dict[str, Any]]:
        """Per player id of everyone dealt in: ``played``, ``won`` (took a share), ``high``,
        ``low``, ``whole``, ``folds``, ``pot`` (chips taken) and ``luck``
        (:func:`fourcards.kind.luck.card_luck`: what the cards alone gave, against the exact odds)."""
        assert state.deal is not None
        seen, seats = _seen(game), state.deal.seats
        luck = card_luck(cast(Game, game).rules, seen.history, checked=False)  # the engine's own records
        out: dict[str, dict[str, Any]] = {}
        for v in seen.seats:
            pid = seats.player_id(v.seat)
            if not pid or v.status == "out":
                continue
            mine = [a for a in seen.awards if a.seat == v.seat]
            shares = {k: sum(1 for a in mine if a.share == k) for k in ("high", "low", "whole")}
            out[str(pid)] = entry(won=int(bool(mine)), folds=int(v.status == "folded"),
                                  pot=sum(a.amount for a in mine), luck=luck[v.seat], **shares)
        return out
