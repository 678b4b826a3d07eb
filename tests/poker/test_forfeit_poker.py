"""The out-of-turn forfeit of Four Card Poker (docs/rules.md FCP-15; issue 20: a person who leaves
the table, or a seat the host removes, forfeits at once). Players are 0-based; messages name them
as seats 1..n."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forfeit_helpers import assert_replays, forfeit_or_refused, state_of
from fourcards.errors import IllegalActionError
from fourcards.poker.round import (
    ActionKind,
    Deal,
    Fold,
    Forfeit,
    LegalAction,
    PlaceWagers,
    Play,
    PokerRound,
    Void,
    action_from_dict,
)
from fourcards.poker.rules import PRESETS

LIVE, ONLINE = PRESETS["live"], PRESETS["online"]

# player 0: three nines (an ante bonus if it played; Aces Up 8 to 1); player 1: a pair of aces (Aces Up
# pays 1 to 1 in the live table); player 2: a high card; player 3: an Aces Up bet alone
HANDS = {0: "9h 9d 9s Kc 3d", 1: "Ah Ad 7c 5s 2h", 2: "Kh Jd 8s 6c 4h", 3: "Ac As Ts 6d 3c"}
DEALER = "Qd Qs 8c 8h 4s 2d"


def dealt() -> PokerRound:
    """Four players: antes of 10 and Aces Up bets of 5 for players 0-2, an Aces Up bet alone for
    player 3; the cards are out and player 0 decides first."""
    r = PokerRound(LIVE, 4)
    for p in range(3):
        r.apply(PlaceWagers(p, 10, 5))
    r.apply(PlaceWagers(3, 0, 5))
    r.apply(Deal.of(HANDS, DEALER, "Qd"))
    assert r.actor == 0
    return r


def test_fcp15_forfeit_folds_out_of_turn_aces_up_still_settled():
    """Player 2 forfeits while player 1 is to decide: it folds at once - the ante is lost, its pair
    of aces still wins the Aces Up bet (FCP-6) - and player 1 still decides first."""
    r = dealt()
    r.apply(Forfeit(1))
    assert r.actor == 0 and r.decisions[1] == Forfeit(1)
    view = r.observation(None).players[1]
    assert (view.decision, view.forfeited) == ("fold", True)
    assert r.observation(None).to_dict()["players"][1]["forfeited"] is True
    r.play(0, 30)
    r.play(2, 10)
    assert r.phase.value == "settled"
    res = r.results[1]
    assert (res.decision, res.outcome) == ("fold", "fold")
    assert res.wagers == {"ante": -10, "play": 0, "ante_bonus": 0, "aces_up": 5}
    assert r.returns()[1] == -5 and sum(r.returns()) + r.house_net == 0
    assert_replays(r)


def test_fcp15_forfeit_gets_no_ante_bonus():
    """FCP-5: the ante bonus needs a play bet; a forfeit is a fold, so three nines get none - while
    the Aces Up bet still wins 8 to 1 on them (FCP-6)."""
    r = dealt()
    r.apply(Forfeit(0))
    r.fold(1)
    r.fold(2)
    assert r.results[0].wagers == {"ante": -10, "play": 0, "ante_bonus": 0, "aces_up": 40}


def test_fcp15_forfeit_of_the_actor_gives_the_turn_to_the_next_undecided_player():
    r = dealt()
    r.apply(Forfeit(0))
    assert r.actor == 1
    assert [la.kind for la in r.legal_actions(1)] == [ActionKind.FOLD, ActionKind.PLAY]
    assert_replays(r)


def test_fcp15_forfeit_of_the_last_undecided_player_brings_the_showdown():
    r = dealt()
    r.play(0, 10)
    r.apply(Forfeit(2))  # out of turn: player 1 is to decide
    assert r.actor == 1 and r.phase.value == "decisions"
    r.apply(Forfeit(1))
    assert r.phase.value == "settled" and r.is_terminal
    assert r.returns() == (r.results[0].net, -5, -15, 5)
    assert_replays(r)


def test_fcp15_forfeited_hand_stays_mucked_at_the_showdown():
    """FCP-11: a folded hand stays mucked; its owner still sees it."""
    r = dealt()
    r.apply(Forfeit(2))
    r.play(0, 10)
    r.play(1, 10)
    assert r.observation(0).players[2].cards is None and r.observation(None).players[2].result.player_hand is None
    assert r.observation(2).players[2].cards is not None
    assert r.observation(None).players[0].cards is not None


# ------------------------------------------------------------------ refusals


def refused(r: PokerRound, action: object, match: str) -> None:
    before = state_of(r)
    with pytest.raises(IllegalActionError, match=match):
        r.apply(action)  # type: ignore[arg-type]
    assert state_of(r) == before


def test_fcp15_forfeit_refused_before_the_deal():
    r = PokerRound(LIVE, 2)
    r.apply(PlaceWagers(0, 10))
    refused(r, Forfeit(0), "seat 1 cannot forfeit before the deal: .*take the wagers back with withdraw_wagers")
    refused(r, Forfeit(1), "seat 2 cannot forfeit before the deal")


def test_fcp15_forfeit_refused_after_the_player_decided():
    r = dealt()
    r.play(0, 20)
    refused(r, Forfeit(0), "seat 1 cannot forfeit: it has already played; its wagers are settled at the showdown")
    r.fold(1)
    refused(r, Forfeit(1), "seat 2 cannot forfeit: it has already folded; its wagers are settled at the showdown")


def test_fcp15_forfeit_refused_twice():
    r = dealt()
    r.apply(Forfeit(2))
    refused(r, Forfeit(2), "seat 3 cannot forfeit: it has already forfeited")


def test_fcp15_forfeit_refused_for_an_aces_up_bet_alone_or_no_wagers():
    r = dealt()
    refused(r, Forfeit(3), "seat 4 cannot forfeit: it has only an Aces Up bet, which is settled on its hand")
    other = PokerRound(LIVE, 3)
    other.apply(PlaceWagers(0, 10))
    other.apply_chance(random.Random(1))
    refused(other, Forfeit(2), "seat 3 cannot forfeit: it has no wagers in this round")
    refused(other, Forfeit(3), "seat 4 is not at this table")
    refused(other, Forfeit(-1), "seat 0 is not at this table")


def test_fcp15_forfeit_refused_after_the_end():
    r = dealt()
    for p in range(3):
        r.fold(p)
    refused(r, Forfeit(0), "seat 1 cannot forfeit: the round is already settled")
    v = dealt()
    v.apply(Void("misdeal"))
    refused(v, Forfeit(1), "seat 2 cannot forfeit: the round is already voided")


def test_fcp15_forfeit_is_no_option_of_the_turn():
    """Like the host's void it is applied, never offered: not in legal_actions in any phase, and an
    option of its kind builds nothing."""
    r = PokerRound(LIVE, 2)
    phases = []
    for step in (lambda: None, lambda: r.apply(PlaceWagers(0, 10)), lambda: r.apply(PlaceWagers(1, 10)),
                 lambda: r.apply_chance(random.Random(3)), lambda: r.apply(Forfeit(1)), lambda: r.fold(0)):
        step()
        phases.append(r.phase.value)
        assert ActionKind.FORFEIT not in {la.kind for la in r.legal_actions()}
    assert phases[-1] == "settled" and "decisions" in phases
    with pytest.raises(IllegalActionError, match="a forfeit is no option of the turn"):
        LegalAction(ActionKind.FORFEIT, 0).action()


def test_fcp15_forfeit_record_json_round_trip():
    assert Forfeit(2).to_dict() == {"kind": "forfeit", "player": 2}
    assert action_from_dict({"kind": "forfeit", "player": 2}) == Forfeit(2)
    assert action_from_dict({"kind": "forfeit", "seat": 3}) == Forfeit(2)  # a legacy 1-based seat


# ------------------------------------------------------------------ properties


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), online=st.booleans())
def test_fcp15_random_rounds_with_forfeits_conserve_chips_settle_as_folds_and_replay(seed, online):
    rng = random.Random(seed)
    rules = ONLINE if online else LIVE
    r = PokerRound(rules, rng.randint(1, rules.max_seats))
    for p in range(r.num_players):
        if rng.random() < 0.8:
            ante = rng.choice([0, rules.min_ante]) if not rules.aces_up_requires_ante else rules.min_ante
            r.apply(PlaceWagers(p, ante, rng.choice([0, rules.min_aces_up]) if ante else rules.min_aces_up))
    if not r.wagers:
        r.apply(PlaceWagers(0, rules.min_ante))
    r.apply_chance(rng)
    forfeited = set()
    while not r.is_terminal:
        p = rng.randrange(r.num_players)
        if rng.random() < 0.4:
            if forfeit_or_refused(r, Forfeit(p), p in r.deciding_players and p not in r.decisions):
                forfeited.add(p)
        else:
            a = r.actor
            assert a is not None and a not in forfeited
            r.apply(Fold(a) if rng.random() < 0.3 else Play(a, r.play_amounts(a)[0]))
    assert sum(r.returns()) + r.house_net == 0
    for p in forfeited:
        res = r.results[p]
        assert res.decision == "fold" and res.wagers["play"] == 0 and res.wagers["ante_bonus"] == 0
        assert res.wagers["ante"] == -r.wagers[p].ante
    assert_replays(r)
