"""Every kind of bad request gets a clear 4xx ``{"detail": "..."}`` and changes nothing:
wrong or missing token, out of turn, bad amounts, malformed JSON, unknown fields, unknown
table, host-only actions by a guest, actions in the wrong phase."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from webhelpers import comparable, create, hdr, post, sit, state


def snapshot(client: TestClient, tid: str, tokens: list[str]) -> Any:
    views = [comparable(state(client, tid, t)) for t in tokens]
    led = client.get(f"/api/tables/{tid}/ledger").json()
    deals = client.get(f"/api/tables/{tid}/deals").json()
    return views, led["entries"], led["balances"], deals


def check_refused(client: TestClient, tid: str, tokens: list[str], status: int, send, match: str) -> None:
    before = snapshot(client, tid, tokens)
    r = send()
    assert r.status_code == status, (r.status_code, r.text)
    detail = r.json()["detail"]
    assert isinstance(detail, str) and match.lower() in detail.lower(), detail
    assert snapshot(client, tid, tokens) == before


@pytest.fixture
def poker(client: TestClient) -> dict[str, Any]:
    """A live-preset table, two humans, both anted, cards dealt: seat 1 (host) to act."""
    t = create(client, "poker", host_name="Host")
    tid, host = t["table"]["id"], t["token"]
    guest = sit(client, tid, "Guest")["token"]
    assert post(client, tid, "/actions", host, {"kind": "wager", "ante": 10}).status_code == 200
    assert post(client, tid, "/actions", guest, {"kind": "wager", "ante": 10}).status_code == 200
    assert post(client, tid, "/deal", host).status_code == 200
    return {"tid": tid, "host": host, "guest": guest}


def test_poker_bad_requests(client: TestClient, poker: dict[str, Any]) -> None:
    tid, host, guest = poker["tid"], poker["host"], poker["guest"]
    toks = [host, guest]
    url = f"/api/tables/{tid}/actions"
    play = {"kind": "play", "amount": 20}
    cases = [
        # wrong / missing token
        (403, lambda: client.post(url, json=play, headers=hdr("not-a-real-token")), "token"),
        (401, lambda: client.post(url, json=play), "token"),
        # out of turn: seat 2 tries to decide before seat 1
        (409, lambda: client.post(url, json=play, headers=hdr(guest)), "out of turn"),
        # bad amounts: outside 1x-3x, negative, not an integer, a string, a bool
        (409, lambda: client.post(url, json={"kind": "play", "amount": 31}, headers=hdr(host)), "play bet"),
        (409, lambda: client.post(url, json={"kind": "play", "amount": 5}, headers=hdr(host)), "play bet"),
        (422, lambda: client.post(url, json={"kind": "play", "amount": -10}, headers=hdr(host)), "amount"),
        (422, lambda: client.post(url, json={"kind": "play", "amount": 12.5}, headers=hdr(host)), "amount"),
        (422, lambda: client.post(url, json={"kind": "play", "amount": "20"}, headers=hdr(host)), "amount"),
        (422, lambda: client.post(url, json={"kind": "play", "amount": True}, headers=hdr(host)), "amount"),
        (422, lambda: client.post(url, json={"kind": "play"}, headers=hdr(host)), "amount"),
        (422, lambda: client.post(url, json={"kind": "fold", "amount": 3}, headers=hdr(host)), "no amount"),
        # malformed JSON, wrong shapes, unknown fields and kinds
        (400, lambda: client.post(url, content=b'{"kind": "play", "amount": ', headers={
            **hdr(host), "Content-Type": "application/json"}), "malformed JSON"),
        (422, lambda: client.post(url, json=["play", 20], headers=hdr(host)), "invalid"),
        (422, lambda: client.post(url, json={"kind": "play", "amount": 20, "seat": 2}, headers=hdr(host)),
         "seat"),
        (422, lambda: client.post(url, json={"kind": "double"}, headers=hdr(host)), "kind"),
        (422, lambda: client.post(url, json={"kind": "check"}, headers=hdr(host)), "not a Four Card Poker"),
        # wrong phase: wagers are closed
        (409, lambda: client.post(url, json={"kind": "wager", "ante": 10}, headers=hdr(host)), "closed"),
        # host-only actions by a guest, and dealing twice
        (403, lambda: client.post(f"/api/tables/{tid}/deal", headers=hdr(guest)), "host"),
        (403, lambda: client.post(f"/api/tables/{tid}/void", json={"reason": "x"}, headers=hdr(guest)), "host"),
        (403, lambda: client.post(f"/api/tables/{tid}/bots", json={"count": 1}, headers=hdr(guest)), "host"),
        (409, lambda: client.post(f"/api/tables/{tid}/deal", headers=hdr(host)), "already"),
        (422, lambda: client.post(f"/api/tables/{tid}/bots", json={"count": 0}, headers=hdr(host)), "count"),
        (422, lambda: client.post(f"/api/tables/{tid}/bots", json={"count": 1, "kind": "genius"},
                                  headers=hdr(host)), "unknown bot"),
        (409, lambda: client.post(f"/api/tables/{tid}/bots", json={"count": 8}, headers=hdr(host)), "seat"),
        # the token of another table's seat
        (403, lambda: client.post(url, json=play, headers=hdr(create(client, "poker")["token"])), "token"),
        # unknown table
        (404, lambda: client.post("/api/tables/zzzzzzzz/actions", json=play, headers=hdr(host)), "unknown table"),
        (404, lambda: client.get("/api/tables/zzzzzzzz/state"), "unknown table"),
        (404, lambda: client.get(f"/api/tables/{tid}/deals/99"), "no deal"),
        (409, lambda: client.get(f"/api/tables/{tid}/deals/1"), "in progress"),
    ]
    for status, send, match in cases:
        check_refused(client, tid, toks, status, send, match)
    # and the table still works: seat 1 plays, seat 2 folds
    assert client.post(url, json=play, headers=hdr(host)).status_code == 200
    assert client.post(url, json={"kind": "fold"}, headers=hdr(guest)).status_code == 200


def test_poker_wager_limits_and_chips(client: TestClient) -> None:
    t = create(client, "poker", preset="online", starting_chips=50, rules={"max_ante": 40})
    tid, tok = t["table"]["id"], t["token"]
    url = f"/api/tables/{tid}/actions"
    cases = [
        (409, {"kind": "wager", "ante": 0, "aces_up": 5}, "needs an ante"),
        (409, {"kind": "wager", "ante": 41}, "table limits"),
        (409, {"kind": "wager", "ante": 0}, "ante, an Aces Up bet, or both"),
        (409, {"kind": "wager", "ante": 40, "aces_up": 20}, "leaves no chips for the play bet"),
        (409, {"kind": "wager", "ante": 30}, "ante at most 25"),
        (409, {"kind": "play", "amount": 10}, "phase"),
        (422, {"kind": "wager", "ante": 10_000_001}, "ante"),
    ]
    for status, body, match in cases:
        check_refused(client, tid, [tok], status, lambda b=body: client.post(url, json=b, headers=hdr(tok)), match)
    assert client.post(url, json={"kind": "wager", "ante": 20}, headers=hdr(tok)).status_code == 200
    assert client.post(f"/api/tables/{tid}/deal", headers=hdr(tok)).status_code == 200
    # 30 chips left: a 3x play bet (60) is refused for want of chips, 1x is allowed
    check_refused(client, tid, [tok], 409, lambda: client.post(url, json={"kind": "play", "amount": 60},
                                                               headers=hdr(tok)), "not enough chips")
    acts = state(client, tid, tok)["actions"]
    assert next(a for a in acts if a["kind"] == "play")["amounts"] == [20]


def test_kind_bad_requests(client: TestClient) -> None:
    t = create(client, "kind", bots=2, host_name="Host")
    tid, host = t["table"]["id"], t["token"]
    guest = sit(client, tid, "Guest")["token"]
    url = f"/api/tables/{tid}/actions"
    check_refused(client, tid, [host, guest], 409, lambda: client.post(url, json={"kind": "check"},
                                                                       headers=hdr(host)), "no deal")
    assert post(client, tid, "/deal", host).status_code == 200
    s = state(client, tid, host)
    actor = s["deal"]["actor"]
    assert actor in (1, 4)  # bots have moved
    me, other = (host, guest) if actor == 1 else (guest, host)
    legal = {a["kind"]: a for a in state(client, tid, me)["actions"]}
    cases: list[tuple[int, Any, str]] = [
        (403, lambda: client.post(url, json={"kind": "check"}, headers=hdr("forged-token")), "token"),
        (409, lambda: client.post(url, json={"kind": "check"}, headers=hdr(other)), "not your turn"),
        (400, lambda: client.post(url, content=b"{]", headers={**hdr(me), "Content-Type": "application/json"}),
         "malformed JSON"),
        (422, lambda: client.post(url, json={"kind": "wager", "ante": 5}, headers=hdr(me)), "not a Four of a Kind"),
        (422, lambda: client.post(url, json={"kind": "bet", "amount": -5}, headers=hdr(me)), "amount"),
        (404, lambda: client.post("/api/tables/nope/actions", json={"kind": "check"}, headers=hdr(me)), "unknown"),
        (409, lambda: client.post(f"/api/tables/{tid}/deal", headers=hdr(host)), "in progress"),
    ]
    if "bet" in legal:
        cases.append((409, lambda: client.post(url, json={"kind": "bet", "amount": legal["bet"]["max_amount"] + 1},
                                               headers=hdr(me)), "cannot bet"))
        cases.append((409, lambda: client.post(url, json={"kind": "call"}, headers=hdr(me)), "cannot call"))
    if "call" in legal:
        cases.append((409, lambda: client.post(url, json={"kind": "check"}, headers=hdr(me)), "cannot check"))
        cases.append((409, lambda: client.post(url, json={"kind": "call", "amount": legal["call"]["min_amount"] + 1},
                                               headers=hdr(me)), "cannot call"))
    for status, send, match in cases:
        check_refused(client, tid, [host, guest], status, send, match)


@pytest.mark.parametrize("body, field, match", [
    # the live preset's antes are 1-1000: a bots' ante of 5000 is refused, not silently lowered
    ({"game": "poker", "preset": "live", "bots": 2, "bot_ante": 5000}, "bot_ante", "1-1000"),
    ({"game": "poker", "rules": {"min_ante": 20}, "bot_ante": 10}, "bot_ante", "20-"),
    # bots need the ante and a 1x play bet out of their buy-in
    ({"game": "poker", "starting_chips": 100, "bot_ante": 60}, "bot_ante", "starting_chips is 100"),
    ({"game": "poker", "starting_chips": 10, "rules": {"min_ante": 25}}, "starting_chips", "minimum ante"),
    ({"game": "poker", "starting_chips": 0}, "starting_chips", "greater than or equal to 1"),
    ({"game": "kind", "bot_ante": 10}, "bot_ante", "Four Card Poker tables only"),
    ({"game": "kind", "preset": "nickel", "starting_chips": 4}, "starting_chips", "ante of 5"),
])
def test_create_table_chips_checked_against_rules(client: TestClient, body: dict[str, Any], field: str,
                                                  match: str) -> None:
    r = client.post("/api/tables", json={"host_name": "Host", **body})
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert field in detail and match in detail, detail
    assert client.get("/api/tables").json()["tables"] == []


def test_create_table_bot_ante_defaults_and_limits(client: TestClient) -> None:
    t = create(client, "poker", preset="live", bots=2, bot_ante=1000, starting_chips=2000)
    tid = t["table"]["id"]
    assert post(client, tid, "/deal", t["token"]).status_code == 200
    # the bots decide at once (no delay): the settled round is the view's "last"
    wagers = {e["seat"]: e["ante"] for e in state(client, tid, t["token"])["last"]["seats"]}
    assert wagers == {1: 0, 2: 1000, 3: 1000}
    # no bot_ante: 10 chips, lowered to what the buy-in affords (the ante and a 1x play bet)
    t = create(client, "poker", bots=1, starting_chips=8)
    tid = t["table"]["id"]
    assert post(client, tid, "/deal", t["token"]).status_code == 200
    assert {e["seat"]: e["ante"] for e in state(client, tid, t["token"])["last"]["seats"]} == {1: 0, 2: 4}
