"""The night in numbers (issue 29): per person, hands played and won (high and low halves at
Four of a Kind), the biggest pot, folds and luck (docs/web.md "The night in numbers").

Each finished deal's numbers are computed once, when it is settled, by its game
(:meth:`~fourcards.table.games.GameMoney.numbers`), and kept with its stored result
(``result["numbers"]``: per player id) and added to each person's totals for the night, which
the table's state keeps (:attr:`fourcards.table.state.Person.numbers`): the history page reads
them without reading the night's deals again; a club's standings add the deals' numbers up.

Per deal and person (:data:`KEYS`): ``played`` (1: dealt in - at Four Card Poker a wager placed),
``won`` (1: took chips from the pot - at Four Card Poker a round won), ``high``, ``low`` and
``whole`` (Four of a Kind: pot halves taken, pots taken whole), ``folds``, ``pot`` (chips taken
from the pot, at Four Card Poker the round's win; a night's ``biggest_pot`` is the largest) and
``luck`` (chips; the maths: :mod:`fourcards.kind.luck`, :mod:`fourcards.poker.luck`). Luck is a
statistic, in chips to two decimals (an expectation is a fraction of a chip); never money.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from fourcards.table.state import TableState

__all__ = ["KEYS", "COUNTS", "entry", "add", "night"]

#: A deal's numbers per person.
KEYS = ("played", "won", "high", "low", "whole", "folds", "pot", "luck")
#: The numbers a night adds up (``pot`` becomes ``biggest_pot``, the largest).
COUNTS = ("played", "won", "high", "low", "whole", "folds")


def entry(*, played: int = 1, won: int = 0, high: int = 0, low: int = 0, whole: int = 0, folds: int = 0,
          pot: int = 0, luck: Fraction | float = 0) -> dict[str, Any]:
    """One person's numbers in one deal (see the module doc); ``luck`` rounded to 0.01 chip."""
    return {"played": played, "won": won, "high": high, "low": low, "whole": whole, "folds": folds, "pot": pot,
            "luck": round(float(luck), 2)}


def add(total: Mapping[str, Any] | None, deal: Mapping[str, Any]) -> dict[str, Any]:
    """A night's totals (``None``: none yet) with one deal's numbers added: the counts summed,
    ``biggest_pot`` the largest ``pot``, ``luck`` summed (to 0.01 chip)."""
    out = {k: 0 for k in COUNTS} | {"biggest_pot": 0, "luck": 0.0} | dict(total or {})
    for k in COUNTS:
        out[k] += int(deal.get(k, 0))
    out["biggest_pot"] = max(out["biggest_pot"], int(deal.get("pot", 0)))
    out["luck"] = round(out["luck"] + float(deal.get("luck", 0)), 2)
    return out


def night(state: TableState) -> dict[str, Any]:
    """The night in numbers of ``state``'s table: ``game``, ``people`` - every person who played
    a deal (bots too, marked), by seat then name: ``name``, ``seat`` (``None`` once gone),
    ``is_bot``, the counts of :data:`COUNTS`, ``biggest_pot`` and ``luck`` - and ``luck_total``
    (0 at Four of a Kind, to the rounding: a card moves no chips; at Four Card Poker the house's
    luck is the opposite)."""
    people = []
    for p in sorted(state.people.values(), key=lambda x: (x.seat or 99, x.name.casefold())):
        if not p.numbers:
            continue
        people.append({"player_id": p.player_id, "name": p.name, "seat": p.seat or None, "is_bot": p.is_bot,
                       **add(p.numbers, {"played": 0})})
    return {"table": state.id, "game": state.game, "people": people,
            "luck_total": round(sum(x["luck"] for x in people), 2)}
