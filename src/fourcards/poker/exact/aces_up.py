"""The Aces Up side bet: its exact return for any pay table over all 2,598,960 five-card hands
(:func:`aces_up`). Part of :mod:`fourcards.poker.analysis` (which re-exports the public names).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np

from fourcards.cards import Rank
from fourcards.hands import (
    CATEGORY_OF_DENSE,
    DENSE_CODES,
    N_VALUES,
    HandCategory,
)
from fourcards.poker.exact.figures import _frac
from fourcards.poker.exact.tables import N_HANDS5, N_PLAYER_UP_PAIRS, base_tables
from fourcards.poker.rules import AcesUpTable

__all__ = ["aces_up_counts", "AcesUpFigures", "aces_up", "aces_up_with_folds"]


_ACES_UP_ROWS = (
    ("four_of_a_kind", "four of a kind"),
    ("straight_flush", "straight flush"),
    ("three_of_a_kind", "three of a kind"),
    ("flush", "flush"),
    ("straight", "straight"),
    ("two_pair", "two pair"),
    ("pair_of_aces", "pair of aces"),
)


@cache
def aces_up_counts() -> dict[str, int]:
    """How many of the 2,598,960 five-card hands make each Aces Up class (and ``"lose"``)."""
    t = base_tables()  # the hands of an orbit share their value: weigh each orbit by its size
    hist = np.bincount(t.orbit_rank, weights=t.orbit_size, minlength=N_VALUES).astype(np.int64)
    cat = CATEGORY_OF_DENSE
    top = (DENSE_CODES >> 12) & 0xF
    out: dict[str, int] = {}
    for key, _ in _ACES_UP_ROWS:
        if key == "pair_of_aces":
            m = (cat == HandCategory.PAIR) & (top == Rank.ACE)
        else:
            m = cat == HandCategory[key.upper()]
        out[key] = int(hist[m].sum())
    out["lose"] = N_HANDS5 - sum(out.values())
    return out


@dataclass(frozen=True)
class AcesUpFigures:
    """Exact return of an Aces Up pay table over all 2,598,960 five-card hands.

    ``hands``: ``(key, label, pays, count)`` per paying class (losing hands last,
    ``pays = -1``), out of ``deals``: the 2,598,960 five-card hands, or - when a fold
    loses the bet (docs/rules.md FCP-16, :func:`aces_up_with_folds`) - every (hand, up
    card) pair, with a row ``<key>_folded`` (``pays = -1``) per paying class the strategy
    folds. ``return_`` is what a unit bet gets back on average (stake included),
    ``house_edge = 1 - return_``.
    """

    table: AcesUpTable
    hands: tuple[tuple[str, str, int, int], ...]
    deals: int = N_HANDS5

    @property
    def return_(self) -> Fraction:
        """Expected amount back per unit Aces Up bet, stake included (exact fraction of the bet)."""
        return sum((Fraction(c * (p + 1), self.deals) for _, _, p, c in self.hands if p >= 0), Fraction(0))

    @property
    def house_edge(self) -> Fraction:
        """House edge per unit Aces Up bet, ``1 - return_`` (exact fraction of the bet)."""
        return 1 - self.return_

    @property
    def variance(self) -> Fraction:
        """Variance of the net result of a unit Aces Up bet (wins ``pays``, else loses 1), exact."""
        second = sum((Fraction(c * p * p, self.deals) for _, _, p, c in self.hands), Fraction(0))
        return second - self.house_edge ** 2

    @property
    def standard_deviation(self) -> float:
        """Standard deviation of the net result of a unit Aces Up bet: ``sqrt(variance)``, in units of the bet."""
        return math.sqrt(self.variance)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``table`` (``"50/40/8/5/4/3/1"``), ``return``, ``house_edge`` and
        ``standard_deviation`` per unit bet (also as exact fraction strings, ``variance`` squared
        units), and per hand class its pay, count of the 2,598,960 hands, probability and return
        contribution.
        """
        return {
            "table": str(self.table),
            "return": float(self.return_),
            "house_edge": float(self.house_edge),
            "standard_deviation": self.standard_deviation,
            "exact": {"return": _frac(self.return_), "house_edge": _frac(self.house_edge),
                      "variance": _frac(self.variance)},
            "hands": [
                {"hand": key, "pays": p, "count": c, "probability": c / self.deals,
                 "return": c * (p + 1) / self.deals if p >= 0 else 0.0}
                for key, _, p, c in self.hands
            ],
            "deals": self.deals,
        }


def aces_up(table: AcesUpTable | str | None = None) -> AcesUpFigures:
    """Exact Aces Up figures for a pay table (an :class:`AcesUpTable`, a preset name or
    ``"50/40/8/5/4/3/1"``; default the live table).

    Raises:
        RulesError: malformed table or unknown preset.
    """
    from fourcards.poker.rules import parse_aces_up

    if table is None:
        table = AcesUpTable()
    elif isinstance(table, str):
        table = parse_aces_up(table)
    counts = aces_up_counts()
    pays = table.as_dict()
    rows = [(key, label, int(pays[key]), counts[key]) for key, label in _ACES_UP_ROWS]
    rows.append(("lose", "anything else", -1, counts["lose"]))
    return AcesUpFigures(table, tuple(rows))



def aces_up_with_folds(table: AcesUpTable, folded: dict[str, Fraction]) -> AcesUpFigures:
    """Exact Aces Up figures when a fold loses the bet (docs/rules.md FCP-16), for a strategy that
    folds each paying hand with probability ``folded[key]`` over every (hand, up card) pair
    (:attr:`~fourcards.poker.exact.figures.GameFigures.folded`): counted over the
    122,151,120 pairs (the decision depends on the up card), a folded paying hand a row of its own
    that loses. Equal to :func:`aces_up` when nothing paying is folded (its counts x 47).

    Raises:
        ValueError: a folded share that is not a whole number of pairs, or more than the hands.
    """
    counts = aces_up_counts()
    pays = table.as_dict()
    per_hand = N_PLAYER_UP_PAIRS // N_HANDS5  # 47 up cards for every hand
    rows: list[tuple[str, str, int, int]] = []
    for key, label in _ACES_UP_ROWS:
        f = folded.get(key, Fraction(0)) * N_PLAYER_UP_PAIRS
        if f.denominator != 1 or not 0 <= f <= counts[key] * per_hand:
            raise ValueError(f"folded {key}: {f} is not a count of (hand, up card) pairs")
        rows.append((key, label, int(pays[key]), counts[key] * per_hand - int(f)))
        if f:
            rows.append((f"{key}_folded", f"{label}, folded (lost)", -1, int(f)))
    rows.append(("lose", "anything else", -1, counts["lose"] * per_hand))
    return AcesUpFigures(table, tuple(rows), N_PLAYER_UP_PAIRS)
