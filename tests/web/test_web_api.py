"""The web API end to end (TestClient, SQLite and PostgreSQL): lobby, seats, both games
to the end, host rulings, histories, the ledger, websockets, a restart in-process."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from fourcards.web import create_app
from webhelpers import comparable, create, hdr, play_kind_deal, post, sit, state, ws_connect


def audit(client: TestClient, tid: str) -> dict:
    r = client.get(f"/api/tables/{tid}/ledger")
    assert r.status_code == 200
    return r.json()


def assert_balanced(client: TestClient, tid: str) -> None:
    led = audit(client, tid)
    assert led["audit"] == {"total": 0, "unbalanced_txns": [], "open_escrow_deals": []}
    players = {str(p["seat"]): p["balance"] for p in state(client, tid)["players"]}
    assert players == led["balances"]  # memory == ledger


def test_health_presets_and_pages(client: TestClient) -> None:
    r = client.get("/api/health")
    assert r.status_code == 200 and r.json()["status"] == "ok"
    p = client.get("/api/presets").json()
    assert set(p["poker"]) == {"live", "online"} and "family" in p["kind"]
    assert "50/30/7/6/5/2/1" in p["aces_up_tables"]
    assert client.get("/").status_code == 200
    assert client.get("/t/nosuchtable").status_code == 404
    t = create(client)
    page = client.get(t["join_url"])
    assert page.status_code == 200 and "table.js" in page.text
    assert t["token"] not in page.text
    assert client.get("/static/table.js").status_code == 200
    assert client.get("/openapi.json").status_code == 200


def test_poker_round_with_bots(client: TestClient) -> None:
    t = create(client, "poker", bots=2, preset="online", rules={"aces_up": "50/40/7/5/4/3/1"}, public=True)
    tid, tok = t["table"]["id"], t["token"]
    assert t["table"]["rules"]["aces_up"] == "50/40/7/5/4/3/1"
    assert t["table"]["rules"]["play_multiples"] == [1, 3]
    lobby = client.get("/api/tables").json()["tables"]
    assert [x["id"] for x in lobby] == [tid] and "token" not in str(lobby)
    r = post(client, tid, "/actions", tok, {"kind": "wager", "ante": 10, "aces_up": 5})
    assert r.status_code == 200
    assert [p["balance"] for p in r.json()["players"]] == [985, 1000, 1000]
    r = post(client, tid, "/deal", tok)
    assert r.status_code == 200, r.text
    s = r.json()
    me = next(e for e in s["round"]["seats"] if e["seat"] == 1)
    assert len(me["cards"]) == 5 and s["round"]["up_card"] and s["round"]["dealer_cards"] is None
    assert {a["kind"] for a in s["actions"]} == {"fold", "play"}
    play = next(a for a in s["actions"] if a["kind"] == "play")
    assert play["amounts"] == [10, 30]
    # the deal's history is not published while it is in progress
    assert client.get(f"/api/tables/{tid}/deals/1").status_code == 409
    r = post(client, tid, "/actions", tok, {"kind": "play", "amount": 30})
    assert r.status_code == 200, r.text
    s = r.json()
    assert s["round"]["phase"] == "wagers" and s["last"]["phase"] == "settled"
    assert len(s["last"]["dealer_cards"]) == 6
    results = {e["seat"]: e["result"] for e in s["last"]["seats"]}
    assert set(results) == {1, 2, 3}
    assert set(results[1]["wagers"]) == {"ante", "play", "ante_bonus", "aces_up"}
    nets = {e["seat"]: e["result"]["net"] for e in s["last"]["seats"]}
    assert {p["seat"]: p["balance"] - 1000 for p in s["players"]} == nets
    assert_balanced(client, tid)
    d = client.get(f"/api/tables/{tid}/deals/1", headers=hdr(tok)).json()
    assert d["status"] == "settled"
    assert [r["kind"] for r in d["history"]][:4] == ["place_wagers", "place_wagers", "place_wagers", "deal"]
    assert sum(e["amount"] for e in d["ledger"]) == 0
    assert client.get(f"/api/tables/{tid}/deals").json()["deals"][0]["number"] == 1


def test_kind_deal_with_two_humans_and_bots(client: TestClient) -> None:
    t = create(client, "kind", bots=3, rules={"ante": 5, "min_bet": 5, "max_bet": 10})
    tid, host = t["table"]["id"], t["token"]
    guest = sit(client, tid, "Guest")["token"]
    s = state(client, tid, host)
    assert s["deal"] is None and "deal" in s["host_actions"]
    assert post(client, tid, "/deal", guest).status_code == 403  # only the host deals
    r = post(client, tid, "/deal", host)
    assert r.status_code == 200, r.text
    d = r.json()["deal"]
    assert d["pot"] >= 25 and len(d["seats"]) == 5
    odds = [e["odds"] for e in d["seats"] if e["status"] == "active"]
    assert all(o is not None for o in odds)
    assert abs(sum(o["p_high"] for o in odds) - 1) < 1e-9
    assert abs(sum(o["p_low"] for o in odds) - 1) < 1e-9
    end = play_kind_deal(client, tid, {1: host, 5: guest})
    last = end["last"]
    assert last["phase"] == "finished" and last["awards"]
    assert sum(a["amount"] for a in last["awards"]) == sum(e["contributed"] for e in last["seats"])
    assert sum(last["payoffs"].values()) == 0
    assert {str(p["seat"]): p["balance"] - 1000 for p in end["players"]} == last["payoffs"]
    if last["last_turn"]:
        assert last["last_turn"]["card"]
    assert_balanced(client, tid)
    hist = client.get(f"/api/tables/{tid}/deals/1").json()["history"]
    assert hist[0]["op"] == "start" and hist[-1]["op"] == "award"


@pytest.mark.parametrize("game", ["poker", "kind"])
def test_host_void_refunds_everything(client: TestClient, game: str) -> None:
    t = create(client, game, bots=3)
    tid, tok = t["table"]["id"], t["token"]
    before = {p["seat"]: p["balance"] for p in state(client, tid)["players"]}
    if game == "poker":
        post(client, tid, "/actions", tok, {"kind": "wager", "ante": 10, "aces_up": 3})
    assert post(client, tid, "/deal", tok).status_code == 200
    guest = sit(client, tid, "Late")["token"]
    assert post(client, tid, "/void", guest, {"reason": "no"}).status_code == 403
    mid = {p["seat"]: p["balance"] for p in state(client, tid)["players"]}
    assert mid != {**before, 5: 1000}
    r = post(client, tid, "/void", tok, {"reason": "misdeal"})
    assert r.status_code == 200, r.text
    after = {p["seat"]: p["balance"] for p in r.json()["players"]}
    assert after == {**before, 5: 1000}
    assert any("misdeal" in line for line in r.json()["log"])
    d = client.get(f"/api/tables/{tid}/deals/1").json()
    assert d["status"] == "voided" and d["void_reason"] == "host ruling: misdeal"
    assert_balanced(client, tid)
    assert post(client, tid, "/void", tok, {"reason": "again"}).status_code == 409


def test_rules_validation(client: TestClient) -> None:
    bad = [
        {"game": "poker", "host_name": "A", "rules": {"aces_up": "50/40/8"}},
        {"game": "poker", "host_name": "A", "preset": "vegas"},
        {"game": "poker", "host_name": "A", "rules": {"max_bet": 10}},
        {"game": "kind", "host_name": "A", "rules": {"min_bet": 10, "max_bet": 5}},
        {"game": "kind", "host_name": "A", "rules": {"aces_up": "50/40/8/5/4/3/1"}},
        {"game": "kind", "host_name": "A", "bots": 13},
        {"game": "chess", "host_name": "A"},
        {"game": "poker", "host_name": "   "},
        {"game": "poker", "host_name": "A", "starting_chips": "100"},
    ]
    for body in bad:
        r = client.post("/api/tables", json=body)
        assert r.status_code == 422, (body, r.text)
        assert isinstance(r.json()["detail"], str) and r.json()["detail"]
    assert client.get("/api/tables").json()["tables"] == []
    t = create(client, "poker", rules={"ante_bonus": "30/15/2", "min_ante": 5, "max_ante": 50})
    assert t["table"]["rules"]["ante_bonus"] == "30/15/2" and t["table"]["rules"]["min_ante"] == 5


def test_websocket_state_actions_and_errors(client: TestClient) -> None:
    t = create(client, "poker", bots=1)
    tid, tok = t["table"]["id"], t["token"]
    with ws_connect(client, tid, tok) as ws:
        s = ws.receive_json()
        assert s["type"] == "state" and s["you"]["seat"] == 1 and "token" not in str(s)
        ws.send_text('{"op": "action", "id": 7, "action": {"kind": "wager", "ante": 10}}')
        msgs = [ws.receive_json() for _ in range(2)]
        assert msgs[0]["type"] == "state" and msgs[1] == {"type": "ack", "id": 7}
        ws.send_text("{not json")
        e = ws.receive_json()
        assert e["type"] == "error" and e["status"] == 400
        ws.send_text('{"op": "action", "id": 8, "action": {"kind": "play", "amount": 10}}')
        e = ws.receive_json()
        assert e["type"] == "error" and e["status"] == 409 and e["id"] == 8
        ws.send_text('{"op": "deal", "id": 9}')
        got = [ws.receive_json() for _ in range(2)]
        assert got[-1] == {"type": "ack", "id": 9}
    with ws_connect(client, tid, "forged") as ws:
        e = ws.receive_json()
        assert e["status"] == 403
    with client.websocket_connect("/ws/tables/nosuchid") as ws:
        assert ws.receive_json()["status"] == 404
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:  # a spectator sees no hand
        s = ws.receive_json()
        assert s["you"] is None and all(e["cards"] is None for e in s["round"]["seats"])
        ws.send_text('{"op": "deal"}')
        assert ws.receive_json()["status"] == 401


def test_issue12_restart_in_process_resumes_the_deal(database_url: str) -> None:
    """Deals survive a restart: the next app replays each deal in progress from its stored
    history and the deal goes on where it stood (voiding stays the host's ruling)."""
    app = create_app(database_url, bot_delay=0)
    with TestClient(app) as c:
        t = create(c, "kind", bots=4)
        tid, tok = t["table"]["id"], t["token"]
        p = create(c, "poker", bots=1)
        pid, ptok = p["table"]["id"], p["token"]
        before_k = comparable(state(c, tid))["players"]
        assert post(c, tid, "/deal", tok).status_code == 200
        post(c, pid, "/actions", ptok, {"kind": "wager", "ante": 20, "aces_up": 5})
        assert post(c, pid, "/deal", ptok).status_code == 200
        assert state(c, tid)["players"] != before_k
        mid_k, mid_p = state(c, tid, tok), state(c, pid, ptok)
    # the app stopped with both deals in progress: the next start finds them where they stood
    app2 = create_app(database_url, bot_delay=0)
    with TestClient(app2) as c:
        again_k, again_p = state(c, tid, tok), state(c, pid, ptok)
        assert again_k["players"] == mid_k["players"] and again_k["deal"] == mid_k["deal"]
        assert again_p["round"] == mid_p["round"] and again_p["players"] == mid_p["players"]
        assert again_k["log"] == mid_k["log"]  # the table log is kept with the table
        assert again_k["version"] >= mid_k["version"]  # views never go backwards
        if again_k["deal"] is not None and again_k["deal"]["actor"] == 1:  # the engine names players again
            r = post(c, tid, "/actions", tok, {"kind": "raise", "amount": 99999})
            assert r.status_code == 409 and r.json()["detail"].startswith("Host cannot raise"), r.text
        # the Four Card Poker round finishes: the host decides, the bots have
        assert post(c, pid, "/actions", ptok, {"kind": "fold"}).status_code == 200
        assert state(c, pid)["round"]["phase"] == "wagers"
        assert c.get(f"/api/tables/{pid}/deals/1").json()["status"] == "settled"
        # the Four of a Kind deal goes on to its end
        for _ in range(200):
            s = state(c, tid, tok)
            if s["deal"] is None:
                break
            acts = {a["kind"]: a for a in s["actions"]}
            assert acts, "the deal waits for the host"
            r = post(c, tid, "/actions", tok, {"kind": "call"} if "call" in acts else {"kind": "check"})
            assert r.status_code == 200, r.text
        assert c.get(f"/api/tables/{tid}/deals/1").json()["status"] == "settled"
        for t_id in (tid, pid):
            assert_balanced(c, t_id)
        assert post(c, tid, "/deal", tok).status_code == 200
        assert state(c, tid, tok)["you"]["is_host"]


def test_kind_preset_name_in_lobby_and_table_page(client: TestClient) -> None:
    nickel = create(client, "kind", preset="nickel", name="Nickel night", public=True)
    custom = create(client, "kind", preset="opr903", rules={"max_raises": 2}, name="House rules", public=True)
    assert nickel["table"]["rules"]["name"] == "nickel"
    assert custom["table"]["rules"]["name"] == "opr903+custom"
    assert custom["table"]["rules_label"] == ("Official rules, changed: ante 5, bets 5\u201310, 2 raises at most, "
                                              "every duplicate re-dealt")
    lobby = client.get("/").text  # the rules in words (issue 21 item 9), not the preset's name
    assert "Four of a Kind &middot; Nickel game: ante 5\u00a2, bets 5\u00a2\u201310\u00a2 &middot;" in lobby
    assert "Four of a Kind &middot; Official rules, changed: ante 5" in lobby
    page = client.get(nickel["join_url"]).text
    assert "Four of a Kind &middot; Nickel game: ante 5\u00a2, bets 5\u00a2\u201310\u00a2</p>" in page


def test_kind_rules_stored_without_a_name_get_their_preset_back() -> None:
    from fourcards.kind.rules import PRESETS
    from fourcards.table.kind import KindTable

    kind_rules_from_dict = KindTable.rules_from_dict

    def legacy(d: dict) -> dict:
        return {k: v for k, v in d.items() if k != "name"}

    for name, rules in PRESETS.items():
        back = kind_rules_from_dict(legacy(rules.to_dict()))
        # the first preset with these rules (nickel's amounts equal family's)
        assert back.name in PRESETS and back.with_(name=name) == rules
    assert kind_rules_from_dict(legacy(PRESETS["opr903"].to_dict())).name == "opr903"
    odd = legacy(PRESETS["nickel"].to_dict()) | {"max_raises": 7}
    assert kind_rules_from_dict(odd).name == "custom"
    assert kind_rules_from_dict(PRESETS["opr903"].to_dict()).name == "opr903"

