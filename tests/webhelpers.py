"""Helpers of the web tests: create tables, sit, act, play to the end."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient


def create(client: TestClient, game: str = "poker", bots: int = 0, **extra: Any) -> dict[str, Any]:
    """A table of ``game`` with ``bots``; guests sit without the host's approval unless
    ``seat_approval=True`` is given (the default of a private table is on: tested apart)."""
    extra.setdefault("seat_approval", False)
    body = {"game": game, "host_name": extra.pop("host_name", "Host"), "bots": bots, **extra}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def hdr(token: str) -> dict[str, str]:
    return {"X-Seat-Token": token}


def sit(client: TestClient, tid: str, name: str) -> dict[str, Any]:
    r = client.post(f"/api/tables/{tid}/seats", json={"name": name})
    assert r.status_code == 201, r.text
    return r.json()


def state(client: TestClient, tid: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/tables/{tid}/state", headers=hdr(token) if token else {})
    assert r.status_code == 200, r.text
    return r.json()


def post(client: TestClient, tid: str, path: str, token: str | None, body: Any = None) -> Any:
    return client.post(f"/api/tables/{tid}{path}", json=body if body is not None else {},
                       headers=hdr(token) if token else {})


def kind_move(actions: list[dict[str, Any]]) -> dict[str, Any]:
    """A simple legal move: check, else call (never fold), so deals run to four of a kind."""
    kinds = {a["kind"]: a for a in actions}
    if "check" in kinds:
        return {"kind": "check"}
    return {"kind": "call"}


def play_kind_deal(client: TestClient, tid: str, tokens: dict[int, str], limit: int = 500) -> dict[str, Any]:
    """Play the current Four of a Kind deal to its end for the human seats in ``tokens``."""
    for _ in range(limit):
        any_token = next(iter(tokens.values()))
        s = state(client, tid, any_token)
        if s["deal"] is None:
            return s
        actor = s["deal"]["actor"]
        assert actor in tokens, f"bots should have moved; seat {actor} is to act"
        me = state(client, tid, tokens[actor])
        r = post(client, tid, "/actions", tokens[actor], kind_move(me["actions"]))
        assert r.status_code == 200, r.text
    raise AssertionError("the deal did not end")


def comparable(s: dict[str, Any]) -> dict[str, Any]:
    """A state without its version counter and the clock's running seconds (for 'nothing
    changed' checks)."""
    out = {k: v for k, v in s.items() if k != "version"}
    if out.get("clock"):
        out["clock"] = {k: v for k, v in out["clock"].items() if k != "seconds_left"}
    return out


def ws_connect(client: TestClient, tid: str, token: str | None = None) -> Any:
    """The table's websocket as ``token``'s seat (``None``: a spectator), the token in the
    ``Sec-WebSocket-Protocol`` header as the page sends it (docs/web.md "Security")."""
    from fourcards.web.routes.live import subprotocols

    return client.websocket_connect(f"/ws/tables/{tid}", subprotocols=subprotocols(token))


def until(check: Any, what: str, timeout: float = 15) -> Any:
    """Poll ``check()`` until it gives something true (returned) or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def wait_for(predicate: Any, timeout: float = 10.0) -> Any:
    return until(predicate, "the table", timeout)


def ledger_ok(client: TestClient, tid: str) -> None:
    audit = client.get(f"/api/tables/{tid}/ledger").json()["audit"]
    assert audit == {"total": 0, "unbalanced_txns": [], "open_escrow_deals": []}


def settled_to_zero(client: TestClient, tid: str) -> dict[str, Any]:
    s = client.get(f"/api/tables/{tid}/settlement").json()
    assert s["total"] == 0
    assert sum(r["net"] for r in s["players"]) + (s["house"] or 0) + s["in_play"] == 0
    for r in s["players"]:
        assert r["net"] == r["stack"] + r["cashed_out"] - r["bought_in"] - r["top_ups"]
    return s


def kind_table_with_guest(client: TestClient, clock: int) -> tuple[str, str, str]:
    """Host (seat 1), three bots, Guest (seat 5): a deal goes on without the guest."""
    t = create(client, "kind", bots=3, turn_clock=clock)
    tid, host = t["table"]["id"], t["token"]
    guest = sit(client, tid, "Guest")["token"]
    return tid, host, guest


def finish_deal(client: TestClient, tid: str, host: str) -> dict[str, Any]:
    """Play the host's turns (check, else call) until the deal ends; others act by themselves."""
    def step() -> dict[str, Any] | None:
        s = state(client, tid, host)
        if s["deal"] is None:
            return s
        if s["deal"]["actor"] == 1:
            assert post(client, tid, "/actions", host, kind_move(s["actions"])).status_code == 200
        return None
    return wait_for(step, 30)


REAL_CARDS_GUESTS = ("Ann", "Ben", "Cat")


def real_cards_table(client: TestClient, **extra: Any) -> tuple[str, str, dict[str, str]]:
    """A real-cards table: Rob (host, seat 1, the first button) and Ann, Ben, Cat at seats 2-4;
    the first deal started (its first card goes to Ann). Returns the id, the host's token and
    each guest's token."""
    t = create(client, "kind", host_name="Rob", dealing="table", **extra)
    tid, host = t["table"]["id"], t["token"]
    guests = {n: sit(client, tid, n)["token"] for n in REAL_CARDS_GUESTS}
    r = post(client, tid, "/deal", host)
    assert r.status_code == 200, r.text
    return tid, host, guests


def enter_cards(client: TestClient, tid: str, token: str | None, text: str) -> Any:
    """POST the real cards ``text`` (the host's, FOAK-14)."""
    return post(client, tid, "/cards", token, {"cards": text})


def four_people_dealt(client: TestClient, clock: int = 0) -> tuple[str, dict[str, str]]:
    """Ann (host), Ben, Cat, Dan: four people, no bots; the first deal dealt."""
    t = create(client, "kind", host_name="Ann", bots=0, turn_clock=clock, public=True)
    tid, tokens = t["table"]["id"], {"Ann": t["token"]}
    for name in ("Ben", "Cat", "Dan"):
        tokens[name] = sit(client, tid, name)["token"]
    assert post(client, tid, "/deal", tokens["Ann"]).status_code == 200
    return tid, tokens


def to_act(s: dict[str, Any]) -> str:
    """The name of the person to act in a view."""
    return next(p["name"] for p in s["deal"]["seats"] if p["seat"] == s["deal"]["actor"])


def check_or_call(s: dict[str, Any]) -> dict[str, Any]:
    """A check if the view's actions have one, else a call."""
    kinds = {a["kind"] for a in s["actions"]}
    return {"kind": "check"} if "check" in kinds else {"kind": "call"}
