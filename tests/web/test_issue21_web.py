"""Issue 21 part A through the API, on SQLite and PostgreSQL: the chat (item 4; docs/rules.md TP-9)
over REST and the websocket, its refusals, the host's mute, the chat kept in the database; the
app shell (item 8: manifest, icons, service worker, offline page); the play test's faults (item
9) that the server answers: the host seating a player without a phone, the old phone of a seat
handed on, the payout checker's tie, the rules in words."""

from __future__ import annotations

import re
import struct
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fourcards.table.chat import REACTIONS
from webhelpers import comparable, create, hdr, post, sit, state, ws_connect


def _chat(client: TestClient, tid: str, token: str | None, body: Any) -> Any:
    return post(client, tid, "/chat", token, body)


def _next(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(50):
        msg = ws.receive_json()
        if msg["type"] == kind:
            return dict(msg)
    raise AssertionError(f"no {kind} message")


# ------------------------------------------------------------------- chat


def test_tp9_chat_over_rest_and_the_websocket_reaches_every_viewer(client: TestClient) -> None:
    t = create(client, "kind", bots=2)
    tid, host = t["table"]["id"], t["token"]
    ben = sit(client, tid, "Ben")["token"]
    with client.websocket_connect(f"/ws/tables/{tid}") as watcher:  # a spectator reads along
        assert _next(watcher, "state")["chat"] == []
        r = _chat(client, tid, ben, {"text": "<script>alert(1)</script> hi", "action_id": "m1"})
        assert r.status_code == 200, r.text
        sent = r.json()["chat"]
        assert sent["text"] == "<script>alert(1)</script> hi" and sent["name"] == "Ben" and sent["kind"] == "text"
        for _ in range(10):
            seen = _next(watcher, "state")
            if seen["chat"]:
                break
        assert seen["chat"] == [sent]
        again = _chat(client, tid, ben, {"text": "<script>alert(1)</script> hi", "action_id": "m1"})
        assert again.json() == {"chat": sent, "repeated": True}  # a retry is not a second message
        with ws_connect(client, tid, host) as ws:
            _next(ws, "state")
            ws.send_json({"op": "chat", "reaction": REACTIONS[2], "id": 7})
            assert _next(ws, "ack") == {"type": "ack", "id": 7}
            ws.send_json({"op": "chat", "text": "x" * 201, "id": 8})
            err = _next(ws, "error")
            assert err["id"] == 8 and err["status"] == 422 and "at most 200 characters" in err["detail"]
    chat = state(client, tid)["chat"]
    assert [(m["name"], m["kind"]) for m in chat] == [("Ben", "text"), ("Host", "reaction")]
    assert state(client, tid)["log"][-1].endswith("chips")  # the table log stays the game's


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"text": "line\nbreak"}, 422, "U+000A"),
    ({"text": "\ue000"}, 422, "U+E000"),
    ({"text": "y" * 201}, 422, "at most 200 characters"),
    ({"text": "y" * 801}, 422, "text"),  # bounded before the table reads it
    ({"text": ""}, 422, "must not be blank"),
    ({}, 422, "a text or a reaction"),
    ({"text": "a", "reaction": REACTIONS[0]}, 422, "a text or a reaction"),
    ({"reaction": "nope"}, 422, "is not a reaction here"),
    ({"text": 5}, 422, "text"),
    ({"text": "hi", "colour": "red"}, 422, "colour"),
])
def test_tp9_a_refused_chat_message_changes_nothing(client: TestClient, body: Any, status: int, words: str) -> None:
    t = create(client, "kind", bots=3)
    tid, host = t["table"]["id"], t["token"]
    before = comparable(state(client, tid, host))
    r = _chat(client, tid, host, body)
    assert r.status_code == status and words in r.json()["detail"], r.text
    assert comparable(state(client, tid, host)) == before


def test_tp9_who_may_chat_the_rate_limit_and_the_mute(client: TestClient) -> None:
    t = create(client, "kind", bots=2)
    tid, host = t["table"]["id"], t["token"]
    ben = sit(client, tid, "Ben")["token"]
    assert _chat(client, tid, None, {"text": "hi"}).status_code == 401
    assert _chat(client, tid, "not-a-token-of-this-table", {"text": "hi"}).status_code == 403
    for i in range(3):
        assert _chat(client, tid, ben, {"text": f"m{i}"}).status_code == 200
    r = _chat(client, tid, ben, {"text": "one too many"})
    assert r.status_code == 429 and "at most 3 chat messages in 2 seconds; try again in" in r.json()["detail"]
    assert _chat(client, tid, host, {"text": "the host is not held up"}).status_code == 200
    assert post(client, tid, "/seats/4/mute", ben, {"muted": True}).status_code == 403  # only the host
    assert post(client, tid, "/seats/2/mute", host).status_code == 409  # a bot
    v = post(client, tid, "/seats/4/mute", host, {"muted": True}).json()
    assert v["log"][-1] == "The host mutes Ben in the chat" and [p["muted"] for p in v["players"]][3] is True
    assert state(client, tid, ben)["you"]["muted"] is True
    r = _chat(client, tid, ben, {"reaction": REACTIONS[0]})
    assert r.status_code == 403 and "the host has muted your chat" in r.json()["detail"]
    with ws_connect(client, tid, host) as ws:
        _next(ws, "state")
        ws.send_json({"op": "mute", "seat": 4, "muted": False, "id": 1})
        assert _next(ws, "ack")["id"] == 1
        ws.send_json({"op": "mute", "seat": "4", "id": 2})
        assert _next(ws, "error")["status"] == 422
    assert state(client, tid)["log"][-1] == "The host lets Ben chat again"


def test_tp9_the_chat_is_kept_in_the_database(database_url: str) -> None:
    from fourcards.web import create_app

    with TestClient(create_app(database_url, bot_delay=0)) as c:
        t = create(c, "poker", bots=1)
        tid, host = t["table"]["id"], t["token"]
        for text in ("one", "two"):
            assert _chat(c, tid, host, {"text": text}).status_code == 200
    with TestClient(create_app(database_url, bot_delay=0)) as c:  # another server, the same database
        chat = state(c, tid)["chat"]
        assert [(m["id"], m["text"]) for m in chat] == [(1, "one"), (2, "two")]
        assert _chat(c, tid, host, {"text": "three"}).json()["chat"]["id"] == 3
        r = _chat(c, tid, host, {"text": "four"})  # the rate limit counts the stored messages too
        assert r.status_code == 429, r.text


def test_tp9_the_store_reads_back_a_table_s_latest_40_messages_in_order(database_url: str) -> None:
    from fourcards.store import Store, TableCommit
    from fourcards.table.writes import ChatLine, NewPlayer

    store = Store(database_url)
    try:
        store.create_table("chat0001", "kind", "Chatty", {}, {})
        res = store.commit_table(TableCommit("chat0001", 0, {}, None, [NewPlayer(1, "Ann", "h" * 64, 100)]))
        pid = res.player_ids[0]
        lines = [ChatLine(n, pid, 1, "Ann", f"message {n}", "text", 1000.0 + n) for n in range(1, 46)]
        store.commit_table(TableCommit("chat0001", 1, {}, None, list(lines)))
        row = store.load_table("chat0001")
        assert row is not None and row.chat == lines[5:]
    finally:
        store.close()


# ------------------------------------------------------ the app shell (item 8)


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_issue21_8_the_app_is_installable_manifest_icons_and_a_service_worker(client: TestClient) -> None:
    t = create(client, "poker", bots=1)
    pages = ["/", t["join_url"], f"/t/{t['table']['id']}/history", "/poker/checker", "/offline"]
    for path in pages:
        html = client.get(path).text
        assert re.search(r'<link rel="manifest" href="/static/manifest\.webmanifest\?v=[0-9a-f]{12}">', html), path
        # the registration is a script file of its own (no inline script under the CSP: issue 26)
        install = re.search(r'<script src="(/static/install\.js\?v=[0-9a-f]{12})"></script>', html)
        assert install is not None and 'name="theme-color"' in html, path
        assert 'navigator.serviceWorker.register("/sw.js")' in client.get(install.group(1)).text
    manifest_url = re.search(r'href="(/static/manifest\.webmanifest\?v=[0-9a-f]{12})"', client.get("/").text)
    assert manifest_url is not None
    r = client.get(manifest_url.group(1))
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/manifest+json")
    m = r.json()
    assert (m["start_url"], m["scope"], m["display"], m["short_name"]) == ("/", "/", "standalone", "fourcards")
    sizes = {}
    for icon in m["icons"]:
        png = client.get("/static/" + icon["src"])
        assert png.status_code == 200 and png.headers["content-type"] == "image/png"
        sizes[(icon["sizes"], icon["purpose"])] = _png_size(png.content)
    assert sizes == {("192x192", "any"): (192, 192), ("512x512", "any"): (512, 512),
                     ("512x512", "maskable"): (512, 512)}
    sw = client.get("/sw.js")
    assert sw.status_code == 200 and sw.headers["content-type"].startswith("text/javascript")
    assert sw.headers["cache-control"] == "no-cache"  # a new version's shell is picked up at once
    files = [u.strip('"') for u in re.findall(r'"/[^"]*"', sw.text.split("const FILES = ", 1)[1].split(";", 1)[0])]
    assert files and all(re.fullmatch(r"/static/[a-z0-9/._-]+\?v=[0-9a-f]{12}", u) for u in files), files
    assert {u.split("?")[0] for u in files} >= {"/static/app.css", "/static/table.js", "/static/icons/icon-192.png"}
    for u in files:
        assert client.get(u).status_code == 200
    assert "/api/" not in sw.text.split("// a versioned")[0] and "http" not in sw.text  # no other host, no state
    assert client.get("/offline").status_code == 200


# ------------------------------------------------------------ play-test faults


def test_issue21_9_the_old_phone_of_a_seat_handed_on_is_told_so(client: TestClient) -> None:
    t = create(client, "poker", bots=0)
    tid, host = t["table"]["id"], t["token"]
    old = sit(client, tid, "Zoe")["token"]
    assert post(client, tid, "/seats/2/new-device", host).status_code == 200
    for r in (client.get(f"/api/tables/{tid}/state", headers=hdr(old)),
              post(client, tid, "/actions", old, {"kind": "wager", "ante": 10}),
              _chat(client, tid, old, {"text": "hello?"})):
        assert r.status_code == 403
        assert r.json()["detail"] == ("this phone no longer holds Zoe's seat: the host handed the seat to another "
                                      "phone (this one can still watch the table)")
    with ws_connect(client, tid, old) as ws:  # a phone that slept through it
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["status"] == 403 and "no longer holds Zoe's seat" in msg["detail"]


def test_issue21_9_the_payout_checker_says_tie_on_a_tie(client: TestClient) -> None:
    body = {"player": "9h 9d 7s 5c 2d", "dealer": "9s 9c 7h 5d 2c 3s", "ante": 10, "play": 10}
    tie = client.post("/api/poker/settle", json=body).json()
    assert tie["tie"] is True and tie["outcome"] == "win" and tie["net"] == 20  # ties go to the player (FCP-4)
    won = client.post("/api/poker/settle", json={**body, "dealer": "9s 9c 6h 5d 2c 3s"}).json()
    assert won["tie"] is False and won["outcome"] == "win"
    folded = client.post("/api/poker/settle", json={**body, "play": None, "fold": True}).json()
    assert folded["tie"] is False


def test_issue21_9_pages_name_the_rules_in_words(client: TestClient) -> None:
    lobby = client.get("/").text
    assert '<option value="live">Casino rules: play 1x\u20133x</option>' in lobby
    assert '<option value="online">Online rules: 1x or 3x, win cap 8,400</option>' in lobby
    assert '<option value="family">Family rules: ante 5, bets 5\u201310</option>' in lobby
    checker = client.get("/poker/checker").text
    assert '<option value="live">Casino rules: play 1x\u20133x</option>' in checker
    for page in (lobby, checker):
        assert "seed 00" not in page and "OPR-803" not in page
    t = create(client, "poker", preset="online", public=True)
    assert t["table"]["rules_label"] == "Online rules: 1x or 3x, win cap 8,400"
    assert "Four Card Poker &middot; Online rules: 1x or 3x, win cap 8,400" in client.get(t["join_url"]).text
