"""Exact odds: brute-force enumeration, Monte Carlo (engine and direct), sums, edge cases."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kind_helpers import orders

from fourcards.cards import FULL_DECK, Rank
from fourcards.errors import CardError
from fourcards.kind import Action, ActionKind, Game, Holding, KindRules, exact_odds, joint_odds


def brute_force(hs: list[Holding]) -> tuple[list[Fraction], list[Fraction]]:
    """Every distinct order of the missing cards of the active ranks, equally likely."""
    p_high = [0] * len(hs)
    p_low = [0] * len(hs)
    n = 0
    for order in orders([h.missing for h in hs]):
        n += 1
        counts = [h.count for h in hs]
        for i in order:
            counts[i] += 1
            if counts[i] == 4:
                w = i
                break
        low = min((j for j in range(len(hs)) if j != w), key=lambda j: (counts[j], hs[j].rank))
        p_high[w] += 1
        p_low[low] += 1
    return [Fraction(x, n) for x in p_high], [Fraction(x, n) for x in p_low]


def H(text: str) -> list[Holding]:
    from fourcards.kind import parse_holdings

    return parse_holdings(text.split())


@pytest.mark.parametrize("position", ["7 QQ 3 999", "2 3 4", "AA KK 22", "777 222 555 J", "55 66 77 8",
                                      "TT 3 444 K"])
def test_odds_match_brute_force_enumeration(position):
    hs = H(position)
    odds = exact_odds(hs)
    high, low = brute_force(hs)
    assert [o.p_high for o in odds] == high
    assert [o.p_low for o in odds] == low


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=2, max_size=4).flatmap(
    lambda counts: st.tuples(st.just(counts), st.permutations(list(Rank)))))
def test_odds_match_brute_force_random_small_positions(data):
    counts, ranks = data
    if sum(4 - c for c in counts) > 8:
        counts = [max(c, 2) for c in counts]
    hs = [Holding(r, c) for r, c in zip(ranks, counts)]
    high, low = brute_force(hs)
    odds = exact_odds(hs, cache=False)
    assert [o.p_high for o in odds] == high and [o.p_low for o in odds] == low


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 13).flatmap(lambda n: st.tuples(
    st.lists(st.integers(1, 3), min_size=n, max_size=n), st.permutations(list(Rank)))))
def test_odds_sum_to_one_and_joint_is_consistent(data):
    counts, ranks = data
    hs = [Holding(r, c) for r, c in zip(ranks, counts)]
    odds = exact_odds(hs)
    assert sum(o.p_high for o in odds) == 1
    assert sum(o.p_low for o in odds) == 1
    assert sum(o.expected_share for o in odds) == 1
    joint = joint_odds(hs)
    assert all(w != lo for (w, lo) in joint)
    for i, o in enumerate(odds):
        assert sum(p for (w, _), p in joint.items() if w == i) == o.p_high
        assert sum(p for (_, lo), p in joint.items() if lo == i) == o.p_low
    # symmetry: same count -> same P(high), whatever the rank
    by_count = {}
    for o in odds:
        by_count.setdefault(o.cards, set()).add(o.p_high)
    assert all(len(v) == 1 for v in by_count.values())


def _direct_mc(hs: list[Holding], trials: int, rng: random.Random, discarded: int = 5):
    """Turn a shuffled deck of the unseen cards (some other cards already discarded)."""
    held_ranks = {h.rank for h in hs}
    deck = []
    for h in hs:
        deck += [c for c in FULL_DECK if c.rank == h.rank][h.count:]
    others = [c for c in FULL_DECK if c.rank not in held_ranks]
    deck += others[discarded:]
    high = [0] * len(hs)
    low = [0] * len(hs)
    index = {h.rank: i for i, h in enumerate(hs)}
    for _ in range(trials):
        rng.shuffle(deck)
        counts = [h.count for h in hs]
        for card in deck:
            i = index.get(card.rank)
            if i is not None:
                counts[i] += 1
                if counts[i] == 4:
                    break
        low_i = min((j for j in range(len(hs)) if j != i), key=lambda j: (counts[j], hs[j].rank))
        high[i] += 1
        low[low_i] += 1
    return [x / trials for x in high], [x / trials for x in low]


def _within(p_exact: Fraction, p_hat: float, n: int, z: float = 4.5) -> bool:
    p = float(p_exact)
    sd = math.sqrt(max(p * (1 - p), 1e-12) / n)
    return abs(p_hat - p) <= z * sd + 1e-9


@pytest.mark.parametrize("position", ["7 QQ 3 999 K 55 A 8", "2 33 444 5 66 777 8 9 TT J Q K A", "22 KK"])
def test_odds_agree_with_monte_carlo(position):
    hs = H(position)
    odds = exact_odds(hs)
    trials = 3000
    high, low = _direct_mc(hs, trials, random.Random(2024))
    for o, h, lo in zip(odds, high, low):
        assert _within(o.p_high, h, trials), (o, h)
        assert _within(o.p_low, lo, trials), (o, lo)


def test_odds_agree_with_monte_carlo_through_the_engine():
    """Deal 7 Q 3 9 K in 5 seats, then play checks only; compare who takes high/low."""
    deal = "7s Qd 3c 9h Kd".split()
    from fourcards.cards import Card

    dealt = {Card.parse(c) for c in deal}
    rest = [c for c in FULL_DECK if c not in dealt]
    hs = H("7 Q 3 9 K")
    odds = exact_odds(hs)
    rng = random.Random(77)
    trials = 1500
    high = [0] * 5
    low = [0] * 5
    for _ in range(trials):
        rng.shuffle(rest)
        g = Game(KindRules(), [100] * 5, 4, cards=deal + rest)
        while not g.is_terminal:
            g.apply(Action.check() if ActionKind.CHECK in {la.kind for la in g.legal_actions()} else Action.call())
        for a in g.awards:
            (high if a.share == "high" else low)[a.seat] += 1
    for i, o in enumerate(odds):
        assert _within(o.p_high, high[i] / trials, trials)
        assert _within(o.p_low, low[i] / trials, trials)


def test_odds_terminal_and_lone_player():
    odds = exact_odds(H("7 QQ 3 9999"))
    assert [(o.p_high, o.p_low) for o in odds] == [(0, 0), (0, 0), (0, 1), (1, 0)]
    lone = exact_odds(H("55"))
    assert (lone[0].p_high, lone[0].p_low, lone[0].expected_share) == (1, 0, 1)
    assert lone[0].expected_chips(61) == 61
    assert odds[3].expected_chips(61) == 31 and odds[2].expected_chips(61) == 30


def test_odds_two_players_low_is_whoever_is_not_high():
    odds = exact_odds(H("2 A"))
    assert odds[0].p_high == odds[1].p_high == Fraction(1, 2)
    assert odds[0].p_low == odds[1].p_high


def test_odds_known_value_three_singletons():
    # two singletons and a pair: P(pair first) = P(its 2 cards come before either singleton's 3)
    odds = exact_odds(H("8 9 TT"))
    assert odds[2].p_high == Fraction(9, 20)


def test_odds_reject_bad_positions():
    with pytest.raises(CardError):
        exact_odds([Holding(Rank.TWO, 1), Holding(Rank.TWO, 2)])
    with pytest.raises(CardError):
        exact_odds([Holding(Rank.TWO, 4), Holding(Rank.THREE, 4)])
    with pytest.raises(CardError):
        exact_odds([])
    with pytest.raises(CardError):
        Holding(Rank.TWO, 5)


def test_odds_game_helper_covers_active_players_only():
    g = Game(KindRules(), [100] * 5, 4, cards="7s Qd 3c 9h Kd".split())
    g.apply(Action.bet(5))  # seat 4, the king
    g.apply(Action.fold())  # seat 0
    odds = g.odds()
    assert set(odds) == {1, 2, 3, 4}
    assert sum(o.p_high for o in odds.values()) == 1


def test_issue14_grouped_marginals_equal_the_joint_summed_over_the_other_player():
    """exact_odds sums the low terms per missing count before the Beta weights multiply in;
    that must equal summing the exact joint probabilities (random positions, 1-13 players)."""
    import random

    from fourcards.kind import odds

    rng = random.Random(14)
    for _ in range(400):
        counts = tuple(rng.randint(1, 3) for _ in range(rng.randint(1, 13)))
        den, high, joint = odds._solve.__wrapped__(counts)
        den2, high2, low2 = odds._solve_marginals(counts)
        assert den2 == den and list(high2) == list(high)
        assert low2 == [sum(joint[w][j] for w in range(len(counts))) for j in range(len(counts))]
        if len(counts) > 1:
            assert sum(high) == den == sum(low2)
