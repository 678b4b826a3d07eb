"""Exact Four Card Poker mathematics: dealer counts, optimal strategy, house edge, Aces Up.

Everything here is a complete enumeration (no sampling). The method, the
timings and the published figures it reproduces are in ``docs/analysis.md``.

The pay-table-independent core is :func:`exact_counts`: for every player
five-card hand ``P`` and every dealer up card ``u`` the number of dealer
six-card hands (``u`` plus five of the 46 unseen cards, ``C(46,5) = 1,370,754``)
whose best four is *at most* the player's best four (``le``: the player wins or
ties - ties go to the player, the dealer always qualifies) and *strictly below*
it (``lt``). Suit symmetry is used twice: the up card's suit is mapped to clubs
(13 up ranks, weight 4 each), and the player's hands are reduced to orbits under
the 6 permutations of the other three suits (about 6x fewer hands). The counts
are cached on disk (``FOURCARDS_CACHE_DIR`` or ``platformdirs.user_cache_dir``)
so that a pay-table change only recomputes the decisions.

Public API:

* :func:`exact_counts` -> :class:`ExactCounts` (cached, pay-table independent);
* :func:`analyze` -> :class:`GameFigures` (house edge, element of risk, RTP,
  average total bet, decision and outcome frequencies) for any
  :class:`~fourcards.poker.rules.PokerRules` and any strategy;
* :func:`aces_up` -> :class:`AcesUpFigures` (exact return of any Aces Up table);
* :func:`hand_ev` -> :class:`HandEV` (EV of every option for one hand and up card:
  what a trainer needs);
* :func:`count_hand` - the dealer counts of one hand by direct enumeration;
* :func:`par_sheet` -> :class:`ParSheet` (everything above, JSON-ready; as Rich tables and text:
  :mod:`fourcards.report.par_sheet`).
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

from fourcards import hands
from fourcards.cards import Card, Rank, parse_card, parse_cards
from fourcards.errors import CardError, RulesError
from fourcards.hands import (
    BINOM,
    CATEGORY_OF_DENSE,
    DENSE_CODES,
    N_VALUES,
    HandCategory,
    HandValue,
    dense_to_value,
)
from fourcards.poker.rules import AcesUpTable, PokerRules
from fourcards.poker.settlement import Settlement, settle

__all__ = [
    "N_DEALER_HANDS",
    "N_PLAYER_UP_PAIRS",
    "ExactCounts",
    "exact_counts",
    "count_hand",
    "cache_dir",
    "HandEV",
    "hand_ev",
    "settle_per_ante",
    "GameFigures",
    "analyze",
    "AcesUpFigures",
    "aces_up",
    "ParSheet",
    "par_sheet",
    "option_name",
]

#: Dealer completions per (player hand, up card): C(46, 5).
N_DEALER_HANDS = 1_370_754
#: Player hands per up card: C(51, 5).
N_HANDS_PER_UP = 2_349_060
#: All five-card hands: C(52, 5).
N_HANDS5 = 2_598_960
#: (player hand, up card) pairs: C(52, 5) x 47.
N_PLAYER_UP_PAIRS = N_HANDS5 * 47
#: Format of the on-disk cache; bump when the layout or the method changes.
#: (2: one ``.npy`` holding the counts and the orbit arrays.)
CACHE_VERSION = 2

_N2, _N3, _N4 = 1326, 22100, 270725


# ---------------------------------------------------------------------------
# Compiled kernels (fourcards.poker.kernels: ahead of time, or numba on first use)
# ---------------------------------------------------------------------------


def _kernels() -> Any:
    from fourcards import native

    return native.load("fourcards.poker.kernels", "the exact-analysis kernels")


def _accumulate(le: np.ndarray, lt: np.ndarray, weight: np.ndarray, dec: np.ndarray, group: np.ndarray,
                n: int, opts: Iterable[int] = (0, 1, 2, 3)) -> tuple[np.ndarray, np.ndarray, int]:
    """``(acc, wsum, bad)``: see :func:`fourcards.poker.kernels.accumulate` (one compiled pass)."""
    acc = np.zeros((4, 4, 3), np.int64)
    wsum = np.zeros(4, np.int64)
    allowed = np.zeros(256, dtype=bool)
    allowed[list(opts)] = True
    bad = _kernels().accumulate(le, lt, weight, dec, group, n, allowed, acc, wsum)
    return acc, wsum, int(bad)


# ---------------------------------------------------------------------------
# Base tables (pay-table and up-card independent)
# ---------------------------------------------------------------------------

class BaseTables:
    """Tables over all 2,598,960 five-card hands, indexed by colex index (built on first use).

    Attributes:
        combos: ``(C(52,5), 5)`` uint8, the sorted cards of each colex index.
        rank5: dense rank of the player's best four (uint16).
        orbit_of: the orbit (under permutations of diamonds/hearts/spades, clubs
            fixed) of each hand, 0..n_orbits-1 (int32).
        orbit_colex: colex index of each orbit's representative (the smallest).
        orbit_size: hands per orbit (1, 2, 3 or 6), uint8.
        orbit_rank: dense rank of each orbit's hand (uint16).

    The three ``orbit_*`` arrays (3.4 MB) are also stored with the cached dealer
    counts, so a run that only needs them - figures from cached counts - never
    builds the others (about 0.1 s with the compiled kernels).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._full: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._orbits: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def _build(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        with self._lock:
            if self._full is None:
                k = _kernels()
                combos = np.empty((N_HANDS5, 5), dtype=np.uint8)
                k.colex_combos5(combos)
                rank5 = np.empty(N_HANDS5, dtype=np.uint16)
                k.best5_all(combos, hands.DENSE_RANK_4, BINOM, rank5)
                rep = np.empty(N_HANDS5, dtype=np.int32)
                size = np.empty(N_HANDS5, dtype=np.uint8)
                k.orbits(combos, BINOM, rep, size)
                is_rep = rep == np.arange(N_HANDS5, dtype=np.int32)
                orbit_colex = np.flatnonzero(is_rep).astype(np.int32)
                pos = np.cumsum(is_rep, dtype=np.int32) - 1
                orbit_of = pos[rep]
                orbits = (orbit_colex, size[orbit_colex], rank5[orbit_colex])
                if self._orbits is not None and not all(
                        np.array_equal(a, b) for a, b in zip(self._orbits, orbits, strict=True)):  # type: ignore[arg-type]
                    raise ValueError("cached orbit tables disagree with the computed ones")
                for arr in (combos, rank5, orbit_of, *orbits):
                    arr.setflags(write=False)
                self._full = (combos, rank5, orbit_of)
                self._orbits = orbits
            return self._full

    def _orbit_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self._orbits is None:
            self._build()
        assert self._orbits is not None
        return self._orbits

    def adopt_orbits(self, orbit_colex: np.ndarray, orbit_size: np.ndarray, orbit_rank: np.ndarray) -> bool:
        """Use orbit arrays read from the cache (checked against the full build if that ever runs).

        Returns whether they were adopted (False: the tables had orbit arrays already, equal ones).

        Raises:
            ValueError: they differ from the orbit arrays already in use.
        """
        new = (orbit_colex, orbit_size, orbit_rank)
        with self._lock:
            if self._orbits is not None:
                if not all(np.array_equal(a, b) for a, b in zip(self._orbits, new, strict=True)):
                    raise ValueError("cached orbit tables disagree with the ones in use")
                return False
            if len(orbit_colex) != len(orbit_size) or len(orbit_colex) != len(orbit_rank):
                raise ValueError("orbit tables of different lengths")
            for arr in new:
                arr.setflags(write=False)
            self._orbits = new
            return True

    def forget_orbits(self) -> None:
        """Drop orbit arrays adopted from a cache that turned out corrupt (unless the full build ran)."""
        with self._lock:
            if self._full is None:
                self._orbits = None

    @property
    def combos(self) -> np.ndarray:
        """``(C(52,5), 5)`` uint8: the sorted cards of each colex index."""
        return self._build()[0]

    @property
    def rank5(self) -> np.ndarray:
        """Dense rank (uint16) of the best four of each five-card hand, by colex index."""
        return self._build()[1]

    @property
    def orbit_of(self) -> np.ndarray:
        """The orbit (int32) of each five-card hand, by colex index."""
        return self._build()[2]

    @property
    def orbit_colex(self) -> np.ndarray:
        """Colex index (int32) of each orbit's representative (the smallest)."""
        return self._orbit_arrays()[0]

    @property
    def orbit_size(self) -> np.ndarray:
        """Hands per orbit (1, 3 or 6), uint8."""
        return self._orbit_arrays()[1]

    @property
    def orbit_rank(self) -> np.ndarray:
        """Dense rank (uint16) of each orbit's hands."""
        return self._orbit_arrays()[2]

    @property
    def n_orbits(self) -> int:
        """Number of suit-permutation orbits of the five-card hands (the length of the ``orbit_*`` arrays)."""
        return len(self.orbit_colex)

    def orbit_cards(self) -> np.ndarray:
        """``(n_orbits, 5)`` the cards (ascending) of each orbit's representative."""
        idx = self.orbit_colex.astype(np.int64)
        out = np.empty((len(idx), 5), dtype=np.int64)
        for k in range(5, 0, -1):  # colex unranking: the largest c with C(c, k) <= idx
            c = np.searchsorted(BINOM[:, k], idx, side="right") - 1
            out[:, k - 1] = c
            idx = idx - BINOM[c, k]
        return out

    def orbit_has_up(self) -> np.ndarray:
        """``(13, n_orbits)`` bool: the orbit's hands hold the up card (rank, clubs)."""
        cards = self.orbit_cards()
        out = np.zeros((13, self.n_orbits), dtype=bool)
        orbit, pos = np.nonzero(cards % 4 == 0)  # the clubs each representative holds
        out[cards[orbit, pos] // 4, orbit] = True
        return out


@cache
def base_tables() -> BaseTables:
    """The (memoised) :class:`BaseTables`; each part is built on first use."""
    return BaseTables()


# ---------------------------------------------------------------------------
# Exact counts (cached)
# ---------------------------------------------------------------------------


def cache_dir() -> Path:
    """Where the dealer counts are cached: ``$FOURCARDS_CACHE_DIR`` or the user cache dir."""
    from fourcards.cachedir import cache_dir as user_cache_dir

    return user_cache_dir()


def _cache_file(directory: Path) -> Path:
    """The cache: one ``.npy`` int32 array ``(28, n_orbits)``: rows 0-12 ``le``, 13-25 ``lt`` (by up
    rank), 26 ``orbit_colex``, 27 ``orbit_rank * 256 + orbit_size`` (one read, no zip)."""
    return directory / f"fcp-dealer-counts-v{CACHE_VERSION}.npy"


@dataclass(frozen=True)
class ExactCounts:
    """Dealer counts for every (player hand orbit, up rank); pay-table independent.

    ``le[ur, o]`` / ``lt[ur, o]``: of the 1,370,754 dealer completions against the
    up card of rank ``ur + 2`` in clubs, how many the representative hand of orbit
    ``o`` beats or ties / beats. ``-1`` where the orbit's hands hold the up card.

    Attributes:
        le, lt: ``(13, n_orbits)`` int32.
        valid: ``(13, n_orbits)`` bool.
        weight: ``(13, n_orbits)`` int64 - the number of (hand, up suit mapped to
            clubs) pairs each entry stands for (orbit size, 0 where invalid); it
            sums to 13 x C(51,5) = 30,537,780.
        tables: the :class:`BaseTables`.
        seconds: time it took to compute (0 when loaded from the cache).
        source: ``"computed"``, ``"disk"`` or ``"memory"``.
    """

    le: np.ndarray
    lt: np.ndarray
    valid: np.ndarray
    weight: np.ndarray
    tables: BaseTables
    seconds: float = 0.0
    source: str = "computed"

    def lookup(self, cards: Iterable[Card | str] | str, up: Card | str) -> tuple[int, int]:
        """``(le, lt)`` for one player hand and up card."""
        ur, o = locate(cards, up, self.tables)
        return int(self.le[ur, o]), int(self.lt[ur, o])


def _validate_hand(cards: Iterable[Card | str] | str, up: Card | str) -> tuple[list[Card], Card]:
    hand = parse_cards(cards, count=5)
    upc = parse_card(up)
    if upc in hand:
        raise CardError(f"the up card {upc} is among the player's cards")
    return hand, upc


def map_to_clubs(indices: Sequence[int], up: int) -> list[int]:
    """Card indices with the up card's suit and clubs swapped (the canonical frame)."""
    s = up & 3
    out = []
    for c in indices:
        t = c & 3
        t = 0 if t == s else (s if t == 0 else t)
        out.append((c & ~3) | t)
    return out


def locate(cards: Iterable[Card | str] | str, up: Card | str, tables: BaseTables | None = None) -> tuple[int, int]:
    """``(up rank index 0..12, orbit)`` of a player hand and up card.

    Raises:
        CardError: malformed or duplicate cards, not five cards, or the up card
            among the player's cards.
    """
    hand, upc = _validate_hand(cards, up)
    tables = tables or base_tables()
    mapped = sorted(map_to_clubs([c.index for c in hand], upc.index))
    idx = int(sum(int(BINOM[c, i + 1]) for i, c in enumerate(mapped)))
    return upc.index // 4, int(tables.orbit_of[idx])


def _compute_counts(progress: Callable[[int, int], None] | None, workers: int | None) -> ExactCounts:
    t0 = time.perf_counter()
    tables = base_tables()
    k = _kernels()
    n_orb = tables.n_orbits
    order = np.argsort(tables.orbit_rank, kind="stable").astype(np.int32)
    player = np.empty(n_orb, dtype=np.int32)  # the representatives' cards, by hand value
    k.pack5(tables.combos, tables.orbit_colex[order], player)
    rank_start = np.searchsorted(tables.orbit_rank[order], np.arange(N_VALUES + 1)).astype(np.int64)
    le = np.full((13, n_orb), -1, dtype=np.int32)
    lt = np.full((13, n_orb), -1, dtype=np.int32)
    done = 0
    lock = threading.Lock()
    table4 = hands.DENSE_RANK_4
    scratch = threading.local()  # per thread, reused between up ranks

    def one(ur: int) -> None:
        nonlocal done
        if not hasattr(scratch, "dealer"):
            scratch.dealer = np.empty(N_HANDS5, dtype=np.uint16)
            scratch.packed = np.empty(N_HANDS5, dtype=np.int32)
        n_d = k.sweep_up_rank(ur, tables.combos, tables.rank5, table4, BINOM, player, order, rank_start,
                              le[ur], lt[ur], scratch.dealer, scratch.packed)
        assert n_d == N_HANDS_PER_UP
        with lock:
            done += 1
            if progress is not None:
                progress(done, 13)

    workers = workers or min(13, os.cpu_count() or 1)
    if workers <= 1:
        for ur in range(13):
            one(ur)
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(one, range(13)))
    return _finish_counts(le, lt, tables, time.perf_counter() - t0, "computed")


def _finish_counts(le: np.ndarray, lt: np.ndarray, tables: BaseTables, seconds: float, source: str) -> ExactCounts:
    # the kernel leaves -1 exactly where the hand holds the up card (the weight check; a test
    # compares with BaseTables.orbit_has_up)
    valid = le >= 0
    weight = np.where(valid, tables.orbit_size.astype(np.int64)[None, :], 0)
    for arr in (le, lt, valid, weight):
        arr.setflags(write=False)
    return ExactCounts(le, lt, valid, weight, tables, seconds, source)


def _check_counts(counts: ExactCounts) -> None:
    """Cheap integrity checks (a corrupt cache is recomputed)."""
    le, lt, valid = counts.le, counts.lt, counts.valid
    # valid entries: 0 <= lt <= le <= N; the others -1 (whole-array passes, no masked copies)
    if not ((le >= lt).all() and le.max() <= N_DEALER_HANDS and lt.min() >= -1 and le.min() >= -1
            and np.array_equal(le < 0, ~valid) and np.array_equal(lt < 0, ~valid)):
        raise ValueError("dealer counts out of range")
    if int(counts.weight.sum()) != 13 * N_HANDS_PER_UP:
        raise ValueError("weights do not sum to 13 x C(51,5)")


_MEMO: dict[str, ExactCounts] = {}
_MEMO_LOCK = threading.Lock()


def exact_counts(*, use_cache: bool = True, directory: str | os.PathLike[str] | None = None,
                 progress: Callable[[int, int], None] | None = None,
                 workers: int | None = None) -> ExactCounts:
    """The dealer counts for every player hand and up card (see :class:`ExactCounts`).

    Order of look-up: this process's memory, then the disk cache (``directory`` or
    :func:`cache_dir`), else computed (a few seconds; ``progress(done, 13)`` is
    called after each up rank) and written to the disk cache.

    Args:
        use_cache: False forces a fresh computation and leaves memory and disk alone.
        directory: cache directory (default :func:`cache_dir`).
        progress: callback for long runs.
        workers: threads (default: the number of CPUs, at most 13).
    """
    if not use_cache:
        return _compute_counts(progress, workers)
    d = Path(directory) if directory is not None else cache_dir()
    key = str(d.resolve())
    with _MEMO_LOCK:
        if key in _MEMO:
            return _MEMO[key]
        path = _cache_file(d)
        counts = None
        if path.exists():
            tables = base_tables()
            adopted = False
            try:
                t0 = time.perf_counter()
                a = np.load(path)
                if a.dtype != np.int32 or a.ndim != 2 or a.shape[0] != 28:
                    raise ValueError("layout")
                orbits = (np.ascontiguousarray(a[26]), (a[27] & 255).astype(np.uint8),
                          (a[27] >> 8).astype(np.uint16))
                adopted = tables.adopt_orbits(*orbits)
                counts = _finish_counts(a[:13], a[13:26], tables, time.perf_counter() - t0, "disk")
                _check_counts(counts)
            except (OSError, ValueError, KeyError):
                counts = None
                if adopted:
                    tables.forget_orbits()
        if counts is None:
            counts = _compute_counts(progress, workers)
            _check_counts(counts)
            try:
                d.mkdir(parents=True, exist_ok=True)
                tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp.npy")
                t = counts.tables
                np.save(tmp, np.vstack([counts.le, counts.lt, t.orbit_colex,
                                        t.orbit_rank.astype(np.int32) * 256 + t.orbit_size]).astype(np.int32))
                os.replace(tmp, path)
            except OSError:
                pass  # a read-only cache dir only costs time
        _MEMO[key] = counts
        return counts


def counts_cached(directory: str | os.PathLike[str] | None = None) -> bool:
    """Whether :func:`exact_counts` will be fast (in memory or on disk)."""
    d = Path(directory) if directory is not None else cache_dir()
    return str(d.resolve()) in _MEMO or _cache_file(d).exists()


def count_hand(cards: Iterable[Card | str] | str, up: Card | str) -> tuple[int, int]:
    """``(le, lt)`` for one hand by direct enumeration (tens of ms; no cache needed).

    Raises:
        CardError: see :func:`locate`.
    """
    hand, upc = _validate_hand(cards, up)
    idx = np.array(sorted(c.index for c in hand), dtype=np.int64)
    out = np.zeros(2, dtype=np.int64)
    _kernels().count_one(idx, upc.index, _rank5_of(hand), hands.DENSE_RANK_4, BINOM, out)
    return int(out[0]), int(out[1])


def _rank5_of(hand: Sequence[Card]) -> int:
    """Dense rank of the best four of five cards."""
    from itertools import combinations

    best = 0
    for four in combinations(sorted(c.index for c in hand), 4):
        best = max(best, int(hands.DENSE_RANK_4[sum(int(BINOM[c, i + 1]) for i, c in enumerate(four))]))
    return best


# ---------------------------------------------------------------------------
# Expected values and figures
# ---------------------------------------------------------------------------

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
    paid whenever the player plays). Entries where the hand holds the up card are 0.
    """
    n = N_DEALER_HANDS
    opts = options(rules)
    le = counts.le.astype(np.int64)
    b = bonus_pays(rules)[counts.tables.orbit_rank][None, :]
    ev = np.empty((len(opts), *le.shape), dtype=np.int64)
    margin = 2 * le - n
    for i, k in enumerate(opts):
        ev[i] = -n if k == 0 else (1 + k) * margin + b * n
    ev[:, ~counts.valid] = 0
    return opts, ev


def _frac(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


@dataclass(frozen=True)
class OutcomeRow:
    """One line of the par sheet's outcome table: a decision, a hand group and a result."""

    option: str
    hand: str
    result: str
    net: int
    probability: Fraction

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
    from the same exact outcome counts (:attr:`outcomes`).
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

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``house_edge`` (per ante), ``element_of_risk`` and ``return_to_player`` (per total
        wagered), ``average_total_bet`` (antes), ``standard_deviation`` (of a round's net, in antes),
        probabilities of decisions and outcomes, the outcome rows as floats, and ``exact`` fractions as
        strings for the main figures (``variance`` in antes squared).
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
    total_w = int(counts.weight.sum())
    denom = total_w * n
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
            if fold_w:
                rows.append(OutcomeRow("fold", "any", "fold", -1, Fraction(fold_w, total_w)))
            continue
        for gi, gname in enumerate(_BONUS_GROUPS):
            hand = gname or "no ante bonus"
            settled = settle_per_ante(rules, _BONUS_GROUP_HANDS[gi], opt)
            for ri, (res, result) in enumerate(zip(("win", "tie", "lose"), settled, strict=True)):
                s = int(acc[opt, gi, ri])
                if s:
                    rows.append(OutcomeRow(option_name(opt), hand, res, result.net, Fraction(s, denom)))
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
    )


def analyze(rules: PokerRules | str = "live", strategy: Any = "optimal", *,
            counts: ExactCounts | None = None,
            progress: Callable[[int, int], None] | None = None) -> GameFigures:
    """Exact figures of the ante/play game under ``strategy``.

    Args:
        rules: a :class:`PokerRules` or a preset name.
        strategy: ``"optimal"``, ``"simple"`` (Shuffle Master's published simple
            strategy), ``"chart"`` (the compact chart of :func:`strategy.optimal_chart`),
            a path to a strategy chart file (CSV), a
            :class:`~fourcards.poker.strategy.Strategy`, a
            :class:`~fourcards.poker.strategy.StrategyChart`, or a
            ``(13, n_orbits)`` array of play multiples.
        counts: the :class:`ExactCounts` (default :func:`exact_counts`).

    Raises:
        RulesError: unknown preset, or a strategy that is not valid for the rules.
    """
    from fourcards.poker import strategy as strat

    rules = _as_rules(rules)
    counts = counts or exact_counts(progress=progress)
    s = strat.get_strategy(strategy, rules, counts=counts)
    return figures_from_decisions(counts, rules, s.decisions, s.name)


def _as_rules(rules: PokerRules | str | None) -> PokerRules:
    from fourcards.poker.rules import get_rules

    if rules is None:
        return get_rules("live")
    if isinstance(rules, str):
        return get_rules(rules)
    return rules


# ---------------------------------------------------------------------------
# One hand: the EV of every option (for a trainer)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HandEV:
    """The exact EV (in antes, Aces Up excluded) of every option for one hand and up card.

    Attributes:
        cards, up: the player's five cards and the dealer's up card.
        hand: the player's best four-card value.
        le, lt: of the 1,370,754 dealer completions, how many the hand beats or
            ties / beats.
        ev: EV per option name (``"fold"``, ``"play_1x"``, ...), exact.
        decision: the optimal option (ties go to the smaller wager).
    """

    cards: tuple[Card, ...]
    up: Card
    hand: Any
    le: int
    lt: int
    ev: dict[str, Fraction]
    decision: str

    @property
    def win_or_tie(self) -> Fraction:
        """Probability that the hand beats or ties the dealer's best four of six (exact, over all completions)."""
        return Fraction(self.le, N_DEALER_HANDS)

    @property
    def tie(self) -> Fraction:
        """Probability that the hand ties the dealer's best four of six (exact; ties go to the player)."""
        return Fraction(self.le - self.lt, N_DEALER_HANDS)

    def ev_lost(self, option: str | int) -> Fraction:
        """EV given up (>= 0, in antes) by choosing ``option`` instead of the optimal one.

        Raises:
            RulesError: an option the rules do not allow.
        """
        name = option_name(option) if isinstance(option, int) else option
        if name not in self.ev:
            raise RulesError(f"{name!r} is not an option here: choose one of {', '.join(self.ev)}")
        return self.ev[self.decision] - self.ev[name]

    def to_dict(self) -> dict[str, Any]:
        """JSON form: cards as ``"Th"``, ``hand`` description, ``decision``, EV per option in antes
        (``ev`` floats, ``ev_exact`` fractions as strings, ``ev_lost``) and dealer completion counts
        (``dealer_hands``, ``win``, ``tie``, ``lose``).
        """
        return {
            "cards": [str(c) for c in self.cards],
            "up": str(self.up),
            "hand": self.hand.describe(),
            "decision": self.decision,
            "ev": {k: float(v) for k, v in self.ev.items()},
            "ev_exact": {k: _frac(v) for k, v in self.ev.items()},
            "ev_lost": {k: float(self.ev_lost(k)) for k in self.ev},
            "dealer_hands": N_DEALER_HANDS,
            "win": self.lt,
            "tie": self.le - self.lt,
            "lose": N_DEALER_HANDS - self.le,
        }


def hand_ev(cards: Iterable[Card | str] | str, up: Card | str, rules: PokerRules | str | None = None, *,
            counts: ExactCounts | None = None) -> HandEV:
    """The EV of every option and the optimal decision for one hand and up card.

    Uses ``counts`` (or the cached :func:`exact_counts` when it is in memory or
    on disk: microseconds) and otherwise enumerates the 1,370,754 dealer hands
    directly (:func:`count_hand`, a fraction of a second). A web trainer should
    call :func:`exact_counts` once at start-up.

    Raises:
        CardError: malformed or duplicate cards, not five cards, the up card among
            the player's cards.
        RulesError: unknown preset.
    """
    rules = _as_rules(rules)
    hand, upc = _validate_hand(cards, up)
    if counts is None and counts_cached():
        counts = exact_counts()
    if counts is not None:
        le, lt = counts.lookup(hand, upc)
    else:
        le, lt = count_hand(hand, upc)
    rank = _rank5_of(hand)
    value = dense_to_value(rank)
    evs: dict[str, Fraction] = {}
    for k in options(rules):
        win, tie, lose = settle_per_ante(rules, value, k)
        evs[option_name(k)] = Fraction(lt * win.net + (le - lt) * tie.net + (N_DEALER_HANDS - le) * lose.net,
                                       N_DEALER_HANDS)
    best = max(evs, key=lambda name: evs[name])  # first maximum: the smaller wager on a tie
    return HandEV(tuple(hand), upc, value, le, lt, evs, best)


# ---------------------------------------------------------------------------
# Aces Up
# ---------------------------------------------------------------------------

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
    ``pays = -1``). ``return_`` is what a unit bet gets back on average (stake
    included), ``house_edge = 1 - return_``.
    """

    table: AcesUpTable
    hands: tuple[tuple[str, str, int, int], ...]

    @property
    def return_(self) -> Fraction:
        """Expected amount back per unit Aces Up bet, stake included (exact fraction of the bet)."""
        return sum((Fraction(c * (p + 1), N_HANDS5) for _, _, p, c in self.hands if p >= 0), Fraction(0))

    @property
    def house_edge(self) -> Fraction:
        """House edge per unit Aces Up bet, ``1 - return_`` (exact fraction of the bet)."""
        return 1 - self.return_

    @property
    def variance(self) -> Fraction:
        """Variance of the net result of a unit Aces Up bet (wins ``pays``, else loses 1), exact."""
        second = sum((Fraction(c * p * p, N_HANDS5) for _, _, p, c in self.hands), Fraction(0))
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
                {"hand": key, "pays": p, "count": c, "probability": c / N_HANDS5,
                 "return": c * (p + 1) / N_HANDS5 if p >= 0 else 0.0}
                for key, _, p, c in self.hands
            ],
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


# ---------------------------------------------------------------------------
# Par sheet
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ParSheet:
    """Everything an operator needs for one rule set (see :func:`par_sheet`).

    ``game`` is the ante/play game under the requested strategy; ``optimal``,
    ``chart`` (the compact chart of :func:`strategy.optimal_chart`) and ``simple``
    (the published simple strategy) are always included for comparison.
    """

    rules: PokerRules
    game: GameFigures
    optimal: GameFigures
    chart: GameFigures
    simple: GameFigures
    aces_up: AcesUpFigures
    aces_up_tables: tuple[AcesUpFigures, ...]
    counts_source: str
    counts_seconds: float
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        """JSON form: :meth:`GameFigures.to_dict` of :attr:`game`, plus ``rules``, ``aces_up``,
        ``aces_up_tables``, per-strategy figures (with ``loss_vs_optimal`` in antes) and timings (s).
        """
        d = self.game.to_dict()
        d["rules"] = self.rules.to_dict()
        d["aces_up"] = self.aces_up.to_dict()
        d["aces_up_tables"] = [
            {"table": str(f.table), "return": float(f.return_), "house_edge": float(f.house_edge)}
            for f in self.aces_up_tables
        ]
        d["strategies"] = {
            name: {
                "house_edge": float(f.house_edge),
                "element_of_risk": float(f.element_of_risk),
                "return_to_player": float(f.return_to_player),
                "average_total_bet": float(f.average_total_bet),
                "standard_deviation": f.standard_deviation,
                "loss_vs_optimal": float(f.house_edge - self.optimal.house_edge),
            }
            for name, f in (("optimal", self.optimal), ("chart", self.chart), ("simple", self.simple),
                            (self.game.strategy, self.game))
        }
        d["computation"] = {"dealer_counts": self.counts_source,
                            "dealer_counts_seconds": round(self.counts_seconds, 3),
                            "seconds": round(self.seconds, 3)}
        return d


def par_sheet(rules: PokerRules | str = "live", strategy: Any = "optimal", *,
              counts: ExactCounts | None = None,
              progress: Callable[[int, int], None] | None = None) -> ParSheet:
    """The full par sheet for a rule set (exact).

    Raises:
        RulesError: unknown preset, a malformed table or an invalid strategy.
    """
    from fourcards.poker import strategy as strat
    from fourcards.poker.rules import ACES_UP_TABLES

    t0 = time.perf_counter()
    rules = _as_rules(rules)
    counts = counts or exact_counts(progress=progress)
    opt = strat.optimal_strategy(rules, counts)
    optimal = figures_from_decisions(counts, rules, opt.decisions, "optimal")
    chart = figures_from_decisions(counts, rules, strat.optimal_chart(rules, counts).strategy(rules, counts).decisions,
                                   "chart")
    simple = figures_from_decisions(counts, rules, strat.simple_strategy(rules).decisions, "simple")
    named = {"optimal": optimal, "chart": chart, "simple": simple}
    if isinstance(strategy, str) and strategy in named:
        game = named[strategy]
    else:
        s = strat.get_strategy(strategy, rules, counts=counts)
        game = figures_from_decisions(counts, rules, s.decisions, s.name)
    tables = tuple(aces_up(t) for t in ACES_UP_TABLES.values())
    return ParSheet(rules, game, optimal, chart, simple, aces_up(rules.aces_up), tables, counts.source,
                    counts.seconds, time.perf_counter() - t0)
