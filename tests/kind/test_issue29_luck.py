"""Luck in a Four of a Kind deal (issue 29 item 4; docs/kind.md "Luck"): what each card gave or
took from each player's expected chips, against the exact odds - a scripted deal worked by hand,
and on random deals the lucks add up to zero exactly (a card moves no chips)."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from fourcards.kind import Action, Game, KindRules, exact_odds, parse_holdings
from fourcards.kind.bots import make_bot, play_deal
from fourcards.kind.luck import card_luck


def test_issue29_luck_of_a_scripted_deal_worked_by_hand() -> None:
    # Five players, ante 5 (pot 25), the button at seat 0: seats 1-4 then 0 are dealt 2, 7, Q, 9, K.
    game = Game(KindRules(), [100] * 5, 0, cards="2c 7d Qs 9h Kd 9c Kc Qc Kh Ks".split())
    # K opens and bets 5; 2, 7 and 9 fold, Q calls: K (seat 0) and Q (seat 3) are left, pot 35.
    for move in ("bet 5", "fold", "fold", "call", "fold"):
        game.apply(Action.parse(move))
    # Turned: 9 (a folded rank: discarded), K to seat 0, then a check-check round after each card.
    while not game.is_terminal:
        game.apply(Action.parse("check"))
    assert game.awards and {(a.seat, a.share, a.amount) for a in game.awards} == {(0, "high", 18), (3, "low", 17)}

    luck = card_luck(None, game.history)
    # The deal (one card event): every player held 25 / 5 = 5 before it; after it, the exact odds of
    # five single cards 2, 7, Q, 9, K with the odd chip to high: 13 * P(high) + 12 * P(low).
    dealt = exact_odds(parse_holdings("K 2 7 Q 9".split()))  # seats 0-4
    deal_luck = [o.expected_chips(25) - 5 for o in dealt]
    # Two players left and pot 35 (18 to high, 17 to low): each expects 18 * P(high) + 17 * P(low),
    # and with two players P(high) for K = Q's missing cards / all missing cards (the last missing
    # card to come decides): 3/6 -> K's 2nd card: 3/5 (+1/10) -> Q's 2nd: 2/4 (-1/10) -> K's 3rd: 2/3
    # (+1/6) -> K's 4th: four of a kind, 18 (+1/3). The discarded 9 changes nothing.
    turned = Fraction(1, 10) - Fraction(1, 10) + Fraction(1, 6) + Fraction(1, 3)
    assert turned == Fraction(1, 2)
    assert luck[0] == deal_luck[0] + turned
    assert luck[3] == deal_luck[3] - turned
    for folded in (1, 2, 4):  # they folded before the first turned card: only the deal counts
        assert luck[folded] == deal_luck[folded]
    assert sum(luck) == 0


def test_issue29_a_voided_deal_has_no_luck() -> None:
    game = Game(KindRules(), [100] * 4, 3, cards="2c 7d Qs 9h".split())
    from fourcards.kind import Void

    game.apply(Void("test"))
    assert card_luck(None, game.history) == [0, 0, 0, 0]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 9))
def test_issue29_luck_adds_up_to_zero_on_every_deal(seed: int, n: int) -> None:
    rng = random.Random(seed)
    stacks = [rng.choice([6, 20, 60, 200]) for _ in range(n)]  # short stacks: all-ins and side pots
    bots = [make_bot(rng.choice(["odds", "cautious", "random"])) for _ in range(n)]
    game = play_deal(KindRules(), bots, stacks, rng)
    luck = card_luck(None, game.history)
    assert sum(luck) == 0
    assert all(isinstance(x, Fraction) for x in luck)
