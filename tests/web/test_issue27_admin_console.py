"""Issue 27 item 6, the admin console's web side on SQLite and PostgreSQL: signing in (argon2id,
server-side sessions, the cookie's flags, rate-limited attempts), roles, CSRF, and through the API
and the pages every operator action - tables listed and searched (live, idle, abandoned, closed),
abandoned ones closed in bulk, a name removed or banned from a club (and then refused a seat), a
ledger audit read, histories exported - each in the hash-chained audit log, whose check finds an
edited row."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text, update
from test_issue27_operations import _played_club

from fourcards.store import Store
from fourcards.store.admins import AdminUsers
from fourcards.store.audit import AuditLog
from fourcards.store.models import GameTable
from fourcards.web import create_app
from webhelpers import create, sit

PASSWORD = "correct horse battery staple"
DAY = 86400.0


@pytest.fixture
def store(client: TestClient):
    s = Store(client.database_url, run_migrations=False)  # type: ignore[attr-defined]
    users = AdminUsers(s)
    users.create("Alice", PASSWORD, "admin", "cli:test")
    users.create("Vic", PASSWORD, "viewer", "cli:test")
    yield s
    s.close()


def sign_in(client: TestClient, name: str) -> str:
    """Sign ``client`` in as ``name``; its CSRF token."""
    r = client.post("/api/admin/login", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    return str(r.json()["csrf"])


def _age(store: Store, tid: str, seconds: float) -> None:
    with store.Session.begin() as s:
        s.execute(update(GameTable).where(GameTable.id == tid).values(active_at=time.time() - seconds))


def test_issue27_6_signing_in_sets_an_httponly_strict_session_and_signing_out_ends_it(client: TestClient,
                                                                                     store: Store) -> None:
    assert client.get("/api/admin/tables").status_code == 401
    assert client.post("/api/admin/login", json={"name": "Alice", "password": "wrong password!!"}).status_code == 401
    nobody = client.post("/api/admin/login", json={"name": "Nobody", "password": PASSWORD})
    assert (nobody.status_code, nobody.json()["detail"]) == (401, "wrong name or password")  # the same answer
    for kind, body in (("application/x-www-form-urlencoded", f"name=Alice&password={PASSWORD}"),
                       ("text/plain", json.dumps({"name": "Alice", "password": PASSWORD}))):
        form = client.post("/api/admin/login", content=body, headers={"Content-Type": kind})
        assert form.status_code in (415, 422) and "set-cookie" not in form.headers  # no form of another site signs in
    r = client.post("/api/admin/login", json={"name": "alice", "password": PASSWORD})
    assert r.status_code == 200 and r.json()["user"] == {**r.json()["user"], "name": "Alice", "role": "admin"}
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("fourcards-admin=") and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert "Secure" not in cookie and "Path=/" in cookie  # plain http here: behind TLS, test below
    csrf = r.json()["csrf"]
    assert client.get("/api/admin/session").json()["csrf"] == csrf
    assert client.post("/api/admin/logout").status_code == 403  # no CSRF token
    assert client.post("/api/admin/logout", headers={"X-CSRF-Token": csrf}).status_code == 200
    assert client.get("/api/admin/session").status_code == 401
    actions = [(e.actor, e.action) for e in AuditLog(store).entries()]
    assert actions[-2:] == [("Alice", "login"), ("Alice", "logout")]


def test_issue27_6_the_cookie_is_secure_behind_tls_and_logins_are_rate_limited(sqlite_url: str) -> None:
    app = create_app(sqlite_url, bot_delay=0, rate_limits="logins=3/600")
    with TestClient(app, base_url="https://cards.example.org") as c:
        AdminUsers(Store(sqlite_url, run_migrations=False)).create("Alice", PASSWORD, "admin", "cli:test")
        r = c.post("/api/admin/login", json={"name": "Alice", "password": PASSWORD})
        cookie = r.headers["set-cookie"]
        assert cookie.startswith("__Host-fourcards-admin=") and "Secure" in cookie and "HttpOnly" in cookie
        assert c.get("/api/admin/session").status_code == 200
        for _ in range(2):
            c.post("/api/admin/login", json={"name": "Alice", "password": "not the password"})
        r = c.post("/api/admin/login", json={"name": "Alice", "password": PASSWORD})  # the 4th in 10 minutes
        assert r.status_code == 429 and int(r.headers["retry-after"]) > 0
        assert c.post("/admin/login", data={"name": "Alice", "password": PASSWORD}).status_code == 429


def test_issue27_6_tables_searched_closed_in_bulk_and_each_close_recorded(client: TestClient, store: Store) -> None:
    cid, closed, open_id = _played_club(client)
    quiet = create(client, "kind", host_name="Quinn", name="Quiet corner")["table"]["id"]
    _age(store, quiet, 8 * DAY)
    csrf = sign_in(client, "Alice")
    listed = client.get("/api/admin/tables").json()["tables"]
    assert {t["id"] for t in listed} >= {*closed, open_id, quiet}
    by_state = {s: [t["id"] for t in client.get("/api/admin/tables", params={"state": s}).json()["tables"]]
                for s in ("live", "idle", "abandoned", "closed")}
    assert by_state["abandoned"] == [quiet] and sorted(by_state["closed"]) == sorted(closed)
    assert open_id in by_state["live"]
    found = client.get("/api/admin/tables", params={"query": "quiet"}).json()["tables"]
    assert [t["id"] for t in found] == [quiet]
    assert [t["id"] for t in client.get("/api/admin/tables", params={"club": cid}).json()["tables"]] \
        != [] and all(t["club"]["id"] == cid for t in client.get("/api/admin/tables", params={"club": cid}).json()["tables"])
    page = client.get("/api/admin/tables", params={"limit": 2}).json()
    after = client.get("/api/admin/tables", params={"limit": 50, **page["next"]}).json()["tables"]
    assert [t["id"] for t in page["tables"] + after] == [t["id"] for t in listed]  # pages join up
    assert client.get("/api/admin/tables", params={"state": "gone"}).status_code == 422

    dry = client.post("/api/admin/tables/close-abandoned", json={"older_than": "7d", "dry_run": True},
                      headers={"X-CSRF-Token": csrf}).json()
    assert [t["id"] for t in dry["tables"]] == [quiet] and "cashed_out" not in dry["tables"][0]
    r = client.post("/api/admin/tables/close-abandoned", json={"older_than": "7d"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200 and r.json()["tables"][0]["cashed_out"] == {"Quinn": 1000}
    assert client.post("/api/admin/tables/close-abandoned", json={"older_than": "5m"},
                       headers={"X-CSRF-Token": csrf}).status_code == 422
    r = client.post("/api/admin/tables/close", json={"tables": [open_id, "nosuchtb"], "reason": "maintenance"},
                    headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200
    done = {d["id"]: d for d in r.json()["closed"]}
    assert "cashed_out" in done[open_id] and "unknown table" in done["nosuchtb"]["error"]
    assert client.get(f"/api/tables/{open_id}").json()["status"] == "closed"  # the table itself says so
    rows = [e for e in AuditLog(store).entries() if e.action == "close_table"]
    assert [(e.actor, e.target) for e in rows] == [("Alice", quiet), ("Alice", open_id)]
    assert rows[1].details["reason"] == "maintenance"


def test_issue27_6_a_viewer_reads_and_an_admin_acts_bans_and_exports(client: TestClient, store: Store) -> None:
    cid, (poker, kind), _ = _played_club(client)
    night = create(client, "poker", host_name="Ann", club=cid)
    tid = night["table"]["id"]
    sit(client, tid, "Ben")
    outside = create(client, "poker", host_name="Cat")["table"]["id"]

    sign_in(client, "Vic")  # a viewer
    assert client.get("/api/admin/tables").status_code == 200
    ledger = client.get(f"/api/admin/tables/{poker}/ledger").json()
    assert ledger["audit"] == {"total": 0, "unbalanced_txns": [], "open_escrow_deals": []}
    assert client.get(f"/api/admin/clubs/{cid}").json()["club"]["name"] == "Thursday cards"
    assert "owner_hash" not in client.get(f"/api/admin/clubs/{cid}").json()["club"]
    for method, path in (("post", f"/api/admin/clubs/{cid}/ban"), ("post", "/api/admin/tables/close"),
                         ("get", f"/api/admin/tables/{poker}/hands.jsonl"), ("get", f"/api/admin/clubs/{cid}/hands.txt")):
        r = client.request(method, path, json={"name": "Ben", "tables": [tid]},
                           headers={"X-CSRF-Token": client.get("/api/admin/session").json()["csrf"]})
        assert r.status_code == 403 and "viewer" in r.json()["detail"], path

    csrf = sign_in(client, "Alice")
    r = client.post(f"/api/admin/clubs/{cid}/remove", json={"name": "BEN"}, headers={"X-CSRF-Token": csrf})
    assert r.json() == {"removed": True, "seats": []}  # unlisted; still seated (from_seats not asked)
    assert "Ben" not in client.get(f"/api/admin/clubs/{cid}").json()["club"]["members"]
    r = client.post(f"/api/admin/clubs/{cid}/ban", json={"name": "ben", "reason": "collusion"},
                    headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200 and [s["table"] for s in r.json()["seats"]] == [tid]
    assert "Ben" not in {p["name"] for p in client.get(f"/api/tables/{tid}").json()["seats"] if p["status"] != "left"}
    refused = client.post(f"/api/tables/{tid}/seats", json={"name": "BEN"})  # the ban, wired into taking a seat
    assert refused.status_code == 403 and "banned" in refused.json()["detail"]
    assert client.post("/api/tables", json={"game": "poker", "host_name": "Ben", "club": cid}).status_code == 403
    assert client.post(f"/api/tables/{outside}/seats", json={"name": "Ben"}).status_code == 201  # not the club's
    assert client.post(f"/api/admin/clubs/{cid}/ban", json={"name": "Ben"},
                       headers={"X-CSRF-Token": csrf}).status_code == 409  # already banned
    banned = client.get(f"/api/admin/clubs/{cid}").json()["banned"]
    assert [(b["name"], b["reason"], b["banned_by"]) for b in banned] == [("ben", "collusion", "Alice")]
    assert client.post(f"/api/admin/clubs/{cid}/unban", json={"name": "Ben"},
                       headers={"X-CSRF-Token": csrf}).json() == {"unbanned": True}
    assert client.post(f"/api/tables/{tid}/seats", json={"name": "Ben"}).status_code == 201
    r = client.post(f"/api/admin/clubs/{cid}/remove", json={"name": "Ben", "from_seats": True},
                    headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200 and [x["table"] for x in r.json()["seats"]] == [tid]
    assert client.post("/api/admin/clubs/nosuchcb/ban", json={"name": "X"},
                       headers={"X-CSRF-Token": csrf}).status_code == 404

    exported = [json.loads(x) for x in client.get(f"/api/admin/tables/{kind}/hands.jsonl").text.splitlines()]
    assert exported == [json.loads(x) for x in client.get(f"/api/tables/{kind}/hands.jsonl").text.splitlines()]
    assert len(exported) == 2 and all(x["fourcards_version"] for x in exported)
    club_text = client.get(f"/api/admin/clubs/{cid}/hands.txt")
    assert club_text.text.startswith(f"# fourcards {exported[0]['fourcards_version']} - hand histories of club {cid}")
    assert "attachment" in club_text.headers["content-disposition"]
    assert client.get("/api/admin/tables/nosuchtb/hands.txt").status_code == 404

    log = AuditLog(store)
    acts = [(e.actor, e.action) for e in log.entries() if e.actor in ("Alice", "Vic")]
    assert ("Vic", "read_ledger") in acts and ("Alice", "ban_name") in acts and ("Alice", "unban_name") in acts
    assert ("Alice", "remove_member") in acts and ("Alice", "export_table") in acts and ("Alice", "export_club") in acts
    api = client.get("/api/admin/audit", params={"after": 0, "limit": 1000}).json()
    assert api["count"] == len(api["rows"]) == log.count()
    assert client.get("/api/admin/audit/verify").json()["ok"] is True


def test_issue27_6_the_audit_check_finds_an_edited_row(client: TestClient, store: Store) -> None:
    csrf = sign_in(client, "Alice")
    tid = create(client, "poker", host_name="Ann")["table"]["id"]
    assert client.post("/api/admin/tables/close", json={"tables": [tid]}, headers={"X-CSRF-Token": csrf}).status_code \
        == 200
    good = client.get("/api/admin/audit/verify").json()
    assert good["ok"] and good["rows"] == 4  # two users made, a login, a close
    with store.engine.begin() as conn:  # someone edits the close's row in the database
        conn.execute(text("UPDATE audit_log SET actor = 'Mallory' WHERE action = 'close_table'"))
    bad = client.get("/api/admin/audit/verify").json()
    assert bad["ok"] is False and bad["broken_seq"] == 4 and "changed after it was written" in bad["problem"]
    page = client.get("/admin/audit?verify=true")
    assert page.status_code == 200 and "Broken at row 4" in page.text


def _csrf_of(html: str) -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', html)
    assert m is not None, html[:400]
    return m.group(1)


def test_issue27_6_the_pages_sign_in_close_and_ban_through_forms_with_csrf(client: TestClient, store: Store) -> None:
    cid, _, open_id = _played_club(client)
    assert client.get("/admin", follow_redirects=False).headers["location"] == "/admin/login"
    assert client.get("/admin/tables", follow_redirects=False).headers["location"] == "/admin/login"
    login = client.get("/admin/login")
    assert login.status_code == 200 and "<script" not in login.text.replace(
        '<script src="/static/', "")  # no inline script (the CSP)
    wrong = client.post("/admin/login", data={"name": "Alice", "password": PASSWORD, "csrf": "forged-token-xxxxxxxxxx"})
    assert wrong.status_code == 403  # not the form's own token
    bad = client.post("/admin/login", data={"name": "Alice", "password": "nope nope nope", "csrf": _csrf_of(login.text)})
    assert bad.status_code == 401 and "Wrong name or password" in bad.text
    ok = client.post("/admin/login", data={"name": "Alice", "password": PASSWORD, "csrf": _csrf_of(bad.text)},
                     follow_redirects=False)
    assert ok.status_code == 303 and ok.headers["location"] == "/admin/tables"
    tables = client.get("/admin/tables")
    assert tables.status_code == 200 and open_id in tables.text and "no-store" in tables.headers["cache-control"]
    csrf = _csrf_of(tables.text)
    forged = client.post("/admin/tables/close", data={"table": open_id, "csrf": "x" * 40})
    assert forged.status_code == 403 and client.get(f"/api/tables/{open_id}").json()["status"] == "open"
    other_site = client.post("/admin/tables/close", data={"table": open_id, "csrf": csrf},
                             headers={"Origin": "https://evil.example"})
    assert other_site.status_code == 403
    cross = client.post("/admin/tables/close", data={"table": open_id, "csrf": csrf},
                        headers={"Sec-Fetch-Site": "cross-site", "Origin": "null"})
    assert cross.status_code == 403 and client.get(f"/api/tables/{open_id}").json()["status"] == "open"
    closed = client.post("/admin/tables/close", data={"table": open_id, "csrf": csrf, "reason": "test"},
                         follow_redirects=False)
    assert closed.status_code == 303 and "done=closed" in closed.headers["location"]
    assert "Closed 1 tables." in client.get(closed.headers["location"]).text
    assert client.get(f"/api/tables/{open_id}").json()["status"] == "closed"
    club = client.get(f"/admin/clubs/{cid}")
    assert club.status_code == 200 and "Thursday cards" in club.text
    r = client.post(f"/admin/clubs/{cid}/ban", data={"name": "Ben", "reason": "<b>x</b>", "csrf": csrf})
    assert r.status_code == 200 and "Banned the name" in r.text and "&lt;b&gt;x&lt;/b&gt;" in r.text  # escaped
    detail = client.get(f"/admin/tables/{open_id}")
    assert detail.status_code == 200 and "Balanced" in detail.text
    assert client.get("/admin/tables/nosuchtb").status_code == 404
    audit = client.get("/admin/audit")
    assert audit.status_code == 200 and "ban_name" in audit.text and "close_table" in audit.text
    out = client.post("/admin/logout", data={"csrf": csrf}, follow_redirects=False)
    assert out.status_code == 303 and client.get("/api/admin/session").status_code == 401


def test_issue27_6_a_viewer_sees_no_action_forms(client: TestClient, store: Store) -> None:
    create(client, "poker", host_name="Ann")
    sign_in(client, "Vic")
    page: Any = client.get("/admin/tables")
    assert page.status_code == 200 and "close-selected" not in page.text and "close-abandoned" not in page.text
    r = client.post("/admin/tables/close-abandoned", data={"csrf": _csrf_of(page.text)})
    assert r.status_code == 403 and "viewer" in r.text
