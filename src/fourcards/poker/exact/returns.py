"""Return tables in the regulator's form, one per wager, and what a par sheet derives from them:
hit frequency, standard deviation, volatility index and the range the hold should fall in after
N rounds (:class:`ReturnTable`, :func:`game_tables`, :func:`aces_up_table`).

A return table lists every outcome of a wager with what it pays, its number of combinations
(exact, out of every deal), its probability and its return (pays x probability: the column
sums to the wager's expected value) - the form of the Wizard of Odds' tables. Money is in
units of the wager's base: antes for the ante/play game and its ante bonus, Aces Up units
for the Aces Up bet. The figures (``docs/analysis.md`` "Par sheet"):

* **house edge**: minus the expected value, per unit (per ante); **element of risk**: per
  unit actually wagered (ante plus play bet, or the Aces Up bet);
* **hit frequency**: the probability that the wager's result is a win (pays > 0);
* **standard deviation** of a round's result, per unit; the **volatility index** at
  confidence c is ``z_c x SD`` (IGT's convention: the half-width of the c interval of one
  round's result; z = 1.6449 at 90 %, 1.9600 at 95 %);
* **hold interval** after n rounds at confidence c (the range in which the house's win per
  unit should fall, by the central limit theorem; state regulations ask operators to look
  into swings outside the 95 % one): ``house edge +- z_c x SD / sqrt(n)`` per unit, and
  ``element of risk +- z_c x SD_w / sqrt(n)`` per total wagered, with ``SD_w =
  sqrt(E[(X + h T)^2]) / E[T]`` (X the result, T the amount wagered, h the element of
  risk: the delta method for a ratio of sums).

Exact: counts are integers, expected values and variances :class:`~fractions.Fraction`;
only square roots and z-values are floats. Part of :mod:`fourcards.poker.analysis` (which
re-exports the public names).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import Any

from fourcards.poker.exact.aces_up import AcesUpFigures
from fourcards.poker.exact.figures import GameFigures, _frac
from fourcards.poker.exact.tables import N_DEALS

__all__ = ["CONFIDENCES", "HOLD_ROUNDS", "VOLATILITY_CONFIDENCES", "z_value", "ReturnRow", "ReturnTable",
           "game_tables", "aces_up_table"]

#: Confidence levels of the hold intervals.
CONFIDENCES = (0.90, 0.95, 0.99)
#: Confidence levels of the volatility index (IGT quotes 90 %; 95 % for regulators who ask for it).
VOLATILITY_CONFIDENCES = (0.90, 0.95)
#: Numbers of rounds of the hold intervals.
HOLD_ROUNDS = (100, 1_000, 10_000, 100_000, 1_000_000)


def z_value(confidence: float) -> float:
    """The two-sided standard normal quantile: 1.6449 for 0.90, 1.9600 for 0.95, 2.5758 for 0.99.

    Raises:
        ValueError: a confidence outside (0, 1).
    """
    if not 0 < confidence < 1:
        raise ValueError(f"a confidence must lie between 0 and 1, got {confidence}")
    return NormalDist().inv_cdf((1 + confidence) / 2)


def _label(confidence: float) -> str:
    return f"{confidence * 100:g}"


@dataclass(frozen=True)
class ReturnRow:
    """One outcome of a wager.

    Attributes:
        outcome: what happens, e.g. ``"play 3x, win"``, ``"four of a kind"``.
        pays: the wager's result in units (antes, or Aces Up units): + won, - lost, 0 a push.
        combinations: deals with this outcome (exact; see :attr:`ReturnTable.deals`).
        wagered: units staked in the round (ante plus play bet, or the Aces Up bet): the
            per-total-wagered figures' denominator.
    """

    outcome: str
    pays: int
    combinations: int
    wagered: int


@dataclass(frozen=True)
class ReturnTable:
    """A wager's return table and the par sheet figures that follow from it (see the module doc).

    Attributes:
        key: ``"game"`` (ante, play bet and ante bonus together: the base game), ``"ante_play"``,
            ``"ante_bonus"`` or ``"aces_up"``.
        title: a heading for people.
        unit: ``"ante"`` or ``"Aces Up bet"``.
        deals: what the combinations add up to (:data:`N_DEALS` for the game's tables, the
            2,598,960 five-card hands for Aces Up).
        rows: the outcomes, in display order.
        staked: whether the wager is a stake of its own (False for the ante bonus, which is
            paid on the ante: it has a return but no return to player of its own).
    """

    key: str
    title: str
    unit: str
    deals: int
    rows: tuple[ReturnRow, ...]
    staked: bool = True

    def __post_init__(self) -> None:
        if sum(r.combinations for r in self.rows) != self.deals:
            raise ValueError(f"{self.key}: the combinations do not add up to {self.deals:,} deals")

    def probability(self, row: ReturnRow) -> Fraction:
        """The row's probability, exact: ``combinations / deals``."""
        return Fraction(row.combinations, self.deals)

    def contribution(self, row: ReturnRow) -> Fraction:
        """The row's return, exact: ``pays x probability`` (the column sums to :attr:`expected_value`)."""
        return row.pays * self.probability(row)

    @property
    def expected_value(self) -> Fraction:
        """Expected result per round, in units (exact): the sum of the return column."""
        return Fraction(sum(r.pays * r.combinations for r in self.rows), self.deals)

    @property
    def average_wagered(self) -> Fraction:
        """Units staked per round on average (exact; 1 for Aces Up, the average total bet for the game)."""
        return Fraction(sum(r.wagered * r.combinations for r in self.rows), self.deals)

    @property
    def house_edge(self) -> Fraction:
        """Minus the expected value, per unit (per ante): exact."""
        return -self.expected_value

    @property
    def element_of_risk(self) -> Fraction:
        """The house edge per unit wagered (ante plus play bet): exact."""
        return self.house_edge / self.average_wagered

    @property
    def return_to_player(self) -> Fraction | None:
        """``1 - element of risk`` (per total wagered); None for a table without a stake of its own."""
        return 1 - self.element_of_risk if self.staked else None

    @property
    def hit_frequency(self) -> Fraction:
        """Probability that the wager wins (pays > 0), exact."""
        return Fraction(sum(r.combinations for r in self.rows if r.pays > 0), self.deals)

    @property
    def variance(self) -> Fraction:
        """Variance of a round's result, in units squared (exact)."""
        second = Fraction(sum(r.pays * r.pays * r.combinations for r in self.rows), self.deals)
        return second - self.expected_value ** 2

    @property
    def standard_deviation(self) -> float:
        """Standard deviation of a round's result, in units: ``sqrt(variance)``."""
        return math.sqrt(self.variance)

    @property
    def ratio_variance(self) -> Fraction:
        """``E[(X + h T)^2] / E[T]^2`` (exact), h the element of risk: the variance, per round, of the
        hold per total wagered (the delta method; see the module doc)."""
        h = self.element_of_risk
        second = sum(((r.pays + h * r.wagered) ** 2 * r.combinations for r in self.rows), Fraction(0))
        return second / self.deals / self.average_wagered ** 2

    def volatility_index(self, confidence: float = 0.90) -> float:
        """``z x SD`` per unit: the half-width of the ``confidence`` interval of one round's result."""
        return z_value(confidence) * self.standard_deviation

    def hold_interval(self, rounds: int, confidence: float = 0.95, *,
                      per_total_wagered: bool = False) -> tuple[float, float]:
        """``(low, high)``: the range the house's hold should fall in after ``rounds`` rounds with
        probability ``confidence`` (normal approximation), per unit or per total wagered.

        Raises:
            ValueError: ``rounds`` < 1 or a confidence outside (0, 1).
        """
        if rounds < 1:
            raise ValueError(f"a hold interval needs at least one round, got {rounds}")
        if per_total_wagered:
            centre, sd = float(self.element_of_risk), math.sqrt(self.ratio_variance)
        else:
            centre, sd = float(self.house_edge), self.standard_deviation
        half = z_value(confidence) * sd / math.sqrt(rounds)
        return centre - half, centre + half

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``title``, ``unit``, ``deals``; ``rows`` (``outcome``, ``pays``, ``combinations``,
        ``probability``, ``return``, ``wagered``); the ``total`` row; ``expected_value``,
        ``house_edge`` (per unit), ``element_of_risk`` and ``return_to_player`` (per total wagered;
        null without a stake), ``average_wagered``, ``hit_frequency``, ``standard_deviation``,
        ``volatility_index`` by confidence (``"90"``, ``"95"``), ``hold_intervals`` (by rounds:
        ``per_unit`` and ``per_total_wagered``, each ``[low, high]`` by confidence ``"90"``,
        ``"95"``, ``"99"``) and the ``exact`` fractions as strings.
        """
        rtp = self.return_to_player
        return {
            "title": self.title,
            "unit": self.unit,
            "deals": self.deals,
            "rows": [
                {"outcome": r.outcome, "pays": r.pays, "combinations": r.combinations,
                 "probability": float(self.probability(r)), "return": float(self.contribution(r)),
                 "wagered": r.wagered}
                for r in self.rows
            ],
            "total": {"combinations": self.deals, "probability": 1.0, "return": float(self.expected_value)},
            "expected_value": float(self.expected_value),
            "house_edge": float(self.house_edge),
            "element_of_risk": float(self.element_of_risk),
            "return_to_player": None if rtp is None else float(rtp),
            "average_wagered": float(self.average_wagered),
            "hit_frequency": float(self.hit_frequency),
            "standard_deviation": self.standard_deviation,
            "volatility_index": {_label(c): self.volatility_index(c) for c in VOLATILITY_CONFIDENCES},
            "hold_intervals": [
                {"rounds": n,
                 "per_unit": {_label(c): list(self.hold_interval(n, c)) for c in CONFIDENCES},
                 "per_total_wagered": {_label(c): list(self.hold_interval(n, c, per_total_wagered=True))
                                       for c in CONFIDENCES}}
                for n in HOLD_ROUNDS
            ],
            "exact": {"expected_value": _frac(self.expected_value), "element_of_risk": _frac(self.element_of_risk),
                      "average_wagered": _frac(self.average_wagered), "hit_frequency": _frac(self.hit_frequency),
                      "variance": _frac(self.variance)},
        }


def _combinations(probability: Fraction, deals: int) -> int:
    c = probability * deals
    if c.denominator != 1:  # pragma: no cover - the outcome probabilities are counts over N_DEALS
        raise ValueError("an outcome probability is not a whole number of deals")
    return int(c)


_RESULT_ORDER = {"win": 0, "tie": 1, "lose": 2}


def game_tables(figures: GameFigures) -> tuple[ReturnTable, ReturnTable, ReturnTable]:
    """``(game, ante_play, ante_bonus)`` return tables of the ante/play game under ``figures``'s
    strategy, per ante, over all :data:`N_DEALS` deals (largest play bet first, the fold last):

    * ``game``: every decision, ante bonus hand and result (the par sheet's outcome rows): the
      net of the ante, play bet and ante bonus together; its return is minus the house edge;
    * ``ante_play``: the ante and the play bet alone (play k x: win, tie - paid to the player -
      and lose; fold);
    * ``ante_bonus``: the ante bonus alone (play k x with each ante bonus hand; fold): its
      return is :attr:`GameFigures.ante_bonus_return`.

    The returns of the last two add up to the first's (a test checks it). Every row's
    ``wagered`` is the round's stake, 1 + the play multiple, so the three tables share the
    game's average total bet.
    """
    game_rows: list[ReturnRow] = []
    play: dict[tuple[int, str], list[int]] = {}
    bonus: dict[tuple[int, str], list[int]] = {}
    for r in figures.outcomes:
        c = _combinations(r.probability, N_DEALS)
        k = r.multiple
        hand = "" if r.hand in ("no ante bonus", "any") else f"{r.hand}, "
        game_rows.append(ReturnRow(f"fold{', ' + r.hand if hand else ''}" if k == 0
                                   else f"play {k}x, {hand}{r.result}", r.net, c, 1 + k))
        play.setdefault((k, "fold" if k == 0 else r.result), [r.net - r.ante_bonus, 0])[1] += c
        bonus.setdefault((k, r.hand), [r.ante_bonus, 0])[1] += c

    def play_label(k: int, result: str) -> str:
        if k == 0:
            return "fold"
        return f"play {k}x, " + ("tie (paid to the player)" if result == "tie" else result)

    play_rows = [ReturnRow(play_label(k, res), pays, c, 1 + k) for (k, res), (pays, c) in
                 sorted(play.items(), key=lambda kv: (kv[0][0] == 0, -kv[0][0], _RESULT_ORDER.get(kv[0][1], 3)))]
    bonus_rows = [ReturnRow(("fold (no ante bonus)" if hand in ("any", "no ante bonus") else f"fold, {hand}")
                            if k == 0 else f"play {k}x, {hand}", pays, c, 1 + k)
                  for (k, hand), (pays, c) in
                  sorted(bonus.items(), key=lambda kv: (kv[0][0] == 0, -kv[0][0], -kv[1][0]))]
    game_rows.sort(key=lambda r: (r.wagered == 1, -r.wagered))  # stable: bonus hands and results keep their order
    game = ReturnTable("game", "Ante and play with the ante bonus (the base game)", "ante", N_DEALS,
                       tuple(game_rows))
    ante_play = ReturnTable("ante_play", "Ante and play bets", "ante", N_DEALS, tuple(play_rows))
    ante_bonus = ReturnTable("ante_bonus", "Ante bonus", "ante", N_DEALS, tuple(bonus_rows), staked=False)
    return game, ante_play, ante_bonus


def aces_up_table(figures: AcesUpFigures) -> ReturnTable:
    """The Aces Up return table, per unit bet, over the 2,598,960 five-card hands (the bet is
    settled on the player's best four alone, whatever the dealer holds and the decision) - or over
    every (hand, up card) pair when a fold loses it (:func:`~fourcards.poker.exact.aces_up.aces_up_with_folds`)."""
    rows = tuple(ReturnRow(label, pays, count, 1) for _, label, pays, count in figures.hands)
    return ReturnTable("aces_up", f"Aces Up ({figures.table})", "Aces Up bet", figures.deals, rows)
