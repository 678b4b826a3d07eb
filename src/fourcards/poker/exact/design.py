"""The pay-table designer: the whole-number pay tables nearest a target return (``fourcards poker
design``), and the return as one pay varies (``--sweep``).

* **Aces Up** (:func:`design_aces_up`): the return is linear in the pays - each hand class's
  count of the 2,598,960 five-card hands times its pay - so the search is exact integer
  arithmetic: every table within a distance of the target is enumerated (the classes with many
  hands first, each pay bounded by what the target leaves; the last pay solved for), the
  distance doubled until at least ``top`` tables lie within it, and the nearest kept. Each is
  then re-scored by :func:`~fourcards.poker.exact.aces_up.aces_up`.
* **Ante bonus, for a target game RTP** (:func:`design_ante_bonus`): the ante bonus is paid on
  the ante whenever the player plays, so the optimal play can change with it. The search runs
  on the linear model of the reference strategy (the optimal one under the rules' table: the
  game's return is linear in the bonus pays while the decisions stay), keeps twice ``top``
  candidates, and re-optimises the play strategy of every one exactly
  (:func:`~fourcards.poker.exact.strategy.optimal_strategy` and
  :func:`~fourcards.poker.exact.figures.figures_from_decisions`); the list is ranked by the
  exact figures, with the number of decisions that changed.

Constraints (the defaults follow the published tables, docs/rules.md FCP-12): pays strictly
decreasing down the hand ranking (``strict=False``: never increasing), at most ``max_pay`` (50)
and at least ``min_pay`` (1) to 1, and pays to keep fixed. Part of
:mod:`fourcards.poker.analysis`'s exact analysis; the command is :mod:`fourcards.cli.design`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

import numpy as np

from fourcards.errors import RulesError
from fourcards.poker.exact import strategy as strat
from fourcards.poker.exact.aces_up import AcesUpFigures, aces_up, aces_up_counts
from fourcards.poker.exact.figures import GameFigures, _frac
from fourcards.poker.rules import MAX_PAY, AcesUpTable, AnteBonusTable, PokerRules

__all__ = ["ACES_UP_KEYS", "ANTE_BONUS_KEYS", "parse_target", "parse_pay_key", "parse_fixed", "AcesUpDesign",
           "AnteBonusDesign", "design_aces_up", "design_ante_bonus", "sweep_aces_up", "sweep_ante_bonus",
           "MAX_DESIGN_PAY", "MAX_SWEEP_POINTS"]

#: Aces Up pays in table order (best hand first), with their short names (docs/analysis.md's header).
ACES_UP_KEYS = {"four_of_a_kind": "4K", "straight_flush": "SF", "three_of_a_kind": "3K", "flush": "F",
                "straight": "S", "two_pair": "2P", "pair_of_aces": "AA"}
#: Ante bonus pays in table order.
ANTE_BONUS_KEYS = {"four_of_a_kind": "4K", "straight_flush": "SF", "three_of_a_kind": "3K"}
#: The largest ``max_pay`` a search takes (the work grows with it; published tables pay at most 50).
MAX_DESIGN_PAY = 1000
#: The most points a sweep takes (each ante bonus point re-optimises the strategy).
MAX_SWEEP_POINTS = {"aces_up": 1001, "ante_bonus": 201}
#: The most tables one search enumerates before it refuses (constraints too loose for the target).
_MAX_TABLES = 3_000_000


def parse_target(text: str | float | Fraction, what: str) -> Fraction:
    """A return in percent (``"96.63"``) as an exact fraction of the bet (0.9663).

    Raises:
        RulesError: not a number, or outside 1 % .. 200 %.
    """
    if isinstance(text, Fraction):
        value = text * 100
    else:
        try:
            value = Fraction(Decimal(str(text).strip().rstrip("%")))
        except (InvalidOperation, ValueError):
            raise RulesError(f"{what} must be a percentage such as 96.5, got {str(text)[:40]!r}") from None
    if not 1 <= value <= 200:
        raise RulesError(f"{what} must lie between 1 and 200 (percent), got {float(value):g}")
    return value / 100


def parse_pay_key(text: str, keys: Mapping[str, str]) -> str:
    """A pay's key (``"pair_of_aces"``) from its name or short name (``"AA"``, any case).

    Raises:
        RulesError: not a pay of that table.
    """
    k = text.strip()
    for key, short in keys.items():
        if k.lower() in (key, short.lower(), key.replace("_", " "), key.replace("_", "-")):
            return key
    names = ", ".join(f"{s} ({k})" for k, s in keys.items())
    raise RulesError(f"unknown pay {text[:40]!r}: use one of {names}")


def parse_fixed(items: Sequence[str], keys: Mapping[str, str]) -> dict[str, int]:
    """``["4K=50", "AA=1"]`` -> ``{"four_of_a_kind": 50, "pair_of_aces": 1}``.

    Raises:
        RulesError: not ``PAY=N``, an unknown pay, a pay given twice, or N not a whole number
            0..:data:`~fourcards.poker.rules.MAX_PAY`.
    """
    out: dict[str, int] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep:
            raise RulesError(f"a fixed pay is PAY=N (e.g. 4K=50), got {item[:40]!r}")
        key = parse_pay_key(name, keys)
        if key in out:
            raise RulesError(f"pay {keys[key]} is fixed twice")
        v = value.strip()
        if not v.isascii() or not v.isdigit() or len(v) > len(str(MAX_PAY)) or int(v) > MAX_PAY:
            raise RulesError(f"fixed pay {keys[key]} must be a whole number 0..{MAX_PAY:,}, got {value[:20]!r}")
        out[key] = int(v)
    return out


def _check_fixed(fixed: Mapping[str, int], keys: Mapping[str, str], max_pay: int, min_pay: int) -> None:
    for k, v in fixed.items():
        if k not in keys:
            raise RulesError(f"unknown pay {k!r}")
        if not min_pay <= v <= max_pay:
            raise RulesError(f"fixed pay {keys[k]}={v} lies outside the pay limits {min_pay}..{max_pay}")


def _check_limits(max_pay: int, min_pay: int, top: int) -> None:
    if not 0 <= min_pay <= max_pay:
        raise RulesError(f"pay limits must satisfy 0 <= min pay <= max pay, got {min_pay}..{max_pay}")
    if max_pay > MAX_DESIGN_PAY:
        raise RulesError(f"the designer searches pays up to {MAX_DESIGN_PAY:,} to 1, got --max-pay {max_pay}")
    if not 1 <= top <= 100:
        raise RulesError(f"the designer lists 1 to 100 tables, got {top}")


def _nearest(counts: Sequence[int], target: Fraction, *, unit: int, max_pay: int, min_pay: int,
             fixed: Mapping[int, int], strict: bool, top: int) -> list[tuple[tuple[int, ...], int]]:
    """The whole-number pays ``p`` (best hand first) with ``sum(counts[i] * p[i])`` nearest ``target``:
    ``[(pays, sum)]``, nearest first (ties: larger pays on the best hands first). ``unit`` is what a
    whole bet's return is worth in the sum (the search starts within 0.01 % of it).

    Pays never increase down the list (strictly decrease with ``strict``), lie in
    ``min_pay..max_pay`` and equal ``fixed[i]`` where given. Exact: integer bounds only.

    Raises:
        RulesError: the constraints leave no table, or too many for the target to search.
    """
    k = len(counts)
    c = np.asarray(counts, dtype=np.int64)
    step = 1 if strict else 0
    lo_i = [min_pay + step * (k - 1 - i) for i in range(k)]  # the least pay each class can have
    hi_i = [max_pay - step * i for i in range(k)]  # the most
    for i, v in fixed.items():
        lo_i[i], hi_i[i] = max(lo_i[i], v), min(hi_i[i], v)
    if any(lo > hi for lo, hi in zip(lo_i, hi_i)):
        raise RulesError("no pay table satisfies these constraints (pays, limits and fixed pays)")
    above = [int(c[:i].sum()) for i in range(k + 1)]  # counts of the classes above class i
    # the least the classes above i add when class i pays q: each at least q (+ its distance with strict)
    steps_above = [int(sum(c[j] * (i - j) for j in range(i))) for i in range(k + 1)]
    found: list[tuple[tuple[int, ...], int]] = []
    span = max(unit // 10_000, 1)  # start within 0.01 % of the bet
    limit = int(c.sum()) * (2 * max_pay + 2)
    while True:
        hi_t = math.floor(target + span)
        lo_t = math.ceil(target - span)
        # rows: the pays chosen so far, lowest class first; partial sums
        pays = np.zeros((1, 0), dtype=np.int64)
        part = np.zeros(1, dtype=np.int64)
        prev: np.ndarray | None = None  # the pay of the class below (none yet)
        for i in range(k - 1, -1, -1):
            lo = np.full(len(part), lo_i[i], dtype=np.int64) if prev is None else np.maximum(lo_i[i], prev + step)
            hi = np.full_like(lo, hi_i[i])
            # the classes at and above i pay at least this one's pay: bound it by the target
            room = hi_t - part - steps_above[i] * step
            hi = np.minimum(hi, np.floor_divide(room, above[i + 1]) if above[i + 1] else hi)
            if i == 0:  # the last pay: only the values that land within the span
                lo = np.maximum(lo, -np.floor_divide(-(lo_t - part), c[0]))
                hi = np.minimum(hi, np.floor_divide(hi_t - part, c[0]))
            n = np.maximum(hi - lo + 1, 0)
            total = int(n.sum())
            if total > _MAX_TABLES:
                raise RulesError("too many pay tables to search for this target: narrow it with --max-pay or "
                                 "--fix")
            rows = np.repeat(np.arange(len(part)), n)
            offset = np.arange(total) - np.repeat(np.cumsum(n) - n, n)
            value = lo[rows] + offset
            part = part[rows] + c[i] * value
            pays = np.concatenate([pays[rows], value[:, None]], axis=1)
            prev = value
            if i > 0:  # the largest the classes above can still add
                most = sum(int(c[j]) * hi_i[j] for j in range(i))
                keep = part + most >= lo_t
                pays, part, prev = pays[keep], part[keep], prev[keep]
            if len(part) == 0:
                break
        found = [(tuple(int(v) for v in row[::-1]), int(s)) for row, s in zip(pays, part)]
        if len(found) >= top or span >= limit:
            break
        span *= 4
    found.sort(key=lambda f: (abs(f[1] - target), tuple(-v for v in f[0])))
    return found[:top]


# ---------------------------------------------------------------------------
# Aces Up
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class AcesUpDesign:
    """A designed Aces Up table with its exact figures (:class:`AcesUpFigures`) and how far its
    return lies from the target (fractions of the bet, signed: + above the target)."""

    figures: AcesUpFigures
    target: Fraction

    @property
    def table(self) -> AcesUpTable:
        """The pay table."""
        return self.figures.table

    @property
    def distance(self) -> Fraction:
        """Return minus target (exact, a fraction of the bet)."""
        return self.figures.return_ - self.target

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``table``, ``return``, ``house_edge``, ``standard_deviation`` (per unit bet),
        ``distance`` (return - target) and the exact ``return``."""
        f = self.figures
        return {"table": str(f.table), "return": float(f.return_), "house_edge": float(f.house_edge),
                "standard_deviation": f.standard_deviation, "distance": float(self.distance),
                "exact": {"return": _frac(f.return_)}}


def design_aces_up(target: Fraction, *, max_pay: int = 50, min_pay: int = 1, fixed: Mapping[str, int] | None = None,
                   strict: bool = True, top: int = 20) -> list[AcesUpDesign]:
    """The ``top`` whole-number Aces Up tables whose return (per unit bet, stake included) is nearest
    ``target`` (a fraction: 0.965 for 96.5 %), nearest first, each re-scored by :func:`aces_up`.

    Raises:
        RulesError: limits out of range, a fixed pay outside them, no table satisfies the constraints,
            or the search would be too wide.
    """
    _check_limits(max_pay, min_pay, top)
    _check_fixed(fixed or {}, ACES_UP_KEYS, max_pay, min_pay)
    n_hands = sum(aces_up_counts().values())
    classes = list(ACES_UP_KEYS)
    counts = [aces_up_counts()[k] for k in classes]
    fix = {classes.index(k): v for k, v in (fixed or {}).items()}
    # return x N = sum(count x (pay + 1)) over the winning classes: the pays' part is linear
    goal = target * n_hands - sum(counts)
    out = []
    for pays, s in _nearest(counts, goal, unit=n_hands, max_pay=max_pay, min_pay=min_pay, fixed=fix, strict=strict, top=top):
        f = aces_up(AcesUpTable(**dict(zip(classes, pays))))
        if f.return_ != Fraction(s + sum(counts), n_hands):  # pragma: no cover - the search and the scorer agree
            raise AssertionError(f"search and re-scoring disagree for {f.table}")
        out.append(AcesUpDesign(f, target))
    return out


def sweep_aces_up(key: str, values: Sequence[int], base: AcesUpTable) -> list[AcesUpFigures]:
    """The exact Aces Up figures of ``base`` with pay ``key`` set to each of ``values``.

    Raises:
        RulesError: an unknown pay, more than :data:`MAX_SWEEP_POINTS` points, a pay out of range.
    """
    if key not in ACES_UP_KEYS:
        raise RulesError(f"unknown Aces Up pay {key!r}")
    if len(values) > MAX_SWEEP_POINTS["aces_up"]:
        raise RulesError(f"a sweep takes at most {MAX_SWEEP_POINTS['aces_up']} points, got {len(values)}")
    pays = base.as_dict()
    return [aces_up(AcesUpTable(**{**pays, key: v})) for v in values]


# ---------------------------------------------------------------------------
# Ante bonus: the game's RTP, the strategy re-optimised
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class AnteBonusDesign:
    """A designed ante bonus table: the game's exact figures under the strategy optimal for it, the
    target RTP (per total wagered) and how many (hand, up card) decisions differ from the optimal
    strategy under the reference table (0: the bonus changed no decision)."""

    figures: GameFigures
    target: Fraction
    decisions_changed: int

    @property
    def table(self) -> AnteBonusTable:
        """The pay table."""
        return self.figures.rules.ante_bonus

    @property
    def distance(self) -> Fraction:
        """Game RTP minus target (exact)."""
        return self.figures.return_to_player - self.target

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``table``, the game's ``return_to_player`` (per total wagered), ``house_edge`` (per
        ante), ``element_of_risk``, ``ante_bonus_return`` (per ante), ``distance`` (RTP - target),
        ``decisions_changed`` and the exact RTP."""
        f = self.figures
        return {"table": str(self.table), "return_to_player": float(f.return_to_player),
                "house_edge": float(f.house_edge), "element_of_risk": float(f.element_of_risk),
                "ante_bonus_return": float(f.ante_bonus_return), "distance": float(self.distance),
                "decisions_changed": self.decisions_changed,
                "exact": {"return_to_player": _frac(f.return_to_player)}}


def _optimal_figures(rules: PokerRules, counts: Any) -> tuple[GameFigures, np.ndarray]:
    from fourcards.poker.exact.figures import figures_from_decisions

    dec = strat.optimal_strategy(rules, counts).decisions
    return figures_from_decisions(counts, rules, dec, "optimal"), dec


def design_ante_bonus(target: Fraction, rules: PokerRules, *, counts: Any = None, max_pay: int = 50,
                      min_pay: int = 1, fixed: Mapping[str, int] | None = None, strict: bool = True,
                      top: int = 20) -> list[AnteBonusDesign]:
    """The ``top`` whole-number ante bonus tables whose game RTP (per total wagered, 1 - element of
    risk, under the strategy optimal for each table) is nearest ``target``, nearest first.

    Raises:
        RulesError: see :func:`design_aces_up`.
    """
    from fourcards.poker.exact.counts import exact_counts

    _check_limits(max_pay, min_pay, top)
    _check_fixed(fixed or {}, ANTE_BONUS_KEYS, max_pay, min_pay)
    counts = counts or exact_counts()
    ref, ref_dec = _optimal_figures(rules, counts)
    classes = list(ANTE_BONUS_KEYS)
    groups = {"four_of_a_kind": "four of a kind", "straight_flush": "straight flush",
              "three_of_a_kind": "three of a kind"}
    # the linear model of the reference strategy: P(play with each bonus hand), exact
    q = [sum((r.probability for r in ref.outcomes if r.multiple and r.hand == groups[k]), Fraction(0))
         for k in classes]
    pays0 = rules.ante_bonus.as_dict()
    base_ev = -ref.house_edge - sum(p * pays0[k] for p, k in zip(q, classes))
    scale = math.lcm(*(p.denominator for p in q))
    weights = [int(p * scale) for p in q]
    goal = ((target - 1) * ref.average_total_bet - base_ev) * scale
    fix = {classes.index(k): v for k, v in (fixed or {}).items()}
    shortlist = _nearest(weights, goal, unit=int(scale * ref.average_total_bet), max_pay=max_pay, min_pay=min_pay, fixed=fix, strict=strict,
                         top=min(2 * top, 100))
    out = []
    for pays, _ in shortlist:
        r = rules.with_tables(ante_bonus=AnteBonusTable(**dict(zip(classes, pays))))
        f, dec = _optimal_figures(r, counts)
        out.append(AnteBonusDesign(f, target, int(np.count_nonzero(dec != ref_dec))))
    out.sort(key=lambda d: (abs(d.distance), tuple(-v for v in d.table.as_dict().values())))
    return out[:top]


def sweep_ante_bonus(key: str, values: Sequence[int], rules: PokerRules, *, counts: Any = None
                     ) -> list[AnteBonusDesign]:
    """The game's exact figures, the strategy re-optimised, with ante bonus pay ``key`` set to each of
    ``values`` (``target`` in each result is the rules' own game RTP: ``distance`` is the change).

    Raises:
        RulesError: an unknown pay, more than :data:`MAX_SWEEP_POINTS` points, a pay out of range.
    """
    from fourcards.poker.exact.counts import exact_counts

    if key not in ANTE_BONUS_KEYS:
        raise RulesError(f"unknown ante bonus pay {key!r}")
    if len(values) > MAX_SWEEP_POINTS["ante_bonus"]:
        raise RulesError(f"an ante bonus sweep takes at most {MAX_SWEEP_POINTS['ante_bonus']} points "
                         f"(each re-optimises the strategy), got {len(values)}")
    counts = counts or exact_counts()
    ref, ref_dec = _optimal_figures(rules, counts)
    pays = rules.ante_bonus.as_dict()
    out = []
    for v in values:
        r = rules.with_tables(ante_bonus=AnteBonusTable(**{**pays, key: v}))
        f, dec = _optimal_figures(r, counts)
        out.append(AnteBonusDesign(f, ref.return_to_player, int(np.count_nonzero(dec != ref_dec))))
    return out
