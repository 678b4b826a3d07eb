"""The table's rules at its edges (issue 20 item 3; docs/rules.md TP-5 to TP-8), each a pure
test of ``apply(state, command, now, rng)``, and random play: chips conserved, every refusal
leaving the state exactly as it was."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from tablehelpers import NOW, Table, new_state, snapshot, th
from test_table_commands import bots_play, kind, people, poker, refused

from fourcards.table import (
    Act,
    BotMove,
    Command,
    Decide,
    Join,
    Leave,
    Move,
    Pause,
    Resume,
    SetStatus,
    Sit,
    StartDeal,
    TableError,
    TakeUp,
    Timeout,
    TopUp,
    VoidDeal,
)
from fourcards.table.clock import MIN_LEFT_AFTER_DOWNTIME_S, due, due_at, player_seat

# ----------------------------------------------- TP-5: leaving mid-deal forfeits at once


def _kind_deal_with(names: tuple[str, ...]) -> Table:
    t = Table(new_state("kind", turn_clock=0))
    t.run(Sit(names[0], th(names[0]), is_host=True))
    people(t, *names[1:])
    t.run(StartDeal(t.pid(names[0])))
    return t


def _to_act(t: Table) -> str:
    return player_seat(t.state, t.state.deal.game.actor).name


def test_tp5_leaving_mid_deal_forfeits_the_hand_at_once_out_of_every_pot() -> None:
    t = _kind_deal_with(("Ann", "Ben", "Cat", "Dan", "Eve"))
    dan = t.state.people[t.pid("Dan")]
    player = t.state.deal.seats.player_of(dan)
    out = t.run(Leave(dan.player_id, dan.seat))
    assert out.answer == {"status": "leaving"}
    seen = t.state.deal.game.observation(None)
    assert seen.seats[player].status == "folded" and seen.seats[player].forfeited
    assert seen.pots and all(player not in p.eligible for p in seen.pots)
    assert "Dan leaves the table: the hand is forfeited" in out.lines
    assert seen.seats[player].contributed == 5  # its ante stays in the pot
    # nobody ever waits for Dan again, and the deal goes on to the end without him
    for _ in range(400):
        if not t.state.in_progress:
            break
        assert _to_act(t) != "Dan"
        who = player_seat(t.state, t.state.deal.game.actor)
        options = t.state.deal.game.legal_actions(t.state.deal.game.actor)
        move = next((o.kind.value for o in options if o.kind.value in ("check", "call")), options[0].kind.value)
        t.run(Act(who.player_id, Move(move)))
    awards = t.state.last.game.observation(None).awards
    assert awards and all(a.seat != player for a in awards)
    assert "Dan" not in [p.name for p in t.state.players.values()]
    assert t.state.people[t.pid("Dan")].balance == 0 and t.state.people[t.pid("Dan")].away == 995
    assert sum(e.amount for e in t.entries) == 0


def test_tp5_a_seat_that_left_mid_deal_takes_no_top_up_no_sit_out_and_its_name_says_when_to_come_back() -> None:
    t = _kind_deal_with(("Ann", "Ben", "Cat", "Dan", "Eve"))
    dan = t.state.people[t.pid("Dan")]
    t.run(Leave(dan.player_id, dan.seat))
    refused(t, TopUp(dan.player_id, 500), 409, "Dan has left the table: the seat cashes out when this deal ends")
    refused(t, SetStatus(dan.player_id, dan.seat, True), 409, "takes no more chips or changes")
    refused(t, SetStatus(t.pid("Ann"), dan.seat, True), 409, "Dan has left the table")  # nor the host's ruling
    refused(t, Join("dan", th("Dan's new phone")), 409,
            "Dan has left the table and cashes out when this deal ends: sit down again under this name after it")


def test_tp5_an_engine_refusal_names_the_person_not_the_engine_seat() -> None:
    t = poker()
    people(t, "Ben")
    refused(t, Act(t.pid("Ben"), Move("wager", ante=0, aces_up=0)), 409, "Ben: place an ante, an Aces Up bet, or both")


def test_tp5_the_player_to_act_who_leaves_passes_the_turn_on_and_the_host_removing_a_seat_does_the_same() -> None:
    t = _kind_deal_with(("Ann", "Ben", "Cat", "Dan", "Eve"))
    first = _to_act(t)
    t.run(Leave(t.pid(first), t.seat(first)))
    assert _to_act(t) != first
    second = _to_act(t)
    host = next(p for p in t.state.players.values() if p.is_host)
    if second == host.name:  # the host is to act: remove someone else
        second = next(p.name for p in t.state.players.values() if p.name not in (host.name, first))
    out = t.run(Leave(host.player_id, t.seat(second)))
    assert out.answer == {"status": "leaving"} and f"{second} is removed by the host: the hand is forfeited" in out.lines
    assert t.state.deal.game.observation(None).seats[t.state.deal.seats.player(seat=t.seat(second))].forfeited


def test_tp5_foak8_a_forfeit_that_leaves_one_player_ends_the_deal_and_the_seat_cashes_out_at_once() -> None:
    t = _kind_deal_with(("Ann", "Ben", "Cat", "Dan"))
    for name in ("Ben", "Cat"):
        t.run(Leave(t.pid(name), t.seat(name)))
    out = t.run(Leave(t.pid("Dan"), t.seat("Dan")))
    assert out.answer == {"status": "left", "cashed_out": 995}  # the deal ended: nothing at stake any more
    assert not t.state.in_progress and t.balance("Ann") == 1015
    assert {p.name for p in t.state.players.values()} == {"Ann"}


def test_tp5_fcp15_leaving_a_poker_round_undecided_folds_a_played_hand_is_settled() -> None:
    t = poker()
    people(t, "Ben", "Cat")
    for n in ("Ann", "Ben", "Cat"):
        t.run(Act(t.pid(n), Move("wager", ante=10, aces_up=5 if n == "Cat" else None)))
    t.run(StartDeal(t.pid("Ann")))
    t.run(Act(t.pid("Ann"), Move("play", amount=10)))
    out = t.run(Leave(t.pid("Cat"), 3))  # Cat has not decided: folds out of turn, Aces Up settled
    assert out.answer == {"status": "leaving"} and "Cat folds (the hand is forfeited)" in out.lines
    assert t.state.deal.game.observation(None).players[2].decision == "fold"
    out = t.run(Leave(t.pid("Ann"), 1))  # Ann played: her bets stand to the showdown
    assert out.answer == {"status": "leaving"}
    t.run(Act(t.pid("Ben"), Move("fold")))
    assert not t.state.in_progress and {p.name for p in t.state.players.values()} == {"Ben"}
    assert sum(e.amount for e in t.entries) == 0


# ------------------------------------------------------- TP-6: downtime is nobody's time


def _clock_running() -> Table:
    t = kind(bots=2, turn_clock=30)
    people(t, "Ben")
    t.run(StartDeal(t.pid("Ann")))
    bots_play(t)
    assert t.state.clock.deadline == NOW + 30
    return t


def test_tp6_a_clock_that_ran_through_downtime_gives_the_time_left_when_the_servers_went() -> None:
    t = _clock_running()
    # the last server died 12 s into the turn; a server takes the table up 35 s later
    down_from, down_to = NOW + 12, NOW + 47
    t.run(TakeUp(down_from, down_to), at=down_to)
    assert t.state.clock.deadline == down_to + 18
    refused(t, Timeout(t.state.clock.key), 409, "the turn clock has time left")
    assert due(t.state, down_to + 17.9, 0.0) is None and due(t.state, down_to + 18, 0.0) is not None


def test_tp6_at_least_ten_seconds_after_downtime_and_taking_up_twice_changes_nothing() -> None:
    t = _clock_running()
    down_from, down_to = NOW + 27, NOW + 600  # 3 s were left when the servers went
    t.run(TakeUp(down_from, down_to), at=down_to)
    assert t.state.clock.deadline == down_to + MIN_LEFT_AFTER_DOWNTIME_S
    before = snapshot(t.state)
    out = t.run(TakeUp(down_from, down_to), at=down_to + 1)  # a second server starting at once
    assert not out.changed and snapshot(t.state) == before


def test_tp6_a_turn_that_began_after_the_downtime_keeps_its_clock() -> None:
    t = _clock_running()
    out = t.run(TakeUp(NOW - 100, NOW - 50), at=NOW + 1)
    assert not out.changed and t.state.clock.deadline == NOW + 30


def test_tp6_a_bots_move_due_during_downtime_waits_its_delay_again() -> None:
    t = kind(bots=3, turn_clock=0)
    t.run(StartDeal(t.pid("Ann")))
    if player_seat(t.state, t.state.deal.game.actor).name == "Ann":
        t.run(Act(t.pid("Ann"), Move("check")))
    assert due_at(t.state, 0.7) == t.state.clock.since + 0.7
    t.run(TakeUp(NOW + 1, NOW + 90), at=NOW + 90)
    assert due_at(t.state, 0.7) == NOW + 90.7


# ------------------------------------------------------------------ TP-7: pause


def test_tp7_while_paused_no_clock_runs_no_deal_starts_and_nobody_acts() -> None:
    t = _clock_running()
    key, person = t.state.clock.key, player_seat(t.state, t.state.clock.key[2])
    t.run(Pause(t.pid("Ann")), at=NOW + 10)
    assert t.state.clock.deadline is None and t.state.clock.left == 20
    assert due_at(t.state, 0.0) is None  # nothing is due: no time-out, no bot
    refused(t, Act(person.player_id, Move("check")), 409, "the table is paused by the host")
    refused(t, Timeout(key), 409, "nothing is due")
    t.now = NOW + 1000
    refused(t, Timeout(key), 409, "nothing is due")
    t.run(Resume(t.pid("Ann")), at=NOW + 1000)
    assert t.state.clock.deadline == NOW + 1020  # the 20 s it had left
    t.run(Act(person.player_id, Move("check")), at=NOW + 1001)


def test_tp7_pausing_between_deals_stops_the_next_deal() -> None:
    t = kind(bots=3)
    t.run(Pause(t.pid("Ann")))
    refused(t, StartDeal(t.pid("Ann")), 409, "paused")
    # seats still come and go: a person may still leave or sit out
    people(t, "Ben")
    t.run(SetStatus(t.pid("Ben"), t.seat("Ben"), True))


# ---------------------------------------------------- TP-8: every action applied at most once


def test_tp8_a_repeated_action_id_gets_the_first_answer_and_changes_nothing() -> None:
    t = poker()
    people(t, "Ben")
    first = t.run(Act(t.pid("Ben"), Move("wager", ante=10), action_id="w-1"))
    assert not first.repeated and t.balance("Ben") == 990
    before = snapshot(t.state)
    again = t.run(Act(t.pid("Ben"), Move("wager", ante=10), action_id="w-1"))
    assert again.repeated and not again.changed and again.answer == {**first.answer, "repeated": True}
    assert snapshot(t.state) == before and t.balance("Ben") == 990
    # even after the table moved on (the betting round the id was meant for is over)
    t.run(Act(t.pid("Ann"), Move("wager", ante=10)))
    t.run(StartDeal(t.pid("Ann")))
    assert t.run(Act(t.pid("Ben"), Move("wager", ante=10), action_id="w-1")).repeated
    # the same id from another seat is another intent
    assert not t.run(Act(t.pid("Ann"), Move("play", amount=10), action_id="w-1")).repeated


def test_tp8_the_doubled_check_that_would_have_been_a_check_in_the_next_round() -> None:
    """The field report: the same check sent twice; the first closes the betting round, a card is
    turned and the same player opens the next round - the repeat must not check again."""
    for seed in range(40):
        t = _kind_deal_with(("Ann", "Ben", "Cat", "Dan"))
        t.rng = random.Random(seed)
        for _ in range(60):
            if not t.state.in_progress:
                break
            game = t.state.deal.game
            who = player_seat(t.state, game.actor)
            options = {o.kind.value for o in game.legal_actions(game.actor)}
            if "check" not in options:
                t.run(Act(who.player_id, Move("call")))
                continue
            rnd = game.observation(None).round_number
            intent = f"check-{len(t.outcomes)}"
            t.run(Act(who.player_id, Move("check"), action_id=intent))
            g2 = t.state.deal.game if t.state.in_progress else None
            if g2 is not None and g2.actor is not None and g2.observation(None).round_number != rnd \
                    and player_seat(t.state, g2.actor).player_id == who.player_id:
                before = snapshot(t.state)  # the same player opens the next round: the retry arrives
                repeat = t.run(Act(who.player_id, Move("check"), action_id=intent))
                assert repeat.repeated and snapshot(t.state) == before
                return
    raise AssertionError("no deal gave the doubled-check case")


def test_tp8_a_refused_action_keeps_no_id_and_ids_are_bounded_text() -> None:
    t = poker()
    refused(t, Act(t.pid("Ann"), Move("fold"), action_id="a"), 409, "fold")
    assert t.state.answer_of(t.pid("Ann"), "a") is None
    refused(t, Act(t.pid("Ann"), Move("wager", ante=10), action_id="x" * 65), 422, "1 to 64 characters")
    refused(t, Act(t.pid("Ann"), Move("wager", ante=10), action_id=""), 422, "1 to 64 characters")


def test_tp8_only_the_latest_action_ids_are_kept() -> None:
    from fourcards.table.state import INTENTS_KEPT

    t = poker()
    for i in range(INTENTS_KEPT + 5):
        t.run(Act(t.pid("Ann"), Move("wager", ante=10) if i % 2 == 0 else Move("withdraw"), action_id=f"i{i}"))
    kept = t.state.intents[t.pid("Ann")]
    assert len(kept) == INTENTS_KEPT and kept[0][0] == f"i{INTENTS_KEPT + 4}"


# ------------------------------------------------------- random play: the invariants


COMMANDS = st.sampled_from(["act", "deal", "leave", "join", "sit_out", "back", "top_up", "approve", "void",
                            "pause", "resume", "timeout", "bot"])


@settings(max_examples=60)
@given(game=st.sampled_from(["poker", "kind"]), steps=st.lists(st.tuples(COMMANDS, st.integers(0, 12)), max_size=60),
       seed=st.integers(0, 2**16))
def test_tp2_random_commands_conserve_chips_and_every_refusal_changes_nothing(game: str, steps: list, seed: int) -> None:
    t = Table(new_state(game, turn_clock=5 if game == "kind" else 0, bots=None if game == "kind" else 0))
    t.rng = random.Random(seed)
    t.run(Sit("P0", th("P0"), is_host=True))
    names = [f"P{i}" for i in range(1, 6)]
    for n in names[:3]:
        t.run(Join(n, th(n)))
    clock = NOW
    for kind_of, k in steps:
        clock += 7
        s = t.state
        seated = sorted(s.players.values(), key=lambda p: p.seat)
        person = seated[k % len(seated)] if seated else None
        command: Command | None = None
        if kind_of == "act" and person is not None:
            if game == "poker":
                opts = [Move("wager", ante=10), Move("play", amount=10), Move("play", amount=30), Move("fold"),
                        Move("withdraw")]
            else:
                opts = [Move("check"), Move("call"), Move("bet", amount=5), Move("raise", amount=10), Move("fold")]
            command = Act(person.player_id, opts[k % len(opts)])
        elif kind_of == "deal" and person is not None:
            command = StartDeal(person.player_id)
        elif kind_of == "leave" and person is not None:
            command = Leave(person.player_id, person.seat)
        elif kind_of == "join":
            n = names[k % len(names)]
            command = Join(n, th(n + str(clock)))
        elif kind_of in ("sit_out", "back") and person is not None:
            command = SetStatus(person.player_id, person.seat, kind_of == "sit_out")
        elif kind_of == "top_up" and person is not None:
            command = TopUp(person.player_id, 50)
        elif kind_of == "approve" and s.requests and s.host is not None:
            command = Decide(s.host.player_id, s.requests[0].id, k % 2 == 0)
        elif kind_of == "void" and s.host is not None:
            command = VoidDeal(s.host.player_id, "test")
        elif kind_of in ("pause", "resume") and s.host is not None:
            command = (Pause if kind_of == "pause" else Resume)(s.host.player_id)
        elif kind_of == "timeout" and s.clock.key is not None:
            command = Timeout(s.clock.key)
        elif kind_of == "bot" and s.clock.key is not None:
            command = BotMove(s.clock.key, None)
        if command is None:
            continue
        before = snapshot(s)
        try:
            t.run(command, at=clock)
        except TableError as exc:
            assert 400 <= exc.status < 500 and exc.detail
            assert snapshot(t.state) == before
        # chips are conserved: what the people hold and what is in play is what the bank gave out
        assert sum(e.amount for e in t.entries) == 0
        in_play = sum(e.amount for e in t.entries if e.account in ("bets", "pot"))
        house = sum(e.amount for e in t.entries if e.account == "house")
        people_chips = sum(p.balance for p in t.state.people.values())
        bank = -sum(e.amount for e in t.entries if e.account == "bank")
        assert people_chips + in_play + house == bank
        if not t.state.in_progress:
            assert in_play == 0
