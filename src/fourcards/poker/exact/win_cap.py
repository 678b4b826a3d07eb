"""The win cap's cost: the exact return of the game under a win cap, at given bets in chips
(``fourcards poker win-cap``; docs/analysis.md "The win cap's cost").

Seed 004 caps "any combination of wins in a single game" at 8,400 (docs/rules.md FCP-7: what the
winning lines win together - ante, play bet, ante bonus and Aces Up - is capped; a losing line is
lost in full). Per unit wagered the cap does not exist; at high bets it lowers the return, and it
changes the best play: with a large ante bonus already over the cap, a bigger play bet adds risk
and no win. So every figure here is for the strategy that is optimal *under the cap at these
bets* (each hand and up card: the option of highest expected chips, ties to the smaller wager),
computed from the exact dealer counts:

* the options are the fold and the play bets the rules allow: 1x or 3x the ante online; any
  whole amount from 1x to 3x live, where (the expected chips being piecewise linear in the play
  bet, with one kink where the winning lines reach the cap) the best amount is 1x, 3x or the
  kink, so those three are compared;
* every outcome's chips come from the settlement core (:func:`fourcards.poker.settlement.settle`),
  as in a real round.

The uncapped figures at the same bets are the par sheet's per-unit figures scaled by the bets
(the optimal play does not depend on the stakes without a cap), so the cap's cost is their
difference. :func:`binding_ante` is the smallest ante at which some outcome
of the optimal play wins more than the cap: below it the capped return equals the uncapped one
(a test checks both sides).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from fourcards.errors import RulesError
from fourcards.hands import CATEGORY_OF_DENSE, DENSE_CODES, HandCategory, HandValue, dense_to_value
from fourcards.poker.exact import cache as disk
from fourcards.poker.exact import strategy as strat
from fourcards.poker.exact.counts import ExactCounts, cache_directory
from fourcards.poker.exact.figures import _frac
from fourcards.poker.exact.tables import N_DEALER_HANDS, N_HANDS_PER_UP
from fourcards.poker.rules import PokerRules
from fourcards.poker.settlement import settle

__all__ = ["WinCapFigures", "win_cap_figures", "binding_ante", "ClassSums", "class_sums"]

_N_CLASSES = 9  # the eight categories, pairs split into aces and the rest (the Aces Up pays a pair of aces)
_LOWEST = dense_to_value(0)


def _classes() -> tuple[np.ndarray, list[HandValue]]:
    """``(class of each dense rank, a hand of each class)``: 0 high card, 1 a pair below aces, 2 a pair
    of aces, 3 two pair ... 8 four of a kind (a hand's ante bonus and Aces Up pays depend on its class)."""
    cat = CATEGORY_OF_DENSE.astype(np.int64)
    aces = (cat == HandCategory.PAIR) & (((DENSE_CODES >> 12) & 0xF) == 14)
    cls = np.where(cat == 0, 0, cat + 1)
    cls = np.where(cat == HandCategory.PAIR, np.where(aces, 2, 1), cls)
    reps = [dense_to_value(int(np.flatnonzero(cls == c)[0])) for c in range(_N_CLASSES)]
    return cls.astype(np.int8), reps


@dataclass(frozen=True)
class ClassSums:
    """The dealer counts summed by hand class and ``le`` (pay-table independent): what the win cap's
    figures need, since a (hand, up card) entry's chips depend only on its hand's class and its ``le``.

    Attributes:
        le: the distinct ``le`` values of each class's valid entries, class after class, ascending
            within a class (int64).
        offsets: class ``c`` spans ``le[offsets[c]:offsets[c + 1]]`` (10 values).
        cum_weight, cum_weight_le: prefix sums (from 0; one longer than ``le``) of the summed weights
            of each ``le`` value and of weight x ``le`` (int64, exact).
    """

    le: np.ndarray
    offsets: tuple[int, ...]
    cum_weight: np.ndarray
    cum_weight_le: np.ndarray

    def sums(self, c: int, lo: int, hi: int) -> tuple[int, int]:
        """``(summed weight, summed weight x le)`` of class ``c``'s entries with ``lo <= le <= hi``."""
        a, b = self.offsets[c], self.offsets[c + 1]
        if lo > hi or a == b:
            return 0, 0
        part = self.le[a:b]
        i0 = a + int(np.searchsorted(part, lo, "left"))
        i1 = a + int(np.searchsorted(part, hi, "right"))
        return (int(self.cum_weight[i1]) - int(self.cum_weight[i0]),
                int(self.cum_weight_le[i1]) - int(self.cum_weight_le[i0]))


_SUMS: dict[int, tuple[ExactCounts, ClassSums]] = {}
_SUMS_LOCK = threading.Lock()
_PER_UNIT: dict[tuple[int, PokerRules], tuple[ExactCounts, Any, Any]] = {}
_HEADER = 12  # checksum, total weight, 10 offsets


def _checksum(counts: ExactCounts) -> int:
    """Sum of weight x ``le`` over every entry: ties a cached summary to the counts it came from."""
    return int(np.einsum("ij,ij->", counts.le, counts.weight, dtype=np.int64))


def _compute_class_sums(counts: ExactCounts) -> np.ndarray:
    """The file layout of :class:`ClassSums`: ``[checksum, total weight, offsets (10), le (M),
    cum_weight (M + 1), cum_weight_le (M + 1)]`` (int64)."""
    n1 = N_DEALER_HANDS + 1
    cls_of_rank, _ = _classes()
    cls = cls_of_rank[counts.tables.orbit_rank].astype(np.int64) * n1
    valid = counts.valid
    key = np.broadcast_to(cls[None, :], counts.le.shape)[valid] + counts.le[valid]
    wsum = np.bincount(key, weights=counts.weight[valid], minlength=_N_CLASSES * n1)  # < 2**53: exact
    nz = np.flatnonzero(wsum)
    le = nz % n1
    w = wsum[nz].astype(np.int64)
    offsets = np.searchsorted(nz // n1, np.arange(_N_CLASSES + 1))
    zero = np.zeros(1, dtype=np.int64)
    return np.concatenate([np.array([_checksum(counts), int(w.sum())], dtype=np.int64), offsets.astype(np.int64),
                           le, zero, np.cumsum(w), zero, np.cumsum(w * le)])


def _parse_class_sums(data: np.ndarray, counts: ExactCounts) -> ClassSums:
    """:class:`ClassSums` of the file layout, checked against ``counts``.

    Raises:
        ValueError: a summary of other counts, or a corrupt one.
    """
    if len(data) < _HEADER + 2:
        raise ValueError("layout")
    offsets = tuple(int(x) for x in data[2:_HEADER])
    m = offsets[-1]
    if (len(data) != _HEADER + 3 * m + 2 or offsets[0] != 0 or list(offsets) != sorted(offsets)
            or int(data[0]) != _checksum(counts) or int(data[1]) != int(data[_HEADER + 2 * m])
            or int(data[1]) != 13 * N_HANDS_PER_UP):
        raise ValueError("class sums of other counts")
    le = data[_HEADER:_HEADER + m]
    return ClassSums(le, offsets, data[_HEADER + m:_HEADER + 2 * m + 1], data[_HEADER + 2 * m + 1:])


def class_sums(counts: ExactCounts) -> ClassSums:
    """The :class:`ClassSums` of ``counts``: from this process's memory, the disk cache next to the
    counts (:mod:`fourcards.poker.exact.cache`), or computed (about a second) and written there."""
    with _SUMS_LOCK:
        hit = _SUMS.get(id(counts))
        if hit is not None and hit[0] is counts:
            return hit[1]
        sums = None
        d = cache_directory(counts)
        path = None if d is None else disk._class_sums_file(d)
        if path is not None and path.exists():
            try:
                sums = _parse_class_sums(disk.read_class_sums(path), counts)
            except (OSError, ValueError):
                sums = None
        if sums is None:
            data = _compute_class_sums(counts)
            sums = _parse_class_sums(data, counts)
            if path is not None:
                disk.write_class_sums(path, data)
        _SUMS.clear()
        _SUMS[id(counts)] = (counts, sums)
        return sums


def _interval(j: int, lines: list[tuple[int, int]], n: int) -> tuple[int, int]:
    """The ``le`` values (``lo..hi``, inclusive; empty when ``lo > hi``) at which option ``j`` is the
    first best: ``lines[k] = (slope, intercept)`` of option ``k``'s chips x n as a function of ``le``;
    ``j`` must beat every earlier option and tie or beat every later one (ties to the earlier,
    smaller wager). Exact integer arithmetic."""
    lo, hi = 0, n
    aj, bj = lines[j]
    for k, (ak, bk) in enumerate(lines):
        if k == j:
            continue
        a, b, strict = aj - ak, bj - bk, k < j  # need a x + b > 0 (strict) or >= 0
        if a == 0:
            if b < 0 or (strict and b == 0):
                return 1, 0
        elif a > 0:
            lo = max(lo, (-b) // a + 1 if strict else -(b // a))
        else:
            hi = min(hi, -((-b) // -a) - 1 if strict else b // -a)
    return lo, hi


@dataclass(frozen=True)
class WinCapFigures:
    """Exact figures of one seat's round at given bets, under a win cap (see the module doc).

    Money is in chips per round; ``return_to_player`` is per total wagered (ante, play bet and Aces
    Up bet); ``*_uncapped`` are the same bets without the cap (each under its own optimal play).

    Attributes:
        ante, aces_up: the bets in chips; cap: the cap in chips.
        expected_net, expected_net_uncapped: the seat's expected result per round (chips, exact).
        average_wagered: chips staked per round on average under the capped play (exact).
        average_wagered_uncapped: the same without the cap.
        hits_cap: probability that a round's wins exceed the cap (exact).
        decisions: probability of each option of the capped play (``"fold"``, ``"play 3x"``, or a
            play bet in chips for the kink of a live game, e.g. ``"play 2,600"``).
    """

    ante: int
    aces_up: int
    cap: int
    expected_net: Fraction
    expected_net_uncapped: Fraction
    average_wagered: Fraction
    average_wagered_uncapped: Fraction
    hits_cap: Fraction
    decisions: dict[str, Fraction]

    @property
    def return_to_player(self) -> Fraction:
        """Return per total wagered under the cap: ``1 + expected_net / average_wagered`` (exact)."""
        return 1 + self.expected_net / self.average_wagered

    @property
    def return_to_player_uncapped(self) -> Fraction:
        """The same bets without the cap (exact)."""
        return 1 + self.expected_net_uncapped / self.average_wagered_uncapped

    @property
    def cost(self) -> Fraction:
        """What the cap costs the player, per total wagered: uncapped RTP minus capped RTP (>= 0)."""
        return self.return_to_player_uncapped - self.return_to_player

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the bets and cap (chips), ``return_to_player`` and ``return_to_player_uncapped``
        (per total wagered), ``cost``, ``expected_net`` (chips a round), ``average_wagered``,
        ``hits_cap`` (probability), ``decisions`` and the exact fractions."""
        return {
            "ante": self.ante, "aces_up": self.aces_up, "cap": self.cap,
            "return_to_player": float(self.return_to_player),
            "return_to_player_uncapped": float(self.return_to_player_uncapped),
            "cost": float(self.cost),
            "expected_net": float(self.expected_net),
            "expected_net_uncapped": float(self.expected_net_uncapped),
            "average_wagered": float(self.average_wagered),
            "hits_cap": float(self.hits_cap),
            "decisions": {k: float(v) for k, v in self.decisions.items()},
            "exact": {"return_to_player": _frac(self.return_to_player),
                      "return_to_player_uncapped": _frac(self.return_to_player_uncapped),
                      "hits_cap": _frac(self.hits_cap)},
        }


def _play_amounts(rules: PokerRules, ante: int, kink: int | None) -> list[int]:
    lo, hi = rules.min_play_multiple * ante, rules.max_play_multiple * ante
    if not rules.play_any_amount:
        return sorted({m * ante for m in rules.play_multiples})
    amounts = {lo, hi}
    if kink is not None and lo < kink < hi:
        amounts.add(kink)
    return sorted(amounts)


def _evaluate(rules: PokerRules, ante: int, aces_up: int, counts: ExactCounts
              ) -> tuple[Fraction, Fraction, Fraction, dict[str, Fraction]]:
    """``(expected net, average wagered, P(wins > cap), decisions)`` in chips under ``rules.win_cap``
    (None: uncapped), the play optimal for these bets."""
    _, reps = _classes()
    n = N_DEALER_HANDS
    sums = class_sums(counts)
    total_w = 13 * N_HANDS_PER_UP
    denom = total_w * n
    net = wagered = hits = 0
    decisions: dict[str, int] = {}
    cap = rules.win_cap
    for c in range(_N_CLASSES):
        if sums.offsets[c] == sums.offsets[c + 1]:
            continue
        hand = reps[c]
        # where the winning lines of a won play reach the cap: ante + play + bonus + Aces Up = cap
        fold = settle(rules, hand, _LOWEST, ante=ante, play=None, aces_up=aces_up)
        probe = settle(replace(rules, win_cap=None), hand, _LOWEST, ante=ante, play=0, aces_up=aces_up)
        kink = None if cap is None else cap - probe.wins
        options: list[tuple[str, int, int, int, int, int]] = [("fold", 0, fold.net, fold.net,
                                                                int(cap is not None and fold.wins > cap),
                                                                int(cap is not None and fold.wins > cap))]
        for p in _play_amounts(rules, ante, kink):
            win = settle(rules, hand, _LOWEST, ante=ante, play=p, aces_up=aces_up)
            lose = settle(rules, hand, dense_to_value(2534), ante=ante, play=p, aces_up=aces_up)
            label = f"play {p // ante}x" if p % ante == 0 else f"play {p:,}"
            options.append((label, p, win.net, lose.net, int(cap is not None and win.wins > cap),
                            int(cap is not None and lose.wins > cap)))
        # an entry's chips x n: le x win + (n - le) x lose, a line in le; the best option is the first
        # maximum (the smaller wager on a tie), over an interval of le for each option
        lines = [(o[2] - o[3], n * o[3]) for o in options]
        for j, (label, p, win_net, lose_net, hit_w, hit_l) in enumerate(options):
            s_w, s_le = sums.sums(c, *_interval(j, lines, n))
            if s_w == 0:
                continue
            s_nle = s_w * n - s_le
            net += win_net * s_le + lose_net * s_nle
            hits += hit_w * s_le + hit_l * s_nle
            wagered += (ante + p + aces_up) * s_w * n
            decisions[label] = decisions.get(label, 0) + s_w
    order = sorted(decisions, key=lambda k: (k != "fold", k))
    return (Fraction(net, denom), Fraction(wagered, denom), Fraction(hits, denom),
            {k: Fraction(decisions[k], total_w) for k in order})


def _check_bets(rules: PokerRules, ante: int, aces_up: int, cap: int | None) -> int:
    if cap is None:
        cap = rules.win_cap
    if cap is None:
        raise RulesError(f"the {rules.name!r} rules have no win cap: give one (e.g. --cap 8400)")
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
        raise RulesError(f"a win cap must be a whole number of chips >= 1, got {cap!r}")
    if not rules.min_ante <= ante <= rules.max_ante:
        raise RulesError(f"the ante must lie within the table's limits {rules.min_ante:,}..{rules.max_ante:,}, "
                         f"got {ante:,}")
    if aces_up and not rules.min_aces_up <= aces_up <= rules.max_aces_up:
        raise RulesError(f"the Aces Up bet must be 0 or lie within {rules.min_aces_up:,}..{rules.max_aces_up:,}, "
                         f"got {aces_up:,}")
    return cap


def win_cap_figures(rules: PokerRules, ante: int, aces_up: int = 0, *, cap: int | None = None,
                    counts: ExactCounts | None = None, optimal: Any = None) -> WinCapFigures:
    """Exact figures of a round with ``ante`` and ``aces_up`` chips under the win cap ``cap``
    (default ``rules.win_cap``), the play optimal under the cap, and the same without it.
    ``optimal``: the optimal play's :class:`~fourcards.poker.exact.figures.GameFigures` of ``rules``
    if the caller has them at hand (the par sheet does), else computed here.

    Raises:
        RulesError: no cap (rules without one and none given), or bets outside the table's limits.
    """
    from fourcards.poker.exact.counts import exact_counts

    cap = _check_bets(rules, ante, aces_up, cap)
    counts = counts or exact_counts()
    capped = replace(rules, win_cap=cap)
    net, wagered, hits, decisions = _evaluate(capped, ante, aces_up, counts)
    # uncapped, the figures scale with the bets: the par sheet's per-unit figures (the optimal play
    # and the Aces Up return), exact - and computed apart from the chips above
    game, au = _per_unit(rules, counts, optimal)
    net0 = -game.house_edge * ante + (au.return_ - 1) * aces_up
    wagered0 = game.average_total_bet * ante + aces_up
    return WinCapFigures(ante, aces_up, cap, net, net0, wagered, wagered0, hits, decisions)


def _per_unit(rules: PokerRules, counts: ExactCounts, optimal: Any = None) -> tuple[Any, Any]:
    """The optimal play's :class:`~fourcards.poker.exact.figures.GameFigures` (``optimal`` if given)
    and the Aces Up figures of ``rules`` (memoised per counts and rules: a table of bets asks for
    them at every row)."""
    from fourcards.poker.exact.aces_up import aces_up

    if optimal is not None:
        return optimal, aces_up(rules.aces_up)
    key = (id(counts), replace(rules, win_cap=None))
    with _SUMS_LOCK:
        hit = _PER_UNIT.get(key)
        if hit is not None and hit[0] is counts:
            return hit[1], hit[2]
    from fourcards.poker.exact.figures import figures_from_decisions

    r = key[1]
    game = figures_from_decisions(counts, r, strat.optimal_strategy(r, counts).decisions, "optimal")
    au = aces_up(r.aces_up)
    with _SUMS_LOCK:
        if len(_PER_UNIT) > 32:
            _PER_UNIT.clear()
        _PER_UNIT[key] = (counts, game, au)
    return game, au


def binding_ante(rules: PokerRules, aces_up: int | None = 0, *, cap: int | None = None) -> int | None:
    """The smallest ante (within the table's limits) at which an outcome of the optimal play wins more
    than the cap - four of a kind, played at the largest play bet, winning: ante x (1 + largest play
    multiple + the ante bonus's four of a kind pay), plus the Aces Up bet's four of a kind pay - or
    None if no ante up to the table's maximum reaches it. ``aces_up``: the Aces Up bet in chips, or
    None for an Aces Up bet equal to the ante.

    Raises:
        RulesError: no cap.
    """
    cap = cap if cap is not None else rules.win_cap
    if cap is None:
        raise RulesError(f"the {rules.name!r} rules have no win cap: give one (e.g. --cap 8400)")
    per_ante = 1 + rules.largest_play_multiple + rules.ante_bonus.four_of_a_kind
    q = rules.aces_up.four_of_a_kind
    # ante x per_ante + b x q > cap, b fixed or b = ante: the first whole ante above the bound
    ante = (cap - aces_up * q) // per_ante + 1 if aces_up is not None else cap // (per_ante + q) + 1
    ante = max(ante, rules.min_ante)
    return ante if ante <= rules.max_ante else None
