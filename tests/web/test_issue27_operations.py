"""Issue 27 items 5 and 6, the store's side on SQLite and PostgreSQL, with tables played through
the app: retention (``prune``) keeps settlements, standings and the ledger audit; the operator
lists tables (live, idle, abandoned, closed), closes abandoned ones, removes or bans a name from a
club, reads a ledger audit and exports histories - each action in the hash-chained audit log."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update
from test_issue21_settle_up_api import _poker_round

from fourcards.store import Store, StoreError
from fourcards.store.audit import AuditLog
from fourcards.store.models import DealAction, GameTable, TableChatLine, TableLogLine
from fourcards.store.operator import Operator, table_state
from fourcards.store.retention import prune
from fourcards.table.export import PRUNED
from webhelpers import create, play_kind_deal, post, sit, state

DAY = 86400.0


@pytest.fixture
def store(client: TestClient):
    s = Store(client.database_url, run_migrations=False)  # type: ignore[attr-defined]
    yield s
    s.close()


def _age(store: Store, tid: str, seconds: float) -> None:
    """Make table ``tid`` last written ``seconds`` ago."""
    with store.Session.begin() as s:
        s.execute(update(GameTable).where(GameTable.id == tid).values(active_at=time.time() - seconds))


def _rows(store: Store, model: Any, tid: str) -> int:
    column = model.table_id if hasattr(model, "table_id") else None
    with store.Session() as s:
        if column is None:  # deal_actions: through the deals
            from fourcards.store.models import Deal

            return int(s.scalar(select(func.count()).select_from(DealAction).join(Deal, Deal.id == DealAction.deal_id)
                                .where(Deal.table_id == tid)) or 0)
        return int(s.scalar(select(func.count()).select_from(model).where(column == tid)) or 0)


def _figures(client: TestClient, tid: str) -> dict[str, Any]:
    """Everything a table's settlement, ledger and deals list add up to."""
    ledger = client.get(f"/api/tables/{tid}/ledger").json()
    deals = client.get(f"/api/tables/{tid}/deals").json()["deals"]
    return {"settlement": client.get(f"/api/tables/{tid}/settlement").json(), "audit": ledger["audit"],
            "balances": ledger["balances"],
            "deals": [{k: d[k] for k in ("number", "status", "result", "nets") if k in d} for d in deals]}


def _played_club(client: TestClient) -> tuple[str, list[str], str]:
    """A club with a Four Card Poker night and a Four of a Kind night (chat at both), both closed,
    and an open table of no club; returns (club id, closed table ids, open table id)."""
    r = client.post("/api/clubs", json={"name": "Thursday cards", "owner_name": "Ann", "members": ["Ben"]})
    assert r.status_code == 201, r.text
    cid = r.json()["club"]["id"]
    t1 = create(client, "poker", bots=1, host_name="Ann", club=cid)
    p, ann = t1["table"]["id"], t1["token"]
    ben = sit(client, p, "Ben")["token"]
    for folds in ((), (ben,)):
        _poker_round(client, p, {ann: 10, ben: 20}, folds)
    assert post(client, p, "/chat", ben, {"text": "good night"}).status_code == 200
    t2 = create(client, "kind", bots=2, host_name="Ann", club=cid)
    k, ann2 = t2["table"]["id"], t2["token"]
    ben2 = sit(client, k, "Ben")["token"]
    for _ in range(2):
        assert post(client, k, "/deal", ann2).status_code == 200
        seats = {pl["name"]: pl["seat"] for pl in state(client, k)["players"]}
        play_kind_deal(client, k, {seats["Ann"]: ann2, seats["Ben"]: ben2})
    assert post(client, k, "/chat", ann2, {"text": "again next week"}).status_code == 200
    for tid, tok in ((p, ann), (k, ann2)):
        assert post(client, tid, "/close", tok).status_code == 200
    t3 = create(client, "kind", bots=3)
    o = t3["table"]["id"]
    assert post(client, o, "/deal", t3["token"]).status_code == 200
    play_kind_deal(client, o, {1: t3["token"]})
    return cid, [p, k], o


def test_issue27_5_prune_removes_histories_chat_and_logs_and_keeps_settlements_standings_and_the_audit(
        client: TestClient, store: Store) -> None:
    cid, closed, open_id = _played_club(client)
    before = {tid: _figures(client, tid) for tid in closed}
    standings = client.get(f"/api/clubs/{cid}/standings").json()
    for tid in closed:
        _age(store, tid, 100 * DAY)
    _age(store, open_id, 100 * DAY)  # open: never pruned, however old
    kept_open = {m: _rows(store, m, open_id) for m in (DealAction, TableLogLine, TableChatLine)}
    assert all(_rows(store, m, tid) for tid in closed for m in (DealAction, TableLogLine))

    dry = prune(store, 90 * DAY, dry_run=True)
    assert dry.tables == 2 and sorted(dry.table_ids) == sorted(closed) and dry.deals == 4
    assert dry.records > 0 and dry.log_lines > 0 and dry.chat_lines == 2 and dry.ledger_after < dry.ledger_before
    assert all(_rows(store, DealAction, tid) for tid in closed), "a dry run changes nothing"
    assert prune(store, 101 * DAY).tables == 0, "tables written since the cutoff stay"

    report = prune(store, 90 * DAY, by="cli:test")
    assert {**report.to_dict(), "cutoff": None} == {**dry.to_dict(), "dry_run": False, "cutoff": None}
    for tid in closed:
        assert [_rows(store, m, tid) for m in (DealAction, TableLogLine, TableChatLine)] == [0, 0, 0]
        assert _figures(client, tid) == before[tid]  # settlement, balances, audit, every deal's nets
        assert client.get(f"/api/tables/{tid}").status_code == 200
    assert client.get(f"/api/clubs/{cid}/standings").json() == standings
    assert {m: _rows(store, m, open_id) for m in (DealAction, TableLogLine, TableChatLine)} == kept_open
    assert prune(store, 90 * DAY).tables == 0, "pruned once"

    lines = [json.loads(x) for x in Operator(store).export_table("cli:test", closed[1])]
    assert [(x["number"], x["error"]) for x in lines] == [(1, PRUNED), (2, PRUNED)]
    for tid in closed:  # the table's own pages and exports say so too, for both games
        for path in ("/deals/1", "/deals/1/replay"):
            r = client.get(f"/api/tables/{tid}{path}")
            assert (r.status_code, r.json()["detail"]) == (410, PRUNED)
        assert [json.loads(x)["error"] for x in client.get(f"/api/tables/{tid}/hands.jsonl").text.splitlines()] \
            == [PRUNED, PRUNED]
        assert client.get(f"/api/tables/{tid}/hands.txt").text.count(PRUNED) == 2
    log = AuditLog(store)
    [row] = log.entries(action="prune")
    assert row.actor == "cli:test" and row.details["tables"] == 2 and log.verify().ok
    with pytest.raises(StoreError, match="at least a day"):
        prune(store, 3600)


def test_issue27_6_tables_live_idle_abandoned_and_closing_the_abandoned_ones(client: TestClient, store: Store) -> None:
    now = time.time()
    assert [table_state("open", now - s, now) for s in (0, 14 * 60, 16 * 60, 7 * DAY - 1, 7 * DAY)] == \
        ["live", "live", "idle", "idle", "abandoned"]
    assert table_state("closed", now, now) == "closed"
    live = create(client, "kind", bots=3, name="Friday live")["table"]["id"]
    idle = create(client, "kind", bots=3, name="Friday idle")["table"]["id"]
    t = create(client, "kind", bots=2, name="Left behind")
    gone, tok = t["table"]["id"], t["token"]
    sit(client, gone, "Ben")
    assert post(client, gone, "/deal", tok).status_code == 200  # a deal left in progress
    assert state(client, gone)["deal"] is not None
    shut = create(client, "poker", bots=1, name="Done")
    assert post(client, shut["table"]["id"], "/close", shut["token"]).status_code == 200
    _age(store, idle, 3600)
    _age(store, gone, 8 * DAY)
    op = Operator(store)
    by_state = {s: [x["id"] for x in op.tables(state=s)] for s in ("live", "idle", "abandoned", "closed")}
    assert by_state == {"live": [live], "idle": [idle], "abandoned": [gone], "closed": [shut["table"]["id"]]}
    [row] = op.tables(query="LEFT beh")
    assert row["id"] == gone and row["people"] == 2 and row["bots"] == 2 and row["deal_in_progress"]
    assert [x["id"] for x in op.tables(query=gone[:5])] == [gone]
    first = op.tables(limit=2)
    rest = op.tables(before=(first[-1]["active_at_s"], first[-1]["id"]))
    assert [x["id"] for x in first + rest] == [x["id"] for x in op.tables()] and len(first + rest) == 4
    assert op.tables(query="100%_") == []  # LIKE's wildcards are text
    with pytest.raises(StoreError, match="unknown table state"):
        op.tables(state="asleep")

    assert [x["id"] for x in op.close_abandoned("cli:test", dry_run=True)] == [gone]
    assert client.get(f"/api/tables/{gone}").json()["status"] == "open"
    [done] = op.close_abandoned("cli:test")
    assert done["id"] == gone and set(done["cashed_out"]) == {"Host", "Ben", *done["cashed_out"]} - {""}
    s = state(client, gone)
    assert client.get(f"/api/tables/{gone}").json()["status"] == "closed" and s["deal"] is None
    assert any("The operator closes the table (abandoned" in line for line in s["log"])
    d1 = client.get(f"/api/tables/{gone}/deals/1").json()
    assert d1["status"] == "voided" and d1["void_reason"].startswith("operator ruling: abandoned")
    audit = client.get(f"/api/tables/{gone}/ledger").json()["audit"]
    assert audit == {"total": 0, "unbalanced_txns": [], "open_escrow_deals": []}
    assert op.close_abandoned("cli:test") == []
    with pytest.raises(StoreError, match="closed"):
        op.close_table("cli:test", gone, "again")
    [entry] = AuditLog(store).entries(action="close_table")
    assert entry.target == gone and entry.actor == "cli:test" and entry.details["reason"].startswith("abandoned")


def test_issue27_6_a_banned_name_leaves_the_clubs_tables_and_is_not_listed_again(client: TestClient,
                                                                                  store: Store) -> None:
    r = client.post("/api/clubs", json={"name": "Club", "owner_name": "Ann", "members": ["Ben", "Cy"]})
    cid, owner = r.json()["club"]["id"], {"X-Club-Token": r.json()["token"]}
    t = create(client, "kind", bots=1, host_name="Ann", club=cid)
    tid = t["table"]["id"]
    sit(client, tid, "Ben")
    sit(client, tid, "Cy")
    op = Operator(store)
    out = op.ban_name("admin:root", cid, "BEN", "cheating")
    assert [(x["table"], x["status"]) for x in out["seats"]] == [(tid, "left")]
    s = state(client, tid)
    assert "Ben" not in [p["name"] for p in s["players"]]
    assert any("Ben is removed by the operator (banned from the club Club)" in line for line in s["log"])
    assert op.clubs.get(cid)["members"] == ["Ann", "Cy"]  # type: ignore[index]
    r = client.post(f"/api/clubs/{cid}/members", json={"names": ["ben"]}, headers=owner)
    assert r.status_code == 409 and "banned" in r.text
    assert op.is_banned(tid, "bEn") and not op.is_banned(tid, "Cy")
    assert [b["name"] for b in op.banned(cid)] == ["BEN"]
    with pytest.raises(StoreError, match="already banned"):
        op.ban_name("admin:root", cid, "ben")
    assert op.unban_name("admin:root", cid, "Ben") and not op.is_banned(tid, "Ben")
    assert client.post(f"/api/clubs/{cid}/members", json={"names": ["Ben"]}, headers=owner).status_code == 200
    gone = op.remove_name("admin:root", cid, "cy", from_seats=True)
    assert gone["removed"] and [x["status"] for x in gone["seats"]] == ["left"]
    assert op.clubs.get(cid)["members"] == ["Ann", "Ben"]  # type: ignore[index]
    actions = [e.action for e in AuditLog(store).entries()]
    assert actions == ["ban_name", "unban_name", "remove_member"] and AuditLog(store).verify().ok
    with pytest.raises(StoreError, match="unknown club"):
        op.ban_name("admin:root", "nope", "Ben")


def test_issue27_6_ledger_audit_and_exports_are_what_the_tables_show_and_are_recorded(
        client: TestClient, store: Store) -> None:
    cid, (poker, kind), _ = _played_club(client)
    op = Operator(store)
    audit = op.ledger_audit("admin:root", poker)
    assert audit["audit"] == {"total": 0, "unbalanced_txns": [], "open_escrow_deals": []}
    assert audit["in_play"] == 0 and {p["name"] for p in audit["players"]} >= {"Ann", "Ben"}
    assert sum(p["balance"] for p in audit["players"]) == 0  # closed: everyone cashed out
    for tid in (poker, kind):
        mine = [json.loads(x) for x in op.export_table("admin:root", tid)]
        theirs = [json.loads(x) for x in client.get(f"/api/tables/{tid}/hands.jsonl").text.splitlines()]
        assert mine == theirs and len(mine) == 2
        text = b"".join(op.export_table("admin:root", tid, "txt")).decode()
        assert text == client.get(f"/api/tables/{tid}/hands.txt").text
    club = b"".join(op.export_club("admin:root", cid)).decode()
    assert club == client.get(f"/api/clubs/{cid}/hands.jsonl").text
    with pytest.raises(StoreError, match="format"):
        op.export_table("admin:root", poker, "xlsx")
    log = AuditLog(store)
    assert [e.action for e in log.entries()] == ["read_ledger"] + ["export_table"] * 4 + ["export_club"]
    assert log.verify().ok
