"""Issue 26 item 1: a folded Four Card Poker hand is seen by its own seat only. One function decides
what a reader may see (``fourcards.table.history.visible``); this test reads every endpoint, export
and page that carries a table's results - as a spectator and as the other player - and finds the
folded hand's cards in none of them (``GET /deals`` returned every stored result whole)."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from webhelpers import create, hdr, post, sit, state, ws_connect

SUITS = {"h": "\u2665", "d": "\u2666", "c": "\u2663", "s": "\u2660"}


def _forms(card: str) -> set[str]:
    """Every way a page or an export may write ``card`` ("Th": Th, 10h, T♥, 10♥)."""
    rank, suit = card[:-1], card[-1].lower()
    ranks = {rank, "10"} if rank in ("T", "10") else {rank}
    return {r + s for r in ranks for s in (suit, SUITS[suit], suit.upper())}


def leaked(text: str, cards: list[str]) -> list[str]:
    """The folded cards written anywhere in ``text`` (a card is a word of its own: a table id such as
    ``x9hq2...`` is no card)."""
    return [f for c in cards for f in _forms(c)
            if re.search(rf"(?<![A-Za-z0-9]){re.escape(f)}(?![A-Za-z0-9])", text)]


def _night(client: TestClient) -> tuple[str, str, dict[str, str], list[str]]:
    """A club's poker table: Ann plays, Ben folds. Returns the table, the club, the tokens and Ben's cards."""
    club = client.post("/api/clubs", json={"name": "Fridays", "owner_name": "Ann"}).json()["club"]["id"]
    t = create(client, "poker", host_name="Ann", club=club, public=True)
    tid, ann = t["table"]["id"], t["token"]
    ben = sit(client, tid, "Ben")["token"]
    for tok in (ann, ben):
        assert post(client, tid, "/actions", tok, {"kind": "wager", "ante": 10}).status_code == 200
    assert post(client, tid, "/deal", ann).status_code == 200
    mine = next(s for s in state(client, tid, ben)["round"]["seats"] if s["seat"] == 2)
    cards = mine["cards"]
    assert len(cards) == 5
    assert post(client, tid, "/actions", ann, {"kind": "play", "amount": 10}).status_code == 200
    assert post(client, tid, "/actions", ben, {"kind": "fold"}).status_code == 200
    return tid, club, {"Ann": ann, "Ben": ben}, cards


def _every_reading(client: TestClient, tid: str, club: str, token: str | None) -> dict[str, str]:
    """Every endpoint, export and page that carries the table's results, as read with ``token``."""
    h = hdr(token) if token else {}
    gets = [f"/api/tables/{tid}", f"/api/tables/{tid}/state", f"/api/tables/{tid}/deals",
            f"/api/tables/{tid}/deals/1", f"/api/tables/{tid}/deals/1/replay", f"/api/tables/{tid}/settlement",
            f"/api/tables/{tid}/settlement.csv", f"/api/tables/{tid}/settle-up", f"/api/tables/{tid}/ledger",
            f"/api/tables/{tid}/hands.jsonl", f"/api/tables/{tid}/hands.txt", f"/api/tables/{tid}/club",
            f"/api/clubs/{club}", f"/api/clubs/{club}/standings", f"/api/clubs/{club}/standings.csv",
            f"/api/clubs/{club}/hands.jsonl", f"/api/clubs/{club}/hands.txt", "/api/tables",
            "/", f"/t/{tid}", f"/t/{tid}/history", f"/c/{club}"]
    out = {}
    for path in gets:
        r = client.get(path, headers=h)
        assert r.status_code == 200, (path, r.text)
        out[path] = r.text
    if token:
        out["POST /api/tables/mine"] = client.post("/api/tables/mine", json={"tokens": {tid: token}}).text
    with ws_connect(client, tid, token) as ws:
        out["websocket view"] = ws.receive_text()
    return out


def test_issue26_1_a_folded_hand_is_in_no_endpoint_export_or_page_but_its_own_seats(client: TestClient) -> None:
    tid, club, tokens, cards = _night(client)
    for reader in (None, tokens["Ann"]):
        seen = _every_reading(client, tid, club, reader)
        leaks = {path: found for path, text in seen.items() if (found := leaked(text, cards))}
        assert leaks == {}, f"{'a spectator' if reader is None else 'Ann'} sees Ben's folded {cards}: {leaks}"
    own: dict[str, Any] = client.get(f"/api/tables/{tid}/deals", headers=hdr(tokens["Ben"])).json()
    assert own["deals"][0]["result"]["seats"]["2"]["player_hand"] is not None  # Ben's own, in the same list
    assert leaked(client.get(f"/api/tables/{tid}/deals/1", headers=hdr(tokens["Ben"])).text, cards)


def test_issue26_1_the_deals_list_hides_a_folded_hand_as_the_deal_does(client: TestClient) -> None:
    """The issue's case: ``GET /deals`` (no token) returned ``seats[n].player_hand`` of a seat that
    folded, which ``/deals/{n}`` already hid."""
    tid, _, tokens, _ = _night(client)
    listed = client.get(f"/api/tables/{tid}/deals").json()["deals"][0]["result"]
    single = client.get(f"/api/tables/{tid}/deals/1").json()["result"]
    assert listed == single
    assert listed["seats"]["2"]["player_hand"] is None and listed["seats"]["1"]["player_hand"] is not None
    ann = client.get(f"/api/tables/{tid}/deals", headers=hdr(tokens["Ann"])).json()["deals"][0]["result"]
    assert ann["seats"]["2"]["player_hand"] is None
