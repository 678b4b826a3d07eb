"""Issue 21 item 6, clubs across nights, through the API on SQLite and PostgreSQL: a club, tables
made in it (or joining it), standings across nights at two tables matched by name, each night's
results, the CSV, the owner's token, the privacy model (the link is the key), and the migration."""

from __future__ import annotations

import csv
import io
from collections import Counter, defaultdict
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert
from test_issue21_settle_up_api import _poker_round

from fourcards import __version__
from fourcards.store import Store, make_engine, migrate
from fourcards.store.clubs import ClubStore
from fourcards.store.models import GameTable, utcnow
from webhelpers import create, play_kind_deal, post, sit, state


def _club(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/clubs", json={"name": "Thursday cards", "owner_name": "Ann", **body})
    assert r.status_code == 201, r.text
    return r.json()


def owner(token: str) -> dict[str, str]:
    return {"X-Club-Token": token}


def _kind_night(client: TestClient, club: str, host: str, guest: str, deals: int) -> tuple[str, dict[str, str]]:
    t = create(client, "kind", bots=2, host_name=host, club=club)
    assert t["club"]["id"] == club
    tid = t["table"]["id"]
    tokens = {host: t["token"], guest: sit(client, tid, guest)["token"]}
    for _ in range(deals):
        assert post(client, tid, "/deal", tokens[host]).status_code == 200
        seats = {p["name"]: p["seat"] for p in state(client, tid)["players"]}
        play_kind_deal(client, tid, {seats[n]: tok for n, tok in tokens.items()})
    return tid, tokens


def _expected(client: TestClient, tids: list[str]) -> dict[str, Counter]:
    """What the standings must say, recomputed from each table's settlement and deal results."""
    out: dict[str, Counter] = defaultdict(Counter)
    for tid in tids:
        table = client.get(f"/api/tables/{tid}").json()
        game = table["game"]
        s = client.get(f"/api/tables/{tid}/settlement").json()
        for p in s["players"]:
            if not p["is_bot"]:
                out[p["name"].casefold()].update({"nights": 1, "net": p["net"], f"{game}_net": p["net"]})
        names = {p["player_id"]: p["name"].casefold() for p in s["players"]}
        for d in client.get(f"/api/tables/{tid}/deals").json()["deals"]:
            if d["status"] != "settled":
                continue
            if game == "kind":
                for pid in d["seats"].values():
                    if pid in names and not next(p for p in s["players"] if p["player_id"] == pid)["is_bot"]:
                        out[names[pid]]["deals"] += 1
                for a in d["result"]["awards"]:
                    out[names[d["seats"][str(a["seat"])]]][a["share"]] += 1
            else:
                for entry in d["result"]["seats"].values():
                    out[names[entry["player_id"]]]["rounds"] += 1
    return out


def test_issue21_6_a_clubs_standings_after_two_nights_at_two_tables(client: TestClient) -> None:
    c = _club(client, members=["Ben", "ann", "Dot"])
    cid, token = c["club"]["id"], c["token"]
    assert len(cid) == 12 and c["url"] == f"/c/{cid}" and "token" not in c["club"]
    # night 1: Four Card Poker, Ann hosts, Ben plays; night 2: Four of a Kind, "ben" hosts, "ANN" plays
    t1 = create(client, "poker", bots=1, host_name="Ann", club=cid)
    tid1, ann1 = t1["table"]["id"], t1["token"]
    ben1 = sit(client, tid1, "Ben")["token"]
    for folds in ((), (ben1,)):
        _poker_round(client, tid1, {ann1: 10, ben1: 20}, folds)
    tid2, _ = _kind_night(client, cid, "ben", "ANN", deals=2)
    got = client.get(f"/api/clubs/{cid}/standings").json()
    assert got["club"]["id"] == cid and [n["table"] for n in got["nights"]] == [tid1, tid2]
    rows = {r["name"].casefold(): r for r in got["standings"]}
    assert set(rows) == {"ann", "ben", "dot"}  # matched by name in any case; Dot listed, never played
    assert rows["ann"]["name"] == "Ann" and rows["ann"]["listed"]  # the owner's spelling
    want = _expected(client, [tid1, tid2])
    for key in ("ann", "ben"):
        r, w = rows[key], want[key]
        assert (r["nights"], r["net"]) == (w["nights"], w["net"]) == (2, w["poker_net"] + w["kind_net"])
        assert r["kind"] == {"nights": 1, "deals": w["deals"], "high": w["high"], "low": w["low"], "whole": w["whole"],
                             "net": w["kind_net"]}
        assert r["poker"] == {"nights": 1, "rounds": w["rounds"], "net": w["poker_net"]}
    assert rows["ann"]["poker"]["rounds"] == 2 and rows["ann"]["kind"]["deals"] == 2
    assert rows["dot"]["nights"] == 0 and rows["dot"]["net"] == 0
    nets = [r["net"] for r in got["standings"]]
    assert nets[:2] == sorted(nets[:2], reverse=True) and got["standings"][2]["name"] == "Dot"  # yet to play: last
    for n in got["nights"]:  # each night: the people's nets and the bank's add up to zero
        assert sum(p["net"] for p in n["people"]) + n["bank"]["net"] == 0
        assert n["deals"] == 2
    # the club's page data
    club = client.get(f"/api/clubs/{cid}", headers=owner(token)).json()
    assert club["you"] == {"owner": True} and client.get(f"/api/clubs/{cid}").json()["you"] == {"owner": False}
    assert [m["name"] for m in club["members"]] == ["Ann", "Ben", "Dot"]
    assert [n["id"] for n in club["nights"]] == [tid1, tid2] and club["nights"][0]["history_url"] == f"/t/{tid1}/history"
    assert client.get(f"/api/tables/{tid2}/club").json()["club"] == {"id": cid, "name": "Thursday cards",
                                                                      "url": f"/c/{cid}"}
    # CSV: the standings, then each night's results
    text = client.get(f"/api/clubs/{cid}/standings.csv").text
    table = list(csv.reader(io.StringIO(text)))
    assert table[0][:3] == ["name", "nights", "net"]
    assert [row[0] for row in table[1:4]] == [r["name"] for r in got["standings"]]
    assert [int(row[2]) for row in table[1:4]] == nets
    split = table.index([""])
    assert table[split + 1] == ["night", "date", "table", "game", "name", "net"]
    per_night = defaultdict(int)
    assert table[-2:] == [[""], ["exported by", f"fourcards {__version__}"]]  # the version last (issue 27)
    for row in table[split + 2:-2]:
        per_night[row[0]] += int(row[5])
    assert dict(per_night) == {"1": 0, "2": 0}


def test_issue21_6_the_owner_manages_the_club_and_a_host_joins_a_table(client: TestClient) -> None:
    c = _club(client)
    cid, token = c["club"]["id"], c["token"]
    other = _club(client, name="Another club")["club"]["id"]
    # listing members: the owner's token only
    assert client.post(f"/api/clubs/{cid}/members", json={"names": ["Cat"]}).status_code == 401
    r = client.post(f"/api/clubs/{cid}/members", json={"names": ["Cat"]}, headers=owner("x" * 32))
    assert r.status_code == 403 and "only the club's owner" in r.json()["detail"]
    r = client.post(f"/api/clubs/{cid}/members", json={"names": ["Cat", "cat", "ANN", "Dan"]}, headers=owner(token))
    assert r.json() == {"added": ["Cat", "Dan"]}
    assert client.post(f"/api/clubs/{cid}/members", json={"names": ["\u202eEve"]},
                       headers=owner(token)).status_code == 422
    assert client.post(f"/api/clubs/{cid}/settings", json={"name": "Fridays"}, headers=owner(token)).json() == \
        {"name": "Fridays"}
    assert client.get(f"/api/clubs/{cid}").json()["name"] == "Fridays"
    # a table made outside the club joins it through its host (not a guest), once
    t = create(client, "poker", host_name="Ann")
    tid, host = t["table"]["id"], t["token"]
    assert t["club"] is None and client.get(f"/api/tables/{tid}/club").json() == {"club": None}
    guest = sit(client, tid, "Ben")["token"]
    assert post(client, tid, "/club", guest, {"club": cid}).status_code == 403
    assert post(client, tid, "/club", host, {"club": "nosuchclub"}).status_code == 404
    r = post(client, tid, "/club", host, {"club": cid})
    assert r.status_code == 200 and r.json()["club"]["id"] == cid
    r = post(client, tid, "/club", host, {"club": other})
    assert r.status_code == 409 and "already counts for a club" in r.json()["detail"]
    # the owner takes it out; the table itself stays
    assert client.delete(f"/api/clubs/{cid}/tables/{tid}").status_code == 401
    assert client.delete(f"/api/clubs/{cid}/tables/{tid}", headers=owner(token)).json() == {"removed": tid}
    assert client.delete(f"/api/clubs/{cid}/tables/{tid}", headers=owner(token)).status_code == 404
    assert client.get(f"/api/clubs/{cid}").json()["nights"] == [] and client.get(f"/api/tables/{tid}").status_code == 200


def test_issue21_6_bad_clubs_are_refused_and_make_nothing(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    for body, words in (({"name": "", "owner_name": "Ann"}, "name"), ({"name": "x", "owner_name": "A" * 41}, "owner_name"),
                        ({"name": "x", "owner_name": "Ann", "members": ["B"] * 51}, "members"),
                        ({"name": "x", "owner_name": "Ann", "owner": "Ben"}, "owner"),
                        ({"name": "x\u0000", "owner_name": "Ann"}, "name")):
        r = client.post("/api/clubs", json=body)
        assert r.status_code == 422 and words in r.json()["detail"], r.text
    for path in ("/api/clubs/nosuchclub", "/api/clubs/nosuchclub/standings", "/api/clubs/nosuchclub/standings.csv",
                 "/api/clubs/nosuchclub/hands.jsonl"):
        r = client.get(path)
        assert r.status_code == 404 and "unknown club" in r.json()["detail"], path
    assert client.get("/api/clubs/" + "x" * 17).status_code == 422
    before = client.get("/api/tables").json()
    r = client.post("/api/tables", json={"game": "poker", "host_name": "Ann", "club": "nosuchclub", "public": True})
    assert r.status_code == 404 and client.get("/api/tables").json() == before  # no table made
    # a full club refuses a new night (the standings read every table: the number is bounded)
    from fourcards.web.routes import clubs, lobby

    monkeypatch.setattr(clubs, "MAX_CLUB_TABLES", 1)
    monkeypatch.setattr(lobby, "MAX_CLUB_TABLES", 1)
    cid = _club(client)["club"]["id"]
    create(client, "poker", host_name="Ann", club=cid)
    r = client.post("/api/tables", json={"game": "poker", "host_name": "Ann", "club": cid, "public": True})
    assert r.status_code == 409 and "the most it keeps" in r.json()["detail"]
    assert client.get("/api/tables").json() == before


def test_issue21_6_the_club_page_and_a_missing_club(client: TestClient) -> None:
    c = _club(client, name="<b>Thursday</b>")
    r = client.get(c["url"])
    assert r.status_code == 200 and "&lt;b&gt;Thursday&lt;/b&gt;" in r.text and c["token"] not in r.text
    assert client.get("/clubs/new").status_code == 200
    r = client.get("/c/nosuchclub")
    assert r.status_code == 404 and "No such club" in r.text


def test_issue21_6_a_database_of_0004_upgrades_to_clubs_keeping_its_tables(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        migrate(engine, "0004")
        with engine.begin() as conn:
            conn.execute(insert(GameTable.__table__), [{"id": "old00001", "game": "poker", "name": "Old", "rules": {},
                                                         "settings": {}, "status": "open", "public": False,
                                                         "created_at": utcnow(), "version": 3}])
        migrate(engine)
    finally:
        engine.dispose()
    store = Store(database_url)
    try:
        clubs = ClubStore(store)
        clubs.create("c1", "Club", "Ann", "h" * 64, ["Ben"])
        clubs.attach("c1", "old00001", 10)
        assert clubs.get("c1")["tables"][0]["id"] == "old00001" and clubs.club_of("old00001")["id"] == "c1"
        assert clubs.get("c1")["members"] == ["Ann", "Ben"]
    finally:
        store.close()
