"""Issue 28: one seat map (:class:`~fourcards.table.seats.DealSeats`), both engines taking names
as seat labels, and the in-memory store (:class:`~fourcards.store.memory.MemoryStore`) the table
rules' tests run on."""

from __future__ import annotations

import dataclasses

import pytest
from tablehelpers import Table, new_state, th

from fourcards.errors import RulesError
from fourcards.poker.round import PlaceWagers, PokerRound
from fourcards.poker.rules import get_rules
from fourcards.store.base import CommitResult, StoreError, TableCommit, TableStore, VersionConflict
from fourcards.store.memory import MemoryStore
from fourcards.table import Act, Join, Leave, Move, Sit, StartDeal, TableError
from fourcards.table.loading import load
from fourcards.table.seats import DealSeats
from fourcards.table.state import Person, stored
from fourcards.table.writes import DealWrite, Entry, NewPlayer


def test_issue28_1_poker_round_names_players_by_its_seat_labels_and_by_default_seat_n() -> None:
    rules = get_rules("live")
    plain = PokerRound(rules, 3)
    assert plain.seat_labels == ("seat 1", "seat 2", "seat 3") and plain.seat_label(5) == "seat 6"
    named = PokerRound(rules, 3, seat_labels=["Ann", "Ben", "Cat"])
    named.apply(PlaceWagers(0, 10))
    with pytest.raises(Exception, match="^Ann has already placed its wagers"):
        named.apply(PlaceWagers(0, 10))
    assert named.clone().seat_labels == ("Ann", "Ben", "Cat")
    again = PokerRound.replay(rules, named.history, seat_labels=["Ann", "Ben", "Cat"])
    assert again.seat_label(1) == "Ben" and [r.to_dict() for r in again.history] == [
        r.to_dict() for r in named.history]
    with pytest.raises(RulesError, match="seat_labels"):
        PokerRound(rules, 3, seat_labels=["Ann"])


def test_issue28_1_deal_seats_maps_engine_player_seat_player_id_and_name_both_ways() -> None:
    players = {2: Person(7, 2, "Ann", th("Ann")), 5: Person(9, 5, "Ben", th("Ben"))}
    seats = DealSeats.dealt([5, 2], players)
    assert (seats.seat(0), seats.player_id(0), seats.name(0)) == (5, 9, "Ben")
    assert seats.player(seat=2) == 1 and seats.player(player_id=9) == 0 and seats.player(seat=3) is None
    assert seats.player_of(players[2]) == 1 and seats.person(1, {7: players[2], 9: players[5]}) == players[2]
    assert seats.stored() == {"0": 9, "1": 7}
    back = DealSeats.from_stored(seats.stored(), {7: players[2], 9: players[5]}, follows=False)
    assert back == seats
    # a person who left is no longer who plays the player; one back at another seat neither
    gone = dataclasses.replace(players[2], seat=0, status="left")
    assert seats.person(1, {7: gone}) is None and seats.name(1) == "Ann"
    assert seats.player_of(dataclasses.replace(players[2], seat=4)) is None


def test_issue28_1_a_poker_round_follows_the_table_people_sitting_down_are_named_in_refusals() -> None:
    """Four Card Poker lays the next round out before anyone sits: the round's seat map (and its
    engine's seat labels) follow the table, so an engine refusal names the person, not "seat 2"."""
    t = Table(new_state("poker", bots=0))
    t.run(Sit("Ann", th("Ann"), is_host=True))
    t.run(Join("Ben", th("Ben")))
    deal = t.state.deal
    assert deal is not None and deal.seats.names[:3] == ("Ann", "Ben", "seat 3")
    assert deal.game.seat_label(1) == "Ben" and deal.seats.stored() == {"1": t.pid("Ann"), "2": t.pid("Ben")}
    t.run(Act(t.pid("Ben"), Move("wager", ante=10)))
    t.run(StartDeal(t.pid("Ann")))
    with pytest.raises(TableError) as err:
        t.run(Act(t.pid("Ben"), Move("play", amount=10**6)))
    assert err.value.status == 409 and err.value.detail.startswith("Ben: play bet 1000000 is not allowed")
    t.run(Leave(t.pid("Ben"), 2))  # leaving with a hand in play: it is forfeited, named by the log
    assert any(line.startswith("Ben ") for line in t.state.log[-3:]), t.state.log[-3:]


def test_issue28_1_a_stored_kind_deal_loads_with_its_seat_map_and_names() -> None:
    t = Table(new_state("kind", turn_clock=0))
    t.run(Sit("Ann", th("Ann"), is_host=True))
    for name in ("Ben", "Cat", "Dan"):
        t.run(Join(name, th(name)))
    t.run(StartDeal(t.pid("Ann")))
    deal = t.state.deal
    assert deal is not None and deal.seats.names == ("Ann", "Ben", "Cat", "Dan")
    assert [deal.game.seat_label(p) for p in range(4)] == ["Ann", "Ben", "Cat", "Dan"]


def test_issue28_4_the_memory_store_is_a_table_store_and_commits_all_or_nothing() -> None:
    store: TableStore = MemoryStore()
    store.create_table("t1", "kind", "T", {}, {"starting_chips": 100})
    res = store.commit_table(TableCommit("t1", 0, {"x": 1}, None, [NewPlayer(1, "Ann", th("Ann"), 100)], "", ["hi"]))
    assert res == CommitResult(1, None, [1]) and store.balances("t1") == {1: 100}
    with pytest.raises(VersionConflict):
        store.commit_table(TableCommit("t1", 0))
    bad = [NewPlayer(2, "Ben", th("Ben"), 100), DealWrite("t1", entries=[Entry("player", 5, 1)])]
    with pytest.raises(StoreError):
        store.commit_table(TableCommit("t1", 1, None, None, bad))
    row = store.load_table("t1")
    assert row is not None and row.version == 1 and [p.name for p in row.players] == ["Ann"] and row.log == ["hi"]
    assert store.ledger_check("t1") == {"total": 0, "unbalanced_txns": [], "open_escrow_deals": []}


def test_issue28_4_a_table_played_on_the_memory_store_loads_back_as_it_was() -> None:
    """What the store keeps of a table (rows, ledger, history, the table's own state) rebuilds the
    state the commands made: the store read back is the store written."""
    from localclient import LocalClient

    from webhelpers import create, post, sit

    c = LocalClient()
    try:
        t = create(c, "poker", bots=1)
        tid, host = t["table"]["id"], t["token"]
        sit(c, tid, "Ben")
        assert post(c, tid, "/actions", host, {"kind": "wager", "ante": 10}).status_code == 200
        held = c.hub.repo.copies[tid]
        row = c.store.load_table(tid)
        assert row is not None
        again = load(row, held.rules)
        assert stored(again) == stored(held) and again.people == held.people and again.log == held.log
        assert again.deal is not None and held.deal is not None and again.deal.seats == held.deal.seats
        assert [r.to_dict() for r in again.deal.game.history] == [r.to_dict() for r in held.deal.game.history]
    finally:
        c.close()


def test_issue28_7_a_table_read_again_keeps_its_deals_engine_states_while_their_records_are_the_same() -> None:
    """Reading a table again (another server wrote it) takes the deals this server already holds
    with the same stored records as they are, not replayed; a deal whose records grew is
    replayed; either way the state equals one read afresh."""
    from localclient import LocalClient

    from webhelpers import create, play_kind_deal, post

    c = LocalClient()
    try:
        t = create(c, "kind", bots=3, turn_clock=0)
        tid, host = t["table"]["id"], t["token"]
        assert post(c, tid, "/deal", host).status_code == 200
        play_kind_deal(c, tid, {1: host})  # a finished deal: the table's last
        assert post(c, tid, "/deal", host).status_code == 200  # the next, bots to act first
        held = c.hub.repo.copies[tid]
        assert held.last is not None and held.deal is not None and held.deal.deal_id is not None
        row = c.store.load_table(tid)
        assert row is not None
        afresh, again = load(row, held.rules), load(row, held.rules, held)
        assert again.last is not None and again.deal is not None and afresh.last is not None and afresh.deal is not None
        assert again.last.game is held.last.game and again.deal.game is held.deal.game  # nothing replayed
        assert afresh.deal.game is not held.deal.game
        for a, b in ((afresh.deal, again.deal), (afresh.last, again.last)):
            assert [r.to_dict() for r in a.game.history] == [r.to_dict() for r in b.game.history]
            assert (a.seats, a.seq, a.deal_id, a.number) == (b.seats, b.seq, b.deal_id, b.number)
        assert stored(again) == stored(afresh)
        # the deal in progress moves on elsewhere: this copy's deal is replayed, its last kept
        older = dataclasses.replace(held, deal=dataclasses.replace(held.deal, seq=held.deal.seq - 1))
        moved = load(row, held.rules, older)
        assert moved.deal is not None and moved.last is not None
        assert moved.deal.game is not held.deal.game and moved.last.game is held.last.game
        assert [r.to_dict() for r in moved.deal.game.history] == [r.to_dict() for r in afresh.deal.game.history]
    finally:
        c.close()
