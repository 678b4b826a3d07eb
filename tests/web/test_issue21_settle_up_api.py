"""Issue 21 item 5 through the API, on SQLite and PostgreSQL: ``GET /api/tables/{id}/settle-up``,
the host's terms (``POST``), who pays whom in the settlement CSV, and the bank's line in the
settlement (the play-test fault "Ada (bot) −15" with nothing saying who covers the bot)."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from typing import Any

from fastapi.testclient import TestClient

from fourcards import __version__
from fourcards.web import create_app
from webhelpers import comparable, create, hdr, play_kind_deal, post, sit, state


def _poker_round(client: TestClient, tid: str, wagers: dict[str, int], folds: tuple[str, ...] = ()) -> None:
    """Each token wagers its ante, the host deals, each plays the smallest play bet or folds."""
    tokens = list(wagers)
    for tok, ante in wagers.items():
        assert post(client, tid, "/actions", tok, {"kind": "wager", "ante": ante}).status_code == 200
    assert post(client, tid, "/deal", tokens[0]).status_code == 200
    for tok in tokens:
        if tok in folds:
            body: dict[str, Any] = {"kind": "fold"}
        else:
            acts = {a["kind"]: a for a in state(client, tid, tok)["actions"]}
            body = {"kind": "play", "amount": acts["play"]["min"]}
        assert post(client, tid, "/actions", tok, body).status_code == 200


def _settled_by_transfers(up: dict[str, Any]) -> None:
    """Every party's amount is what its transfers pay (−) or bring (+); amounts positive."""
    moved: dict[str, int] = defaultdict(int)
    for t in up["transfers"]:
        assert t["amount"] > 0
        moved[t["from"]["name"]] -= t["amount"]
        moved[t["to"]["name"]] += t["amount"]
    assert {p["name"]: p["amount"] for p in up["parties"] if p["amount"]} == {k: v for k, v in moved.items() if v}
    assert up["total"] == 0 and sum(p["amount"] for p in up["parties"]) == 0
    assert len(up["transfers"]) <= max(0, sum(1 for p in up["parties"] if p["amount"]) - 1)


def test_issue21_9_the_settlement_has_the_banks_line_so_the_peoples_nets_and_the_banks_add_to_zero(
        client: TestClient) -> None:
    t = create(client, "kind", bots=2, host_name="Ann")
    tid, ann = t["table"]["id"], t["token"]
    ben = sit(client, tid, "Ben")["token"]
    assert post(client, tid, "/deal", ann).status_code == 200
    seats = {p["name"]: p["seat"] for p in state(client, tid)["players"]}
    play_kind_deal(client, tid, {seats["Ann"]: ann, seats["Ben"]: ben})
    s = client.get(f"/api/tables/{tid}/settlement").json()
    bots = [p for p in s["players"] if p["is_bot"]]
    people = sum(p["net"] for p in s["players"] if not p["is_bot"])
    assert s["bank"]["net"] == sum(b["net"] for b in bots) and s["bank"]["house"] is None
    assert [b["name"] for b in s["bank"]["bots"]] == [b["name"] for b in bots]
    assert people + s["bank"]["net"] == 0 and s["total"] == 0
    up = client.get(f"/api/tables/{tid}/settle-up").json()
    assert "play with the bank's chips" in up["bank"]["words"] and "Ann, the host, holds the bank" in up["bank"]["words"]
    assert up["bank"]["held_by"]["name"] == "Ann" and up["unit"] == "chip"
    _settled_by_transfers(up)


def test_issue21_5_settle_up_of_a_night_with_a_bot_and_a_top_up_at_the_hosts_chip_value(client: TestClient) -> None:
    t = create(client, "poker", bots=1, host_name="Ann")
    tid, ann = t["table"]["id"], t["token"]
    ben, cat = sit(client, tid, "Ben")["token"], sit(client, tid, "Cat")["token"]
    assert post(client, tid, "/top-ups", ann, {"amount": 300}).json()["status"] == "done"
    rid = post(client, tid, "/top-ups", ben, {"amount": 200}).json()["request"]
    assert post(client, tid, f"/requests/{rid}", ann, {"approve": True}).status_code == 200
    for folds in ((), (cat,), (ben,)):
        _poker_round(client, tid, {ann: 10, ben: 30, cat: 20}, folds)
    # while chips are on the layout there is nothing to settle yet
    assert post(client, tid, "/actions", ben, {"kind": "wager", "ante": 10}).status_code == 200
    r = client.get(f"/api/tables/{tid}/settle-up")
    assert r.status_code == 409 and "10 chips in play: settle up when it ends" in r.json()["detail"]
    assert post(client, tid, "/actions", ben, {"kind": "withdraw"}).status_code == 200
    # the terms: the host's only, checked, nothing changed by a refusal
    before = comparable(state(client, tid, ann))
    for token, body, status, words in (
            (ben, {"chip_value": {"chips": 100, "cents": 100, "currency": "€"}}, 403, "only the table's host"),
            (None, {"banker": "bank"}, 401, "a seat token is required"),
            (ann, {"chip_value": {"chips": 0, "cents": 100, "currency": "€"}}, 422, "chip_value.chips"),
            (ann, {"chip_value": {"chips": 100, "cents": 100_001, "currency": "€"}}, 422, "chip_value.cents"),
            (ann, {"chip_value": {"chips": 100, "cents": "1.00", "currency": "€"}}, 422, "chip_value.cents"),
            (ann, {"chip_value": {"chips": 100, "cents": 100, "currency": "=1+1\u202e"}}, 422, "currency"),
            (ann, {"chip_value": {"chips": 100, "cents": 100, "currency": "€€€€€€€€€"}}, 422, "at most 8"),
            (ann, {"banker": 9}, 404, "seat 9 is empty"),
            (ann, {"banker": 2}, 404, "is a bot"),
            (ann, {"banker": "nobody"}, 422, "banker"),
            (ann, {"rate": 3}, 422, "rate")):
        r = post(client, tid, "/settle-up", token, body)
        assert r.status_code == status, (body, r.text)
        assert words in r.json()["detail"], r.json()["detail"]
    assert comparable(state(client, tid, ann)) == before
    r = post(client, tid, "/settle-up", ann, {"chip_value": {"chips": 100, "cents": 100, "currency": "€"}})
    assert r.status_code == 200 and r.json()["terms"] == {"chips": 100, "cents": 100, "currency": "€", "banker": "host"}
    got = client.get(f"/api/tables/{tid}/settle-up").json()
    assert r.json()["settle_up"] == {k: v for k, v in got.items() if k != "you"}
    up = client.get(f"/api/tables/{tid}/settle-up", headers=hdr(ann)).json()
    assert up["you"] == {"host": True} and client.get(f"/api/tables/{tid}/settle-up", headers=hdr(ben)).json()["you"] == \
        {"host": False}
    s = client.get(f"/api/tables/{tid}/settlement").json()
    rows = {p["name"]: p for p in s["players"]}
    assert (rows["Ann"]["top_ups"], rows["Ben"]["top_ups"]) == (300, 200)
    assert up["chip_value"] == "100 chips = 1.00 €" and up["unit"] == "cent"
    people = {p["name"]: p["net"] for p in s["players"] if not p["is_bot"]}
    assert {p["name"]: p["net"] for p in up["parties"]} == people
    assert next(p for p in up["parties"] if p["name"] == "Ann")["settles"] == people["Ann"] + s["bank"]["net"]
    assert s["bank"]["net"] == s["house"] + next(p["net"] for p in s["players"] if p["is_bot"])
    _settled_by_transfers(up)  # 100 chips = 1.00 €: a chip is a cent, nothing to round
    assert all(p["amount"] == p["settles"] for p in up["parties"])
    # 3 chips = 2 cents: rounded to the cent, still adding up; the bank on its own
    assert post(client, tid, "/settle-up", ann, {"chip_value": {"chips": 3, "cents": 2, "currency": "$"},
                                                 "banker": "bank"}).status_code == 200
    up = client.get(f"/api/tables/{tid}/settle-up").json()
    assert [p["kind"] for p in up["parties"]] == ["person", "person", "person", "bank"]
    assert "Nobody holds the bank" in up["bank"]["words"]
    for p in up["parties"]:
        assert abs(p["settles"] * 2 / 3 - p["amount"]) < 1  # within a cent (a check, not how it is computed)
    _settled_by_transfers(up)
    # Ben holds the bank, named by seat; the terms outlive the server
    assert post(client, tid, "/settle-up", ann, {"banker": state(client, tid, ben)["you"]["seat"]}).status_code == 200
    log = state(client, tid, ann)["log"]
    assert "The host sets the chip value: 3 chips = 0.02 $" in log and "Ben holds the bank (the bots' chips)" in log
    with TestClient(create_app(client.database_url, bot_delay=0)) as again:  # type: ignore[attr-defined]
        up2 = again.get(f"/api/tables/{tid}/settle-up").json()
    assert up2["terms"]["banker"] != "host" and up2["bank"]["held_by"]["name"] == "Ben" and up2["chip_value"] == \
        "3 chips = 0.02 $"
    # the CSV: the settlement, then who pays whom (names neutralised), the transfers adding up
    text = client.get(f"/api/tables/{tid}/settlement.csv").text
    rows_csv = list(csv.reader(io.StringIO(text)))
    total = next(i for i, row in enumerate(rows_csv) if row[0] == "total")
    assert rows_csv[total] == ["total", "", "", "", "", "", "", "0"] and rows_csv[total + 1] == [""]
    assert rows_csv[total + 2] == ["who pays whom", "3 chips = 0.02 $"]
    assert rows_csv[total + 3][0] == "the bank" and "Ben holds the bank" in rows_csv[total + 3][1]
    assert rows_csv[total + 4] == ["pays", "receives", "amount", "currency"]
    transfers = rows_csv[total + 5:-2]  # then a blank row and the version (issue 27)
    assert rows_csv[-2:] == [[""], ["exported by", f"fourcards {__version__}"]]
    assert [[t["from"]["name"], t["to"]["name"], f"{t['amount'] // 100}.{t['amount'] % 100:02d}", "$"]
            for t in up2["transfers"]] == transfers


def test_issue21_5_the_settle_up_csv_names_are_neutralised_and_closing_keeps_the_terms(client: TestClient) -> None:
    t = create(client, "poker", host_name="=HYPERLINK(\"http://x\",\"y\")")
    tid, host = t["table"]["id"], t["token"]
    guest = sit(client, tid, "@SUM(1+1)")["token"]
    _poker_round(client, tid, {host: 10, guest: 50}, (guest,))
    assert post(client, tid, "/close", host).status_code == 200
    r = post(client, tid, "/settle-up", host, {"banker": "bank"})  # the host who closed the table
    assert r.status_code == 200 and r.json()["settle_up"]["bank"]["held_by"] is None
    assert post(client, tid, "/settle-up", guest, {"banker": "host"}).status_code == 403
    rows = list(csv.reader(io.StringIO(client.get(f"/api/tables/{tid}/settlement.csv").text)))
    transfers = rows[rows.index(["pays", "receives", "amount", "currency"]) + 1:-2]  # the version last (issue 27)
    assert transfers and all(cell[:1] not in "=+-@" for row in transfers for cell in row)
    assert {row[0] for row in transfers} <= {"'@SUM(1+1)", "the bank", "'=HYPERLINK(\"http://x\",\"y\")"}
    assert all(row[3] == "chips" and row[2].isdigit() for row in transfers)
    up = client.get(f"/api/tables/{tid}/settle-up").json()
    assert {p["name"] for p in up["parties"]} >= {"@SUM(1+1)"}  # the JSON keeps names as typed
    _settled_by_transfers(up)
