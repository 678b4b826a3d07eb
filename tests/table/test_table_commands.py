"""Every command of the table state machine (issue 20 item 1), each as a pure function of state,
command and time: what it does, and each refusal a clear :class:`TableError` leaving the state
exactly as it was (docs/rules.md TP-1 to TP-8)."""

from __future__ import annotations

from typing import Any

import pytest
from tablehelpers import NOW, Table, new_state, snapshot, th

from fourcards.table import (
    Act,
    ActFor,
    AddBots,
    BotMove,
    Close,
    Command,
    Configure,
    Decide,
    EnterCards,
    Join,
    Leave,
    Move,
    NewDevice,
    Pause,
    Resume,
    SetStatus,
    Sit,
    StartDeal,
    TableError,
    TakeBackCard,
    TakeUp,
    Timeout,
    TopUp,
    VoidDeal,
    apply,
)
from fourcards.table.clock import due, player_seat
from fourcards.table.draft import Revoked, TrainerAsked


def refused(t: Table, command: Command, status: int, words: str) -> TableError:
    """``command`` is refused with ``status`` and a sentence containing ``words``; nothing changed."""
    before = snapshot(t.state)
    with pytest.raises(TableError) as exc:
        apply(t.state, command, t.now, t.rng)
    assert exc.value.status == status, exc.value.detail
    assert words in exc.value.detail, exc.value.detail
    assert snapshot(t.state) == before
    return exc.value


def poker(**spec: Any) -> Table:
    t = Table(new_state("poker", **spec))
    t.run(Sit("Ann", th("Ann"), is_host=True))
    return t


def kind(bots: int = 3, **spec: Any) -> Table:
    t = Table(new_state("kind", **{"turn_clock": 0, **spec}))
    t.run(Sit("Ann", th("Ann"), is_host=True))
    if bots:
        t.run(AddBots(t.pid("Ann"), tuple(th(f"bot{i}") for i in range(bots))))
    return t


def people(t: Table, *names: str) -> None:
    for n in names:
        t.run(Join(n, th(n)))


def bots_play(t: Table, at: float = NOW) -> None:
    """Bots move until a person is to act (the server's loop)."""
    for _ in range(500):
        work = due(t.state, at + 60, 0.0)  # bots moving at once: the rescue time is long past
        if work is None or work[0] != "bot":
            return
        key = work[1]
        seat = player_seat(t.state, key[2])
        game = t.state.deal.game
        action = t.state.table_game.bot_action(t.state, seat, game.observation(key[2]), game.legal_actions(key[2]),
                                               t.rng)
        t.run(BotMove(key, action), at=at)


# ------------------------------------------------------------------ seats


def test_tp1_sit_seats_the_host_at_seat_1_with_the_buy_in() -> None:
    t = poker(starting_chips=500)
    ann = t.state.people[t.pid("Ann")]
    assert (ann.seat, ann.is_host, ann.balance) == (1, True, 500)
    assert t.state.log[-1] == "Ann sits at seat 1 with 500 chips"
    refused(t, Sit("ann", th("x")), 409, "the name 'ann' is taken")


def test_join_seats_at_once_or_waits_for_the_host_and_a_person_who_left_gets_their_chips_back() -> None:
    t = poker(public=True)
    assert t.run(Join("Ben", th("Ben"))).answer == {"status": "seated", "seat": 2, "name": "Ben", "balance": 1000}
    t.run(Configure(t.pid("Ann"), seat_approval=True))
    out = t.run(Join("Cat", th("Cat")))
    assert out.answer == {"status": "pending", "request": 1, "name": "Cat"}
    assert t.state.requests[0].name == "Cat" and "Cat" not in [p.name for p in t.state.players.values()]
    refused(t, Join("cat", th("y")), 409, "has already asked for a seat")
    t.run(Leave(t.pid("Ben"), 2))
    t.run(Configure(t.pid("Ann"), seat_approval=False))
    back = t.run(Join("BEN", th("Ben2"))).answer
    assert back == {"status": "seated", "seat": 2, "name": "Ben", "balance": 1000}


def test_join_refused_when_the_table_is_full_or_closed() -> None:
    t = kind(bots=12)
    refused(t, Join("Zed", th("Zed")), 409, "the table is full (13 seats)")
    t.run(Close(t.pid("Ann")))
    refused(t, Join("Zed", th("Zed")), 409, "this table is closed")


def test_add_bots_refusals() -> None:
    t = kind(bots=0)
    people(t, "Ben")
    refused(t, AddBots(t.pid("Ben"), (th("b"),)), 403, "only the table's host")
    refused(t, AddBots(t.pid("Ann"), (th("b"),), "nosuch"), 422, "unknown bot 'nosuch'")
    refused(t, AddBots(t.pid("Ann"), tuple(th(str(i)) for i in range(12))), 409, "only 11 empty seat(s) left")
    assert t.run(AddBots(t.pid("Ann"), (th("b"),), "pots")).answer == {"bots": [3]}
    assert t.state.players[3].bot_kind == "pots" and t.state.players[3].name == "Ada"


def test_decide_approves_a_seat_and_a_top_up_or_turns_them_down() -> None:
    t = poker()
    t.run(Configure(t.pid("Ann"), seat_approval=True))
    t.run(Join("Ben", th("Ben")))
    refused(t, Decide(t.pid("Ann"), 9, True), 404, "no request 9 waits")
    t.run(Decide(t.pid("Ann"), 1, True))
    assert t.seat("Ben") == 2 and not t.state.requests
    refused(t, Decide(t.pid("Ben"), 1, True), 403, "only the table's host")
    assert t.run(TopUp(t.pid("Ben"), 250)).answer == {"status": "pending", "request": 2}
    refused(t, TopUp(t.pid("Ben"), 10), 409, "your top-up already waits")
    t.run(Decide(t.pid("Ann"), 2, True))
    assert t.balance("Ben") == 1250 and "Ben tops up 250 chips (approved by the host)" in t.state.log
    t.run(Join("Cat", th("Cat")))
    out = t.run(Decide(t.pid("Ann"), 3, False))
    assert out.answer["request"]["status"] == "denied" and t.state.request_of(th("Cat")).status == "denied"


def test_top_up_of_the_host_is_made_at_once_and_a_bot_cannot_ask() -> None:
    t = kind(bots=1)
    assert t.run(TopUp(t.pid("Ann"), 100)).answer == {"status": "done", "balance": 1100}
    refused(t, TopUp(t.pid("Ada"), 100), 403, "a bot's seat is played by the server")


def test_issue19_a_person_who_leaves_takes_their_pending_requests_with_them() -> None:
    t = poker()
    people(t, "Ben")
    t.run(TopUp(t.pid("Ben"), 100))
    assert [r.kind for r in t.state.requests] == ["top_up"]
    t.run(Leave(t.pid("Ben"), 2))
    assert t.state.requests == ()
    refused(t, Decide(t.pid("Ann"), 1, True), 404, "no request 1 waits")


def test_set_status_sits_out_and_back_own_seat_or_the_hosts_ruling() -> None:
    t = poker()
    people(t, "Ben", "Cat")
    t.run(SetStatus(t.pid("Ben"), 2, True))
    assert t.state.players[2].status == "sitting_out" and t.state.log[-1] == "Ben sits out"
    refused(t, SetStatus(t.pid("Cat"), 2, False), 403, "only the table's host")
    t.run(SetStatus(t.pid("Ann"), 3, True))
    assert t.state.log[-1] == "Cat sits out (the host's ruling)"
    t.run(SetStatus(t.pid("Ben"), 2, False))
    assert t.state.players[2].status == "playing"
    refused(t, SetStatus(t.pid("Ann"), 7, True), 404, "seat 7 is empty")


def test_leave_before_a_deal_cashes_out_and_the_host_role_passes_on() -> None:
    t = poker()
    people(t, "Ben")
    t.run(Act(t.pid("Ann"), Move("wager", ante=20)))  # wagers taken back when leaving
    out = t.run(Leave(t.pid("Ann"), 1))
    assert out.answer == {"status": "left", "cashed_out": 1000}
    assert t.state.people[t.pid("Ben")].is_host and "Ben is the host now" in t.state.log
    refused(t, Leave(t.pid("Ann"), 1), 403, "does not belong to any seat")


def test_new_device_hands_the_seat_on_and_revokes_the_old_token() -> None:
    t = poker()
    people(t, "Ben")
    refused(t, NewDevice(t.pid("Ben"), 2, th("new")), 403, "only the table's host")
    out = t.run(NewDevice(t.pid("Ann"), 2, th("new")))
    assert out.events == (Revoked(th("Ben"), "this phone no longer holds Ben's seat: the host handed the seat to "
                                              "another phone (this one can still watch the table)"),)
    assert th("Ben") not in t.state.by_token and t.state.by_token[th("new")].name == "Ben"
    assert t.state.revoked == {th("Ben"): "Ben"}  # the old phone is told why when it comes back


def test_new_device_refused_for_a_bot() -> None:
    t = kind(bots=1)
    refused(t, NewDevice(t.pid("Ann"), 2, th("new")), 409, "a bot's seat is played by the server")


# ------------------------------------------------------------------ the host


def test_configure_changes_and_logs_the_settings() -> None:
    t = kind(bots=3)
    t.run(Configure(t.pid("Ann"), public=True, turn_clock=45, seat_approval=True))
    assert t.state.public and t.state.turn_clock == 45 and t.state.seat_approval
    assert t.state.log[-3:] == ("The host sets the turn clock to 45 s", "New seats need the host's approval",
                                "The table is public: listed in the lobby")
    refused(t, Configure(t.pid("Ada"), public=False), 403, "only the table's host")


def test_close_voids_the_deal_and_cashes_everyone_out() -> None:
    t = kind(bots=3)
    t.run(StartDeal(t.pid("Ann")))
    out = t.run(Close(t.pid("Ann")))
    assert out.answer == {"cashed_out": {"Ann": 1000, "Ada": 1000, "Boole": 1000, "Cray": 1000}}
    assert t.state.status == "closed" and t.state.players == {} and t.state.last.game.is_terminal
    refused(t, Close(t.pid("Ann")), 409, "this table is closed")
    refused(t, Act(t.pid("Ann"), Move("check")), 409, "this table is closed")  # issue 19: 409, not 403


def test_void_returns_every_chip() -> None:
    t = poker()
    people(t, "Ben")
    refused(t, VoidDeal(t.pid("Ann"), "x"), 409, "no deal in progress to void")
    t.run(Act(t.pid("Ben"), Move("wager", ante=50)))
    refused(t, VoidDeal(t.pid("Ben"), "x"), 403, "only the table's host")
    t.run(VoidDeal(t.pid("Ann"), "spilled drink"))
    assert t.balance("Ben") == 1000
    assert t.state.log[-1] == "Round 1 voided (host ruling: spilled drink); every chip wagered is returned"


# ------------------------------------------------------------------ the deal


def test_start_deal_refusals_and_anyone_may_deal_while_the_host_sits_out() -> None:
    t = kind(bots=2)
    refused(t, StartDeal(t.pid("Ann")), 409, "at least 4 players with chips for the ante")
    people(t, "Ben", "Cat")
    refused(t, StartDeal(t.pid("Ben")), 403, "only the table's host")
    t.run(SetStatus(t.pid("Ann"), 1, True))
    t.run(StartDeal(t.pid("Ben")))
    assert t.state.in_progress
    refused(t, StartDeal(t.pid("Ben")), 409, "a deal is already in progress")


def test_act_applies_the_engine_move_and_refuses_out_of_turn_and_the_other_game() -> None:
    t = poker()
    people(t, "Ben")
    refused(t, Act(t.pid("Ann"), Move("check")), 422, "'check' is not a Four Card Poker action")
    t.run(Act(t.pid("Ann"), Move("wager", ante=10)))
    t.run(Act(t.pid("Ben"), Move("wager", ante=10)))
    t.run(StartDeal(t.pid("Ann")))
    refused(t, Act(t.pid("Ben"), Move("fold")), 409, "not your turn: Ann is to act")
    refused(t, Act(t.pid("Ann"), Move("play", amount=5)), 409, "play bet")
    out = t.run(Act(t.pid("Ann"), Move("play", amount=30, trainer=True)))
    assert isinstance(out.events[0], TrainerAsked) and out.events[0].decision == "play"
    t.run(Act(t.pid("Ben"), Move("fold")))
    assert t.state.last.game.is_terminal and chips_conserved(t)


def chips_conserved(t: Table) -> bool:
    return sum(e.amount for e in t.entries) == 0


def test_act_for_enter_cards_and_take_back_at_a_table_of_real_cards() -> None:
    t = kind(bots=0, dealing="table")
    people(t, "Ben", "Cat", "Dan")
    refused(t, EnterCards(t.pid("Ann"), "9c"), 409, "no deal is in progress")
    t.run(StartDeal(t.pid("Ann")))
    refused(t, EnterCards(t.pid("Ben"), "9c"), 403, "only the table's host")
    refused(t, EnterCards(t.pid("Ann"), "9x"), 422, "cards:")
    t.run(EnterCards(t.pid("Ann"), "9c Kd Qc"))
    refused(t, EnterCards(t.pid("Ann"), "9c"), 409, "has already been seen")
    t.run(TakeBackCard(t.pid("Ann")))
    assert "The host takes back Q♣" in t.state.log[-1]
    t.run(EnterCards(t.pid("Ann"), "Qc 2s"))
    actor = player_seat(t.state, t.state.deal.game.actor)
    refused(t, ActFor(t.pid("Ben"), actor.seat, Move("check")), 403, "only the table's host")
    t.run(ActFor(t.pid("Ann"), actor.seat, Move("check")))
    assert t.state.log[-1] == f"{actor.name} checks (entered by the host)"
    refused(t, TakeBackCard(t.pid("Ann")), 409, "has acted since")


def test_act_for_and_cards_refused_at_a_table_dealt_from_the_deck() -> None:
    t = kind(bots=3)
    people(t, "Ben")
    t.run(StartDeal(t.pid("Ann")))
    refused(t, ActFor(t.pid("Ann"), 2, Move("check")), 403, "a bot's seat is played by the server")
    refused(t, ActFor(t.pid("Ann"), 5, Move("check")), 409, "only at a table dealt with real cards")
    refused(t, EnterCards(t.pid("Ann"), "9c"), 409, "deals from the server's shuffled deck")
    refused(t, TakeBackCard(t.pid("Ann")), 409, "deals from the server's shuffled deck")


def test_timeout_checks_or_folds_and_two_in_a_row_sit_the_seat_out() -> None:
    t = kind(bots=2, turn_clock=30)
    people(t, "Ben")
    t.run(StartDeal(t.pid("Ann")))
    bots_play(t)
    key = t.state.clock.key
    who = player_seat(t.state, key[2])
    refused(t, Timeout(key), 409, "the turn clock has time left")
    t.run(Timeout(key), at=t.state.clock.deadline)
    assert f"{who.name}'s time ran out" in t.outcomes[-1].lines
    assert t.outcomes[-1].lines.index(f"{who.name}'s time ran out") == 0  # before the move it makes
    assert t.state.people[who.player_id].timeouts == 1
    refused(t, Timeout(key), 409, "nothing is due")


def test_bot_move_is_applied_only_on_its_turn_and_a_refused_move_checks_or_folds() -> None:
    t = kind(bots=3)
    t.run(StartDeal(t.pid("Ann")))
    later = NOW + 60  # bots moving at once: the rescue time is long past
    work = due(t.state, later, 0.0)
    if work is None:  # Ann (a person) is to act first: let her check
        t.run(Act(t.pid("Ann"), Move("check")))
        work = due(t.state, later, 0.0)
    assert work is not None and work[0] == "bot"
    t.run(BotMove(work[1], "nonsense"))  # a bot that fails: the table checks or folds for it
    assert t.state.clock.key != work[1]
    refused(t, BotMove(work[1], None), 409, "nothing is due")


def test_take_up_after_downtime_gives_the_turn_its_time_back() -> None:
    t = kind(bots=2, turn_clock=30)
    people(t, "Ben")
    t.run(StartDeal(t.pid("Ann")))
    bots_play(t)
    deadline = t.state.clock.deadline
    out = t.run(TakeUp(NOW + 5, NOW + 40), at=NOW + 40)
    assert out.answer == {"seconds_left": deadline - (NOW + 5)} and t.state.clock.deadline == NOW + 40 + 25
    assert t.outcomes[-1].lines[0].startswith("No server was running for 35 s:")


def test_pause_and_resume() -> None:
    t = kind(bots=2, turn_clock=30)
    people(t, "Ben")
    refused(t, Pause(t.pid("Ben")), 403, "only the table's host")
    refused(t, Resume(t.pid("Ann")), 409, "the table is not paused")
    t.run(Pause(t.pid("Ann")))
    refused(t, Pause(t.pid("Ann")), 409, "already paused")
    refused(t, StartDeal(t.pid("Ann")), 409, "the table is paused by the host")
    t.run(Resume(t.pid("Ann")))
    t.run(StartDeal(t.pid("Ann")))
    assert t.state.in_progress
