"""The tables the exact analysis works on: every five-card hand by colex index, its best four,
its suit-permutation orbit; where a (hand, up card) pair lies in them.

The up card's suit is mapped to clubs (13 up ranks, weight 4 each), and the player's hands
are reduced to orbits under the 6 permutations of the other three suits (about 6x fewer
hands). Part of :mod:`fourcards.poker.analysis` (which re-exports the public names).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

import numpy as np

from fourcards import hands
from fourcards.cards import Card, parse_card, parse_cards
from fourcards.errors import CardError
from fourcards.hands import BINOM

__all__ = [
    "N_DEALER_HANDS", "N_HANDS_PER_UP", "N_HANDS5", "N_PLAYER_UP_PAIRS", "N_DEALS", "BaseTables", "base_tables",
    "map_to_clubs", "locate",
]


#: Dealer completions per (player hand, up card): C(46, 5).
N_DEALER_HANDS = 1_370_754
#: Player hands per up card: C(51, 5).
N_HANDS_PER_UP = 2_349_060
#: All five-card hands: C(52, 5).
N_HANDS5 = 2_598_960
#: (player hand, up card) pairs: C(52, 5) x 47.
N_PLAYER_UP_PAIRS = N_HANDS5 * 47
#: Every deal one seat can see: its five cards, the up card and the dealer's five others,
#: C(52, 5) x 47 x C(46, 5) = 167,439,136,344,480 (the par sheet's combinations sum to it).
N_DEALS = N_PLAYER_UP_PAIRS * N_DEALER_HANDS


# ---------------------------------------------------------------------------
# Compiled kernels (fourcards.poker.kernels: ahead of time, or numba on first use)
# ---------------------------------------------------------------------------


def _kernels() -> Any:
    from fourcards import native

    return native.load("fourcards.poker.kernels", "the exact-analysis kernels")


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


def _rank5_of(hand: Sequence[Card]) -> int:
    """Dense rank of the best four of five cards."""
    from itertools import combinations

    best = 0
    for four in combinations(sorted(c.index for c in hand), 4):
        best = max(best, int(hands.DENSE_RANK_4[sum(int(BINOM[c, i + 1]) for i, c in enumerate(four))]))
    return best

