"""Game protection: what a player gains by seeing cards they should not (``fourcards poker protect``;
docs/analysis.md "Game protection").

* **One flashed hole card, exactly** (:func:`hole_card_exact`): the dealer's up card and one of
  the five hidden cards known, the player takes, for every hand, the option of highest EV over the
  dealer's four other cards (C(45, 4) = 148,995 completions, all counted: an inclusion-exclusion
  sweep like the dealer counts', one per (up card, hole card) pair, 325 pairs up to suit symmetry;
  :mod:`fourcards.poker.protect_kernels`). Every figure is an exact fraction over every deal and
  every one of the five hole cards the dealer might flash. The same sweep, with the decisions
  made without the hole card, gives the house edge back exactly (a test).
* **More hole cards, colluders** (:func:`protection_mc`): Monte Carlo over deals; in each, the
  player's decision is the exact best given every card they know (the dealer's completions all
  enumerated: :func:`count_known`, or the direct count with the colluders' cards removed). The
  estimate is the exact no-information EV (minus the house edge) plus the mean gain of the
  informed decision over the uninformed one on the same deal, both valued exactly given the
  known cards: the gain is zero on most deals, so its confidence interval is narrow.
* :func:`hand_with_cards` - one situation: the exact EV of every option with the known cards.

Money is in antes; the player's edge is their expected result per ante (positive: the player
wins). Part of the exact analysis (:mod:`fourcards.poker.analysis`).
"""

from __future__ import annotations

import json
import math
import os
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np

from fourcards import hands
from fourcards.cards import Card, Rank, parse_card, parse_cards
from fourcards.errors import CardError, RulesError
from fourcards.hands import BINOM
from fourcards.poker.exact import strategy as strat
from fourcards.poker.exact.counts import ExactCounts, exact_counts
from fourcards.poker.exact.figures import _frac, bonus_pays, option_name, options
from fourcards.poker.exact.tables import N_HANDS5, _rank5_of, base_tables
from fourcards.poker.rules import PokerRules, as_rules

__all__ = ["HoleCardFigures", "HoleCardPair", "hole_card_exact", "hole_card_cached", "hole_card_gain", "ProtectionEstimate", "protection_mc", "hand_with_cards",
           "default_rounds", "N_HOLE_COMPLETIONS", "MAX_ROUNDS"]

#: The dealer's four other hidden cards once the up card and one hole card are known: C(45, 4).
N_HOLE_COMPLETIONS = 148_995
#: Deals a Monte Carlo run takes at most (each costs an enumeration of the dealer's completions).
MAX_ROUNDS = 1_000_000
#: Format of the cached exact hole-card figures; bump when the method changes.
_CACHE_VERSION = 1


def _kernels() -> Any:
    from fourcards import native

    return native.load("fourcards.poker.protect_kernels", "the game protection kernels")


def _poker_kernels() -> Any:
    from fourcards import native

    return native.load("fourcards.poker.kernels", "the exact-analysis kernels")


# ---------------------------------------------------------------------------
# one hole card, exactly
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HoleCardPair:
    """One (up card, flashed hole card) pair, exactly, up to suit symmetry: the up card's rank, the
    flashed card's rank and whether it is of the up card's suit (``suited``).

    Attributes:
        up, hole: rank characters (``"2"`` .. ``"A"``); suited: the hole card shares the up card's suit.
        expected_value: the player's EV per ante with the optimal play knowing both cards (exact).
        expected_value_without: the EV per ante of the play made without the hole card, on the same
            deals (exact).
        changed: probability that the hole card changes the decision.
        triples: the (hand, up card, hole card) triples of this pair (all suits counted).
    """

    up: str
    hole: str
    suited: bool
    expected_value: Fraction
    expected_value_without: Fraction
    changed: Fraction
    triples: int

    @property
    def gain(self) -> Fraction:
        """What seeing this hole card is worth, per ante (exact, >= 0)."""
        return self.expected_value - self.expected_value_without

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``up``, ``hole``, ``suited``, ``expected_value``, ``expected_value_without``, ``gain``
        (per ante), ``changed``, ``triples`` and the exact fractions."""
        return {"up": self.up, "hole": self.hole, "suited": self.suited,
                "expected_value": float(self.expected_value),
                "expected_value_without": float(self.expected_value_without), "gain": float(self.gain),
                "changed": float(self.changed), "triples": self.triples,
                "exact": {"expected_value": _frac(self.expected_value), "gain": _frac(self.gain)}}


@dataclass(frozen=True)
class HoleCardFigures:
    """Exact figures of the optimal play when the player also sees one of the dealer's hidden cards.

    Attributes:
        rules: the rules (pay tables and play bets).
        expected_value: the player's expected result per ante with the hole card (exact; > 0 is an
            edge for the player).
        expected_value_without: the same sweep with the decisions made without the hole card: minus
            the house edge, exactly (the check of the enumeration).
        average_total_bet: ante plus the average play bet with the hole card, in antes.
        decisions: probability of each option with the hole card.
        changed: probability that the hole card changes the decision.
        gain_by_hole_rank: the EV gained (per ante, averaged over deals flashing a card of that rank),
            ``"2"`` .. ``"A"``.
        triples: (player hand, up card, hole card) triples counted: C(52, 5) x 47 x 46.
        seconds: time to compute (0 when read from the cache).
        pairs: the exact figures of every (up card, flashed card) pair up to suit symmetry
            (:class:`HoleCardPair`: 325 of them, ``poker protect --pairs``).
    """

    rules: PokerRules
    expected_value: Fraction
    expected_value_without: Fraction
    average_total_bet: Fraction
    decisions: dict[str, Fraction]
    changed: Fraction
    gain_by_hole_rank: dict[str, Fraction]
    triples: int
    seconds: float = 0.0
    pairs: tuple[HoleCardPair, ...] = ()

    @property
    def gain(self) -> Fraction:
        """What seeing the hole card is worth, per ante (exact, >= 0)."""
        return self.expected_value - self.expected_value_without

    @property
    def element_of_risk(self) -> Fraction:
        """Minus the expected result per total wagered (negative: the player's edge per unit bet)."""
        return -self.expected_value / self.average_total_bet

    def to_dict(self, pairs: bool = False) -> dict[str, Any]:
        """JSON form (per ante; ``gain_by_hole_rank`` by rank character) with the exact fractions; with
        ``pairs``, also ``pairs``: every (up card, flashed card) pair (:meth:`HoleCardPair.to_dict`)."""
        return {
            "expected_value": float(self.expected_value),
            "expected_value_without": float(self.expected_value_without),
            "gain": float(self.gain),
            "element_of_risk": float(self.element_of_risk),
            "average_total_bet": float(self.average_total_bet),
            "decisions": {k: float(v) for k, v in self.decisions.items()},
            "changed": float(self.changed),
            "gain_by_hole_rank": {k: float(v) for k, v in self.gain_by_hole_rank.items()},
            "triples": self.triples,
            **({"pairs": [p.to_dict() for p in self.pairs]} if pairs else {}),
            "exact": {"expected_value": _frac(self.expected_value), "gain": _frac(self.gain),
                      "expected_value_without": _frac(self.expected_value_without)},
        }


@cache
def _player_lists() -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Player hands for the sweep, sorted by dense rank: ``(packed cards, weight, rank_start)``.

    ``"clubs"``: one hand per orbit of the permutations of diamonds, hearts and spades (for a hole
    card in the up card's suit, clubs); ``"diamonds"``: one hand per pair swapped by hearts <->
    spades (a hole card of another suit, mapped to diamonds).
    """
    t = base_tables()
    k = _poker_kernels()
    out = {}
    order = np.argsort(t.orbit_rank, kind="stable").astype(np.int32)
    packed = np.empty(len(order), dtype=np.int32)
    k.pack5(t.combos, t.orbit_colex[order], packed)
    start = np.searchsorted(t.orbit_rank[order], np.arange(hands.N_VALUES + 1)).astype(np.int64)
    out["clubs"] = (packed, np.ascontiguousarray(t.orbit_size[order]), start)
    cards = t.combos.astype(np.int64)
    swapped = np.where((cards & 2) != 0, cards ^ 1, cards)  # hearts (2) <-> spades (3)
    swapped.sort(axis=1)
    mine = np.arange(N_HANDS5, dtype=np.int64)
    theirs = sum(BINOM[swapped[:, i], i + 1] for i in range(5))
    keep = np.flatnonzero(mine <= theirs)
    weight = np.where(mine[keep] == theirs[keep], 1, 2).astype(np.uint8)
    by_rank = np.argsort(t.rank5[keep], kind="stable")
    order = keep[by_rank].astype(np.int32)
    packed = np.empty(len(order), dtype=np.int32)
    k.pack5(t.combos, order, packed)
    start = np.searchsorted(t.rank5[order], np.arange(hands.N_VALUES + 1)).astype(np.int64)
    out["diamonds"] = (packed, np.ascontiguousarray(weight[by_rank]), start)
    return out


def _cache_path(rules: PokerRules) -> Any:
    from fourcards import native
    from fourcards.poker.exact.cache import cache_dir

    m = rules.decision_multiples
    name = (f"fcp-hole-card-v{_CACHE_VERSION}-{str(rules.ante_bonus).replace('/', '-')}-{min(m)}-{max(m)}-"
            f"{native.source_hash() & 0xFFFFFFFF:08x}.json")
    return cache_dir() / name


def hole_card_cached(rules: PokerRules | str = "live") -> bool:
    """Whether :func:`hole_card_exact` will read its figures from the cache (no sweep)."""
    return _cache_path(as_rules(rules)).exists()


def _decision_rows(rules: PokerRules, counts: ExactCounts) -> np.ndarray:

    return strat.decision_table(rules, "optimal", counts=counts)


def hole_card_exact(rules: PokerRules | str = "live", *, counts: ExactCounts | None = None,
                    workers: int | None = None, progress: Callable[[int, int], None] | None = None,
                    use_cache: bool = True) -> HoleCardFigures:
    """The exact :class:`HoleCardFigures` of one flashed hole card (see the module doc).

    Tens of seconds on two cores the first time for a pay table and play-bet rule; the integer
    sums are then cached in the counts' cache directory. ``progress(done, 325)`` after each
    (up card, hole card) pair.

    Raises:
        RulesError: an unknown preset.
    """
    rules = as_rules(rules)
    path = _cache_path(rules)
    sums: dict[str, Any] | None = None
    t0 = time.perf_counter()
    computed = False
    if use_cache:
        try:
            sums = json.loads(path.read_text())
        except (OSError, ValueError):
            sums = None
    if sums is None:
        sums = _sweep_all(rules, counts or exact_counts(), workers, progress)
        computed = True
        if use_cache:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
                tmp.write_text(json.dumps(sums))
                os.replace(tmp, path)
            except OSError:
                pass
    return _figures(rules, sums, time.perf_counter() - t0 if computed else 0.0)


def _sweep_all(rules: PokerRules, counts: ExactCounts, workers: int | None,
               progress: Callable[[int, int], None] | None) -> dict[str, Any]:
    lists = _player_lists()
    k = _kernels()
    bonus = bonus_pays(rules).astype(np.int64)
    dec = _decision_rows(rules, counts)
    lo, hi = min(rules.decision_multiples), max(rules.decision_multiples)
    table4 = hands.DENSE_RANK_4
    jobs = [(ur, hr, suit) for ur in range(13) for hr in range(13) for suit in (0, 1) if not (suit == 0 and hr == ur)]
    results: dict[tuple[int, int, int], list[int]] = {}
    lock = threading.Lock()
    done = 0

    def one(job: tuple[int, int, int]) -> None:
        nonlocal done
        ur, hr, suit = job
        packed, weight, start = lists["clubs" if suit == 0 else "diamonds"]
        out = np.zeros(12, dtype=np.int64)
        k.hole_card_class(4 * ur, 4 * hr + suit, packed, weight, start, table4, BINOM, bonus,
                          np.ascontiguousarray(dec[ur]), lo, hi, out, np.empty(0, dtype=np.uint8))
        with lock:
            results[job] = [int(v) for v in out]
            done += 1
            if progress is not None:
                progress(done, len(jobs))

    n = workers or min(len(jobs), os.cpu_count() or 1)
    if n <= 1:
        for j in jobs:
            one(j)
    else:
        with ThreadPoolExecutor(max_workers=n) as pool:
            list(pool.map(one, jobs))
    return {"classes": [[ur, hr, suit, *results[(ur, hr, suit)]] for ur, hr, suit in jobs]}


def hole_card_gain(up: Card | str, hole: Card | str, rules: PokerRules | str = "live", *,
                   counts: ExactCounts | None = None) -> Fraction:
    """What seeing the dealer's hole card ``hole`` beside the up card ``up`` is worth, per ante: the
    player's EV playing with the hole card minus the EV of the decisions made without it, over
    every player hand and every completion of the dealer's hand (exact: the sweep's class of that
    pair, one kernel call; docs/analysis.md "Game protection" quotes a 5 up with a 5 flashed).

    Raises:
        CardError: a malformed card, or ``hole`` the same card as ``up``.
        RulesError: an unknown preset.
    """
    rules = as_rules(rules)
    u, h = parse_card(up), parse_card(hole)
    if u == h:
        raise CardError(f"the hole card {h} is the up card: give another card")
    ur, hr = u.index // 4, h.index // 4
    suit = 0 if u.index % 4 == h.index % 4 else 1  # up card clubs; the hole card clubs or diamonds
    packed, weight, start = _player_lists()["clubs" if suit == 0 else "diamonds"]
    dec = _decision_rows(rules, counts or exact_counts())
    out = np.zeros(12, dtype=np.int64)
    _kernels().hole_card_class(4 * ur, 4 * hr + suit, packed, weight, start, hands.DENSE_RANK_4, BINOM,
                               bonus_pays(rules).astype(np.int64), np.ascontiguousarray(dec[ur]),
                               min(rules.decision_multiples), max(rules.decision_multiples), out,
                               np.empty(0, dtype=np.uint8))
    return Fraction(int(out[0] - out[1]), int(out[2]) * N_HOLE_COMPLETIONS)


def _figures(rules: PokerRules, sums: dict[str, Any], seconds: float) -> HoleCardFigures:
    n = N_HOLE_COMPLETIONS
    tot = np.zeros(12, dtype=object)
    by_rank = {r: [0, 0, 0] for r in range(13)}
    pairs = []
    for ur, hr, suit, *vals in sums["classes"]:
        w = 4 if suit == 0 else 12  # up suits; with a hole card of another suit also its three suits
        v = np.array(vals, dtype=object) * w
        pairs.append(HoleCardPair(Rank(ur + 2).char, Rank(hr + 2).char, suit == 0, Fraction(int(vals[0]), int(vals[2]) * n),
                                  Fraction(int(vals[1]), int(vals[2]) * n), Fraction(int(vals[7]), int(vals[2])),
                                  int(v[2])))
        tot += v
        by_rank[hr][0] += v[0]
        by_rank[hr][1] += v[1]
        by_rank[hr][2] += v[2]
    hands_ = int(tot[2])
    denom = hands_ * n
    decisions = {option_name(k): Fraction(int(tot[3 + k]), hands_) for k in options(rules)}
    return HoleCardFigures(
        rules=rules,
        expected_value=Fraction(int(tot[0]), denom),
        expected_value_without=Fraction(int(tot[1]), denom),
        average_total_bet=Fraction(int(tot[8]), hands_),
        decisions=decisions,
        changed=Fraction(int(tot[7]), hands_),
        gain_by_hole_rank={Rank(r + 2).char: Fraction(int(g[0] - g[1]), int(g[2]) * n) for r, g in by_rank.items()},
        triples=hands_,
        seconds=seconds,
        pairs=tuple(pairs),  # by up rank, hole rank, the suited one first
    )


# ---------------------------------------------------------------------------
# Monte Carlo: several hole cards, colluders
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ProtectionEstimate:
    """A Monte Carlo estimate of the player's EV per ante when they know ``hole_cards`` of the dealer's
    hidden cards and the five cards of ``colluders`` other players (see the module doc).

    Attributes:
        expected_value_without: the exact EV without the extra cards (minus the house edge).
        gain_mean, gain_sd: mean and standard deviation of the per-deal gain (antes).
        changed: the share of deals on which the extra cards changed the decision.
        rounds, seed: the deals simulated and the seed (the same seed gives the same figures).
    """

    hole_cards: int
    colluders: int
    rounds: int
    seed: int
    expected_value_without: Fraction
    gain_mean: float
    gain_sd: float
    gain_min: float
    changed: float
    seconds: float

    @property
    def expected_value(self) -> float:
        """The estimated EV per ante with the extra cards (> 0: the player's edge)."""
        return float(self.expected_value_without) + self.gain_mean

    @property
    def standard_error(self) -> float:
        """Standard error of :attr:`expected_value` (antes)."""
        return self.gain_sd / math.sqrt(self.rounds)

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """``(low, high)`` confidence interval of :attr:`expected_value` (normal approximation)."""
        from fourcards.poker.exact.returns import z_value

        half = z_value(confidence) * self.standard_error
        return self.expected_value - half, self.expected_value + half

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the scenario, ``expected_value`` with its ``standard_error`` and 95 % / 99.9 %
        intervals, ``gain`` (mean, standard deviation), ``changed``, ``rounds``, ``seed``, ``seconds``."""
        return {"hole_cards": self.hole_cards, "colluders": self.colluders, "rounds": self.rounds, "seed": self.seed,
                "expected_value": self.expected_value, "standard_error": self.standard_error,
                "interval_95": list(self.interval(0.95)), "interval_99_9": list(self.interval(0.999)),
                "expected_value_without": float(self.expected_value_without),
                "gain": {"mean": self.gain_mean, "standard_deviation": self.gain_sd, "min": self.gain_min},
                "changed": self.changed,
                "seconds": round(self.seconds, 3)}


def _ranks_of(cards: np.ndarray) -> np.ndarray:
    """Dense rank of the best four of each row of five cards (numpy)."""
    s = np.sort(cards.astype(np.int64), axis=1)
    table4 = hands.DENSE_RANK_4
    best = np.zeros(len(s), dtype=np.int64)
    for drop in range(5):
        cols = [c for c in range(5) if c != drop]
        idx = sum(BINOM[s[:, c], i + 1] for i, c in enumerate(cols))
        np.maximum(best, table4[idx], out=best)
    return best


def _uninformed(player: np.ndarray, up: np.ndarray, dec: np.ndarray) -> np.ndarray:
    """The optimal decision without extra cards for each (player row, up card) (``dec``: the
    decision table, :func:`fourcards.poker.exact.strategy.decision_table`)."""
    s = (up & 3)[:, None]
    suit = player & 3
    mapped = (player & ~3) | np.where(suit == s, 0, np.where(suit == 0, s, suit))
    mapped = np.sort(mapped, axis=1)
    idx = sum(BINOM[mapped[:, i], i + 1] for i in range(5))
    return dec[up >> 2, idx]


def _evs(le: int, total: int, bonus: int, opts: Sequence[int]) -> list[int]:
    return [-total if k == 0 else (1 + k) * (2 * le - total) + bonus * total for k in opts]


def default_rounds(hole_cards: int, colluders: int) -> int:
    """Deals a scenario takes by default: 20,000 with two or more hole cards (a deal costs about 0.3 ms:
    few dealer cards left to enumerate), 2,000 with colluders and at most one hole card (5-15 ms a deal;
    the gain's standard deviation is small, so 2,000 deals give it to a few hundredths of a percent)."""
    return 20_000 if hole_cards >= 2 else 2_000


def protection_mc(rules: PokerRules | str = "live", *, hole_cards: int = 2, colluders: int = 0,
                  rounds: int | None = None, seed: int = 1, workers: int | None = None,
                  counts: ExactCounts | None = None) -> ProtectionEstimate:
    """Monte Carlo estimate of the EV with ``hole_cards`` (0-4) dealer hole cards and ``colluders``
    (0-8) other players' cards known; every decision the exact best given the known cards.
    ``rounds`` deals (default :func:`default_rounds`), dealt from ``seed``.

    Raises:
        RulesError: an unknown preset, a scenario out of range (no extra cards, more than 51 cards),
            or ``rounds`` outside 1..:data:`MAX_ROUNDS`.
    """
    rules = as_rules(rules)
    if not 0 <= hole_cards <= 4:
        raise RulesError(f"hole cards seen must be 0 to 4, got {hole_cards}")
    if not 0 <= colluders <= rules.max_seats - 1:
        raise RulesError(f"colluders must be 0 to {rules.max_seats - 1} (other seats), got {colluders}")
    if hole_cards == 0 and colluders == 0:
        raise RulesError("nothing extra is seen: the figures are the par sheet's (poker analyze)")
    if rounds is None:
        rounds = default_rounds(hole_cards, colluders)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise RulesError(f"rounds must be 1 to {MAX_ROUNDS:,}, got {rounds}")
    t0 = time.perf_counter()
    counts = counts or exact_counts()
    from fourcards.poker.exact.figures import figures_from_decisions

    base = figures_from_decisions(counts, rules, strat.optimal_strategy(rules, counts).decisions, "optimal")
    dec = _decision_rows(rules, counts)
    need = 6 + hole_cards + 5 * colluders
    rng = np.random.default_rng(seed)
    deals = np.argsort(rng.random((rounds, 52)), axis=1)[:, :need].astype(np.int64)
    player, up = deals[:, :5], deals[:, 5]
    holes, dead = deals[:, 6:6 + hole_cards], deals[:, 6 + hole_cards:]
    ranks = _ranks_of(player)
    k0 = _uninformed(player, up, dec)
    bonus = bonus_pays(rules).astype(np.int64)[ranks]
    opts = options(rules)
    gains = np.zeros(rounds)
    changed = np.zeros(rounds, dtype=bool)
    table4 = hands.DENSE_RANK_4
    pk, kk = _poker_kernels(), _kernels()

    def chunk(lo: int, hi: int) -> None:
        out = np.zeros(3, dtype=np.int64)
        for i in range(lo, hi):
            p = np.ascontiguousarray(player[i])
            r = int(ranks[i])
            if hole_cards == 0:
                mask = 0
                for c in dead[i]:
                    mask |= 1 << int(c)
                pk.count_one(p, int(up[i]), mask, r, table4, BINOM, out)
                total = math.comb(46 - 5 * colluders, 5)
            else:
                known = np.sort(np.concatenate([up[i:i + 1], holes[i]]))
                kk.count_known(p, known, np.ascontiguousarray(dead[i]), r, table4, BINOM, out)
                total = int(out[2])
            evs = _evs(int(out[0]), total, int(bonus[i]), opts)
            best = max(range(len(opts)), key=lambda j: (evs[j], -j))
            gains[i] = (evs[best] - evs[opts.index(int(k0[i]))]) / total
            changed[i] = opts[best] != int(k0[i])

    n = workers or min(os.cpu_count() or 1, 8)
    bounds = np.linspace(0, rounds, n + 1).astype(int)
    if n <= 1:
        chunk(0, rounds)
    else:
        with ThreadPoolExecutor(max_workers=n) as pool:
            list(pool.map(lambda b: chunk(*b), zip(bounds[:-1], bounds[1:])))
    sd = float(gains.std(ddof=1)) if rounds > 1 else 0.0
    return ProtectionEstimate(hole_cards, colluders, rounds, seed, base.expected_value, float(gains.mean()), sd,
                              float(gains.min()), float(changed.mean()), time.perf_counter() - t0)


# ---------------------------------------------------------------------------
# one situation
# ---------------------------------------------------------------------------


def hand_with_cards(cards: Iterable[Card | str] | str, up: Card | str, holes: Iterable[Card | str] | str = (),
                    dead: Iterable[Card | str] | str = (), rules: PokerRules | str | None = None
                    ) -> dict[str, Any]:
    """The exact EV of every option for one hand knowing the up card, ``holes`` (dealer hole cards) and
    ``dead`` (other players' cards): ``{"le", "lt", "completions", "ev": {option: Fraction},
    "decision"}``.

    Raises:
        CardError: malformed or duplicate cards, not five player cards, more than four hole cards.
        RulesError: an unknown preset.
    """
    rules = as_rules(rules)
    hand = parse_cards(cards, count=5)
    upc = parse_card(up)
    hole = parse_cards(holes) if holes else []
    other = parse_cards(dead) if dead else []
    every = [*hand, upc, *hole, *other]
    if len(set(every)) != len(every):
        raise CardError("a card appears twice among the hand, the up card, the hole cards and the others")
    if len(hole) > 4:
        raise CardError(f"at most four hole cards besides the up card, got {len(hole)}")
    if len(every) > 51:
        raise CardError("too many cards: the dealer's hand must still be completed")
    r = _rank5_of(hand)
    p = np.array(sorted(c.index for c in hand), dtype=np.int64)
    out = np.zeros(3, dtype=np.int64)
    if not hole:
        mask = sum(1 << c.index for c in other)
        _poker_kernels().count_one(p, upc.index, mask, r, hands.DENSE_RANK_4, BINOM, out)
        total = math.comb(46 - len(other), 5)
    else:
        known = np.array(sorted([upc.index, *(c.index for c in hole)]), dtype=np.int64)
        _kernels().count_known(p, known, np.array([c.index for c in other], dtype=np.int64), r,
                               hands.DENSE_RANK_4, BINOM, out)
        total = int(out[2])
    bonus = int(bonus_pays(rules)[r])
    opts = options(rules)
    evs = {option_name(k): Fraction(e, total) for k, e in zip(opts, _evs(int(out[0]), total, bonus, opts))}
    best = max(evs, key=lambda name: evs[name])
    return {"le": int(out[0]), "lt": int(out[1]), "completions": total, "ev": evs, "decision": best}

