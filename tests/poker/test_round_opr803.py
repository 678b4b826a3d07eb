"""The Four Card Poker round (seed 002 = OPR-803 live rules; seed 004 online rules).

Test names cite the clause: ``opr803_3_1_a`` is seed 002 §3.1(a); ``seed004_*`` the
online rules page; ``design_*`` a ruling in docs/rules.md. Players are 0-based (engine
protocol); messages name them as seats 1..n.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fourcards.cards import FULL_DECK, parse_cards
from fourcards.errors import CardError, HistoryError, IllegalActionError
from fourcards.poker.round import (
    ActionKind,
    Deal,
    Fold,
    PlaceWagers,
    Play,
    PokerRound,
    Start,
    Void,
    action_from_dict,
    settle_hand,
)
from fourcards.poker.rules import PRESETS, PokerRules, get_rules

LIVE, ONLINE = PRESETS["live"], PRESETS["online"]


def one_seat(rules=LIVE, ante=10, aces_up=0, player="9h 9d 9s Kc 3d", dealer="Qd Qs 8c 8h 4s 2d", up="Qd"):
    r = PokerRound(rules, 1)
    r.place_wagers(0, ante, aces_up)
    r.apply(Deal.of({0: player}, dealer, up))
    return r


def test_opr803_example_three_nines_3x_play_wins_60_in_total():
    r = one_seat()
    r.play(0, 30)
    res = r.results[0]
    assert res.wagers == {"ante": 10, "play": 30, "ante_bonus": 20, "aces_up": 0}
    assert res.net == 60 and r.returns() == (60,) and r.house_net == -60


def test_opr803_example_tie_goes_to_the_player_even_money():
    r = one_seat(player="Ah Ks 8d 5c 2h", dealer="Ad Kc 8s 5h 3c 2s", up="Ad")
    r.play(0, 10)
    assert r.results[0].player_hand == r.results[0].dealer_hand
    assert r.results[0].wagers["ante"] == 10 and r.results[0].wagers["play"] == 10
    assert r.returns()[0] == 20


def test_opr803_3_1_a_fold_loses_the_ante():
    r = one_seat()
    r.fold(0)
    assert r.returns() == (-10,)
    assert r.results[0].wagers["ante_bonus"] == 0  # seed 004: ante bonus only with a play bet


def test_opr803_dealer_better_loses_ante_and_play_but_ante_bonus_still_paid():
    # player trips 3s; dealer four queens: the ante bonus pays whatever the dealer holds
    r = one_seat(player="3h 3d 3s Kc 7d", dealer="Qd Qs Qc Qh 4s 2d")
    r.play(0, 20)
    assert r.results[0].wagers == {"ante": -10, "play": -20, "ante_bonus": 20, "aces_up": 0}
    assert r.returns()[0] == -10


def test_opr803_article5_ante_bonus_25_20_2():
    quads = one_seat(player="9h 9d 9s 9c 3d", dealer="Qd Qs 8c 8h 4s 2d")
    quads.play(0, 10)
    assert quads.results[0].wagers["ante_bonus"] == 250
    sf = one_seat(player="5h 6h 7h 8h Kd", dealer="Qd Qs 8c 2h 4s 2d")
    sf.play(0, 10)
    assert sf.results[0].wagers["ante_bonus"] == 200


@pytest.mark.parametrize("player,pays", [
    ("As Ad Ac Ah 2c", 50), ("5h 6h 7h 8h Kd", 40), ("3h 3d 3s Kc 7d", 8), ("2h 6h 9h Jh Ks", 5),
    ("5h 6d 7c 8s Kd", 4), ("Th Td 4c 4s 2d", 3), ("Ah Ad 4c 7s 2d", 1), ("Kh Kd 4c 7s 2d", None),
    ("Ah Kd 4c 7s 2d", None),
])
def test_opr803_article6_aces_up_50_40_8_5_4_3_1(player, pays):
    r = one_seat(player=player, dealer="Qd Qs 8c 9c Js 3c", ante=10, aces_up=5)
    r.fold(0)
    expected = -5 if pays is None else 5 * pays
    assert r.results[0].wagers["aces_up"] == expected  # settled on a fold too (seed 004)


def test_opr803_aces_up_alone_is_allowed_and_has_no_decision():
    r = PokerRound(LIVE, 2)
    r.place_wagers(0, 0, 5)
    r.place_wagers(1, 10)
    r.apply(Deal.of({0: "Ah Ad 4c 7s 2d", 1: "Kh Kd 5c 8s 3d"}, "Qd Qs 8c 9c 4s 3c", "Qd"))
    assert r.actor == 1
    with pytest.raises(IllegalActionError, match="seat 1 has no ante"):
        r.fold(0)
    r.play(1, 10)
    assert r.returns() == (5, 20)  # kings beat the dealer's queens


def test_opr803_3_1_b_play_bet_any_whole_amount_1x_to_3x():
    for amount in (10, 17, 30):
        r = one_seat()
        r.play(0, amount)
        assert r.results[0].wagers["play"] == amount
    for bad in (9, 31, 0, -10):
        r = one_seat()
        with pytest.raises(IllegalActionError, match="play bet"):
            r.play(0, bad)
        assert r.phase.value == "decisions" and r.history[-1].kind == "deal"


def test_seed004_play_bet_exactly_1x_or_3x():
    r = one_seat(rules=ONLINE)
    with pytest.raises(IllegalActionError, match="must be 10 or 30"):
        r.play(0, 20)
    r.play(0, 30)
    assert r.returns()[0] == 60


def test_seed004_aces_up_needs_an_ante():
    r = PokerRound(ONLINE, 1)
    with pytest.raises(IllegalActionError, match="needs an ante"):
        r.place_wagers(0, 0, 5)
    assert r.wagers == {} and r.history == (Start(1),)


def test_seed004_win_cap_8400_includes_side_bets():
    r = one_seat(rules=ONLINE, ante=300, aces_up=200, player="As Ad Ac Ah 2c", dealer="Qd Qs 8c 9c 4s 3d")
    r.play(0, 900)
    res = r.results[0]
    # ante 300 + play 900 + bonus 25x300 + Aces Up 50x200 = 18,700 -> capped at 8,400
    assert sum(res.wagers.values()) == 18_700
    assert res.net == 8_400 and res.win_cap_adjustment == -10_300


def test_design_no_win_cap_in_live_rules():
    r = one_seat(ante=300, aces_up=200, player="As Ad Ac Ah 2c", dealer="Qd Qs 8c 9c 4s 3d")
    r.play(0, 900)
    assert r.results[0].net == 300 + 900 + 7_500 + 10_000


def test_seed004_malfunction_voids_all_pays_and_plays():
    r = one_seat()
    r.void("malfunction")
    assert r.phase.value == "voided" and r.returns() == (0,)
    with pytest.raises(IllegalActionError, match="voided"):
        r.play(0, 10)
    with pytest.raises(IllegalActionError):
        r.void()


def test_design_settled_round_cannot_be_voided():
    r = one_seat()
    r.play(0, 10)
    with pytest.raises(IllegalActionError, match="already settled"):
        r.void()
    assert r.returns() == (60 - 20,)


def test_decisions_in_seat_order_out_of_turn_refused():
    r = PokerRound(LIVE, 3)
    for p in (0, 1, 2):
        r.place_wagers(p, 10)
    r.deal(random.Random(3))
    assert r.actor == 0
    before = r.clone()
    with pytest.raises(IllegalActionError, match="seat 2 cannot act out of turn: seat 1 decides first"):
        r.play(1, 10)
    assert r.decisions == before.decisions and r.history == before.history
    r.fold(0)
    r.play(1, 10)
    r.play(2, 30)
    assert r.is_terminal


@pytest.mark.parametrize("action,msg", [
    (PlaceWagers(2, 10), "seat 3 is not at this table"),
    (PlaceWagers(0, 0, 0), "seat 1: place an ante"),
    (PlaceWagers(0, 5000), "outside the table limits"),
    (PlaceWagers(0, -5), ">= 0"),
    (Fold(0), "wagers phase"),
    (Play(0, 10), "wagers phase"),
])
def test_illegal_actions_before_the_deal_change_nothing(action, msg):
    r = PokerRound(LIVE, 2)
    with pytest.raises(IllegalActionError, match=msg):
        r.apply(action)
    assert r.wagers == {} and r.history == (Start(2),) and r.phase.value == "wagers"


def test_deal_refused_without_wagers_and_with_bad_cards():
    r = PokerRound(LIVE, 1)
    with pytest.raises(IllegalActionError, match="no seat has placed a wager"):
        r.deal()
    r.place_wagers(0, 10)
    with pytest.raises(CardError, match="duplicate card"):
        r.apply(Deal.of({0: "9h 9d 9s Kc 3d"}, "9h Qs 8c 8h 4s 2d", "Qs"))
    with pytest.raises(CardError, match="up card"):
        r.apply(Deal.of({0: "9h 9d 9s Kc 3d"}, "Qd Qs 8c 8h 4s 2d", "Ah"))
    with pytest.raises(CardError, match="expected 5 cards"):
        Deal.of({0: "9h 9d 9s Kc"}, "Qd Qs 8c 8h 4s 2d", "Qd")
    assert r.phase.value == "wagers" and len(r.history) == 2  # the start record and the wagers


def test_double_wagers_and_double_decision_refused():
    r = PokerRound(LIVE, 1)
    r.place_wagers(0, 10)
    with pytest.raises(IllegalActionError, match="seat 1 has already placed"):
        r.place_wagers(0, 20)
    assert r.wagers[0].ante == 10


def test_observation_hides_dealer_hole_cards_and_other_seats_until_showdown():
    r = PokerRound(LIVE, 2)
    r.place_wagers(0, 10)
    r.place_wagers(1, 10)
    deal = r.deal(random.Random(11))
    obs = r.observation(0)
    text = repr(obs) + repr(obs.to_dict())
    hidden = [c for c in deal.dealer if c != deal.up_card] + list(dict(deal.hands)[1])
    for card in hidden:
        assert f"'{card}'" not in text and repr(card) not in text
    assert obs.players[0].cards == dict(deal.hands)[0]
    assert obs.to_dict()["players"][0]["cards"] == [str(c) for c in dict(deal.hands)[0]]
    assert obs.up_card == deal.up_card
    r.play(0, 10)
    r.fold(1)
    shown = r.observation(0)
    assert shown.dealer_cards == deal.dealer
    assert shown.players[1].cards is None  # a folded hand stays mucked
    assert shown.players[1].result.player_hand is None and shown.players[1].result.player_best is None
    assert r.observation(1).players[1].cards is not None
    with pytest.raises(IllegalActionError, match="seat 9 is not at this table"):
        r.observation(8)


def test_replay_from_history_records_is_exact():
    r = PokerRound(LIVE, 3)
    r.place_wagers(0, 10, 5)
    r.place_wagers(1, 25)
    r.place_wagers(2, 0, 10)
    r.deal(random.Random(5))
    r.play(0, 30)
    r.fold(1)
    again = PokerRound.replay(LIVE, [a.to_dict() for a in r.history])
    assert again.returns() == r.returns() and again.history == r.history


def test_settle_hand_matches_round():
    p, d = parse_cards("9h 9d 9s Kc 3d"), parse_cards("Qd Qs 8c 8h 4s 2d")
    assert settle_hand(LIVE, p, d, ante=10, play=30).net == 60


def test_rules_with_custom_tables_change_pays():
    rules = get_rules("live", ante_bonus="30/15/2", aces_up="50/40/7/5/4/3/1")
    r = one_seat(rules=rules, player="9h 9d 9s 9c 3d", aces_up=10)
    r.play(0, 10)
    assert r.results[0].wagers["ante_bonus"] == 300 and r.results[0].wagers["aces_up"] == 500


# ------------------------------------------------------------------ properties

seat_plan = st.tuples(st.integers(0, 50), st.integers(0, 20), st.sampled_from(["fold", 1, 2, 3]))


@given(seed=st.integers(0, 2**32), plans=st.lists(seat_plan, min_size=1, max_size=9),
       online=st.booleans(), void_at=st.one_of(st.none(), st.integers(0, 12)))
def test_property_chips_conserved_cards_once_void_refunds(seed, plans, online, void_at):
    rules = ONLINE if online else LIVE
    r = PokerRound(rules, len(plans))
    balances = {p: 1_000_000 for p in range(r.num_players)}
    start = dict(balances)
    house = 0
    steps = 0
    for seat, (ante, aces_up, _) in zip(range(r.num_players), plans):
        if ante == 0 and (aces_up == 0 or rules.aces_up_requires_ante):
            ante = 1
        r.place_wagers(seat, ante, aces_up)
    r.deal(random.Random(seed))
    dealt = [c for _, h in r.hands.items() for c in h] + list(r.dealer_cards)
    assert len(dealt) == len(set(dealt)) and set(dealt) <= set(FULL_DECK)
    for seat, (_, _, choice) in zip(range(r.num_players), plans):
        if void_at is not None and steps == void_at and not r.is_terminal:  # Aces Up alone settles at the deal
            r.void()
            break
        steps += 1
        if r.actor != seat:
            continue
        if choice == "fold":
            r.fold(seat)
        else:
            mult = choice if rules.play_any_amount or choice in rules.play_multiples else 3
            r.play(seat, mult * r.wagers[seat].ante)
    if not r.is_terminal:
        r.void()
    for s, net in enumerate(r.returns()):
        balances[s] += net
    house += r.house_net
    assert sum(balances.values()) - sum(start.values()) + house == 0
    if r.phase.value == "voided":
        assert balances == start


def test_rules_validation_errors():
    from fourcards.errors import RulesError
    from fourcards.poker.rules import AcesUpTable, AnteBonusTable

    with pytest.raises(RulesError, match="negative"):
        AcesUpTable(50, 40, 8, 5, 4, 3, -1)
    with pytest.raises(RulesError, match="outside 1x-3x"):
        PokerRules(play_any_amount=False, play_multiples=(1, 4))
    with pytest.raises(RulesError, match="1 <= min <= max <= 3"):
        PokerRules(min_play_multiple=0)
    with pytest.raises(RulesError, match="whole number"):
        AnteBonusTable(25, 20, 2.5)
    with pytest.raises(RulesError, match="unknown rules preset"):
        get_rules("vegas")
    with pytest.raises(RulesError, match="malformed Aces Up table"):
        get_rules("live", aces_up="50/40/x/5/4/3/1")
    with pytest.raises(RulesError, match="seats per round"):
        PokerRules(max_seats=10)


def test_void_action_record_round_trips():
    r = one_seat()
    r.apply(Void("dealer exposed a card"))
    again = PokerRound.replay(LIVE, [a.to_dict() for a in r.history])
    assert again.void_reason == "dealer exposed a card" and again.returns() == (0,)


def test_legal_actions_are_typed_with_amounts():
    r = PokerRound(ONLINE, 2)
    assert {a.kind for a in r.legal_actions()} == {ActionKind.PLACE_WAGERS, ActionKind.VOID}
    assert r.chance_step is None
    r.place_wagers(0, 10)
    assert ActionKind.DEAL not in {a.kind for a in r.legal_actions()} and r.chance_step == "deal"
    r.deal(random.Random(2))
    fold, play, void = r.legal_actions()
    assert (fold.kind, fold.player, play.kind, void.kind) == ("fold", 0, "play", "void")
    assert play.amounts == (10, 30) and play.allows(Play(0, 30)) and not play.allows(Play(0, 20))
    assert not play.allows(Play(1, 30))
    live = one_seat()
    play = live.legal_actions()[1]
    assert (play.min_amount, play.max_amount, play.amounts) == (10, 30, None)
    assert live.observation(0).to_dict()["legal_actions"][1] == {"kind": "play", "player": 0, "min_amount": 10,
                                                                  "max_amount": 30}


def test_design_legacy_seat_records_replay_as_players():
    """Records stored before the engine protocol (the web app's databases) name 1-based
    table seats under "seat" and a deal's hands by seat; seat s is player s - 1."""
    legacy = [
        {"kind": "place_wagers", "seat": 2, "ante": 10, "aces_up": 5},
        {"kind": "place_wagers", "seat": 5, "ante": 10, "aces_up": 0},
        {"kind": "deal", "hands": {"2": ["9h", "9d", "9s", "Kc", "3d"], "5": ["Ah", "Kd", "7c", "4s", "2d"]},
         "dealer": ["Qd", "Qs", "8c", "8h", "4h", "2c"], "up_card": "Qd"},
        {"kind": "play", "seat": 2, "amount": 30},
        {"kind": "fold", "seat": 5},
    ]
    with pytest.raises(HistoryError, match="players=n"):
        PokerRound.replay(LIVE, legacy)
    r = PokerRound.replay(LIVE, legacy, players=9)
    assert sorted(r.wagers) == [1, 4] and r.returns()[1] == 60 + 5 * 8 and r.returns()[4] == -10
    assert r.history[1] == PlaceWagers(1, 10, 5) and r.history[4] == Play(1, 30) and r.history[5] == Fold(4)
    assert action_from_dict(r.history[3].to_dict()) == r.history[3]
    assert r.history[3].to_dict()["hands"][0] == {"player": 1, "cards": ["9h", "9d", "9s", "Kc", "3d"]}
    assert PokerRound.replay(LIVE, [a.to_dict() for a in r.history]).returns() == r.returns()
    with pytest.raises(HistoryError, match="of 9 players, not 3"):
        PokerRound.replay(LIVE, r.history, players=3)
    with pytest.raises(HistoryError, match="malformed"):
        action_from_dict({"kind": "fold"})


def test_design_engine_protocol_chance_step_returns_and_start_record():
    r = PokerRound(LIVE, 3)
    assert r.history == (Start(3),) and r.returns() == (0, 0, 0) and r.chance_step is None
    with pytest.raises(IllegalActionError, match="no seat has placed a wager"):
        r.apply_chance()
    with pytest.raises(IllegalActionError, match="start record"):
        r.apply(Start(3))
    r.place_wagers(2, 10)
    assert r.chance_step == "deal" and r.actor is None
    assert [la.player for la in r.legal_actions() if la.kind == "place_wagers"] == [0, 1]
    deal = r.apply_chance(random.Random(9))
    assert r.history[-1] == deal and r.chance_step is None and r.actor == 2 and r.returns() == (0, 0, 0)
    obs = r.observation(2)
    assert obs.player == 2 and [la.kind.value for la in obs.legal_actions] == ["fold", "play"]
    assert obs.to_dict()["players"][2]["cards"] == [str(c) for c in deal.hands[0][1]]
    assert r.observation(None).legal_actions == () and r.observation(1).players[2].cards is None
    r.fold(2)
    assert r.returns() == (0, 0, -10) and r.house_net == 10
    with pytest.raises(IllegalActionError, match="^cannot fold for seat 3: the round is in the settled phase"):
        r.fold(2)
    with pytest.raises(IllegalActionError, match="seat 4 is not at this table"):
        r.legal_actions(3)
