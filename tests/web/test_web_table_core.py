"""The table core's rules through the web (issue 20; docs/rules.md TP-5 to TP-8): leaving mid-deal
forfeits, the pause, action ids applied once - also through two servers at once and after a
restart - and downtime giving the person to act their time back (real ``fourcards serve``
processes, SIGKILLed). Every test runs on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient
from servers import Server

from fourcards.web import create_app
from webhelpers import check_or_call as _move
from webhelpers import four_people_dealt as _kind_table
from webhelpers import hdr, post, state, ws_connect
from webhelpers import to_act as _to_act


def test_tp7_pause_stops_moves_and_every_view_says_so(client: TestClient) -> None:
    tid, tok = _kind_table(client, clock=30)
    s = state(client, tid, tok["Ann"])
    assert "pause" in s["host_actions"] and s["clock"]["seconds_left"] > 25
    assert post(client, tid, "/pause", tok["Ben"]).status_code == 403
    r = post(client, tid, "/pause", tok["Ann"])
    assert r.status_code == 200 and r.json()["paused"] and "resume" in r.json()["host_actions"]
    who = _to_act(r.json())
    spectator = state(client, tid)
    assert spectator["paused"] and spectator["table"]["paused"] and spectator["clock"]["paused"]
    refused = post(client, tid, "/actions", tok[who], {"kind": "check"})
    assert refused.status_code == 409 and "paused" in refused.json()["detail"]
    left = spectator["clock"]["seconds_left"]
    time.sleep(1.2)
    assert state(client, tid)["clock"]["seconds_left"] == left  # no clock runs
    with ws_connect(client, tid, tok['Ann']) as ws:
        ws.receive_json()
        ws.send_json({"op": "resume", "id": 1})
        msg = ws.receive_json()
        while msg.get("type") != "ack":
            msg = ws.receive_json()
        assert msg == {"type": "ack", "id": 1}
    s = state(client, tid, tok[who])
    assert not s["paused"] and s["clock"]["seconds_left"] <= left
    assert post(client, tid, "/actions", tok[who], _move(s)).status_code == 200


def test_tp8_a_repeated_action_id_gets_the_first_answer_and_changes_nothing(client: TestClient) -> None:
    tid, tok = _kind_table(client)
    s = state(client, tid, tok["Ann"])
    who = _to_act(s)
    body = {**_move(state(client, tid, tok[who])), "action_id": "tap-1"}
    first = post(client, tid, "/actions", tok[who], body)
    assert first.status_code == 200 and "repeated" not in first.json()
    again = post(client, tid, "/actions", tok[who], body)
    assert again.status_code == 200 and again.json()["repeated"] is True
    assert again.json()["version"] == first.json()["version"]
    assert post(client, tid, "/actions", tok[who], {**body, "action_id": "x" * 65}).status_code == 422
    with ws_connect(client, tid, tok[who]) as ws:
        ws.receive_json()
        ws.send_json({"op": "action", "action": body, "id": 7})
        msg = ws.receive_json()
        while msg.get("type") != "ack" and msg.get("type") != "error":
            msg = ws.receive_json()
        assert msg == {"type": "ack", "id": 7, "repeated": True}


def _answer(ws: Any) -> dict[str, Any]:
    msg = ws.receive_json()
    while msg.get("type") not in ("ack", "error"):
        msg = ws.receive_json()
    return msg


def test_tp8_a_websocket_action_id_beside_the_action_counts_like_one_inside_it(client: TestClient) -> None:
    """The play test's doubled tap: ``{"op": "action", "action": {...}, "action_id": ...}`` sent
    twice is applied once (the id was ignored there before, and the repeat judged a new move)."""
    tid, tok = _kind_table(client)
    who = _to_act(state(client, tid, tok["Ann"]))
    move = _move(state(client, tid, tok[who]))
    with ws_connect(client, tid, tok[who]) as ws:
        ws.receive_json()
        ws.send_json({"op": "action", "action": move, "action_id": "ws-1", "id": 1})
        assert _answer(ws) == {"type": "ack", "id": 1}
        version = state(client, tid, tok[who])["version"]
        ws.send_json({"op": "action", "action": move, "action_id": "ws-1", "id": 2})
        assert _answer(ws) == {"type": "ack", "id": 2, "repeated": True}
        assert state(client, tid, tok[who])["version"] == version
        ws.send_json({"op": "action", "action": {**move, "action_id": "a"}, "action_id": "b", "id": 3})
        msg = _answer(ws)
        assert msg["status"] == 422 and "action_id is given twice" in msg["detail"]


def test_tp8_a_websocket_op_refuses_a_field_it_does_not_take(client: TestClient) -> None:
    tid, tok = _kind_table(client)
    with ws_connect(client, tid, tok['Ann']) as ws:
        ws.receive_json()
        version = state(client, tid, tok["Ann"])["version"]
        for msg, words in (({"op": "action", "action": {"kind": "check"}, "bogus": 1}, "op 'action' takes no field 'bogus'"),
                           ({"op": "pause", "reason": "x"}, "takes nothing but op and id"),
                           ({"op": "deal", **{f"k{i}": i for i in range(50)}}, "'k2' and 47 more")):
            ws.send_json({**msg, "id": 5})
            got = _answer(ws)
            assert got["status"] == 422 and words in got["detail"], got
        assert state(client, tid, tok["Ann"])["version"] == version  # nothing applied


def test_tp8_the_same_action_id_through_two_servers_at_once_is_applied_once(database_url: str) -> None:
    with TestClient(create_app(database_url, bot_delay=0)) as a, TestClient(create_app(database_url, bot_delay=0)) as b:
        tid, tok = _kind_table(a)
        for attempt in range(6):
            s = state(b, tid, tok["Ann"])
            if s["deal"] is None:
                assert post(a, tid, "/deal", tok["Ann"]).status_code == 200
                s = state(b, tid, tok["Ann"])
            who = _to_act(s)
            body = {**_move(state(a, tid, tok[who])), "action_id": f"race-{attempt}"}
            lines_before = len(state(a, tid)["log"])
            answers: list[httpx.Response] = []
            start = threading.Barrier(2)

            def send(client: TestClient, answers: list[httpx.Response] = answers, body: dict[str, Any] = body,
                     who: str = who, start: threading.Barrier = start) -> None:
                start.wait()
                answers.append(client.post(f"/api/tables/{tid}/actions", json=body, headers=hdr(tok[who])))

            threads = [threading.Thread(target=send, args=(c,)) for c in (a, b)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=60)
            assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
            assert sorted(bool(r.json().get("repeated")) for r in answers) == [False, True]
            new = state(a, tid)["log"][lines_before:]
            verb = "checks" if body["kind"] == "check" else "calls"
            assert sum(1 for line in new if line.startswith(f"{who} {verb}")) == 1, new
        assert a.get(f"/api/tables/{tid}/ledger").json()["audit"]["total"] == 0


def test_tp8_an_action_id_is_remembered_across_a_restart(database_url: str) -> None:
    with TestClient(create_app(database_url, bot_delay=0)) as c:
        tid, tok = _kind_table(c)
        who = _to_act(state(c, tid, tok["Ann"]))
        body = {**_move(state(c, tid, tok[who])), "action_id": "before-the-crash"}
        assert post(c, tid, "/actions", tok[who], body).status_code == 200
        version = state(c, tid)["version"]
    with TestClient(create_app(database_url, bot_delay=0)) as c:
        again = post(c, tid, "/actions", tok[who], body)
        assert again.status_code == 200 and again.json()["repeated"] and again.json()["version"] == version


def test_tp6_a_turn_clock_running_through_downtime_gives_the_time_it_had_left(database_url: str,
                                                                             tmp_path: Path) -> None:
    server = Server(database_url, tmp_path / "server.log")
    server.start()
    try:
        base = server.base
        t = httpx.post(f"{base}/api/tables", json={"game": "kind", "host_name": "Ann", "bots": 0, "turn_clock": 12,
                                                   "public": True}).json()
        tid, tok = t["table"]["id"], {"Ann": t["token"]}
        for name in ("Ben", "Cat", "Dan"):
            tok[name] = httpx.post(f"{base}/api/tables/{tid}/seats", json={"name": name}).json()["token"]
        assert httpx.post(f"{base}/api/tables/{tid}/deal", headers=hdr(tok["Ann"])).status_code == 200
        s = httpx.get(f"{base}/api/tables/{tid}/state").json()
        who, left_before = _to_act(s), s["clock"]["seconds_left"]
        time.sleep(2)
        server.kill()  # SIGKILL: no shutdown code runs
        time.sleep(16)  # longer than the whole clock: no server is alive meanwhile
        server.start()
        s = httpx.get(f"{base}/api/tables/{tid}/state").json()
        assert s["deal"] is not None and _to_act(s) == who, s["log"][-3:]  # nobody timed out
        assert s["clock"]["seconds_left"] >= 8, s["clock"]  # the ~10 s it had left (at least 10 s)
        assert any(line.startswith("No server was running for") and f"{who} has" in line for line in s["log"])
        assert not any("time ran out" in line for line in s["log"])
        r = httpx.post(f"{base}/api/tables/{tid}/actions", json=_move(httpx.get(
            f"{base}/api/tables/{tid}/state", headers=hdr(tok[who])).json()), headers=hdr(tok[who]))
        assert r.status_code == 200, r.text
        assert left_before > 10
    finally:
        server.stop()
