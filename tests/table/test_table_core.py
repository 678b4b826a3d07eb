"""The table core's rules (docs/rules.md TP-5, TP-7, TP-8), moved from tests/web (issue 28): a
person leaving mid-deal, the host's pause, an action id applied once - asked for as the web's
routes are, on a server's execution path over an in-memory store without HTTP
(tests/table/localclient.py).
"""

from __future__ import annotations

from localclient import LocalClient as TestClient

from webhelpers import check_or_call as _move
from webhelpers import four_people_dealt as _kind_table
from webhelpers import post, state
from webhelpers import to_act as _to_act


def test_tp5_leaving_mid_deal_forfeits_and_the_seat_is_never_asked_again(client: TestClient) -> None:
    tid, tok = _kind_table(client)
    s = state(client, tid, tok["Ann"])
    leaver = _to_act(s)  # the person to act leaves: play moves on at once
    seat = next(p["seat"] for p in s["players"] if p["name"] == leaver)
    r = post(client, tid, f"/seats/{seat}/leave", tok[leaver])
    assert r.status_code == 200 and r.json() == {"status": "leaving"}
    s = state(client, tid, tok["Ann"])
    me = next(p for p in s["deal"]["seats"] if p["seat"] == seat)
    assert me["status"] == "folded" and me["forfeited"] and _to_act(s) != leaver
    assert all(seat not in pot["eligible"] for pot in s["deal"]["pots"])
    assert f"{leaver} leaves the table: the hand is forfeited" in s["log"]
    assert post(client, tid, "/actions", tok[leaver], {"kind": "check"}).status_code == 409
    for _ in range(300):
        s = state(client, tid)  # a spectator's view (the leaver may be the host, cashed out at the end)
        if s["deal"] is None:
            break
        who = _to_act(s)
        assert who != leaver
        assert post(client, tid, "/actions", tok[who], _move(state(client, tid, tok[who]))).status_code == 200
    last = state(client, tid)
    assert all(a["name"] != leaver for a in last["last"]["awards"])
    assert leaver not in [p["name"] for p in last["players"]]
    assert any(f"{leaver} leaves the table and cashes out 995 chips" in line for line in last["log"])
    assert client.get(f"/api/tables/{tid}/ledger").json()["audit"]["total"] == 0
