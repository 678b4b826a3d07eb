"""Four of a Kind at a web table: only legal actions are offered (issue 9.1) and every
message names people as they see them, never by an engine index (issue 9.5, DESIGN.md
"Table play": seats are numbered 1..n for people)."""

from __future__ import annotations

import re

import pytest
from localclient import LocalClient as TestClient

import fourcards.table.kind as games
from fourcards.kind import Game
from webhelpers import create, post, sit, state


@pytest.fixture
def scripted_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal the issue's cards: the button (Seat 1) deals 9c, 5d, 3s to Seats 2-4 and Ah to
    itself; then the aces are turned."""
    def game(rules, stacks, button, **kw):
        return Game(rules, stacks, button, **{**kw, "cards": "9c 5d 3s Ah As Ad Ac".split()})
    monkeypatch.setattr(games, "Game", game)


def test_design_table_play_kind_offers_no_raise_nobody_can_answer_and_names_people(
        client: TestClient, scripted_deals: None) -> None:
    t = create(client, "kind", host_name="Ann", starting_chips=200)
    tid, ann = t["table"]["id"], t["token"]
    table = client.app.state.hub.repo.copies[tid]  # type: ignore[attr-defined]
    table.settings["starting_chips"] = 20  # Bob buys in short: stacks 200/20/200/200
    bob = sit(client, tid, "Bob")["token"]
    table.settings["starting_chips"] = 200
    cy, di = sit(client, tid, "Cy")["token"], sit(client, tid, "Di")["token"]
    assert post(client, tid, "/deal", ann).status_code == 200
    assert state(client, tid, ann)["deal"]["actor"] == 1  # Ann holds the ace
    assert post(client, tid, "/actions", ann, {"kind": "bet", "amount": 5}).status_code == 200
    r = post(client, tid, "/actions", bob, {"kind": "raise", "amount": 0})
    assert r.status_code == 409
    assert r.json()["detail"].startswith("Bob cannot raise 0: a raise adds 5 to 10 chips")
    assert post(client, tid, "/actions", bob, {"kind": "raise", "amount": 10}).status_code == 200  # all in
    assert post(client, tid, "/actions", cy, {"kind": "fold"}).status_code == 200
    assert post(client, tid, "/actions", di, {"kind": "fold"}).status_code == 200
    s = state(client, tid, ann)
    assert [(a["kind"], a["min_amount"]) for a in s["actions"]] == [("fold", 0), ("call", 10)]
    assert [a["kind"] for a in s["deal"]["legal_actions"]] == ["fold", "call"]
    r = post(client, tid, "/actions", ann, {"kind": "raise", "amount": 5})
    assert r.status_code == 409
    assert r.json()["detail"].startswith("Ann cannot raise: no other player still in the deal")
    assert post(client, tid, "/actions", ann, {"kind": "call"}).status_code == 200
    end = state(client, tid, ann)
    assert end["deal"] is None and end["last"]["payoffs"] == {"1": 5, "2": 5, "3": -5, "4": -5}
    # nothing shown names a seat by an engine index
    for line in end["log"]:
        for n in re.findall(r"\bseat (\d+)", line, flags=re.IGNORECASE):
            assert 1 <= int(n) <= 4, line
    led = client.get(f"/api/tables/{tid}/ledger").json()
    assert led["balances"] == {"1": 205, "2": 25, "3": 195, "4": 195}  # memory == ledger
