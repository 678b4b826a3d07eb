"""Issue 19, through the HTTP and websocket API (SQLite and PostgreSQL): a table at the largest
limits costs what one at the default costs, every view has a bounded size, CSV cells cannot be
formulas, fields of another action kind are refused, a message of any size gets the 413 answer
on an open connection, a player who leaves takes their waiting top-up along, a closed table
answers 409, and cards written together are read by the payout checker and the real-cards entry.
"""

from __future__ import annotations

import csv
import io
import json
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from servers import Server

from fourcards.inputs import MAX_WAGER
from fourcards.poker.round import ActionKind, LegalAction
from fourcards.table.players import play_bet
from fourcards.web.routes.live import subprotocols
from webhelpers import comparable, create, hdr, post, sit, state, ws_connect

LARGEST_POKER = {"min_ante": 1, "max_ante": MAX_WAGER, "min_aces_up": 1, "max_aces_up": MAX_WAGER}
LARGEST_KIND = {"ante": MAX_WAGER, "min_bet": 1, "max_bet": MAX_WAGER, "max_raises": 20}
MOST_CHIPS = 10_000_000  # CreateTable.starting_chips at most


def _peak_bytes(fn: Callable[[], Any]) -> int:
    """The most memory (bytes) Python allocated at once while ``fn`` ran: a cost that grows with a
    list of a table limit's length, whatever the machine's speed."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        fn()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def _poker_at_the_decision(client: TestClient, rules: dict[str, int] | None, ante: int) -> tuple[str, str, str]:
    """A poker table with two bots anted ``ante``, the host anted ``ante`` and dealt: the host decides."""
    t = create(client, "poker", bots=2, rules=rules or {}, starting_chips=MOST_CHIPS, bot_ante=ante,
               host_name="H" * 40, name="T" * 80)
    tid, host = t["table"]["id"], t["token"]
    guest = sit(client, tid, "G" * 40)["token"]
    assert post(client, tid, "/actions", host, {"kind": "wager", "ante": ante, "aces_up": ante}).status_code == 200
    r = post(client, tid, "/deal", host)
    assert r.status_code == 200, r.text
    assert {a["kind"] for a in r.json()["actions"]} == {"fold", "play"}
    return tid, host, guest


# ------------------------------------------------- item 1: limits do not cost time


def test_issue19_state_at_the_largest_limits_costs_what_it_costs_at_the_default(client: TestClient) -> None:
    """Why: "every view builds the legal play bets as a list of 2,000,001 amounts" (GET /state 314 ms
    instead of 3 ms, the event loop blocked). The memory a request needs at once shows it without a
    clock: a list as long as the play-bet range is megabytes."""
    small = _poker_at_the_decision(client, None, 1000)
    large = _poker_at_the_decision(client, LARGEST_POKER, MAX_WAGER)
    costs = {}
    for label, (tid, host, _) in (("default", small), ("largest", large)):
        state(client, tid, host)  # warm
        costs[label] = _peak_bytes(lambda tid=tid, host=host: state(client, tid, host))
    assert costs["largest"] < costs["default"] + 256 * 1024, costs
    # the host's play: the bots decide next, at the largest limits too (a second round: the
    # first one loads each table's strategy for the bots, once per rules)
    plays = {}
    for label, (tid, host, _), ante in (("default", small, 1000), ("largest", large, MAX_WAGER)):
        def play(tid: str = tid, host: str = host, ante: int = ante) -> None:
            r = post(client, tid, "/actions", host, {"kind": "play", "amount": 3 * ante})
            assert r.status_code == 200, r.text
            assert r.json()["last"]["phase"] == "settled"  # both bots decided

        play()
        assert post(client, tid, "/actions", host, {"kind": "wager", "ante": ante}).status_code == 200
        assert post(client, tid, "/deal", host).status_code == 200
        plays[label] = _peak_bytes(play)
    assert plays["largest"] < plays["default"] + 1024 * 1024, plays


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 60), st.integers(0, 200), st.integers(1, 20), st.integers(0, 400), st.integers(1, 3))
def test_issue19_property_bot_play_bet_by_arithmetic_is_the_one_the_whole_range_gave(low: int, span: int, ante: int,
                                                                                      balance: int,
                                                                                      multiple: int) -> None:
    """The bots' play bet without walking the range: what the old code found by listing every amount."""
    option = LegalAction(ActionKind.PLAY, 0, low, low + span)
    affordable = [a for a in range(low, low + span + 1) if a <= balance and a % ante == 0]
    want = max((a for a in affordable if a <= multiple * ante), default=affordable[0]) if affordable else None
    assert play_bet(option, ante, balance, multiple) == want


def _all_views(client: TestClient, tid: str, tokens: list[str | None]) -> list[bytes]:
    out = [client.get(f"/api/tables/{tid}/state", headers=hdr(t) if t else {}).content for t in tokens]
    for t in tokens:
        with ws_connect(client, tid, t) as ws:
            out.append(ws.receive_text().encode())
    return out


#: The most bytes one view may take, whatever the limits, names and amounts (60 log lines
#: of at most 40-character names included).
MAX_VIEW_BYTES = 48 * 1024


def test_issue19_view_size_does_not_grow_with_max_ante(client: TestClient) -> None:
    """Every view (host, guest, spectator; REST and websocket) at every phase of a Four Card Poker
    round, at the default and the largest limits: the same size but for the digits, and bounded."""
    sizes: dict[str, list[list[int]]] = {}
    for label, rules, ante in (("default", None, 1000), ("largest", LARGEST_POKER, MAX_WAGER)):
        tid, host, guest = _poker_at_the_decision(client, rules, ante)
        decision = _all_views(client, tid, [host, guest, None])
        assert post(client, tid, "/actions", host, {"kind": "play", "amount": 2 * ante}).status_code == 200
        assert post(client, tid, "/actions", guest, {"kind": "wager", "ante": ante}).status_code == 200
        settled_and_wagers = _all_views(client, tid, [host, guest, None])
        sizes[label] = [[len(v) for v in decision], [len(v) for v in settled_and_wagers]]
        assert max(len(v) for v in decision + settled_and_wagers) <= MAX_VIEW_BYTES
    for small, large in zip(sum(sizes["default"], []), sum(sizes["largest"], []), strict=True):
        assert large <= small + 1024, sizes  # more digits in the amounts; other cards, other words


def test_issue19_kind_view_size_does_not_grow_with_the_spread_limit(client: TestClient) -> None:
    sizes = {}
    for label, rules in (("default", {}), ("largest", LARGEST_KIND)):
        t = create(client, "kind", bots=2, rules=rules, starting_chips=MOST_CHIPS, host_name="H" * 40)
        tid, host = t["table"]["id"], t["token"]
        guest = sit(client, tid, "G" * 40)["token"]
        assert post(client, tid, "/deal", host).status_code == 200
        views = _all_views(client, tid, [host, guest, None])
        sizes[label] = [len(v) for v in views]
        assert max(sizes[label]) <= MAX_VIEW_BYTES
    for small, large in zip(sizes["default"], sizes["largest"], strict=True):
        assert large <= small + 1024, sizes  # more digits; other cards, other log lines


# ------------------------------------------------------------- item 2: CSV cells

FORMULA_NAMES = ['=HYPERLINK("http://x","y")', "+1+cmd|' /C calc'!A0", "@SUM(1+1)", "-2+3", "x;=1+1"]


def test_issue19_csv_cells_starting_with_formula_characters_are_neutralised(client: TestClient) -> None:
    t = create(client, "poker", host_name=FORMULA_NAMES[0])
    tid = t["table"]["id"]
    for name in FORMULA_NAMES[1:]:
        sit(client, tid, name)
    r = client.get(f"/api/tables/{tid}/settlement.csv")
    assert r.status_code == 200
    rows = list(csv.reader(io.StringIO(r.text)))
    names = [row[0] for row in rows[1:1 + len(FORMULA_NAMES)]]
    # readable, apostrophe first; the part after a ';' gets its own (a spreadsheet set to ';'
    # splits there whatever the quotes, when the cell is not the first of its line)
    assert names == ["'" + n for n in FORMULA_NAMES[:4]] + ["x;'=1+1"]
    # no cell of any row begins a formula, read with a comma or (a spreadsheet's other list
    # separator) a semicolon
    for delimiter in (",", ";"):
        for row in csv.reader(io.StringIO(r.text), delimiter=delimiter):
            for cell in row:
                assert cell[:1] not in ("=", "+", "@", "\t", "\r") and not cell.startswith("-2"), (delimiter, row)
    assert ["total", "", "", "", "", "", "", "0"] in rows  # then who pays whom (issue 21)
    # the same names in JSON are as they were typed
    assert [p["name"] for p in client.get(f"/api/tables/{tid}/settlement").json()["players"]] == FORMULA_NAMES


# -------------------------------------------- item 4: fields of another action kind


@pytest.mark.parametrize("game, body, field", [
    ("poker", {"kind": "fold", "ante": 500}, "ante"),
    ("poker", {"kind": "wager", "ante": 10, "amount": 999}, "amount"),
    ("poker", {"kind": "withdraw", "aces_up": 5}, "aces_up"),
    ("poker", {"kind": "wager", "ante": 10, "trainer": True}, "trainer"),
    ("poker", {"kind": "play", "amount": 20, "ante": 10}, "ante"),
    ("kind", {"kind": "check", "ante": 5}, "ante"),
    ("kind", {"kind": "call", "aces_up": 5}, "aces_up"),
    ("kind", {"kind": "fold", "trainer": True}, "trainer"),
])
def test_issue19_fields_of_another_action_kind_are_a_422_naming_the_field(client: TestClient, game: str,
                                                                          body: dict[str, Any], field: str) -> None:
    t = create(client, game, bots=2 if game == "kind" else 0, host_name="Host")
    tid, host = t["table"]["id"], t["token"]
    guest = sit(client, tid, "Guest")["token"]
    if game == "poker" and body["kind"] != "wager":
        assert post(client, tid, "/actions", host, {"kind": "wager", "ante": 10}).status_code == 200
        if body["kind"] != "withdraw":
            assert post(client, tid, "/deal", host).status_code == 200
    elif game == "kind":
        assert post(client, tid, "/deal", host).status_code == 200
    actor = state(client, tid, host).get("deal", {}) or {}
    me = guest if actor.get("actor") == 4 else host
    before = [comparable(state(client, tid, tok)) for tok in (host, guest)]
    r = post(client, tid, "/actions", me, body)
    assert r.status_code == 422, r.text
    assert f"{field} does not belong to a {body['kind']}" in r.json()["detail"]
    with ws_connect(client, tid, me) as ws:
        ws.receive_json()
        ws.send_text(json.dumps({"op": "action", "action": body, "id": 7}))
        e = ws.receive_json()
        while e.get("type") == "state":
            e = ws.receive_json()
        assert e["type"] == "error" and e["status"] == 422 and e["id"] == 7 and field in e["detail"], e
    assert [comparable(state(client, tid, tok)) for tok in (host, guest)] == before


# ------------------------------------------------ item 4: a websocket message of any size


def test_issue19_a_websocket_message_of_any_size_gets_413_and_the_connection_stays_open(sqlite_url: str,
                                                                                      tmp_path) -> None:
    """Why: a frame over 64 KiB closed the connection (1009, uvicorn's ws_max_size). A real
    ``fourcards serve``: 9 KiB, 64 KiB + 1, 1 MiB and 8 MiB text messages each get the documented
    413 answer, and the connection still answers a ping after each."""
    from websockets.sync.client import connect

    server = Server(sqlite_url, tmp_path / "serve.log")
    server.start()
    try:
        import httpx

        r = httpx.post(server.base + "/api/tables", json={"game": "poker", "host_name": "Host"}, timeout=10)
        tid, tok = r.json()["table"]["id"], r.json()["token"]
        ws_url = server.base.replace("http://", "ws://") + f"/ws/tables/{tid}"
        with connect(ws_url, max_size=None, open_timeout=10, subprotocols=subprotocols(tok)) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "state"
            for i, size in enumerate((9 * 1024, 64 * 1024 + 1, 1024 * 1024, 8 * 1024 * 1024)):
                ws.send(json.dumps({"op": "ping", "id": i, "pad": "x" * size}))
                e = json.loads(ws.recv(timeout=30))
                assert e["type"] == "error" and e["status"] == 413 and "too large" in e["detail"], (size, e)
                ws.send(json.dumps({"op": "ping", "id": 100 + i}))
                assert json.loads(ws.recv(timeout=10)) == {"type": "pong", "id": 100 + i}
            ws.send(b"\x00" * (2 * 1024 * 1024))  # a big binary frame: refused, still open
            assert json.loads(ws.recv(timeout=30))["status"] == 400
            ws.send(json.dumps({"op": "ping", "id": 1}))
            assert json.loads(ws.recv(timeout=10)) == {"type": "pong", "id": 1}
    finally:
        server.stop()


# ------------------------------------------ item 4: leaving takes the waiting top-up along


def test_issue19_a_player_who_leaves_takes_their_pending_top_up_along(client: TestClient) -> None:
    t = create(client, "poker", host_name="Host")
    tid, host = t["table"]["id"], t["token"]
    guest = sit(client, tid, "Guest")["token"]
    r = post(client, tid, "/top-ups", guest, {"amount": 500})
    assert r.status_code == 200 and r.json()["status"] == "pending", r.text
    rid = r.json()["request"]
    assert [q["id"] for q in state(client, tid, host)["requests"]] == [rid]
    r = post(client, tid, "/seats/2/leave", guest)
    assert r.status_code == 200 and r.json()["status"] == "left", r.text
    assert state(client, tid, host)["requests"] == []  # gone from the host's list
    r = client.get(f"/api/tables/{tid}/state", headers=hdr(guest))  # the old token sees nothing waiting
    assert r.status_code == 403, r.text
    assert "withdrawn" in " ".join(line["text"] if isinstance(line, dict) else line
                                   for line in state(client, tid, host)["log"])
    back = sit(client, tid, "Guest")  # the same person sits again
    balance = next(p["balance"] for p in state(client, tid, host)["players"] if p["name"] == "Guest")
    r = post(client, tid, f"/requests/{rid}", host, {"approve": True})
    assert r.status_code == 404, r.text  # the stale request cannot be approved
    assert next(p["balance"] for p in state(client, tid, back["token"])["players"]
                if p["name"] == "Guest") == balance == 1000
    led = client.get(f"/api/tables/{tid}/ledger").json()
    assert not [e for e in led["entries"] if e.get("kind") == "top_up"] and led["audit"]["total"] == 0


# ------------------------------------------------------ item 4: a closed table says so


def test_issue19_a_closed_table_answers_actions_and_host_requests_409_naming_it(client: TestClient) -> None:
    t = create(client, "poker", host_name="Host")
    tid, host = t["table"]["id"], t["token"]
    guest = sit(client, tid, "Guest")["token"]
    with ws_connect(client, tid, host) as ws:  # the host's phone, connected
        ws.receive_json()
        assert post(client, tid, "/close", host).status_code == 200
        assert ws.receive_json()["table"]["status"] == "closed"
        for op in ({"op": "deal", "id": 1}, {"op": "action", "action": {"kind": "fold"}, "id": 2},
                   {"op": "bots", "count": 1, "id": 3}):
            ws.send_text(json.dumps(op))
            e = ws.receive_json()
            assert e["type"] == "error" and e["status"] == 409 and "closed" in e["detail"], e
    for token, path, body in [
        (guest, "/actions", {"kind": "wager", "ante": 10}), (host, "/actions", {"kind": "wager", "ante": 10}),
        (host, "/deal", None), (host, "/bots", {"count": 1}), (host, "/void", {}),
        (host, "/settings", {"public": True}), (host, "/close", None), (guest, "/top-ups", {"amount": 5}),
        (host, "/seats/2/leave", None), (host, "/seats/1/sit-out", None), (host, "/requests/1", {"approve": True}),
    ]:
        r = post(client, tid, path, token, body)
        assert r.status_code == 409 and "closed" in r.json()["detail"], (path, r.status_code, r.text)
    # reading stays open: the settlement and the history
    assert client.get(f"/api/tables/{tid}/settlement").status_code == 200
    assert client.get(f"/api/tables/{tid}/deals").status_code == 200


# ------------------------------------------------- item 5: cards written together


@pytest.mark.parametrize("player, dealer", [
    ("9♥9♦9♠K♣3♦", "Q♦Q♠8♣8♥4♠2♦"),      # seed 002's own spelling
    ("9h9d9sKc3d", "QdQs8c8h4s2d"),
    ("9♥️ 9♦️ 9♠️ K♣️ 3♦️", "Q♦️,Q♠️,8♣️,8♥️,4♠️,2♦️"),  # symbols typed on a phone (U+FE0F)
])
def test_issue19_the_payout_checker_reads_the_seed_002_hand_written_together(client: TestClient, player: str,
                                                                            dealer: str) -> None:
    r = client.post("/api/poker/settle", json={"player": player, "dealer": dealer, "ante": 10, "play": 30})
    assert r.status_code == 200, r.text
    d = r.json()
    assert d["net"] == 60 and d["wagers"] == {"ante": 10, "play": 30, "ante_bonus": 20, "aces_up": 0}


def test_issue19_card_text_that_is_still_no_card_says_how_to_write_one(client: TestClient) -> None:
    r = client.post("/api/poker/settle", json={"player": "9♥9♦9♠K♣3", "dealer": "Q♦Q♠8♣8♥4♠2♦", "ante": 10,
                                               "play": 30})
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert "'3'" in detail and "rank" in detail and "suit" in detail and "9♥9♦9♠K♣3♦" in detail, detail


def test_issue19_real_cards_entry_reads_cards_written_together(client: TestClient) -> None:
    t = create(client, "kind", host_name="Rob", dealing="table")
    tid, host = t["table"]["id"], t["token"]
    for n in ("Ann", "Ben", "Cat"):
        sit(client, tid, n)
    assert post(client, tid, "/deal", host).status_code == 200
    r = post(client, tid, "/cards", host, {"cards": "9c10h♥️"})
    assert r.status_code == 422 and "'♥️'" in r.json()["detail"], r.text  # a suit with no rank: refused whole
    r = post(client, tid, "/cards", host, {"cards": "9c10hK♥️"})
    assert r.status_code == 200, r.text
    seats = {s["seat"]: [c for c in s["cards"]] for s in state(client, tid, host)["deal"]["seats"]}
    assert [len(seats[s]) for s in (2, 3, 4)] == [1, 1, 1]
