"""A finished Four Card Poker deal's published history hides folded hands from the
other seats (docs/engine.md "showdown view": folded hands stay mucked): it is the
engine's ``observation(player).history``, for records written by the engine
protocol (0-based "player") and for records stored before it (1-based "seat",
published in the protocol's form)."""

from __future__ import annotations

import copy

from localclient import LocalClient as TestClient

from fourcards.table.history import publish
from webhelpers import create, hdr, post, sit


def test_design_history_hides_a_folded_hand_from_other_seats(client: TestClient) -> None:
    t = create(client, "poker")
    tid, host = t["table"]["id"], t["token"]
    guest = sit(client, tid, "Guest")["token"]
    assert post(client, tid, "/actions", host, {"kind": "wager", "ante": 10}).status_code == 200
    assert post(client, tid, "/actions", guest, {"kind": "wager", "ante": 10}).status_code == 200
    assert post(client, tid, "/deal", host).status_code == 200
    assert post(client, tid, "/actions", host, {"kind": "fold"}).status_code == 200  # seat 1 folds
    assert post(client, tid, "/actions", guest, {"kind": "play", "amount": 10}).status_code == 200

    def hands(token: str | None) -> dict[int, object]:
        d = client.get(f"/api/tables/{tid}/deals/1", headers=hdr(token) if token else {}).json()
        deal = next(r for r in d["history"] if r["kind"] == "deal")
        assert d["history"][0] == {"kind": "place_wagers", "player": 0, "ante": 10, "aces_up": 0}
        return {h["player"] + 1: h["cards"] for h in deal["hands"]}

    assert hands(host)[1] is not None and hands(host)[2] is not None  # its own folded hand, and a played one
    assert hands(guest)[1] is None and hands(guest)[2] is not None
    assert hands(None)[1] is None


def test_design_history_redaction_reads_records_stored_before_the_engine_protocol(client: TestClient) -> None:
    t = create(client, "poker", host_name="Host")
    tid = t["table"]["id"]
    sit(client, tid, "Guest")
    table = client.app.state.hub.repo.copies[tid]  # type: ignore[attr-defined]
    host, guest = table.players[1], table.players[2]
    legacy = {"number": 1, "status": "settled", "seats": {"1": host.player_id, "2": guest.player_id}, "history": [
        {"kind": "place_wagers", "seat": 1, "ante": 10, "aces_up": 0},
        {"kind": "place_wagers", "seat": 2, "ante": 10, "aces_up": 0},
        {"kind": "deal", "hands": {"1": ["9h", "9d", "9s", "Kc", "3d"], "2": ["Ah", "Kd", "7c", "4s", "2d"]},
         "dealer": ["Qd", "Qs", "8c", "8h", "4h", "2c"], "up_card": "Qd"},
        {"kind": "fold", "seat": 1},
        {"kind": "play", "seat": 2, "amount": 10},
    ], "result": {"seats": {"1": {"player_hand": {"description": "three nines"}},
                            "2": {"player_hand": {"description": "ace high"}}}}}
    seen = publish(table, copy.deepcopy(legacy), guest)
    deal = seen["history"][2]
    assert deal["hands"] == [{"player": 0, "cards": None}, {"player": 1, "cards": ["Ah", "Kd", "7c", "4s", "2d"]}]
    assert deal["dealer"] == ["Qd", "Qs", "8c", "8h", "4h", "2c"]  # the showdown
    assert seen["history"][3] == {"kind": "fold", "player": 0}
    assert seen["result"]["seats"]["1"]["player_hand"] is None
    assert seen["result"]["seats"]["2"]["player_hand"] == {"description": "ace high"}
    mine = publish(table, copy.deepcopy(legacy), host)
    assert mine["history"][2]["hands"][0]["cards"] == ["9h", "9d", "9s", "Kc", "3d"]
    assert mine["result"] == legacy["result"]
