"""Four of a Kind on the engine protocol: explicit chance steps (each dealt or turned
card, seed 001 §2.2 and §3.3), returns, replay from JSON, turns checked by player,
and players named as people see them (docs/engine.md; rules.md TP-1)."""

from __future__ import annotations

import json
import random

import pytest
from kind_helpers import passive, scripted

from fourcards.cards import parse_card
from fourcards.errors import CardError, HistoryError, IllegalActionError, IllegalChanceError
from fourcards.kind import Action, Game, KindRules, Redeal
from fourcards.kind.bots import RandomBot, play_deal
from fourcards.kind.history import DealCard, Shuffle, TurnCard


def explicit(n: int = 4, **kw) -> Game:
    """A game that waits at every chance step (no scripted cards)."""
    return Game(KindRules(**kw), [100] * n, n - 1, cards=())


def test_opr903_2_2_each_dealt_card_is_a_chance_step():
    g = explicit()
    assert g.chance_step == "deal" and g.actor is None and g.legal_actions() == []
    rec = g.apply_chance(random.Random(1))
    assert isinstance(rec, DealCard) and rec.seat == 0 and g.history[-1] == rec
    with pytest.raises(IllegalChanceError, match="the next card is dealt to seat 2, not seat 4"):
        g.apply(DealCard(3, parse_card("2c")))
    with pytest.raises(IllegalChanceError, match="not in the deck"):
        g.apply(DealCard(1, rec.card))
    with pytest.raises(IllegalActionError, match="cannot turn a card now"):
        g.apply(TurnCard(parse_card("2c"), None))
    for card in ("Kd", "Qc", "Jh"):
        g.apply(DealCard(g.history[-1].seat + 1, parse_card(card)))
    assert g.chance_step is None and g.actor is not None  # the betting opens
    with pytest.raises(IllegalActionError, match="no card is dealt or turned now"):
        g.apply_chance()


def test_seed000_a_dealt_duplicate_goes_back_and_the_same_seat_is_dealt_again():
    g = explicit(redeal=Redeal.REPLACE)
    g.apply(DealCard(0, parse_card("7s")))
    g.apply(DealCard(1, parse_card("7d")))  # a seven again: back to the deck, reshuffle
    assert isinstance(g.history[-1], Shuffle) and g.chance_step == "deal"
    g.apply(DealCard(1, parse_card("7d")))  # the returned card may come again (and goes back again)
    g.apply(DealCard(1, parse_card("8d")))
    assert [c for c in g.cards[1]] == [parse_card("8d")]


def test_opr903_3_3_a_turned_card_goes_to_its_rank_holder_or_the_discards():
    g = scripted("As Kd Qc Jh")  # nothing more scripted: the game waits for each turned card
    passive(g)
    assert g.chance_step == "turn"
    with pytest.raises(IllegalChanceError, match="the turned Ks goes to seat 2, not as recorded"):
        g.apply(TurnCard(parse_card("Ks"), None))
    with pytest.raises(IllegalChanceError, match="the turned 2c goes to the discards"):
        g.apply(TurnCard(parse_card("2c"), 0))
    before = g.observation(None)
    with pytest.raises(IllegalActionError, match="cannot deal a card now"):
        g.apply(DealCard(0, parse_card("2c")))
    assert g.observation(None) == before
    g.apply(TurnCard(parse_card("Ks"), 1))
    assert g.cards[1] == [parse_card("Kd"), parse_card("Ks")] and g.actor is not None


def test_design_apply_chance_with_a_seed_reproduces_the_deal():
    def deal(seed: int) -> list[dict]:
        g, rng = explicit(6), random.Random(seed)
        while not g.is_terminal:
            if g.chance_step:
                g.apply_chance(rng)
            else:
                passive(g)
        return [op.to_dict() for op in g.history]

    assert deal(5) == deal(5) and deal(5) != deal(6)


def test_design_returns_read_zero_until_the_end_then_the_net_chips():
    g = scripted("As Kd Qc Jh")
    assert g.returns() == (0, 0, 0, 0)
    with pytest.raises(IllegalActionError):
        g.payoffs  # noqa: B018 - the deprecated alias still raises before the end
    for card in ("Ad", "Ac", "Ah"):
        passive(g)
        assert g.returns() == (0, 0, 0, 0)
        g.apply(TurnCard(parse_card(card), 0))
    assert g.is_terminal and g.returns() == g.payoffs == (5, -5, -5, 5)  # aces high, the jack low (§4.2)


def test_design_an_action_naming_its_player_is_checked_for_the_turn():
    g = scripted("As Kd Qc Jh")
    assert g.actor == 0
    before = (g.observation(None), g.history)
    with pytest.raises(IllegalActionError, match="^seat 3 cannot act out of turn: seat 1 is to act"):
        g.apply(Action("check", 0, player=2))
    with pytest.raises(IllegalActionError, match="^seat 10 is not at this table"):
        g.apply(Action("check", 0, player=9))
    assert (g.observation(None), g.history) == before
    g.apply(Action("check", 0, player=0))
    assert g.legal_actions(0) == [] and g.legal_actions(1) == g.legal_actions()
    assert all(la.player == 1 for la in g.legal_actions())
    with pytest.raises(IllegalActionError, match="seat 5 is not at this table"):
        g.observation(4)


def test_design_replay_takes_records_or_json_and_checks_the_rules():
    g = play_deal(KindRules(), [RandomBot() for _ in range(5)], [60] * 5, random.Random(4), button=1)
    records = json.loads(json.dumps([op.to_dict() for op in g.history]))
    again = Game.replay(KindRules(), records)
    assert again.history == g.history and again.returns() == g.returns()
    assert Game.replay(None, g.history).observation(None) == g.observation(None)
    with pytest.raises(HistoryError, match="other rules"):
        Game.replay(KindRules(max_bet=20), records)


def test_design_chance_records_with_bad_cards_are_card_errors_too():
    g = explicit()
    with pytest.raises(CardError):  # IllegalChanceError is both
        g.apply(DealCard(1, parse_card("As")))
