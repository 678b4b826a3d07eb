"""Issue 26 items 2, 3, 4 and 7 through the app (docs/web.md "Security"): the seat token never in a
URL (the websocket takes it in Sec-WebSocket-Protocol; ``?token=`` deprecated, then refused), the
security headers on every response and no inline script, a foreign ``Origin`` refused, rate limits
per client address (429 with Retry-After, nothing made), the lobby in pages, a body limit, strict
path numbers. The same against a real ``fourcards serve`` (its access log, a chunked body, the
client address behind a proxy): tests/web/test_issue26_serve.py."""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from fourcards.web import create_app
from fourcards.web.routes import live
from fourcards.web.security import MAX_BODY_BYTES
from webhelpers import create, hdr, post, sit, ws_connect

SECURITY = {"x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer"}


@pytest.fixture
def web(sqlite_url: str) -> Iterator[TestClient]:
    """The app on SQLite (these behaviours do not depend on the database)."""
    with TestClient(create_app(sqlite_url, bot_delay=0, public_url="https://cards.example.org",
                               allowed_origins="https://friends.example.net")) as c:
        yield c


def _csp_ok(csp: str) -> None:
    directives = {d.split()[0]: d.split()[1:] for d in csp.split(";") if d.strip()}
    assert "'unsafe-inline'" not in directives["script-src"] and "'unsafe-eval'" not in directives["script-src"]
    assert directives["frame-ancestors"] == ["'none'"] and directives["object-src"] == ["'none'"]


# ------------------------------------------------------------------ item 3: headers, no inline script, origins


def test_issue26_3_security_headers_on_every_response(web: TestClient) -> None:
    t = create(web, "poker", host_name="Ann")
    tid = t["table"]["id"]
    responses = [web.get(p) for p in ("/", f"/t/{tid}", f"/t/{tid}/history", "/t/nosuchtable", "/poker/checker",
                                      "/clubs/new", "/offline", "/sw.js", "/api/health", f"/api/tables/{tid}",
                                      "/api/tables/nosuchtable", f"/t/{tid}/qr.svg", "/static/app.css",
                                      "/static/nope.js", "/openapi.json", "/docs", "/docs-assets/swagger-ui.css")]
    responses += [web.post("/api/tables", content=b"{not json", headers={"Content-Type": "application/json"}),
                  web.post("/api/tables", json={"game": "chess"}),
                  web.post("/api/tables", content=b"x" * (MAX_BODY_BYTES + 1))]
    assert {r.status_code for r in responses} >= {200, 400, 404, 413, 422}
    for r in responses:
        for name, value in SECURITY.items():
            assert r.headers.get(name) == value, (r.url, name, r.headers)
        _csp_ok(r.headers["content-security-policy"])


def test_issue26_3_pages_run_no_inline_script_and_docs_only_by_its_nonce(web: TestClient) -> None:
    t = create(web, "poker", host_name="Ann")
    tid = t["table"]["id"]
    club = web.post("/api/clubs", json={"name": "Fridays", "owner_name": "Ann"}).json()["club"]["id"]
    for path in ("/", f"/t/{tid}", f"/t/{tid}/history", f"/t/{tid}/checker", "/poker/checker", "/clubs/new",
                 f"/c/{club}", "/offline", "/t/nosuchtable"):
        html = web.get(path).text
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag or 'type="application/json"' in tag, (path, tag)  # data, not code
        assert not re.search(r"\son[a-z]+\s*=", html), path  # no inline event handlers
    docs = web.get("/docs")
    nonce = re.search(r"'nonce-([A-Za-z0-9_-]+)'", docs.headers["content-security-policy"]).group(1)
    inline = [tag for tag in re.findall(r"<script\b[^>]*>", docs.text) if "src=" not in tag]
    assert inline == [f'<script nonce="{nonce}">'] and web.get("/docs").headers["content-security-policy"] != \
        docs.headers["content-security-policy"]  # a fresh nonce per response


@pytest.mark.parametrize("origin, allowed", [
    (None, True), ("http://testserver", True), ("https://testserver", True), ("https://cards.example.org", True),
    ("https://CARDS.example.org:443", True), ("https://friends.example.net", True),
    ("https://evil.example", False), ("http://cards.example.org.evil.example", False), ("null", False),
    ("https://cards.example.org:8443", False)])
def test_issue26_3_the_websocket_refuses_a_foreign_origin(web: TestClient, origin: str | None, allowed: bool) -> None:
    """Own host, the public URL's origin and the configured ones; any other site's page is refused
    before the handshake (the table page could be driven from another site)."""
    tid = create(web, "kind", host_name="Ann")["table"]["id"]
    headers = {"origin": origin} if origin else {}
    if allowed:
        with web.websocket_connect(f"/ws/tables/{tid}", headers=headers) as ws:
            assert ws.receive_json()["type"] == "state"
    else:
        with pytest.raises(WebSocketDisconnect) as exc, web.websocket_connect(f"/ws/tables/{tid}", headers=headers):
            pass
        assert exc.value.code == 1008


# ------------------------------------------------------------------ item 2: tokens never in a URL


def test_issue26_2_the_websocket_takes_the_token_in_sec_websocket_protocol(web: TestClient) -> None:
    t = create(web, "kind", host_name="Ann")
    tid, tok = t["table"]["id"], t["token"]
    with ws_connect(web, tid, tok) as ws:
        assert ws.accepted_subprotocol == "fourcards"
        view = ws.receive_json()
        assert view["you"]["name"] == "Ann" and "pause" in view["host_actions"]
        ws.send_json({"op": "pause", "id": 1})
        assert ws.receive_json()["type"] in ("ack", "state")
    with ws_connect(web, tid, None) as ws:  # a spectator offers the protocol alone
        assert ws.receive_json()["you"] is None
    with ws_connect(web, tid, "forged-token-of-nobody") as ws:
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["status"] == 403


def test_issue26_2_the_query_form_is_accepted_until_the_window_ends_then_refused(web: TestClient, monkeypatch) -> None:
    t = create(web, "kind", host_name="Ann")
    tid, tok = t["table"]["id"], t["token"]
    monkeypatch.setattr(live, "_today", lambda: live.QUERY_TOKEN_UNTIL - datetime.timedelta(days=1))
    with web.websocket_connect(f"/ws/tables/{tid}?token={tok}") as ws:
        assert ws.receive_json()["you"]["name"] == "Ann"
    monkeypatch.setattr(live, "_today", lambda: live.QUERY_TOKEN_UNTIL)
    with web.websocket_connect(f"/ws/tables/{tid}?token={tok}") as ws:
        msg = ws.receive_json()
        assert msg["status"] == 400 and "Sec-WebSocket-Protocol" in msg["detail"]
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 4400


def test_issue26_2_no_token_rides_in_a_link_the_server_hands_out(web: TestClient) -> None:
    """Invitation links and QR codes carry none; a seat handed to a new phone comes in the link's
    fragment (``#token=``: never sent to a server, so never logged); the pages build no ``?token=``."""
    t = create(web, "poker", host_name="Ann")
    tid, tok = t["table"]["id"], t["token"]
    ben = sit(web, tid, "Ben")
    assert "token" not in t["join_url"] + (t["invite_url"] or "")
    handed = post(web, tid, f"/seats/{ben['seat']}/new-device", tok).json()
    for link in (handed["join_url"], handed["invite_url"]):
        assert "?" not in link and link.split("#", 1)[1] == f"token={handed['token']}"
    for path in (f"/t/{tid}", f"/t/{tid}/history", f"/api/tables/{tid}", f"/api/tables/{tid}/state"):
        text = web.get(path, headers=hdr(tok)).text
        assert tok not in text and handed["token"] not in text and "?token=" not in text
    for script in ("table.js", "history.js", "lobby.js", "club.js"):
        assert "?token=" not in web.get(f"/static/{script}").text


# ------------------------------------------------------------------ item 4: rate limits, the lobby, bodies


def test_issue26_4_creating_is_limited_per_client_address(sqlite_url: str) -> None:
    """Tables, clubs, seats and seat requests: one more than the limit is 429 with a clear detail and
    Retry-After, makes nothing; another address has its own count."""
    app = create_app(sqlite_url, bot_delay=0, rate_limits="tables=3/600,clubs=2/3600,seats=3/600")
    with TestClient(app, client=("192.0.2.7", 4000)) as c, TestClient(app, client=("198.51.100.9", 4000)) as other:
        tids = [create(c, "poker", host_name="Ann", public=True)["table"]["id"] for _ in range(3)]
        r = c.post("/api/tables", json={"game": "poker", "host_name": "Ann", "public": True})
        assert r.status_code == 429 and 1 <= int(r.headers["retry-after"]) <= 600
        assert r.json()["detail"].startswith("too many tables created from your address: at most 3 in 10 minutes;")
        assert len(c.get("/api/tables").json()["tables"]) == 3  # nothing made
        assert other.post("/api/tables", json={"game": "poker", "host_name": "Ben"}).status_code == 201
        for _ in range(2):
            assert c.post("/api/clubs", json={"name": "Fridays", "owner_name": "Ann"}).status_code == 201
        r = c.post("/api/clubs", json={"name": "Fridays", "owner_name": "Ann"})
        assert r.status_code == 429 and "clubs made" in r.json()["detail"] and r.headers["retry-after"]
        sit(c, tids[0], "Ben")
        c.post(f"/api/tables/{tids[1]}/seats", json={"name": "Cat"})
        assert c.post(f"/api/tables/{tids[2]}/seats", json={"name": "Dan"}).status_code in (201, 202)
        before = c.get(f"/api/tables/{tids[0]}").json()["players"]
        r = c.post(f"/api/tables/{tids[0]}/seats", json={"name": "Eve"})
        assert r.status_code == 429 and "seats taken or asked for" in r.json()["detail"]
        assert c.get(f"/api/tables/{tids[0]}").json()["players"] == before
        assert other.post(f"/api/tables/{tids[0]}/seats", json={"name": "Eve"}).status_code == 201


def test_issue26_4_the_lobby_comes_in_pages_newest_first(web: TestClient) -> None:
    made = [create(web, "poker", host_name=f"Host{i}", public=True)["table"]["id"] for i in range(5)]
    create(web, "poker", host_name="Private")
    seen, after, pages = [], None, 0
    while True:
        r = web.get("/api/tables", params={"limit": 2, **({"after": after} if after else {})})
        body = r.json()
        assert r.status_code == 200 and set(body) == {"tables", "limit", "next"} and len(body["tables"]) <= 2
        seen += [t["id"] for t in body["tables"]]
        pages += 1
        after = body["next"]
        if after is None:
            break
    assert seen == made[::-1] and pages == 3
    assert len(web.get("/api/tables").json()["tables"]) == 5  # the default page: 50
    for bad in ("0", "101", "2.0", "-1", "x"):
        assert web.get("/api/tables", params={"limit": bad}).status_code == 422
    assert web.get("/api/tables", params={"after": "nosuchtable"}).json() == {"tables": [], "limit": 50, "next": None}
    assert made[-1] in web.get("/").text and web.get("/", params={"after": made[-1]}).text.count("/t/") >= 4


def test_issue26_4_a_body_over_the_limit_is_413_before_it_is_read(web: TestClient) -> None:
    r = web.post("/api/tables", content=b"{" + b" " * MAX_BODY_BYTES + b"}", headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["detail"] == f"request body too large: at most {MAX_BODY_BYTES:,} bytes"
    r = web.post("/api/tables", content=iter([b'{"game": "poker", ', b" " * MAX_BODY_BYTES, b'"host_name": "A"}']))
    assert r.status_code == 413  # a chunked body, stopped once past the limit
    assert web.post("/api/tables", json={"game": "poker", "host_name": "A" * 30}).status_code == 201


# ------------------------------------------------------------------ item 7: strict numbers in paths


@pytest.mark.parametrize("seat", ["3.0", "+3", " 3", "3e0", "0x3", "٣"])
def test_issue26_7_a_path_number_is_digits_only(web: TestClient, seat: str) -> None:
    """``/seats/3.0/mute`` was seat 3."""
    t = create(web, "kind", host_name="Ann", bots=3)
    tid, tok = t["table"]["id"], t["token"]
    r = post(web, tid, f"/seats/{seat}/mute", tok, {"muted": True})
    assert r.status_code == 422 and "path.seat: must be a whole number written in digits" in r.json()["detail"]
    assert web.get(f"/api/tables/{tid}/deals/{seat}").status_code == 422
    assert post(web, tid, "/seats/3/mute", tok, {"muted": True}).status_code == 409  # seat 3 is a bot's


# ------------------------------------------------------------------ item 5: look-alike names


@pytest.mark.parametrize("name", ["\uff21nn", "\u0410nn", "\u1d00nn"])  # fullwidth, Cyrillic, small capital A
def test_issue26_5_look_alike_names_are_refused_at_a_table_and_in_a_club(web: TestClient, name: str) -> None:
    t = create(web, "kind", host_name="Ann")
    tid = t["table"]["id"]
    before = web.get(f"/api/tables/{tid}").json()
    r = web.post(f"/api/tables/{tid}/seats", json={"name": name})
    assert r.status_code == 409 and r.json()["detail"].startswith(f"{name!r} looks like Ann"), r.text
    assert web.get(f"/api/tables/{tid}").json() == before
    r = web.post("/api/clubs", json={"name": "Fridays", "owner_name": "Ann", "members": ["Ben", name]})
    assert r.status_code == 409 and "looks like Ann" in r.json()["detail"]
    c = web.post("/api/clubs", json={"name": "Fridays", "owner_name": "Ann", "members": ["ann", "Ben"]}).json()
    cid, owner = c["club"]["id"], {"X-Club-Token": c["token"]}
    r = web.post(f"/api/clubs/{cid}/members", json={"names": ["Cat", name]}, headers=owner)
    assert r.status_code == 409 and "looks like Ann" in r.json()["detail"]
    assert [m["name"] for m in web.get(f"/api/clubs/{cid}").json()["members"]] == ["Ann", "Ben"]  # nothing added
