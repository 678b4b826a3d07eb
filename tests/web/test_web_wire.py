"""On the wire: no hidden card reaches a seat before showdown.

Every websocket message and every HTTP response each seat receives is scanned
for card tokens (``"Th"`` in JSON, ``T♥`` in log lines). Four Card Poker:
before the showdown a seat may see only its own five cards and the dealer's up
card - never the dealer's hole cards, another seat's cards, or the deck. Four
of a Kind: every card is face up, but the undealt deck is secret - a card never
dealt or turned must never appear. The truth comes from the database after the
deal.
"""

from __future__ import annotations

import json
import re
from typing import Any

from fastapi.testclient import TestClient

from webhelpers import create, hdr, sit, ws_connect

_PLAIN = re.compile(r'"([2-9TJQKA][cdhs])"')
_PRETTY = re.compile(r"([2-9TJQKA])([\u2663\u2666\u2665\u2660])")
_SUIT = {"\u2663": "c", "\u2666": "d", "\u2665": "h", "\u2660": "s"}


def cards_in(text: str) -> set[str]:
    found = set(_PLAIN.findall(text))
    found |= {r + _SUIT[s] for r, s in _PRETTY.findall(text)}
    return found


class Seat:
    """One client: a websocket plus its REST calls; every message it gets is kept."""

    def __init__(self, client: TestClient, tid: str, token: str | None, ctx: Any) -> None:
        self.client, self.tid, self.token = client, tid, token
        self.ws = ctx.__enter__()
        self.ctx = ctx
        self.messages: list[str] = []
        self.version = -1
        self._take(self.ws.receive_text())

    def _take(self, text: str) -> dict[str, Any]:
        self.messages.append(text)
        msg = json.loads(text)
        if msg.get("type") == "state":
            self.version = max(self.version, msg["version"])
        return msg

    def drain(self, version: int) -> None:
        while self.version < version:
            self._take(self.ws.receive_text())

    def post(self, path: str, body: Any = None) -> dict[str, Any]:
        r = self.client.post(f"/api/tables/{self.tid}{path}", json=body or {}, headers=hdr(self.token))
        self.messages.append(r.text)
        assert r.status_code == 200, r.text
        return r.json()

    def get_state(self) -> dict[str, Any]:
        r = self.client.get(f"/api/tables/{self.tid}/state", headers=hdr(self.token) if self.token else {})
        self.messages.append(r.text)
        return r.json()

    def close(self) -> None:
        self.ctx.__exit__(None, None, None)


def _open(client: TestClient, tid: str, token: str | None) -> Seat:
    return Seat(client, tid, token, ws_connect(client, tid, token))


def test_four_card_poker_hides_every_hidden_card(client: TestClient) -> None:
    t = create(client, "poker", bots=1, host_name="Host")
    tid = t["table"]["id"]
    guest_tok = sit(client, tid, "Guest")["token"]
    host, guest, watcher = _open(client, tid, t["token"]), _open(client, tid, guest_tok), _open(client, tid, None)
    seats = {1: host, 3: guest}
    everyone = [host, guest, watcher]

    def sync(v: int) -> None:
        for s in everyone:
            s.drain(v)

    sync(host.post("/actions", {"kind": "wager", "ante": 10, "aces_up": 2})["version"])
    sync(guest.post("/actions", {"kind": "wager", "ante": 10})["version"])
    sync(host.post("/deal")["version"])
    for s in everyone:
        s.get_state()
    mid = {k: len(s.messages) for k, s in seats.items()}
    mid_watch = len(watcher.messages)
    sync(host.post("/actions", {"kind": "play", "amount": 20})["version"])  # seat 1; the bot (2) then decides
    last = guest.post("/actions", {"kind": "play", "amount": 10})
    assert last["last"]["phase"] == "settled"
    sync(last["version"])

    truth = client.app.state.hub.store.get_deal(tid, 1)  # type: ignore[attr-defined]
    deal = next(r for r in truth["history"] if r["kind"] == "deal")
    up = deal["up_card"]
    hands = {h["player"] + 1: set(h["cards"]) for h in deal["hands"]}  # table seat = player + 1
    dealer = set(deal["dealer"])
    assert up in dealer and set(hands) == {1, 2, 3}
    for seat_no, s in seats.items():
        allowed = hands[seat_no] | {up}
        checked = 0
        for text in s.messages:
            if '"phase": "settled"' in text or '"phase":"settled"' in text:
                break  # the showdown: from here on the cards are public
            leaked = cards_in(text) - allowed
            assert not leaked, f"seat {seat_no} saw hidden cards {leaked} before showdown"
            checked += 1
        assert checked >= mid[seat_no]  # every message up to and after the deal was checked
        assert hands[seat_no] <= cards_in("".join(s.messages[: mid[seat_no]]))  # it saw its own hand
        assert dealer <= cards_in(s.messages[-1])  # at showdown the dealer's cards are revealed
    for text in watcher.messages[:mid_watch]:
        assert cards_in(text) <= {up}, "a spectator saw a hidden card"
    for s in everyone:
        s.close()


def test_four_of_a_kind_never_reveals_the_deck(client: TestClient) -> None:
    t = create(client, "kind", bots=2, host_name="Host")
    tid = t["table"]["id"]
    guest_tok = sit(client, tid, "Guest")["token"]
    host, guest = _open(client, tid, t["token"]), _open(client, tid, guest_tok)
    try:
        by_seat = {1: host, 4: guest}
        v = host.post("/deal")["version"]
        for _ in range(400):
            for s in (host, guest):
                s.drain(v)
            st = host.get_state()
            if st["deal"] is None:
                break
            me = by_seat[st["deal"]["actor"]]
            acts = {a["kind"] for a in me.get_state()["actions"]}
            v = me.post("/actions", {"kind": "check" if "check" in acts else "call"})["version"]
        else:
            raise AssertionError("the deal did not end")
        for s in (host, guest):
            s.drain(v)
        truth = client.app.state.hub.store.get_deal(tid, 1)  # type: ignore[attr-defined]
        shown = {r["card"] for r in truth["history"] if r.get("op") in ("deal", "turn", "return")}
        full = {r + s for r in "23456789TJQKA" for s in "cdhs"}
        never_shown = full - shown
        assert len(never_shown) > 0
        for s in (host, guest):
            for text in s.messages:
                assert not (cards_in(text) & never_shown), "an undealt card left the server"
                assert '"deck":' not in text  # no deck key ("dealing": "deck" is the table's setting)
    finally:  # a failed assert must not leave sockets open (pytest would hang in teardown)
        for s in (host, guest):
            s.close()
