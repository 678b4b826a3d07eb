"""Game night (issue 11): private tables, seats the host approves, the turn clock and
sitting out, leaving and coming back, a seat handed to a new phone, closing a table,
top-ups, the night's settlement, replays, the server lock and versions across restarts.

Every test runs on SQLite and on PostgreSQL (tests/dbtesting.py). Rulings: DESIGN.md
"Table play (web) rulings".
"""

from __future__ import annotations

import csv
import io
import time

from fastapi.testclient import TestClient

from fourcards.web import create_app
from webhelpers import (
    create,
    hdr,
    kind_move,
    ledger_ok,
    play_kind_deal,
    post,
    settled_to_zero,
    sit,
    state,
    wait_for,
    ws_connect,
)
from webhelpers import (
    finish_deal as _finish_deal,
)
from webhelpers import (
    kind_table_with_guest as _kind_table_with_guest,
)

# ----------------------------------------------------------- private tables


def test_design_table_private_by_default_lobby_lists_public_and_mine(client: TestClient) -> None:
    private = create(client, "poker", host_name="Ann")
    public = create(client, "kind", host_name="Bob", public=True)
    assert private["table"]["public"] is False and public["table"]["public"] is True
    listed = [t["id"] for t in client.get("/api/tables").json()["tables"]]
    assert listed == [public["table"]["id"]]
    assert private["table"]["id"] not in client.get("/").text
    mine = client.post("/api/tables/mine", json={"tokens": {
        private["table"]["id"]: private["token"], public["table"]["id"]: "forged", "nosuchid": "x"}}).json()["tables"]
    assert [(t["id"], t["you"]["name"], t["you"]["is_host"]) for t in mine] == [(private["table"]["id"], "Ann", True)]
    # the host makes it public, then private again
    tid, tok = private["table"]["id"], private["token"]
    assert post(client, tid, "/settings", tok, {"public": True}).status_code == 200
    assert tid in [t["id"] for t in client.get("/api/tables").json()["tables"]]
    guest = sit(client, tid, "Guest")["token"]
    assert post(client, tid, "/settings", guest, {"public": False}).status_code == 403
    assert post(client, tid, "/settings", tok, {"public": False}).status_code == 200
    assert tid not in [t["id"] for t in client.get("/api/tables").json()["tables"]]


def test_design_new_seats_need_the_hosts_approval_on_private_tables(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "kind", "host_name": "Host"})
    assert r.status_code == 201
    t = r.json()
    tid, host = t["table"]["id"], t["token"]
    assert t["table"]["settings"]["seat_approval"] is True and t["table"]["players"] == 4  # 3 bots: can deal
    ask = client.post(f"/api/tables/{tid}/seats", json={"name": "Cleo"})
    assert ask.status_code == 202 and ask.json()["status"] == "pending"
    pending = ask.json()["token"]
    mine = state(client, tid, pending)
    assert mine["you"] is None and mine["request"]["status"] == "pending"
    assert post(client, tid, "/actions", pending, {"kind": "check"}).status_code == 403
    hv = state(client, tid, host)
    assert [(q["kind"], q["name"]) for q in hv["requests"]] == [("seat", "Cleo")]
    assert client.post(f"/api/tables/{tid}/seats", json={"name": "cleo"}).status_code == 409  # asked already
    with ws_connect(client, tid, pending) as ws:
        assert ws.receive_json()["request"]["status"] == "pending"
        assert post(client, tid, f"/requests/{ask.json()['request']}", pending, {"approve": True}).status_code == 403
        assert post(client, tid, f"/requests/{ask.json()['request']}", host, {"approve": True}).status_code == 200
        msg = ws.receive_json()
        while msg.get("you") is None:
            msg = ws.receive_json()
        assert msg["you"]["name"] == "Cleo" and msg["you"]["seat"] == 5 and msg["request"] is None
    assert state(client, tid, pending)["you"]["balance"] == 1000
    # turned down: the asker's view says so; nothing was seated
    ask = client.post(f"/api/tables/{tid}/seats", json={"name": "Dan"}).json()
    assert post(client, tid, f"/requests/{ask['request']}", host, {"approve": False}).status_code == 200
    assert state(client, tid, ask["token"])["request"]["status"] == "denied"
    assert "Dan" not in [p["name"] for p in state(client, tid, host)["players"]]
    # a public table lets people sit at once
    pub = client.post("/api/tables", json={"game": "poker", "host_name": "H", "public": True}).json()
    assert client.post(f"/api/tables/{pub['table']['id']}/seats", json={"name": "Eve"}).status_code == 201


# -------------------------------------------------------------- the clock


def test_design_clock_runs_out_checks_else_folds_then_two_time_outs_sit_out(client: TestClient) -> None:
    tid, host, guest = _kind_table_with_guest(client, 1)
    timeouts = 0
    for _deal in range(8):
        assert post(client, tid, "/deal", host).status_code == 200
        while timeouts < 2:
            s = state(client, tid, host)
            if s["deal"] is None:
                break
            if s["deal"]["actor"] == 1:
                assert post(client, tid, "/actions", host, kind_move(s["actions"])).status_code == 200
                continue
            # the guest's phone is dark: the clock runs out and the seat checks if it may, else folds
            assert s["deal"]["actor"] == 5 and s["clock"]["seat"] == 5 and 0 < s["clock"]["seconds_left"] <= 1
            timeouts += 1
            wait_for(lambda n=timeouts: state(client, tid, guest)["you"]["timeouts"] == n)
            assert "Guest's time ran out" in state(client, tid, host)["log"]
        _finish_deal(client, tid, host)
        if timeouts == 2:
            break
    assert timeouts == 2 and state(client, tid, guest)["you"]["status"] == "sitting_out"
    # sitting out: not dealt in the next deal
    assert post(client, tid, "/deal", host).status_code == 200
    deal = state(client, tid, host)["deal"]
    if deal is not None:
        assert 5 not in [e["seat"] for e in deal["seats"]]
        assert post(client, tid, "/void", host, {"reason": "test"}).status_code == 200
    # back by choice: dealt in again
    assert post(client, tid, "/seats/5/back", guest).status_code == 200
    assert state(client, tid, guest)["you"]["status"] == "playing"
    ledger_ok(client, tid)


def test_design_host_sits_a_player_out_and_its_turn_is_skipped_at_once(client: TestClient) -> None:
    t = create(client, "poker", bots=1)
    tid, host = t["table"]["id"], t["token"]
    guest = sit(client, tid, "Guest")["token"]
    assert post(client, tid, "/actions", host, {"kind": "wager", "ante": 10}).status_code == 200
    assert post(client, tid, "/actions", guest, {"kind": "wager", "ante": 10}).status_code == 200
    assert post(client, tid, "/deal", host).status_code == 200
    assert post(client, tid, "/actions", host, {"kind": "fold"}).status_code == 200
    assert state(client, tid, host)["round"]["actor"] == 3  # no clock at Four Card Poker: it would wait
    assert post(client, tid, "/seats/3/sit-out", host).status_code == 200
    s = wait_for(lambda: (x := state(client, tid, host))["round"]["phase"] == "wagers" and x)
    assert any("Guest folds" in line for line in s["log"]) and s["last"]["phase"] == "settled"
    assert post(client, tid, "/seats/1/sit-out", guest).status_code == 403  # another's seat: the host only
    # acting again brings the person back
    assert post(client, tid, "/actions", guest, {"kind": "wager", "ante": 10}).status_code == 200
    assert state(client, tid, guest)["you"]["status"] == "playing"
    ledger_ok(client, tid)


# --------------------------------------------------- leaving, coming back


def test_design_host_hands_a_seat_to_a_new_phone_and_removes_a_seat(client: TestClient) -> None:
    t = create(client, "kind", bots=2, turn_clock=0)
    tid, host = t["table"]["id"], t["token"]
    old = sit(client, tid, "Guest")["token"]
    assert post(client, tid, "/deal", host).status_code == 200
    play_kind_deal(client, tid, {1: host, 4: old})
    balance = state(client, tid, old)["you"]["balance"]
    assert post(client, tid, "/seats/4/new-device", old).status_code == 403
    with ws_connect(client, tid, old) as ws:
        ws.receive_json()
        r = post(client, tid, "/seats/4/new-device", host)
        assert r.status_code == 200
        msg = ws.receive_json()
        while msg.get("type") != "error":
            msg = ws.receive_json()
        assert msg["status"] == 403 and "the host handed the seat to another phone" in msg["detail"]
    new = r.json()["token"]
    assert r.json()["join_url"] == f"/t/{tid}#token={new}"
    assert state(client, tid, new)["you"] == {**state(client, tid, new)["you"], "name": "Guest", "balance": balance}
    assert client.get(f"/api/tables/{tid}/state", headers=hdr(old)).status_code == 403
    # the host removes a bot: its chips are cashed out
    bot_balance = state(client, tid)["players"][1]["balance"]
    r = post(client, tid, "/seats/2/leave", host)
    assert r.status_code == 200 and r.json()["cashed_out"] == bot_balance
    assert post(client, tid, "/seats/1/leave", new).status_code == 403
    settled_to_zero(client, tid)


# --------------------------------------------------- top-ups, settlement


def test_design_top_up_approved_by_the_host_and_the_nights_settlement(client: TestClient) -> None:
    t = create(client, "poker", bots=1)
    tid, host = t["table"]["id"], t["token"]
    guest = sit(client, tid, "Guest")["token"]
    r = post(client, tid, "/top-ups", guest, {"amount": 500})
    assert r.status_code == 200 and r.json()["status"] == "pending"
    assert post(client, tid, "/top-ups", guest, {"amount": 5}).status_code == 409
    assert post(client, tid, "/top-ups", guest, {"amount": 0}).status_code == 422
    assert post(client, tid, "/top-ups", host, {"amount": 200}).json() == {"status": "done", "balance": 1200}
    rid = state(client, tid, host)["requests"][0]["id"]
    assert post(client, tid, f"/requests/{rid}", host, {"approve": True}).status_code == 200
    assert state(client, tid, guest)["you"]["balance"] == 1500
    for _ in range(3):  # three rounds against the house
        assert post(client, tid, "/actions", host, {"kind": "wager", "ante": 10, "aces_up": 5}).status_code == 200
        assert post(client, tid, "/actions", guest, {"kind": "wager", "ante": 20}).status_code == 200
        assert post(client, tid, "/deal", host).status_code == 200
        for tok in (host, guest):
            acts = {a["kind"]: a for a in state(client, tid, tok)["actions"]}
            assert post(client, tid, "/actions", tok, {"kind": "play", "amount": acts["play"]["min"]}).status_code == 200
    s = settled_to_zero(client, tid)
    rows = {r["name"]: r for r in s["players"]}
    assert (rows["Host"]["top_ups"], rows["Guest"]["top_ups"], rows["Guest"]["bought_in"]) == (200, 500, 1000)
    assert s["house"] == -sum(r["net"] for r in s["players"])
    deals = client.get(f"/api/tables/{tid}/deals").json()["deals"]
    assert sum(p["net"] for d in deals for p in d["players"]) == -s["house"]
    r = client.get(f"/api/tables/{tid}/settlement.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows_csv = list(csv.reader(io.StringIO(r.text)))
    assert rows_csv[0] == ["name", "seat", "status", "bought_in", "top_ups", "cashed_out", "stack", "net"]
    total = next(i for i, row in enumerate(rows_csv) if row[0] == "total")  # then who pays whom (issue 21)
    assert rows_csv[total][-1] == "0" and rows_csv[total + 1] == [""]
    assert sum(int(row[-1]) for row in rows_csv[1:total]) == 0  # people, bots and the house


# ----------------------------------------------------------- replays


# ------------------------------------------------------- smaller faults


# ------------------------------------------- invites, versions, the lock


def test_design_invite_link_and_qr_code_from_the_public_address(database_url: str) -> None:
    with TestClient(create_app(database_url, bot_delay=0, public_url="http://192.0.2.7:8000/")) as c:
        t = create(c, "poker")
        tid = t["table"]["id"]
        assert t["invite_url"] == t["table"]["invite_url"] == f"http://192.0.2.7:8000/t/{tid}"
        assert state(c, tid)["table"]["invite_url"] == f"http://192.0.2.7:8000/t/{tid}"
        r = c.get(f"/t/{tid}/qr.svg")
        assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
        assert f"<title>http://192.0.2.7:8000/t/{tid}</title>" in r.text and "<path" in r.text
        assert c.get("/t/nosuch/qr.svg").status_code == 404


def test_issue12_a_turn_clock_runs_out_once_with_two_servers_watching(database_url: str) -> None:
    """The clock lives in the database; both servers look for due work and one claims it:
    the guest's decision times out exactly once per round (one time-out line, one fold)."""
    with TestClient(create_app(database_url, bot_delay=0)) as a, TestClient(create_app(database_url, bot_delay=0)) as b:
        t = create(a, "poker", bots=0, turn_clock=1)
        tid, host = t["table"]["id"], t["token"]
        guest = sit(b, tid, "Guest")["token"]
        for number in (1, 2):
            assert post(a, tid, "/actions", host, {"kind": "wager", "ante": 10}).status_code == 200
            assert post(b, tid, "/actions", guest, {"kind": "wager", "ante": 10}).status_code == 200
            assert post(b if number == 1 else a, tid, "/deal", host).status_code == 200
            assert post(a, tid, "/actions", host, {"kind": "fold"}).status_code == 200
            wait_for(lambda: c_status(a, tid, number) == "settled", 10)  # noqa: B023
            time.sleep(1.0)  # both servers had time to act on the guest's turn again
            history = b.get(f"/api/tables/{tid}/deals/{number}").json()["history"]
            assert [r["kind"] for r in history if r.get("player") == 1 and r["kind"] in ("fold", "play")] == ["fold"]
        log = state(b, tid)["log"]
        assert log.count("Guest's time ran out") == 2
        ledger_ok(a, tid)


def c_status(client: TestClient, tid: str, number: int) -> str | None:
    deals = client.get(f"/api/tables/{tid}/deals").json()["deals"]
    return next((d["status"] for d in deals if d["number"] == number), None)


def test_design_versions_never_go_backwards_across_restarts(database_url: str) -> None:
    with TestClient(create_app(database_url, bot_delay=0)) as c:
        t = create(c, "kind", bots=3, turn_clock=0)
        tid, tok = t["table"]["id"], t["token"]
        for _ in range(3):
            assert post(c, tid, "/deal", tok).status_code == 200
            play_kind_deal(c, tid, {1: tok})
        first = state(c, tid, tok)["version"]
    with TestClient(create_app(database_url, bot_delay=0)) as c:
        again = state(c, tid, tok)["version"]
        assert again >= first  # the table's version is in the database


def test_issue12_two_servers_on_one_database_share_every_table(database_url: str) -> None:
    """Servers that share a database cooperate (issue 12): a table made through A is played
    through B and A in turn; each change is checked against the table's version, so a copy
    another server made stale is read again (or the change retried), never applied twice."""
    with TestClient(create_app(database_url, bot_delay=0)) as a, TestClient(create_app(database_url, bot_delay=0)) as b:
        t = create(a, "kind", bots=2, turn_clock=0)
        tid, host = t["table"]["id"], t["token"]
        r = b.post(f"/api/tables/{tid}/seats", json={"name": "Guest"})
        assert r.status_code == 201, r.text
        guest = r.json()["token"]
        assert [p["name"] for p in state(a, tid)["players"]][-1] == "Guest"  # A reads what B wrote
        assert post(b, tid, "/deal", host).status_code == 200
        servers = {host: a, guest: b}
        for i in range(300):
            s = state(a if i % 2 else b, tid, host)
            if s["deal"] is None:
                break
            actor = s["deal"]["actor"]
            tok = host if actor == 1 else guest
            acts = {x["kind"] for x in state(b if i % 2 else a, tid, tok)["actions"]}
            r = post(servers[tok] if i % 3 else (b if servers[tok] is a else a), tid, "/actions", tok,
                     {"kind": "call"} if "call" in acts else {"kind": "check"})
            assert r.status_code == 200, r.text
        deals = a.get(f"/api/tables/{tid}/deals").json()["deals"]
        assert deals[0]["status"] == "settled" and b.get(f"/api/tables/{tid}/deals").json()["deals"] == deals
        ledger_ok(a, tid)
        ledger_ok(b, tid)
        assert state(a, tid)["players"] == state(b, tid)["players"]


