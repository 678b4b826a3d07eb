"""Exact dealer counts for every player hand and up card (:func:`exact_counts`), pay-table
independent, computed once (a few seconds) and then read from the disk cache
(:mod:`fourcards.poker.exact.cache`) or this process's memory.

For every player five-card hand ``P`` and every dealer up card ``u``: the number of dealer
six-card hands (``u`` plus five of the 46 unseen cards, ``C(46,5) = 1,370,754``) whose best
four is *at most* the player's best four (``le``: the player wins or ties - ties go to the
player, the dealer always qualifies) and *strictly below* it (``lt``). Part of
:mod:`fourcards.poker.analysis` (which re-exports the public names).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from fourcards import hands
from fourcards.cards import Card
from fourcards.hands import (
    BINOM,
    N_VALUES,
)
from fourcards.poker.exact import cache as disk
from fourcards.poker.exact.tables import (
    N_DEALER_HANDS,
    N_HANDS5,
    N_HANDS_PER_UP,
    BaseTables,
    _kernels,
    _rank5_of,
    _validate_hand,
    base_tables,
    locate,
)

__all__ = ["ExactCounts", "exact_counts", "counts_cached", "count_hand"]


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
    :func:`~fourcards.poker.exact.cache.cache_dir`), else computed (a few seconds; ``progress(done, 13)`` is
    called after each up rank) and written to the disk cache.

    Args:
        use_cache: False forces a fresh computation and leaves memory and disk alone.
        directory: cache directory (default :func:`~fourcards.poker.exact.cache.cache_dir`).
        progress: callback for long runs.
        workers: threads (default: the number of CPUs, at most 13).
    """
    if not use_cache:
        return _compute_counts(progress, workers)
    d = Path(directory) if directory is not None else disk.cache_dir()
    key = str(d.resolve())
    with _MEMO_LOCK:
        if key in _MEMO:
            return _MEMO[key]
        path = disk._cache_file(d)
        counts = None
        if path.exists():
            tables = base_tables()
            adopted = False
            try:
                t0 = time.perf_counter()
                le, lt, orbits = disk.read_counts(path)
                adopted = tables.adopt_orbits(*orbits)
                counts = _finish_counts(le, lt, tables, time.perf_counter() - t0, "disk")
                _check_counts(counts)
            except (OSError, ValueError, KeyError):
                counts = None
                if adopted:
                    tables.forget_orbits()
        if counts is None:
            counts = _compute_counts(progress, workers)
            _check_counts(counts)
            t = counts.tables
            disk.write_counts(path, counts.le, counts.lt, t.orbit_colex, t.orbit_size, t.orbit_rank)
        _MEMO[key] = counts
        return counts


def cache_directory(counts: ExactCounts) -> Path | None:
    """The cache directory ``counts`` were read from or written to by :func:`exact_counts` (None:
    computed apart, ``use_cache=False``): summaries of the counts are cached beside them."""
    with _MEMO_LOCK:
        for key, c in _MEMO.items():
            if c is counts:
                return Path(key)
    return None


def counts_cached(directory: str | os.PathLike[str] | None = None) -> bool:
    """Whether :func:`exact_counts` will be fast (in memory or on disk)."""
    d = Path(directory) if directory is not None else disk.cache_dir()
    return str(d.resolve()) in _MEMO or disk._cache_file(d).exists()


def count_hand(cards: Iterable[Card | str] | str, up: Card | str) -> tuple[int, int]:
    """``(le, lt)`` for one hand by direct enumeration (tens of ms; no cache needed).

    Raises:
        CardError: see :func:`locate`.
    """
    hand, upc = _validate_hand(cards, up)
    idx = np.array(sorted(c.index for c in hand), dtype=np.int64)
    out = np.zeros(2, dtype=np.int64)
    _kernels().count_one(idx, upc.index, 0, _rank5_of(hand), hands.DENSE_RANK_4, BINOM, out)
    return int(out[0]), int(out[1])

