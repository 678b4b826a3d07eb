"""Real cards entered by hand (docs/rules.md FOAK-14, FOAK-15): who the next dealt card goes
to (the re-deal rule of FOAK-2 included), and the deal as it stood before its last card."""

from __future__ import annotations

import pytest
from kind_helpers import passive

from fourcards.cards import parse_card
from fourcards.errors import IllegalActionError
from fourcards.kind import Action, Game, KindRules, Redeal
from fourcards.kind.history import DealCard, PlayerAction, TurnCard


def by_hand(n: int = 4, **kw) -> Game:
    """A game that waits for every card (the button is the last seat: seat 0 is dealt first)."""
    return Game(KindRules(**kw), [100] * n, n - 1, cards=(), seat_labels=["Ann", "Ben", "Cat", "Dan"][:n])


def test_foak2_deal_queue_replace_redeals_the_same_player_at_once():
    g = by_hand(redeal=Redeal.REPLACE)
    assert g.deal_queue == (0, 1, 2, 3)
    g.supply("9c")
    assert g.deal_queue == (1, 2, 3)
    g.supply("9h")  # Ben's nine pairs Ann's: it goes back, Ben is dealt again
    assert g.deal_queue == (1, 2, 3) and g.cards[1] == []
    g.supply("Kd", "Qc", "Jh")
    assert g.deal_queue == () and g.actor is not None


def test_foak2_deal_queue_all_duplicates_redeals_every_holder_after_the_pass():
    g = by_hand(redeal=Redeal.ALL_DUPLICATES)
    g.supply("9c", "9h", "Kd", "Qc")
    assert g.deal_queue == (0, 1)  # both nines go back; Ann then Ben get new cards
    g.supply("2c")
    assert g.deal_queue == (1,)


def test_foak15_before_last_card_rebuilds_the_deal_and_leaves_the_game_as_it_was():
    g = by_hand()
    g.supply("9c", "9h")  # Ben's duplicate went back: the take-back removes it with its return
    before = g.observation(None)
    assert g.last_card == DealCard(1, parse_card("9h"))
    back, card = g.before_last_card()
    assert card == DealCard(1, parse_card("9h"))
    assert g.observation(None) == before
    assert back.history == g.history[:len(back.history)] and back.deal_queue == (1, 2, 3)
    assert back.chance_step == "deal" and back.seat_labels == g.seat_labels
    back.supply("Kd")
    assert back.cards[1] == [parse_card("Kd")]


def test_foak15_a_card_that_opened_a_betting_round_is_taken_back_with_the_round():
    g = by_hand()
    g.supply("As", "Kd", "Qc", "Jh")
    assert g.actor == 0
    back, card = g.before_last_card()
    assert card.card == parse_card("Jh") and back.actor is None and back.deal_queue == (3,)
    back.supply("2h")
    assert back.actor == 0 and back.round_number == 1


def test_foak15_no_take_back_after_an_action_before_any_card_or_after_the_end():
    g = by_hand()
    with pytest.raises(IllegalActionError, match="no card has been dealt"):
        g.before_last_card()
    g.supply("As", "Kd", "Qc", "Jh")
    g.apply(Action.check())
    assert g.last_card is None
    with pytest.raises(IllegalActionError, match="^Ann has acted since J♥ was dealt: .*until the next action"):
        g.before_last_card()
    passive(g)
    g.supply("2c")  # discarded: it may be taken back until someone acts
    back, card = g.before_last_card()
    assert card == TurnCard(parse_card("2c"), None) and not back.discards
    assert isinstance(g.history[-2], PlayerAction)
    for c in ("Ad", "Ac", "Ah"):
        g.supply(c)
        passive(g)
    assert g.is_terminal
    assert g.last_card is None
    with pytest.raises(IllegalActionError, match="the deal is finished"):
        g.before_last_card()


def test_foak15_a_shuffled_deck_game_has_no_take_back():
    g = Game(KindRules(), [100] * 4, 3)
    assert g.last_card is None
    with pytest.raises(IllegalActionError, match="own shuffled deck"):
        g.before_last_card()
