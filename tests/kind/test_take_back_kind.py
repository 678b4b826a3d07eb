"""Real cards entered by hand (docs/rules.md FOAK-14, FOAK-15): who the next dealt card goes
to (the re-deal rule of FOAK-2 included), and the last card while it may be taken back - the
deal before it being the engine's replay of the history up to that card."""

from __future__ import annotations

from kind_helpers import passive

from fourcards.cards import parse_card
from fourcards.kind import Action, DealCard, Game, KindRules, Redeal, TurnCard


def by_hand(n: int = 4, **kw) -> Game:
    """A game that waits for every card (the button is the last seat: seat 0 is dealt first)."""
    return Game(KindRules(**kw), [100] * n, n - 1, cards=(), seat_labels=["Ann", "Ben", "Cat", "Dan"][:n])


def before_last_card(g: Game) -> Game:
    """What a host's take-back does: replay the history up to the observation's last card."""
    last = g.observation(None).last_card
    assert last is not None
    at = max(i for i, op in enumerate(g.history) if op == last)
    return Game.replay(g.rules, g.history[:at], seat_labels=g.seat_labels)


def test_foak2_deal_queue_replace_redeals_the_same_player_at_once():
    g = by_hand(redeal=Redeal.REPLACE)
    assert g.deal_queue == g.observation(None).deal_queue == (0, 1, 2, 3)
    g.supply("9c")
    assert g.deal_queue == (1, 2, 3)
    g.supply("9h")  # Ben's nine pairs Ann's: it goes back, Ben is dealt again
    assert g.deal_queue == (1, 2, 3) and g.cards[1] == []
    g.supply("Kd", "Qc", "Jh")
    assert g.deal_queue == () and g.observation(2).to_dict()["deal_queue"] == [] and g.actor is not None


def test_foak2_deal_queue_all_duplicates_redeals_every_holder_after_the_pass():
    g = by_hand(redeal=Redeal.ALL_DUPLICATES)
    g.supply("9c", "9h", "Kd", "Qc")
    assert g.observation(None).deal_queue == (0, 1)  # both nines go back; Ann then Ben get new cards
    g.supply("2c")
    assert g.observation(None).deal_queue == (1,)


def test_foak15_the_deal_before_the_last_card_leaves_the_game_as_it_was():
    g = by_hand()
    g.supply("9c", "9h")  # Ben's duplicate went back: the take-back removes it with its return
    before = g.observation(None)
    assert before.last_card == DealCard(1, parse_card("9h"))
    back = before_last_card(g)
    assert g.observation(None) == before
    assert back.history == g.history[:len(back.history)] and back.deal_queue == (1, 2, 3)
    assert back.chance_step == "deal" and back.seat_labels == g.seat_labels
    back.supply("Kd")
    assert back.cards[1] == [parse_card("Kd")]


def test_foak15_a_card_that_opened_a_betting_round_is_taken_back_with_the_round():
    g = by_hand()
    g.supply("As", "Kd", "Qc", "Jh")
    assert g.actor == 0 and g.observation(None).last_card == DealCard(3, parse_card("Jh"))
    back = before_last_card(g)
    assert back.actor is None and back.deal_queue == (3,)
    back.supply("2h")
    assert back.actor == 0 and back.round_number == 1


def test_foak15_no_card_to_take_back_after_an_action_before_any_card_or_after_the_end():
    g = by_hand()
    assert g.observation(None).last_card is None
    g.supply("As", "Kd", "Qc", "Jh")
    g.apply(Action.check())
    assert g.observation(None).last_card is None
    passive(g)
    g.supply("2c")  # discarded: it may be taken back until someone acts
    assert g.observation(None).last_card == TurnCard(parse_card("2c"), None)
    assert not before_last_card(g).discards
    for c in ("Ad", "Ac", "Ah"):
        g.supply(c)
        passive(g)
    assert g.is_terminal and g.observation(None).last_card is None
