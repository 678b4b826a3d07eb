"""Exact expected chips from every pot, side pots included (``odds.pot_equity``).

Checked against brute-force enumeration of every distinct order of the missing
cards, settled with the engine's own ``settle_pots`` (DESIGN.md ruling 8; rules.md
FOAK-7, FOAK-9), and against ``exact_odds`` when there is one pot.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kind_helpers import orders

from fourcards.cards import Rank
from fourcards.errors import RulesError
from fourcards.kind import Holding, exact_odds, parse_holdings
from fourcards.kind.odds import pot_equity
from fourcards.kind.pots import Pot, settle_pots, side_pots


def brute_force(holdings: dict[int, Holding], pots: list[Pot]) -> dict[int, Fraction]:
    """Average of settle_pots over every distinct order of the missing cards (all equally likely)."""
    seats = list(holdings)
    total = dict.fromkeys(seats, 0)
    n = 0
    for order in orders([holdings[s].missing for s in seats]):
        n += 1
        counts = [holdings[s].count for s in seats]
        for i in order:
            counts[i] += 1
            if counts[i] == 4:
                break
        final = {s: Holding(holdings[s].rank, counts[i]) for i, s in enumerate(seats)}
        for a in settle_pots(pots, final):
            total[a.seat] += a.amount
    return {s: Fraction(v, n) for s, v in total.items()}


def holdings_of(text: str, seats: list[int] | None = None) -> dict[int, Holding]:
    hs = parse_holdings(text.split())
    return dict(zip(seats or range(len(hs)), hs, strict=True))


@pytest.mark.parametrize("position", ["7 QQ 3 999", "2 3 4", "AA KK 22 5"])
def test_ruling8_one_pot_equals_exact_odds_expected_chips(position: str) -> None:
    hs = holdings_of(position)
    eq = pot_equity(hs, [Pot(61, tuple(hs))])
    odds = exact_odds(list(hs.values()))
    assert [eq[s] for s in hs] == [o.expected_chips(61) for o in odds]


@pytest.mark.parametrize(("position", "pots"), [
    ("7 QQ 3 999", [Pot(40, (0, 1, 2, 3)), Pot(21, (1, 2, 3))]),
    ("7 QQ 3 999", [Pot(40, (0, 1, 2, 3)), Pot(20, (0, 1)), Pot(7, (1,))]),
    ("2 33 4 55", [Pot(20, (0, 1, 2, 3)), Pot(15, (0, 2))]),   # side pot between non-neighbours
    ("AA K 22 55", [Pot(20, (0, 1, 2, 3)), Pot(9, (1, 3))]),    # the pairs' four not in the side pot
    ("888 9 TT", [Pot(30, (0, 1, 2)), Pot(11, (1, 2))]),
])
def test_ruling8_side_pots_match_brute_force(position: str, pots: list[Pot]) -> None:
    hs = holdings_of(position)
    eq = pot_equity(hs, pots)
    assert eq == brute_force(hs, pots)
    assert sum(eq.values()) == sum(p.amount for p in pots)


def test_ruling8_seat_numbers_need_not_be_consecutive() -> None:
    hs = holdings_of("7 QQ 3 999", [9, 2, 5, 0])
    pots = [Pot(40, (9, 2, 5, 0)), Pot(21, (2, 0))]
    assert pot_equity(hs, pots) == brute_force(hs, pots)


def test_ruling8_a_decided_deal_is_settled() -> None:
    hs = holdings_of("7 QQ 3 9999")
    assert pot_equity(hs, [Pot(61, (0, 1, 2, 3))]) == {0: 0, 1: 0, 2: 30, 3: 31}
    assert pot_equity(holdings_of("QQ"), [Pot(12, (0,))]) == {0: 12}


def test_pot_with_an_inactive_eligible_seat_is_refused() -> None:
    with pytest.raises(RulesError, match="pot 1"):
        pot_equity(holdings_of("7 QQ 3"), [Pot(30, (0, 1, 2)), Pot(10, (1, 4))])


@settings(max_examples=60, deadline=None)
@given(counts=st.lists(st.integers(1, 3), min_size=2, max_size=4).filter(lambda c: sum(4 - x for x in c) <= 8),
       ranks=st.permutations(list(range(2, 15))), data=st.data())
def test_ruling8_random_positions_and_contributions_match_brute_force(counts, ranks, data) -> None:
    """Random holdings and random chips put in (some seats folded) -> side_pots -> exact == enumeration."""
    n = len(counts)
    hs = {s: Holding(Rank(ranks[s]), c) for s, c in enumerate(counts)}
    extra = data.draw(st.integers(0, 2))  # folded seats: dead money only
    contributed = data.draw(st.lists(st.integers(1, 40), min_size=n + extra, max_size=n + extra))
    live = [True] * n + [False] * extra
    pots = side_pots(contributed, live)
    eq = pot_equity(hs, pots)
    assert eq == brute_force(hs, pots)
    assert sum(eq.values()) == sum(contributed)
