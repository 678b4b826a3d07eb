"""Issue 29 part B, the table's rules as pure tests of ``apply(state, command, now, rng)``:
pre-actions and away (docs/rules.md TP-12), the time bank (TP-13), buy-in rules (TP-14), payment
handles (TP-15), the night in numbers kept per deal and per person, and the views' new keys
(why no deal, why each share went where it did, your best four, the dealer's best four)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from tablehelpers import NOW, Table, new_state, snapshot, th
from test_table_commands import bots_play, kind, people, poker, refused

from fourcards.table import (
    Act,
    Close,
    Configure,
    Decide,
    Join,
    Leave,
    Move,
    Pause,
    PreAct,
    Resume,
    SetAway,
    SetHandle,
    SetStatus,
    Sit,
    StartDeal,
    TableError,
    Timeout,
    TopUp,
    VoidDeal,
)
from fourcards.table.clock import clock_view, due, player_seat
from fourcards.table.history import settlement
from fourcards.table.numbers import night
from fourcards.table.settleup import settle_up
from fourcards.table.views import Extras, view

NAMES = ("Ann", "Ben", "Cat", "Dan")


def four(**spec: Any) -> Table:
    """Ann (host), Ben, Cat and Dan at a Four of a Kind table, no bots, a deal started."""
    t = Table(new_state("kind", **{"turn_clock": 0, **spec}))
    t.run(Sit("Ann", th("Ann"), is_host=True))
    people(t, *NAMES[1:])
    t.run(StartDeal(t.pid("Ann")))
    return t


def actor(t: Table) -> str:
    return player_seat(t.state, t.state.deal.game.actor).name


def order(t: Table) -> list[str]:
    """The people in turn order from the one to act (clockwise by engine player)."""
    deal = t.state.deal
    n = len(deal.seats)
    first = deal.game.actor
    return [deal.seats.name((first + i) % n) for i in range(n)]


def me(t: Table, name: str) -> dict[str, Any]:
    return view(t.state, t.state.people[t.pid(name)], None, Extras(now=t.now))


# ------------------------------------------------------------ TP-12: pre-actions


def test_tp12_a_check_chosen_ahead_is_made_the_moment_the_turn_comes() -> None:
    t = four()
    first, second, third, _ = order(t)
    out = t.run(PreAct(t.pid(second), "check"))
    assert out.answer["pre_action"]["kind"] == "check"
    assert me(t, second)["pre_actions"]["chosen"]["kind"] == "check"
    out = t.run(Act(t.pid(first), Move("check")))
    assert f"{second} checks (chosen ahead)" in out.lines  # in the same change: nobody waited
    assert actor(t) == third
    assert t.state.people[t.pid(second)].pre is None  # used up: one turn


def test_tp12_a_bet_clears_check_and_call_but_never_fold_to_any_bet() -> None:
    t = four()
    first, second, third, fourth = order(t)
    t.run(PreAct(t.pid(second), "check"))
    t.run(PreAct(t.pid(third), "fold"))
    t.run(PreAct(t.pid(fourth), "call_any"))
    t.run(Act(t.pid(first), Move("bet", amount=5)))
    # the amount to call changed: "check" is gone, the person acts themselves
    assert actor(t) == second and t.state.people[t.pid(second)].pre is None
    assert me(t, second)["pre_actions"] is None  # it is their turn: act now
    out = t.run(Act(t.pid(second), Move("call")))
    assert f"{third} folds (chosen ahead: fold to any bet)" in out.lines
    assert f"{fourth} calls 5 (chosen ahead: call any)" in out.lines


def test_tp12_call_of_an_amount_is_cleared_by_a_raise_call_any_stands() -> None:
    t = four()
    first, second, third, fourth = order(t)
    t.run(Act(t.pid(first), Move("bet", amount=5)))
    t.run(PreAct(t.pid(third), "call"))
    t.run(PreAct(t.pid(fourth), "call_any"))
    assert t.state.people[t.pid(third)].pre.to_call == 5
    out = t.run(Act(t.pid(second), Move("raise", amount=5)))  # to call: 10 now
    assert t.state.people[t.pid(third)].pre is None and actor(t) == third
    assert not any("chosen ahead" in line for line in out.lines)
    out = t.run(Act(t.pid(third), Move("call")))
    assert f"{fourth} calls 10 (chosen ahead: call any)" in out.lines


def test_tp12_check_fold_folds_facing_a_bet_and_fold_to_any_bet_checks_while_nobody_bets() -> None:
    t = four()
    first, second, third, fourth = order(t)
    t.run(PreAct(t.pid(second), "fold"))
    t.run(PreAct(t.pid(fourth), "check_fold"))
    out = t.run(Act(t.pid(first), Move("check")))
    assert f"{second} checks (chosen ahead: fold to any bet)" in out.lines
    assert t.state.people[t.pid(second)].pre.kind == "fold"  # it stands until it folds
    out = t.run(Act(t.pid(third), Move("bet", amount=5)))
    assert f"{fourth} folds (chosen ahead: check/fold)" in out.lines


def test_tp12_pre_action_refusals_change_nothing() -> None:
    t = four()
    first, second, *_ = order(t)
    refused(t, PreAct(t.pid(first), "check"), 409, "it is your turn: act now")
    refused(t, PreAct(t.pid(second), "call"), 409, "nothing to call")
    refused(t, PreAct(t.pid(second), "raise"), 422, "choose one of")
    t.run(Act(t.pid(first), Move("bet", amount=5)))
    refused(t, PreAct(t.pid(order(t)[1]), "check"), 409, "you face a bet of 5 to call")
    p = poker()
    people(p, "Ben")
    refused(p, PreAct(p.pid("Ben"), "fold"), 409, "no betting rounds")
    k = kind(bots=3)
    refused(k, PreAct(k.pid("Ann"), "check"), 409, "no deal is in progress")


def test_tp12_a_choice_goes_with_the_deal() -> None:
    t = four()
    first, _, third, _ = order(t)
    t.run(PreAct(t.pid(third), "fold"))
    t.run(Act(t.pid(first), Move("check")))
    assert t.state.people[t.pid(third)].pre is not None
    t.run(VoidDeal(t.pid("Ann"), "test"))
    assert all(p.pre is None for p in t.state.people.values())


# ------------------------------------------------------------ TP-12: away


def test_tp12_an_away_player_never_costs_the_table_a_clock() -> None:
    t = Table(new_state("kind", turn_clock=30))
    t.run(Sit("Ann", th("Ann"), is_host=True))
    people(t, "Ben", "Cat", "Dan")
    t.run(SetAway(t.pid("Ben"), t.seat("Ben"), True))
    assert me(t, "Cat")["players"][1]["away"] is True
    ben = t.pid("Ben")
    deals = 0
    for _ in range(400):
        if not t.state.in_progress:
            if deals == 3:
                break
            t.run(StartDeal(t.pid("Ann")))
            deals += 1
            assert t.state.deal.seats.player(player_id=ben) is not None  # Ben stays dealt in
        key = t.state.clock.key
        assert key is not None
        person = player_seat(t.state, key[2])
        assert person.player_id != ben  # Ben never holds the turn after a change
        assert t.state.clock.deadline == t.now + 30  # a person's clock: never Ben's
        view_ = me(t, person.name)
        kinds = [a["kind"] for a in view_["actions"]]
        t.run(Act(person.player_id, Move("bet", amount=5) if "bet" in kinds and person.name == "Ann" else
                  Move("check") if "check" in kinds else Move("call")))
    assert deals == 3
    log = " ".join(line for o in t.outcomes for line in o.lines)
    assert "Ben checks (away)" in log or "Ben folds (away)" in log
    assert "Ben's time ran out" not in log
    assert t.state.people[ben].timeouts == 0 and t.state.people[ben].status == "playing"


def test_tp12_away_on_ones_turn_acts_at_once_waits_for_a_pause_and_ends_with_a_move() -> None:
    t = four(turn_clock=30)
    first, second, *_ = order(t)
    out = t.run(SetAway(t.pid(first), t.seat(first), True))
    assert f"{first} checks (away)" in out.lines and actor(t) == second
    t.run(Pause(t.pid("Ann")))
    t.run(SetAway(t.pid(second), t.seat(second), True))
    assert actor(t) == second  # paused: nobody acts, the away seat neither
    out = t.run(Resume(t.pid("Ann")))
    assert f"{second} checks (away)" in out.lines
    t.run(SetAway(t.pid(second), t.seat(second), False))
    assert t.state.people[t.pid(second)].is_away is False
    # the host puts a seat away; only its person or the host may
    refused(t, SetAway(t.pid(second), t.seat(first), False), 403, "only the table's host")
    t.run(SetAway(t.pid("Ann"), t.seat(first), False))
    assert t.state.people[t.pid(first)].is_away is False


# ------------------------------------------------------------ TP-13: the time bank


def test_tp13_the_time_bank_is_spent_only_after_the_turn_clock_runs_out_and_is_shown() -> None:
    t = Table(new_state("kind", turn_clock=10))
    t.run(Sit("Ann", th("Ann"), is_host=True))
    people(t, *NAMES[1:])
    out = t.run(Configure(t.pid("Ann"), time_bank=30))
    assert out.lines == ("The host sets a time bank of 30 s per person for the night (spent after the turn clock "
                         "runs out)",)
    t.run(StartDeal(t.pid("Ann")))
    who = actor(t)
    assert t.state.clock.deadline == NOW + 40 and t.state.clock.bank == 30
    c = clock_view(t.state, NOW + 5)
    assert c["seconds"] == 10 and c["bank"] == 30 and c["bank_left"] == 30 and c["in_bank"] is False
    c = clock_view(t.state, NOW + 15)
    assert c["in_bank"] is True and c["bank_left"] == 25 and c["seconds_left"] == 25
    refused(t, Timeout(t.state.clock.key), 409, "the turn clock has time left")  # 10 s in: the bank runs
    t.now = NOW + 15
    refused(t, Timeout(t.state.clock.key), 409, "the turn clock has time left")
    t.run(Act(t.pid(who), Move("check")), at=NOW + 15)
    assert t.state.people[t.pid(who)].bank_used == 5
    assert me(t, who)["you"]["time_bank"] == 25
    # a turn answered within the turn clock spends nothing
    nxt = actor(t)
    t.run(Act(t.pid(nxt), Move("check")), at=NOW + 20)
    assert t.state.people[t.pid(nxt)].bank_used == 0


def test_tp13_the_time_runs_out_only_when_the_bank_is_spent_and_the_bank_is_for_the_night() -> None:
    t = Table(new_state("kind", turn_clock=10))
    t.run(Sit("Ann", th("Ann"), is_host=True))
    people(t, *NAMES[1:])
    t.run(Configure(t.pid("Ann"), time_bank=20))
    t.run(StartDeal(t.pid("Ann")))
    who = actor(t)
    key = t.state.clock.key
    assert due(t.state, NOW + 29.9, 0.0) is None and due(t.state, NOW + 30, 0.0) == ("timeout", key)
    out = t.run(Timeout(key), at=NOW + 30)
    assert f"{who}'s time ran out" in out.lines
    assert t.state.people[t.pid(who)].bank_used == 20
    # the bank is spent for the night: the next turn of that person has the turn clock alone
    t.run(Configure(t.pid("Ann"), time_bank=25))  # the host gives 5 s more to everyone
    assert me(t, who)["you"]["time_bank"] == 5


def test_tp13_pause_and_resume_keep_the_bank_unspent() -> None:
    t = Table(new_state("kind", turn_clock=10))
    t.run(Sit("Ann", th("Ann"), is_host=True))
    people(t, *NAMES[1:])
    t.run(Configure(t.pid("Ann"), time_bank=20))
    t.run(StartDeal(t.pid("Ann")))
    who = actor(t)
    t.run(Pause(t.pid("Ann")), at=NOW + 5)
    assert t.state.clock.left == 25 and t.state.clock.bank == 20
    t.run(Resume(t.pid("Ann")), at=NOW + 100)
    assert t.state.clock.deadline == NOW + 125 and t.state.clock.bank == 20
    t.run(Act(t.pid(who), Move("check")), at=NOW + 104)  # within the 5 s of turn clock left
    assert t.state.people[t.pid(who)].bank_used == 0


# ------------------------------------------------------------ TP-14: buy-in rules


def test_tp14_a_new_seat_buys_in_within_the_hosts_limits() -> None:
    t = kind(bots=0, starting_chips=1000)
    out = t.run(Configure(t.pid("Ann"), min_buy_in=500, max_buy_in=2000))
    assert out.lines == ("The host sets the buy-in: 500 to 2,000 chips",)
    t.run(Join("Ben", th("Ben"), 1500))
    assert t.balance("Ben") == 1500 and "Ben sits at seat 2 with 1,500 chips" in t.state.log
    refused(t, Join("Cat", th("Cat"), 2500), 409, "a buy-in of 2,500 chips is outside this table's limits: "
                                                  "500 to 2,000 chips")
    refused(t, Join("Cat", th("Cat"), 100), 409, "500 to 2,000 chips")
    t.run(Configure(t.pid("Ann"), min_buy_in=1200))
    t.run(Join("Cat", th("Cat")))
    assert t.balance("Cat") == 1200  # the table's 1,000 brought within the limits
    # who left gets their own chips back: no buy-in
    t.run(Leave(t.pid("Ben"), t.seat("Ben")))
    t.run(Join("Ben", th("Ben2"), 2000))
    assert t.balance("Ben") == 1500


def test_tp14_a_seat_request_carries_its_buy_in_to_the_host() -> None:
    t = kind(bots=0, seat_approval=True)
    t.run(Configure(t.pid("Ann"), max_buy_in=3000))
    out = t.run(Join("Ben", th("Ben"), 2500))
    assert out.answer["status"] == "pending" and t.state.requests[0].public()["amount"] == 2500
    assert "Ben asks for a seat with 2,500 chips; the host decides" in out.lines
    t.run(Decide(t.pid("Ann"), t.state.requests[0].id, True))
    assert t.balance("Ben") == 2500


def test_tp14_top_ups_within_the_limits_up_to_the_biggest_stack_when_allowed() -> None:
    t = kind(bots=0, starting_chips=1000)
    people(t, "Ben")
    t.run(TopUp(t.pid("Ann"), 1000))  # the host's own, at once: Ann 2,000
    t.run(Configure(t.pid("Ann"), min_top_up=100, max_top_up=300, max_buy_in=1200))
    refused(t, TopUp(t.pid("Ben"), 50), 409, "a top-up is 100 to 300 chips")
    refused(t, TopUp(t.pid("Ben"), 250), 409, "no stack above the maximum buy-in of 1,200 (yours is 1,000)")
    t.run(TopUp(t.pid("Ben"), 200))
    t.run(Decide(t.pid("Ann"), t.state.requests[0].id, True))
    assert t.balance("Ben") == 1200
    t.run(Configure(t.pid("Ann"), match_biggest_stack=True))
    assert me(t, "Ben")["you"]["top_up"] == {"min": 1, "max": 800, "match": 800}
    t.run(TopUp(t.pid("Ben"), 800))  # up to Ann's 2,000: allowed by "match the biggest stack"
    refused(t, TopUp(t.pid("Ben"), 10), 409, "your top-up already waits")
    # checked again when the host approves: Ann's stack shrank meanwhile
    t.run(Configure(t.pid("Ann"), match_biggest_stack=False))
    refused(t, Decide(t.pid("Ann"), t.state.requests[0].id, True), 409, "outside this table's rules")


def test_tp14_the_hosts_rules_are_checked() -> None:
    t = kind(bots=0)
    refused(t, Configure(t.pid("Ann"), min_buy_in=500, max_buy_in=100), 422, "min_buy_in (500) is above max_buy_in")
    refused(t, Configure(t.pid("Ann"), max_top_up=-1), 422, "max_top_up must be a whole number of chips")
    refused(t, Configure(t.pid("Ann"), time_bank=4000), 422, "time_bank must be")
    people(t, "Ben")
    refused(t, Configure(t.pid("Ben"), min_buy_in=10), 403, "only the table's host")


# ------------------------------------------------------------ TP-15: payment handles


def test_tp15_a_payment_handle_is_shown_beside_the_transfers_received_and_in_the_copy_text() -> None:
    t = kind(bots=0)
    people(t, "Ben")
    t.run(SetHandle(t.pid("Ben"), "  IBAN   DE89 3704 0044 0532 0130 00 "))
    assert t.state.people[t.pid("Ben")].handle == "IBAN DE89 3704 0044 0532 0130 00"
    refused(t, SetHandle(t.pid("Ben"), "x" * 65), 422, "payment handle")
    refused(t, SetHandle(t.pid("Ben"), "pay\u202eme"), 422, "payment handle")
    t.run(Close(t.pid("Ann")))
    # after the close Ann (who left) may still add hers
    t.run(SetHandle(t.pid("Ann"), "<b>paypal.me/ann</b>"))
    totals = {"players": {t.pid("Ann"): {"buy_in": 1000, "wager": -500, "cash_out": -500},
                          t.pid("Ben"): {"buy_in": 1000, "settle": 500, "cash_out": -1500}}, "house": 0, "in_play": 0}
    up = settle_up(t.state, settlement(t.state, totals))
    (tr,) = up["transfers"]
    assert tr["to"]["name"] == "Ben" and tr["to"]["handle"] == "IBAN DE89 3704 0044 0532 0130 00"
    assert "Ann pays Ben 500 chips - Ben: IBAN DE89 3704 0044 0532 0130 00" in up["text"]
    assert {p["name"]: p["handle"] for p in up["parties"]} == {"Ann": "<b>paypal.me/ann</b>",
                                                              "Ben": "IBAN DE89 3704 0044 0532 0130 00"}
    t.run(SetHandle(t.pid("Ben"), None))
    assert t.state.people[t.pid("Ben")].handle is None


# ------------------------------------------------------------ the night in numbers


def test_issue29_numbers_are_kept_per_deal_and_per_person_and_luck_adds_up_to_zero() -> None:
    t = kind(bots=4)
    t.rng = random.Random(29)
    for _ in range(6):
        t.run(StartDeal(t.pid("Ann")))
        for _ in range(200):
            bots_play(t)
            if not t.state.in_progress:
                break
            kinds = [a["kind"] for a in me(t, "Ann")["actions"]]
            t.run(Act(t.pid("Ann"), Move("check" if "check" in kinds else "call")))
    deals = [o for o in t.outcomes for w in o.writes if getattr(w, "close", None) is not None]
    assert len(deals) == 6
    n = night(t.state)
    rows = {r["name"]: r for r in n["people"]}
    assert rows["Ann"]["played"] == 6 and len(rows) == 5
    assert sum(r["high"] for r in rows.values()) >= 6 and sum(r["won"] for r in rows.values()) >= 6
    assert abs(n["luck_total"]) <= 0.05  # each deal's lucks add up to 0 (to the rounding)
    closes = [w.close for o in t.outcomes for w in o.writes if getattr(w, "close", None) is not None]
    pid_of = {p.name: str(p.player_id) for p in t.state.people.values()}
    for c in closes:
        numbers = c.result["numbers"]
        assert abs(sum(x["luck"] for x in numbers.values())) <= 0.03
        for name, pid in pid_of.items():
            taken = [a for a in c.result["awards"] if a["name"] == name]
            assert numbers[pid]["pot"] == sum(a["amount"] for a in taken)
            assert (numbers[pid]["high"], numbers[pid]["low"]) == (sum(a["share"] == "high" for a in taken),
                                                                   sum(a["share"] == "low" for a in taken))
    assert rows["Ann"]["biggest_pot"] == max(
        (c.result["numbers"].get(str(t.pid("Ann")), {}).get("pot", 0) for c in closes), default=0)


def test_issue29_poker_luck_is_the_result_against_the_exact_ev_of_the_decision() -> None:
    from fourcards.poker.luck import decision_ev

    t = poker()
    people(t, "Ben")
    t.rng = random.Random(5)
    t.run(Act(t.pid("Ann"), Move("wager", ante=10)))
    t.run(Act(t.pid("Ben"), Move("wager", ante=10)))
    t.run(StartDeal(t.pid("Ann")))
    game = t.state.deal.game
    ann_cards = game.observation(0).players[0].cards
    up = game.observation(None).up_card
    t.run(Act(t.pid("Ann"), Move("play", amount=20)))
    t.run(Act(t.pid("Ben"), Move("fold")))
    close = next(w.close for o in t.outcomes for w in o.writes if getattr(w, "close", None) is not None)
    numbers = close.result["numbers"]
    ann = close.result["seats"]["1"]
    result = ann["wagers"]["ante"] + ann["wagers"]["play"] + ann["wagers"]["ante_bonus"]
    assert numbers[str(t.pid("Ann"))]["luck"] == round(float(result - decision_ev(t.state.rules, ann_cards, up, 10,
                                                                                   20)), 2)
    assert numbers[str(t.pid("Ben"))] == {"played": 1, "won": 0, "high": 0, "low": 0, "whole": 0, "folds": 1,
                                           "pot": 0, "luck": 0.0}  # a fold: no luck
    assert night(t.state)["people"][1]["folds"] == 1


def test_issue29_poker_luck_worked_by_hand() -> None:
    from fourcards.poker.luck import decision_ev, round_luck
    from fourcards.poker.rules import get_rules

    rules = get_rules("live")
    # Four aces beat every dealer hand (no dealer can hold four aces too): playing 3x wins the ante
    # (+1), the play bet (+3) and the ante bonus (25 to 1): 29 antes, certain - no luck either way.
    aces = ["Ah", "Ad", "As", "Ac", "2d"]
    assert decision_ev(rules, aces, "Kh", 10, 30) == 290
    assert round_luck(rules, aces, "Kh", 10, 30, {"ante": 10, "play": 30, "ante_bonus": 250}) == 0
    # a fold is what it was expected to be: the ante lost
    assert decision_ev(rules, ["2d", "5c", "7h", "9s", "Jd"], "Ah", 10, None) == -10
    # play 2x with 2-5-7-9-J: the ante and play bet win even money when the hand beats or ties the
    # dealer (le of N dealer hands), lose otherwise: EV = (1 + 2) * (2 le / N - 1) antes; the round
    # lost (-30 chips) is 30 * (-1) - EV * 10 = -30 * 2 le / N chips of bad luck
    from fourcards.poker.analysis import hand_ev

    h = hand_ev(["2d", "5c", "7h", "9s", "Jd"], "Ah", rules)
    p = Fraction(h.le, 1370754)
    assert decision_ev(rules, ["2d", "5c", "7h", "9s", "Jd"], "Ah", 10, 20) == 3 * (2 * p - 1) * 10
    assert round_luck(rules, ["2d", "5c", "7h", "9s", "Jd"], "Ah", 10, 20,
                      {"ante": -10, "play": -20, "ante_bonus": 0}) == -60 * p


# ------------------------------------------------------------ the views' new keys


def test_issue29_fault2_the_view_says_why_no_deal_can_start() -> None:
    t = kind(bots=0)
    people(t, "Ben", "Cat", "Dan")
    assert me(t, "Ann")["why_no_deal"] is None and "deal" in me(t, "Ann")["host_actions"]
    t.run(SetStatus(t.pid("Cat"), t.seat("Cat"), True))
    t.run(SetStatus(t.pid("Dan"), t.seat("Dan"), True))
    v = me(t, "Ann")
    assert "deal" not in v["host_actions"]
    assert v["why_no_deal"] == ("at least 4 players with chips for the ante are needed to deal; 2 can play now "
                                "(Cat and Dan sit out)")


def test_issue29_fault8_the_split_says_why_low_went_where_it_did_on_a_tie() -> None:
    from fourcards.kind import Action, Game, KindRules
    from fourcards.table.kind_view import KindTableView

    game = Game(KindRules(), [100] * 5, 0, cards="2c 7d Qs 9h Kd Kc Kh Ks".split())
    for move in ("check",) * 5:
        game.apply(Action.parse(move))
    while not game.is_terminal:
        game.apply(Action.parse("check"))
    why = KindTableView._why(game.observation(None), lambda p: f"P{p}")
    lows = [w for a, w in zip(game.awards, why) if a.share == "low"]
    assert lows == ["the fewest cards: 1 card, tied with P2 (7), P3 (Q), P4 (9); a tie goes to the lowest rank, 2"]
    assert [w for a, w in zip(game.awards, why) if a.share == "high"] == ["four of a kind"]


def test_issue29_the_views_raise_your_best_four_and_the_dealers() -> None:
    t = poker()
    people(t, "Ben")
    t.run(Act(t.pid("Ann"), Move("wager", ante=10)))
    t.run(Act(t.pid("Ben"), Move("wager", ante=10)))
    t.run(StartDeal(t.pid("Ann")))
    mine = next(e for e in me(t, "Ann")["round"]["seats"] if e["seat"] == 1)
    assert len(mine["best"]) == 4 and set(mine["best"]) <= set(mine["cards"])
    ben = next(e for e in me(t, "Ann")["round"]["seats"] if e["seat"] == 2)
    assert "best" not in ben and ben["cards"] is None  # only what the reader may see
    assert me(t, "Ann")["round"]["dealer_best"] is None
    t.run(Act(t.pid("Ann"), Move("play", amount=10)))
    t.run(Act(t.pid("Ben"), Move("fold")))
    last = me(t, "Ben")["last"]
    assert len(last["dealer_best"]) == 4 and set(last["dealer_best"]) <= set(last["dealer_cards"])


def test_issue29_refusals_leave_the_state_unchanged() -> None:
    t = four()
    before = snapshot(t.state)
    with pytest.raises(TableError):
        from fourcards.table import apply

        apply(t.state, PreAct(t.pid(order(t)[0]), "check"), NOW)
    assert snapshot(t.state) == before


def test_issue29_fault5_the_rules_line_separates_thousands() -> None:
    from fourcards.table.games import TableSpec
    from fourcards.table.registry import new_table_rules

    table_game, built, _ = new_table_rules(TableSpec("kind", preset="family",
                                                     rules={"ante": 1000, "min_bet": 1000, "max_bet": 200000}))
    assert table_game.rules_label(built) == "Family rules, changed: ante 1,000, bets 1,000\u2013200,000"
