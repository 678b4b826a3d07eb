"""Four of a Kind's chips at a table (:class:`~fourcards.table.games.GameMoney`): the ``pot``
escrow paying the awards (no house), each seat's stake, the stored result.
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

from fourcards.engine import GameState
from fourcards.kind import Observation
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
        """How the deal finished, the awards and each table seat's net (``payoffs``)."""
        assert state.deal is not None
        seen, seats = _seen(game), state.deal.seats
        finish = next((r.to_dict()["reason"] for r in reversed(seen.history) if r.op == "finish"), None)
        return {"finish": finish,
                "awards": [{**a.to_dict(), "table_seat": seats.seat(a.seat), "name": seats.name(a.seat)}
                           for a in seen.awards],
                "payoffs": {str(seats.seat(i)): p for i, p in enumerate(game.returns())}}
