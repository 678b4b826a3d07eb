"""Four-card hand values (docs/rules.md HV-1 to HV-4; seed 002 rank table;
seed 004 "Hand Rankings")."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fourcards.cards import FULL_DECK, Card, parse_cards
from fourcards.errors import CardError
from fourcards.hands import (
    DENSE_CODES,
    DENSE_RANK_4,
    HandCategory,
    _code4_py,
    _codes4_numpy,
    all_hands,
    best4_of5,
    best4_of6,
    best_hand,
    best_hands,
    category_counts,
    combo_index,
    evaluate4,
)

H = HandCategory


def v(text):
    return evaluate4(text)


def test_seed002_rank_table_order():
    # seed 002: four of a kind > straight flush > three of a kind > flush > straight > two pair > pair > high card
    examples = ["9s 9h 9d 9c", "8h 7h 6h 5h", "Ks Kh Kc 2d", "Ac Jc 7c 3c", "Qd Js Th 9c",
                "Ts Td 4h 4c", "As Ad 8c 5h", "Kd Jh 6s 3c"]
    values = [v(e) for e in examples]
    assert [x.category for x in values] == [H.FOUR_OF_A_KIND, H.STRAIGHT_FLUSH, H.THREE_OF_A_KIND, H.FLUSH,
                                             H.STRAIGHT, H.TWO_PAIR, H.PAIR, H.HIGH_CARD]
    assert values == sorted(values, reverse=True)


def test_seed004_a234_is_the_lowest_straight():
    wheel, five_high = v("Ah 2c 3d 4s"), v("2c 3d 4s 5h")
    assert wheel.category is H.STRAIGHT and five_high > wheel
    assert wheel > v("Ah Kc Qd 9s") and wheel > v("As Ad Kc Kh")  # above two pair, below 2-3-4-5


def test_design_no_wraparound_straight():
    assert v("Qh Kc Ad 2s").category is H.HIGH_CARD


def test_design_straight_flush_wheel_and_top():
    assert v("Ah 2h 3h 4h") == v("As 2s 3s 4s")
    assert v("Jh Qh Kh Ah") > v("Th Jh Qh Kh") > v("Ah 2h 3h 4h")


def test_design_suits_never_break_ties():
    assert v("Ah Kh 8d 5c") == v("As Kc 8h 5d")


def test_design_kickers_compared_high_to_low():
    assert v("9s 9h 9d Kc") > v("9s 9h 9d Qc") > v("8s 8h 8d Ac")
    assert v("Ts Td 4h 4c") > v("Ts Td 3h 3c") > v("9s 9d 8h 8c")
    assert v("As Ad 8c 5h") > v("As Ad 8c 4h") > v("As Ad 7c 6h") > v("Ks Kd Qc Jh")
    assert v("Ac Jc 7c 3c") > v("Ac Jc 7c 2c") > v("Kc Qc Jc 9c")
    assert v("Kd Jh 6s 3c") > v("Kd Jh 6s 2c")


def test_published_270725_four_card_hand_counts():
    counts = category_counts(DENSE_RANK_4)
    assert sum(counts.values()) == 270_725
    # published figures, docs/rules.md and docs/analysis.md
    assert counts[H.FOUR_OF_A_KIND] == 13
    assert counts[H.STRAIGHT_FLUSH] == 44
    assert counts[H.STRAIGHT] == 2_772
    assert counts[H.FLUSH] == 2_816
    assert counts[H.HIGH_CARD] == 177_408
    assert counts[H.THREE_OF_A_KIND] == 2_496
    assert counts[H.TWO_PAIR] == 2_808
    assert counts[H.PAIR] == 82_368


def test_vectorised_table_matches_slow_evaluator_on_every_four_card_hand():
    for four in combinations(FULL_DECK, 4):
        idx = combo_index([c.index for c in four])
        assert DENSE_CODES[DENSE_RANK_4[idx]] == _code4_py(four)


# Wizard of Odds "Four Card Poker": player's best four of five, over all 2,598,960 hands.
PUBLISHED_BEST_OF_FIVE = {
    H.FOUR_OF_A_KIND: 624, H.STRAIGHT_FLUSH: 2_072, H.THREE_OF_A_KIND: 58_656, H.FLUSH: 114_616,
    H.STRAIGHT: 101_808, H.TWO_PAIR: 123_552, H.PAIR: 1_047_552, H.HIGH_CARD: 1_150_080,
}


@pytest.fixture(scope="module")
def five_card_hands():
    return all_hands(5)


def test_best_four_of_five_counts_over_all_2598960_hands(five_card_hands):
    assert five_card_hands.shape == (2_598_960, 5)
    counts = category_counts(best4_of5(five_card_hands))
    assert sum(counts.values()) == 2_598_960
    assert counts == PUBLISHED_BEST_OF_FIVE


def test_best_four_of_five_agrees_with_independent_slow_path(five_card_hands):
    """numba kernel + dense table vs. direct numpy codes of the five four-card subsets."""
    fast = DENSE_CODES[best4_of5(five_card_hands)]
    for start in range(0, len(five_card_hands), 650_000):
        chunk = five_card_hands[start:start + 650_000].astype(np.int64)
        slow = np.full(len(chunk), -1, dtype=np.int64)
        for drop in range(5):
            keep = [j for j in range(5) if j != drop]
            slow = np.maximum(slow, _codes4_numpy(chunk[:, keep]))
        assert np.array_equal(fast[start:start + 650_000], slow)


def test_best_four_of_six_agrees_with_pure_python_on_a_sample():
    rng = np.random.default_rng(6)
    hands = np.array([rng.choice(52, 6, replace=False) for _ in range(2_000)], dtype=np.uint8)
    fast = DENSE_CODES[best4_of6(hands)]
    for row, code in zip(hands, fast):
        cards = [Card(int(i)) for i in row]
        assert code == max(_code4_py(f) for f in combinations(cards, 4))
        assert code == best_hand(cards)[0].code


def test_best_hand_names_the_four_cards_seed002_example():
    value, four = best_hand("9h 9d 9s Kc 3d")
    assert value.category is H.THREE_OF_A_KIND
    assert [str(c) for c in four] == ["9s", "9h", "9d", "Kc"]
    value, four = best_hand("Qd Qs 8c 8h 4s 2d")
    assert value.describe() == "two pair, queens and eights"


@pytest.mark.parametrize("bad", ["9h 9d 9s", "9h 9d 9s Kc 3d 2c 4c 5c", "9h 9d 9s 9h"])
def test_best_hand_rejects_bad_input(bad):
    with pytest.raises(CardError):
        best_hand(bad)


def test_vectorised_rejects_bad_shape():
    with pytest.raises(CardError):
        best4_of5(np.zeros((3, 4), dtype=np.uint8))
    with pytest.raises(CardError):
        best4_of6(np.full((1, 6), 60, dtype=np.int64))


@given(st.lists(st.integers(0, 51), min_size=5, max_size=7, unique=True))
def test_property_best_of_n_never_decreases_when_a_card_is_added(indices):
    cards = [Card(i) for i in indices]
    values = [best_hand(cards[:n])[0] for n in range(4, len(cards) + 1)]
    assert values == sorted(values)


@given(st.lists(st.integers(0, 51), min_size=4, max_size=4, unique=True), st.permutations([0, 1, 2, 3]))
def test_property_value_ignores_card_order_and_suit_relabelling(indices, perm):
    cards = [Card(i) for i in indices]
    relabelled = [Card((c.index // 4) * 4 + perm[c.index % 4]) for c in cards]
    assert evaluate4(cards) == evaluate4(list(reversed(relabelled)))


def test_parse_through_evaluate():
    assert evaluate4(parse_cards("Ah Ad 3c 4d")).describe() == "pair, aces"


# --- issue 14: the table-driven best_hand and the batch API give today's answers ---------------

def _reference_best_hand(cards):
    """best_hand as it was before issue 14: every four in card order, the first best one."""
    best = None
    for four in combinations(sorted(cards, reverse=True), 4):
        code = _code4_py(four)
        if best is None or code > best[0]:
            best = (code, four)
    counts = {r: sum(c.rank == r for c in best[1]) for r in {c.rank for c in best[1]}}
    return best[0], tuple(sorted(best[1], key=lambda c: (counts[c.rank], c.rank, c.index), reverse=True))


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_issue14_best_hand_and_batch_equal_the_reference_on_random_hands(n):
    rng = np.random.default_rng(14 + n)
    hands = np.argsort(rng.random((3_000, 52)), axis=1)[:, :n].astype(np.uint8)
    # suited-heavy hands too: four or more cards of one suit
    suited = np.array([rng.choice(np.arange(rng.integers(4), 52, 4), n - 1, replace=False).tolist()
                       + [int(rng.integers(52))] for _ in range(3_000)])
    suited = np.array([r if len(set(r.tolist())) == n else hands[0] for r in suited], dtype=np.uint8)
    for batch in (hands, suited):
        codes, fours = best_hands(batch)
        for row, code, four in zip(batch.tolist(), codes.tolist(), fours.tolist(), strict=True):
            cards = [Card(i) for i in row]
            ref_code, ref_four = _reference_best_hand(cards)
            value, chosen = best_hand(cards)
            assert value.code == ref_code == code
            assert [c.index for c in chosen] == [c.index for c in ref_four] == four


def test_issue14_batch_values_equal_the_vectorised_kernel_on_every_five_card_hand(five_card_hands):
    codes, _ = best_hands(five_card_hands)
    assert np.array_equal(codes, DENSE_CODES[best4_of5(five_card_hands)])


@pytest.mark.slow
def test_issue14_best_hand_equals_the_batch_api_on_every_five_card_hand(five_card_hands):
    codes, fours = best_hands(five_card_hands)
    deck = FULL_DECK
    for row, code, four in zip(five_card_hands.tolist(), codes.tolist(), fours.tolist(), strict=True):
        value, chosen = best_hand([deck[i] for i in row])
        assert value.code == code and [c.index for c in chosen] == four


def test_issue14_best_hand_accepts_strings_tuples_and_rejects_duplicates():
    assert best_hand(("9h", "9d", "9s", "Kc", "3d"))[0] == best_hand("9h 9d 9s Kc 3d")[0]
    with pytest.raises(CardError, match="duplicate"):
        best_hand([Card(3), Card(3), Card(4), Card(5), Card(6)])
    with pytest.raises(CardError):
        best_hand([Card(3), Card(4), Card(5)])
    with pytest.raises(CardError):
        best_hands(np.zeros((2, 3), dtype=np.uint8))
