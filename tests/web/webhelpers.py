"""Helpers of the web tests: create tables, sit, act, play to the end."""

from __future__ import annotations

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
