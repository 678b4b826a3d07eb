"""Issue 28 through the app: one command path for REST and the websocket, and a command's REST
answer that is the view the publisher built for the same state."""

from __future__ import annotations

from fastapi.testclient import TestClient

from fourcards.web.commands import OPERATIONS
from fourcards.web.routes.live import OPS
from webhelpers import create, post, sit, ws_connect


def test_issue28_3_every_websocket_op_is_an_operation_of_the_one_command_path() -> None:
    assert set(OPS) - {"ping"} <= set(OPERATIONS)


def test_issue28_3_the_rest_answer_is_the_view_the_seats_socket_was_pushed(client: TestClient) -> None:
    """A seat's REST action answers with the view its open socket was pushed for that state - the
    one the publisher built, not a second one (the same JSON, the same version)."""
    t = create(client, "poker", bots=0)
    tid, host = t["table"]["id"], t["token"]
    guest = sit(client, tid, "Ben")["token"]
    with ws_connect(client, tid, guest) as ws:
        first = ws.receive_json()
        assert first["type"] == "state"
        r = post(client, tid, "/actions", guest, {"kind": "wager", "ante": 10})
        assert r.status_code == 200, r.text
        pushed = ws.receive_json()
        while pushed["version"] < r.json()["version"]:
            pushed = ws.receive_json()
        assert pushed == r.json()
    again = post(client, tid, "/actions", host, {"kind": "wager", "ante": 10, "action_id": "a1"})
    repeated = post(client, tid, "/actions", host, {"kind": "wager", "ante": 10, "action_id": "a1"})
    assert repeated.json() == {**again.json(), "repeated": True}


def test_issue28_3_a_websocket_op_and_its_route_make_the_same_change(client: TestClient) -> None:
    """The host's pause over the websocket and over REST: the same command, the same log line."""
    t = create(client, "kind", bots=3, turn_clock=0)
    tid, host = t["table"]["id"], t["token"]
    with ws_connect(client, tid, host) as ws:
        ws.receive_json()
        ws.send_json({"op": "pause", "id": 1})
        while (m := ws.receive_json())["type"] != "ack":
            pass
        assert m == {"type": "ack", "id": 1}
    by_socket = client.get(f"/api/tables/{tid}/state").json()
    assert by_socket["paused"] is True
    assert post(client, tid, "/resume", host).status_code == 200
    assert post(client, tid, "/pause", host).status_code == 200
    log = client.get(f"/api/tables/{tid}/state").json()["log"]
    paused = [line for line in log if "pause" in line.lower()]
    assert len(paused) >= 2 and paused[0] == paused[-1], log


def test_issue28_3_a_command_builds_each_viewers_view_once(client: TestClient, monkeypatch) -> None:
    """The seat that acts has a socket open: its view of the new state is built once, for the
    push, and the REST answer reuses it (before issue 28 the answer built it a second time)."""
    import fourcards.web.publisher as publisher

    t = create(client, "poker", bots=0)
    tid = t["table"]["id"]
    guest = sit(client, tid, "Ben")["token"]
    built: list[object] = []
    real = publisher.own_view

    def counting(state, seat, request, extras):  # type: ignore[no-untyped-def]
        built.append(seat.name if seat else None)
        return real(state, seat, request, extras)

    with ws_connect(client, tid, guest) as ws:
        ws.receive_json()
        monkeypatch.setattr(publisher, "own_view", counting)
        assert post(client, tid, "/actions", guest, {"kind": "wager", "ante": 10}).status_code == 200
        ws.receive_json()
    assert built.count("Ben") == 1, built
