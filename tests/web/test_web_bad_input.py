"""Bad input that used to slip through the web API (issue 9, item 6).

Each kind is closed everywhere, not for one field: every number from outside is
bounded before it reaches the database or memory; no rules are accepted under
which some settlement could not be stored; an empty pay table or preset is
refused, never silently replaced; every websocket frame, binary or malformed,
is answered; every name a person types passes one validation. Each refusal is a
clear 4xx with ``{"detail": "..."}`` and changes nothing.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fourcards.poker.rules import PokerRules
from fourcards.store import MAX_AMOUNT
from fourcards.table import TableError
from fourcards.table.poker import PokerTable
from webhelpers import create, hdr, post, sit, state, ws_connect

HUGE_AU = "1/1/1/1/9999999999999999/9999999999999999/9999999999999999"


def tables(client: TestClient) -> list[dict[str, Any]]:
    return client.get("/api/tables").json()["tables"]


# ------------------------------------------------------------ numbers in paths


@pytest.mark.parametrize("number", ["9223372036854775808", "2147483648", "0", "-1",
                                    "99999999999999999999999999999999"])
def test_deal_number_in_path_bounded_to_the_store_column(client: TestClient, number: str) -> None:
    t = create(client, "poker")
    r = client.get(f"/api/tables/{t['table']['id']}/deals/{number}")
    assert r.status_code == 422, r.text
    assert "number" in r.json()["detail"]


# ------------------------------------------- rules whose settlements cannot be stored


@pytest.mark.parametrize("rules, match", [
    ({"aces_up": HUGE_AU}, "at most 1,000,000 to 1"),
    ({"ante_bonus": "25/20/99999999999"}, "at most 1,000,000 to 1"),
    ({"aces_up": "50/40/8/5/4/3/" + "9" * 5000}, "at most 60 characters"),
])
def test_pay_table_too_large_to_settle_refused_at_creation(client: TestClient, rules: dict[str, str],
                                                           match: str) -> None:
    r = client.post("/api/tables", json={"game": "poker", "host_name": "Host", "rules": rules})
    assert r.status_code == 422, r.text
    assert match in r.json()["detail"]
    assert tables(client) == []


def test_rules_whose_largest_settlement_cannot_be_stored_refused(client: TestClient) -> None:
    # within the engine's bounds, but a seat could win more than a ledger entry holds
    rules = PokerRules(max_ante=10**14)
    with pytest.raises(TableError) as exc:
        PokerTable.check_storable(rules)
    assert exc.value.status == 422 and "cannot be stored" in exc.value.detail
    assert str(MAX_AMOUNT) in exc.value.detail.replace(",", "")
    PokerTable.check_storable(PokerRules())  # the presets fit with room to spare
    # the biggest pays and limits the API accepts still settle and are written
    t = create(client, "poker", starting_chips=10_000_000,
               rules={"aces_up": "1000000/1000000/1000000/1000000/1000000/1000000/1000000",
                      "ante_bonus": "1000000/1000000/1000000", "max_ante": 1_000_000, "max_aces_up": 1_000_000})
    tid, tok = t["table"]["id"], t["token"]
    r = post(client, tid, "/actions", tok, {"kind": "wager", "ante": 1_000_000, "aces_up": 1_000_000})
    assert r.status_code == 200, r.text
    assert post(client, tid, "/deal", tok).status_code == 200
    r = post(client, tid, "/actions", tok, {"kind": "play", "amount": 3_000_000})
    assert r.status_code == 200, r.text
    audit = client.get(f"/api/tables/{tid}/ledger").json()["audit"]
    assert audit == {"total": 0, "unbalanced_txns": [], "open_escrow_deals": []}
    deals = client.get(f"/api/tables/{tid}/deals").json()["deals"]
    assert [d["status"] for d in deals] == ["settled"]


# ---------------------------------------------- empty text never means "default"


@pytest.mark.parametrize("body, match", [
    ({"game": "poker", "rules": {"aces_up": ""}}, "Aces Up"),
    ({"game": "poker", "rules": {"ante_bonus": ""}}, "ante bonus"),
    ({"game": "poker", "rules": {"aces_up": "   "}}, "Aces Up"),
    ({"game": "poker", "preset": ""}, "preset"),
    ({"game": "kind", "preset": ""}, "preset"),
])
def test_empty_pay_table_or_preset_refused_not_replaced(client: TestClient, body: dict[str, Any],
                                                        match: str) -> None:
    r = client.post("/api/tables", json={"host_name": "Host", **body})
    assert r.status_code == 422, r.text
    assert match.lower() in r.json()["detail"].lower()
    assert tables(client) == []


def test_empty_bot_kind_refused_not_replaced(client: TestClient) -> None:
    t = create(client, "poker")
    tid = t["table"]["id"]
    r = post(client, tid, "/bots", t["token"], {"count": 1, "kind": ""})
    assert r.status_code == 422, r.text
    assert "bot" in r.json()["detail"]
    assert len(client.get(f"/api/tables/{tid}").json()["seats"]) == 1


# ------------------------------------------------ one validation for every name


BAD_NAMES = ["Rob\x07", "a\x00b", "tab\u202eelbat", "zero\u200bwidth", "\x1b[31mred", "   ", "",
             "line\u2028sep", "\ud800"]


@pytest.mark.parametrize("bad", BAD_NAMES)
def test_every_typed_name_refuses_control_and_format_characters(client: TestClient, bad: str) -> None:
    fields = [{"name": bad}, {"host_name": bad}]
    for extra in fields:
        body = {"game": "poker", "host_name": "Host", **extra}
        r = client.post("/api/tables", content=json.dumps(body), headers={"Content-Type": "application/json"})
        assert r.status_code == 422, (extra, r.text)
        assert "name" in r.json()["detail"]
    assert tables(client) == []
    t = create(client, "poker")
    tid, tok = t["table"]["id"], t["token"]
    r = client.post(f"/api/tables/{tid}/seats", content=json.dumps({"name": bad}),
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 422, r.text
    assert post(client, tid, "/actions", tok, {"kind": "wager", "ante": 10}).status_code == 200
    r = client.post(f"/api/tables/{tid}/void", content=json.dumps({"reason": bad}),
                    headers={"Content-Type": "application/json", **hdr(tok)})
    assert r.status_code == 422, r.text
    assert "reason" in r.json()["detail"]
    assert len(client.get(f"/api/tables/{tid}").json()["seats"]) == 1
    assert state(client, tid, tok)["table"]["in_progress"] is True


def test_one_name_however_typed_letters_of_any_script_kept(client: TestClient) -> None:
    t = create(client, "poker", host_name="  Zoë   Ōtani ", name="Le  café  de Zoë")
    assert t["name"] == "Zoë Ōtani" and t["table"]["name"] == "Le café de Zoë"
    tid = t["table"]["id"]
    assert sit(client, tid, "Σωκράτης")["name"] == "Σωκράτης"
    # "Zoë" typed with a combining diaeresis is the same name (Unicode NFC)
    assert sit(client, tid, "Zoe\u0308")["name"] == "Zoë"
    r = client.post(f"/api/tables/{tid}/seats", json={"name": "Zoë"})
    assert r.status_code == 409 and "taken" in r.json()["detail"]


# ------------------------------------------------------------ websocket frames


def test_websocket_binary_and_malformed_frames_answered_with_an_error(client: TestClient) -> None:
    t = create(client, "poker")
    tid, tok = t["table"]["id"], t["token"]
    with ws_connect(client, tid, tok) as ws:
        assert ws.receive_json()["type"] == "state"
        frames: list[tuple[Any, int, str]] = [
            (b'{"op": "ping", "id": 1}', 400, "binary"),
            (b"\xff\xfe", 400, "binary"),
            ("not json", 400, "malformed JSON"),
            # Python 3.11's parser gives up on the nesting ("malformed JSON: nested too deeply");
            # 3.13's reads it, and a list is not a JSON object: a 400 naming JSON either way
            ("[" * 4000 + "]" * 4000, 400, "JSON"),
            ("[1, 2]", 400, "JSON object"),
            ('"ping"', 400, "JSON object"),
            ("null", 400, "JSON object"),
            ('{"op": 5}', 400, "unknown op"),
            ('{"op": "action", "action": "wager"}', 422, "invalid"),
            ('{"op": "action", "action": {"kind": "wager", "ante": "10"}}', 422, "ante"),
            ('{"op": "action", "action": {"kind": "wager", "ante": 1e400}}', 422, "ante"),
            ('{"op": "void", "reason": 7}', 422, "reason"),
            ('{"op": "bots", "count": "many"}', 422, "count"),
            ('{"op": "bots", "count": 99999999999999999999999}', 422, "count"),
            ('{"op": "ping", "id": NaN}', 400, "NaN"),
            ('{"op": "ping", "id": {"a": 1}}', 400, "id"),
            ("x" * 9000, 413, "too large"),
        ]
        for frame, status, match in frames:
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
            e = ws.receive_json()
            assert e["type"] == "error" and e["status"] == status, (frame[:40], e)
            assert match.lower() in e["detail"].lower(), (frame[:40], e)
        # the connection is still usable afterwards
        ws.send_text('{"op": "ping", "id": 2}')
        assert ws.receive_json() == {"type": "pong", "id": 2}
    assert state(client, tid, tok)["table"]["in_progress"] is False


# ------------------------------------------------------- fuzz: no body gives a 500


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=8,
)
CREATE_KEYS = ["game", "preset", "rules", "name", "host_name", "bots", "starting_chips", "bot_ante"]
RULES_KEYS = ["ante_bonus", "aces_up", "min_ante", "max_ante", "min_aces_up", "max_aces_up", "win_cap",
              "ante", "min_bet", "max_bet", "max_raises", "redeal"]
ACTION_KEYS = ["kind", "ante", "aces_up", "amount", "trainer"]


def _near(keys: list[str], extra: Any) -> Any:
    """Objects using the real keys (so validation gets past the field names), with any values."""
    return st.dictionaries(st.sampled_from(keys), extra, max_size=len(keys))


interesting = (json_values | st.sampled_from(["poker", "kind", "live", "online", "family", "opr903", "", "x",
                                              "50/40/8/5/4/3/1", "25/20/2", "0/0/0", "replace"])
               | st.integers(min_value=-3, max_value=12) | st.integers(min_value=2**31 - 2, max_value=2**64))


def test_fuzzed_json_bodies_never_give_a_server_error(sqlite_url: str) -> None:
    from fourcards.web import create_app

    with TestClient(create_app(sqlite_url, bot_delay=0, rate_limits="off"), raise_server_exceptions=False) as c:
        host = c.post("/api/tables", json={"game": "poker", "host_name": "Host"}).json()

        @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
        @given(body=_near(CREATE_KEYS, interesting) | json_values,
               rules=_near(RULES_KEYS, interesting),
               action=_near(ACTION_KEYS, interesting) | json_values,
               number=st.integers(min_value=-2**70, max_value=2**70))
        def check(body: Any, rules: Any, action: Any, number: int) -> None:
            if isinstance(body, dict) and "rules" in body:
                body["rules"] = rules
            r = c.post("/api/tables", json=body)
            assert r.status_code in (201, 422), r.text
            t = r.json() if r.status_code == 201 else host
            if r.status_code != 201:
                assert isinstance(r.json()["detail"], str)
            tid, tok = t["table"]["id"], t["token"]
            r = c.get(f"/api/tables/{tid}/deals/{number}")
            assert r.status_code in (404, 422), (number, r.text)
            for path, payload in (("/actions", action), ("/bots", action), ("/void", action),
                                  ("/seats", action), ("/chat", action), ("/seats/without-phone", action),
                                  ("/seats/2/mute", action)):
                r = c.post(f"/api/tables/{tid}{path}", json=payload, headers=hdr(tok))
                assert r.status_code < 500, (path, payload, r.text)
                if r.status_code >= 400:
                    assert isinstance(r.json()["detail"], str), r.text

        check()


# ------------------------------------------------- tables stored by older versions


def test_table_stored_under_rules_now_refused_is_not_opened_at_startup(database_url: str) -> None:
    from fourcards.poker.rules import get_rules
    from fourcards.store import Store
    from fourcards.web import create_app

    rules = get_rules("live").to_dict() | {"aces_up": HUGE_AU}  # what an older version accepted
    store = Store(database_url)
    store.create_table("oldtable", "poker", "Old", rules, {"starting_chips": 1000})
    store.close()
    with TestClient(create_app(database_url, bot_delay=0)) as c:  # the server starts all the same
        assert c.get("/api/tables/oldtable").status_code == 404
        t = create(c, "poker", public=True)
        assert [x["id"] for x in tables(c)] == [t["table"]["id"]]
