"""Table rules asked for through the web's routes, moved from tests/web/test_web_api.py (issue
28): the trainer's advice, seats and names, a voided deal, the log's words, a person seated
without a phone (moved from test_issue21_web.py) - on a server's
execution path over an in-memory store without HTTP (tests/table/localclient.py).
"""

from __future__ import annotations

import re

from localclient import LocalClient as TestClient

from webhelpers import create, play_kind_deal, post, sit, state


def test_poker_trainer_advice(client: TestClient) -> None:
    t = create(client, "poker")
    tid, tok = t["table"]["id"], t["token"]
    post(client, tid, "/actions", tok, {"kind": "wager", "ante": 5})
    post(client, tid, "/deal", tok)
    r = post(client, tid, "/actions", tok, {"kind": "fold", "trainer": True})
    assert r.status_code == 200
    import time

    for _ in range(200):  # advice is computed in a worker thread, never in the request
        adv = state(client, tid, tok)["trainer"]
        if adv and adv["status"] != "computing":
            break
        time.sleep(0.05)
    assert adv["status"] in ("ok", "unavailable")
    if adv["status"] == "ok":
        assert adv["chosen"] == "fold" and adv["optimal"] in adv["ev"] and adv["ev_lost"] >= 0


def test_seats_names_and_capacity(client: TestClient) -> None:
    t = create(client, "poker", bots=7, host_name="Ann")
    tid = t["table"]["id"]
    r = client.post(f"/api/tables/{tid}/seats", json={"name": "ann"})
    assert r.status_code == 409 and "taken" in r.json()["detail"]
    s = sit(client, tid, "Zed")
    assert s["seat"] == 9 and s["balance"] == 1000
    r = client.post(f"/api/tables/{tid}/seats", json={"name": "Late"})
    assert r.status_code == 409 and "full" in r.json()["detail"]


def test_design_host_void_of_a_kind_deal_shows_every_stack_refunded_and_nobody_to_act(client: TestClient) -> None:
    """The void is the engine's (docs/rules.md TP-4: the host's ruling, full refund): the voided deal's
    view shows each seat's stack as before the deal and nobody to act."""
    t = create(client, "kind", bots=3)
    tid, tok = t["table"]["id"], t["token"]
    assert post(client, tid, "/deal", tok).status_code == 200
    last = post(client, tid, "/void", tok, {"reason": "misdeal"}).json()["last"]
    assert last["voided"] == "host ruling: misdeal" and last["phase"] == "voided" and last["actor"] is None
    assert {e["seat"]: e["stack"] for e in last["seats"]} == {p["seat"]: p["balance"] for p in state(client, tid)["players"]}
    assert all(e["contributed"] == 0 for e in last["seats"]) and last["pot"] == 0


def test_issue11_8_the_log_uses_the_tables_words(client: TestClient) -> None:
    """The poker table page says "Round N"; its log says the same, never "Deal N"."""
    t = create(client, "poker", bots=1)
    tid, tok = t["table"]["id"], t["token"]
    post(client, tid, "/actions", tok, {"kind": "wager", "ante": 10})
    assert post(client, tid, "/deal", tok).status_code == 200
    assert post(client, tid, "/void", tok, {"reason": "misdeal"}).status_code == 200
    log = state(client, tid)["log"]
    assert any(line.startswith("Round 1: cards are dealt") for line in log), log
    assert any(line.startswith("Round 1 voided") for line in log), log
    assert not any(line.startswith("Deal ") for line in log), log


def test_issue11_8_the_log_writes_a_ten_as_the_cards_show_it(client: TestClient) -> None:
    """Cards on the page show "10"; the log names a turned ten "10\u2665", never "T\u2665"."""
    t = create(client, "kind", bots=3)
    tid, tok = t["table"]["id"], t["token"]
    lines: list[str] = []
    for _ in range(10):  # until a ten has been turned (nearly always in the first deal)
        assert post(client, tid, "/deal", tok).status_code == 200
        lines += play_kind_deal(client, tid, {1: tok})["log"]
        if any("10" in line for line in lines if line.startswith("Turned")):
            break
    else:
        raise AssertionError("no ten turned in ten deals")
    assert not [line for line in lines if re.search("T[\u2663\u2666\u2665\u2660]", line)]


def test_issue21_9_the_host_seats_a_player_without_a_phone(client: TestClient) -> None:
    t = create(client, "kind", dealing="table", seat_approval=True)
    tid, host = t["table"]["id"], t["token"]
    r = post(client, tid, "/seats/without-phone", host, {"name": "Cat"})
    assert r.status_code == 200 and r.json() == {"status": "seated", "seat": 2, "name": "Cat", "balance": 1000}
    s = state(client, tid, host)
    assert s["log"][-1] == "The host seats Cat (no phone) at seat 2 with 1,000 chips" and s["requests"] == []
    assert not any("asks for a seat" in line for line in s["log"])
    r = post(client, tid, "/seats/without-phone", host, {"name": "cat"})
    assert r.status_code == 409 and "the name 'cat' is taken at this table: choose another" in r.json()["detail"]
    guest = client.post(f"/api/tables/{tid}/seats", json={"name": "Ben"}).json()["token"]
    assert post(client, tid, "/seats/without-phone", guest, {"name": "Dan"}).status_code == 403
    deck = create(client, "kind", bots=3)
    r = post(client, deck["table"]["id"], "/seats/without-phone", deck["token"], {"name": "Dan"})
    assert r.status_code == 409 and "only at a table dealt with real cards" in r.json()["detail"]
