"""Seed 001 (OPR-903) clause by clause: every numbered clause 2.1-4.4 has a test here."""

from __future__ import annotations

import pytest
from kind_helpers import passive, passive_round, scripted

from fourcards.cards import Card, Rank
from fourcards.errors import IllegalActionError
from fourcards.kind import Action, ActionKind, Holding, KindRules, Phase, Redeal, split_pot
from fourcards.kind.history import Ante, BettingRound, DealCard, Finish, ReturnCard, Shuffle, TurnCard


def kinds(game):
    return {la.kind for la in game.legal_actions()}


def seed001_example_game():
    """A 7s, B Qd, C 3c, D 9h; B opens (highest card), bets 10, all call: pot 60."""
    g = scripted("7s Qd 3c 9h  Qh 9s 9d 9c 2c 2d")
    assert g.actor == 1
    g.apply(Action.bet(10))
    passive(g)
    return g


def test_opr903_example_settling_the_pot_engine():
    g = seed001_example_game()
    assert g.is_terminal
    assert [len(c) for c in g.cards] == [1, 2, 1, 4]
    won = [0] * 4
    for a in g.awards:
        won[a.seat] += a.amount
    assert won == [0, 0, 30, 30]
    assert g.payoffs == (-15, -15, 15, 15)


def test_opr903_example_settling_the_pot_split():
    hs = [Holding(Rank.SEVEN, 1), Holding(Rank.QUEEN, 2), Holding(Rank.THREE, 1), Holding(Rank.NINE, 4)]
    assert split_pot(60, hs) == [0, 0, 30, 30]


def test_opr903_2_1_every_player_antes():
    g = scripted("7s Qd 3c 9h", rules=KindRules(ante=7))
    antes = [op for op in g.history if isinstance(op, Ante)]
    assert [(a.seat, a.amount) for a in antes] == [(0, 7), (1, 7), (2, 7), (3, 7)]
    assert g.pot == 28
    assert g.stacks == [93] * 4


def test_opr903_2_2_one_face_up_card_each_all_different_ranks():
    g = scripted("7s Qd 3c 9h")
    assert [len(c) for c in g.cards] == [1, 1, 1, 1]
    assert len({c[0].rank for c in g.cards}) == 4
    obs = g.observation(2)
    assert [v.cards for v in obs.seats] == [(Card.parse("7s"),), (Card.parse("Qd"),), (Card.parse("3c"),),
                                            (Card.parse("9h"),)]


def test_opr903_2_3_every_duplicated_rank_is_redealt():
    rules = KindRules(redeal=Redeal.ALL_DUPLICATES)
    # seats 0 and 1 both get a seven; both return them and get new cards
    g = scripted("7s 7h 3c 9h  8c Kd", rules=rules)
    ops = [op for op in g.history if isinstance(op, (DealCard, ReturnCard, Shuffle))]
    assert ops[4:] == [ReturnCard(0, Card.parse("7s")), ReturnCard(1, Card.parse("7h")), Shuffle(),
                       DealCard(0, Card.parse("8c")), DealCard(1, Card.parse("Kd"))]
    assert [c[0] for c in g.cards] == [Card.parse(x) for x in "8c Kd 3c 9h".split()]
    assert g.phase is Phase.BETTING


def test_opr903_2_3_repeats_until_all_ranks_differ():
    rules = KindRules(redeal=Redeal.ALL_DUPLICATES)
    # the re-deal gives seat 0 a three, duplicating seat 2: both are dealt again
    g = scripted("7s 7h 3c 9h  3d Kd  5c 6c", rules=rules)
    returned = [op.seat for op in g.history if isinstance(op, ReturnCard)]
    assert returned == [0, 1, 0, 2]
    assert sorted(c[0].rank for c in g.cards) == [Rank.FIVE, Rank.SIX, Rank.NINE, Rank.KING]


def test_opr903_2_3_returned_card_may_be_dealt_again():
    rules = KindRules(redeal=Redeal.ALL_DUPLICATES)
    g = scripted("7s 7h 3c 9h  7s 8d", rules=rules)
    assert g.cards[0] == [Card.parse("7s")]
    assert g.phase is Phase.BETTING


def test_opr903_3_1_highest_card_opens_and_may_check_or_bet():
    g = scripted("7s As 3c 9h")
    assert g.actor == 1  # the ace, aces high (§1.2)
    assert kinds(g) == {ActionKind.CHECK, ActionKind.BET}
    with pytest.raises(IllegalActionError, match="cannot fold"):
        g.apply(Action.fold())


def test_opr903_3_1_later_players_check_bet_call_raise_fold():
    g = scripted("7s As 3c 9h")
    g.apply(Action.check())
    assert g.actor == 2
    assert kinds(g) == {ActionKind.CHECK, ActionKind.BET}
    g.apply(Action.bet(5))
    assert kinds(g) == {ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE}


def test_opr903_3_2_raise_cap_three_raises():
    g = scripted("7s As 3c 9h")
    g.apply(Action.bet(5))      # seat 1 bets
    g.apply(Action.raise_(5))   # seat 2, raise 1
    g.apply(Action.raise_(5))   # seat 3, raise 2
    g.apply(Action.raise_(10))  # seat 0, raise 3
    assert g.actor == 1
    assert kinds(g) == {ActionKind.FOLD, ActionKind.CALL}
    before = g.observation(1).to_dict()
    with pytest.raises(IllegalActionError, match="raise cap of 3 raises is reached"):
        g.apply(Action.raise_(5))
    assert g.observation(1).to_dict() == before
    g.apply(Action.call())
    assert g.stakes[1] == 25


def test_opr903_3_2_raise_cap_is_per_round():
    g = scripted("7s As 3c 9h  Ad")
    g.apply(Action.bet(5))
    for _ in range(3):
        g.apply(Action.raise_(5))
    passive_round(g)
    assert g.round_number == 2 and g.actor == 1
    assert ActionKind.BET in kinds(g)


def test_opr903_3_3_a_matching_card_goes_to_its_holder():
    g = scripted("7s As 3c 9h  3d")
    passive(g)
    assert g.cards[2] == [Card.parse("3c"), Card.parse("3d")]
    assert TurnCard(Card.parse("3d"), 2) in g.history


def test_opr903_3_3_b_a_card_matching_no_active_rank_is_discarded():
    g = scripted("7s As 3c 9h  Kd 2c")
    passive(g)
    assert g.discards == [Card.parse("Kd"), Card.parse("2c")]
    assert all(len(c) == 1 for c in g.cards)
    assert g.pending_chance == "turn"


def test_opr903_3_4_new_round_after_each_matching_card():
    g = scripted("7s As 3c 9h  Kd 3d 2c 7d")
    passive(g)
    rounds = [op for op in g.history if isinstance(op, BettingRound)]
    assert [r.number for r in rounds] == [1, 2, 3]
    assert g.round_number == 3


def test_opr903_3_4_highest_hand_opens_most_cards_first():
    g = scripted("7s As 3c 9h  3d")
    passive_round(g)
    assert g.actor == 2  # the pair of threes beats the single ace


def test_opr903_3_4_highest_hand_tie_on_cards_goes_to_higher_rank():
    g = scripted("7s As 3c 9h  3d 7d")
    passive_round(g)  # round 1
    passive_round(g)  # round 2 (threes open)
    assert g.round_number == 3  # round 3: 33 vs 77 -> sevens open
    rounds = [op for op in g.history if isinstance(op, BettingRound)]
    assert rounds[-1].opener == 0 and g.actor == 0


def test_opr903_3_5_folded_player_gets_no_cards_and_their_rank_is_discarded():
    g = scripted("7s As 3c 9h  3d 7d 7h")
    g.apply(Action.bet(5))  # seat 1
    g.apply(Action.call())  # seat 2
    g.apply(Action.call())  # seat 3
    g.apply(Action.fold())  # seat 0 folds the sevens
    passive(g)  # round 2 after the three
    assert g.folded[0]
    assert g.cards[0] == [Card.parse("7s")]
    assert g.discards == [Card.parse("7d"), Card.parse("7h")]
    assert TurnCard(Card.parse("7d"), None) in g.history


def test_opr903_4_1_play_ends_as_soon_as_four_are_collected():
    g = scripted("7s As 3c 9h  3d 3h 3s Ad Ah")
    while not g.is_terminal:
        passive(g)
    assert g.cards[2] == [Card.parse(x) for x in "3c 3d 3h 3s".split()]
    assert isinstance(g.history[-3], Finish) and g.history[-3].seat == 2
    assert g.cards[1] == [Card.parse("As")]  # the scripted aces were never turned
    assert g.actor is None and g.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the deal is over"):
        g.apply(Action.check())


def test_opr903_4_2_a_high_hand_is_four_of_a_kind():
    g = scripted("7s As 3c 9h  Ad Ah Ac")
    while not g.is_terminal:
        passive(g)
    high = [a for a in g.awards if a.share == "high"]
    assert [(a.seat, a.amount) for a in high] == [(1, 10)]


def test_opr903_4_2_b_low_hand_is_fewest_cards():
    g = scripted("7s As 3c 9h  Ad 3d Ah Ac")
    while not g.is_terminal:
        passive(g)
    low = [a for a in g.awards if a.share == "low"]
    # seat 2 holds two threes; seats 0 (seven) and 3 (nine) hold one: the seven is low
    assert [(a.seat, a.amount) for a in low] == [(0, 10)]


def test_opr903_4_3_low_tie_goes_to_lowest_rank():
    g = scripted("7s As 9c 8h  Ad Ah Ac")
    while not g.is_terminal:
        passive(g)
    low = [a for a in g.awards if a.share == "low"]
    assert [a.seat for a in low] == [0]  # 7 < 8 < 9, one card each


def test_opr903_4_3_low_tie_on_pairs_goes_to_lowest_pair():
    hs = [Holding(Rank.KING, 2), Holding(Rank.FIVE, 2), Holding(Rank.TEN, 4)]
    assert split_pot(40, hs) == [0, 20, 20]


def test_opr903_4_4_odd_chip_goes_to_high():
    hs = [Holding(Rank.SEVEN, 1), Holding(Rank.QUEEN, 2), Holding(Rank.THREE, 1), Holding(Rank.NINE, 4)]
    assert split_pot(61, hs) == [0, 0, 30, 31]


def test_opr903_4_4_odd_chip_engine():
    g = scripted("7s As 3c 9h  Ad Ah Ac", rules=KindRules(ante=5, min_bet=1, max_bet=10))
    g.apply(Action.bet(1))
    g.apply(Action.call())
    g.apply(Action.call())
    g.apply(Action.fold())  # seat 0: pot 20 + 3 = 23
    while not g.is_terminal:
        passive(g)
    assert {(a.seat, a.share): a.amount for a in g.awards} == {(1, "high"): 12, (2, "low"): 11}
    assert sum(g.payoffs) == 0
