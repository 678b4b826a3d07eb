"""Exact figures of the ante/play game for one rule set and one strategy given as decisions:
the options, each outcome's result per ante (from the settlement core), EVs,
:class:`GameFigures` (house edge, element of risk, RTP, average total bet, standard
deviation, outcome rows). Part of :mod:`fourcards.poker.analysis` (which re-exports the
public names); :func:`fourcards.poker.analysis.analyze` resolves a strategy by name.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any, NoReturn

import numpy as np

from fourcards.errors import RulesError
from fourcards.hands import (
    CATEGORY_OF_DENSE,
    DENSE_CODES,
    N_VALUES,
    HandCategory,
    HandValue,
    dense_to_value,
)
from fourcards.poker.exact.counts import ExactCounts
from fourcards.poker.exact.tables import N_DEALER_HANDS, _kernels
from fourcards.poker.rules import PokerRules
from fourcards.poker.settlement import Settlement, settle

__all__ = [
    "option_name", "options", "bonus_pays", "settle_per_ante", "ev_numerators", "OutcomeRow", "GameFigures",
    "figures_from_decisions", "figures_from_chart", "class_sums", "class_of_rank", "FOLD_CLASSES",
]

#: The hand classes whose folds the rule switches care about (docs/rules.md FCP-16, FCP-17): the
#: Aces Up's paying hands (a pair of aces and better; the ante bonus's three of a kind and better
#: among them), as ``key -> hand class`` (:data:`fourcards.poker.exact.strategy.HAND_CLASSES`: 25 a pair
#: of aces, 26 two pair ... 31 four of a kind). Keys are the pay tables' keys.
FOLD_CLASSES = {"pair_of_aces": 25, "two_pair": 26, "straight": 27, "flush": 28, "three_of_a_kind": 29,
                "straight_flush": 30, "four_of_a_kind": 31}


def _accumulate(le: np.ndarray, lt: np.ndarray, weight: np.ndarray, dec: np.ndarray, group: np.ndarray,
                n: int, opts: Iterable[int] = (0, 1, 2, 3)) -> tuple[np.ndarray, np.ndarray, int]:
    """``(acc, wsum, bad)``: see :func:`fourcards.poker.kernels.accumulate` (one compiled pass)."""
    acc = np.zeros((4, 4, 3), np.int64)
    wsum = np.zeros(4, np.int64)
    allowed = np.zeros(256, dtype=bool)
    allowed[list(opts)] = True
    bad = _kernels().accumulate(le, lt, weight, dec, group, n, allowed, acc, wsum)
    return acc, wsum, int(bad)


_OPTION_NAMES = {0: "fold", 1: "play_1x", 2: "play_2x", 3: "play_3x"}


def option_name(multiple: int) -> str:
    """``0 -> "fold"``, ``k -> "play_kx"``."""
    return _OPTION_NAMES[int(multiple)]


def options(rules: PokerRules) -> tuple[int, ...]:
    """The decision options as play multiples, fold (0) first: ``(0, 1, 2, 3)`` or ``(0, 1, 3)``."""
    return (0, *rules.decision_multiples)


def bonus_pays(rules: PokerRules) -> np.ndarray:
    """Ante bonus pay (to 1) per dense hand rank (int64, length 2,535)."""
    per_cat = np.array(rules.ante_bonus.pays_by_category(), dtype=np.int64)
    return per_cat[CATEGORY_OF_DENSE]


_LOWEST_HAND = dense_to_value(0)
_HIGHEST_HAND = dense_to_value(N_VALUES - 1)


@lru_cache(maxsize=4096)
def settle_per_ante(rules: PokerRules, player: HandValue, multiple: int) -> tuple[Settlement, Settlement, Settlement]:
    """The settlements (:func:`fourcards.poker.settlement.settle`) of an ante of 1 and a play
    bet of ``multiple`` antes (0 = fold) for the hand ``player`` when it beats, ties and
    loses to the dealer's hand - the per-ante outcomes every figure here is built on.

    The win cap is not modelled: the analysis is per unit wagered (``rules.win_cap``
    is ignored). Memoised (the settlements are frozen), so a trainer's
    :func:`hand_ev` costs a few look-ups.
    """
    uncapped = replace(rules, win_cap=None) if rules.win_cap is not None else rules
    play = multiple if multiple else None
    win, tie, lose = (settle(uncapped, player, dealer, ante=1, play=play)
                      for dealer in (_LOWEST_HAND, player, _HIGHEST_HAND))
    return win, tie, lose


def ev_numerators(counts: ExactCounts, rules: PokerRules) -> tuple[tuple[int, ...], np.ndarray]:
    """Exact EVs (in antes) x 1,370,754 of every option for every entry.

    Returns ``(opts, ev)`` with ``ev[i, ur, o]`` the EV numerator of option
    ``opts[i]``: fold ``-N``; play ``k``: ``(1 + k)(2 le - N) + B N`` (ante and play
    bet win even money on a win or tie, lose otherwise; the ante bonus ``B`` is
    paid whenever the player plays; on a fold too, ``-N + B N``, when the rules'
    ``ante_bonus_requires_play`` is off). Entries where the hand holds the up card are 0.
    """
    n = N_DEALER_HANDS
    opts = options(rules)
    le = counts.le.astype(np.int64)
    b = bonus_pays(rules)[counts.tables.orbit_rank][None, :]
    ev = np.empty((len(opts), *le.shape), dtype=np.int64)
    margin = 2 * le - n
    fold_bonus = 0 if rules.ante_bonus_requires_play else b * n  # docs/rules.md FCP-17
    for i, k in enumerate(opts):
        ev[i] = -n + fold_bonus if k == 0 else (1 + k) * margin + b * n
    ev[:, ~counts.valid] = 0
    return opts, ev


def _frac(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


@dataclass(frozen=True)
class OutcomeRow:
    """One line of the par sheet's outcome table: a decision, a hand group and a result.

    ``net`` is the round's result in antes (ante, play bet and ante bonus together), of which
    ``ante_bonus`` is the ante bonus; ``multiple`` is the play bet in antes (0 on a fold);
    ``probability`` is exact, over every deal.
    """

    option: str
    hand: str
    result: str
    net: int
    probability: Fraction
    multiple: int = 0
    ante_bonus: int = 0

    @property
    def contribution(self) -> Fraction:
        """This row's share of the expected result, in antes per round: ``net * probability`` (exact)."""
        return self.net * self.probability


@dataclass(frozen=True)
class GameFigures:
    """Exact figures of the ante/play game for one rule set and one strategy.

    All probabilities are over every (player hand, up card) pair and dealer
    completion; money is in antes. ``house_edge`` is per ante (minus the
    expected result), ``element_of_risk`` is per total amount wagered (ante plus
    the average play bet), ``return_to_player = 1 - element_of_risk``.
    ``variance`` / ``standard_deviation``: of one round's net result per ante,
    from the same exact outcome counts (:attr:`outcomes`). ``folded``: the probability
    (over every hand and up card) that the strategy folds a hand of each of
    :data:`FOLD_CLASSES` - what the rule switches act on (:meth:`switch_effects`).
    """

    rules: PokerRules
    strategy: str
    house_edge: Fraction
    average_total_bet: Fraction
    decisions: dict[str, Fraction]
    win: Fraction
    tie: Fraction
    lose: Fraction
    fold: Fraction
    ante_bonus_return: Fraction
    outcomes: tuple[OutcomeRow, ...] = field(default=())
    folded: dict[str, Fraction] = field(default_factory=dict)

    @property
    def expected_value(self) -> Fraction:
        """The player's expected result per round, in antes (exact; ``-house_edge``)."""
        return -self.house_edge

    @property
    def element_of_risk(self) -> Fraction:
        """House edge per total amount wagered (ante plus the average play bet), exact: ``house_edge / average_total_bet``."""
        return self.house_edge / self.average_total_bet

    @property
    def return_to_player(self) -> Fraction:
        """Return to player per total amount wagered, exact: ``1 - element_of_risk``."""
        return 1 - self.element_of_risk

    @property
    def variance(self) -> Fraction:
        """Variance of one round's net result, in antes squared (exact): ``E[net^2] - E[net]^2``
        over the outcome rows (every decision, hand group and result with its exact probability)."""
        second = sum((r.probability * r.net * r.net for r in self.outcomes), Fraction(0))
        return second - self.expected_value ** 2

    @property
    def standard_deviation(self) -> float:
        """Standard deviation of one round's net result, in antes: ``sqrt(variance)`` (the variance is
        exact; only the square root is a float)."""
        return math.sqrt(self.variance)

    def switch_effects(self, aces_up: Any | None = None) -> dict[str, Fraction]:
        """The exact effect of each rule switch (docs/rules.md FCP-16, FCP-17) under this strategy:
        what turning it on changes, whichever way the rules have it.

        * ``"ante_bonus_requires_play"``: the change of the game's return per ante when the ante bonus
          is paid only with a play bet instead of on a fold too: minus the ante bonus the strategy's
          folded hands hold (``-sum P(fold, hand) x pay``; <= 0);
        * ``"aces_up_lost_on_fold"``: the change of the Aces Up return per unit bet when a fold loses
          the bet instead of settling it on the hand: ``-sum P(fold, hand) x (pay + 1)`` over the
          paying hands of ``aces_up`` (an :class:`~fourcards.poker.rules.AcesUpTable`; default the
          rules'; <= 0).

        Zero under the optimal strategy (it folds no pair of aces or better).
        """
        table = self.rules.aces_up if aces_up is None else aces_up
        bonus = self.rules.ante_bonus.as_dict()
        pays = table.as_dict()
        return {
            "ante_bonus_requires_play": -sum((p * bonus.get(k, 0) for k, p in self.folded.items()), Fraction(0)),
            "aces_up_lost_on_fold": -sum((p * (pays[k] + 1) for k, p in self.folded.items()), Fraction(0)),
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``house_edge`` (per ante), ``element_of_risk`` and ``return_to_player`` (per total
        wagered), ``average_total_bet`` (antes), ``standard_deviation`` (of a round's net, in antes),
        probabilities of decisions and outcomes, the outcome rows as floats, ``folded`` (the probability
        of folding each hand of :data:`FOLD_CLASSES`), and ``exact`` fractions as strings for the main
        figures (``variance`` in antes squared).
        """
        return {
            "strategy": self.strategy,
            "house_edge": float(self.house_edge),
            "element_of_risk": float(self.element_of_risk),
            "return_to_player": float(self.return_to_player),
            "average_total_bet": float(self.average_total_bet),
            "standard_deviation": self.standard_deviation,
            "decisions": {k: float(v) for k, v in self.decisions.items()},
            "frequencies": {"win": float(self.win), "tie": float(self.tie), "lose": float(self.lose),
                            "fold": float(self.fold)},
            "ante_bonus_return": float(self.ante_bonus_return),
            "outcomes": [
                {"option": r.option, "hand": r.hand, "result": r.result, "net": r.net,
                 "probability": float(r.probability), "contribution": float(r.contribution)}
                for r in self.outcomes
            ],
            "folded": {k: float(v) for k, v in self.folded.items()},
            "exact": {
                "house_edge": _frac(self.house_edge),
                "element_of_risk": _frac(self.element_of_risk),
                "return_to_player": _frac(self.return_to_player),
                "average_total_bet": _frac(self.average_total_bet),
                "variance": _frac(self.variance),
                "decisions": {k: _frac(v) for k, v in self.decisions.items()},
            },
        }


_BONUS_GROUPS = ("", "three of a kind", "straight flush", "four of a kind")


def _lowest_of(category: HandCategory) -> HandValue:
    return dense_to_value(int(np.flatnonzero(CATEGORY_OF_DENSE == category)[0]))


#: A hand of each ante bonus group (the lowest of its category: every dealer
#: outcome is possible against it); the settlement depends only on the group.
_BONUS_GROUP_HANDS = tuple(_lowest_of(c) for c in (HandCategory.PAIR, HandCategory.THREE_OF_A_KIND,
                                                     HandCategory.STRAIGHT_FLUSH, HandCategory.FOUR_OF_A_KIND))


def figures_from_decisions(counts: ExactCounts, rules: PokerRules, decisions: np.ndarray,
                           name: str = "custom") -> GameFigures:
    """Exact :class:`GameFigures` of a strategy given as ``(13, n_orbits)`` play multiples.

    Raises:
        RulesError: a decision is not fold or an allowed play multiple.
    """
    dec = np.asarray(decisions)
    if dec.shape != counts.le.shape:
        raise RulesError(f"a strategy needs decisions of shape {counts.le.shape}, got {dec.shape}")
    valid = counts.valid
    opts = options(rules)

    def refuse() -> NoReturn:
        bad = valid & ~np.isin(dec, opts)
        raise RulesError(
            f"strategy {name!r} makes play bets the rules do not allow "
            f"({sorted(set(np.unique(dec[bad]).tolist()))}); allowed: {list(opts)}"
        )

    if dec.dtype != np.uint8:  # uint8 decisions are checked by the accumulating kernel itself
        if (valid & ~np.isin(dec, opts)).any():
            refuse()
        dec = dec.astype(np.uint8)
    n = N_DEALER_HANDS
    cat = CATEGORY_OF_DENSE[counts.tables.orbit_rank]
    group = np.zeros(cat.shape, dtype=np.int64)
    group[cat == HandCategory.THREE_OF_A_KIND] = 1
    group[cat == HandCategory.STRAIGHT_FLUSH] = 2
    group[cat == HandCategory.FOUR_OF_A_KIND] = 3
    # acc[k, g, 0..2]: sum of weight x (dealer hands beaten, tied, better) for play k, bonus group g;
    # wsum[k]: sum of weights choosing k (0 = fold)
    acc, wsum, n_bad = _accumulate(counts.le, counts.lt, counts.weight, np.ascontiguousarray(dec), group, n,
                                   opts)
    if n_bad:
        refuse()
    return _figures_from_sums(rules, acc, wsum, _total_weight(counts), name, _fold_weights(counts, dec))


#: The ante bonus group (0 none, 1 trips, 2 straight flush, 3 quads) of each hand class
#: (:data:`fourcards.poker.exact.strategy.HAND_CLASSES`: 0-12 high cards, 13-25 pairs, 26 two pair ... 31 quads).
_GROUP_OF_CLASS = np.array([0] * 29 + [1, 2, 3], dtype=np.int64)
_SUMS: dict[int, tuple[ExactCounts, np.ndarray]] = {}
_SUMS_LOCK = threading.Lock()


def class_sums(counts: ExactCounts) -> np.ndarray:
    """``(32, 13, 3)`` int64, by hand class and up rank: the weights, weight x dealer hands beaten
    (``lt``) and weight x dealer hands beaten or tied (``le``) - one pass over the counts, kept for
    the counts' life. Every strategy that depends only on the hand class and the up rank (a chart:
    the simple strategy, the best chart) has its exact figures in these sums."""
    with _SUMS_LOCK:
        hit = _SUMS.get(id(counts))
        if hit is not None and hit[0] is counts:
            return hit[1]
        cls = class_of_rank()[counts.tables.orbit_rank].astype(np.int64)
        out = np.zeros((32, 13, 3), dtype=np.int64)
        _kernels().class_sums(counts.le, counts.lt, counts.weight, cls, out)
        out.setflags(write=False)
        _SUMS.clear()
        _SUMS[id(counts)] = (counts, out)
        return out


@cache
def class_of_rank() -> np.ndarray:
    """The hand class (:data:`fourcards.poker.exact.strategy.HAND_CLASSES`: 0-12 high card 2..A, 13-25 pair
    of 2s..As, 26 two pair, 27 straight, 28 flush, 29 three of a kind, 30 straight flush, 31 four of
    a kind) of each dense hand rank, uint8 (read-only)."""
    cat = CATEGORY_OF_DENSE.astype(np.int64)
    top = ((DENSE_CODES >> 12) & 0xF).astype(np.int64)
    out = np.where(cat == 0, top - 2, np.where(cat == 1, 13 + top - 2, 26 + cat - 2)).astype(np.uint8)
    out.setflags(write=False)
    return out


_FOLD_ENTRIES: dict[int, tuple[Any, np.ndarray, np.ndarray, np.ndarray]] = {}


def _fold_weights(counts: ExactCounts, dec: np.ndarray) -> dict[int, int]:
    """Weight of the entries folded (``dec == 0``) by hand class, for :data:`FOLD_CLASSES` only (the
    entries of those classes are located once per counts: a sixth of them)."""
    with _SUMS_LOCK:
        hit = _FOLD_ENTRIES.get(id(counts))
        if hit is None or hit[0] is not counts:
            cls = class_of_rank()[counts.tables.orbit_rank]
            flat = np.flatnonzero((np.broadcast_to(cls, counts.weight.shape) >= min(FOLD_CLASSES.values())).ravel()
                                  & (counts.weight.ravel() > 0))
            hit = (counts, flat, np.broadcast_to(cls, counts.weight.shape).ravel()[flat].astype(np.int64),
                   counts.weight.ravel()[flat])
            _FOLD_ENTRIES.clear()
            _FOLD_ENTRIES[id(counts)] = hit
    _, flat, cls_, w = hit
    folded = np.asarray(dec).ravel()[flat] == 0
    sums = np.bincount(cls_[folded], weights=w[folded], minlength=32)
    return {c: int(round(sums[c])) for c in FOLD_CLASSES.values() if sums[c]}


def _total_weight(counts: ExactCounts) -> int:
    return int(class_sums(counts)[:, :, 0].sum())


def figures_from_chart(counts: ExactCounts, rules: PokerRules, table: np.ndarray, name: str = "chart"
                       ) -> GameFigures:
    """Exact :class:`GameFigures` of a chart: ``table[class, up rank]`` play multiples, ``(32, 13)``
    (:class:`~fourcards.poker.exact.strategy.StrategyChart`), from :func:`class_sums` (microseconds; equal
    to :func:`figures_from_decisions` of the chart's decisions, a test checks).

    Raises:
        RulesError: the chart bets a multiple the rules do not allow on a hand class that occurs.
    """
    t = np.asarray(table)
    if t.shape != (32, 13):
        raise RulesError(f"a chart has 32 hand classes x 13 up ranks, got {t.shape}")
    sums = class_sums(counts)
    present = sums[:, :, 0] > 0
    opts = options(rules)
    used = sorted(set(np.asarray(t)[present].tolist()))
    if not set(used) <= set(opts):
        raise RulesError(f"strategy {name!r} bets {sorted(set(used) - set(opts))}x, which the rules "
                         f"({rules.describe_play_bets()}) do not allow")
    n = N_DEALER_HANDS
    acc = np.zeros((4, 4, 3), dtype=object)
    wsum = np.zeros(4, dtype=object)
    folds: dict[int, int] = {}
    fold_classes = set(FOLD_CLASSES.values())
    for c, ur in zip(*np.nonzero(present)):
        k = int(t[c, ur])
        w, wlt, wle = (int(v) for v in sums[c, ur])
        wsum[k] += w
        if k:
            g = int(_GROUP_OF_CLASS[c])
            acc[k, g, 0] += wlt
            acc[k, g, 1] += wle - wlt
            acc[k, g, 2] += w * n - wle
        elif int(c) in fold_classes:
            folds[int(c)] = folds.get(int(c), 0) + w
    return _figures_from_sums(rules, acc, wsum, int(sums[:, :, 0].sum()), name, folds)


def _figures_from_sums(rules: PokerRules, acc: np.ndarray, wsum: np.ndarray, total_w: int, name: str,
                       folds: dict[int, int] | None = None) -> GameFigures:
    """:class:`GameFigures` from ``acc[k, g, (beaten, tied, better)]``, ``wsum[k]`` and the folded
    weight by hand class ``folds`` (:data:`FOLD_CLASSES`; see :func:`figures_from_decisions`). When the
    ante bonus is paid on a fold too (docs/rules.md FCP-17) the fold rows are split by bonus hand."""
    folds = folds or {}
    n = N_DEALER_HANDS
    opts = options(rules)
    denom = total_w * n
    rows: list[OutcomeRow] = []
    total = 0
    bonus_total = 0
    decisions_p: dict[str, Fraction] = {}
    win = tie = lose = 0
    bet_sum = 0
    fold_w = int(wsum[0])
    for opt in opts:
        decisions_p[option_name(opt)] = Fraction(int(wsum[opt]), total_w)
        bet_sum += opt * int(wsum[opt])
        if opt == 0:
            total -= fold_w * n
            if fold_w and rules.ante_bonus_requires_play:
                rows.append(OutcomeRow("fold", "any", "fold", -1, Fraction(fold_w, total_w)))
            elif fold_w:  # the ante bonus on a fold too: one row per bonus hand folded
                by_group = [0, folds.get(29, 0), folds.get(30, 0), folds.get(31, 0)]
                by_group[0] = fold_w - sum(by_group)
                for gi, gname in enumerate(_BONUS_GROUPS):
                    if by_group[gi]:
                        b = settle_per_ante(rules, _BONUS_GROUP_HANDS[gi], 0)[0].ante_bonus
                        rows.append(OutcomeRow("fold", gname or "no ante bonus", "fold", -1 + b,
                                               Fraction(by_group[gi], total_w), 0, b))
                        total += b * by_group[gi] * n
                        bonus_total += b * by_group[gi] * n
            continue
        for gi, gname in enumerate(_BONUS_GROUPS):
            hand = gname or "no ante bonus"
            settled = settle_per_ante(rules, _BONUS_GROUP_HANDS[gi], opt)
            for ri, (res, result) in enumerate(zip(("win", "tie", "lose"), settled, strict=True)):
                s = int(acc[opt, gi, ri])
                if s:
                    rows.append(OutcomeRow(option_name(opt), hand, res, result.net, Fraction(s, denom), opt,
                                           result.ante_bonus))
                    total += result.net * s
                    bonus_total += result.ante_bonus * s
        win += int(acc[opt, :, 0].sum())
        tie += int(acc[opt, :, 1].sum())
        lose += int(acc[opt, :, 2].sum())
    return GameFigures(
        rules=rules,
        strategy=name,
        house_edge=Fraction(-total, denom),
        average_total_bet=1 + Fraction(bet_sum, total_w),
        decisions=decisions_p,
        win=Fraction(win, denom),
        tie=Fraction(tie, denom),
        lose=Fraction(lose, denom),
        fold=Fraction(fold_w, total_w),
        ante_bonus_return=Fraction(bonus_total, denom),
        outcomes=tuple(rows),
        folded={k: Fraction(folds[c], total_w) for k, c in FOLD_CLASSES.items() if folds.get(c)},
    )
