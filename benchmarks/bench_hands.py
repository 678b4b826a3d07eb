"""Hand-valuing throughput: best four of five / six, vectorised and single-hand.

Run: ``pytest benchmarks/bench_hands.py --benchmark-only`` (figures in docs/benchmarks.md).
Each benchmark stores ``hands_per_second`` in its extra info.
"""

from __future__ import annotations

import numpy as np
import pytest

from fourcards.cards import Card, parse_cards
from fourcards.hands import all_hands, best4_of5, best4_of6, best_hand, best_hands


@pytest.fixture(scope="module")
def five_card_hands():
    return all_hands(5)


@pytest.fixture(scope="module")
def six_card_hands():
    rng = np.random.default_rng(0)
    keys = rng.random((1_000_000, 52))
    return np.argpartition(keys, 6, axis=1)[:, :6].astype(np.uint8)


def _rate(benchmark, n):
    benchmark.extra_info["hands"] = n
    benchmark.extra_info["hands_per_second"] = n / benchmark.stats.stats.mean


def test_vectorised_best4_of5_all_2598960(benchmark, five_card_hands):
    best4_of5(five_card_hands[:10])  # compile outside the timing
    benchmark(best4_of5, five_card_hands)
    _rate(benchmark, len(five_card_hands))


def test_vectorised_best4_of6_1m(benchmark, six_card_hands):
    best4_of6(six_card_hands[:10])
    benchmark(best4_of6, six_card_hands)
    _rate(benchmark, len(six_card_hands))


def test_single_hand_best_of_five(benchmark):
    cards = [Card(i) for i in (3, 17, 30, 41, 50)]
    benchmark(best_hand, cards)
    _rate(benchmark, 1)


def test_single_hand_best_of_six(benchmark):
    cards = [Card(i) for i in (3, 17, 30, 41, 50, 8)]
    benchmark(best_hand, cards)
    _rate(benchmark, 1)


def test_single_hand_best_of_five_with_a_flush(benchmark):
    """Four or more cards of one suit: the suited fours are valued too (the slower path)."""
    cards = [Card(i) for i in (0, 8, 20, 36, 49)]  # four clubs
    benchmark(best_hand, cards)
    _rate(benchmark, 1)


def test_single_hand_best_of_five_from_text(benchmark):
    """A hand given as text (issue 19 item 8: at most parsing plus valuing, <= 5 µs)."""
    best_hand("Ah Kd 7c 7s 2d")  # the rank table is built outside the timing
    benchmark(best_hand, "Ah Kd 7c 7s 2d")
    _rate(benchmark, 1)


def test_single_hand_best_of_five_from_text_written_together(benchmark):
    """Seed 002's spelling, no separators (issue 19 item 5)."""
    best_hand("A♥K♦7♣7♠2♦")
    benchmark(best_hand, "A♥K♦7♣7♠2♦")
    _rate(benchmark, 1)


def test_parse_five_cards_from_text(benchmark):
    benchmark(parse_cards, "Ah Kd 7c 7s 2d")
    _rate(benchmark, 1)


def test_batch_best_hands_all_2598960(benchmark, five_card_hands):
    """best_hand's answer (value and the four cards) for every five-card hand at once (numpy)."""
    benchmark.pedantic(best_hands, args=(five_card_hands,), rounds=3, iterations=1)
    _rate(benchmark, len(five_card_hands))
