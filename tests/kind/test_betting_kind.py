"""Betting edge cases, table stakes and side pots, replay, observation, clone, rules."""

from __future__ import annotations

import json
import random

import pytest
from kind_helpers import passive, scripted

from fourcards.cards import Card
from fourcards.errors import IllegalActionError, RulesError
from fourcards.kind import Action, ActionKind, Game, KindRules, Redeal, get_rules
from fourcards.kind.bots import RandomBot, play_deal
from fourcards.kind.history import (
    BettingRound,
    HistoryError,
    PlayerAction,
    ReturnCard,
    ReturnUncalled,
    dumps_history,
    loads_history,
)


def kinds(game):
    return {la.kind for la in game.legal_actions()}


def won(game):
    out = [0] * game.n_seats
    for a in game.awards:
        out[a.seat] += a.amount
    return out


def test_ruling8_short_call_is_all_in_and_makes_a_side_pot():
    g = scripted("2s Kd Qc Jh  Jc Jd Js", stacks=[10, 100, 100, 100])
    assert g.actor == 1
    g.apply(Action.bet(10))
    g.apply(Action.call())
    g.apply(Action.call())
    call = next(la for la in g.legal_actions() if la.kind is ActionKind.CALL)
    assert (call.min_amount, call.all_in) == (5, True)
    g.apply(Action.call())
    assert g.is_all_in(0)
    assert [(p.amount, p.eligible) for p in g.side_pots()] == [(40, (0, 1, 2, 3)), (15, (1, 2, 3))]
    while not g.is_terminal:
        passive(g)
    assert {(a.pot, a.share): (a.seat, a.amount) for a in g.awards} == {
        (0, "high"): (3, 20), (0, "low"): (0, 20), (1, "high"): (3, 8), (1, "low"): (2, 7)}
    assert g.payoffs == (10, -15, -8, 13)


def test_ruling8_side_pot_without_the_four_goes_to_highest_hand_and_low():
    g = scripted("2s Kd Qc Jh  2c 2d 2h", stacks=[10, 100, 100, 100])
    g.apply(Action.bet(10))
    g.apply(Action.call())
    g.apply(Action.call())
    g.apply(Action.call())  # seat 0 all-in for 5
    while not g.is_terminal:
        passive(g)
    assert {(a.pot, a.share): (a.seat, a.amount) for a in g.awards} == {
        (0, "high"): (0, 20), (0, "low"): (3, 20), (1, "high"): (1, 8), (1, "low"): (3, 7)}
    assert sum(g.payoffs) == 0


def test_ruling8_all_in_player_is_skipped_and_rounds_without_two_bettors_are_skipped():
    g = scripted("As 2d Qc Jh  Ac Ad Ah", stacks=[100, 8, 100, 100])
    g.apply(Action.bet(10))   # seat 0
    g.apply(Action.call())    # seat 1 all-in for 3
    g.apply(Action.fold())    # seat 2
    g.apply(Action.fold())    # seat 3
    assert ReturnUncalled(0, 7) in g.history  # the bet was called only up to 3
    assert g.is_terminal      # nobody left to bet against: the cards are turned to the end
    skipped = [op for op in g.history if isinstance(op, BettingRound) and op.skipped]
    assert len(skipped) == 2
    assert won(g) == [13, 13, 0, 0]
    assert g.payoffs == (5, 5, -5, -5)


def test_ruling8_all_in_bet_for_less_than_the_minimum():
    g = scripted("As 2d Qc Jh", stacks=[8, 100, 100, 100])
    bet = next(la for la in g.legal_actions() if la.kind is ActionKind.BET)
    assert (bet.min_amount, bet.max_amount, bet.all_in) == (3, 3, True)
    g.apply(Action.bet(3))
    assert g.full_wagers == 0 and g.level == 3
    assert ActionKind.RAISE in kinds(g)  # seat 1 has not acted: may raise


def test_short_all_in_raise_does_not_reopen_betting():
    g = scripted("As Kd Qc Jh", stacks=[100, 100, 12, 100])
    g.apply(Action.bet(5))    # seat 0
    g.apply(Action.call())    # seat 1
    raise_ = next(la for la in g.legal_actions() if la.kind is ActionKind.RAISE)
    assert (raise_.min_amount, raise_.max_amount, raise_.all_in) == (2, 2, True)
    g.apply(Action.raise_(2))  # seat 2 all-in: level 7, not a full raise
    assert g.full_wagers == 1
    assert ActionKind.RAISE in kinds(g)  # seat 3 had not acted
    g.apply(Action.call())
    assert kinds(g) == {ActionKind.FOLD, ActionKind.CALL}  # seat 0 already acted
    with pytest.raises(IllegalActionError, match="short all-in does not reopen"):
        g.apply(Action.raise_(5))
    g.apply(Action.call())
    g.apply(Action.call())
    assert g.actor is None and g.contributed == [12, 12, 12, 12]


def test_full_raise_after_short_all_in_reopens_betting():
    g = scripted("As Kd Qc Jh", stacks=[100, 100, 12, 100])
    g.apply(Action.bet(5))
    g.apply(Action.call())
    g.apply(Action.raise_(2))
    g.apply(Action.raise_(5))  # seat 3: a full raise
    assert ActionKind.RAISE in kinds(g)


def test_stack_caps_the_bet():
    g = scripted("As Kd Qc Jh", stacks=[12, 100, 100, 100])
    bet = next(la for la in g.legal_actions() if la.kind is ActionKind.BET)
    assert (bet.min_amount, bet.max_amount, bet.all_in) == (5, 7, True)
    with pytest.raises(IllegalActionError):
        g.apply(Action.bet(8))


def test_illegal_actions_leave_the_state_unchanged():
    g = scripted("As Kd Qc Jh  2c")
    g.apply(Action.bet(5))
    before = (g.observation(None).to_dict(), g.history, list(g.stacks), g.actor)
    for bad in (Action.check(), Action.bet(5), Action.raise_(11), Action.raise_(4), Action.call(3),
                Action.raise_(0)):
        with pytest.raises(IllegalActionError):
            g.apply(bad)
        assert (g.observation(None).to_dict(), g.history, list(g.stacks), g.actor) == before


def test_unparseable_actions_are_refused():
    for text in ("shove", "raise ten", "bet 5 6", ""):
        with pytest.raises(IllegalActionError):
            Action.parse(text)
    assert Action.parse("raise 10") == Action.raise_(10)
    assert Action.parse(" CALL ") == Action.call()


def test_replay_from_history_is_exact():
    g = play_deal(KindRules(), [RandomBot() for _ in range(6)], [60] * 6, random.Random(11), button=2)
    text = dumps_history(g.history)
    again = Game.from_history(loads_history(text))
    assert again.history == g.history and again.payoffs == g.payoffs
    assert json.loads(text.splitlines()[0])["op"] == "start"


def test_replay_rejects_a_tampered_history():
    g = play_deal(KindRules(), [RandomBot() for _ in range(5)], [60] * 5, random.Random(3))
    ops = list(g.history)
    i = next(i for i, op in enumerate(ops) if isinstance(op, PlayerAction) and op.kind == "call")
    ops[i] = PlayerAction(ops[i].seat, "call", ops[i].amount + 1)
    with pytest.raises((HistoryError, IllegalActionError)):
        Game.from_history(ops)
    with pytest.raises(HistoryError):
        Game.from_history(ops[1:])


def test_replay_includes_redeals():
    g = Game(KindRules(redeal=Redeal.REPLACE), [50] * 13, 0, rng=random.Random(5))
    assert any(isinstance(op, ReturnCard) for op in g.history)
    assert Game.from_history(g.history).cards == g.cards


def test_observation_never_shows_undealt_cards():
    g = Game(KindRules(), [100] * 8, 0, rng=random.Random(9))
    while g.actor is not None and g.round_number < 3:
        g.apply(next(la for la in g.legal_actions() if la.kind in (ActionKind.CHECK, ActionKind.CALL)).action())
    undealt = set(g._deck)  # the engine's private deck
    returned = {op.card for op in g.history if isinstance(op, ReturnCard)}
    text = json.dumps(g.observation(3).to_dict())
    shown = {c for c in undealt if f'"{c}"' in text}
    assert shown <= returned  # only cards already seen face up (duplicates sent back) can appear
    assert g.observation(3).cards_in_deck == len(undealt)


def test_clone_is_independent_and_continues_identically():
    g = Game(KindRules(), [100] * 6, 0, rng=random.Random(21))
    c = g.clone()
    rng1, rng2 = random.Random(4), random.Random(4)
    bot = RandomBot()
    for game, rng in ((g, rng1), (c, rng2)):
        while not game.is_terminal:
            obs = game.observation(game.actor)
            game.apply(bot.act(obs, obs.legal_actions, rng))
    assert g.history == c.history
    fresh = Game(KindRules(), [100] * 6, 0, rng=random.Random(21))
    d = fresh.clone()
    d.apply(d.legal_actions()[0].action())
    assert len(fresh.history) < len(d.history)


def test_scripted_game_waits_for_cards_then_continues():
    g = scripted("As Kd Qc")
    assert g.pending_chance == "deal" and g.actor is None
    with pytest.raises(IllegalActionError):
        g.apply(Action.check())
    with pytest.raises(Exception, match="not in the deck"):
        g.supply("As")
    g.supply("Jh")
    assert g.actor == 0


def test_rules_validation():
    with pytest.raises(RulesError, match="max_bet"):
        KindRules(min_bet=10, max_bet=5)
    with pytest.raises(RulesError, match="whole number"):
        KindRules(ante=2.5)
    with pytest.raises(RulesError, match="at most 13"):
        KindRules(max_players=14)
    with pytest.raises(RulesError, match="unknown redeal"):
        KindRules(redeal="sometimes")
    with pytest.raises(RulesError, match="unknown Four of a Kind preset"):
        get_rules("texas")
    assert get_rules("opr903").redeal is Redeal.ALL_DUPLICATES
    assert KindRules().max_wagers == 4
    assert KindRules.from_dict(KindRules(ante=3).to_dict()) == KindRules(ante=3)


def test_payoffs_refused_before_the_end():
    g = scripted("As Kd Qc Jh")
    with pytest.raises(IllegalActionError, match="only when the deal is over"):
        _ = g.payoffs
    assert Card.parse("As") in g.cards[0]


def test_ruling8_an_unmatched_bet_is_no_side_pot():
    """Side pots come from all-ins only; a bet still to be called stays a stake."""
    g = scripted("2s Kd Qc Jh  Jc Jd Js", stacks=[100, 100, 100, 100])
    g.apply(Action.bet(10))
    assert [p.amount for p in g.side_pots()] == [20]  # the four antes
    assert sum(g.stakes) == 10 and g.pot == 30


def test_rules_carry_their_preset_name():
    assert [get_rules(n).name for n in ("family", "opr903", "nickel")] == ["family", "opr903", "nickel"]
    assert get_rules("opr903", ante=10).name == "opr903+custom"
    assert KindRules.from_dict(get_rules("opr903").to_dict()) == get_rules("opr903")


def _offered(game):
    return [str(la) for la in game.legal_actions()]


def test_ruling8_no_bet_or_raise_nobody_still_in_can_answer():
    """Issue 9.1: seat 1 raises all in, seats 2 and 3 fold; seat 0 may fold or call only."""
    g = Game(KindRules(), [200, 20, 200, 200], 3, cards="Ah 9c 5d 3s".split())
    g.apply(Action.bet(5))
    g.apply(Action.raise_(10))  # seat 1 all in at 15
    g.apply(Action.fold())
    g.apply(Action.fold())
    assert g.actor == 0 and _offered(g) == ["fold", "call 10"]
    before = (g.observation(None).to_dict(), list(g.stacks), g.full_wagers)
    for bad, why in ((Action.raise_(5), "no other player still in the deal can put in more chips"),
                     (Action.raise_(10), "only call or fold"), (Action.bet(5), "already a bet")):
        with pytest.raises(IllegalActionError, match=why):
            g.apply(bad)
        assert not g.is_legal(bad)
        assert (g.observation(None).to_dict(), list(g.stacks), g.full_wagers) == before
    assert g.observation(0).legal_actions == tuple(g.legal_actions())
    g.apply(Action.call())
    assert not any(isinstance(op, PlayerAction) and op.seat == 0 and op.kind == "raise" for op in g.history)
    assert not any(isinstance(op, ReturnUncalled) for op in g.history)
    # every later round: nobody left to bet against, so no betting round needs an action
    g.supply("As", "Ad", "Ac")
    skipped = [op for op in g.history if isinstance(op, BettingRound)][1:]
    assert len(skipped) == 2 and all(op.skipped for op in skipped)
    assert g.is_terminal and g.payoffs == (5, 5, -5, -5)


def test_ruling8_a_raise_needs_someone_who_can_go_above_the_bet():
    """Chips behind are not enough: an opponent must be able to put in more than the current bet."""
    g = Game(KindRules(), [200, 13, 25, 25], 3, cards="Ah 9c 5d 3s".split())
    g.apply(Action.check())      # seat 0
    g.apply(Action.check())      # seat 1: 8 behind
    g.apply(Action.bet(10))      # seat 2: 10 behind
    g.apply(Action.raise_(10))   # seat 3 all in at 20
    assert g.actor == 0
    # seat 1 can reach 8, seat 2 can reach 20: neither above the bet of 20
    assert _offered(g) == ["fold", "call 20"]
    g.apply(Action.call())
    assert _offered(g) == ["fold", "call 8 (all-in)"]


def test_ruling8_a_raise_stays_open_while_someone_can_answer_it():
    g = Game(KindRules(), [200, 20, 200, 200], 3, cards="Ah 9c 5d 3s".split())
    g.apply(Action.bet(5))
    g.apply(Action.raise_(10))  # seat 1 all in
    g.apply(Action.call())      # seat 2 can still put in more
    g.apply(Action.fold())
    assert _offered(g) == ["fold", "call 10", "raise 5-10"]
    g.apply(Action.raise_(10))
    assert _offered(g) == ["fold", "call 10", "raise 5-10"]  # seat 0 could answer seat 2's raise


def test_ruling8_round_without_two_players_able_to_bet_needs_no_action():
    """Everyone but one all in at a round's start: the round is skipped, the dealer keeps turning."""
    g = Game(KindRules(), [200, 10, 10, 10], 3, cards="Ah 9c 5d 3s".split())
    g.apply(Action.bet(5))
    for _ in range(3):
        g.apply(Action.call())  # seats 1-3 all in
    assert g.actor is None and g.pending_chance == "turn"
    g.supply("9d")
    assert g.actor is None and g.pending_chance == "turn"
    assert [op.skipped for op in g.history if isinstance(op, BettingRound)] == [False, True]


def test_ruling6_pots_between_rounds_hold_every_chip_in():
    """Issue 9.2: once a round ends and before the next card, the pots add up to the pot."""
    g = Game(KindRules(), [200, 200, 200, 200], 3, cards="Ah 9c 5d 3s".split())
    g.apply(Action.bet(10))
    g.apply(Action.raise_(10))
    g.apply(Action.call())
    g.apply(Action.fold())
    g.apply(Action.call())
    assert g.actor is None and g.pending_chance == "turn"
    obs = g.observation(None)
    assert g.pot == obs.pot == 80
    assert sum(p.amount for p in g.side_pots()) == sum(p.amount for p in obs.pots) == 80
    assert g.stakes == [0, 0, 0, 0] and all(v.stake == 0 for v in obs.seats)
    assert obs.bet == 0 and obs.full_wagers == 0 and obs.to_call == 0
