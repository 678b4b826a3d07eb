"""Seed 000 (pagat.com, William Moore's family game), rule paragraph by paragraph,
and the rulings of docs/rules.md that extend it (button, table stakes)."""

from __future__ import annotations

import random

import pytest
from kind_helpers import passive, passive_round, scripted

from fourcards.cards import Card, Rank
from fourcards.errors import IllegalActionError, RulesError
from fourcards.kind import Action, ActionKind, Game, Holding, KindRules, exact_odds, next_button
from fourcards.kind.history import DealCard, Finish, ReturnCard, Shuffle, SitOut


def test_seed000_introduction_four_or_more_players():
    with pytest.raises(RulesError, match="needs 4 to 13 players"):
        Game(KindRules(), [100] * 3, 0, rng=random.Random(1))
    Game(KindRules(), [100] * 13, 0, rng=random.Random(1))
    with pytest.raises(RulesError, match="needs 4 to 13 players, got 14 seats"):  # one range (issue 26 item 8)
        Game(KindRules(), [100] * 14, 0, rng=random.Random(1))


def test_seed000_introduction_ace_is_high():
    g = scripted("Ks As 2c 9h")
    assert g.actor == 1


def test_seed000_initial_deal_starts_at_dealers_left():
    g = Game(KindRules(), [100] * 5, 2, cards="2c 3c 4c 5c 6c".split())
    deals = [op.seat for op in g.history if isinstance(op, DealCard)]
    assert deals == [3, 4, 0, 1, 2]


def test_seed000_duplicate_rank_redealt():
    # seat 1 is dealt a seven already held by seat 0: it goes back, reshuffle, seat 1 is dealt again
    g = scripted("7s 7h Kd 3c 9h")
    ops = [op for op in g.history if isinstance(op, (DealCard, ReturnCard, Shuffle))]
    assert ops == [DealCard(0, Card.parse("7s")), DealCard(1, Card.parse("7h")), ReturnCard(1, Card.parse("7h")),
                   Shuffle(), DealCard(1, Card.parse("Kd")), DealCard(2, Card.parse("3c")),
                   DealCard(3, Card.parse("9h"))]
    assert [c[0].rank for c in g.cards] == [Rank.SEVEN, Rank.KING, Rank.THREE, Rank.NINE]


def test_seed000_duplicate_rank_redealt_with_a_real_shuffle():
    for seed in range(40):
        g = Game(KindRules(), [100] * 13, 0, rng=random.Random(seed))
        assert sorted(c[0].rank for c in g.cards) == list(Rank)  # 13 players: every rank once
        held = {c for cs in g.cards for c in cs}
        assert len(held) == 13


def test_seed000_initial_betting_highest_card_begins():
    g = scripted("2s 5d Jc 9h")
    assert g.actor == 2
    assert {la.kind for la in g.legal_actions()} == {ActionKind.CHECK, ActionKind.BET}


def test_seed000_check_lets_the_stake_stand():
    g = scripted("2s 5d Jc 9h")
    g.apply(Action.check())
    assert g.stakes == [0, 0, 0, 0] and g.pot == 20 and g.actor == 3


def test_seed000_bet_and_raise_within_agreed_minimum_and_maximum():
    g = scripted("2s 5d Jc 9h", rules=KindRules(min_bet=5, max_bet=10))
    bet = next(la for la in g.legal_actions() if la.kind is ActionKind.BET)
    assert (bet.min_amount, bet.max_amount) == (5, 10)
    for bad in (4, 11):
        with pytest.raises(IllegalActionError, match="adds 5 to 10 chips"):
            g.apply(Action.bet(bad))
    g.apply(Action.bet(10))
    raise_ = next(la for la in g.legal_actions() if la.kind is ActionKind.RAISE)
    assert (raise_.min_amount, raise_.max_amount) == (5, 10)
    g.apply(Action.raise_(7))
    assert g.stakes[3] == 17 and g.level == 17


def test_seed000_call_matches_the_highest_stake():
    g = scripted("2s 5d Jc 9h")
    g.apply(Action.bet(8))
    g.apply(Action.call())
    assert g.stakes[3] == 8
    with pytest.raises(IllegalActionError, match="the call is 8"):
        g.apply(Action.call(5))


def test_seed000_fold_abandons_contribution():
    g = scripted("2s 5d Jc 9h  Jd Jh Js")
    g.apply(Action.bet(8))
    g.apply(Action.fold())  # seat 3 abandons its ante
    while not g.is_terminal:
        passive(g)
    assert g.payoffs[3] == -5
    assert all(a.seat != 3 for a in g.awards)


def test_seed000_round_ends_when_all_stakes_are_equal():
    g = scripted("2s 5d Jc 9h  Kc")
    g.apply(Action.bet(5))   # seat 2
    g.apply(Action.call())   # 3
    g.apply(Action.raise_(5))  # 0
    g.apply(Action.call())   # 1
    g.apply(Action.call())   # 2
    assert g.actor == 3      # still owes 5
    g.apply(Action.call())
    assert g.actor is None and g.pending_chance == "turn"
    assert g.pot == 20 + 4 * 10


def test_seed000_round_ends_when_everyone_has_checked():
    g = scripted("2s 5d Jc 9h")
    for _ in range(4):
        g.apply(Action.check())
    assert g.actor is None and g.pending_chance == "turn"


def test_seed000_limit_of_three_raises_per_betting_round():
    g = scripted("2s 5d Jc 9h")
    g.apply(Action.bet(5))
    for _ in range(3):
        g.apply(Action.raise_(5))
    with pytest.raises(IllegalActionError, match="raise cap"):
        g.apply(Action.raise_(5))
    assert {la.kind for la in g.legal_actions()} == {ActionKind.CALL, ActionKind.FOLD}


def test_seed000_continuation_matching_card_given_then_new_betting_round():
    g = scripted("2s 5d Jc 9h  3c 2d")
    passive_round(g)
    assert g.cards[0] == [Card.parse("2s"), Card.parse("2d")]
    assert g.discards == [Card.parse("3c")]
    assert g.round_number == 2 and g.actor == 0  # highest hand: the pair of twos


def test_seed000_continuation_folded_players_receive_no_cards():
    g = scripted("2s 5d Jc 9h  2d 2h")
    g.apply(Action.bet(5))  # seat 2
    g.apply(Action.call())  # 3
    g.apply(Action.fold())  # 0 folds the twos
    g.apply(Action.call())  # 1
    assert g.discards == [Card.parse("2d"), Card.parse("2h")]
    assert g.cards[0] == [Card.parse("2s")]


def test_seed000_deal_ends_when_a_player_has_four_of_a_kind():
    g = scripted("2s 5d Jc 9h  9c 9d 9s")
    while not g.is_terminal:
        passive(g)
    finish = [op for op in g.history if isinstance(op, Finish)]
    assert finish == [Finish("four", 3)]


def test_seed000_high_and_low_divide_pot_odd_amount_to_high():
    g = scripted("2s 5d Jc 9h  9c 9d 9s", rules=KindRules(ante=5, min_bet=1, max_bet=3))
    g.apply(Action.bet(1))   # seat 2
    g.apply(Action.call())   # seat 3
    g.apply(Action.fold())   # seat 0 (the low two) folds
    g.apply(Action.call())   # seat 1: pot 20 + 3 = 23
    while not g.is_terminal:
        passive(g)
    assert {(a.seat, a.share): a.amount for a in g.awards} == {(3, "high"): 12, (1, "low"): 11}
    assert g.payoffs == (-5, 5, -6, 6)


def test_seed000_low_is_the_lowest_single_card():
    g = scripted("2s 5d Jc 9h  9c 9d 9s")
    while not g.is_terminal:
        passive(g)
    assert {a.share: a.seat for a in g.awards} == {"high": 3, "low": 0}


def test_seed000_low_can_be_the_lowest_pair_when_everyone_matched():
    g = scripted("2s 5d Jc 9h  2d 5c Jd 9c 9d 9s")
    while not g.is_terminal:
        passive(g)
    assert {a.share: a.seat for a in g.awards} == {"high": 3, "low": 0}
    assert len(g.cards[0]) == 2


def test_seed000_note_lowest_triple_is_a_sure_win():
    hs = [Holding(Rank.TWO, 3), Holding(Rank.SIX, 3), Holding(Rank.KING, 3)]
    odds = exact_odds(hs)
    assert odds[0].p_high + odds[0].p_low == 1
    assert odds[0].expected_share == pytest.approx(0.5) and odds[0].p_high == odds[1].p_high


def test_seed000_last_player_standing_takes_the_pot():
    g = scripted("2s 5d Jc 9h")
    g.apply(Action.bet(10))  # seat 2
    g.apply(Action.fold())
    g.apply(Action.fold())
    g.apply(Action.fold())
    assert g.is_terminal
    assert g.history[-2] == Finish("last_player", 2)
    assert g.payoffs == (-5, -5, 15, -5)


def test_ruling_button_rotates_and_dealer_is_a_parameter():
    rules = KindRules()
    assert next_button([100] * 5, 4, rules) == 0
    assert next_button([100, 2, 100, 100, 100], 0, rules) == 2  # seat 1 cannot ante
    g = scripted("2s 5d Jc 9h", button=3)
    assert g.next_button == 0


def test_ruling_player_who_cannot_pay_the_ante_sits_out():
    g = Game(KindRules(), [100, 4, 100, 100, 100], 0, cards="2s 5d Jc 9h".split())
    assert SitOut(1) in g.history
    assert not g.in_deal[1] and g.cards[1] == [] and g.stacks[1] == 4
    assert g.observation(0).seats[1].status == "out"
