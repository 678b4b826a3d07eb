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
from fourcards.poker.exact.counts import ExactCounts
from fourcards.poker.exact.figures import _frac
from fourcards.poker.exact.tables import N_DEALER_HANDS
from fourcards.poker.rules import PokerRules
from fourcards.poker.settlement import settle

__all__ = ["WinCapFigures", "win_cap_figures", "binding_ante"]

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


_ENTRIES: dict[int, tuple[ExactCounts, list[tuple[np.ndarray, np.ndarray]]]] = {}
_ENTRIES_LOCK = threading.Lock()
_PER_UNIT: dict[tuple[int, PokerRules], tuple[ExactCounts, Any, Any]] = {}


def _entries(counts: ExactCounts) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per hand class: the distinct ``le`` values of its (hand, up card) entries and their summed
    weights (int64), computed once per counts."""
    with _ENTRIES_LOCK:
        hit = _ENTRIES.get(id(counts))
        if hit is not None and hit[0] is counts:
            return hit[1]
        cls_of_rank, _ = _classes()
        cls = np.broadcast_to(cls_of_rank[counts.tables.orbit_rank][None, :], counts.le.shape)
        valid = counts.valid
        le = counts.le[valid].astype(np.int64)
        w = counts.weight[valid]
        c = cls[valid].astype(np.int64)
        key = c * (N_DEALER_HANDS + 1) + le
        uniq, inv = np.unique(key, return_inverse=True)
        wsum = np.bincount(inv, weights=w).astype(np.int64)  # < 2**53: exact
        out = []
        for k in range(_N_CLASSES):
            m = (uniq // (N_DEALER_HANDS + 1)) == k
            out.append((uniq[m] % (N_DEALER_HANDS + 1), wsum[m]))
        _ENTRIES.clear()
        _ENTRIES[id(counts)] = (counts, out)
        return out


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
    entries = _entries(counts)
    total_w = int(counts.weight.sum())
    denom = total_w * n
    net = wagered = hits = 0
    decisions: dict[str, int] = {}
    cap = rules.win_cap
    for c, (le, w) in enumerate(entries):
        if len(le) == 0:
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
        ev = np.stack([le * o[2] + (n - le) * o[3] for o in options])  # chips x n, exact in int64
        best = np.argmax(ev, axis=0)  # the first maximum: the smaller wager on a tie
        for j, (label, p, win_net, lose_net, hit_w, hit_l) in enumerate(options):
            m = best == j
            if not m.any():
                continue
            s_le = int((w[m] * le[m]).sum())
            s_w = int(w[m].sum())
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
                    counts: ExactCounts | None = None) -> WinCapFigures:
    """Exact figures of a round with ``ante`` and ``aces_up`` chips under the win cap ``cap``
    (default ``rules.win_cap``), the play optimal under the cap, and the same without it.

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
    game, au = _per_unit(rules, counts)
    net0 = -game.house_edge * ante + (au.return_ - 1) * aces_up
    wagered0 = game.average_total_bet * ante + aces_up
    return WinCapFigures(ante, aces_up, cap, net, net0, wagered, wagered0, hits, decisions)


def _per_unit(rules: PokerRules, counts: ExactCounts) -> tuple[Any, Any]:
    """The optimal play's :class:`~fourcards.poker.exact.figures.GameFigures` and the Aces Up figures
    of ``rules`` (memoised per counts and rules: a table of bets asks for them at every row)."""
    key = (id(counts), replace(rules, win_cap=None))
    with _ENTRIES_LOCK:
        hit = _PER_UNIT.get(key)
        if hit is not None and hit[0] is counts:
            return hit[1], hit[2]
    from fourcards.poker import strategy as strat
    from fourcards.poker.exact.aces_up import aces_up
    from fourcards.poker.exact.figures import figures_from_decisions

    r = key[1]
    game = figures_from_decisions(counts, r, strat.optimal_strategy(r, counts).decisions, "optimal")
    au = aces_up(r.aces_up)
    with _ENTRIES_LOCK:
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
