"""The out-of-turn forfeit of Four of a Kind (docs/rules.md FOAK-17; issue 20: a person who leaves
mid-deal, or a seat the host removes, forfeits the hand at once)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kind_helpers import passive, scripted

from forfeit_helpers import assert_replays as replays
from forfeit_helpers import forfeit_or_refused, state_of
from fourcards.cards import parse_card as C
from fourcards.cli.kind_terminal import describe_op
from fourcards.errors import IllegalActionError, IllegalChanceError
from fourcards.kind import Action, ActionKind, DealCard, Forfeit, Game, KindRules, Redeal, TurnCard, Void
from fourcards.kind.history import (
    AwardChips,
    BettingRound,
    Finish,
    ReturnCard,
    ReturnUncalled,
    Shuffle,
    op_from_dict,
)


def assert_replays(game: Game) -> Game:
    """The history - as records and as JSON - replays to the same state, stacks and forfeits included."""
    again = replays(game)
    assert again.stacks == game.stacks and again.forfeited == game.forfeited
    return again


def side_pot_table() -> Game:
    """Seat 1 all-in for 10 in round 1 (a main pot and a side pot), seat 4 opens round 2 on JJ and
    bets 5: seat 2 is to act."""
    g = scripted("2s Kd Qc Jh  Jc Qd Jd Js", stacks=[10, 100, 100, 100])
    g.apply(Action.bet(10))
    g.apply(Action.call())
    g.apply(Action.call())
    g.apply(Action.call())  # seat 1 is all-in for 5
    assert [(p.amount, p.eligible) for p in g.side_pots()] == [(40, (0, 1, 2, 3)), (15, (1, 2, 3))]
    g.apply(Action.bet(5))
    assert g.actor == 1 and g.stakes == [0, 0, 0, 5]
    return g


# ------------------------------------------------------------------ the effect


def test_foak17_forfeit_out_of_turn_leaves_every_pot():
    """Seat 3 forfeits while seat 2 is to act: it is out of the main pot and the side pot, its 15
    chips stay in them, seat 2 is still to act, the turned Q (seat 3's rank) is discarded, and the
    pots go to the others."""
    g = side_pot_table()
    g.apply(Forfeit(2))
    assert g.folded[2] and g.forfeited[2] and g.live == [True, True, False, True]
    assert g.actor == 1 and g.stakes == [0, 0, 0, 5] and g.level == 5
    assert [(p.amount, p.eligible) for p in g.side_pots()] == [(40, (0, 1, 3)), (15, (1, 3))]
    assert g.contributed == [10, 15, 15, 20] and g.pot == 60
    seat = g.observation(None).seats[2]
    assert (seat.status, seat.forfeited, seat.is_active) == ("folded", True, False)
    assert g.observation(None).to_dict()["seats"][2]["forfeited"] is True
    passive(g)  # seat 2 calls; the Qd is turned and discarded; the Jd goes to seat 4
    assert C("Qd") in g.discards and g.cards[2] == [C("Qc")]
    while not g.is_terminal:
        passive(g)
    assert g.finish_reason == "four"
    assert all(a.seat != 2 for a in g.awards)
    assert sum(a.amount for a in g.awards) == 65
    assert g.returns() == (10, -8, -15, 13) and sum(g.returns()) == 0
    assert_replays(g)


def test_foak17_forfeit_of_the_actor_moves_the_turn_on_clockwise():
    g = side_pot_table()
    g.apply(Forfeit(1))  # seat 2 was to act: seat 3 acts next (seat 1 is all-in, skipped)
    assert g.actor == 2 and g.folded[1]
    assert {la.kind for la in g.legal_actions()} == {ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE}
    assert_replays(g)


def test_foak17_forfeit_of_the_last_to_act_ends_the_round_and_the_dealer_turns():
    g = side_pot_table()
    g.apply(Action.call())  # seat 2 calls: seat 3 is the last to answer the bet
    assert g.actor == 2
    g.apply(Forfeit(2))
    # the round is over (stakes equal among the players still in); the Qd is turned and discarded,
    # the Jd goes to seat 4 and opens round 3
    assert g.round_number == 3 and g.actor == 3 and C("Qd") in g.discards
    assert g.history[-4:] == (Forfeit(2), TurnCard(C("Qd"), None), TurnCard(C("Jd"), 3), BettingRound(3, 3))
    assert not any(isinstance(op, ReturnUncalled) for op in g.history)
    assert_replays(g)


def test_foak17_forfeit_leaving_one_player_gives_it_the_whole_pot_at_once():
    """docs/rules.md FOAK-8: the last player standing takes the whole pot, the forfeited seats'
    chips included."""
    g = scripted("7s As 3c 9h")
    g.apply(Action.bet(10))  # seat 2 (the ace) bets
    g.apply(Forfeit(0))
    g.apply(Forfeit(3))
    assert not g.is_terminal and g.actor == 2
    g.apply(Forfeit(2))  # the actor itself
    assert g.is_terminal and g.finish_reason == "last_player"
    assert g.history[-2:] == (Finish("last_player", 1), AwardChips(0, 1, 30, "whole"))
    assert g.returns() == (-5, 15, -5, -5)
    assert_replays(g)


def test_foak17_forfeit_in_the_initial_deal_leaves_the_deal_queue():
    """A seat that forfeits before its card is dealt is dealt nothing; the next card goes to the
    next seat in the queue."""
    g = Game(KindRules(), [100] * 5, 4, cards=())
    g.apply(DealCard(0, C("Kd")))
    assert g.deal_queue == (1, 2, 3, 4) and g.chance_step == "deal"
    g.apply(Forfeit(1))
    assert g.deal_queue == (2, 3, 4) and g.cards[1] == []
    with pytest.raises(IllegalChanceError, match="dealt to seat 3, not seat 2"):
        g.apply(DealCard(1, C("9c")))
    for seat, card in ((2, "5d"), (3, "3h"), (4, "7s")):
        g.apply(DealCard(seat, C(card)))
    assert g.phase.value == "betting" and g.actor == 0 and g.cards[1] == []
    assert [v.status for v in g.observation(None).seats] == ["active", "folded", "active", "active", "active"]
    assert g.pot == 25
    assert_replays(g)


def test_foak17_forfeited_card_stays_face_up_keeps_its_rank_out_and_opens_nothing():
    """Seat 2 forfeits holding the ace: its card stays face up and keeps the rank out of play (an ace
    dealt to seat 3 is a duplicate, returned and re-dealt: FOAK-13 needs every unseen card of an
    active rank in the deck); the highest card still in opens; a turned ace is discarded."""
    g = Game(KindRules(), [100] * 5, 4, cards=())
    g.apply(DealCard(0, C("Kd")))
    g.apply(DealCard(1, C("As")))
    g.apply(Forfeit(1))
    g.apply(DealCard(2, C("Ah")))  # the rank of seat 2's face-up card: back it goes
    assert g.history[-2:] == (ReturnCard(2, C("Ah")), Shuffle()) and g.deal_queue == (2, 3, 4)
    g.apply(DealCard(2, C("5d")))
    g.apply(DealCard(3, C("3h")))
    g.apply(DealCard(4, C("7s")))
    assert g.cards[1] == [C("As")] and g.observation(None).seats[1].cards == (C("As"),)
    assert g.actor == 0  # the king opens: the forfeited ace does not
    passive(g)
    assert g.chance_step == "turn"
    g.apply(TurnCard(C("Ac"), None))  # an ace is discarded: nobody still in holds the rank
    assert C("Ac") in g.discards
    assert_replays(g)


def test_foak17_forfeit_in_the_opr903_re_deal_only_the_players_still_in_are_re_dealt():
    """Redeal.ALL_DUPLICATES (seed 001 §2.3): seats 1 and 2 are both dealt a 9 and seat 1
    forfeits; after the pass only seat 2 returns its 9 and is dealt again."""
    g = Game(KindRules(redeal=Redeal.ALL_DUPLICATES), [100] * 5, 4, cards=())
    for seat, card in ((0, "9c"), (1, "9d"), (2, "5d"), (3, "Ah")):
        g.apply(DealCard(seat, C(card)))
    g.apply(Forfeit(0))
    g.apply(DealCard(4, C("2c")))
    assert g.deal_queue == (1,) and g.history[-2] == ReturnCard(1, C("9d")) and g.cards[0] == [C("9c")]
    with pytest.raises(IllegalChanceError):
        g.apply(DealCard(0, C("Kd")))
    g.apply(DealCard(1, C("Kd")))
    assert g.phase.value == "betting" and g.actor == 3
    assert_replays(g)


def test_foak17_forfeit_while_the_dealer_turns():
    """A scripted deal waiting for a turned card: the forfeit folds the seat; its rank's card is
    then discarded, and giving it to the seat is refused."""
    g = scripted("2s Kd Qc Jh", stacks=[100] * 4)
    passive(g)
    assert g.chance_step == "turn"
    g.apply(Forfeit(2))
    assert g.chance_step == "turn" and g.actor is None
    with pytest.raises(IllegalChanceError, match="goes to the discards"):
        g.apply(TurnCard(C("Qd"), 2))
    g.apply(TurnCard(C("Qd"), None))
    assert C("Qd") in g.discards and g.chance_step == "turn"
    g.apply(TurnCard(C("Kc"), 1))
    assert g.actor == 1
    assert_replays(g)


def test_foak17_forfeit_leaves_nobody_to_bet_against_so_the_round_ends():
    """docs/rules.md FOAK-10: seat 4 opens round 2 with nothing to call; seat 2 - the only other player
    who could still bet (seat 1 is all-in, seat 3 folded) - forfeits: no betting is left, the
    dealer turns."""
    g = scripted("2s Kd Qc Jh  Jc", stacks=[10, 100, 100, 100])
    g.apply(Action.bet(10))
    g.apply(Action.fold())
    g.apply(Action.call())
    g.apply(Action.call())  # seat 1 all-in
    assert g.round_number == 2 and g.actor == 3 and g.to_call(3) == 0
    g.apply(Forfeit(1))
    assert g.actor is None and g.chance_step == "turn" and g.phase.value == "turning"
    assert_replays(g)


def test_foak17_forfeited_bettor_s_chips_stay_in_the_pot():
    """A bet stands when its bettor forfeits: the others still face it, and it is not returned as
    uncalled (its chips stay in the pot)."""
    g = scripted("2s Kd Qc Jh", stacks=[100] * 4)
    g.apply(Action.bet(10))  # seat 2
    g.apply(Forfeit(1))
    assert g.actor == 2 and g.to_call(2) == 10
    g.apply(Action.call())
    g.apply(Action.call())
    g.apply(Action.call())
    assert g.contributed == [15, 15, 15, 15] and g.pot == 60
    assert not any(isinstance(op, ReturnUncalled) for op in g.history)


def test_foak17_forfeit_is_no_option_of_the_turn():
    g = side_pot_table()
    assert "forfeit" not in {k.value for k in ActionKind}
    assert all(la.kind in (ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE) for la in g.legal_actions())
    with pytest.raises(IllegalActionError, match="unknown action"):
        g.apply("forfeit")


def test_foak17_take_back_ends_at_a_forfeit():
    """docs/rules.md FOAK-15: a card can be taken back until the next action; a forfeit is one."""
    g = Game(KindRules(), [100] * 5, 4, cards=())
    g.apply(DealCard(0, C("Kd")))
    assert g.observation(None).last_card == DealCard(0, C("Kd"))
    g.apply(Forfeit(2))
    assert g.observation(None).last_card is None


def test_foak17_forfeit_record_json_round_trip():
    op = Forfeit(3)
    assert op.to_dict() == {"op": "forfeit", "kind": "forfeit", "seat": 3}
    assert op_from_dict(op.to_dict()) == op and op.player == 3


def test_foak17_forfeit_line_in_the_terminal_log():
    assert describe_op(Forfeit(2), ["", "", "odds", ""]) == (
        "Seat 3 (odds) forfeits: out of the deal, its chips stay in the pot")


def test_foak17_void_after_a_forfeit_returns_every_chip():
    g = side_pot_table()
    g.apply(Forfeit(2))
    g.apply(Void("misdeal"))
    assert g.stacks == [10, 100, 100, 100] and g.returns() == (0, 0, 0, 0)
    assert_replays(g)


# ------------------------------------------------------------------ refusals


def _refused(game: Game, seat: object, match: str) -> None:
    before = state_of(game)
    with pytest.raises(IllegalActionError, match=match):
        game.apply(Forfeit(seat))  # type: ignore[arg-type]
    assert state_of(game) == before


def test_foak17_forfeit_refused_after_a_fold_or_a_forfeit():
    g = scripted("7s As 3c 9h")
    g.apply(Action.bet(5))
    g.apply(Action.fold())  # seat 3
    _refused(g, 2, "seat 3 cannot forfeit: it has already folded this deal")
    g.apply(Forfeit(0))
    _refused(g, 0, "seat 1 cannot forfeit: it has already forfeited this deal")


def test_foak17_forfeit_refused_for_a_seat_not_dealt_in():
    g = scripted("7s As 3c 9h", n=5, stacks=[100, 100, 0, 100, 100], button=4)
    assert not g.in_deal[2]
    _refused(g, 2, "seat 3 cannot forfeit: it sits this deal out")
    _refused(g, 5, "seat 6 is not at this table")
    _refused(g, -1, "seat 0 is not at this table")
    _refused(g, "x", "player 'x' is not at this table")


def test_foak17_forfeit_refused_once_the_deal_is_over():
    g = scripted("7s As 3c 9h")
    for seat in (0, 2):
        g.apply(Forfeit(seat))
    g.apply(Forfeit(3))
    assert g.is_terminal
    _refused(g, 1, "seat 2 cannot forfeit: the deal is already finished")
    v = scripted("7s As 3c 9h")
    v.apply(Void("misdeal"))
    _refused(v, 1, "seat 2 cannot forfeit: the deal is already voided")


# ------------------------------------------------------------------ properties


def assert_every_unseen_card_of_an_active_rank_is_in_the_deck(game: Game) -> None:
    """docs/rules.md FOAK-13, which keeps the deck from running out: once the deal is done, no card
    of an active player's rank lies anywhere but in that player's hand or the deck - a forfeited
    seat's face-up card included."""
    if game.phase.value == "deal" or game.is_terminal:
        return
    seen = [c for cards in game.cards for c in cards] + game.discards
    for s in game.active_seats:
        rank = game.cards[s][0].rank
        assert all(c in game.cards[s] for c in seen if c.rank == rank), (s, game.cards, game.discards)


def _random_deal(seed: int) -> tuple[Game, int, set[int]]:
    """A random table played to the end by random legal moves, a random forfeit now and then (refused
    ones checked to change nothing); returns the game, the chips on the table and the forfeited seats."""
    r = random.Random(seed)
    rules = KindRules(ante=r.choice([0, 1, 5]), min_bet=r.choice([1, 5]), max_bet=10,
                      max_raises=r.choice([0, 1, 3]), redeal=r.choice(list(Redeal)))
    n = r.randint(4, 9)
    while True:
        stacks = [r.choice([0, 3, 9, 20, 60, 200]) for _ in range(n)]
        if sum(s >= rules.ante and s > 0 for s in stacks) >= 4:
            break
    total = sum(stacks)
    if r.random() < 0.5:
        game = Game(rules, stacks, r.randrange(n), cards=())
    else:
        game = Game(rules, stacks, r.randrange(n), rng=random.Random(r.getrandbits(32)))
    forfeited: set[int] = set()
    while not game.is_terminal:
        if r.random() < 0.08:
            seat = r.randrange(n)
            if forfeit_or_refused(game, Forfeit(seat), game.in_deal[seat] and not game.folded[seat]):
                forfeited.add(seat)
        elif game.chance_step is not None:
            game.apply_chance(r)
        else:
            option = r.choice(game.legal_actions())
            game.apply(option.action(r.randint(option.min_amount, option.max_amount)))
        assert sum(game.stacks) + game.pot == total
        assert game.actor not in forfeited
        assert_every_unseen_card_of_an_active_rank_is_in_the_deck(game)
        if r.random() < 0.05:
            assert_replays(game)
    return game, total, forfeited


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_foak17_random_deals_with_forfeits_conserve_chips_award_no_forfeited_seat_and_replay(seed):
    game, total, forfeited = _random_deal(seed)
    assert sum(game.stacks) == total and sum(game.returns()) == 0
    assert not {a.seat for a in game.awards} & forfeited
    for s in forfeited:  # a forfeited seat loses what it put in, nothing more
        assert game.returns()[s] == -game.contributed[s] and game.observation(None).seats[s].forfeited
    assert all(game.forfeited[s] == (s in forfeited) for s in range(game.n_seats))
    assert_replays(game)
