"""Game night's table rules (issue 11), moved from tests/web (issue 28): private tables, seats
the host approves, sitting out, leaving and coming back, closing a table, replays, the log's
words - asked for as the web's routes are, run on a server's execution path over an in-memory
store without HTTP (tests/table/localclient.py). Rulings: DESIGN.md "Table play (web) rulings".
"""

from __future__ import annotations

from localclient import LocalClient as TestClient

from webhelpers import create, hdr, ledger_ok, play_kind_deal, post, settled_to_zero, sit, state
from webhelpers import finish_deal as _finish_deal
from webhelpers import kind_table_with_guest as _kind_table_with_guest


def test_design_turn_clock_defaults(client: TestClient) -> None:
    assert create(client, "kind", bots=3)["table"]["settings"]["turn_clock"] == 30
    assert create(client, "poker")["table"]["settings"]["turn_clock"] == 0
    assert create(client, "kind", bots=3, turn_clock=0)["table"]["settings"]["turn_clock"] == 0
    assert client.post("/api/tables", json={"game": "kind", "host_name": "H", "turn_clock": 3601}).status_code == 422


def test_design_host_sitting_out_lets_anyone_playing_deal(client: TestClient) -> None:
    """Nothing waits on the host for good: while the host sits out (e.g. two time-outs),
    any person playing may deal."""
    tid, host, guest = _kind_table_with_guest(client, 0)
    assert "deal" not in state(client, tid, guest)["host_actions"]
    assert post(client, tid, "/deal", guest).status_code == 403
    assert post(client, tid, "/seats/1/sit-out", host).status_code == 200
    assert state(client, tid, guest)["host_actions"] == ["deal"]
    assert post(client, tid, "/deal", guest).status_code == 200
    deal = state(client, tid, guest)["deal"]
    assert deal is None or 1 not in [e["seat"] for e in deal["seats"]]
    assert post(client, tid, "/void", guest, {"reason": "x"}).status_code in (403, 409)  # voiding stays the host's


def test_design_leave_cashes_out_and_rejoin_by_name_restores_the_balance(client: TestClient) -> None:
    t = create(client, "poker", bots=1)
    tid, host = t["table"]["id"], t["token"]
    ann = sit(client, tid, "Ann")
    assert post(client, tid, "/actions", ann["token"], {"kind": "wager", "ante": 50}).status_code == 200
    assert post(client, tid, "/actions", host, {"kind": "wager", "ante": 10}).status_code == 200
    assert post(client, tid, "/deal", host).status_code == 200
    me = state(client, tid, ann["token"])
    if me["round"]["actor"] == 1:
        assert post(client, tid, "/actions", host, {"kind": "fold"}).status_code == 200
    assert post(client, tid, "/actions", ann["token"], {"kind": "fold"}).status_code == 200
    balance = state(client, tid, ann["token"])["you"]["balance"]
    assert balance == 950
    # wagers placed before the deal are taken back when leaving
    assert post(client, tid, "/actions", ann["token"], {"kind": "wager", "ante": 20}).status_code == 200
    r = post(client, tid, f"/seats/{ann['seat']}/leave", ann["token"])
    assert r.status_code == 200 and r.json() == {"status": "left", "cashed_out": 950}
    assert post(client, tid, "/actions", ann["token"], {"kind": "wager", "ante": 10}).status_code == 403
    assert "Ann" not in [p["name"] for p in state(client, tid)["players"]]
    s = settled_to_zero(client, tid)
    row = next(r for r in s["players"] if r["name"] == "Ann")
    assert (row["status"], row["stack"], row["cashed_out"], row["net"]) == ("left", 0, 950, -50)
    # the same person comes back by name (any case): the same player, the same balance
    back = client.post(f"/api/tables/{tid}/seats", json={"name": "ann"})
    assert back.status_code == 201 and back.json()["balance"] == 950 and back.json()["name"] == "Ann"
    s = settled_to_zero(client, tid)
    assert [r["name"] for r in s["players"]].count("Ann") == 1
    row = next(r for r in s["players"] if r["name"] == "Ann")
    assert (row["status"], row["stack"], row["cashed_out"], row["bought_in"], row["net"]) == \
        ("playing", 950, 0, 1000, -50)
    ledger_ok(client, tid)


def test_design_leaving_mid_deal_folds_and_cashes_out_when_the_deal_ends(client: TestClient) -> None:
    tid, host, guest = _kind_table_with_guest(client, 0)
    assert post(client, tid, "/deal", host).status_code == 200
    r = post(client, tid, "/seats/5/leave", guest)
    assert r.status_code == 200 and r.json() == {"status": "leaving"}
    assert post(client, tid, "/actions", guest, {"kind": "check"}).status_code == 409
    s = _finish_deal(client, tid, host)
    assert "Guest" not in [p["name"] for p in s["players"]]
    assert any("Guest leaves the table and cashes out" in line for line in s["log"])
    settled_to_zero(client, tid)
    ledger_ok(client, tid)


def test_design_host_closes_the_table_everyone_cashed_out_history_kept(client: TestClient) -> None:
    t = create(client, "poker", bots=2)
    tid, host = t["table"]["id"], t["token"]
    guest = sit(client, tid, "Guest")["token"]
    assert post(client, tid, "/actions", host, {"kind": "wager", "ante": 10}).status_code == 200
    assert post(client, tid, "/deal", host).status_code == 200
    assert post(client, tid, "/close", guest).status_code == 403
    r = post(client, tid, "/close", host)
    assert r.status_code == 200 and set(r.json()["cashed_out"]) == {"Host", "Ada", "Boole", "Guest"}
    s = state(client, tid)
    assert s["table"]["status"] == "closed" and s["players"] == [] and s["host_actions"] == []
    assert post(client, tid, "/actions", host, {"kind": "wager", "ante": 10}).status_code == 409  # issue 19: closed
    assert client.post(f"/api/tables/{tid}/seats", json={"name": "Late"}).status_code == 409
    deals = client.get(f"/api/tables/{tid}/deals").json()["deals"]
    assert deals[0]["status"] == "voided" and "closed" in deals[0]["void_reason"]
    assert client.get(f"/api/tables/{tid}/deals/1").status_code == 200
    s = settled_to_zero(client, tid)
    assert all(r["stack"] == 0 and r["status"] == "left" for r in s["players"])
    assert [t["id"] for t in client.post("/api/tables/mine", json={"tokens": {tid: host}}).json()["tables"]] == [tid]
    ledger_ok(client, tid)


def test_design_replay_step_by_step_as_the_caller_may_see_it(client: TestClient) -> None:
    t = create(client, "poker", bots=0)
    tid, host = t["table"]["id"], t["token"]
    guest = sit(client, tid, "Guest")["token"]
    assert post(client, tid, "/actions", host, {"kind": "wager", "ante": 10}).status_code == 200
    assert post(client, tid, "/actions", guest, {"kind": "wager", "ante": 10}).status_code == 200
    assert post(client, tid, "/deal", host).status_code == 200
    assert client.get(f"/api/tables/{tid}/deals/1/replay").status_code == 409  # in progress: cards secret
    assert post(client, tid, "/actions", host, {"kind": "fold"}).status_code == 200
    assert post(client, tid, "/actions", guest, {"kind": "play", "amount": 10}).status_code == 200
    mine = client.get(f"/api/tables/{tid}/deals/1/replay", headers=hdr(host)).json()
    other = client.get(f"/api/tables/{tid}/deals/1/replay").json()
    assert [s["record"]["kind"] for s in mine["steps"]] == ["place_wagers", "place_wagers", "deal", "fold", "play"]
    assert mine["players"][:2] == [{"player": 0, "name": "Host"}, {"player": 1, "name": "Guest"}]
    assert mine["steps"][2]["lines"][0].startswith("Round 1: cards are dealt")
    # the host sees their own folded hand at every step; a spectator never sees it
    assert all(s["view"]["players"][0]["cards"] for s in mine["steps"][2:])
    assert not any(s["view"]["players"][0]["cards"] for s in other["steps"])
    assert other["steps"][-1]["view"]["players"][1]["cards"]  # the guest's hand at the showdown
    assert other["steps"][2]["record"]["hands"][0]["cards"] is None
    # a Four of a Kind deal replays too, one step per action or card
    k = create(client, "kind", bots=3, turn_clock=0)
    assert post(client, k["table"]["id"], "/deal", k["token"]).status_code == 200
    play_kind_deal(client, k["table"]["id"], {1: k["token"]})
    rep = client.get(f"/api/tables/{k['table']['id']}/deals/1/replay").json()
    assert len(rep["steps"]) > 4 and rep["steps"][-1]["view"]["phase"] == "finished"
    assert any(line.startswith("Turned") for s in rep["steps"] for line in s["lines"])


def test_foak1_default_four_of_a_kind_table_can_deal(client: TestClient) -> None:
    """FOAK-1 (seed 000 "four or more players"): a table created without a bot count gets
    enough bots to deal; one with too few players cannot, and says why."""
    t = client.post("/api/tables", json={"game": "kind", "host_name": "Host"}).json()
    assert t["table"]["bots"] == 3
    assert "deal" in state(client, t["table"]["id"], t["token"])["host_actions"]
    assert post(client, t["table"]["id"], "/deal", t["token"]).status_code == 200
    few = create(client, "kind", bots=2)
    s = state(client, few["table"]["id"], few["token"])
    assert "deal" not in s["host_actions"] and (s["players_ready"], s["min_players"]) == (3, 4)
    r = post(client, few["table"]["id"], "/deal", few["token"])
    assert r.status_code == 409 and "at least 4 players" in r.json()["detail"]


def test_opr803_art2_web_wager_taken_back_before_the_deal(client: TestClient) -> None:
    t = create(client, "poker", bots=0)
    tid, tok = t["table"]["id"], t["token"]
    assert post(client, tid, "/actions", tok, {"kind": "wager", "ante": 25, "aces_up": 5}).status_code == 200
    s = state(client, tid, tok)
    assert s["you"]["balance"] == 970 and s["actions"] == [{"kind": "withdraw"}]
    r = post(client, tid, "/actions", tok, {"kind": "withdraw"})
    assert r.status_code == 200 and r.json()["you"]["balance"] == 1000
    assert "deal" not in r.json()["host_actions"]
    assert any("Host takes back their wagers" in line for line in r.json()["log"])
    assert post(client, tid, "/actions", tok, {"kind": "wager", "ante": 10}).status_code == 200
    assert post(client, tid, "/deal", tok).status_code == 200
    r = post(client, tid, "/actions", tok, {"kind": "withdraw"})
    assert r.status_code == 409 and "wagers are closed" in r.json()["detail"]
    ledger_ok(client, tid)


def test_design_ante_that_leaves_no_play_bet_is_refused(client: TestClient) -> None:
    t = create(client, "poker", starting_chips=100)
    tid, tok = t["table"]["id"], t["token"]
    s = state(client, tid, tok)
    assert s["actions"][0]["ante_max"] == 50
    r = post(client, tid, "/actions", tok, {"kind": "wager", "ante": 60})
    assert r.status_code == 409 and "leaves no chips for the play bet" in r.json()["detail"]
    assert "ante at most 50" in r.json()["detail"]
    assert post(client, tid, "/actions", tok, {"kind": "wager", "ante": 50}).status_code == 200


def test_design_poker_log_says_round_as_the_table_does(client: TestClient) -> None:
    t = create(client, "poker", bots=1)
    tid, tok = t["table"]["id"], t["token"]
    assert post(client, tid, "/actions", tok, {"kind": "wager", "ante": 10}).status_code == 200
    assert post(client, tid, "/deal", tok).status_code == 200
    assert post(client, tid, "/void", tok, {"reason": "misdeal"}).status_code == 200
    log = state(client, tid, tok)["log"]
    assert any(line.startswith("Round 1: cards are dealt") for line in log)
    assert any(line.startswith("Round 1 voided") for line in log)
    assert not any(line.startswith("Deal ") for line in log)
