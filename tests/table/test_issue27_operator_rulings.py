"""docs/rules.md TP-10, the operator's rulings, as pure tests of ``apply``: the operator closes a
table exactly as its host would (the deal in progress voided, every chip back, everyone cashed
out) and removes a seat exactly as the host's removal (TP-5: a hand in play forfeited at once),
each logged with its reason; neither needs a host seated."""

from __future__ import annotations

from tablehelpers import Table, chips, new_state, th
from test_table_commands import people, refused
from test_table_rules import _kind_deal_with, _to_act

from fourcards.table import OperatorClose, OperatorRemove, Sit


def test_tp10_the_operator_closes_a_table_mid_deal_as_the_host_would() -> None:
    t = _kind_deal_with(("Ann", "Ben", "Cat", "Dan"))
    before = chips(t)
    out = t.run(OperatorClose("abandoned: not played for a long time"))
    assert t.state.status == "closed" and not t.state.in_progress and t.state.players == {}
    assert set(out.answer["cashed_out"]) == {"Ann", "Ben", "Cat", "Dan"}  # type: ignore[index]
    assert sum(out.answer["cashed_out"].values()) == 4 * 1000  # type: ignore[index]  # every chip back (TP-4)
    assert chips(t) == before - 4 * 1000 and sum(e.amount for e in t.entries) == 0
    assert any(line.startswith("The operator closes the table (abandoned: not played for a long time); everyone is "
                               "cashed out") for line in out.lines)
    refused(t, OperatorClose("again"), 409, "closed")


def test_tp10_the_operator_removes_the_seat_to_act_mid_deal_its_hand_forfeited() -> None:
    t = _kind_deal_with(("Ann", "Ben", "Cat", "Dan", "Eve"))
    first = _to_act(t)
    out = t.run(OperatorRemove(t.seat(first), "banned from the club Thursday"))
    assert out.answer == {"status": "leaving"} and _to_act(t) != first
    assert f"{first} is removed by the operator (banned from the club Thursday): the hand is forfeited" in out.lines
    assert t.state.deal.game.observation(None).seats[t.state.deal.seats.player(seat=t.seat(first))].forfeited


def test_tp10_the_operator_removes_a_seat_between_deals_and_the_host_role_passes_on() -> None:
    t = Table(new_state("kind", turn_clock=0))
    t.run(Sit("Ann", th("Ann"), is_host=True))
    people(t, "Ben")
    out = t.run(OperatorRemove(t.seat("Ann"), "banned"))
    assert out.answer == {"status": "left", "cashed_out": 1000}
    assert "Ann is removed by the operator (banned) and cashes out 1,000 chips" in out.lines
    assert t.state.people[t.pid("Ben")].is_host and "Ben is the host now" in out.lines
    refused(t, OperatorRemove(9, "nobody"), 404, "seat")
